// The overview pane: what to change first (one card per distinct change), then each frame's
// compiles as a strip coloured by the cause of each, then the details, folded: each recompile
// and graph break explained as the document explains it.
import { changesView } from "./changes";
import type { GraphBreak, Guard, Recompile, Session } from "./document";
import { append, h } from "./dom";
import { fixesView } from "./fixes";
import {
  explanationOf,
  type FrameGroup,
  frames,
  graphBreaksOf,
  guardOf,
  guardSymbols,
  namedSource,
  recompileOf,
  recompilesOf,
  specializationOf,
} from "./model";
import type { Go, Host } from "./pane";
import { frameLink, guardExpr } from "./pane";
import { appendInParts } from "./parts";

/** Compiles drawn before the overview's first paint; later frames are drawn while the browser is idle. */
const FIRST_COMPILES = 100;

/** What to change, the compiles by cause, then each frame's details (the later ones while idle). */
export function overview(session: Session, go: Go, host: Host = {}): HTMLElement {
  const all = frames(session);
  const details = h("div", { class: "frame-list" });
  const draw = (frame: FrameGroup) => [frameDetails(session, frame, go, host)];
  appendInParts(details, all, draw, (frame) => frame.compiles.length, FIRST_COMPILES);
  const strips = all.map((frame) => timeline(session, frame, go));
  return h(
    "div",
    {},
    changesView(session, host),
    h("section", { class: "timelines" }, h("h2", {}, "Compiles by cause"), legend(session), ...strips),
    h("section", { class: "details" }, h("h2", {}, "Details"), details),
  );
}

/** A frame's title: `frame f` or `torch.export.f`. */
function frameTitle(frame: FrameGroup): string {
  return frame.compiles[0]?.kind === "export" ? `torch.export.${frame.name}` : `frame ${frame.name}`;
}

/** One frame's details, folded: its title and counts, its recompiles and graph breaks. */
function frameDetails(session: Session, frame: FrameGroup, go: Go, host: Host): HTMLElement {
  const where = { filename: frame.filename, lineno: frame.lineno, name: frame.name, line: "" };
  const exported = frame.compiles[0]?.kind === "export"; // a torch.export call, not a frame
  const ids = new Set(frame.compiles.map((c) => c.compile_id));
  const recompiles = recompilesOf(session, ids);
  const breaks = graphBreaksOf(session, ids);
  const counts = `${frame.compiles.length} compiles, ${recompiles.length} recompiles, ${breaks.length} graph breaks`;
  return h(
    "details",
    { class: "frame-details" },
    h(
      "summary",
      {},
      h("h3", {}, `${frameTitle(frame)}  `, h("span", { class: "muted" }, frameLink(where, host))),
      h("span", { class: "muted" }, ` ${counts}`),
    ),
    ...frame.compiles
      .filter((c) => exported && c.fail_reason)
      .map((c) => h("pre", { class: "export-error" }, c.fail_reason ?? "")),
    ...recompiles.map((r) => recompileView(session, r, go, host)),
    ...breaks.map((b) => graphBreakView(b, host)),
  );
}

/** A frame's compiles in order, each coloured by the cause of the recompile that made it. */
function timeline(session: Session, frame: FrameGroup, go: Go): HTMLElement {
  const line = h("div", { class: "timeline" }, h("span", { class: "timeline-frame" }, frameTitle(frame)));
  for (const c of frame.compiles) {
    const recompile = recompileOf(session, c.compile_id);
    const cause = recompile ? recompile.cause : "first";
    const title = recompile
      ? `${c.compile_id}: recompiled (${recompile.cause})\n${recompile.reasons.join("\n")}`
      : `${c.compile_id}: the frame's first compile`;
    const label = `${c.compile_id}${c.status !== "ok" ? ` (${c.status})` : ""}`;
    const onclick = () => go({ pane: "guards", filter: { compile: c.compile_id }, guard: undefined });
    const attrs = { class: `compile cause ${cause} ${c.status}`, title, "data-compile": c.compile_id, onclick };
    line.appendChild(h("span", { ...attrs, "data-cause": cause }, label));
  }
  return line;
}

/** The colours' key: each cause with how many compiles it made, most first. */
function legend(session: Session): HTMLElement {
  const counts = new Map<string, number>();
  for (const r of session.recompiles) counts.set(r.cause, (counts.get(r.cause) ?? 0) + 1);
  const firsts = session.compiles.length - session.recompiles.length;
  const keys = [...counts].sort((a, b) => b[1] - a[1]);
  if (firsts > 0) keys.unshift(["first", firsts]);
  return h(
    "div",
    { class: "legend" },
    ...keys.map(([cause, n]) =>
      h(
        "span",
        { class: `cause ${cause}`, "data-legend": cause },
        `${cause === "first" ? "first compile" : cause} ${n}`,
      ),
    ),
  );
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
