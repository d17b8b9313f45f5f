// Pure logic of the suite view: its columns (counts, one per cause, one per specialized
// dimension), each cell's value, sorting, and which report links are safe. Nothing here is a
// fact of its own (the document counts and classifies); no DOM, so vitest runs it.
import { distinct } from "./model";
import type { Row, TableSort } from "./sorting";
import { sortedRows } from "./sorting";
import type { SuiteSpecialization, WorkloadResult } from "./suite_document";

/** A column of the matrix: `key` is its `data-col` (`cause:<cause>`, `dim:<name>`). */
export interface SuiteColumn {
  key: string;
  label: string;
  kind: "name" | "count" | "cause" | "dim" | "error";
}

const COUNTS: [keyof WorkloadResult & ("compiles" | "recompiles" | "graph_breaks"), string][] = [
  ["compiles", "compiles"],
  ["recompiles", "recompiles"],
  ["graph_breaks", "graph breaks"],
];

/** A specialized dimension as the matrix names it: the user's name, else Dynamo's. */
export function dimensionName(spec: SuiteSpecialization): string {
  return spec.user_name || spec.source;
}

/** Every recompile cause any workload counts, sorted. */
export function causeNames(workloads: WorkloadResult[]): string[] {
  return distinct(
    workloads.flatMap((w) => Object.keys(w.causes)),
    (cause) => cause,
  );
}

/** Every dimension any workload specialized, sorted. */
export function dimensionNames(workloads: WorkloadResult[]): string[] {
  return distinct(
    workloads.flatMap((w) => w.specializations),
    dimensionName,
  );
}

/** The matrix's columns: name, the counts, each cause, each dimension, and errors if any. */
export function suiteColumns(workloads: WorkloadResult[]): SuiteColumn[] {
  const errors = workloads.some((w) => w.error !== null);
  return [
    { key: "name", label: "workload", kind: "name" },
    ...COUNTS.map(([key, label]): SuiteColumn => ({ key, label, kind: "count" })),
    ...causeNames(workloads).map((cause): SuiteColumn => ({ key: `cause:${cause}`, label: cause, kind: "cause" })),
    ...dimensionNames(workloads).map((dim): SuiteColumn => ({ key: `dim:${dim}`, label: dim, kind: "dim" })),
    ...(errors ? [{ key: "error", label: "error", kind: "error" } as SuiteColumn] : []),
  ];
}

/** A workload's specializations of one dimension (several frames may specialize it). */
export function specializationsOf(workload: WorkloadResult, dim: string): SuiteSpecialization[] {
  return workload.specializations.filter((spec) => dimensionName(spec) === dim);
}

/** A dimension's cell: its causes, and each specialization's values and user line as a tooltip. */
export function dimensionCell(workload: WorkloadResult, dim: string): { text: string; title: string } {
  const specs = specializationsOf(workload, dim);
  const text = [...new Set(specs.map((spec) => spec.cause))].join(", ");
  const title = specs.map(specializationTitle).join("\n");
  return { text, title };
}

/** `BertModel.forward: input_ids.shape[1] = 8, 16 (op_requirement) at bert.py:12: x[:, T - 1]` */
function specializationTitle(spec: SuiteSpecialization): string {
  const source = spec.user_name && spec.user_name !== spec.source ? ` (${spec.source})` : "";
  const at = spec.line ? ` at ${spec.line}` : "";
  const code = spec.code ? `: ${spec.code}` : "";
  return `${spec.frame}: ${dimensionName(spec)}${source} = ${spec.values.join(", ")} (${spec.cause})${at}${code}`;
}

/** What a cell shows: a count, the causes of a dimension, the name or the error; blank is "". */
export function cellText(workload: WorkloadResult, column: SuiteColumn): string {
  switch (column.kind) {
    case "name":
      return workload.name;
    case "count":
      return String(workload[column.key as (typeof COUNTS)[number][0]]);
    case "cause":
      return String(workload.causes[column.key.slice("cause:".length)] ?? "");
    case "dim":
      return dimensionCell(workload, column.key.slice("dim:".length)).text;
    default:
      return workload.error ?? "";
  }
}

/** A cell's value for sorting: counts as numbers (a cause not counted sorts as 0), else text. */
export function sortValue(workload: WorkloadResult, column: SuiteColumn): number | string {
  const text = cellText(workload, column);
  if (column.kind === "count" || column.kind === "cause") return text === "" ? 0 : Number(text);
  return text;
}

/** The workloads sorted as the header says (stable: ties keep the suite's order). */
export function sortWorkloads(workloads: WorkloadResult[], sort: TableSort<SuiteColumn>): Row<WorkloadResult>[] {
  return sortedRows(workloads, sort, sortValue);
}

// A scheme (`javascript:`, `data:`) is a colon before any `/`, `?` or `#` (RFC 3986: a
// relative path's first segment has no colon). Browsers drop tabs and newlines inside a URL
// and leading spaces and controls, so any control character or space at the start is refused.
const SCHEME = /^[^/?#]*:/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A workload's report as a link relative to the page, or null when it is not one: a scheme,
 * a protocol-relative `//host`, an absolute path, a backslash (browsers read it as `/`).
 */
export function relativeHref(report: string | null): string | null {
  if (!report || CONTROL.test(report) || /^\s/.test(report)) return null;
  if (report.startsWith("/") || report.includes("\\") || SCHEME.test(report)) return null;
  return report;
}
