// @vitest-environment happy-dom
// The overview: each frame's compiles in order, each recompile explained with its failed check,
// and each graph break with where the frame resumed.
import { describe, expect, it } from "vitest";
import { graphBreakView, overview, recompileView } from "../src/overview";
import { paneSession, recorder, texts } from "./pane_session";

describe("the overview", () => {
  it("draws the frame, its compiles and the recompile's cause between them", () => {
    const root = overview(paneSession(), () => {});
    expect(texts(root, "h3")[0]).toContain("frame score");
    expect(texts(root, ".timeline .compile")).toEqual(["0/0", "0/1"]);
    const arrow = root.querySelector(".timeline .arrow") as HTMLElement;
    expect(arrow.textContent).toBe("→ user_branch →");
    expect(arrow.title).toBe("0/0: 5 <= x.size()[0]");
  });
  it("opens the guards of a compile clicked on the timeline", () => {
    const { go, changes } = recorder();
    const root = overview(paneSession(), go);
    (root.querySelector('[data-compile="0/1"]') as HTMLElement).click();
    expect(changes).toEqual([{ pane: "guards", filter: { compile: "0/1" }, guard: undefined }]);
  });
  it("says a torch.export call's error under its title", () => {
    const session = paneSession();
    session.compiles = session.compiles.map((c) => ({ ...c, kind: "export", fail_reason: "not exportable" }));
    const root = overview(session, () => {});
    expect(texts(root, "h3")[0]).toContain("torch.export.score");
    expect(texts(root, ".export-error")).toEqual(["not exportable", "not exportable"]);
  });
});

describe("a recompile", () => {
  it("names the failed check in the user's names, its inputs, and its fixes best first", () => {
    const session = paneSession();
    const { go, changes } = recorder();
    const view = recompileView(session, session.recompiles[0], go);
    expect(view.getAttribute("data-recompile")).toBe("0/1");
    const check = view.querySelector(".check") as HTMLElement;
    expect(check.textContent).toContain("inputs: x.shape[0] (L['x'].size()[0])");
    expect(check.textContent).toContain("; failed check x.shape[0] > 4 (torch: s0 > 4)");
    expect(view.querySelector(".fixes h4")?.textContent).toBe("fixes (2, best first)");
    expect(view.querySelector(".reason pre")?.textContent).toBe("0/0: 5 <= x.size()[0]");
    (view.querySelector('a.guard[data-guard="0/0#0"]') as HTMLElement).click();
    expect(changes).toEqual([{ pane: "guards", guard: "0/0#0" }]);
  });
});

describe("a graph break", () => {
  it("says its line, its reason and the frame that resumed", () => {
    const view = graphBreakView(paneSession().graph_breaks[0]);
    expect(view.textContent).toContain("graph break at /w/model.py:5: print() is not traceable → resume frame 1 (1/0)");
    expect(view.querySelector("pre.code")?.textContent).toBe("print(x)");
  });
  it("says a skipped frame runs eagerly", () => {
    const skipped = { ...paneSession().graph_breaks[0], skipped: true };
    expect(graphBreakView(skipped).textContent).toContain("frame skipped for good");
  });
});
