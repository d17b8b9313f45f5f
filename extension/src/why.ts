// The why tab: the document's explanation of one input, step by step, with its fixes; the
// other frames that saw an input of that name folded below.
import type { Session, SourceExplanation, WhyStep } from "./document";
import { folded, h, select, setOptions } from "./dom";
import { fixesView } from "./fixes";
import { explanationOf, explanationsOf, frameLabel, mostRecompiled, sources } from "./model";
import type { Go, Host, State } from "./pane";
import { frameLink } from "./pane";
import { appendInParts, whenIdle } from "./parts";

/** Other frames' explanations of the chosen input drawn with it; the rest while the browser is idle. */
const FIRST_OTHER_FRAMES = 20;

/** The document's explanation of one input: its steps, guards linked, lines opened by the host. */
export function whyPane(session: Session, state: State, go: Go, host: Host = {}): HTMLElement {
  const chosen = state.source ?? mostRecompiled(session) ?? "";
  const explained = explanationsOf(session, chosen);
  const explanation = explained.at(-1);
  const root = h(
    "div",
    {},
    sourcePicker(session, explained.length ? chosen : "", go),
    explanation && explained.length > 1
      ? h("p", { class: "frame-of" }, `in ${frameLabel(session, explanation.compile_id)}`)
      : null,
    stepList(explanation?.steps ?? [], go, host),
    fixesView(explanation?.fixes ?? []),
  );
  // Another frame that saw an input of the same name (another function, or an older
  // definition of this one) has an explanation of its own: shown apart, folded. A big log
  // has thousands (one per frame): all of them at once were most of the tab's first draw.
  const other = (e: SourceExplanation) => [
    folded({ class: "other-frame" }, [`also in ${frameLabel(session, e.compile_id)}`], () => [
      stepList(e.steps, go, host),
      fixesView(e.fixes),
    ]),
  ];
  appendInParts(root, explained.slice(0, -1), other, () => 1, FIRST_OTHER_FRAMES);
  return root;
}

/**
 * The why tab's choice of input: the chosen one at once, every other when the browser is
 * idle (thousands of options were most of the tab's first draw).
 */
function sourcePicker(session: Session, chosen: string, go: Go): HTMLSelectElement {
  const said = (v: string) => {
    const name = explanationOf(session, v)?.user_name;
    return name ? `${name} (${v})` : v;
  };
  const picker = select(chosen ? [chosen] : [], chosen, "source", (v) => go({ source: v }), said);
  whenIdle(() => setOptions(picker, sources(session), said));
  return picker;
}

/** The steps of an explanation; fix steps are shown as the fixes themselves (with what a replay verified). */
function stepList(steps: WhyStep[], go: Go, host: Host): HTMLElement {
  const shown = steps.filter((s) => s.kind !== "fix");
  return h("ol", { class: "steps" }, ...shown.map((s) => h("li", { "data-kind": s.kind }, whyStep(s, go, host))));
}

function whyStep(s: WhyStep, go: Go, host: Host): HTMLElement | string {
  const guard = s.guard;
  if (guard !== null)
    return h("span", { class: "guard", "data-guard": guard, onclick: () => go({ pane: "guards", guard }) }, s.text);
  if (s.kind === "fix") return h("pre", {}, s.text);
  if (s.frame !== null && host.openFrame) return h("span", {}, frameLink(s.frame, host), `  ${s.frame.line}`);
  return s.text;
}
