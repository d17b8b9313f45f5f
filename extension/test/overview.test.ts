// @vitest-environment happy-dom
// The overview: each frame's compiles in order, each recompile explained with its failed check,
// and each graph break with where the frame resumed.
import { describe, expect, it } from "vitest";
import { removes } from "../src/changes";
import { graphBreakView, overview, recompileView } from "../src/overview";
import { fix, paneSession, recorder, texts } from "./pane_session";

describe("the overview", () => {
  it("leads with what to change, then the compiles by cause, then the details folded", () => {
    const root = overview(paneSession(), () => {});
    const sections = Array.from(root.querySelectorAll("section"), (s) => s.className);
    expect(sections).toEqual(["changes", "timelines", "details"]);
    const card = root.querySelector(".change") as HTMLElement;
    expect(card.querySelector(".removes")?.textContent).toBe("verified when replayed; expected to remove 1 recompile");
    expect(card.querySelector(".change-where")?.textContent).toBe("recompiles 0/1 at /w/model.py:3");
    expect(texts(root, "details.frame-details > summary h3")[0]).toContain("frame score");
    expect((root.querySelector("details.frame-details") as HTMLDetailsElement).open).toBe(false);
  });
  it("draws the frame's compiles coloured by the cause that made each", () => {
    const root = overview(paneSession(), () => {});
    expect(texts(root, ".timeline .compile")).toEqual(["0/0", "0/1"]);
    const made = root.querySelector('.timeline [data-compile="0/1"]') as HTMLElement;
    expect(made.dataset.cause).toBe("user_branch");
    expect(made.title).toBe("0/1: recompiled (user_branch)\n0/0: 5 <= x.size()[0]");
    expect(texts(root, ".legend .cause")).toEqual(["first compile 1", "user_branch 1"]);
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

describe("a change", () => {
  it("says what it removed once a replay verified it, and what it is expected to remove before", () => {
    const verified = { ...fix("torch.cond(...)", true), effect: "measured: 8 -> 5 compiles", saved: 3 };
    expect(removes(verified, 3)).toBe("removed 3 compiles when replayed");
    expect(removes(fix("x", false), 2)).toBe("did not help when replayed");
    expect(removes(fix("x", null), 2)).toBe("expected to remove 2 recompiles");
    expect(removes(fix("x", true), 1)).toBe("verified when replayed; expected to remove 1 recompile");
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
