// Long tables drawn a window at a time: the rows in view and a margin, spacer rows for the
// rest. 100,000 guards then cost what a screenful does to draw, to lay out and to re-sort.
import { h } from "./dom";
import { visibleWindow } from "./model";

/** Each row's height (CSS gives the rows of a `.scroll` table this height). */
export const ROW_HEIGHT = 24;

/**
 * A scrolling table of `count` rows; `row(i)` draws the i-th. Only the rows in view (and a
 * margin) are in the page, unless there are `allBelow` rows or fewer: a short table is drawn
 * whole, so the browser's find and a print show every row.
 */
export function virtualTable(
  className: string,
  head: HTMLElement,
  count: number,
  row: (index: number) => HTMLElement,
  allBelow = 0,
): HTMLElement {
  const body = h("tbody");
  const scroll = h("div", { class: "scroll" }, h("table", { class: className }, h("thead", {}, head), body));
  if (count <= allBelow) {
    body.append(...Array.from({ length: count }, (_, i) => row(i)));
    return scroll;
  }
  let shown = "";
  const draw = () => {
    const [first, last] = visibleWindow(scroll.scrollTop, scroll.clientHeight || 480, ROW_HEIGHT, count);
    if (`${first}:${last}` === shown) return; // scrolled within the margin: nothing to redraw
    shown = `${first}:${last}`;
    const rows = Array.from({ length: last - first }, (_, i) => row(first + i));
    body.replaceChildren(spacer(first * ROW_HEIGHT), ...rows, spacer((count - last) * ROW_HEIGHT));
  };
  scroll.addEventListener("scroll", draw);
  requestAnimationFrame(draw);
  draw();
  return scroll;
}

function spacer(height: number): HTMLElement {
  const row = h("tr", { class: "spacer" });
  row.style.height = `${height}px`;
  return row;
}
