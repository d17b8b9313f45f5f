// The sizes chart: size on x, the cache entry that served on y (predicted: circles,
// actual: crosses), recompiles marked in red. Plain SVG; labels set as text.

/**
 * How the viewer reads one of the document's `sweeps` (free-form records in the contract):
 * the sizes tried, the entry predicted and the one that served each, and the recompiles.
 */
import { compareText } from "./model";

export interface SweepData {
  axis?: string;
  x: unknown[];
  predicted: (string | null)[];
  actual: (string | null)[];
  recompiled: (boolean | null)[];
  prediction_held?: (boolean | null)[];
}

const SVG = "http://www.w3.org/2000/svg";
const W = 640,
  H = 220,
  LEFT = 70,
  BOTTOM = 30,
  TOP = 10;

function node(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

export function lanes(sweep: SweepData): string[] {
  const ids = [...sweep.predicted, ...sweep.actual].filter((e): e is string => !!e);
  return [...new Set(ids)].sort(compareText).concat("recompile");
}

export function sweepChart(sweep: SweepData): SVGElement {
  const xs = sweep.x.map((x, i) => (typeof x === "number" ? x : i));
  const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
  const names = lanes(sweep);
  const sx = (x: number) => LEFT + ((x - lo) / Math.max(hi - lo, 1)) * (W - LEFT - 10);
  const sy = (entry: string | null) =>
    TOP +
    (names.length - 1 - names.indexOf(entry ?? "recompile")) * ((H - TOP - BOTTOM) / Math.max(names.length - 1, 1));
  const svg = node("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, "data-chart": "sweep" });
  for (const name of names) {
    svg.appendChild(node("text", { x: 4, y: sy(name === "recompile" ? null : name) + 4, "font-size": 11 }, name));
  }
  svg.appendChild(node("text", { x: LEFT, y: H - 6, "font-size": 11 }, `${sweep.axis ?? "point"}: ${lo} … ${hi}`));
  xs.forEach((x, i) => {
    if (sweep.recompiled[i])
      svg.appendChild(
        node("line", { x1: sx(x), x2: sx(x), y1: TOP, y2: H - BOTTOM, stroke: "#cf222e", "stroke-opacity": 0.3 }),
      );
    svg.appendChild(node("circle", { cx: sx(x), cy: sy(sweep.predicted[i]), r: 4, fill: "none", stroke: "#0969da" }));
    if (sweep.actual[i] !== undefined && sweep.actual[i] !== null) {
      const [cx, cy] = [sx(x), sy(sweep.actual[i])];
      svg.appendChild(
        node("path", {
          d: `M${cx - 3},${cy - 3}L${cx + 3},${cy + 3}M${cx - 3},${cy + 3}L${cx + 3},${cy - 3}`,
          stroke: "#bc4c00",
        }),
      );
    }
  });
  return svg;
}
