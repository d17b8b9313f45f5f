// Pure data-to-view logic: unpacking, filtering, sorting, grouping, deep links. No fact is
// computed here (Python computes them once, into the document). No DOM, so vitest runs it.
import type {
  Fix,
  Frame,
  GraphBreak,
  Guard,
  Recompile,
  Session,
  SourceExplanation,
  Specialization,
  SymbolFact,
} from "./document";
// How the wire is packed: generated from Python's symdebug/model/wire_format.py, which the
// renderers pack by, so the two sides cannot drift apart.
import type { Table, TextLists, Wire } from "./wire";
import { CHAIN_END, FRAME_KEYS, FRAME_STACKS, PACKING_FIELD, TEXT_LISTS, WITH_FIXES } from "./wire";

/**
 * The session document inside a wire document (a new object: the wire is left as it was).
 * Each record list is unpacked when first read: the first view reads a few of them, and
 * unpacking all of a big report's lists was most of its opening.
 */
export function unpack(data: Session | Wire): Session {
  if (!(PACKING_FIELD in data)) return data;
  const session: Record<string, unknown> = { ...data.session };
  const lists = [...WITH_FIXES, ...Object.keys(TEXT_LISTS), ...Object.keys(FRAME_STACKS)];
  const packed = new Set([...data.tables, ...lists]);
  const frames = once(() => data.frames.map(frameOf));
  for (const key of packed) lazily(session, key, () => unpacked(data, key, frames));
  return session as unknown as Session;
}

/** A frame from its row in the wire's `frames` (its values in the order of `FRAME_KEYS`). */
function frameOf(row: unknown[]): Frame {
  const frame: Record<string, unknown> = {};
  for (let i = 0; i < FRAME_KEYS.length; i++) frame[FRAME_KEYS[i]] = row[i];
  return frame as unknown as Frame;
}

/** `target[key]` made by `make` when first read, then kept as a plain value. */
function lazily(target: Record<string, unknown>, key: string, make: () => unknown): void {
  const keep = (value: unknown) =>
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      const value = make();
      keep(value);
      return value;
    },
    set: keep,
  });
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

/**
 * One record list of the wire, unpacked: its table, its fixes, its text lists, its stacks.
 * Each record is copied once (from its table row, or from the wire) and then completed in
 * place: a copy per step was most of a big report's unpacking.
 */
function unpacked(data: Wire, key: string, frames: () => Frame[]): unknown {
  const stored = data.session[key];
  const records = data.tables.includes(key)
    ? fromTable(stored as Table)
    : ((stored ?? []) as Record<string, unknown>[]).map((r) => ({ ...r }));
  if (WITH_FIXES.includes(key)) for (const r of records) withFixes(r, data);
  for (const field of TEXT_LISTS[key] ?? [])
    for (const r of records) r[field] = chain(r[field] as number, data.text_lists);
  for (const field of FRAME_STACKS[key] ?? []) for (const r of records) r[field] = stack(r[field], frames());
  return records;
}

/** A record's fixes (and fix text, where it has one) for their indices. */
function withFixes(r: Record<string, unknown>, data: Wire): void {
  if (typeof r.fix === "number") r.fix = data.fixes[r.fix];
  r.fixes = (r.fixes as number[]).map((i) => data.fix_objects[i]);
}

/** A stack of frames for their indices. */
function stack(indices: unknown, frames: Frame[]): Frame[] {
  return (indices as number[]).map((i) => frames[i]);
}

/** The texts of the chain that starts at `cell`. */
function chain(cell: number, lists: TextLists): string[] {
  const items: string[] = [];
  for (let at = cell; at !== CHAIN_END; at = lists.cells[at][1]) items.push(lists.texts[lists.cells[at][0]]);
  return items;
}

/** What a replay showed of a fix: "verified", "failed" or "not tried" (never replayed). */
export function verification(fix: Fix): "verified" | "failed" | "not tried" {
  if (fix.verified === null) return "not tried";
  return fix.verified ? "verified" : "failed";
}

/** What a line of a unified diff is: added, removed, a hunk's header, a file header, or context. */
export type DiffLineKind = "add" | "del" | "hunk" | "file" | "context";

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
}

