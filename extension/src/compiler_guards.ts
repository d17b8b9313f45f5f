// What a guard the compiler added is, and whether it matters, in the words of
// symdebug/processors/compiler_guards.py (a Python test checks that they are the same).
// No DOM, so vitest runs it.
import type { Guard } from "./document";

/** Each compiler cause: what its guards are and when they matter (`COMPILER_GUARD_SAID`). */
const COMPILER_GUARD_SAID: Readonly<Record<string, string>> = {
  backward:
    "a guard the compiler added while building the backward graph (no line of yours): it matters only if a call's size breaks it, then the frame recompiles",
  inductor:
    "a guard the compiler added while lowering the graph to kernels (Inductor; no line of yours): it matters only if a call's size breaks it, then the frame recompiles",
};

/** A guard a compile cache replayed (`FROM_CACHE_SAID`): whatever its cause. */
const FROM_CACHE_SAID =
  "from cache: no user line (a compile cache replayed this guard's stored expression; capture with its default disable_caches=True traces it afresh, with its line)";

/**
 * What a guard the compiler added (backward, Inductor) is, or that a compile cache replayed
 * it (`origin` "cache"); null for one of Dynamo's own.
 */
export function compilerGuardNote(g: Guard): string | null {
  if (g.origin === "cache") return FROM_CACHE_SAID;
  return COMPILER_GUARD_SAID[g.cause] ?? null;
}

/**
 * The guard's FX node; where it has none, the control flow it came from; nothing for a guard
 * the compiler added (its note says what it is: no control flow of the user's).
 */
export function nodeText(g: Guard): string | null {
  if (g.fx_node) return `FX node: ${g.fx_node}${g.fx_node_inferred ? " (inferred)" : ""}`;
  if (compilerGuardNote(g) !== null) return null;
  return `no FX node (control flow${g.instruction ? `, ${g.instruction}` : ""})`;
}
