import { describe, expect, it } from "vitest";
import type { HuntRow } from "../src/document";
import type { HuntColumn } from "../src/huntmodel";
import {
  evidenceText,
  HUNT_COLUMNS,
  huntRows,
  huntSortValue,
  huntSummary,
  inputName,
  outputsText,
  runsText,
  sortHunt,
} from "../src/huntmodel";
import { nextSort } from "../src/sorting";

function row(source: string, change: Partial<HuntRow> = {}): HuntRow {
  return {
    source,
    user_name: "",
    kind: "size",
    why_constant: "static_by_default",
    verdict: "untested",
    compiles: 0,
    cause: null,
    user_frame: null,
    change: "",
    before: 0,
    after: 0,
    outputs_equal: null,
    note: "",
    ...change,
  };
}

const frame = { filename: "/w/prog.py", lineno: 12, name: "f", line: "if n > 4:" };
const avoidable = row("L['x'].size()[1]", {
  user_name: "x.shape[1]",
  verdict: "avoidable",
  compiles: 2,
  change: "torch._dynamo.maybe_mark_dynamic(x, 1)",
  before: 3,
  after: 1,
  outputs_equal: true,
});
const needed = row("L['n']", { kind: "int", verdict: "needed", cause: "user_branch", user_frame: frame });
const untested = row("L['y'].size()[0]", { note: "no workload" });
const saving = row("L['z'].size()[0]", { verdict: "avoidable", compiles: 1, change: "x", before: 2, after: 1 });
const hunt = [avoidable, saving, needed, untested];

describe("the hunt's rows", () => {
  it("reads none from a document older than the hunt", () => {
    expect(huntRows({})).toEqual([]);
    expect(huntRows({ hunt })).toBe(hunt);
  });
  it("names an input the user's way, else Dynamo's", () => {
    expect(inputName(avoidable)).toBe("x.shape[1]");
    expect(inputName(needed)).toBe("L['n']");
  });
  it("says the runs, the change or the cause, and the outputs as the document has them", () => {
    expect(runsText(avoidable)).toBe("3 → 1");
    expect(runsText(untested)).toBe("");
    expect(evidenceText(avoidable)).toBe("torch._dynamo.maybe_mark_dynamic(x, 1)");
    expect(evidenceText(needed)).toBe("user_branch at /w/prog.py:12");
    expect(evidenceText(untested)).toBe("");
    expect(outputsText(avoidable)).toMatch(/equalled/);
    expect(outputsText(untested)).toBe("outputs not compared");
  });
  it("sums up the verdicts and the compiles the avoidable ones save", () => {
    expect(huntSummary(hunt)).toBe("2 avoidable (3 compiles saved), 1 needed, 1 untested");
    expect(huntSummary([saving])).toBe("1 avoidable (1 compile saved), 0 needed, 0 untested");
  });
  it("keeps the document's order until a header is clicked, then sorts counts as numbers", () => {
    const order = (sort: Parameters<typeof sortHunt>[1]) => sortHunt(hunt, sort).map((r) => r.index);
    expect(order({ column: null, descending: false })).toEqual([0, 1, 2, 3]);
    const byCompiles = nextSort<HuntColumn>({ column: null, descending: false }, "compiles");
    expect(order(byCompiles)).toEqual([2, 3, 1, 0]);
    expect(order(nextSort(byCompiles, "compiles"))).toEqual([0, 1, 2, 3]);
    expect(order({ column: "verdict", descending: false })).toEqual([0, 1, 2, 3]);
    expect(order({ column: "input", descending: false }).map((i) => inputName(hunt[i]))).toEqual([
      "L['n']",
      "L['y'].size()[0]",
      "L['z'].size()[0]",
      "x.shape[1]",
    ]);
  });
  it("has a sort value for every column", () => {
    for (const { key } of HUNT_COLUMNS) expect(["string", "number"]).toContain(typeof huntSortValue(needed, key));
  });
});
