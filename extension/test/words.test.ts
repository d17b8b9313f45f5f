import { describe, expect, it } from "vitest";
import { counted, sessionTotals } from "../src/words";

describe("counts in words (issue 32: not `1 recompiles`, `1 guards`)", () => {
  it("says one without a plural", () => {
    expect(counted(1, "recompile")).toBe("1 recompile");
    expect(counted(1, "graph break")).toBe("1 graph break");
    expect(counted(0, "guard")).toBe("0 guards");
    expect(counted(2, "specialization")).toBe("2 specializations");
  });

  it("says a session's header counts", () => {
    const session = { compiles: [{}, {}], recompiles: [{}], guards: [{}] };
    expect(sessionTotals(session)).toBe("2 compiles, 1 recompile, 1 guard");
    expect(sessionTotals({ compiles: [{}], recompiles: [], guards: [] })).toBe("1 compile, 0 recompiles, 0 guards");
  });
});
