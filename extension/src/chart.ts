// The sizes chart: size on x, the cache entry that served on y (predicted: circles,
// actual: crosses), recompiles marked in red, a missed prediction ringed in red. A point the
// sweep re-ran is drawn at the prediction made just before its call (what `prediction_held`
// judged); the one made before the sweep, where a recompile since changed it, is a grey dot.
// Plain SVG with axes, a legend and a hover tooltip; every label is set as text.

import { compareText } from "./model";

/**
 * How the viewer reads one of the document's `sweeps` (free-form records in the contract):
 * the sizes tried, the entry predicted and the one that served each, and the recompiles.
 */
export interface SweepData {
  axis?: string;
  x: unknown[];
  predicted: (string | null)[];
  actual: (string | null)[];
  recompiled: (boolean | null)[];
  prediction_held?: (boolean | null)[];
  /** The entry predicted just before each re-run call (null: a recompile), as `prediction_held` judged it. */
  predicted_at_call?: (string | null)[];
}

/**
 * A sweep record as the chart reads it. The contract lets a sweep be any object (a saved
 * session is untrusted input): a list it lacks, or that is not a list, reads as empty.
 */
export function readSweep(record: Record<string, unknown>): SweepData {
  const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);
  const held = record.prediction_held;
  const atCall = record.predicted_at_call;
  return {
    ...(typeof record.axis === "string" ? { axis: record.axis } : {}),
    x: list(record.x),
    predicted: list(record.predicted),
    actual: list(record.actual),
    recompiled: list(record.recompiled),
    ...(Array.isArray(held) ? { prediction_held: held as (boolean | null)[] } : {}),
    ...(Array.isArray(atCall) ? { predicted_at_call: atCall as (string | null)[] } : {}),
  };
}

const SVG = "http://www.w3.org/2000/svg";
const W = 720;
const H = 300;
const LEFT = 96;
const RIGHT = 16;
const TOP = 36;
const BOTTOM = 52;
const PLOT_W = W - LEFT - RIGHT;
const PLOT_H = H - TOP - BOTTOM;
const INSET = 12; // points keep off the axes
const RED = "#cf222e";
const BLUE = "#0969da";
const ORANGE = "#bc4c00";
const AXIS = "#57606a";
const GREY = "#8c959f";

type Attrs = Record<string, string | number>;

function node(tag: string, attrs: Attrs, text?: string): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

function group(attrs: Attrs, ...children: SVGElement[]): SVGElement {
  const g = node("g", attrs);
  for (const child of children) g.appendChild(child);
  return g;
}

/** The y lanes: each cache entry (numerically ordered), then the recompile lane. */
export function lanes(sweep: SweepData): string[] {
  const ids = [...sweep.predicted, ...(sweep.predicted_at_call ?? []), ...sweep.actual].filter((e): e is string => !!e);
  return [...new Set(ids)].sort(compareText).concat("recompile");
}

/** Round tick values from lo to hi (about `count` of them), for a numeric axis. */
export function niceTicks(lo: number, hi: number, count = 6): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / Math.max(count - 1, 1);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * magnitude >= raw) ?? 10) * magnitude;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}

/** Where each point lies on x, and the ticks that label the axis. */
interface XScale {
  at: (i: number) => number;
  ticks: [number, string][];
}

function xScale(sweep: SweepData): XScale {
  const numeric = sweep.x.every((x) => typeof x === "number");
  if (numeric) {
    const xs = sweep.x as number[];
    const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
    const px = (x: number) => LEFT + INSET + (hi > lo ? ((x - lo) / (hi - lo)) * (PLOT_W - 2 * INSET) : PLOT_W / 2);
    return { at: (i) => px(xs[i]), ticks: niceTicks(lo, hi).map((t) => [px(t), String(t)]) };
  }
  // Labels (the "runs" series names each call): one slot each, every label shown while they fit.
  const n = sweep.x.length;
  const px = (i: number) => LEFT + ((i + 0.5) / Math.max(n, 1)) * PLOT_W;
  const every = Math.max(1, Math.ceil(n / 8));
  const ticks = sweep.x.flatMap((x, i): [number, string][] => (i % every === 0 ? [[px(i), String(x)]] : []));
  return { at: px, ticks };
}

