// How the explorer widget asks the page to open a stack frame.  The widget is a module of its
// own (anywidget loads it from the kernel), so it cannot call the JupyterLab extension: it
// sends a DOM event from its element, and the extension, which marks the page when it
// listens, opens the frame in the notebook that holds the element.
import type { Frame } from "./document";

/** The event a frame link of the explorer sends (bubbling, `detail` is the frame). */
export const FRAME_EVENT = "symdebug-open-frame";
/** The attribute of the page's root that says frames sent this way are opened. */
export const OPENS_FRAMES = "data-symdebug-opens-frames";

/** Whether a listener opens frames in this page (JupyterLab with the extension). */
export function opensFrames(doc: Document): boolean {
  return doc.documentElement.hasAttribute(OPENS_FRAMES);
}

/** Ask the page to open `frame`, from the element that shows it. */
export function requestFrame(from: HTMLElement, frame: Frame): void {
  from.dispatchEvent(new CustomEvent<Frame>(FRAME_EVENT, { detail: frame, bubbles: true }));
}

/** Open each frame an element of `doc` asks for; the page is marked as opening frames. */
export function listenForFrames(doc: Document, open: (frame: Frame, from: HTMLElement) => void): void {
  doc.addEventListener(FRAME_EVENT, (event) => {
    const { detail, target } = event as CustomEvent<Frame>;
    if (detail && target instanceof HTMLElement) open(detail, target);
  });
  doc.documentElement.setAttribute(OPENS_FRAMES, "");
}
