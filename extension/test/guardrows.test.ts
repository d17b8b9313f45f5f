// The guards table's rows from cached sort orders (issue 33, item 13): the same rows, in the
// same order, as filtering then sorting each time; ties in the document's order.
import { describe, expect, it } from "vitest";
import type { Cause, Guard, Session } from "../src/document";
import { guardChoices, guardRows, sortedGuards } from "../src/guardrows";
import { compareText, filterGuards } from "../src/model";

function guard(id: string, expr: string, cause: Cause, compile: string): Guard {
  return {
    id,
    expr,
    compile_id: compile,
    status: "installed",
    cause,
    user_stack: [],
    framework_stack: [],
    fx_node: null,
    phase: "dynamo",
    symbols: [],
    sources: [],
    instruction: null,
    aot_graph: null,
    fix: null,
    origin: "event",
    fx_node_target: null,
    fx_node_inferred: false,
    aot_node: null,
  } as unknown as Guard;
}

// Numbers in text sort as numbers (s9 before s10); "x01" and "x1" are equal to the collator.
const guards = [
  guard("a", "s10 > 3", "user_branch", "0/10"),
  guard("b", "x1 == 2", "zero_one", "0/2"),
  guard("c", "s9 > 3", "user_branch", "0/9"),
  guard("d", "x01 == 2", "inductor", "0/2"),
  guard("e", "s9 > 3", "zero_one", "1/0"),
];
const session = { compiles: [], guards } as unknown as Session;
const ids = (rows: Guard[]) => rows.map((g) => g.id);

describe("the guards table's rows", () => {
  it("sorts numbers in text as numbers, ties in the document's order", () => {
    expect(ids(sortedGuards(guards, "expr", false))).toEqual(["c", "e", "a", "b", "d"]);
    expect(ids(sortedGuards(guards, "expr", true))).toEqual(["b", "d", "a", "c", "e"]);
    expect(ids(sortedGuards(guards, "compile_id", false))).toEqual(["b", "d", "c", "a", "e"]);
  });
  it("sorts as a stable sort by the collator does", () => {
    for (const key of ["expr", "cause", "compile_id"] as const) {
      for (const descending of [false, true]) {
        const sign = descending ? -1 : 1;
        const plain = [...guards].sort((x, y) => sign * compareText(x[key], y[key]));
        expect(ids(sortedGuards(guards, key, descending))).toEqual(ids(plain));
      }
    }
  });
  it("makes each order once and filters it", () => {
    expect(sortedGuards(guards, "cause", false)).toBe(sortedGuards(guards, "cause", false));
    const rows = guardRows(session, { cause: "user_branch" }, "expr", false);
    expect(ids(rows)).toEqual(["c", "a"]);
    expect(ids(guardRows(session, { text: "x1" }, "compile_id", true))).toEqual(
      ids(filterGuards(guards, { text: "x1" })),
    );
  });
  it("offers each distinct value once, sorted", () => {
    expect(guardChoices(session).compile).toEqual(["0/2", "0/9", "0/10", "1/0"]);
    expect(guardChoices(session).cause).toEqual(["inductor", "user_branch", "zero_one"]);
  });
});
