// A long list drawn a part at a time: the first part at once (what the page shows first), the
// rest while the browser is idle, so the first paint of thousands of frames waits for none.

/** Time to leave each idle period (ms): input and painting come first. */
const IDLE_MARGIN_MS = 2;
// The longest wait for an idle period (ms), and the least time drawn in a part: after an
// input event headless Chromium may give no idle period at all, and the rest must still come.
const IDLE_WAIT_MS = 100;
const SLICE_MS = 10;

interface IdleDeadline {
  timeRemaining(): number;
}

/**
 * Append what `draw` makes of each item to `root`: items costing up to `budget` (by `cost`)
 * now, the rest in idle time. Stops when `root` leaves the page (another tab was drawn).
 */
export function appendInParts<T>(
  root: HTMLElement,
  items: T[],
  draw: (item: T) => Node[],
  cost: (item: T) => number,
  budget: number,
): void {
  let next = 0;
  for (let spent = 0; next < items.length && (next === 0 || spent < budget); next++) {
    spent += cost(items[next]);
    root.append(...draw(items[next]));
  }
  let shown = false; // in the page once: leaving it then means the view was redrawn
  const part = (deadline: IdleDeadline) => {
    shown ||= root.isConnected;
    if (shown && !root.isConnected) return;
    const end = performance.now() + Math.max(deadline.timeRemaining() - IDLE_MARGIN_MS, SLICE_MS);
    const fragment = document.createDocumentFragment();
    do fragment.append(...draw(items[next++]));
    while (next < items.length && performance.now() < end);
    root.append(fragment);
    if (next < items.length) whenIdle(part);
  };
  if (next < items.length) whenIdle(part);
}

/** Call `callback` when the browser is idle (or after `IDLE_WAIT_MS` at the latest). */
export function whenIdle(callback: (deadline: IdleDeadline) => void): void {
  if (typeof requestIdleCallback === "function") requestIdleCallback(callback, { timeout: IDLE_WAIT_MS });
  else setTimeout(() => callback({ timeRemaining: () => 0 }), 0);
}
