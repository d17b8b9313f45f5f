import { describe, expect, it } from "vitest";
import type { Cause, Compile, Fix, Guard, Session, SourceExplanation, SymbolFact } from "../src/document";
import {
  diffLines,
  explanationOf,
  explanationsOf,
  filterGuards,
  formatHash,
  frameChoices,
  frameLabel,
  frames,
  guardOf,
  guardSymbols,
  guardText,
  namedSource,
  parseHash,
  recompilesOf,
  sortGuards,
  sources,
  sourcesText,
  specializationOf,
  unpack,
  verification,
  visibleWindow,
} from "../src/model";
import type { TextLists, Wire } from "../src/wire";
import { CHAIN_END, PACKING, TEXT_LISTS, WITH_FIXES } from "../src/wire";

const frame = { filename: "/w/f.py", lineno: 3, name: "f", line: "if x.shape[0] > 4:" };
const X = "L['x'].size()[0]";
const COND = "torch.cond(x.shape[0] > 4, true_fn, false_fn, (x,))";
const cond: Fix = {
  code: COND,
  kind: "code",
  explanation: "one graph for both sides",
  settings: {},
  needs: "",
  verified: null,
  effect: "",
  diff: "",
  saved: null,
};

function guard(id: string, expr: string, cause: Cause, compile = "0/0"): Guard {
  return {
    id,
    expr,
    compile_id: compile,
    status: "installed",
    cause,
    user_stack: [frame],
    framework_stack: [],
    fx_node: cause === "op_requirement" ? "view" : null,
    phase: "dynamo",
    symbols: ["s77"],
    sources: [X],
    instruction: null,
    aot_graph: null,
    fix: `${COND}  # one graph for both sides`,
    origin: "event",
    fx_node_target: null,
    fx_node_inferred: false,
    aot_node: null,
    backward_trace: false,
    inductor_node: null,
    line_nodes: [],
    kernel: null,
    fixes: [cond],
    user_expr: "",
  };
}

function compile(id: string, number: number, reasons: string[] = []): Compile {
  return {
    compile_id: id,
    kind: "compile",
    frame_id: 0,
    frame_compile_id: number,
    attempt: 0,
    torch_id: id,
    generation: 0,
    name: "f",
    filename: "/w/f.py",
    lineno: 2,
    status: "ok",
    fail_type: null,
    fail_reason: null,
    recompile_reasons: reasons,
    restart_reasons: [],
    graphs: [],
    dynamic: true,
    inputs: [],
    marked_dynamic: [],
    marked_static: [],
    automatic_dynamic: null,
    recompile_limit: null,
    accumulated_recompile_limit: null,
    shape_checks: [],
    value_checks: [],
    type_ids: {},
    tensor_checks: [],
    signature: null,
    tensors: {},
    global_state: {},
    guard_count: null,
    shape_env_guard_count: null,
    seconds: 0.1,
    rank: null,
    extra: {},
    callee: null,
    caller: null,
    expected_constants: [],
    declared: {},
  };
}

function symbol(compileId: string, hint: number): SymbolFact {
  return {
    name: "s77",
    sources: [X],
    compile_id: compileId,
    hint,
    range: [2, "int_oo"],
    state: "dynamic",
    cause: null,
    user_frame: frame,
    range_locs: {},
    fix: null,
    fixes: [],
    origin: "",
    runtime_asserts: [],
    user_names: [],
    expected: null,
  };
}

const explanation: SourceExplanation = {
  source: X,
  compile_id: "0/1",
  state: "dynamic",
  cause: null,
  value: 3,
  symbol: "s77",
  guards: ["0/1#0"],
  recompiles: ["0/1"],
  fixes: [cond],
  user_frame: frame,
  steps: [
    { kind: "state", text: `${X} is dynamic = 3 in compile 0/1`, guard: null, frame: null },
    { kind: "guard", text: "s77 <= 4 [user_branch, installed, dynamo]", guard: "0/1#0", frame: null },
    { kind: "line", text: "/w/f.py:3  if x.shape[0] > 4:", guard: null, frame },
    { kind: "recompile", text: "recompile 0/1: entry 0/0 failed", guard: "0/0#0", frame: null },
  ],
  user_name: "",
};

