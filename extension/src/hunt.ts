// The overspecialization hunt (Facts.hunt): one row per input that was a constant, with its
// verdict (needed, avoidable, untested), the compiles it cost, and the change that kept it
// symbolic or the line that forces it; sortable by any column, a summary line above.
import type { HuntRow } from "./document";
import { h } from "./dom";
import type { HuntColumn } from "./huntmodel";
import { HUNT_COLUMNS, huntRows, huntSummary, inputName, outputsText, runsText, sortHunt } from "./huntmodel";
import type { Host } from "./pane";
import { frameLink } from "./pane";
import type { TableSort } from "./sorting";
import { nextSort, sortMark } from "./sorting";

/** The hunt's pane: the summary, then the table (sorted where its header is clicked). */
export function huntPane(session: { hunt?: HuntRow[] }, host: Host = {}): HTMLElement {
  const rows = huntRows(session);
  if (!rows.length) return h("p", { class: "muted" }, "no overspecialization hunt in this session");
  const table = h("div", { class: "scroll-x" });
  let sort: TableSort<HuntColumn> = { column: null, descending: false };
  const draw = () => {
    const onSort = (column: HuntColumn) => {
      sort = nextSort(sort, column);
      draw();
    };
    table.replaceChildren(huntTable(rows, sort, onSort, host));
  };
  draw();
  return h("div", {}, h("p", { class: "hunt-summary" }, huntSummary(rows)), table);
}

function huntTable(
  rows: HuntRow[],
  sort: TableSort<HuntColumn>,
  onSort: (column: HuntColumn) => void,
  host: Host,
): HTMLElement {
  const head = h(
    "tr",
    {},
    ...HUNT_COLUMNS.map(({ key, label, hint }) =>
      h("th", { "data-col": key, title: hint, onclick: () => onSort(key) }, label + sortMark(sort, key)),
    ),
  );
  const body = sortHunt(rows, sort).map(({ item, index }) => huntRow(item, index, host));
  return h("table", { class: "hunt" }, h("thead", {}, head), h("tbody", {}, ...body));
}

function huntRow(row: HuntRow, index: number, host: Host): HTMLElement {
  return h(
    "tr",
    { "data-hunt-row": String(index), "data-verdict": row.verdict, "data-source": row.source },
    h("td", { "data-col": "input", title: row.source }, h("code", {}, inputName(row))),
    h("td", { "data-col": "kind" }, row.kind),
    h("td", { "data-col": "why", title: row.why_constant }, row.why_constant),
    h("td", { "data-col": "verdict" }, verdictChip(row)),
    h("td", { "data-col": "compiles", class: "count" }, row.compiles),
    h("td", { "data-col": "runs", class: "count" }, runsText(row)),
    h("td", { "data-col": "evidence" }, ...evidence(row, host)),
    h("td", { "data-col": "note", title: row.note }, row.note),
  );
}

function verdictChip(row: HuntRow): HTMLElement {
  return h("span", { class: `verdict ${row.verdict}`, title: outputsText(row) }, row.verdict);
}

/** An avoidable row's change as code; a needed row's cause, its line (a frame link) and the line's text. */
function evidence(row: HuntRow, host: Host): (HTMLElement | string)[] {
  if (row.verdict === "avoidable") return row.change ? [h("code", { class: "change" }, row.change)] : [];
  if (row.verdict !== "needed") return [];
  const cause = row.cause ? [h("span", { class: `cause ${row.cause}` }, row.cause)] : [];
  const frame = row.user_frame;
  if (!frame) return cause;
  const line = frame.line ? [h("code", { class: "line" }, frame.line)] : [];
  return [...cause, " at ", frameLink(frame, host), ...line];
}
