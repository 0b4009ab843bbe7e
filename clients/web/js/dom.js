// Tiny DOM helpers: element creation, keyboard grids, focus kept across re-renders.

/** The children to put in place: nested arrays flattened, null, undefined and false left out. */
const kept = (children) => children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false);

/**
 * Replace `container`'s children with `children` (as `h` takes them). The DOM's own
 * replaceChildren would show a null as the text "null".
 */
export function fill(container, ...children) {
  container.replaceChildren(...kept(children).map((c) => (c instanceof Node ? c : String(c))));
  return container;
}

/** h("button", {class: "x", onclick: f}, "text", child) -> element. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else if (key === "value") el.value = value;
    else if (key === "checked") el.checked = Boolean(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  return fill(el, children);
}

const activeKeys = new Map();

/**
 * Make the buttons of `grid` (each with data-key) one tab stop, moved with the arrow
 * keys (`cols` buttons per row), as the grid pattern of WAI-ARIA asks.
 */
export function keyboardGrid(grid, name, cols) {
  const cells = [...grid.querySelectorAll("button[data-key]")];
  if (!cells.length) return;
  const wanted = activeKeys.get(name);
  let active =
    cells.find((c) => c.dataset.key === wanted) ||
    cells.find((c) => c.dataset.legal === "true") ||
    cells[0];
  for (const cell of cells) cell.tabIndex = cell === active ? 0 : -1;
  grid.addEventListener("focusin", (event) => {
    const cell = event.target.closest("button[data-key]");
    if (!cell) return;
    for (const other of cells) other.tabIndex = other === cell ? 0 : -1;
    activeKeys.set(name, cell.dataset.key);
  });
  grid.addEventListener("keydown", (event) => {
    const index = cells.indexOf(document.activeElement);
    if (index < 0) return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -cols, ArrowDown: cols };
    let next = null;
    if (event.key in moves) next = index + moves[event.key];
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = cells.length - 1;
    if (next === null || next < 0 || next >= cells.length) return;
    event.preventDefault();
    cells[next].focus();
  });
}

/** Re-render `container` with `build()`, keeping the focused control (by data-key or id). */
export function rerender(container, build) {
  const focused = document.activeElement;
  const key = focused && container.contains(focused) ? focused.dataset.key || focused.id : null;
  fill(container, build());
  if (!key) return;
  const again = container.querySelector(`[data-key="${CSS.escape(key)}"]`) ||
    (focused.id ? document.getElementById(focused.id) : null);
  if (again) again.focus({ preventScroll: true });
}

/** A visually hidden text for screen readers. */
export const sr = (text) => h("span", { class: "sr" }, text);
