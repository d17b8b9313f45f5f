// Pure data-to-view logic: filtering, sorting, grouping, why chains, deep links.
// No DOM here, so it is unit-tested with vitest.
import type { Frame, Guard, Recompile, Session, Specialization, SymbolFact } from "./types";

// The HTML report stores each stack frame once (symdebug/renderers/html.py `pack`).
interface Packed { packed: 1; frames: [string, number, string, string][]; fixes?: string[]; session: Session }

export function unpack(data: Session | Packed): Session {
  if (!("packed" in data)) return data;
  const frames: Frame[] = data.frames.map(([filename, lineno, name, line]) => ({ filename, lineno, name, line }));
  const expand = (refs: unknown[]) => refs.map((r) => (typeof r === "number" ? frames[r] : (r as Frame)));
  for (const g of data.session.guards) {
    g.user_stack = expand(g.user_stack);
    g.framework_stack = expand(g.framework_stack);
    const fix = g.fix as unknown;
    g.fix = typeof fix === "number" ? (data.fixes ?? [])[fix] ?? null : g.fix ?? null;
    g.fx_node = g.fx_node ?? null;
    g.line_nodes = g.line_nodes ?? [];
  }
  return data.session;
}

export interface GuardFilter { cause?: string; status?: string; compile?: string; phase?: string; text?: string }

export function filterGuards(guards: Guard[], filter: GuardFilter): Guard[] {
  const text = (filter.text ?? "").toLowerCase();
  return guards.filter((g) =>
    (!filter.cause || g.cause === filter.cause) &&
    (!filter.status || g.status === filter.status) &&
    (!filter.compile || g.compile_id === filter.compile) &&
    (!filter.phase || g.phase === filter.phase) &&
    (!text || searchable(g).includes(text)));
}

function searchable(g: Guard): string {
  const frame = g.user_stack[g.user_stack.length - 1];
  return [g.expr, g.fx_node ?? "", g.sources.join(" "), frame ? `${frame.filename}:${frame.lineno} ${frame.line}` : ""]
    .join(" ").toLowerCase();
}

export type SortKey = "compile_id" | "expr" | "cause" | "status" | "phase";

export function sortGuards(guards: Guard[], key: SortKey, descending = false): Guard[] {
  const sign = descending ? -1 : 1;
  return [...guards].sort((a, b) => sign * compareText(a[key], b[key]));
}

function compareText(a: string, b: string): number {
  return a.localeCompare(b, undefined, { numeric: true });
}

export function distinct<T>(items: T[], pick: (item: T) => string): string[] {
  return [...new Set(items.map(pick))].sort((a, b) => compareText(a, b));
}

export interface FrameGroup { frameId: number; name: string; filename: string; lineno: number; compiles: Session["compiles"] }

export function frames(session: Session): FrameGroup[] {
  const groups = new Map<number, FrameGroup>();
  for (const c of session.compiles) {
    const group = groups.get(c.frame_id) ?? { frameId: c.frame_id, name: c.name, filename: c.filename, lineno: c.lineno, compiles: [] };
    group.compiles.push(c);
    groups.set(c.frame_id, group);
  }
  return [...groups.values()];
}

export function sources(session: Session): string[] {
  return distinct(session.symbols.flatMap((s) => s.sources.map((source) => ({ source }))), (x) => x.source);
}

export interface WhyStep { kind: "state" | "guard" | "node" | "line" | "recompile" | "fix"; text: string; guardId?: string; frame?: Frame }

export function latestSymbol(session: Session, source: string): SymbolFact | undefined {
  const order = new Map(session.compiles.map((c, i) => [c.compile_id, i]));
  const found = session.symbols.filter((s) => s.sources.includes(source));
  found.sort((a, b) => (order.get(a.compile_id) ?? -1) - (order.get(b.compile_id) ?? -1));
  return found[found.length - 1];
}

export function why(session: Session, source: string): WhyStep[] {
  const symbol = latestSymbol(session, source);
  if (!symbol) return [];
  const guards = new Map(session.guards.map((g) => [g.id, g]));
  const steps: WhyStep[] = [{ kind: "state", text: `${source} is ${symbol.state}${symbol.hint !== null ? ` = ${symbol.hint}` : ""} in compile ${symbol.compile_id}${symbol.cause && symbol.state !== "dynamic" ? ` (${symbol.cause})` : ""}` }];
  const spec = session.specializations.find((s) => s.compile_id === symbol.compile_id && s.source === source);
  const related = spec ? spec.guards.map((id) => guards.get(id)).filter((g): g is Guard => !!g)
    : session.guards.filter((g) => g.compile_id === symbol.compile_id && g.symbols.includes(symbol.name) && g.status === "installed");
  for (const g of related.slice(0, 8)) steps.push(...guardSteps(g));
  for (const r of recompilesOf(session, source, guards)) {
    steps.push({ kind: "recompile", text: `recompile ${r.compile_id}: entry ${r.failed_entry} failed: ${r.reasons[0] ?? ""}`, guardId: r.guard ?? undefined });
  }
  const fix = spec?.fix ?? related[0]?.fix;
  if (fix && symbol.state !== "dynamic") steps.push({ kind: "fix", text: fix });
  return steps;
}

export function guardSteps(g: Guard): WhyStep[] {
  const steps: WhyStep[] = [{ kind: "guard", text: `${g.expr} [${g.cause}, ${g.status}, ${g.phase}]`, guardId: g.id }];
  steps.push({ kind: "node", text: g.fx_node ? `FX node ${g.fx_node}${g.fx_node_inferred ? " (inferred)" : ""}${g.fx_node_target ? ` (${g.fx_node_target})` : ""}` : "no FX node: Python control flow" });
  const frame = g.user_stack[g.user_stack.length - 1];
  if (frame) steps.push({ kind: "line", text: `${frame.filename}:${frame.lineno}  ${frame.line}`, frame });
  return steps;
}

/** A source's recompiles, by the sources the model linked to each (v3); older documents by
 * the specialization and guard they name. */
function recompilesOf(session: Session, source: string, guards: Map<string, Guard>): Recompile[] {
  return session.recompiles.filter((r) => r.sources !== undefined ? r.sources.includes(source) :
    (r.specialization !== null && r.specialization.endsWith(`|${source}`)) ||
    (r.guard !== null && (guards.get(r.guard)?.sources ?? []).includes(source)));
}

export function specializationsOf(session: Session, compileId: string): Specialization[] {
  return session.specializations.filter((s) => s.compile_id === compileId);
}

export type Link = { pane: string; id?: string };

export function parseHash(hash: string): Link {
  const text = decodeURIComponent(hash.replace(/^#/, ""));
  const [pane, ...rest] = text.split("=");
  return rest.length ? { pane, id: rest.join("=") } : { pane: pane || "overview" };
}

export function formatHash(link: Link): string {
  return "#" + (link.id !== undefined ? `${link.pane}=${encodeURIComponent(link.id)}` : link.pane);
}

export function visibleWindow(scrollTop: number, height: number, rowHeight: number, total: number, overscan = 10): [number, number] {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(total, Math.ceil((scrollTop + height) / rowHeight) + overscan);
  return [first, last];
}
