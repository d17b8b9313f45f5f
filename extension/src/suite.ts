// A suite sweep (symdebug/model/suite_types.py's document, suite.json): one row per workload,
// its counts, its recompiles by cause and the dimensions it specialized, sortable by any
// column; a workload that did not finish shows its error, highlighted.
import { h } from "./dom";
import type { TableSort } from "./sorting";
import { nextSort, sortMark } from "./sorting";
import type { SuiteDocument, WorkloadResult } from "./suite_document";
import type { SuiteColumn } from "./suitemodel";
import { cellText, dimensionCell, relativeHref, sortWorkloads, suiteColumns } from "./suitemodel";

export const SUITE_STYLES = `
.sd table.suite td.count { text-align: right; font-variant-numeric: tabular-nums; }
.sd table.suite tr.failed td { background: #ffebe9; }
.sd table.suite td.error { color: #a40e26; white-space: pre-wrap; max-width: 480px; }
.sd table.suite td.dim { cursor: help; }
.sd table.suite td.hit { background: #fff1c2; font-weight: 600; }
.sd table.suite td.dim.hit { background: #ffe2cc; }
.sd table.suite tr.groups th { background: #eaeef2; cursor: default; text-align: center; }
`;

/** The header above each group of columns: what a reader looks for in it. */
const GROUPS: Record<SuiteColumn["kind"], string> = {
  name: "",
  count: "totals",
  cause: "recompiles by cause",
  dim: "inputs made constants (why)",
  error: "",
};

/** Draw the suite into `root` (already styled: index.ts `render` made it). */
export function renderSuite(root: HTMLElement, suite: SuiteDocument): void {
  root.setAttribute("data-view", "suite");
  const columns = suiteColumns(suite.workloads);
  const table = h("div", { class: "scroll-x" });
  let sort: TableSort<SuiteColumn> = { column: null, descending: false };
  const draw = () => {
    const onSort = (column: SuiteColumn) => {
      sort = nextSort(sort, column);
      draw();
    };
    table.replaceChildren(matrix(suite.workloads, columns, sort, onSort));
  };
  draw();
  root.append(suiteHeader(suite), table);
}

function suiteHeader(suite: SuiteDocument): HTMLElement {
  const failed = suite.workloads.filter((w) => w.error !== null).length;
  return h(
    "header",
    {},
    h("h1", {}, "symdebug suite"),
    h("span", {}, `${suite.workloads.length} workloads${failed ? `, ${failed} did not finish` : ""}`),
    h("span", { class: "muted", "data-torch": suite.torch }, `torch ${suite.torch || "(unknown)"}`),
  );
}

function matrix(
  workloads: WorkloadResult[],
  columns: SuiteColumn[],
  sort: TableSort<SuiteColumn>,
  onSort: (column: SuiteColumn) => void,
): HTMLElement {
  const head = h(
    "tr",
    {},
    ...columns.map((column) =>
      h(
        "th",
        { "data-col": column.key, title: headerHint(column), onclick: () => onSort(column) },
        column.label + sortMark(sort, column),
      ),
    ),
  );
  const rows = sortWorkloads(workloads, sort).map(({ item, index }) => workloadRow(item, index, columns));
  return h("table", { class: "suite" }, h("thead", {}, groupRow(columns), head), h("tbody", {}, ...rows));
}

/** One header cell over each run of columns of a kind ("recompiles by cause", ...). */
function groupRow(columns: SuiteColumn[]): HTMLElement {
  const cells: HTMLElement[] = [];
  let i = 0;
  while (i < columns.length) {
    const kind = columns[i].kind;
    let span = 1;
    while (i + span < columns.length && columns[i + span].kind === kind) span++;
    const cell = h("th", { "data-group": kind }, GROUPS[kind]);
    (cell as HTMLTableCellElement).colSpan = span;
    cells.push(cell);
    i += span;
  }
  return h("tr", { class: "groups" }, ...cells);
}

/** What a column counts or shows, for its header's tooltip. */
function headerHint(column: SuiteColumn): string {
  if (column.kind === "cause") return `recompiles caused by ${column.label} (click to sort)`;
  if (column.kind === "dim") return `why ${column.label} became a constant; a cell's tooltip has its values and line`;
  return `${column.label} (click to sort)`;
}

function workloadRow(workload: WorkloadResult, index: number, columns: SuiteColumn[]): HTMLElement {
  const failed = workload.error !== null;
  return h(
    "tr",
    {
      class: failed ? "failed" : "",
      "data-workload-row": String(index),
      "data-workload": workload.name,
      "data-error": String(failed),
    },
    ...columns.map((column) => cell(workload, column)),
  );
}

function cell(workload: WorkloadResult, column: SuiteColumn): HTMLElement {
  switch (column.kind) {
    case "name":
      return h("td", { "data-col": column.key }, nameLink(workload));
    case "dim": {
      const { text, title } = dimensionCell(workload, column.key.slice("dim:".length));
      return h("td", { class: text ? "dim hit" : "dim", title, "data-col": column.key }, text);
    }
    case "cause": {
      const text = cellText(workload, column);
      return h("td", { class: text ? "count hit" : "count", "data-col": column.key }, text);
    }
    case "error":
      return h("td", { class: "error", "data-col": column.key }, cellText(workload, column));
    default:
      return h("td", { class: "count", "data-col": column.key }, cellText(workload, column));
  }
}

/** The workload's name, linked to its own report when the document gives a relative path. */
function nameLink(workload: WorkloadResult): HTMLElement {
  const href = relativeHref(workload.report);
  if (href === null) return h("span", { "data-report": "none" }, workload.name);
  const link = h("a", { "data-report": href }, workload.name);
  link.setAttribute("href", href);
  return link;
}
