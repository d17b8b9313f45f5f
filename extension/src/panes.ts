// One function per pane: each builds its DOM from the session and the view state.

import { readSweep, sweepChart } from "./chart";
import { compilerGuardNote, nodeText } from "./compiler_guards";
import type {
  Fix,
  Frame,
  GraphBreak,
  Guard,
  Kernel,
  Recompile,
  Session,
  SourceExplanation,
  SymbolFact,
  WhyStep,
} from "./document";
import { append, folded, h, select, setOptions } from "./dom";
import { guardChoices, guardRows } from "./guardrows";
import type { GuardFilter, SortKey } from "./model";
import {
  compileSymbols,
  diffLines,
  explanationOf,
  explanationsOf,
  type FrameGroup,
  formatHash,
  frameLabel,
  frames,
  graphBreaksOf,
  guardOf,
  guardSymbols,
  guardText,
  mostRecompiled,
  namedSource,
  recompileOf,
  recompilesOf,
  sources,
  sourcesText,
  specializationOf,
  symbolSaid,
  verification,
} from "./model";
import { appendInParts, whenIdle } from "./parts";
import { virtualTable } from "./virtual";
import { counted } from "./words";

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

/** Compiles drawn before the overview's first paint; later frames are drawn while the browser is idle. */
const FIRST_COMPILES = 100;

export function overview(session: Session, go: Go, host: Host = {}): HTMLElement {
  const root = h("div");
  const draw = (frame: FrameGroup) => frameView(session, frame, go, host);
  appendInParts(root, frames(session), draw, (frame) => frame.compiles.length, FIRST_COMPILES);
  return root;
}

/** One frame of the overview: its title, its compiles' timeline, its recompiles and graph breaks. */
function frameView(session: Session, frame: FrameGroup, go: Go, host: Host): HTMLElement[] {
  const where = { filename: frame.filename, lineno: frame.lineno, name: frame.name, line: "" };
  const exported = frame.compiles[0]?.kind === "export"; // a torch.export call, not a frame
  const title = exported ? `torch.export.${frame.name}` : `frame ${frame.name}`;
  const ids = new Set(frame.compiles.map((c) => c.compile_id));
  return [
    h("h3", {}, `${title}  `, h("span", { class: "muted" }, frameLink(where, host))),
    timeline(session, frame, go),
    ...frame.compiles
      .filter((c) => exported && c.fail_reason)
      .map((c) => h("pre", { class: "export-error" }, c.fail_reason ?? "")),
    ...recompilesOf(session, ids).map((r) => recompileView(session, r, go, host)),
    ...graphBreaksOf(session, ids).map((b) => graphBreakView(b, host)),
  ];
}

/** A frame's compiles in order, each arrow between two saying why the second was made. */
function timeline(session: Session, frame: FrameGroup, go: Go): HTMLElement {
  const line = h("div", { class: "timeline" });
  frame.compiles.forEach((c, i) => {
    const recompile = recompileOf(session, c.compile_id);
    if (i > 0) {
      const title = recompile?.reasons.join("\n") ?? "";
      line.appendChild(h("span", { class: "arrow", title }, `→ ${recompile ? recompile.cause : ""} →`));
    }
    const label = `${c.compile_id}${c.status !== "ok" ? ` (${c.status})` : ""}`;
    const onclick = () => go({ pane: "guards", filter: { compile: c.compile_id }, guard: undefined });
    line.appendChild(h("span", { class: `compile ${c.status}`, "data-compile": c.compile_id, onclick }, label));
  });
  return line;
}

/**
 * One recompile as the document explains it: its cause, the check that failed (the guard, its
 * user line, the inputs), the fixes (best first), and torch's own text folded away.
 */
