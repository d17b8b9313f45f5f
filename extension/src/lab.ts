// The JupyterLab 4 extension: a renderer for symdebug's session MIME type (the same viewer as
// the report, so a saved notebook reopens interactive without a kernel) and for the diff of two
// runs, jump to source from stack frames, and a command that exports the selected session
// output as an HTML report.
// The explorer of `%symdebug` is a widget whose output also holds the session: its model lives
// in the kernel that made it, so once that kernel is gone the output shows the report instead
// of ipywidgets' "model not found".
import type { JupyterFrontEnd, JupyterFrontEndPlugin } from "@jupyterlab/application";
import { ICommandPalette, Notification } from "@jupyterlab/apputils";
import { PageConfig } from "@jupyterlab/coreutils";
import { IDocumentManager } from "@jupyterlab/docmanager";
import type { NotebookPanel } from "@jupyterlab/notebook";
import { INotebookTracker } from "@jupyterlab/notebook";
import { IRenderMimeRegistry } from "@jupyterlab/rendermime";
import type { IRenderMime } from "@jupyterlab/rendermime-interfaces";
import { Panel, Widget } from "@lumino/widgets";
import type { DiffDocument } from "./diff_document";
import { DIFF_MIME_TYPE } from "./diff_document";
import type { Frame } from "./document";
import { MIME_TYPE } from "./document";
import { listenForFrames } from "./frame_event";
import { render } from "./index";
import { cellNumber, reportFromBundle, reportPath, serverRelative } from "./labpaths";
import type { Wire } from "./wire";

const EXPORT = "symdebug:export-report";
const RANK = -20;

interface Editor {
  setCursorPosition(p: { line: number; column: number }): void;
  revealPosition?(p: { line: number; column: number }): void;
  focus(): void;
}
interface Outputs {
  length: number;
  get(i: number): { data: Record<string, unknown> };
}

const WIDGET_VIEW = "application/vnd.jupyter.widget-view+json";

/**
 * The widget view of an output whose model the kernel still holds; otherwise why the report
 * stays: `gone` (no kernel, or another one), `untrusted` (JupyterLab runs no widget code then).
 */
type LiveView = (
  options: IRenderMime.IRendererOptions,
  model: IRenderMime.IMimeModel,
) => Promise<Widget | "gone" | "untrusted">;

/**
 * One symdebug output: the viewer, told how to open frames from inside this page.  An
 * explorer's output shows the widget while its model lives in the kernel, else the report.
 */
class SessionOutput extends Panel implements IRenderMime.IRenderer {
  private readonly report = new Widget();

  constructor(
    private readonly options: IRenderMime.IRendererOptions,
    private readonly openFrame: (frame: Frame, from: HTMLElement) => void,
    private readonly liveView: LiveView,
  ) {
    super();
    this.addClass("jp-SymdebugOutput");
    this.addWidget(this.report);
  }

  async renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    const data = model.data[MIME_TYPE] as unknown as Wire;
    render(this.report.node, data, { deepLinks: false, openFrame: (frame) => this.openFrame(frame, this.node) });
    if (!(WIDGET_VIEW in model.data)) return;
    const live = await this.liveView(this.options, model);
    // The explorer's state, for the page and its tests: its widget, or why the report stays.
    this.node.dataset.widget = typeof live === "string" ? live : "live";
    if (typeof live === "string") return;
    this.report.hide();
    this.addWidget(live);
  }
}

/** A diff of two runs (`symdebug.diff`): the same viewer, its frame links opened in this page. */
class DiffOutput extends Widget implements IRenderMime.IRenderer {
  constructor(private readonly openFrame: (frame: Frame, from: HTMLElement) => void) {
    super();
    this.addClass("jp-SymdebugDiffOutput");
  }

  async renderModel(model: IRenderMime.IMimeModel): Promise<void> {
    const data = model.data[DIFF_MIME_TYPE] as unknown as DiffDocument;
    render(this.node, data, { deepLinks: false, openFrame: (frame) => this.openFrame(frame, this.node) });
  }
}

/** The widget ids (comm ids) the notebook's kernel holds now; empty without a kernel. */
async function kernelWidgets(panel: NotebookPanel): Promise<Set<string>> {
  await panel.sessionContext.ready;
  const kernel = panel.sessionContext.session?.kernel;
  if (!kernel) return new Set();
  const reply = await kernel.requestCommInfo({ target_name: "jupyter.widget" });
  const comms = reply.content.status === "ok" ? reply.content.comms : {};
  return new Set(Object.keys(comms));
}

/** ipywidgets' own view of the output, when the kernel still holds its model. */
function liveViewIn(tracker: INotebookTracker): LiveView {
  return async (options, model) => {
    if (!model.trusted) return "untrusted";
    const panel = tracker.find((p) => p.content.rendermime.resolver === options.resolver);
    const view = model.data[WIDGET_VIEW] as { model_id?: string } | undefined;
    if (!panel || !view?.model_id) return "gone";
    if (!(await kernelWidgets(panel)).has(view.model_id)) return "gone";
    const factory = panel.content.rendermime.getFactory(WIDGET_VIEW);
    if (!factory) return "gone";
    const renderer = factory.createRenderer({ ...options, mimeType: WIDGET_VIEW });
    await renderer.renderModel(model);
    return renderer;
  };
}

