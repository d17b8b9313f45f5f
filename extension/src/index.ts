// The viewer's one entry point: render(el, data). Used by the HTML report and the widget.
// It draws whichever document it is given: a session, the diff of two runs, a suite sweep.

import { DIFF_STYLES, renderDiff } from "./diff";
import type { DiffDocument } from "./diff_document";
import type { Session } from "./document";
import { clear, h } from "./dom";
import { guardDetail, guardsPane } from "./guards";
import { huntPane } from "./hunt";
import { huntRows } from "./huntmodel";
import { kernelsPane } from "./kernels";
import { formatHash, parseHash, unpack } from "./model";
import { overview } from "./overview";
import type { Host, State } from "./pane";
import { sizesPane } from "./sizes";
import { STYLES } from "./styles";
import { renderSuite, SUITE_STYLES } from "./suite";
import type { SuiteDocument } from "./suite_document";
import { symbolsPane } from "./symbols";
import { whyPane } from "./why";
import type { Wire } from "./wire";
import { sessionTotals } from "./words";

const PANES = ["overview", "symbols", "guards", "why", "kernels", "sizes", "hunt"] as const;

function initialState(hash: string): State {
  const link = parseHash(hash);
  const state: State = { pane: "overview", filter: {}, sort: "compile_id", descending: false };
  if (link.pane === "guard") return { ...state, pane: "guards", guard: link.id };
  if (link.pane === "why" || link.pane === "symbol") return { ...state, pane: "why", source: link.id };
  if (link.pane === "compile") return { ...state, pane: "guards", filter: { compile: link.id } };
  return (PANES as readonly string[]).includes(link.pane) ? { ...state, pane: link.pane } : state;
}

export type { Host } from "./pane";

/** Any document the viewer draws. */
export type ViewerDocument = Session | Wire | DiffDocument | SuiteDocument;

/**
 * Draw the document into `el`: a diff when it holds `diff_version`, a suite when it holds
 * `suite_version`, else a session. A page of its own (the report) keeps the session's view in
 * the URL's hash; a host that embeds the viewer (JupyterLab, the widget) passes
 * `deepLinks: false` and may open stack frames itself (`openFrame`).
 */
export function render(el: HTMLElement, input: ViewerDocument, host: Host = {}): void {
  if ("diff_version" in input) renderDiff(mount(el, DIFF_STYLES), input, host);
  else if ("suite_version" in input) renderSuite(mount(el, SUITE_STYLES), input);
  else renderSession(mount(el), input, host);
}

/** The viewer's root in `el` (emptied first), with the styles every view shares and its own. */
function mount(el: HTMLElement, styles = ""): HTMLElement {
  const root = h("div", { class: "sd" });
  const style = document.createElement("style");
  style.textContent = STYLES + styles;
  clear(el).append(style, root);
  return root;
}

function renderSession(root: HTMLElement, input: Session | Wire, host: Host): void {
  const data = unpack(input);
  const deepLinks = host.deepLinks ?? true;
  let state = initialState(deepLinks && typeof location !== "undefined" ? location.hash : "");
  const go = (change: Partial<State>) => {
    state = { ...state, ...change };
    if (deepLinks && typeof history !== "undefined") history.replaceState(null, "", link(state));
    draw();
  };
  const draw = () => {
    const pane = h("div", { class: "pane", "data-pane": state.pane }, body(data, state, go, host));
    root.replaceChildren(
      header(data),
      tabs(data, state, go),
      h("div", { class: "main" }, pane, detailOf(data, state, go, host)),
    );
  };
  draw();
}

/** The link to what is shown: the selected guard on the guards tab, else the tab. */
function link(state: State): string {
  if (state.pane === "guards" && state.guard) return formatHash({ pane: "guard", id: state.guard });
  return formatHash({ pane: state.pane });
}

/** Each tab's own detail pane: the guards tab shows the selected guard; the others have none. */
function detailOf(data: Session, state: State, go: (c: Partial<State>) => void, host: Host): HTMLElement | null {
  if (state.pane !== "guards" || !state.guard) return null;
  return h("div", { class: "detail", "data-detail-of": "guards" }, guardDetail(data, state.guard, go, host));
}

function body(data: Session, state: State, go: (c: Partial<State>) => void, host: Host): HTMLElement {
  switch (state.pane) {
    case "symbols":
      return symbolsPane(data, go);
    case "guards":
      return guardsPane(data, state, go, host);
    case "why":
      return whyPane(data, state, go, host);
    case "kernels":
      return kernelsPane(data);
    case "sizes":
      return sizesPane(data);
    case "hunt":
      return huntPane(data, host);
    default:
      return overview(data, go, host);
  }
}

function header(data: Session): HTMLElement {
  const problems = Object.entries(data.problems)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  return h(
    "header",
    {},
    h("h1", {}, "symdebug"),
    h("span", { class: "muted" }, data.source),
    h("span", {}, sessionTotals(data)),
    problems ? h("span", { class: "problems" }, `problems: ${problems}`) : null,
  );
}

/** The tabs of the session: the hunt's only where the document has its rows. */
function tabs(data: Session, state: State, go: (c: Partial<State>) => void): HTMLElement {
  const shown = PANES.filter((p) => p !== "hunt" || huntRows(data).length);
  return h(
    "nav",
    {},
    ...shown.map((p) =>
      h("button", { class: state.pane === p ? "on" : "", "data-tab": p, onclick: () => go({ pane: p }) }, p),
    ),
  );
}