/** A fix's diff, line by line, each with its kind (the lines before the first `@@` are headers). */
export function diffLines(diff: string): DiffLine[] {
  const lines = diff.replace(/\n$/, "").split("\n");
  let inHunk = !lines.some((line) => line.startsWith("@@"));
  return lines.map((text) => {
    if (text.startsWith("@@")) inHunk = true;
    return { kind: diffLineKind(text, inHunk), text };
  });
}

function diffLineKind(text: string, inHunk: boolean): DiffLineKind {
  if (text.startsWith("@@")) return "hunk";
  if (!inHunk) return "file";
  if (text.startsWith("+")) return "add";
  return text.startsWith("-") ? "del" : "context";
}

function fromTable(table: Table): Record<string, unknown>[] {
  // A plain loop, not Object.fromEntries: no array per field (a third of a big report's opening).
  const { columns, rows } = table;
  return rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) record[columns[i]] = row[i];
    return record;
  });
}

export interface GuardFilter {
  cause?: string;
  status?: string;
  compile?: string;
  phase?: string;
  text?: string;
}

export function filterGuards(guards: Guard[], filter: GuardFilter): Guard[] {
  const text = (filter.text ?? "").toLowerCase();
  return guards.filter(
    (g) =>
      (!filter.cause || g.cause === filter.cause) &&
      (!filter.status || g.status === filter.status) &&
      (!filter.compile || g.compile_id === filter.compile) &&
      (!filter.phase || g.phase === filter.phase) &&
      (!text || searchable(g).includes(text)),
  );
}

// Each guard's searched text, made once (a search is then a pass of `includes`).
const searchTexts = new WeakMap<Guard, string>();

function searchable(g: Guard): string {
  const known = searchTexts.get(g);
  if (known !== undefined) return known;
  const frame = g.user_stack[g.user_stack.length - 1];
  const line = frame ? `${frame.filename}:${frame.lineno} ${frame.line}` : "";
  const text = [g.expr, g.user_expr ?? "", g.fx_node ?? "", g.sources.join(" "), line].join(" ").toLowerCase();
  searchTexts.set(g, text);
  return text;
}

export type SortKey = "compile_id" | "expr" | "cause" | "status" | "phase";

/** The guards sorted by a column (stable: ties keep the document's order). */
export function sortGuards(guards: Guard[], key: SortKey, descending = false): Guard[] {
  // Each distinct value is compared once, by the collator; the guards then by rank (an
  // integer): sorting 100,000 guards by text was a third of a second.
  const values = distinct(guards, (g) => g[key]);
  const rank = new Map<string, number>();
  for (let i = 0; i < values.length; i++) {
    const tied = i > 0 && compareText(values[i - 1], values[i]) === 0; // equal to the collator: one rank
    rank.set(values[i], tied ? (rank.get(values[i - 1]) ?? i) : i);
  }
  const sign = descending ? -1 : 1;
  const ranked = guards.map((g) => ({ g, r: rank.get(g[key]) ?? 0 }));
  return ranked.sort((a, b) => sign * (a.r - b.r)).map(({ g }) => g);
}

// One collator for every comparison: `localeCompare` with options builds one per call, which
// was 80% of opening a 20,000-guard table.
const collator = new Intl.Collator(undefined, { numeric: true });

export function compareText(a: string, b: string): number {
  return collator.compare(a, b);
}

export function distinct<T>(items: T[], pick: (item: T) => string): string[] {
  return [...new Set(items.map(pick))].sort((a, b) => compareText(a, b));
}

export interface FrameGroup {
  frameId: number;
  name: string;
  filename: string;
  lineno: number;
  compiles: Session["compiles"];
}

export function frames(session: Session): FrameGroup[] {
  const groups = new Map<number, FrameGroup>();
  for (const c of session.compiles) {
    // What the user compiled (MyModule.forward), not torch's wrapper frame, when captured.
    const callee = c.callee?.filename ? c.callee : null;
    const group = groups.get(c.frame_id) ?? {
      frameId: c.frame_id,
      name: c.callee?.qualname || c.name,
      filename: callee ? callee.filename : c.filename,
      lineno: callee ? callee.lineno : c.lineno,
      compiles: [],
    };
    group.compiles.push(c);
    groups.set(c.frame_id, group);
  }
  return [...groups.values()];
}

// Each document's explained inputs, sorted once: the why tab asks on each draw.
const sorted = new WeakMap<object, string[]>();

