// The diff of two runs (symdebug/model/diff_types.py's document): a header with the verdict,
// then one section per pair of runs (one per rank) with each side's totals and problems, a
// sortable table of frames, and the clicked frame's items added and removed. Everything shown
// is what the document says; diffmodel.ts sorts and groups it.
import type { DiffDocument, DiffItem, FrameDiff, RunDiff, Side } from "./diff_document";
import type { FrameColumn, ItemChange, ItemGroup } from "./diffmodel";
import {
  compileChange,
  FRAME_COLUMNS,
  itemGroups,
  itemInput,
  problemsText,
  regressed,
  runKey,
  runTitle,
  sideTotals,
  sortFrames,
} from "./diffmodel";
import { append, h } from "./dom";
import type { Host } from "./pane";
import { frameLink } from "./pane";
import type { TableSort } from "./sorting";
import { nextSort, sortMark } from "./sorting";

export const DIFF_STYLES = `
.sd .verdict { font-weight: 600; padding: 1px 8px; }
.sd .badge.regressed { background: #ffebe9; color: #a40e26; } .sd .badge.ok { background: #dafbe1; color: #116329; }
.sd .sides { display: flex; gap: 12px; flex-wrap: wrap; margin: 6px 0; }
.sd .side { flex: 1 1 280px; min-width: 0; border: 1px solid #d0d7de; border-radius: 6px; padding: 6px 10px; }
.sd .side h4 { margin: 0 0 4px; }
.sd .run { margin: 12px 0 20px; }
.sd .run h2 { font-size: 15px; margin: 8px 0; }
.sd .frames-scroll { overflow-x: auto; }
.sd .frame-detail { margin-top: 10px; padding-top: 6px; border-top: 1px solid #d0d7de; }
.sd .frame-detail h3 { margin: 4px 0; }
.sd tr.row.regressed td { background: #fff1f0; }
.sd tr.row.regressed:hover td, .sd tr.row.regressed.on td { background: #ffd8d3; }
.sd td.count { text-align: right; font-variant-numeric: tabular-nums; }
.sd .status { display: inline-block; padding: 0 6px; border-radius: 10px; font-size: 11px; background: #eaeef2; }
.sd .status.added { background: #dafbe1; } .sd .status.removed { background: #ffebe9; }
.sd .item { margin: 6px 0 12px; padding-left: 8px; border-left: 3px solid #d0d7de; }
.sd .item[data-change=added] { border-left-color: #cf222e; } .sd .item[data-change=removed] { border-left-color: #1a7f37; }
.sd .item[data-change=changed] { border-left-color: #9a6700; }
.sd .item pre { margin: 4px 0; white-space: pre-wrap; }
.sd .notes { color: #656d76; }
`;

/** Draw the diff into `root` (already styled: index.ts `render` made it). */
export function renderDiff(root: HTMLElement, diff: DiffDocument, host: Host): void {
  root.setAttribute("data-view", "diff");
  append(root, [diffHeader(diff), notesList(diff.notes, "diff")]);
  diff.runs.forEach((run, index) => {
    root.appendChild(runSection(run, index, host));
  });
}

function verdictBadge(isRegressed: boolean): HTMLElement {
  const kind = isRegressed ? "regressed" : "ok";
  return h(
    "span",
    { class: `badge verdict ${kind}`, "data-regressed": String(isRegressed) },
    isRegressed ? "REGRESSED" : "no regression",
  );
}

function diffHeader(diff: DiffDocument): HTMLElement {
  return h(
    "header",
    { "data-diff-header": "" },
    h("h1", {}, "symdebug diff"),
    h(
      "span",
      {},
      h("code", { "data-label": "before" }, diff.before),
      " → ",
      h("code", { "data-label": "after" }, diff.after),
    ),
    verdictBadge(diff.regressed),
  );
}

function notesList(notes: string[], of: string): HTMLElement | null {
  if (!notes.length) return null;
  return h("ul", { class: "notes", "data-notes": of }, ...notes.map((note) => h("li", {}, note)));
}

/** What a run's section shows: its table's sort and the frame whose detail is open. */
interface RunView {
  sort: TableSort<FrameColumn>;
  selected: number | null;
}
type ChangeView = (change: Partial<RunView>) => void;

/** One pair of runs: its sides, notes and frames, redrawn in place when sorted or clicked. */
function runSection(run: RunDiff, index: number, host: Host): HTMLElement {
  const section = h("section", { class: "run", "data-run": runKey(run), "data-regressed": String(run.regressed) });
  let view: RunView = { sort: { column: null, descending: false }, selected: null };
  const draw = () => {
    section.replaceChildren();
    append(section, runParts(run, index, view, change, host));
  };
  const change: ChangeView = (next) => {
    view = { ...view, ...next };
    draw();
  };
  draw();
  return section;
}

function runParts(run: RunDiff, index: number, view: RunView, change: ChangeView, host: Host): (HTMLElement | null)[] {
  const frames = run.frames.length
    ? [framesTable(run.frames, view, change), frameDetailPane(run.frames, view.selected, host)]
    : [h("p", { class: "muted" }, "no frame compiled on either side")];
  return [
    h("h2", {}, runTitle(run), " ", verdictBadge(run.regressed)),
    h("div", { class: "sides" }, sideBox(run.before, "before"), sideBox(run.after, "after")),
    h("p", { class: "muted" }, `${run.matched} of ${run.frames.length} frames on both sides`),
    notesList(run.notes, `run ${index}`),
    ...frames,
  ];
}

