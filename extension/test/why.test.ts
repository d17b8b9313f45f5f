// @vitest-environment happy-dom
// The why tab: the explanation of the input that recompiled most, its steps and fixes, the
// other frames that saw an input of that name folded.
import { describe, expect, it } from "vitest";
import type { State } from "../src/pane";
import { whyPane } from "../src/why";
import { explanation, paneSession, recorder, texts, X } from "./pane_session";

const OPENED: State = { pane: "why", filter: {}, sort: "compile_id", descending: false };

describe("the why tab", () => {
  it("opens on the input that recompiled most, its steps but the fixes, then its fixes", () => {
    const pane = whyPane(paneSession(), OPENED, () => {});
    expect((pane.querySelector("select") as HTMLSelectElement).value).toBe(X);
    const steps = Array.from(pane.querySelectorAll(".steps > li")).map((li) => li.getAttribute("data-kind"));
    expect(steps).toEqual(["state", "guard", "line"]);
    expect(texts(pane, ".fixes .fix-code")).toEqual(["torch._dynamo.mark_dynamic(x, 0)"]);
  });
  it("opens the guards pane on a guard step clicked", () => {
    const { go, changes } = recorder();
    const pane = whyPane(paneSession(), OPENED, go);
    (pane.querySelector('.steps [data-guard="0/0#0"]') as HTMLElement).click();
    expect(changes).toEqual([{ pane: "guards", guard: "0/0#0" }]);
  });
  it("folds another frame's explanation of an input of the same name", () => {
    const session = paneSession({ explanations: [explanation("0/0"), explanation("0/1")] });
    const pane = whyPane(session, { ...OPENED, source: X }, () => {});
    expect(pane.querySelector(".frame-of")?.textContent).toBe("in score (frame 0, /w/model.py:1)");
    const other = pane.querySelector("details.other-frame") as HTMLDetailsElement;
    expect(other.querySelector("summary")?.textContent).toBe("also in score (frame 0, /w/model.py:1)");
    expect(other.querySelector(".steps")).toBeNull();
    other.dispatchEvent(new Event("toggle"));
    expect(other.querySelectorAll(".steps > li").length).toBe(3);
  });
  it("shows no step for an input the document does not explain", () => {
    const pane = whyPane(paneSession(), { ...OPENED, source: "L['y']" }, () => {});
    expect(pane.querySelectorAll(".steps > li").length).toBe(0);
  });
});
