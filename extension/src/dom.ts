// The only way the viewer creates DOM: text always goes in as text nodes (never HTML).
type Child = Node | string | number | null | undefined | false;
type Props = { class?: string; title?: string; onclick?: (e: MouseEvent) => void; [attr: `data-${string}`]: string };

export function h(tag: string, props: Props = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") el.className = String(value);
    else if (key === "title") el.title = String(value);
    else if (key === "onclick") el.addEventListener("click", value as (e: MouseEvent) => void);
    else if (key.startsWith("data-")) el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

export function append(el: HTMLElement, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.appendChild(
      typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child,
    );
  }
}

/**
 * A `<details>` whose content is made when it is first opened: a long list of folded items
 * (kernels, other frames' explanations) then costs its summaries alone.
 */
export function folded(props: Props, summary: Child[], content: () => Child[]): HTMLElement {
  const details = h("details", props, h("summary", {}, ...summary));
  const unfold = () => {
    details.removeEventListener("toggle", unfold);
    append(details, content());
  };
  details.addEventListener("toggle", unfold);
  return details;
}

export function clear(el: HTMLElement): HTMLElement {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function select(
  options: string[],
  value: string,
  label: string,
  onChange: (v: string) => void,
  said: (v: string) => string = (v) => v,
): HTMLSelectElement {
  const el = document.createElement("select");
  el.setAttribute("aria-label", label);
  el.append(optionList(options, label, said));
  el.value = value;
  el.addEventListener("change", () => onChange(el.value));
  return el;
}

/** The options of a `select` made by `select` replaced by `options`, its value kept. */
export function setOptions(el: HTMLSelectElement, options: string[], said: (v: string) => string = (v) => v): void {
  const value = el.value;
  el.replaceChildren(optionList(options, el.getAttribute("aria-label") ?? "", said));
  el.value = value;
}

function optionList(options: string[], label: string, said: (v: string) => string): DocumentFragment {
  const list = document.createDocumentFragment();
  for (const option of ["", ...options]) {
    const item = document.createElement("option");
    item.value = option;
    item.textContent = option ? said(option) : `all ${label}`;
    list.appendChild(item);
  }
  return list;
}
