// Sorting a table by a clicked column, shared by the diff's and the suite's tables. No DOM.
import { compareText } from "./model";

/** How a table is sorted: by a column (none: the document's order), ascending or not. */
export interface TableSort<Column> {
  column: Column | null;
  descending: boolean;
}

/** An item of a table and its place in the document (its id in the view). */
export interface Row<T> {
  index: number;
  item: T;
}

/** Numbers numerically, anything else as text (`frame10` after `frame9`). */
export function compareValues(a: number | string, b: number | string): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return compareText(String(a), String(b));
}

/** The items sorted as `sort` says (stable: ties keep the document's order). */
export function sortedRows<T, Column>(
  items: T[],
  sort: TableSort<Column>,
  value: (item: T, column: Column) => number | string,
): Row<T>[] {
  const rows = items.map((item, index) => ({ item, index }));
  const column = sort.column;
  if (column === null) return rows;
  const sign = sort.descending ? -1 : 1;
  return rows.sort((a, b) => sign * compareValues(value(a.item, column), value(b.item, column)) || a.index - b.index);
}

/** The sort after a click on a column's header: the same column flips its order. */
export function nextSort<Column>(current: TableSort<Column>, clicked: Column): TableSort<Column> {
  return { column: clicked, descending: current.column === clicked ? !current.descending : false };
}

/** ` ▲` or ` ▼` after the header of the column sorted by; nothing after the others. */
export function sortMark<Column>(sort: TableSort<Column>, column: Column): string {
  if (sort.column !== column) return "";
  return sort.descending ? " ▼" : " ▲";
}