export function recompileView(session: Session, r: Recompile, go: Go, host: Host = {}): HTMLElement {
  const entry = r.failed_entry ? ` (entry ${r.failed_entry} failed)` : "";
  return h(
    "div",
    { class: "recompile", "data-recompile": r.compile_id },
    h("div", {}, h("span", { class: `cause ${r.cause}` }, r.cause), ` compile ${r.compile_id} recompiled${entry}`),
    failedCheck(session, r, go, host),
    ...recompileLine(session, r, host),
    fixesView(r.fixes, 1),
    h("details", { class: "reason" }, h("summary", {}, "torch's reason"), h("pre", {}, r.reasons.join("\n"))),
  );
}

/**
 * The recompile's user line where its guard shows none or another: a dtype's call, a float's
 * use, the line that marked an input (the document's `user_frame`).
 */
function recompileLine(session: Session, r: Recompile, host: Host): HTMLElement[] {
  const frame = r.user_frame;
  const guard = guardOf(session, r.guard);
  const shown = guard?.user_stack[guard.user_stack.length - 1];
  if (!frame || (shown && shown.filename === frame.filename && shown.lineno === frame.lineno)) return [];
  const line = h("div", { class: "recompile-line" }, "line: ", frameLink(frame, host));
  return frame.line ? [line, h("pre", { class: "code" }, frame.line)] : [line];
}

/** The guard whose check failed (linked to the guards pane) or the constant, and the inputs. */
function failedCheck(session: Session, r: Recompile, go: Go, host: Host): HTMLElement {
  // The document names each input; an older one named only a wrapper's, on its explanation.
  const named = r.sources.map((source, i) =>
    namedSource(source, r.user_names?.[i] || explanationOf(session, source)?.user_name),
  );
  const root = h("div", { class: "check" }, r.sources.length ? `inputs: ${named.join(", ")}` : "");
  const guard = guardOf(session, r.guard);
  const constant = specializationOf(session, r.specialization);
  if (guard) append(root, guardCheck(session, guard, go, host));
  else if (constant) root.append(`; ${constant.source} was the constant ${constant.value} in ${constant.compile_id}`);
  return root;
}

/** `; failed check x.shape[1] > 8 (torch: s27 > 8) (s27 = x.shape[1] (L['x'].size()[1])) at demo.py:29`, then the line. */
function guardCheck(session: Session, guard: Guard, go: Go, host: Host): (HTMLElement | string)[] {
  const frame = guard.user_stack[guard.user_stack.length - 1];
  const symbols = guardSymbols(session, guard).filter((s) => s.includes(" = "));
  const link = h(
    "a",
    { class: "guard", "data-guard": guard.id, onclick: () => go({ pane: "guards", guard: guard.id }) },
    ...guardExpr(guard),
  );
  const parts: (HTMLElement | string)[] = ["; failed check ", link];
  if (symbols.length) parts.push(` (${symbols.join("; ")})`);
  if (frame) parts.push(" at ", frameLink(frame, host));
  if (frame?.line) parts.push(h("pre", { class: "code" }, frame.line));
  return parts;
}

/** A graph break: its line and reason, the resume frame (or the skip), what it lost, its fixes. */
export function graphBreakView(b: GraphBreak, host: Host = {}): HTMLElement {
  const after = b.failed
    ? "the compile failed (the call raised)"
    : b.skipped
      ? "frame skipped for good (it runs eagerly, uncompiled)"
      : `resume frame ${b.resume_frames.join(", ") || "?"} (${b.resume_compiles.join(", ") || "not compiled"})`;
  const at = b.user_frame ? frameLink(b.user_frame, host) : h("code", {}, "(no line of yours in the frame)");
  // A break raised inside a library: its line there, beside the user's line that called it.
  const library = b.library_frame
    ? [" in ", h("span", { class: "library-line" }, frameLink(b.library_frame, host), " (library)")]
    : [];
  const root = h(
    "div",
    { class: "graph-break", "data-compile": b.compile_id },
    h("span", { class: "cause graph_break" }, "graph break"),
    " at ",
    at,
    ...library,
    `: ${b.reason} → ${after}`,
  );
  if (b.expression) {
    root.appendChild(h("div", { class: "data-dependent" }, `data-dependent: torch could not decide ${b.expression}`));
  }
  if (b.user_frame?.line) root.appendChild(h("pre", { class: "code" }, b.user_frame.line));
  for (const l of b.lost) {
    const marked = l.marked ? "marked dynamic" : `dynamic (${l.symbol})`;
    root.appendChild(
      h(
        "div",
        { class: "lost" },
        `lost dynamism: ${l.source} was ${marked} in ${b.compile_id}; the resume compile ${l.resume_compile} ` +
          `got ${l.resume_sources.join(", ")} = ${l.value} as a constant`,
      ),
    );
  }
  const fixes = fixesView(b.fixes);
  if (fixes) root.appendChild(fixes);
  return root;
}

