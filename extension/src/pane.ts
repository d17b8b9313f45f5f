// What every pane of the session shares: the view state, what the host offers, and the links
// a pane draws to a stack frame or a guard.
import type { Frame, Guard } from "./document";
import { h } from "./dom";
import type { GuardFilter, SortKey } from "./model";

export interface State {
  pane: string;
  guard?: string;
  source?: string;
  filter: GuardFilter;
  sort: SortKey;
  descending: boolean;
}
export type Go = (change: Partial<State>) => void;
/** What the page around the viewer offers: JupyterLab opens frames in cells and files. */
export interface Host {
  openFrame?: (frame: Frame) => void;
  deepLinks?: boolean;
}

/** A stack frame as text, or as a button that opens it where the host can. */
export function frameLink(frame: Frame, host: Host, label = `${frame.filename}:${frame.lineno}`): HTMLElement {
  const open = host.openFrame;
  if (!open) return h("code", {}, label);
  return h(
    "button",
    {
      class: "frame-link",
      title: `open ${frame.filename} at line ${frame.lineno}`,
      "data-frame": `${frame.filename}:${frame.lineno}`,
      onclick: (e) => {
        e.stopPropagation();
        open(frame);
      },
    },
    label,
  );
}

/** A guard in the user's names, then torch's text (muted), as Python's `why` shows it. */
export function guardExpr(g: Guard): (HTMLElement | string)[] {
  if (!g.user_expr || g.user_expr === g.expr) return [g.expr];
  return [h("span", { class: "user-expr" }, g.user_expr), " ", h("span", { class: "muted" }, `(torch: ${g.expr})`)];
}
