// @vitest-environment happy-dom
// The fixes as every pane shows them: best first, the rest folded, what a replay verified, its diff.
import { describe, expect, it } from "vitest";
import { diffView, fixesView, fixView } from "../src/fixes";
import { fix, texts } from "./pane_session";

describe("the fixes", () => {
  it("are nothing when there is none", () => {
    expect(fixesView([])).toBeNull();
  });
  it("show the first `shown` best first and fold the rest", () => {
    const fixes = [fix("mark_dynamic(x, 0)", true), fix("pad", false), fix("bucket", null)];
    const view = fixesView(fixes, 1) as HTMLElement;
    expect(view.querySelector("h4")?.textContent).toBe("fixes (3, best first)");
    expect(texts(view, ":scope > .fix .fix-code")).toEqual(["mark_dynamic(x, 0)"]);
    expect(view.querySelector("details > summary")?.textContent).toBe("2 more fixes");
    expect(texts(view, "details .fix-code")).toEqual(["pad", "bucket"]);
  });
  it("say what a replay showed of each", () => {
    const statuses = [true, false, null].map((verified) => fixView(fix("f", verified)).getAttribute("data-verified"));
    expect(statuses).toEqual(["verified", "failed", "not tried"]);
    expect(fixesView([fix("only", null)])?.querySelector("h4")?.textContent).toBe("fix");
  });
});

describe("a fix's diff", () => {
  it("marks each line by its kind", () => {
    const view = diffView("--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-if n > 4:\n+if True:");
    const kinds = Array.from(view.querySelectorAll(".diff-line")).map((line) => line.className.split(" ")[1]);
    expect(kinds).toEqual(["file", "file", "hunk", "del", "add"]);
    expect(fixView(fix("f", true, "-a\n+b")).querySelector(".fix-diff")).not.toBeNull();
  });
});