const session: Session = {
  schema_version: 3,
  torch: { version: "2.13.0+cpu", release: "2.13", known: "running" },
  marks: [],
  source: "live",
  rank: null,
  problems: {},
  problem_examples: [],
  capture_errors: 0,
  dropped_compiles: 0,
  fx_nodes: [],
  kernels: [],
  graph_code: [],
  graph_breaks: [],
  sweeps: [],
  hunt: [],
  changes: [],
  compiles: [compile("0/0", 0), compile("0/1", 1, ["0/0: 5 <= x.size()[0]"])],
  guards: [
    guard("0/0#0", "s77 > 4", "user_branch"),
    guard("0/0#1", "Eq(Mod(s77, 2), 0)", "op_requirement"),
    guard("0/1#0", "s77 <= 4", "user_branch", "0/1"),
  ],
  symbols: [symbol("0/0", 8), symbol("0/1", 3)],
  specializations: [],
  recompiles: [
    {
      compile_id: "0/1",
      failed_entry: "0/0",
      reasons: ["0/0: 5 <= x.size()[0]"],
      guard: "0/0#0",
      cause: "user_branch",
      specialization: null,
      failed_entries: ["0/0"],
      fix: null,
      sources: [X],
      fixes: [cond],
      user_frame: null,
      user_names: ["x.shape[0]"],
    },
  ],
  explanations: [explanation],
};

describe("guard table logic", () => {
  it("filters by cause, compile and free text", () => {
    expect(filterGuards(session.guards, { cause: "user_branch" }).map((g) => g.id)).toEqual(["0/0#0", "0/1#0"]);
    expect(filterGuards(session.guards, { compile: "0/1" }).length).toBe(1);
    expect(filterGuards(session.guards, { text: "mod(" }).map((g) => g.id)).toEqual(["0/0#1"]);
    expect(filterGuards(session.guards, { text: "f.py:3" }).length).toBe(3);
  });
  it("sorts numerically aware, both directions", () => {
    expect(sortGuards(session.guards, "expr").map((g) => g.expr)[0]).toBe("Eq(Mod(s77, 2), 0)");
    expect(sortGuards(session.guards, "compile_id", true)[0].compile_id).toBe("0/1");
  });
  it("renders only the visible window of a long table", () => {
    expect(visibleWindow(0, 480, 24, 20000)).toEqual([0, 30]);
    expect(visibleWindow(24 * 1000, 480, 24, 20000)).toEqual([990, 1030]);
  });
});

