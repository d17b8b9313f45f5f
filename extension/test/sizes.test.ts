// @vitest-environment happy-dom
// The sizes pane: each sweep's counts as the document judged them, and its chart.
import { describe, expect, it } from "vitest";
import { sizesPane } from "../src/sizes";
import { paneSession } from "./pane_session";

const SWEEP = {
  axis: "x.shape[0]",
  x: [4, 8, 16],
  predicted: ["0/0", "0/1", "0/1"],
  actual: ["0/0", "0/1", "0/2"],
  recompiled: [false, true, true],
  prediction_held: [true, true, false],
};

describe("the sizes pane", () => {
  it("says how to add a sweep when the session has none", () => {
    expect(sizesPane(paneSession()).textContent).toContain("run session.sweep(...) to add one");
  });
  it("says each sweep's sizes, recompiles and missed predictions, and draws its chart", () => {
    const pane = sizesPane(paneSession({ sweeps: [SWEEP] }));
    expect(pane.querySelector("p")?.textContent).toBe("3 sizes of x.shape[0]; 2 recompiles; prediction missed 1");
    expect(pane.querySelector(".chart svg")).not.toBeNull();
  });
  it("says a sweep of re-runs as re-runs", () => {
    const pane = sizesPane(paneSession({ sweeps: [{ ...SWEEP, axis: "runs" }] }));
    expect(pane.querySelector("p")?.textContent).toContain("3 re-runs; 2 recompiles");
  });
});
