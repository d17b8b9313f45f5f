// @vitest-environment happy-dom
// What every pane shares: a frame as text or as a button the host opens, a guard in the user's names.
import { describe, expect, it } from "vitest";
import type { Frame } from "../src/document";
import { frameLink, guardExpr } from "../src/pane";
import { guard, USER } from "./pane_session";

describe("a frame link", () => {
  it("is text where the host opens no frame", () => {
    const link = frameLink(USER, {});
    expect(link.tagName).toBe("CODE");
    expect(link.textContent).toBe("/w/model.py:3");
  });
  it("is a button that asks the host to open the frame, the click going no further", () => {
    const opened: Frame[] = [];
    const link = frameLink(USER, { openFrame: (frame) => opened.push(frame) }, "model.py:3");
    const row = document.createElement("tr");
    let rowClicked = false;
    row.addEventListener("click", () => {
      rowClicked = true;
    });
    row.append(link);
    link.click();
    expect(link.tagName).toBe("BUTTON");
    expect(link.getAttribute("data-frame")).toBe("/w/model.py:3");
    expect(opened).toEqual([USER]);
    expect(rowClicked).toBe(false);
  });
});

describe("a guard's expression", () => {
  it("says the user's names first and torch's text muted beside them", () => {
    const [user, , torch] = guardExpr(guard("g", "s0 > 4", "0/0", { user_expr: "x.shape[0] > 4" })) as HTMLElement[];
    expect(user.className).toBe("user-expr");
    expect(user.textContent).toBe("x.shape[0] > 4");
    expect(torch.textContent).toBe("(torch: s0 > 4)");
  });
  it("is torch's text alone when the user's names say the same", () => {
    expect(guardExpr(guard("g", "s0 > 4", "0/0", { user_expr: "s0 > 4" }))).toEqual(["s0 > 4"]);
  });
});