/** A side of the diff: what it was read from, its totals, its problems and their examples. */
function sideBox(side: Side, which: "before" | "after"): HTMLElement {
  const problems = problemsText(side);
  return h(
    "div",
    { class: "side", "data-side": which },
    h("h4", {}, `${which}: `, h("code", {}, side.label), h("span", { class: "muted" }, ` (${side.kind})`)),
    h("div", { "data-totals": "" }, sideTotals(side)),
    problems ? h("div", { class: "problems", "data-problems": "" }, `problems: ${problems}`) : null,
    side.problem_examples.length
      ? h(
          "details",
          {},
          h(
            "summary",
            {},
            side.problem_examples.length === 1 ? "1 example" : `${side.problem_examples.length} examples`,
          ),
          ...side.problem_examples.map((example) => h("pre", {}, example)),
        )
      : null,
  );
}

const COLUMN_LABELS: Record<FrameColumn, string> = {
  title: "frame",
  filename: "file",
  status: "status",
  compiles_before: "compiles before",
  compiles_after: "compiles after",
  change: "change",
  regressed: "regressed",
};

function framesTable(frames: FrameDiff[], view: RunView, change: ChangeView): HTMLElement {
  const sortBy = (column: FrameColumn) => change({ sort: nextSort(view.sort, column) });
  const head = h(
    "tr",
    {},
    ...FRAME_COLUMNS.map((column) =>
      h(
        "th",
        { "data-col": column, onclick: () => sortBy(column) },
        COLUMN_LABELS[column] + sortMark(view.sort, column),
      ),
    ),
  );
  const rows = sortFrames(frames, view.sort).map(({ item, index }) =>
    frameRow(item, index, view.selected === index, () => change({ selected: index })),
  );
  const table = h("table", { class: "frames" }, h("thead", {}, head), h("tbody", {}, ...rows));
  return h("div", { class: "frames-scroll" }, table);
}

function frameRow(frame: FrameDiff, index: number, on: boolean, onclick: () => void): HTMLElement {
  const worse = regressed(frame);
  const reasons = frame.regressions.join("; ");
  return h(
    "tr",
    {
      class: `row${worse ? " regressed" : ""}${on ? " on" : ""}`,
      "data-frame-row": String(index),
      "data-status": frame.status,
      "data-regressed": String(worse),
      onclick,
    },
    h("td", { title: frame.title, "data-col": "title" }, frame.title),
    h("td", { title: frame.filename, "data-col": "filename" }, frame.filename),
    h("td", { "data-col": "status" }, h("span", { class: `status ${frame.status}` }, frame.status)),
    h("td", { class: "count", "data-col": "compiles_before" }, frame.compiles_before),
    h("td", { class: "count", "data-col": "compiles_after" }, frame.compiles_after),
    h("td", { class: "count", "data-col": "change" }, compileChange(frame)),
    h("td", { title: reasons, "data-col": "regressed" }, worse ? `REGRESSED: ${reasons}` : ""),
  );
}

function frameDetailPane(frames: FrameDiff[], selected: number | null, host: Host): HTMLElement {
  const frame = selected === null ? undefined : frames[selected];
  if (selected === null || !frame) {
    return h("div", { class: "frame-detail muted" }, "click a frame to see what it gained and lost");
  }
  return h("div", { class: "frame-detail", "data-frame-detail": String(selected) }, ...frameDetail(frame, host));
}

function frameDetail(frame: FrameDiff, host: Host): (HTMLElement | null)[] {
  const groups = itemGroups(frame);
  return [
    h("h3", {}, frame.title),
    h(
      "p",
      {},
      h("code", {}, frame.filename),
      " ",
      h("span", { class: `status ${frame.status}` }, frame.status),
      `  compiles ${frame.compiles_before} → ${frame.compiles_after}`,
    ),
    frame.regressions.length
      ? h("ul", { class: "regressions", "data-regressions": "" }, ...frame.regressions.map((r) => h("li", {}, r)))
      : null,
    ...groups.map((group) => itemGroupView(group, host)),
    groups.length
      ? null
      : h("p", { class: "muted" }, "no recompile, specialization or graph break added, removed or changed"),
  ];
}

function itemGroupView(group: ItemGroup, host: Host): HTMLElement {
  return h(
    "div",
    { class: "group", "data-group": group.list },
    h("h4", {}, `${group.label} (${group.items.length})`),
    ...group.items.map((item) => itemView(item, group.change, host)),
  );
}

/** One item: its cause, what it is, how many more times, the input, the user line, the fix. */
function itemView(item: DiffItem, change: ItemChange, host: Host): HTMLElement {
  const input = itemInput(item);
  const line = item.line;
  return h(
    "div",
    { class: "item", "data-item-kind": item.kind, "data-change": change },
    h(
      "div",
      {},
      item.cause ? h("span", { class: `cause ${item.cause}`, "data-cause": item.cause }, item.cause) : null,
      " ",
      h("code", { "data-item-text": "" }, item.text),
      item.count !== 1 ? h("span", { class: "muted", "data-count": String(item.count) }, `  ×${item.count}`) : null,
    ),
    input ? h("div", { "data-input": "" }, `input: ${input}`) : null,
    line
      ? h(
          "div",
          { "data-user-line": "" },
          "user line: ",
          frameLink(line, host, `${line.filename}:${line.lineno} in ${line.name}`),
        )
      : null,
    line?.line ? h("pre", { class: "code" }, line.line) : null,
    item.fix
      ? h("div", { class: "fix" }, h("span", { class: "kind" }, "fix"), h("pre", { class: "fix-code" }, item.fix))
      : null,
  );
}
