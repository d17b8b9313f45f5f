// Counts said in words, as the Python side says them (symdebug/model/words.py): `1 compile`,
// `2 compiles`, `0 of 1 guard`. No DOM, so vitest runs it.

/** `1 compile`, `0 compiles`, `3 graph breaks`: the noun plural unless the count is one. */
export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** A session's counts for its header: `1 compile, 0 recompiles, 1 guard`. */
export function sessionTotals(session: { compiles: unknown[]; recompiles: unknown[]; guards: unknown[] }): string {
  return [
    counted(session.compiles.length, "compile"),
    counted(session.recompiles.length, "recompile"),
    counted(session.guards.length, "guard"),
  ].join(", ");
}
