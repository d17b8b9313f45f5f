// @vitest-environment happy-dom
// The guards pane: the filters and their count, what a filtered compile specialized, the
// sortable table, and the detail of a guard.
import { describe, expect, it } from "vitest";
import { guardDetail, guardsPane } from "../src/guards";
import type { State } from "../src/pane";
import { paneSession, recorder, texts } from "./pane_session";

const ALL: State = { pane: "guards", filter: {}, sort: "compile_id", descending: false };

describe("the guards pane", () => {
  it("counts the guards the filter keeps and draws a row for each", () => {
    const pane = guardsPane(paneSession(), { ...ALL, filter: { compile: "0/0" } }, () => {});
    expect(pane.querySelector("[data-count]")?.textContent).toBe("1 of 2 guards");
    const rows = Array.from(pane.querySelectorAll("tr[data-guard]")).map((row) => row.getAttribute("data-guard"));
    expect(rows).toEqual(["0/0#0"]);
    const cells = texts(pane.querySelector("tr[data-guard]") as Element, "td");
    expect(cells).toEqual([
      "0/0",
      "x.shape[0] > 4 (torch: s0 > 4)",
      "s0 = x.shape[0] (L['x'].size()[0])",
      "user_branch",
      "installed",
      "dynamo",
      "model.py:3",
    ]);
  });
  it("says what the filtered compile specialized and kept dynamic", () => {
    const pane = guardsPane(paneSession(), { ...ALL, filter: { compile: "0/1" } }, () => {});
    const summary = pane.querySelector('[data-compile-summary="0/1"]') as HTMLElement;
    expect(texts(summary, "li")).toEqual(["x.shape[0] (L['x'].size()[0]) = 4  specialized (user_branch)"]);
  });
  it("sorts by a column clicked, the other way on a second click", () => {
    const { go, changes } = recorder();
    const pane = guardsPane(paneSession(), { ...ALL, sort: "cause" }, go);
    expect(pane.querySelector('th[data-col="cause"]')?.textContent).toBe("cause ▲");
    (pane.querySelector('th[data-col="cause"]') as HTMLElement).click();
    (pane.querySelector('th[data-col="expr"]') as HTMLElement).click();
    expect(changes).toEqual([
      { sort: "cause", descending: true },
      { sort: "expr", descending: false },
    ]);
  });
});

describe("a guard's detail", () => {
  it("shows its cause, its stacks, its symbols and its fixes", () => {
    const detail = guardDetail(paneSession(), "0/0#0", () => {});
    expect(detail.getAttribute("data-detail")).toBe("0/0#0");
    expect(detail.querySelector("p")?.textContent).toBe("user_branch installed, dynamo, compile 0/0");
    expect(texts(detail, ".symbols li")).toEqual(["s0 = x.shape[0] (L['x'].size()[0])"]);
    expect(texts(detail, "ol > li")[0]).toContain("/w/model.py:3 in score");
    expect(detail.querySelector("details summary")?.textContent).toBe("framework stack (1)");
    expect(detail.querySelector(".fix")?.getAttribute("data-verified")).toBe("failed");
    expect(detail.textContent).toContain("link: #guard=0%2F0%230");
  });
  it("says what a guard the compiler added is", () => {
    const detail = guardDetail(paneSession(), "0/1#0", () => {});
    expect(detail.querySelector("[data-compiler-note]")?.getAttribute("data-compiler-note")).toBe("inductor");
  });
  it("says the document has no such guard", () => {
    expect(guardDetail(paneSession(), "9/9#9", () => {}).textContent).toBe("no guard 9/9#9");
  });
});
