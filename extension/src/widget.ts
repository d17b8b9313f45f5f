// The notebook explorer (anywidget): the same viewer, plus Predict, Run, Verify fixes and Hunt
// controls that ask the kernel (session.predict / session.rerun / session.fix_plan) and
// show the answers.
import type { Frame } from "./document";
import { h } from "./dom";
import { opensFrames, requestFrame } from "./frame_event";
import { render as renderViewer } from "./index";
import { frameChoices, unpack } from "./model";
import type { Operation } from "./patch";
import { applyPatch } from "./patch";
import type { Wire } from "./wire";

interface Model {
  get(name: string): unknown;
  set(name: string, value: unknown): void;
  save_changes(): void;
  send(content: unknown): void;
  on(event: string, callback: (message?: unknown) => void): void;
}

/** A patch from the kernel (symdebug/notebook/widget.py `refresh`): after revision `from`. */
interface PatchMessage {
  type: "patch";
  from: number;
  operations: string;
}

interface Result {
  id: number;
  action: string;
  text: string;
}

/**
 * Frame links as buttons where the page opens frames (JupyterLab with symdebug's extension,
 * as in a saved output); plain text elsewhere.
 */
export function frameOpener(el: HTMLElement): ((frame: Frame) => void) | undefined {
  if (!opensFrames(el.ownerDocument)) return undefined;
  return (frame) => requestFrame(el, frame);
}

export default {
  render({ model, el }: { model: Model; el: HTMLElement }): void {
    const viewer = h("div");
    const results = h("pre", { class: "results", "data-results": "" });
    const error = h("div", { class: "error", "data-error": "" });
    const frame = document.createElement("select");
    frame.setAttribute("aria-label", "frame");
    const args = document.createElement("input");
    args.setAttribute("aria-label", "sizes");
    args.placeholder = "arguments as JSON: [[17, 64], 3]  (a list of ints is a shape)";
    args.size = 48;
    let counter = 0;
    const ask = (action: string) => {
      counter += 1;
      model.set("request", { action, frame: frame.value, args: args.value, id: counter });
      model.save_changes();
    };
    const controls = h(
      "div",
      { class: "controls" },
      frame,
      args,
      h("button", { "data-action": "predict", onclick: () => ask("predict") }, "Predict"),
    );
    // Only where a run can work: a live session and the compiled function (or the notebook's
    // names to find it in); hidden otherwise, as Verify is.
    const run = h("button", { "data-action": "run", onclick: () => ask("run") }, "Run");
    const showRun = () => {
      run.hidden = !model.get("can_run");
    };
    controls.append(run);
    // Only when the kernel holds a workload to replay (symdebug.explorer(s, workload=...)).
    const verify = h("button", { "data-action": "verify", onclick: () => ask("verify") }, "Verify fixes");
    const hunt = h("button", { "data-action": "hunt", onclick: () => ask("hunt") }, "Hunt");
    const showVerify = () => {
      verify.hidden = !model.get("can_verify");
      hunt.hidden = !model.get("can_verify");
    };
    controls.append(verify, hunt);
    // The document this view shows and the revision it is at: the whole document from
    // `session_json`, then each patch the kernel sends; a view that missed one asks again.
    let wire: Wire | null = null;
    let revision = 0;
    let patches = 0; // applied in this view (a test reads it: changes came, not the document)
    const whole = () => {
      const text = String(model.get("session_json") || "{}");
      if (text === "{}") return; // no session sent yet
      wire = JSON.parse(text) as Wire;
      revision = Number(model.get("base_revision") ?? 0);
      draw();
      if (Number(model.get("revision") ?? 0) > revision) model.send({ type: "resend" });
    };
    const patched = (message?: unknown) => {
      const patch = message as PatchMessage;
      if (patch?.type !== "patch" || wire === null) return;
      if (patch.from !== revision) return model.send({ type: "resend" });
      wire = applyPatch(wire, JSON.parse(patch.operations) as Operation[]);
      revision = patch.from + 1;
      patches += 1;
      draw();
    };
    const draw = () => {
      if (wire === null) return;
      el.dataset.revision = String(revision);
      el.dataset.patches = String(patches);
      const data = unpack(wire);
      frame.replaceChildren(
        ...frameChoices(data).map((choice) => {
          const o = document.createElement("option");
          o.value = choice.value;
          o.textContent = choice.label;
          return o;
        }),
      );
      renderViewer(viewer, data, { deepLinks: false, openFrame: frameOpener(el) });
    };
    const showResults = () => {
      const items = (model.get("results") ?? []) as Result[];
      results.textContent = items.map((r) => `[${r.id}] ${r.action}: ${r.text}`).join("\n");
    };
    model.on("change:session_json", whole);
    model.on("msg:custom", patched);
    model.on("change:results", showResults);
    model.on("change:can_verify", showVerify);
    model.on("change:can_run", showRun);
    model.on("change:error", () => {
      error.textContent = String(model.get("error") ?? "");
    });
    el.replaceChildren(controls, error, results, viewer);
    whole();
    showResults();
    showVerify();
    showRun();
  },
};
