// Pure logic of the diff view: sorting frames, grouping what each frame gained or lost, and
// saying the document's numbers as text. Nothing here is a fact of its own (Python's diff
// decides matches and regressions); no DOM, so vitest runs it.
import type { DiffItem, FrameDiff, RunDiff, Side } from "./diff_document";
import type { Row, TableSort } from "./sorting";
import { sortedRows } from "./sorting";
import { counted } from "./words";

/** The columns of a run's frame table, each sortable. */
export const FRAME_COLUMNS = [
  "title",
  "filename",
  "status",
  "compiles_before",
  "compiles_after",
  "change",
  "regressed",
] as const;
export type FrameColumn = (typeof FRAME_COLUMNS)[number];

/** A frame regressed when the document gives reasons (only matched frames have any). */
export function regressed(frame: FrameDiff): boolean {
  return frame.regressions.length > 0;
}

/** Compiles after minus before, as the table's "change" column says it: `+3`, `-1`, `0`. */
export function compileChange(frame: FrameDiff): string {
  const change = frame.compiles_after - frame.compiles_before;
  return change > 0 ? `+${change}` : String(change);
}

/** A column's value for sorting: numbers for counts (and regressed first when descending). */
function sortValue(frame: FrameDiff, column: FrameColumn): number | string {
  switch (column) {
    case "change":
      return frame.compiles_after - frame.compiles_before;
    case "regressed":
      return regressed(frame) ? 1 : 0;
    default:
      return frame[column];
  }
}

/** The frames sorted as the table's header says (stable: ties keep the document's order). */
export function sortFrames(frames: FrameDiff[], sort: TableSort<FrameColumn>): Row<FrameDiff>[] {
  return sortedRows(frames, sort, sortValue);
}

/** The fields of a frame that list items one side has and the other has not. */
export type ItemList = { [K in keyof FrameDiff]: FrameDiff[K] extends DiffItem[] ? K : never }[keyof FrameDiff];

/** Which side has an item: the after side only, the before side only, or both with another cause. */
export type ItemChange = "added" | "removed" | "changed";

/** One list of a frame's detail: its items, what they are and on which side only. */
export interface ItemGroup {
  list: ItemList;
  kind: DiffItem["kind"];
  change: ItemChange;
  label: string;
  items: DiffItem[];
}

const GROUPS: [ItemList, DiffItem["kind"], ItemChange, string][] = [
  ["recompiles_added", "recompile", "added", "recompiles added"],
  ["recompiles_removed", "recompile", "removed", "recompiles removed"],
  ["specializations_added", "specialization", "added", "specializations added"],
  ["specializations_removed", "specialization", "removed", "specializations removed"],
  ["specializations_changed", "specialization", "changed", "specializations with another cause"],
  ["graph_breaks_added", "graph_break", "added", "graph breaks added"],
  ["graph_breaks_removed", "graph_break", "removed", "graph breaks removed"],
];

/** The frame's non-empty lists of added and removed items, in a fixed order. */
export function itemGroups(frame: FrameDiff): ItemGroup[] {
  return GROUPS.map(([list, kind, change, label]) => ({ list, kind, change, label, items: frame[list] ?? [] })).filter(
    (group) => group.items.length > 0,
  );
}

/** `x.shape[0] (L['x'].size()[0])`: the input in the user's names beside Dynamo's, if any. */
export function itemInput(item: DiffItem): string {
  if (item.user_name && item.source && item.user_name !== item.source) return `${item.user_name} (${item.source})`;
  return item.user_name || item.source;
}

/** A side's totals: `5 compiles, 3 recompiles, 1 graph break`. */
export function sideTotals(side: Side): string {
  return [
    counted(side.compiles, "compile"),
    counted(side.recompiles, "recompile"),
    counted(side.graph_breaks, "graph break"),
  ].join(", ");
}

/** A side's problem counts, `bad_event 2, bad_pass 1`; empty when it has none. */
export function problemsText(side: Side): string {
  return Object.entries(side.problems)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(", ");
}

/** A run's heading: its rank, or nothing to say for a single pair of runs. */
export function runTitle(run: RunDiff): string {
  return run.rank === null ? "the two runs" : `rank ${run.rank}`;
}

/** The value of a run's `data-run` attribute: its rank, or `pair` for a single pair. */
export function runKey(run: RunDiff): string {
  return run.rank === null ? "pair" : String(run.rank);
}
