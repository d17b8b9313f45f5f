// Pure logic of the hunt view: its columns, what each cell says, the sorting and the summary
// line. The verdicts, the compiles saved, the causes and the changes are the document's
// (symdebug/model/hunt_types.py); nothing here is a fact of its own. No DOM, so vitest runs it.
import type { HuntRow, HuntVerdict } from "./document";
import type { Row, TableSort } from "./sorting";
import { sortedRows } from "./sorting";

/** A column of the hunt's table (its `data-col`). */
export type HuntColumn = "input" | "kind" | "why" | "verdict" | "compiles" | "runs" | "evidence" | "note";

/** The table's columns, in order: key, header and the header's tooltip. */
export const HUNT_COLUMNS: { key: HuntColumn; label: string; hint: string }[] = [
  { key: "input", label: "input", hint: "the input as the user's code writes it (tooltip: Dynamo's name)" },
  { key: "kind", label: "kind", hint: "a tensor's size, an int or a float" },
  { key: "why", label: "made a constant by", hint: "how it became a constant" },
  { key: "verdict", label: "verdict", hint: "needed: the code forces it; avoidable: a replay kept it symbolic" },
  { key: "compiles", label: "compiles saved", hint: "the unchanged run's compiles minus the replay's" },
  { key: "runs", label: "before → after", hint: "compiles of the unchanged run and of the replay" },
  { key: "evidence", label: "change or cause", hint: "avoidable: what kept it symbolic; needed: the line" },
  { key: "note", label: "note", hint: "the verdict's evidence, or why it is untested" },
];

/** The hunt's rows of a session (none in a document older than v10). */
export function huntRows(session: { hunt?: HuntRow[] }): HuntRow[] {
  return session.hunt ?? [];
}

/** The input as the user's code writes it, else as Dynamo names it. */
export function inputName(row: HuntRow): string {
  return row.user_name || row.source;
}

/** `3 → 1`: the compiles of the unchanged run and of the replay; blank when nothing was run. */
export function runsText(row: HuntRow): string {
  return row.before || row.after ? `${row.before} → ${row.after}` : "";
}

/** The change of an avoidable row, the cause and line of a needed one; else blank. */
export function evidenceText(row: HuntRow): string {
  if (row.verdict === "avoidable") return row.change;
  if (row.verdict !== "needed") return "";
  const frame = row.user_frame;
  const at = frame ? ` at ${frame.filename}:${frame.lineno}` : "";
  return `${row.cause ?? ""}${at}`.trim();
}

/** What the replay showed of the outputs, for the verdict's tooltip. */
export function outputsText(row: HuntRow): string {
  if (row.outputs_equal === null) return "outputs not compared";
  return row.outputs_equal ? "the replay's outputs equalled the unchanged run's" : "the replay's outputs differed";
}

/** `2 avoidable (5 compiles saved), 1 needed, 1 untested`. */
export function huntSummary(rows: HuntRow[]): string {
  const count = (verdict: HuntVerdict) => rows.filter((row) => row.verdict === verdict).length;
  const saved = rows.filter((row) => row.verdict === "avoidable").reduce((sum, row) => sum + row.compiles, 0);
  const compiles = saved === 1 ? "compile" : "compiles";
  return `${count("avoidable")} avoidable (${saved} ${compiles} saved), ${count("needed")} needed, ${count("untested")} untested`;
}

/** A cell's value for sorting: counts as numbers, anything else as its text. */
export function huntSortValue(row: HuntRow, column: HuntColumn): number | string {
  switch (column) {
    case "input":
      return inputName(row);
    case "kind":
      return row.kind;
    case "why":
      return row.why_constant;
    case "verdict":
      return row.verdict;
    case "compiles":
      return row.compiles;
    case "runs":
      return row.before;
    case "evidence":
      return evidenceText(row);
    default:
      return row.note;
  }
}

/** The rows sorted as the header says (none: the document's order, most compiles saved first). */
export function sortHunt(rows: HuntRow[], sort: TableSort<HuntColumn>): Row<HuntRow>[] {
  return sortedRows(rows, sort, huntSortValue);
}