/** The inputs the document explains, in a stable order (one array per document: read, never change it). */
export function sources(session: Session): string[] {
  const known = sorted.get(session.explanations) ?? distinct(session.explanations, (e) => e.source);
  sorted.set(session.explanations, known);
  return known;
}

/** The document's explanations of one input, one per frame that saw it, the newest last. */
export function explanationsOf(session: Session, source: string): SourceExplanation[] {
  return withKeys(session.explanations, "source", [source]);
}

/** The document's explanation of one input in its newest frame (as Python's `why`), if any. */
export function explanationOf(session: Session, source: string): SourceExplanation | undefined {
  return explanationsOf(session, source).at(-1);
}

/** The frame of a compile, named by where it was defined: `score (frame 1, cell.py:3)`. */
export function frameLabel(session: Session, compileId: string): string {
  const c = withKeys(session.compiles, "compile_id", [compileId])[0];
  if (!c) return `compile ${compileId}`;
  const generation = c.generation ? `@${c.generation}` : "";
  const where = c.filename ? `, ${c.filename}:${c.lineno}` : "";
  return `${c.callee?.qualname || c.name} (frame ${c.frame_id}${generation}${where})`;
}

export interface FrameChoice {
  value: string;
  label: string;
}

/**
 * The explorer's frame choices. A name that is one frame is chosen by name; a name defined
 * again (a re-run cell) offers each definition, newest first, valued by its frame id
 * (Python's `frame=` takes a name or an id; by name it answers for the newest).
 */
export function frameChoices(session: Session): FrameChoice[] {
  const ids = new Map<string, number[]>();
  const latest = new Map<number, string>(); // frame id -> its newest compile
  for (const c of session.compiles) {
    const known = ids.get(c.name) ?? [];
    if (!known.includes(c.frame_id)) known.push(c.frame_id);
    ids.set(c.name, known);
    latest.set(c.frame_id, c.compile_id);
  }
  return [...ids].flatMap(([name, frameIds]) =>
    frameIds.length === 1
      ? [{ value: name, label: name }]
      : [...frameIds]
          .sort((a, b) => b - a)
          .map((id) => ({ value: String(id), label: frameLabel(session, latest.get(id) ?? "") })),
  );
}

export type Link = { pane: string; id?: string };

