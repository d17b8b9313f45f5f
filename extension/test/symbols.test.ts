// @vitest-environment happy-dom
// The symbols pane: a row per symbol of each compile, library constants one row per library.
import { describe, expect, it } from "vitest";
import { symbolsPane } from "../src/symbols";
import { paneSession, recorder, texts } from "./pane_session";

describe("the symbols pane", () => {
  it("draws a row per symbol, library constants apart, each cell as the document says it", () => {
    const table = symbolsPane(paneSession(), () => {});
    expect(texts(table, "th")).toEqual(["compile", "symbol", "sources", "origin", "hint", "range", "state", "cause"]);
    const rows = Array.from(table.querySelectorAll("tbody tr")).map((row) => texts(row, "td"));
    expect(rows).toEqual([
      ["0/0", "s0", "x.shape[0] (L['x'].size()[0])", "", "8", "[5, int_oo]", "dynamic", ""],
      ["0/1", "4", "x.shape[0] (L['x'].size()[0])", "", "4", "", "specialized", "user_branch"],
      ["0/0", "—", "torch.nn: heads = 2"],
    ]);
  });
  it("opens the why tab on a symbol's input when its row is clicked", () => {
    const { go, changes } = recorder();
    const table = symbolsPane(paneSession(), go);
    (table.querySelector("tbody tr") as HTMLElement).click();
    expect(changes).toEqual([{ pane: "why", source: "L['x'].size()[0]" }]);
  });
});
