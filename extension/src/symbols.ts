// The symbols pane: every symbol of every compile (library constants apart, one row per
// library), a click opening the why tab on its input.
import type { Session, SymbolFact } from "./document";
import { h } from "./dom";
import { sourcesText } from "./model";
import type { Go } from "./pane";
import { virtualTable } from "./virtual";

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

/** The symbols table; a click on a row opens the why tab on the symbol's input. */
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
