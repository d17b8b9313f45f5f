import { describe, expect, it } from "vitest";
import { filterGuards, formatHash, frames, parseHash, sortGuards, visibleWindow, why } from "../src/model";
import type { Guard, Session } from "../src/types";

const frame = { filename: "/w/f.py", lineno: 3, name: "f", line: "if x.shape[0] > 4:" };

function guard(id: string, expr: string, cause: string, compile = "0/0"): Guard {
  return {
    id, expr, compile_id: compile, status: "installed", cause, user_stack: [frame], framework_stack: [],
    fx_node: cause === "op_requirement" ? "view" : null, phase: "dynamo", symbols: ["s77"],
    sources: ["L['x'].size()[0]"], instruction: null, aot_graph: null, fix: "torch._check(x.shape[0] > 4)",
    fx_node_target: null, fx_node_inferred: false, kernel: null, line_nodes: [],
  };
}

const session: Session = {
  schema_version: 2, source: "live", problems: {}, kernels: [], graph_code: [],
  compiles: [
    { compile_id: "0/0", frame_id: 0, frame_compile_id: 0, name: "f", filename: "/w/f.py", lineno: 2, status: "ok", fail_type: null, fail_reason: null, recompile_reasons: [], seconds: 0.1 },
    { compile_id: "0/1", frame_id: 0, frame_compile_id: 1, name: "f", filename: "/w/f.py", lineno: 2, status: "ok", fail_type: null, fail_reason: null, recompile_reasons: ["0/0: 5 <= x.size()[0]"], seconds: 0.1 },
  ],
  guards: [guard("0/0#0", "s77 > 4", "user_branch"), guard("0/0#1", "Eq(Mod(s77, 2), 0)", "op_requirement"), guard("0/1#0", "s77 <= 4", "user_branch", "0/1")],
  symbols: [
    { name: "s77", sources: ["L['x'].size()[0]"], compile_id: "0/0", hint: 8, range: [5, "int_oo"], state: "dynamic", cause: null, user_frame: frame },
    { name: "s77", sources: ["L['x'].size()[0]"], compile_id: "0/1", hint: 3, range: [2, 4], state: "dynamic", cause: null, user_frame: frame },
  ],
  specializations: [],
  recompiles: [{ compile_id: "0/1", failed_entry: "0/0", reasons: ["0/0: 5 <= x.size()[0]"], guard: "0/0#0", cause: "user_branch", specialization: null, failed_entries: ["0/0"], fix: null }],
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
  it("walks from a source to its latest state, guards, line and recompile", () => {
    const steps = why(session, "L['x'].size()[0]");
    expect(steps[0].text).toContain("is dynamic = 3 in compile 0/1");
    expect(steps.some((s) => s.kind === "node" && s.text.includes("control flow"))).toBe(true);
    expect(steps.some((s) => s.kind === "line" && s.text.includes("/w/f.py:3"))).toBe(true);
    expect(steps.find((s) => s.kind === "recompile")?.guardId).toBe("0/0#0");
  });

  it("finds a source's recompiles by the sources the model linked (v3)", () => {
    const bound = { ...session.recompiles[0], guard: null, cause: "zero_one", sources: ["L['x'].size()[0]"] };
    const linked: Session = { ...session, schema_version: 3, recompiles: [bound] };
    expect(why(linked, "L['x'].size()[0]").some((s) => s.kind === "recompile")).toBe(true);
    const other: Session = { ...linked, recompiles: [{ ...bound, sources: ["L['y'].size()[0]"] }] };
    expect(why(other, "L['x'].size()[0]").some((s) => s.kind === "recompile")).toBe(false);
  });
});

describe("deep links", () => {
  it("round-trips ids that contain # and /", () => {
    const link = { pane: "guard", id: "0/1#3" };
    expect(parseHash(formatHash(link))).toEqual(link);
    expect(parseHash("")).toEqual({ pane: "overview" });
  });
});

describe("packed reports", () => {
  it("restores every guard's stacks from the frame table", async () => {
    const { unpack } = await import("../src/model");
    const copy = JSON.parse(JSON.stringify(session)) as Session;
    const packedGuards = copy.guards.map((g) => ({ ...g, user_stack: [0], framework_stack: [] }));
    const restored = unpack({ packed: 1, frames: [["/w/f.py", 3, "f", "if x.shape[0] > 4:"]], session: { ...copy, guards: packedGuards as unknown as Guard[] } });
    expect(restored.guards[0].user_stack[0]).toEqual(frame);
  });
});

describe("sweep chart lanes", () => {
  it("orders entries numerically and ends with the recompile lane", async () => {
    const { lanes } = await import("../src/chart");
    expect(lanes({ x: [1, 2, 3], predicted: ["0/10", "0/2", null], actual: ["0/10", "0/2", "0/11"], recompiled: [false, false, true] }))
      .toEqual(["0/2", "0/10", "0/11", "recompile"]);
  });
});
