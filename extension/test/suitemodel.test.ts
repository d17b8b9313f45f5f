import { describe, expect, it } from "vitest";
import { nextSort, sortMark } from "../src/sorting";
import type { SuiteSpecialization, WorkloadResult } from "../src/suite_document";
import {
  causeNames,
  cellText,
  dimensionCell,
  dimensionNames,
  relativeHref,
  sortValue,
  sortWorkloads,
  suiteColumns,
} from "../src/suitemodel";

function spec(user_name: string, cause: string, change: Partial<SuiteSpecialization> = {}): SuiteSpecialization {
  return {
    frame: "Model.forward",
    source: `L['${user_name || "x"}']`,
    user_name,
    cause,
    values: [8, 16],
    line: "model.py:12",
    code: "h[:, T - 1]",
    ...change,
  };
}

function workload(name: string, change: Partial<WorkloadResult> = {}): WorkloadResult {
  return {
    name,
    compiles: 1,
    recompiles: 0,
    graph_breaks: 0,
    causes: {},
    specializations: [],
    report: `${name}.html`,
    error: null,
    ...change,
  };
}

const bert = workload("bert", {
  compiles: 12,
  recompiles: 11,
  causes: { op_requirement: 3, int_specialized: 8 },
  specializations: [spec("T", "op_requirement"), spec("", "int_specialized", { source: "L['n']" })],
});
const gpt2 = workload("gpt2", { compiles: 9, recompiles: 2, causes: { static_by_default: 2 } });
const t5 = workload("t5", { compiles: 0, report: null, error: "Traceback: boom" });
const suite = [bert, gpt2, t5];

describe("the suite's columns", () => {
  it("has the counts, then every cause and every dimension of any workload, then the error", () => {
    expect(causeNames(suite)).toEqual(["int_specialized", "op_requirement", "static_by_default"]);
    expect(dimensionNames(suite)).toEqual(["L['n']", "T"]);
    expect(suiteColumns(suite).map((c) => c.key)).toEqual([
      "name",
      "compiles",
      "recompiles",
      "graph_breaks",
      "cause:int_specialized",
      "cause:op_requirement",
      "cause:static_by_default",
      "dim:L['n']",
      "dim:T",
      "error",
    ]);
    expect(suiteColumns([gpt2]).map((c) => c.key)).not.toContain("error");
  });

  it("shows a dimension's cause, with its values and user line in the tooltip", () => {
    const cell = dimensionCell(bert, "T");
    expect(cell.text).toBe("op_requirement");
    expect(cell.title).toBe("Model.forward: T (L['T']) = 8, 16 (op_requirement) at model.py:12: h[:, T - 1]");
    expect(dimensionCell(gpt2, "T")).toEqual({ text: "", title: "" });
  });

  it("shows counts, a cause not counted as blank, and the error", () => {
    const columns = Object.fromEntries(suiteColumns(suite).map((c) => [c.key, c]));
    expect(cellText(bert, columns["cause:int_specialized"])).toBe("8");
    expect(cellText(gpt2, columns["cause:int_specialized"])).toBe("");
    expect(sortValue(gpt2, columns["cause:int_specialized"])).toBe(0);
    expect(cellText(t5, columns.error)).toBe("Traceback: boom");
    expect(cellText(bert, columns.name)).toBe("bert");
  });
});

describe("sorting the suite", () => {
  const columns = Object.fromEntries(suiteColumns(suite).map((c) => [c.key, c]));
  const names = (column: string, descending: boolean) =>
    sortWorkloads(suite, { column: columns[column], descending }).map((row) => row.item.name);

  it("sorts numbers numerically, not as text", () => {
    expect(names("compiles", false)).toEqual(["t5", "gpt2", "bert"]);
    expect(names("compiles", true)).toEqual(["bert", "gpt2", "t5"]);
    expect(names("cause:static_by_default", true)).toEqual(["gpt2", "bert", "t5"]);
  });

  it("flips the order on a second click of the same column", () => {
    const first = nextSort({ column: null, descending: false }, "compiles");
    expect(first).toEqual({ column: "compiles", descending: false });
    expect(nextSort(first, "compiles")).toEqual({ column: "compiles", descending: true });
    expect(nextSort({ column: "compiles", descending: true }, "name")).toEqual({ column: "name", descending: false });
    expect(sortMark(first, "compiles")).toBe(" ▲");
    expect(sortMark(first, "name")).toBe("");
  });
});

describe("report links", () => {
  it("keeps relative paths", () => {
    expect(relativeHref("bert.html")).toBe("bert.html");
    expect(relativeHref("reports/bert v2.html")).toBe("reports/bert v2.html");
    expect(relativeHref("./a/b.html?x=1:2#c")).toBe("./a/b.html?x=1:2#c");
  });

  it("refuses a scheme, a host, an absolute path and what browsers would read as one", () => {
    for (const hostile of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:text/html,<script>1</script>",
      "java\tscript:alert(1)",
      " javascript:alert(1)",
      "\u0000javascript:alert(1)",
      "//evil.example/x.html",
      "\\\\evil.example\\x.html",
      "/etc/passwd",
      "http://evil.example",
      "",
      null,
    ]) {
      expect(relativeHref(hostile), String(hostile)).toBeNull();
    }
  });
});
