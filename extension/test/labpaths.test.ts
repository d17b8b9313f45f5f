import { describe, expect, it } from "vitest";
import { cellNumber, reportFromBundle, reportPath, serverRelative } from "../src/labpaths";

describe("lab helpers", () => {
  it("reads cell numbers only from cell frames", () => {
    expect(cellNumber("Cell [12]")).toBe(12);
    expect(cellNumber("/w/Cell [12].py")).toBeNull();
    expect(cellNumber("Cell [x]")).toBeNull();
  });

  it("makes paths relative to the server root, and refuses paths outside it", () => {
    expect(serverRelative("/proj/nb/model.py", "/proj/nb")).toBe("model.py");
    expect(serverRelative("/proj/nb/pkg/m.py", "/proj/nb/")).toBe("pkg/m.py");
    expect(serverRelative("/proj/nbx/m.py", "/proj/nb")).toBeNull();
    expect(serverRelative("/venv/site/torch/x.py", "/proj/nb")).toBeNull();
    expect(serverRelative("Cell [3]", "/proj/nb")).toBeNull();
    expect(serverRelative("/Users/ada/work/m.py", "~/work")).toBe("m.py");
    expect(serverRelative("/Users/ada/m.py", "~")).toBe("m.py");
    expect(serverRelative("/vol/work/m.py", "~/work")).toBeNull();
  });

  it("takes the report out of the iframe fallback, unescaped exactly once", () => {
    const page = "<script>a < b && \"c\" 'd'</script>";
    const escaped = page
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      .replace(/'/g, "&#x27;");
    const bundle = { "text/html": `<iframe srcdoc="${escaped}" style="x"></iframe>` };
    expect(reportFromBundle(bundle)).toBe(page);
    expect(reportFromBundle({ "text/html": ['<iframe srcdoc="&amp;', 'lt;"></iframe>'] })).toBe("&lt;");
    expect(reportFromBundle({ "text/plain": "x" })).toBeNull();
  });

  it("names the export beside the notebook", () => {
    expect(reportPath("dir/model.ipynb", "0b1c2d3e-aaaa")).toBe("dir/model-symdebug-0b1c2d3e.html");
    expect(reportPath("model.ipynb", "../../x")).toBe("model-symdebug-x.html");
  });
});