function yScale(names: string[]): (entry: string | null | undefined) => number {
  const gap = (PLOT_H - 2 * INSET) / Math.max(names.length - 1, 1);
  return (entry) => TOP + INSET + (names.length - 1 - names.indexOf(entry ?? "recompile")) * gap;
}

function xAxis(scale: XScale, axis: string): SVGElement {
  const ticks = scale.ticks.map(([x, label]) =>
    group(
      { class: "tick" },
      node("line", { x1: x, x2: x, y1: TOP + PLOT_H, y2: TOP + PLOT_H + 4, stroke: AXIS }),
      node("text", { x, y: TOP + PLOT_H + 16, "font-size": 11, "text-anchor": "middle" }, label),
    ),
  );
  return group(
    { "data-axis": "x" },
    node("line", { x1: LEFT, x2: LEFT + PLOT_W, y1: TOP + PLOT_H, y2: TOP + PLOT_H, stroke: AXIS }),
    ...ticks,
    node("text", { x: LEFT + PLOT_W / 2, y: H - 8, "font-size": 12, "text-anchor": "middle" }, axis),
  );
}

function yAxis(names: string[], sy: (e: string) => number): SVGElement {
  const ticks = names.map((name) =>
    group(
      { class: "tick" },
      node("line", { x1: LEFT - 4, x2: LEFT + PLOT_W, y1: sy(name), y2: sy(name), stroke: "#eaeef2" }),
      node("text", { x: LEFT - 8, y: sy(name) + 4, "font-size": 11, "text-anchor": "end" }, name),
    ),
  );
  const mid = TOP + PLOT_H / 2;
  const title = `translate(14 ${mid}) rotate(-90)`;
  return group(
    { "data-axis": "y" },
    node("line", { x1: LEFT, x2: LEFT, y1: TOP, y2: TOP + PLOT_H, stroke: AXIS }),
    ...ticks,
    node("text", { transform: title, "font-size": 12, "text-anchor": "middle" }, "cache entry that serves"),
  );
}

function cross(cx: number, cy: number, size = 4): SVGElement {
  const d = `M${cx - size},${cy - size}L${cx + size},${cy + size}M${cx - size},${cy + size}L${cx + size},${cy - size}`;
  return node("path", { d, stroke: ORANGE, "stroke-width": 1.5 });
}

function legend(): SVGElement {
  const items: [SVGElement, string][] = [
    [node("circle", { cx: 6, cy: -4, r: 4, fill: "none", stroke: BLUE }), "predicted entry"],
    [cross(6, -4), "entry that served (re-run)"],
    [node("line", { x1: 6, x2: 6, y1: -10, y2: 2, stroke: RED, "stroke-width": 2 }), "recompiled"],
    [node("circle", { cx: 6, cy: -4, r: 2, fill: GREY }), "predicted before the sweep"],
    [node("circle", { cx: 6, cy: -4, r: 6, fill: "none", stroke: RED }), "missed"],
  ];
  const spots = [0, 115, 290, 370, 548];
  return group(
    { "data-legend": "", transform: `translate(${LEFT} 16)` },
    ...items.map(([mark, label], i) =>
      group({ transform: `translate(${spots[i]} 0)` }, mark, node("text", { x: 16, y: 0, "font-size": 11 }, label)),
    ),
  );
}

/**
 * The prediction a point shows (null: a recompile): for a re-run call, the one made just before
 * it, which `prediction_held` judged; else (not re-run, an older document) the sweep's own.
 */
export function shownPrediction(sweep: SweepData, i: number): string | null {
  const atCall = sweep.predicted_at_call?.[i];
  const ran = sweep.prediction_held?.[i] !== undefined && sweep.prediction_held?.[i] !== null;
  return ran && atCall !== undefined ? atCall : sweep.predicted[i];
}

/** The prediction made before the sweep, where a recompile during it changed the point's; else undefined. */
export function earlierPrediction(sweep: SweepData, i: number): string | null | undefined {
  const before = sweep.predicted[i];
  return before !== shownPrediction(sweep, i) ? before : undefined;
}

