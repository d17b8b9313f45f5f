// The suggested fixes of a guard, a recompile, a graph break or an input, as every pane shows
// them: best first, with what a replay verified and measured, and the diff it swapped in.
import type { Fix } from "./document";
import { h } from "./dom";
import { diffLines, verification } from "./model";

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
