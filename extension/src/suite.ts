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
.sd .scroll-x { overflow: auto; max-height: 85vh; }  /* its header rows stay in sight */
.sd table.suite { width: auto; overflow-wrap: normal; }  /* words whole: a cell wraps at spaces and _ */
.sd table.suite td.count { text-align: right; font-variant-numeric: tabular-nums; }
.sd table.suite tr.failed td { background: #ffebe9; }
.sd table.suite td.error { color: #a40e26; white-space: pre-wrap; min-width: 16em; max-width: 28em; }
.sd table.suite td.error div { max-height: 5.8em; overflow: auto; }  /* four lines */
.sd table.suite td.dim { cursor: help; font-size: 12px; white-space: normal; }
.sd table.suite td.hit { background: #fff1c2; font-weight: 600; }
.sd table.suite td.dim.hit { background: #ffe2cc; }
.sd table.suite tr.groups th { background: #eaeef2; cursor: default; text-align: center; top: 0; height: 22px; box-sizing: border-box; }
.sd table.suite tr.columns th { top: 22px; vertical-align: bottom; white-space: normal; }
.sd table.suite th.turned span { writing-mode: vertical-rl; transform: rotate(180deg); display: inline-block; max-height: 22em; overflow: hidden; text-overflow: ellipsis; }
.sd table.suite [data-col=name] { position: sticky; left: 0; z-index: 1; background: #fff; min-width: 10em; max-width: 22em; white-space: normal; overflow-wrap: break-word; }
.sd table.suite th[data-col=name] { z-index: 2; background: #f6f8fa; }
.sd table.suite tr.failed td[data-col=name] { background: #ffebe9; }
`;

/** The header above each group of columns: what a reader looks for in it. */
const GROUPS: Record<SuiteColumn["kind"], string> = {
  name: "",
  count: "totals",
  cause: "recompiles by cause",
  dim: "inputs made constants (why)",
  error: "",
};

/** Columns whose header reads upwards: a cause's or an input's name is wider than its cells. */
const TURNED = new Set<SuiteColumn["kind"]>(["cause", "dim"]);

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
    { class: "columns" },
    ...columns.map((column) =>
      h(
        "th",
        {
          class: TURNED.has(column.kind) ? "turned" : "",
          "data-col": column.key,
          title: headerHint(column),
          onclick: () => onSort(column),
        },
        h("span", {}, column.label + sortMark(sort, column)),
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
      return h("td", { class: text ? "dim hit" : "dim", title, "data-col": column.key }, ...breakable(text));
    }
    case "cause": {
      const text = cellText(workload, column);
      return h("td", { class: text ? "count hit" : "count", "data-col": column.key }, text);
    }
    case "error":
      // a traceback scrolls in its cell: the row stays as high as a few lines
      return h("td", { class: "error", "data-col": column.key }, h("div", {}, cellText(workload, column)));
    default:
      return h("td", { class: "count", "data-col": column.key }, cellText(workload, column));
  }
}

/** A cause's name that may wrap after each underscore (`static_by_` / `default`). */
function breakable(text: string): (string | HTMLElement)[] {
  return text.split(/(?<=_)/).flatMap((part, i) => (i ? [h("wbr"), part] : [part]));
}

/** The workload's name, linked to its own report when the document gives a relative path. */
function nameLink(workload: WorkloadResult): HTMLElement {
  const href = relativeHref(workload.report);
  if (href === null) return h("span", { "data-report": "none" }, workload.name);
  const link = h("a", { "data-report": href }, workload.name);
  link.setAttribute("href", href);
  return link;
}