/** What made an unbacked symbol, where, and what the graph asserts of it at run time. */
function originText(s: SymbolFact): string {
  if (!s.origin) return "";
  const at = s.user_frame ? ` at ${s.user_frame.filename}:${s.user_frame.lineno}` : "";
  const asserts = s.runtime_asserts?.length ? `; runtime asserts: ${s.runtime_asserts.join(", ")}` : "";
  return `${s.origin}${at}${asserts}`;
}

/** A compile's library constants, one row per library (the document groups them), each drawn when shown. */
function expectedRows(session: Session): (() => HTMLElement)[] {
  return session.compiles.flatMap((c) =>
    (c.expected_constants ?? []).map(
      (line) => () => h("tr", { class: "expected" }, h("td", {}, c.compile_id), h("td", {}, "—"), h("td", {}, line)),
    ),
  );
}

/** Symbols tables this long or shorter are drawn whole; longer ones a window at a time. */
const WHOLE_SYMBOLS = 500;

export function symbolsPane(session: Session, go: Go): HTMLElement {
  const symbols = session.symbols.filter((s) => !s.expected);
  const expected = expectedRows(session);
  const row = (i: number) => (i < symbols.length ? symbolRow(symbols[i], go) : expected[i - symbols.length]());
  const columns = ["compile", "symbol", "sources", "origin", "hint", "range", "state", "cause"];
  const head = h("tr", {}, ...columns.map((t) => h("th", {}, t)));
  return virtualTable("symbols", head, symbols.length + expected.length, row, WHOLE_SYMBOLS);
}

function symbolRow(s: SymbolFact, go: Go): HTMLElement {
  const range = s.range ? `[${s.range[0]}, ${s.range[1]}]` : "";
  return h(
    "tr",
    { class: "row", onclick: () => go({ pane: "why", source: s.sources[0] }) },
    h("td", {}, s.compile_id),
    h("td", {}, s.name),
    h("td", {}, sourcesText(s)),
    h("td", {}, originText(s)),
    h("td", {}, s.hint ?? ""),
    h("td", {}, range),
    h("td", {}, s.state),
    h("td", {}, s.cause ? h("span", { class: `cause ${s.cause}` }, s.cause) : ""),
  );
}

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

/** A guard in the user's names, then torch's text (muted), as Python's `why` shows it. */
function guardExpr(g: Guard): (HTMLElement | string)[] {
  if (!g.user_expr || g.user_expr === g.expr) return [g.expr];
  return [h("span", { class: "user-expr" }, g.user_expr), " ", h("span", { class: "muted" }, `(torch: ${g.expr})`)];
}

/** The guard's symbols and the input dimensions they stand for; nothing when it has none. */
function symbolList(session: Session, g: Guard): HTMLElement | null {
  if (!g.symbols.length) return null;
  const items = guardSymbols(session, g).map((text) => h("li", {}, h("code", {}, text)));
  return h("div", { class: "symbols" }, h("h4", {}, "symbols"), h("ul", {}, ...items));
}

