// The kernels pane: the sizes each graph baked in, then each generated kernel folded, its
// symbolic sizes and literals marked in its code.
import type { Kernel, Session } from "./document";
import { folded, h } from "./dom";
import { appendInParts } from "./parts";

/** What each graph baked in, then each kernel, the first ones now and the rest while the browser is idle. */
export function kernelsPane(session: Session): HTMLElement {
  if (!session.kernels.length)
    return h("p", { class: "muted" }, "no generated kernels were captured (compile with the inductor backend)");
  const root = h("div");
  for (const code of session.graph_code.filter((c) => c.specialized_dims.length)) {
    root.appendChild(h("h3", {}, `baked into ${code.graph} (compile ${code.compile_id})`));
    root.appendChild(
      h(
        "ul",
        {},
        ...code.specialized_dims.map((d) =>
          h("li", {}, `${d.source} = ${d.value} (was ${d.symbol}): ${d.explanation}`),
        ),
      ),
    );
  }
  appendInParts(
    root,
    session.kernels,
    (k) => [kernel(k)],
    () => 1,
    FIRST_KERNELS,
  );
  return root;
}

/** Kernels drawn before the kernels tab's first paint; the others while the browser is idle. */
const FIRST_KERNELS = 100;

/** A kernel folded: its summary now, its code (thousands of spans in all) when first opened. */
function kernel(k: Kernel): HTMLElement {
  const args = k.size_args.map((a) => `${a.param} = ${a.expr} (${a.sources.join(", ")})`).join("; ");
  const literals = k.literals.map((l) => `${l.value} (${l.kind})`).join(", ");
  const summary = [`${k.compile_id} ${k.graph} ${k.name}  `, h("span", { class: "muted" }, args)];
  return folded({}, summary, () => [
    h("p", {}, `computes: ${k.nodes.join(", ")}; literals: ${literals}`),
    highlighted(k.source),
  ]);
}

function highlighted(source: string): HTMLElement {
  const pre = h("pre");
  for (const part of source.split(/(\bks\d+\b|\b\d+L\b)/)) {
    if (/^ks\d+$/.test(part)) pre.appendChild(h("span", { class: "sym" }, part));
    else if (/^\d+L$/.test(part)) pre.appendChild(h("span", { class: "lit" }, part));
    else pre.appendChild(document.createTextNode(part));
  }
  return pre;
}
