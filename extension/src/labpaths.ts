// Pure helpers of the JupyterLab extension (no JupyterLab imports, so vitest runs them).

/** `Cell [3]` (how symdebug names a notebook cell's frames) -> 3. */
export function cellNumber(filename: string): number | null {
  const match = /^Cell \[(\d+)\]$/.exec(filename);
  return match ? Number(match[1]) : null;
}

const HOME = /^\/(?:root|home\/[^/]+|Users\/[^/]+)(?=\/)/;

/**
 * A frame's absolute path relative to the Jupyter server's root, or null when it lies outside.
 * JupyterLab may give the root with `~` for the home directory, which the page cannot expand:
 * then any usual home directory is accepted in its place.
 */
export function serverRelative(filename: string, root: string): string | null {
  if (!filename.startsWith("/") || !root) return null;
  const base = root.replace(/\/+$/, "");
  if (base.startsWith("~")) {
    const home = HOME.exec(filename);
    const rest = home ? filename.slice(home[0].length) : "";
    const tail = `${base.slice(1)}/`;
    return rest.startsWith(tail) ? rest.slice(tail.length) : null;
  }
  if (base === "") return filename.slice(1);
  return filename.startsWith(`${base}/`) ? filename.slice(base.length + 1) : null;
}

const ENTITIES: [RegExp, string][] = [
  [/&quot;/g, '"'],
  [/&#x27;/g, "'"],
  [/&lt;/g, "<"],
  [/&gt;/g, ">"],
  [/&amp;/g, "&"],
];

/**
 * The report page inside a session output's `text/html` fallback (`<iframe srcdoc="...">`,
 * escaped by Python's `html.escape`), so an export is exactly the report Python wrote.
 */
export function reportFromBundle(bundle: Record<string, unknown>): string | null {
  const html = bundle["text/html"];
  const text = Array.isArray(html) ? html.join("") : html;
  if (typeof text !== "string") return null;
  const match = /<iframe srcdoc="([^"]*)"/.exec(text);
  if (!match) return null;
  return ENTITIES.reduce((out, [pattern, value]) => out.replace(pattern, value), match[1]);
}

/** `dir/model.ipynb` + cell id -> `dir/model-symdebug-<id>.html`, beside the notebook. */
export function reportPath(notebookPath: string, cellId: string): string {
  const slash = notebookPath.lastIndexOf("/");
  const dir = slash >= 0 ? notebookPath.slice(0, slash + 1) : "";
  const stem = notebookPath.slice(slash + 1).replace(/\.ipynb$/, "");
  const id = cellId.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 8) || "output";
  return `${dir}${stem}-symdebug-${id}.html`;
}