/** One suggested fix: its code, its kind, whether a replay verified it and what that measured. */
export function fixView(fix: Fix): HTMLElement {
  const status = verification(fix);
  const copy = h("button", { onclick: () => navigator.clipboard?.writeText(fix.code) }, "copy");
  return h(
    "div",
    { class: "fix", "data-verified": status },
    h(
      "div",
      {},
      h("span", { class: `badge ${status.replace(" ", "-")}` }, status),
      " ",
      h("span", { class: "kind" }, fix.kind),
      fix.effect ? h("span", { class: "effect" }, ` ${fix.effect}`) : null,
      " ",
      copy,
    ),
    h("pre", { class: "fix-code" }, fix.code),
    fix.diff ? diffView(fix.diff) : null,
    fix.explanation ? h("p", { class: "muted" }, fix.explanation) : null,
  );
}

/** The diff of a rewrite a replay swapped in: added lines green, removed lines red. */
export function diffView(diff: string): HTMLElement {
  const lines = diffLines(diff).map(({ kind, text }, i) =>
    h("span", { class: `diff-line ${kind}` }, i ? `\n${text}` : text),
  );
  return h("pre", { class: "fix-diff" }, ...lines);
}

/** The fixes of a guard or an input, best first; past the first `shown`, folded; nothing when there is none. */
export function fixesView(fixes: Fix[], shown = fixes.length): HTMLElement | null {
  if (!fixes.length) return null;
  const title = fixes.length > 1 ? `fixes (${fixes.length}, best first)` : "fix";
  const rest = fixes.slice(shown);
  const more = rest.length
    ? h(
        "details",
        {},
        h("summary", {}, `${rest.length} more ${rest.length > 1 ? "fixes" : "fix"}`),
        ...rest.map(fixView),
      )
    : null;
  return h("div", { class: "fixes" }, h("h4", {}, title), ...fixes.slice(0, shown).map(fixView), more);
}

/** Other frames' explanations of the chosen input drawn with it; the rest while the browser is idle. */
const FIRST_OTHER_FRAMES = 20;

/** The document's explanation of one input: its steps, guards linked, lines opened by the host. */
export function whyPane(session: Session, state: State, go: Go, host: Host = {}): HTMLElement {
  const chosen = state.source ?? mostRecompiled(session) ?? "";
  const explained = explanationsOf(session, chosen);
  const explanation = explained.at(-1);
  const root = h(
    "div",
    {},
    sourcePicker(session, explained.length ? chosen : "", go),
    explanation && explained.length > 1
      ? h("p", { class: "frame-of" }, `in ${frameLabel(session, explanation.compile_id)}`)
      : null,
    stepList(explanation?.steps ?? [], go, host),
    fixesView(explanation?.fixes ?? []),
  );
  // Another frame that saw an input of the same name (another function, or an older
  // definition of this one) has an explanation of its own: shown apart, folded. A big log
  // has thousands (one per frame): all of them at once were most of the tab's first draw.
  const other = (e: SourceExplanation) => [
    folded({ class: "other-frame" }, [`also in ${frameLabel(session, e.compile_id)}`], () => [
      stepList(e.steps, go, host),
      fixesView(e.fixes),
    ]),
  ];
  appendInParts(root, explained.slice(0, -1), other, () => 1, FIRST_OTHER_FRAMES);
  return root;
}

/**
 * The why tab's choice of input: the chosen one at once, every other when the browser is
 * idle (thousands of options were most of the tab's first draw).
 */
function sourcePicker(session: Session, chosen: string, go: Go): HTMLSelectElement {
  const said = (v: string) => {
    const name = explanationOf(session, v)?.user_name;
    return name ? `${name} (${v})` : v;
  };
  const picker = select(chosen ? [chosen] : [], chosen, "source", (v) => go({ source: v }), said);
  whenIdle(() => setOptions(picker, sources(session), said));
  return picker;
}

