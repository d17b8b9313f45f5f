import { describe, expect, it } from "vitest";
import { applyPatch } from "../src/patch";
import type { Wire } from "../src/wire";

const wire = {
  packed: 1,
  redacted: false,
  frames: [["/w/f.py", 3, "f", "x * 2"]],
  fixes: [],
  fix_objects: [],
  tables: ["compiles"],
  session: { schema_version: 7, compiles: { columns: ["compile_id"], rows: [["0/0"]] }, problems: {} },
} as unknown as Wire;

describe("patches from the kernel", () => {
  it("appends new rows and sets changed values, leaving the old wire as it was", () => {
    const next = applyPatch(wire, [
      { op: "append", path: ["session", "compiles", "rows"], items: [["0/1"]] },
      { op: "append", path: ["frames"], items: [["/w/g.py", 5, "g", "y + 1"]] },
      { op: "set", path: ["session", "problems"], value: { bad_event: 1 } },
    ]);
    const session = next.session as unknown as Record<string, { rows?: unknown[] }>;
    expect(session.compiles.rows).toEqual([["0/0"], ["0/1"]]);
    expect(next.frames.length).toBe(2);
    expect(session.problems).toEqual({ bad_event: 1 });
    expect((wire.session as unknown as Record<string, { rows: unknown[] }>).compiles.rows).toEqual([["0/0"]]);
  });
  it("replaces the whole wire for the empty path", () => {
    const other = { ...wire, redacted: true } as Wire;
    expect(applyPatch(wire, [{ op: "set", path: [], value: other }])).toBe(other);
  });
});
