// The session document (schema v3) as the viewer reads it. Produced by symdebug's Python
// side (symdebug/model/serialize.py); the viewer only presents it.

export interface Frame { filename: string; lineno: number; name: string; line: string }

export interface Guard {
  id: string; expr: string; compile_id: string; status: string; cause: string;
  user_stack: Frame[]; framework_stack: Frame[]; fx_node: string | null; phase: string;
  symbols: string[]; sources: string[]; instruction: string | null; aot_graph: string | null;
  fix: string | null; fx_node_target: string | null; fx_node_inferred: boolean;
  kernel: string | null; line_nodes: string[];
}

export interface SymbolFact {
  name: string; sources: string[]; compile_id: string; hint: number | null;
  range: [number | string, number | string] | null; state: string; cause: string | null;
  user_frame: Frame | null;
}

export interface Specialization {
  source: string; value: number | string; compile_id: string; cause: string; guards: string[];
  user_frame: Frame | null; reason: string; kind: string; fix: string | null;
}

export interface Recompile {
  compile_id: string; failed_entry: string | null; reasons: string[]; guard: string | null;
  cause: string; specialization: string | null; failed_entries: string[]; fix: string | null;
  sources?: string[];  // v3: the inputs whose check failed
}

export interface Compile {
  compile_id: string; frame_id: number; frame_compile_id: number; name: string;
  filename: string; lineno: number; status: string; fail_type: string | null;
  fail_reason: string | null; recompile_reasons: string[]; seconds: number | null;
}

export interface Kernel {
  compile_id: string; name: string; graph: string; language: string;
  size_args: { param: string; expr: string; symbols: string[]; sources: string[] }[];
  literals: { value: number; kind: string; context: string }[]; nodes: string[]; source: string;
}

export interface GraphCode {
  compile_id: string; graph: string;
  specialized_dims: { source: string; symbol: string; value: number; explanation: string; cause: string }[];
}

export interface SweepData {
  axis?: string; x: unknown[]; predicted: (string | null)[]; actual: (string | null)[];
  recompiled: (boolean | null)[]; prediction_held?: (boolean | null)[];
}

export interface Session {
  schema_version: number; source: string; compiles: Compile[]; guards: Guard[];
  symbols: SymbolFact[]; specializations: Specialization[]; recompiles: Recompile[];
  kernels: Kernel[]; graph_code: GraphCode[]; problems: Record<string, number>;
  redacted?: boolean; sweeps?: SweepData[];
}
