// The sizes pane: each sweep of the session, its counts and its chart.
import { readSweep, sweepChart } from "./chart";
import type { Session } from "./document";
import { h } from "./dom";
import { counted } from "./words";

/** Each sweep: its counts, as the document's `recompiled` and `prediction_held` say them, and its chart. */
export function sizesPane(session: Session): HTMLElement {
  const sweeps = session.sweeps.map(readSweep);
  if (!sweeps.length) return h("p", { class: "muted" }, "no sweep in this session: run session.sweep(...) to add one");
  const root = h("div");
  for (const sweep of sweeps) {
    const missed = sweep.prediction_held?.filter((v) => v === false).length ?? 0;
    const what =
      sweep.axis === "runs" ? `${sweep.x.length} re-runs` : `${sweep.x.length} sizes of ${sweep.axis ?? "?"}`;
    const recompiles = sweep.recompiled.filter(Boolean).length;
    root.appendChild(h("p", {}, `${what}; ${counted(recompiles, "recompile")}; prediction missed ${missed}`));
    root.appendChild(h("div", { class: "chart" }, sweepChart(sweep) as unknown as HTMLElement));
  }
  return root;
}
