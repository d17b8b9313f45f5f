// The guards pane: the filters, what a filtered compile specialized, the sortable table of
// guards, and the detail of the guard selected.
import { compilerGuardNote, nodeText } from "./compiler_guards";
import type { Frame, Guard, Session } from "./document";
import { h, select } from "./dom";
import { fixesView } from "./fixes";
import { guardChoices, guardRows } from "./guardrows";
import type { GuardFilter, SortKey } from "./model";
import { compileSymbols, formatHash, guardOf, guardSymbols, guardText, symbolSaid } from "./model";
import type { Go, Host, State } from "./pane";
import { frameLink, guardExpr } from "./pane";
import { virtualTable } from "./virtual";
import { counted } from "./words";

/** The filters (each offering every value of its column), the compile's summary, the guards table. */
export function guardsPane(session: Session, state: State, go: Go, host: Host = {}): HTMLElement {
  const filter = state.filter;
  const pick = (key: keyof GuardFilter, options: string[]) =>
    select(options, filter[key] ?? "", key, (v) => go({ filter: { ...filter, [key]: v || undefined } }));
  const text = document.createElement("input");
  text.placeholder = "search expr, node, source, line";
  text.value = filter.text ?? "";
  text.addEventListener("change", () => go({ filter: { ...filter, text: text.value || undefined } }));
  const rows = guardRows(session, filter, state.sort, state.descending);
  const choices = guardChoices(session);
  const filters = h(
    "div",
    { class: "filters" },
    pick("cause", choices.cause),
    pick("status", choices.status),
    pick("compile", choices.compile),
    pick("phase", choices.phase),
    text,
    h(
      "span",
      { class: "muted", "data-count": String(rows.length) },
      `${rows.length} of ${counted(session.guards.length, "guard")}`,
    ),
  );
  const summary = filter.compile ? compileSummary(session, filter.compile) : null;
  return h("div", {}, filters, summary, guardsTable(session, rows, state, go, host));
}

/** What the filtered compile made of each input (its symbols), above its guards; said when it has none. */
function compileSummary(session: Session, compileId: string): HTMLElement {
  const symbols = compileSymbols(session, compileId);
  const guarded = session.guards.some((g) => g.compile_id === compileId);
  return h(
    "div",
    { class: "compile-summary", "data-compile-summary": compileId },
    h("h4", {}, `what ${compileId} specialized and kept dynamic`),
    symbols.length
      ? h("ul", {}, ...symbols.map((s) => h("li", {}, h("code", {}, symbolSaid(s)))))
      : h("p", { class: "muted" }, `the document lists no symbol of ${compileId}`),
    guarded ? null : h("p", { class: "muted", "data-no-guards": "" }, `${compileId} has no shape guard`),
  );
}

function guardsTable(session: Session, rows: Guard[], state: State, go: Go, host: Host): HTMLElement {
  const sortable = (key: SortKey, label: string) =>
    h(
      "th",
      { "data-col": key, onclick: () => go({ sort: key, descending: state.sort === key ? !state.descending : false }) },
      label + (state.sort === key ? (state.descending ? " ▼" : " ▲") : ""),
    );
  const head = h(
    "tr",
    {},
    sortable("compile_id", "compile"),
    sortable("expr", "guard"),
    h(
      "th",
      { "data-col": "symbols", title: "each symbol of the guard and the input dimension it stands for" },
      "symbols",
    ),
    sortable("cause", "cause"),
    sortable("status", "status"),
    sortable("phase", "phase"),
    h("th", { "data-col": "line" }, "user line"),
  );
  return virtualTable("guards", head, rows.length, (i) => guardRow(session, rows[i], state, go, host));
}

function guardRow(session: Session, g: Guard, state: State, go: Go, host: Host): HTMLElement {
  const frame = g.user_stack[g.user_stack.length - 1];
  const where = frame ? `${basename(frame.filename)}:${frame.lineno}` : "";
  const symbols = guardSymbols(session, g).join("; ");
  return h(
    "tr",
    { class: `row${state.guard === g.id ? " on" : ""}`, "data-guard": g.id, onclick: () => go({ guard: g.id }) },
    h("td", {}, g.compile_id),
    h("td", { title: guardText(g), "data-expr": "" }, ...guardExpr(g)),
    h("td", { title: symbols, "data-symbols": "" }, symbols),
    h("td", { title: g.cause }, h("span", { class: `cause ${g.cause}` }, g.cause)),
    h("td", { title: g.status }, g.status),
    h("td", { title: g.phase }, g.phase),
    h("td", { title: frame?.line ?? "" }, frame ? (host.openFrame ? frameLink(frame, host, where) : where) : ""),
  );
}

/** One guard: its expression, cause and node, its symbols, its stacks and its fixes, and its link. */
export function guardDetail(session: Session, id: string, go: Go, host: Host = {}): HTMLElement {
  const g = guardOf(session, id);
  if (!g) return h("div", { class: "muted" }, `no guard ${id}`);
  const note = compilerGuardNote(g);
  const stack = (frames: Frame[]) =>
    h(
      "ol",
      {},
      ...frames.map((f) =>
        h("li", {}, frameLink(f, host, `${f.filename}:${f.lineno} in ${f.name}`), f.line ? h("pre", {}, f.line) : null),
      ),
    );
  return h(
    "div",
    { "data-detail": g.id },
    h("h3", {}, h("code", {}, ...guardExpr(g))),
    h(
      "p",
      {},
      h("span", { class: `cause ${g.cause}` }, g.cause),
      ` ${g.status}, ${g.phase}, compile ${g.compile_id}`,
      h("a", { onclick: () => go({ pane: "guards", guard: g.id }) }, ""),
    ),
    nodeLine(g),
    note ? h("p", { class: "compiler-note", "data-compiler-note": g.cause }, note) : null,
    symbolList(session, g),
    ...(g.user_stack.length ? [h("h4", {}, "user stack"), stack(g.user_stack)] : []),
    g.framework_stack.length
      ? h("details", {}, h("summary", {}, `framework stack (${g.framework_stack.length})`), stack(g.framework_stack))
      : null,
    fixesView(g.fixes),
    h("p", { class: "muted" }, `link: ${formatHash({ pane: "guard", id: g.id })}`),
  );
}

/** The guard's FX node (or the control flow it came from) and its kernel; nothing when it has neither. */
function nodeLine(g: Guard): HTMLElement | null {
  const node = nodeText(g);
  const kernel = g.kernel ? `kernel ${g.kernel}` : "";
  if (!node && !kernel) return null;
  return h("p", {}, [node, kernel].filter(Boolean).join("; "));
}

/** The guard's symbols and the input dimensions they stand for; nothing when it has none. */
function symbolList(session: Session, g: Guard): HTMLElement | null {
  if (!g.symbols.length) return null;
  const items = guardSymbols(session, g).map((text) => h("li", {}, h("code", {}, text)));
  return h("div", { class: "symbols" }, h("h4", {}, "symbols"), h("ul", {}, ...items));
}

function basename(path: string): string {
  return path.split("/").pop() ?? path;
}
