import { describe, expect, it } from "vitest";
import type { DiffItem, FrameDiff, RunDiff, Side } from "../src/diff_document";
import {
  compileChange,
  itemGroups,
  itemInput,
  problemsText,
  regressed,
  runKey,
  runTitle,
  sideTotals,
  sortFrames,
} from "../src/diffmodel";

function frame(title: string, before: number, after: number, change: Partial<FrameDiff> = {}): FrameDiff {
  return {
    title,
    filename: `/w/${title}.py`,
    status: "matched",
    compiles_before: before,
    compiles_after: after,
    recompiles_added: [],
    recompiles_removed: [],
    specializations_added: [],
    specializations_removed: [],
    specializations_changed: [],
    graph_breaks_added: [],
    graph_breaks_removed: [],
    regressions: [],
    ...change,
  };
}

const item: DiffItem = {
  kind: "recompile",
  cause: "int_specialized",
  text: "n == 3",
  count: 2,
  source: "L['n']",
  user_name: "n",
  line: { filename: "/w/train.py", lineno: 12, name: "step", line: "for _ in range(n):" },
  fix: "n = torch.as_tensor(n)",
};

const frames = [
  frame("step10", 2, 5, { regressions: ["compiles 2 -> 5"], recompiles_added: [item] }),
  frame("step9", 3, 1),
  frame("new", 0, 1, { status: "added" }),
  frame("old", 1, 0, { status: "removed" }),
];

const titles = (rows: { item: FrameDiff }[]) => rows.map((row) => row.item.title);

describe("the diff's frame table", () => {
  it("keeps the document's order until a column is chosen", () => {
    expect(titles(sortFrames(frames, { column: null, descending: false }))).toEqual(["step10", "step9", "new", "old"]);
    expect(sortFrames(frames, { column: null, descending: false }).map((r) => r.index)).toEqual([0, 1, 2, 3]);
  });

  it("sorts counts numerically and titles naturally", () => {
    expect(titles(sortFrames(frames, { column: "compiles_after", descending: true }))).toEqual([
      "step10",
      "step9",
      "new",
      "old",
    ]);
    expect(titles(sortFrames(frames, { column: "change", descending: false }))).toEqual([
      "step9",
      "old",
      "new",
      "step10",
    ]);
    expect(titles(sortFrames(frames, { column: "title", descending: false }))).toEqual([
      "new",
      "old",
      "step9",
      "step10",
    ]);
  });

  it("puts regressed frames first when sorted by regressed, descending; ties keep the order", () => {
    const rows = sortFrames(frames, { column: "regressed", descending: true });
    expect(titles(rows)).toEqual(["step10", "step9", "new", "old"]);
    expect(rows[0].index).toBe(0);
  });

  it("says the compile change signed, and a frame regressed only when the document says why", () => {
    expect(frames.map(compileChange)).toEqual(["+3", "-2", "+1", "-1"]);
    expect(compileChange(frame("same", 2, 2))).toBe("0");
    expect(frames.map(regressed)).toEqual([true, false, false, false]);
  });
});

describe("a frame's detail", () => {
  it("lists only the non-empty groups, in a fixed order", () => {
    const both = frame("f", 1, 1, {
      graph_breaks_removed: [{ ...item, kind: "graph_break", cause: "" }],
      specializations_changed: [{ ...item, kind: "specialization" }],
      recompiles_added: [item],
    });
    const groups = itemGroups(both);
    expect(groups.map((g) => [g.list, g.kind, g.change])).toEqual([
      ["recompiles_added", "recompile", "added"],
      ["specializations_changed", "specialization", "changed"],
      ["graph_breaks_removed", "graph_break", "removed"],
    ]);
    expect(groups[0].label).toBe("recompiles added");
    expect(itemGroups(frame("g", 1, 1))).toEqual([]);
  });

  it("names an input the user's way beside Dynamo's", () => {
    expect(itemInput(item)).toBe("n (L['n'])");
    expect(itemInput({ ...item, user_name: "" })).toBe("L['n']");
    expect(itemInput({ ...item, source: "" })).toBe("n");
    expect(itemInput({ ...item, user_name: "L['n']" })).toBe("L['n']");
  });
});

describe("sides and runs", () => {
  const side: Side = {
    label: "a.log",
    kind: "log",
    compiles: 1,
    recompiles: 0,
    graph_breaks: 2,
    problems: { bad_event: 2, bad_pass: 1 },
    problem_examples: [],
  };

  it("says totals and problems", () => {
    expect(sideTotals(side)).toBe("1 compile, 0 recompiles, 2 graph breaks");
    expect(problemsText(side)).toBe("bad_event 2, bad_pass 1");
    expect(problemsText({ ...side, problems: {} })).toBe("");
  });

  it("names a run by its rank, or as the single pair", () => {
    const run: RunDiff = { rank: 3, before: side, after: side, frames: [], matched: 0, notes: [], regressed: false };
    expect([runTitle(run), runKey(run)]).toEqual(["rank 3", "3"]);
    expect([runTitle({ ...run, rank: null }), runKey({ ...run, rank: null })]).toEqual(["the two runs", "pair"]);
    expect(runKey({ ...run, rank: 0 })).toBe("0");
  });
});
