// The overview's lead: what to change, one card per distinct change (the document's `changes`),
// each with the recompiles it removes: measured once a replay verified it, expected before.
import type { Change, Fix, Session } from "./document";
import { h } from "./dom";
import { fixView } from "./fixes";
import type { Host } from "./pane";
import { frameLink } from "./pane";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The cards, most recompiles removed first; a line for the recompiles no change removes. */
export function changesView(session: Session, host: Host = {}): HTMLElement {
  const changes = session.changes ?? [];
  const covered = new Set(changes.flatMap((c) => c.recompiles));
  const rest = session.recompiles.filter((r) => !covered.has(r.compile_id)).length;
  const title = changes.length ? `What to change (${changes.length})` : "What to change";
  return h(
    "section",
    { class: "changes" },
    h("h2", {}, title),
    ...changes.map((change, i) => changeView(change, i, host)),
    changes.length || session.recompiles.length ? null : h("p", { class: "muted" }, "No recompiles."),
    rest ? h("p", { class: "muted", "data-unexplained": String(rest) }, unexplained(rest)) : null,
  );
}

function unexplained(count: number): string {
  return `${plural(count, "recompile")} with no suggested change: see the details below`;
}

/** One change: what it removes, the fix (code, copy, verdict, diff), the recompiles and lines. */
export function changeView(change: Change, index: number, host: Host = {}): HTMLElement {
  const fix = change.fixes[0];
  const where = change.lines.flatMap((line, i) => [i ? ", " : " at ", frameLink(line, host)]);
  return h(
    "div",
    { class: "change", "data-change": String(index), "data-verified": String(fix?.verified ?? null) },
    h(
      "div",
      { class: "change-head" },
      h("span", { class: "removes" }, fix ? removes(fix, change.recompiles.length) : ""),
      ...change.causes.map((cause) => h("span", { class: `cause ${cause}` }, cause)),
    ),
    fix ? fixView(fix) : null,
    h("div", { class: "change-where muted" }, `recompiles ${change.recompiles.join(", ")}`, ...where),
  );
}

/** `removed 3 compiles (measured: 8 -> 5 compiles)`, or `expected to remove 3 recompiles`. */
export function removes(fix: Fix, recompiles: number): string {
  const expected = `expected to remove ${plural(recompiles, "recompile")}`;
  if (fix.verified === true && fix.saved !== null) return `removed ${plural(fix.saved, "compile")} when replayed`;
  if (fix.verified === true) return `verified when replayed; ${expected}`; // an older document: no count
  if (fix.verified === false) return "did not help when replayed";
  return expected;
}