describe("overview and why", () => {
  it("groups compiles by frame", () => {
    expect(frames(session).map((f) => f.compiles.length)).toEqual([2]);
  });
  it("names a compiled module's frame by what the user compiled", () => {
    const callee = { qualname: "MyModule.forward", filename: "/w/m.py", lineno: 7, names: {} };
    const wrapped = { ...session, compiles: session.compiles.map((c) => ({ ...c, name: "inner", callee })) };
    const [group] = frames(wrapped);
    expect([group.name, group.filename, group.lineno]).toEqual(["MyModule.forward", "/w/m.py", 7]);
  });
  it("lists the sources the document explains, and reads their explanation as written", () => {
    expect(sources(session)).toEqual([X]);
    expect(explanationOf(session, X)).toBe(explanation);
    expect(explanationOf(session, "L['y'].size()[0]")).toBeUndefined();
    const other = { ...explanation, source: "L['y'].size()[0]" };
    expect(sources({ ...session, explanations: [other, explanation] })).toEqual([X, "L['y'].size()[0]"]);
  });
  it("answers for the newest frame that saw an input, and names each frame", () => {
    const older = { ...explanation, compile_id: "0/0" };
    const twice = { ...session, explanations: [older, explanation] };
    expect(explanationsOf(twice, X)).toEqual([older, explanation]);
    expect(explanationOf(twice, X)).toBe(explanation);
    expect(sources(twice)).toEqual([X]);
    expect(frameLabel(twice, "0/1")).toMatch(/^\S+ \(frame 0, /);
    expect(frameLabel(twice, "9/9")).toBe("compile 9/9");
  });
  it("offers a name once, and each definition of a name defined again, newest first", () => {
    expect(frameChoices(session)).toEqual([{ value: "f", label: "f" }]);
    const again = { ...compile("1/0", 0), frame_id: 1, lineno: 9 };
    const h = { ...compile("2/0", 0), frame_id: 2, name: "h" };
    const choices = frameChoices({ ...session, compiles: [...session.compiles, again, h] });
    expect(choices.map((c) => c.value)).toEqual(["1", "0", "h"]);
    expect(choices[0].label).toBe("f (frame 1, /w/f.py:9)");
    expect(choices[2].label).toBe("h");
  });
});

describe("fixes", () => {
  it("says what a replay showed", () => {
    expect(verification(cond)).toBe("not tried");
    expect(verification({ ...cond, verified: true })).toBe("verified");
    expect(verification({ ...cond, verified: false, effect: "f: 2 -> 2 compiles" })).toBe("failed");
  });
});

describe("a fix's diff", () => {
  it("tells added and removed lines from the headers and the context", () => {
    const diff = "--- a/prog.py\n+++ b/prog.py\n@@ -1,2 +1,2 @@\n def f(x):\n-    if n > 4:\n+    if x.shape[0] > 4:\n";
    expect(diffLines(diff).map((l) => l.kind)).toEqual(["file", "file", "hunk", "context", "del", "add"]);
    expect(diffLines(diff)[4].text).toBe("-    if n > 4:");
  });
  it("reads lines without a hunk header as changes", () => {
    expect(diffLines("-a\n+b\n c").map((l) => l.kind)).toEqual(["del", "add", "context"]);
  });
  it("reads a removed line that starts with --- inside a hunk as removed", () => {
    expect(diffLines("@@ -1 +1 @@\n--- x\n+++ y").map((l) => l.kind)).toEqual(["hunk", "del", "add"]);
  });
});

describe("deep links", () => {
  it("round-trips ids that contain # and /", () => {
    const link = { pane: "guard", id: "0/1#3" };
    expect(parseHash(formatHash(link))).toEqual(link);
    expect(parseHash("")).toEqual({ pane: "overview" });
  });
});

/** What symdebug/renderers/document.py `pack` makes of the session (tables, frames and fixes once). */
function packed(doc: Session): Wire {
  const copy = JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
  const texts: string[] = [];
  const objects: Fix[] = [];
  const textIndex = (t: string) => (texts.includes(t) ? texts.indexOf(t) : texts.push(t) - 1);
  const fixIndex = (f: Fix) => {
    const found = objects.findIndex((o) => JSON.stringify(o) === JSON.stringify(f));
    return found >= 0 ? found : objects.push(f) - 1;
  };
  for (const key of WITH_FIXES) {
    copy[key] = ((copy[key] ?? []) as { fix?: string | null; fixes: Fix[] }[]).map((r) => ({
      ...r,
      ...(typeof r.fix === "string" ? { fix: textIndex(r.fix) } : {}),
      fixes: r.fixes.map(fixIndex),
    }));
  }
  copy.guards = (copy.guards as Guard[]).map((g) => ({
    ...g,
    user_stack: g.user_stack.map(() => 0),
    framework_stack: [],
  }));
  const text_lists = chained(copy);
  const tables = ["compiles", "guards", "symbols", "recompiles", "explanations"];
  for (const key of tables) {
    const records = copy[key] as Record<string, unknown>[];
    const columns = Object.keys(records[0]);
    copy[key] = { columns, rows: records.map((r) => columns.map((c) => r[c])) };
  }
  const frames: [string, number, string, string][] = [[frame.filename, frame.lineno, frame.name, frame.line]];
  return {
    packed: PACKING,
    redacted: false,
    frames,
    fixes: texts,
    fix_objects: objects,
    text_lists,
    tables,
    session: copy,
  };
}

/** Recompile reasons as chains of cells [text, rest], equal cells once (renderers/text_lists.py). */
function chained(copy: Record<string, unknown>): TextLists {
  const lists: TextLists = { texts: [], cells: [] };
  const cell = (text: number, rest: number) => {
    const found = lists.cells.findIndex(([t, r]) => t === text && r === rest);
    return found >= 0 ? found : lists.cells.push([text, rest]) - 1;
  };
  const text = (t: string) => (lists.texts.includes(t) ? lists.texts.indexOf(t) : lists.texts.push(t) - 1);
  for (const [key, names] of Object.entries(TEXT_LISTS)) {
    for (const record of (copy[key] ?? []) as Record<string, unknown>[]) {
      for (const name of names)
        record[name] = (record[name] as string[]).reduceRight((rest, t) => cell(text(t), rest), CHAIN_END);
    }
  }
  return lists;
}

describe("the wire", () => {
  it("unpacks to the document exactly, nulls and falses kept, the wire untouched", () => {
    const wire = packed(session);
    const before = JSON.stringify(wire);
    const restored = unpack(wire);
    expect(restored).toEqual(session);
    expect(restored.guards[0].fx_node).toBeNull();
    expect(restored.guards[0].backward_trace).toBe(false);
    expect(JSON.stringify(wire)).toBe(before);
  });
  it("gives each record its fixes, each stored once", () => {
    const wire = packed(session);
    expect(wire.fix_objects).toEqual([cond]);
    const restored = unpack(wire);
    expect(restored.guards.map((g) => g.fixes)).toEqual([[cond], [cond], [cond]]);
    expect(restored.recompiles[0].fixes).toEqual([cond]);
  });
  it("restores recompile reasons from shared chains", () => {
    const wire = packed(session);
    wire.text_lists = {
      texts: ["0/1: n == 1", "0/0: n == 0"],
      cells: [
        [1, -1],
        [0, 0],
      ],
    };
    const recompiles = wire.session.recompiles as { columns: string[]; rows: unknown[][] };
    const at = recompiles.columns.indexOf("reasons");
    recompiles.rows[0][at] = 1;
    expect(unpack(wire).recompiles[0].reasons).toEqual(["0/1: n == 1", "0/0: n == 0"]);
  });
  it("passes a plain session document through", () => {
    expect(unpack(session)).toBe(session);
  });
  it("unpacks each list when it is first read, once: a list no view reads costs the opening nothing", () => {
    const wire = packed(session);
    wire.tables.push("kernels");
    wire.session.kernels = { columns: ["name"] }; // no rows: unpacking it fails, so reading it shows when it is unpacked
    const restored = unpack(wire);
    expect(restored.compiles).toEqual(session.compiles);
    expect(restored.guards).toBe(restored.guards);
    expect(() => restored.kernels).toThrow();
  });
});

describe("sweep chart lanes", () => {
  it("orders entries numerically and ends with the recompile lane", async () => {
    const { lanes } = await import("../src/chart");
    expect(
      lanes({
        x: [1, 2, 3],
        predicted: ["0/10", "0/2", null],
        actual: ["0/10", "0/2", "0/11"],
        recompiled: [false, false, true],
      }),
    ).toEqual(["0/2", "0/10", "0/11", "recompile"]);
  });
});

describe("what the report looks up in the document", () => {
  it("says each symbol of a guard with the input it stands for", () => {
    const two = { ...guard("0/0#3", "((s77//2)) <= s9", "op_requirement"), symbols: ["s77", "s9"] };
    expect(guardSymbols(session, session.guards[0])).toEqual([`s77 = ${X}`]);
    expect(guardSymbols(session, two)).toEqual([`s77 = ${X}`, "s9"]); // s9: not in the document
  });
  it("puts the user's name first where a wrapper renamed the input", () => {
    const renamed = { ...symbol("0/0", 8), sources: ["L['args'][0].size()[0]"], user_names: ["x.shape[0]"] };
    expect(sourcesText(renamed)).toBe("x.shape[0] (L['args'][0].size()[0])");
    const plain = { ...symbol("0/0", 8), user_names: ["x.shape[0]"] };
    expect(sourcesText(plain)).toBe(`x.shape[0] (${X})`);
    expect(namedSource(X, session.recompiles[0].user_names[0])).toBe(`x.shape[0] (${X})`);
    expect(namedSource("L['___stack0']", "")).toBe("L['___stack0']"); // no user's name: Dynamo's
  });
  it("says a guard in the user's names with torch's text beside it", () => {
    const named = { ...guard("0/0#0", "s77 > 4", "user_branch"), user_expr: "x.shape[0] > 4" };
    expect(guardText(named)).toBe("x.shape[0] > 4  (torch: s77 > 4)");
    expect(guardText(guard("0/0#9", "u0 >= 0", "unknown"))).toBe("u0 >= 0"); // no Python form
    expect(filterGuards([named], { text: "x.shape[0] >" }).map((g) => g.id)).toEqual(["0/0#0"]);
  });
  it("finds a recompile's guard and specialization by the document's references", () => {
    expect(guardOf(session, "0/0#0")?.expr).toBe("s77 > 4");
    expect(guardOf(session, null)).toBeUndefined();
    expect(specializationOf(session, "0/0|L['x']")).toBeUndefined();
    expect(recompilesOf(session, new Set(["0/1"])).map((r) => r.cause)).toEqual(["user_branch"]);
    expect(recompilesOf(session, new Set(["0/0"]))).toEqual([]);
  });
});

describe("sweep chart axes and tooltip", () => {
  it("ticks a numeric axis at round values inside its range", async () => {
    const { niceTicks } = await import("../src/chart");
    expect(niceTicks(2, 12)).toEqual([2, 4, 6, 8, 10, 12]);
    expect(niceTicks(2, 32)).toEqual([10, 20, 30]);
    expect(niceTicks(0, 1000)).toEqual([0, 200, 400, 600, 800, 1000]);
    expect(niceTicks(5, 5)).toEqual([5]);
  });
  it("says what one point predicted, what served and whether it recompiled", async () => {
    const { pointText } = await import("../src/chart");
    const sweep = {
      axis: X,
      x: [4, 8, 9],
      predicted: ["0/0", "0/0", null],
      actual: ["0/0", "0/1", "0/1"],
      recompiled: [false, true, false],
      prediction_held: [true, false, true],
    };
    expect(pointText(sweep, 0)).toBe(`${X} = 4: predicted 0/0; served by 0/0`);
    expect(pointText(sweep, 1)).toBe(`${X} = 8: predicted 0/0; served by 0/1; recompiled; prediction missed`);
    expect(pointText({ ...sweep, actual: [] }, 2)).toBe(`${X} = 9: predicted a recompile; not re-run`);
  });
});