/** The steps of an explanation; fix steps are shown as the fixes themselves (with what a replay verified). */
function stepList(steps: WhyStep[], go: Go, host: Host): HTMLElement {
  const shown = steps.filter((s) => s.kind !== "fix");
  return h("ol", { class: "steps" }, ...shown.map((s) => h("li", { "data-kind": s.kind }, whyStep(s, go, host))));
}

function whyStep(s: WhyStep, go: Go, host: Host): HTMLElement | string {
  const guard = s.guard;
  if (guard !== null)
    return h("span", { class: "guard", "data-guard": guard, onclick: () => go({ pane: "guards", guard }) }, s.text);
  if (s.kind === "fix") return h("pre", {}, s.text);
  if (s.frame !== null && host.openFrame) return h("span", {}, frameLink(s.frame, host), `  ${s.frame.line}`);
  return s.text;
}

export function kernelsPane(session: Session): HTMLElement {
  if (!session.kernels.length)
    return h("p", { class: "muted" }, "no generated kernels were captured (compile with the inductor backend)");
  const root = h("div");
  for (const code of session.graph_code.filter((c) => c.specialized_dims.length)) {
    root.appendChild(h("h3", {}, `baked into ${code.graph} (compile ${code.compile_id})`));
    root.appendChild(
      h(
        "ul",
        {},
        ...code.specialized_dims.map((d) =>
          h("li", {}, `${d.source} = ${d.value} (was ${d.symbol}): ${d.explanation}`),
        ),
      ),
    );
  }
  appendInParts(
    root,
    session.kernels,
    (k) => [kernel(k)],
    () => 1,
    FIRST_KERNELS,
  );
  return root;
}

/** Kernels drawn before the kernels tab's first paint; the others while the browser is idle. */
const FIRST_KERNELS = 100;

/** A kernel folded: its summary now, its code (thousands of spans in all) when first opened. */
function kernel(k: Kernel): HTMLElement {
  const args = k.size_args.map((a) => `${a.param} = ${a.expr} (${a.sources.join(", ")})`).join("; ");
  const literals = k.literals.map((l) => `${l.value} (${l.kind})`).join(", ");
  const summary = [`${k.compile_id} ${k.graph} ${k.name}  `, h("span", { class: "muted" }, args)];
  return folded({}, summary, () => [
    h("p", {}, `computes: ${k.nodes.join(", ")}; literals: ${literals}`),
    highlighted(k.source),
  ]);
}

function highlighted(source: string): HTMLElement {
  const pre = h("pre");
  for (const part of source.split(/(\bks\d+\b|\b\d+L\b)/)) {
    if (/^ks\d+$/.test(part)) pre.appendChild(h("span", { class: "sym" }, part));
    else if (/^\d+L$/.test(part)) pre.appendChild(h("span", { class: "lit" }, part));
    else pre.appendChild(document.createTextNode(part));
  }
  return pre;
}

export function sizesPane(session: Session): HTMLElement {
  const sweeps = session.sweeps.map(readSweep);
  if (!sweeps.length) return h("p", { class: "muted" }, "no sweep in this session: run session.sweep(...) to add one");
  const root = h("div");
  for (const sweep of sweeps) {
    const missed = sweep.prediction_held?.filter((v) => v === false).length ?? 0;
    const what =
      sweep.axis === "runs" ? `${sweep.x.length} re-runs` : `${sweep.x.length} sizes of ${sweep.axis ?? "?"}`;
    const recompiles = sweep.recompiled.filter(Boolean).length;
    root.appendChild(h("p", {}, `${what}; ${counted(recompiles, "recompile")}; prediction missed ${missed}`));
    root.appendChild(h("div", { class: "chart" }, sweepChart(sweep) as unknown as HTMLElement));
  }
  return root;
}

function basename(path: string): string {
  return path.split("/").pop() ?? path;
}