/** Whether the point's prediction missed (the header's count of misses counts these). */
export function missed(sweep: SweepData, i: number): boolean {
  return sweep.prediction_held?.[i] === false;
}

/** What one point says, for its hover tooltip. */
export function pointText(sweep: SweepData, i: number): string {
  const predicted = shownPrediction(sweep, i) ?? "a recompile";
  const earlier = earlierPrediction(sweep, i);
  const before = earlier === undefined ? "" : ` (before the sweep: ${earlier ?? "a recompile"})`;
  const actual = sweep.actual[i];
  const ran = actual === undefined ? "not re-run" : `served by ${actual ?? "eager (no entry)"}`;
  const recompiled = sweep.recompiled[i] ? "; recompiled" : "";
  const held = missed(sweep, i) ? "; prediction missed" : "";
  return `${sweep.axis ?? "point"} = ${String(sweep.x[i])}: predicted ${predicted}${before}; ${ran}${recompiled}${held}`;
}

function tooltip(): SVGElement {
  const box = node("rect", { rx: 4, fill: "#1f2328", "fill-opacity": 0.9, height: 22 });
  const label = node("text", { "font-size": 11, fill: "white", x: 6, y: 15 });
  const tip = group({ "data-tooltip": "", visibility: "hidden", "pointer-events": "none" }, box, label);
  return tip;
}

function showTip(tip: SVGElement, text: string, x: number, y: number): void {
  const [box, label] = [tip.firstChild as SVGRectElement, tip.lastChild as SVGTextElement];
  label.textContent = text;
  const width = label.getComputedTextLength() + 12;
  box.setAttribute("width", String(width));
  const left = Math.min(Math.max(x - width / 2, 0), W - width);
  tip.setAttribute("transform", `translate(${left} ${Math.max(y - 30, 0)})`);
  tip.setAttribute("visibility", "visible");
}

function point(sweep: SweepData, i: number, x: number, sy: (e: string | null | undefined) => number): SVGElement {
  const g = group({ class: "point", "data-point": i });
  if (sweep.recompiled[i])
    g.appendChild(node("line", { x1: x, x2: x, y1: TOP, y2: TOP + PLOT_H, stroke: RED, "stroke-opacity": 0.4 }));
  const earlier = earlierPrediction(sweep, i);
  if (earlier !== undefined)
    g.appendChild(node("circle", { cx: x, cy: sy(earlier), r: 2, fill: GREY, "data-earlier": "" }));
  const cy = sy(shownPrediction(sweep, i));
  g.appendChild(node("circle", { cx: x, cy, r: 4, fill: "none", stroke: BLUE, "data-predicted": "" }));
  if (missed(sweep, i))
    g.appendChild(node("circle", { cx: x, cy, r: 7, fill: "none", stroke: RED, "data-missed": "" }));
  const actual = sweep.actual[i];
  if (actual !== undefined && actual !== null) g.appendChild(cross(x, sy(actual)));
  const hit = node("rect", { x: x - 6, y: TOP, width: 12, height: PLOT_H, fill: "transparent" });
  hit.appendChild(node("title", {}, pointText(sweep, i)));
  g.appendChild(hit);
  return g;
}

export function sweepChart(sweep: SweepData): SVGElement {
  const names = lanes(sweep);
  const sy = yScale(names);
  const scale = xScale(sweep);
  const svg = node("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, "data-chart": "sweep" });
  svg.append(xAxis(scale, sweep.axis ?? "point"), yAxis(names, sy), legend());
  const tip = tooltip();
  sweep.x.forEach((_, i) => {
    const p = point(sweep, i, scale.at(i), sy);
    p.addEventListener("mouseenter", () =>
      showTip(tip, pointText(sweep, i), scale.at(i), sy(shownPrediction(sweep, i))),
    );
    p.addEventListener("mouseleave", () => tip.setAttribute("visibility", "hidden"));
    svg.appendChild(p);
  });
  svg.appendChild(tip);
  return svg;
}