export function parseHash(hash: string): Link {
  const text = decodeURIComponent(hash.replace(/^#/, ""));
  const [pane, ...rest] = text.split("=");
  return rest.length ? { pane, id: rest.join("=") } : { pane: pane || "overview" };
}

export function formatHash(link: Link): string {
  return `#${link.id !== undefined ? `${link.pane}=${encodeURIComponent(link.id)}` : link.pane}`;
}

export function visibleWindow(
  scrollTop: number,
  height: number,
  rowHeight: number,
  total: number,
  overscan = 10,
): [number, number] {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(total, Math.ceil((scrollTop + height) / rowHeight) + overscan);
  return [first, last];
}

/** A source after the user's name the document gives it: `x.shape[0] (L['x'].size()[0])`. */
export function namedSource(source: string, name: string | undefined): string {
  return name && name !== source ? `${name} (${source})` : source;
}

/** Each source of a symbol as the document says it, after the user's name where it has one. */
export function sourcesText(s: SymbolFact): string {
  return s.sources.map((source, i) => namedSource(source, s.user_names?.[i])).join(", ");
}

/** A guard in the user's names with torch's text beside it, as Python's `why` says it. */
export function guardText(g: Guard): string {
  return g.user_expr && g.user_expr !== g.expr ? `${g.user_expr}  (torch: ${g.expr})` : g.expr;
}

// Lookups by key, one table per list of the document (built on first use, kept while the
// document lives): the guards pane reads a symbol per row, the overview a guard per recompile.
const tables = new WeakMap<object, Map<string, unknown>>();

function lookup<T>(items: T[], keyOf: (item: T) => string, key: string): T | undefined {
  let table = tables.get(items) as Map<string, T> | undefined;
  if (!table) {
    table = new Map(items.map((item) => [keyOf(item), item]));
    tables.set(items, table);
  }
  return table.get(key);
}

/** The document's guard with this id, if it has one. */
export function guardOf(session: Session, id: string | null): Guard | undefined {
  return id === null ? undefined : lookup(session.guards, (g) => g.id, id);
}

/** The document's symbol `name` of a compile (what `s27` stands for there), if it lists one. */
export function symbolOf(session: Session, compileId: string, name: string): SymbolFact | undefined {
  return lookup(session.symbols, (s) => `${s.compile_id}|${s.name}`, `${compileId}|${name}`);
}

/** The specialization a reference names (`0/0|L['x'].size()[0]`), if the document has it. */
export function specializationOf(session: Session, id: string | null): Specialization | undefined {
  return id === null ? undefined : lookup(session.specializations, (s) => `${s.compile_id}|${s.source}`, id);
}

/** A guard's symbols with the inputs they stand for: `s27 = L['x'].size()[1]`. */
export function guardSymbols(session: Session, g: Guard): string[] {
  return g.symbols.map((name) => {
    const symbol = symbolOf(session, g.compile_id, name);
    return symbol?.sources.length ? `${name} = ${sourcesText(symbol)}` : name;
  });
}

/** The recompiles of a set of compiles, in the document's order. */
export function recompilesOf(session: Session, compileIds: Set<string>): Recompile[] {
  return withKeys(session.recompiles, "compile_id", compileIds);
}

/** The recompile that made a compile, if one did (the first the document lists). */
export function recompileOf(session: Session, compileId: string): Recompile | undefined {
  return withKeys(session.recompiles, "compile_id", [compileId])[0];
}

/** The graph breaks of a set of compiles, in the document's order. */
export function graphBreaksOf(session: Session, compileIds: Set<string>): GraphBreak[] {
  return withKeys(session.graph_breaks ?? [], "compile_id", compileIds);
}

// Each list's positions by the value of a field, built on first use and kept while the
// document lives: the overview asks per frame and the why tab per input, and a filter of the
// whole list each time was quadratic (seconds for thousands of compiles).
const positions = new WeakMap<object, Map<string, Map<string, number[]>>>();

function withKeys<K extends string, T extends Record<K, string>>(items: T[], field: K, keys: Iterable<string>): T[] {
  const indexes = positions.get(items) ?? new Map<string, Map<string, number[]>>();
  positions.set(items, indexes);
  const index = indexes.get(field) ?? indexBy(items, field);
  indexes.set(field, index);
  const found = [...keys].flatMap((key) => index.get(key) ?? []);
  return found.sort((a, b) => a - b).map((i) => items[i]);
}

function indexBy<K extends string, T extends Record<K, string>>(items: T[], field: K): Map<string, number[]> {
  const index = new Map<string, number[]>();
  items.forEach((item, i) => {
    const known = index.get(item[field]);
    if (known) known.push(i);
    else index.set(item[field], [i]);
  });
  return index;
}

/** Every compile the document names, in order: the guards filter offers each, one without a guard too. */
export function compileIds(session: Session): string[] {
  return distinct<{ compile_id: string }>([...session.compiles, ...session.guards], (c) => c.compile_id);
}

/** The document's symbols of one compile (library constants apart): what it kept dynamic and what it specialized. */
export function compileSymbols(session: Session, compileId: string): SymbolFact[] {
  return session.symbols.filter((s) => s.compile_id === compileId && !s.expected);
}

/** A symbol of a compile as the summary says it: `x.shape[0] (L['x'].size()[0]) = 1  static-by-default (cause)`. */
export function symbolSaid(s: SymbolFact): string {
  const symbolic = s.state === "dynamic" || s.state === "unbacked";
  const value = symbolic ? s.name : String(s.hint ?? s.name);
  return `${sourcesText(s)} = ${value}  ${s.state}${s.cause ? ` (${s.cause})` : ""}`;
}

/**
 * The input the why tab opens on: the one whose explanations list the most recompiles (the
 * document's `recompiles`), the first in `sources` order among equals; none without one.
 */
export function mostRecompiled(session: Session): string | undefined {
  const recompiles = new Map<string, Set<string>>();
  for (const e of session.explanations) {
    const known = recompiles.get(e.source) ?? new Set<string>();
    for (const id of e.recompiles) known.add(id);
    recompiles.set(e.source, known);
  }
  let chosen: string | undefined;
  for (const source of sources(session)) {
    if (chosen === undefined || (recompiles.get(source)?.size ?? 0) > (recompiles.get(chosen)?.size ?? 0))
      chosen = source;
  }
  return chosen;
}
