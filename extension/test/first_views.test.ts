// What each view opens on and draws first (issue 32, items 6 to 9): every compile in the guards
// filter and what one without guards specialized, the why tab on the input that recompiled
// most, what a guard the compiler added is, and the sizes chart drawn as `prediction_held` judged.
import { describe, expect, it } from "vitest";
import type { SweepData } from "../src/chart";
import { earlierPrediction, lanes, missed, pointText, shownPrediction } from "../src/chart";
import { compilerGuardNote, nodeText } from "../src/compiler_guards";
import type { Guard, Session, SourceExplanation, SymbolFact } from "../src/document";
import { compileIds, compileSymbols, mostRecompiled, symbolSaid } from "../src/model";

function symbol(compileId: string, source: string, name: string, state: SymbolFact["state"]): SymbolFact {
  const constant = state !== "dynamic";
  return {
    name,
    sources: [source],
    compile_id: compileId,
    hint: constant ? Number(name) : 8,
    range: null,
    state,
    cause: constant ? "static_by_default" : null,
    user_frame: null,
    range_locs: {},
    fix: null,
    fixes: [],
    origin: "",
    runtime_asserts: [],
    user_names: [`${source === "L['z'].size()[0]" ? "z" : "a"}.shape[0]`],
    expected: null,
  };
}

function explanation(source: string, recompiles: string[], compileId = "0/2"): SourceExplanation {
  return {
    source,
    compile_id: compileId,
    state: "dynamic",
    cause: null,
    value: 3,
    symbol: "s0",
    guards: [],
    recompiles,
    fixes: [],
    user_frame: null,
    steps: [],
    user_name: "",
  };
}

const Z = "L['z'].size()[0]";
const A = "L['a'].size()[0]";

/** 0/0 static (no guard), 0/1 and 0/2 with guards; z recompiled twice, a never. */
const session = {
  compiles: ["0/0", "0/1", "0/2"].map((compile_id) => ({ compile_id })),
  guards: [{ compile_id: "0/1" }, { compile_id: "0/2" }, { compile_id: "0/10" }],
  symbols: [
    symbol("0/0", A, "4", "static-by-default"),
    symbol("0/0", Z, "8", "static-by-default"),
    { ...symbol("0/0", "L['self'].heads", "2", "specialized"), expected: "a library constant" },
    symbol("0/1", Z, "s0", "dynamic"),
  ],
  explanations: [explanation(A, []), explanation(Z, ["0/1"], "0/1"), explanation(Z, ["0/1", "0/2"])],
} as unknown as Session;

describe("the guards filter", () => {
  it("offers every compile, one without a guard too, in order", () => {
    expect(compileIds(session)).toEqual(["0/0", "0/1", "0/2", "0/10"]);
  });

  it("says what a compile without guards specialized", () => {
    const said = compileSymbols(session, "0/0").map(symbolSaid);
    expect(said).toEqual([
      "a.shape[0] (L['a'].size()[0]) = 4  static-by-default (static_by_default)",
      "z.shape[0] (L['z'].size()[0]) = 8  static-by-default (static_by_default)",
    ]);
    expect(compileSymbols(session, "0/1").map(symbolSaid)).toEqual(["z.shape[0] (L['z'].size()[0]) = s0  dynamic"]);
  });
});

describe("the why tab", () => {
  it("opens on the input whose explanations list the most recompiles, not the first by name", () => {
    expect(mostRecompiled(session)).toBe(Z);
  });

  it("opens on the first input by name among equals, and on none without explanations", () => {
    const tied = { ...session, explanations: [explanation(Z, ["0/1"]), explanation(A, ["0/2"])] };
    expect(mostRecompiled(tied)).toBe(A);
    expect(mostRecompiled({ ...session, explanations: [] })).toBeUndefined();
  });
});

function guard(cause: Guard["cause"], fx_node: string | null = null): Guard {
  return { cause, fx_node, fx_node_inferred: false, instruction: "RETURN_VALUE" } as Guard;
}

describe("a guard the compiler added", () => {
  it("says what it is and when it matters, not a control flow of the user's", () => {
    for (const cause of ["backward", "inductor"] as const) {
      expect(compilerGuardNote(guard(cause))).toMatch(/^a guard the compiler added .* then the frame recompiles$/);
      expect(nodeText(guard(cause))).toBeNull();
    }
    expect(compilerGuardNote(guard("backward"))).toContain("backward graph");
  });

  it("says a guard a compile cache replayed has no user line, whatever its cause", () => {
    for (const cause of ["inductor", "user_branch"] as const) {
      const cached = { ...guard(cause), origin: "cache" } as Guard;
      expect(compilerGuardNote(cached)).toMatch(/^from cache: no user line /);
      expect(nodeText(cached)).toBeNull();
    }
  });

  it("leaves Dynamo's guards as they were", () => {
    expect(compilerGuardNote(guard("user_branch"))).toBeNull();
    expect(nodeText(guard("user_branch"))).toBe("no FX node (control flow, RETURN_VALUE)");
    expect(nodeText(guard("op_requirement", "view"))).toBe("FX node: view");
  });
});

/** A sweep over 2..5: 2 recompiled as 0/1; 3 and 4, predicted to recompile before the sweep, were served by 0/1. */
const sweep: SweepData = {
  axis: Z,
  x: [2, 3, 4, 5],
  predicted: [null, null, null, "0/0"],
  predicted_at_call: [null, "0/1", "0/1", "0/0"],
  actual: ["0/1", "0/1", "0/1", "0/0"],
  recompiled: [true, false, false, false],
  prediction_held: [true, true, true, true],
};

describe("the sizes chart", () => {
  it("draws each re-run point at the prediction its call was judged by", () => {
    expect([0, 1, 2, 3].map((i) => shownPrediction(sweep, i))).toEqual([null, "0/1", "0/1", "0/0"]);
    expect([0, 1, 2, 3].map((i) => missed(sweep, i))).toEqual([false, false, false, false]);
  });

  it("keeps the prediction made before the sweep apart, where a recompile since changed it", () => {
    expect([0, 1, 2, 3].map((i) => earlierPrediction(sweep, i))).toEqual([undefined, null, null, undefined]);
    expect(pointText(sweep, 1)).toBe(`${Z} = 3: predicted 0/1 (before the sweep: a recompile); served by 0/1`);
    expect(lanes(sweep)).toEqual(["0/0", "0/1", "recompile"]);
  });

  it("draws a point not re-run, or an older document's, at the sweep's prediction", () => {
    const old: SweepData = { ...sweep, predicted_at_call: undefined };
    expect(shownPrediction(old, 1)).toBeNull();
    const notRun: SweepData = { ...sweep, prediction_held: [true, null, true, true] };
    expect(shownPrediction(notRun, 1)).toBeNull();
    expect(missed({ ...sweep, prediction_held: [true, false, true, true] }, 1)).toBe(true);
  });
});
