// @vitest-environment happy-dom
// The kernels pane: the sizes each graph baked in, then each kernel folded, its code marked.
import { describe, expect, it } from "vitest";
import { kernelsPane } from "../src/kernels";
import { paneSession, texts } from "./pane_session";

describe("the kernels pane", () => {
  it("says how to capture kernels when the session has none", () => {
    expect(kernelsPane(paneSession({ kernels: [] })).textContent).toContain("compile with the inductor backend");
  });
  it("says what each graph baked in, then each kernel's summary", () => {
    const pane = kernelsPane(paneSession());
    expect(texts(pane, "h3")).toEqual(["baked into graph_0 (compile 0/1)"]);
    expect(texts(pane, "ul > li")).toEqual(["L['x'].size()[0] = 4 (was s0): the branch"]);
    expect(pane.querySelector("details summary")?.textContent).toContain("0/1 graph_0 triton_poi_0");
  });
  it("draws a kernel's code when first opened, its size arguments and literals marked", () => {
    const details = kernelsPane(paneSession()).querySelector("details") as HTMLDetailsElement;
    expect(details.querySelector("pre")).toBeNull();
    details.dispatchEvent(new Event("toggle"));
    expect(texts(details, "pre .sym")).toEqual(["ks0", "ks0"]);
    expect(texts(details, "pre .lit")).toEqual(["4L"]);
    expect(details.querySelector("p")?.textContent).toBe("computes: add; literals: 4 (size)");
  });
});