function placeCursor(editor: Editor | null | undefined, lineno: number): void {
  const position = { line: Math.max(0, lineno - 1), column: 0 };
  editor?.setCursorPosition(position);
  editor?.revealPosition?.(position);
}

async function openCell(panel: NotebookPanel, count: number, lineno: number): Promise<boolean> {
  const notebook = panel.content;
  const index = notebook.widgets.findIndex(
    (cell) =>
      cell.model.type === "code" &&
      (cell.model as unknown as { executionCount: number | null }).executionCount === count,
  );
  if (index < 0) return false;
  notebook.deselectAll();
  notebook.activeCellIndex = index;
  await notebook.scrollToItem(index, "center");
  placeCursor(notebook.activeCell?.editor as Editor | null | undefined, lineno);
  return true;
}

async function openFile(docs: IDocumentManager, frame: Frame): Promise<void> {
  const path = serverRelative(frame.filename, PageConfig.getOption("serverRoot"));
  if (path === null) {
    Notification.warning(
      `symdebug: ${frame.filename} lies outside the Jupyter server's root, so it cannot be opened here`,
    );
    return;
  }
  const widget = docs.openOrReveal(path, "Editor");
  if (!widget) return;
  await widget.context.ready;
  placeCursor((widget.content as unknown as { editor?: Editor }).editor, frame.lineno);
}

function frameOpener(app: JupyterFrontEnd, tracker: INotebookTracker, docs: IDocumentManager) {
  return async (frame: Frame, from: HTMLElement): Promise<void> => {
    const count = cellNumber(frame.filename);
    if (count === null) return openFile(docs, frame);
    const panel = tracker.find((p) => p.node.contains(from)) ?? tracker.currentWidget;
    if (panel && (await openCell(panel, count, frame.lineno))) {
      app.shell.activateById(panel.id);
      return;
    }
    Notification.warning(`symdebug: no cell [${count}] in this notebook (was it re-run?)`);
  };
}

function selectedBundle(tracker: INotebookTracker): Record<string, unknown> | null {
  const outputs = (tracker.activeCell?.model as unknown as { outputs?: Outputs } | undefined)?.outputs;
  if (!outputs) return null;
  for (let i = outputs.length - 1; i >= 0; i--) {
    const data = outputs.get(i).data;
    if (MIME_TYPE in data) return data;
  }
  return null;
}

async function exportReport(app: JupyterFrontEnd, tracker: INotebookTracker): Promise<string | null> {
  const panel = tracker.currentWidget;
  const bundle = selectedBundle(tracker);
  const report = bundle ? reportFromBundle(bundle) : null;
  if (!panel || !report) {
    Notification.error("symdebug: select a cell whose output is a symdebug session");
    return null;
  }
  const path = reportPath(panel.context.path, tracker.activeCell?.model.id ?? "output");
  await app.serviceManager.contents.save(path, { type: "file", format: "text", content: report });
  Notification.success(`symdebug: wrote ${path}`);
  return path;
}

const plugin: JupyterFrontEndPlugin<void> = {
  id: "symdebug:plugin",
  description: "symdebug's session and diff viewer in notebook outputs, with jump to source and HTML export.",
  autoStart: true,
  requires: [IRenderMimeRegistry, INotebookTracker, IDocumentManager],
  optional: [ICommandPalette],
  activate: (
    app: JupyterFrontEnd,
    registry: IRenderMimeRegistry,
    tracker: INotebookTracker,
    docs: IDocumentManager,
    palette: ICommandPalette | null,
  ) => {
    const open = frameOpener(app, tracker, docs);
    // The explorer's widget (a module of its own) asks for its frames by a DOM event.
    listenForFrames(document, (frame, from) => void open(frame, from));
    const live = liveViewIn(tracker);
    // Rank -20 puts the viewer before ipywidgets' view (-10: an explorer's output holds both;
    // the viewer hands over to the widget while it lives) and text/html (the report in an
    // iframe, for other frontends). A diff's output holds its document and that iframe too.
    registry.addFactory(
      {
        safe: true,
        mimeTypes: [MIME_TYPE],
        defaultRank: RANK,
        createRenderer: (options) => new SessionOutput(options, open, live),
      },
      RANK,
    );
    registry.addFactory(
      {
        safe: true,
        mimeTypes: [DIFF_MIME_TYPE],
        defaultRank: RANK,
        createRenderer: () => new DiffOutput(open),
      },
      RANK,
    );
    app.commands.addCommand(EXPORT, {
      label: "symdebug: Export Selected Output as HTML Report",
      isEnabled: () => tracker.currentWidget !== null,
      execute: () => exportReport(app, tracker),
    });
    palette?.addItem({ command: EXPORT, category: "symdebug" });
    app.contextMenu.addItem({ command: EXPORT, selector: ".jp-SymdebugOutput", rank: 0 });
  },
};

export default plugin;
