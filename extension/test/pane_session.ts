// A small session for the panes' tests, every record whole (as the contract types it): a frame
// `score` compiled twice, the second because `x.shape[0]` broke the guard `s0 > 4`; a graph
// break, a library constant, a kernel, and a sweep over three sizes.
import type {
  Compile,
  Fix,
  Frame,
  GraphBreak,
  Guard,
  Kernel,
  Recompile,
  Session,
  SourceExplanation,
  SymbolFact,
} from "../src/document";
import { SCHEMA_VERSION } from "../src/document";

export const X = "L['x'].size()[0]";
export const USER: Frame = { filename: "/w/model.py", lineno: 3, name: "score", line: "if x.shape[0] > 4:" };
export const TORCH: Frame = { filename: "/torch/_dynamo/guards.py", lineno: 90, name: "evaluate", line: "g()" };

export function fix(code: string, verified: boolean | null, diff = ""): Fix {
  return {
    code,
    kind: "mark",
    explanation: `why ${code}`,
    settings: {},
    verified,
    effect: "",
    diff,
    needs: "",
    saved: null,
  };
}

export function compile(compileId: string, overrides: Partial<Compile> = {}): Compile {
  return {
    compile_id: compileId,
    frame_id: 0,
    frame_compile_id: Number(compileId.split("/")[1]),
    attempt: 0,
    torch_id: compileId,
    generation: 0,
    name: "score",
    filename: USER.filename,
    lineno: 1,
    status: "ok",
    fail_type: null,
    fail_reason: null,
    recompile_reasons: [],
    restart_reasons: [],
    graphs: [],
    dynamic: null,
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
    seconds: null,
    rank: null,
    extra: {},
    kind: "compile",
    callee: null,
    caller: null,
    expected_constants: [],
    declared: {},
    ...overrides,
  };
}

export function guard(id: string, expr: string, compileId: string, overrides: Partial<Guard> = {}): Guard {
  return {
    id,
    expr,
    compile_id: compileId,
    status: "installed",
    cause: "user_branch",
    user_stack: [USER],
    framework_stack: [TORCH],
    fx_node: null,
    phase: "dynamo",
    symbols: ["s0"],
    sources: [X],
    instruction: "POP_JUMP_IF_FALSE",
    aot_graph: null,
    fix: null,
    origin: "event",
    fx_node_target: null,
    fx_node_inferred: false,
    aot_node: null,
    backward_trace: false,
    inductor_node: null,
    line_nodes: [],
    kernel: null,
    fixes: [],
    user_expr: "",
    ...overrides,
  };
}

export function symbol(name: string, compileId: string, overrides: Partial<SymbolFact> = {}): SymbolFact {
  return {
    name,
    sources: [X],
    compile_id: compileId,
    hint: 8,
    range: [5, "int_oo"],
    state: "dynamic",
    cause: null,
    user_frame: null,
    range_locs: {},
    fix: null,
    fixes: [],
    origin: "",
    runtime_asserts: [],
    user_names: ["x.shape[0]"],
    expected: null,
    ...overrides,
  };
}

export function explanation(compileId: string, overrides: Partial<SourceExplanation> = {}): SourceExplanation {
  return {
    source: X,
    compile_id: compileId,
    state: "dynamic",
    cause: null,
    value: 8,
    symbol: "s0",
    guards: ["0/0#0"],
    recompiles: ["0/1"],
    fixes: [fix("torch._dynamo.mark_dynamic(x, 0)", true)],
    user_frame: USER,
    steps: [
      { kind: "state", text: "x.shape[0] is dynamic in 0/1", guard: null, frame: null },
      { kind: "guard", text: "the branch checked s0 > 4", guard: "0/0#0", frame: null },
      { kind: "line", text: "model.py:3", guard: null, frame: USER },
      { kind: "fix", text: "mark it dynamic", guard: null, frame: null },
    ],
    user_name: "x.shape[0]",
    ...overrides,
  };
}

const RECOMPILE: Recompile = {
  compile_id: "0/1",
  failed_entry: "0/0",
  reasons: ["0/0: 5 <= x.size()[0]"],
  guard: "0/0#0",
  cause: "user_branch",
  specialization: null,
  failed_entries: ["0/0"],
  fix: null,
  sources: [X],
  fixes: [fix("torch._dynamo.mark_dynamic(x, 0)", true), fix("pad to 8", null)],
  user_frame: USER,
  user_names: ["x.shape[0]"],
};

const GRAPH_BREAK: GraphBreak = {
  compile_id: "0/1",
  reason: "print() is not traceable",
  explanation: "",
  user_frame: { ...USER, lineno: 5, line: "print(x)" },
  user_stack: [],
  framework_frame: null,
  skipped: false,
  resume_frames: ["1"],
  resume_compiles: ["1/0"],
  lost: [],
  fixes: [],
  expression: "",
  failed: false,
  library_frame: null,
};

const KERNEL: Kernel = {
  compile_id: "0/1",
  name: "triton_poi_0",
  graph: "graph_0",
  language: "triton",
  size_args: [{ param: "ks0", expr: "s0", symbols: ["s0"], sources: [X] }],
  literals: [{ value: 4, kind: "size", context: "xnumel = 4L" }],
  nodes: ["add"],
  source: "def triton_poi_0(ks0):\n    xnumel = ks0 * 4L\n",
};

/** The whole session; `overrides` replaces any of its lists. */
export function paneSession(overrides: Partial<Session> = {}): Session {
  return {
    schema_version: SCHEMA_VERSION,
    compiles: [compile("0/0", { expected_constants: ["torch.nn: heads = 2"] }), compile("0/1")],
    guards: [
      guard("0/0#0", "s0 > 4", "0/0", { user_expr: "x.shape[0] > 4", fixes: [fix("mark", false)] }),
      guard("0/1#0", "s0 <= 4", "0/1", { cause: "inductor", phase: "inductor", user_stack: [] }),
    ],
    symbols: [
      symbol("s0", "0/0"),
      symbol("4", "0/1", { state: "specialized", cause: "user_branch", hint: 4, range: null }),
      symbol("2", "0/1", { sources: ["L['self'].heads"], expected: "a library constant" }),
    ],
    specializations: [],
    recompiles: [RECOMPILE],
    fx_nodes: [],
    kernels: [KERNEL],
    graph_code: [
      {
        compile_id: "0/1",
        graph: "graph_0",
        input_sizes: {},
        specialized_dims: [
          {
            source: X,
            symbol: "s0",
            value: 4,
            placeholder: "arg0_1",
            explanation: "the branch",
            guard: null,
            cause: "user_branch",
          },
        ],
      },
    ],
    explanations: [explanation("0/1")],
    graph_breaks: [GRAPH_BREAK],
    sweeps: [],
    problems: {},
    problem_examples: [],
    capture_errors: 0,
    source: "test",
    dropped_compiles: 0,
    rank: null,
    hunt: [],
    marks: [],
    torch: { version: "2.13.0+cpu", release: "2.13", known: "recorded" },
    changes: [{ fixes: RECOMPILE.fixes.slice(0, 1), recompiles: ["0/1"], causes: [RECOMPILE.cause], lines: [USER] }],
    ...overrides,
  };
}

/** A `go` that records each change a pane asks for. */
export function recorder(): { go: (change: object) => void; changes: object[] } {
  const changes: object[] = [];
  return { go: (change) => changes.push(change), changes };
}

/** The text of each element `selector` finds under `root`. */
export function texts(root: Element, selector: string): string[] {
  return Array.from(root.querySelectorAll(selector)).map((el) => el.textContent ?? "");
}
