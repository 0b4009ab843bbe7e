// Hints and the analysis after the game: a "Hint" button beside the move controls (the
// move the bot would play for this seat, POST /games/{id}/hint) and, on a finished game's
// page, every seat's chance to win over the game as an inline SVG chart with each seat's
// biggest drops (GET /games/{id}/analysis; asked again while the worker makes it).
import { call, LETTERS, Problem } from "./api.js";
import { h } from "./dom.js";
import { percent, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const ASK_AGAIN_MS = 5000;
const ASK_AT_MOST = 60; // five minutes of asking for a pending analysis
const WIDTH = 320;
const HEIGHT = 140;

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  for (const child of children.flat()) if (child) el.append(child);
  return el;
}

/** A move as plain words: its type and fields ("place · city 3 · lot 7 · floors 2"). */
export function moveText(move) {
  const parts = Object.entries(move).filter(([k]) => k !== "type")
    .map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(" ") : v}`);
  return [move.type, ...parts].join(" · ");
}

async function askHint(page) {
  page.hintError = "";
  try {
    const answer = await call("POST", `/games/${encodeURIComponent(page.id)}/hint`, { token: page.token });
    // The hint is counted by a write (its hint_used event bumps the version): it stands
    // for the position at the version the answer names, whichever arrives first.
    page.hint = { ...answer, at: answer.version };
    page.view.hints.used[answer.seat] = answer.used;
  } catch (error) {
    page.hintError = error instanceof Problem ? error.message : String(error);
  }
  page.render();
}

/** The Hint button (and the hint asked at this version), for a seat to act with hints left. */
export function renderHint(page) {
  const hints = page.view.hints;
  if (!hints || !hints.allowed || !page.myTurn) return null;
  const left = Math.max(0, hints.allowed - (hints.used[page.seat] || 0));
  const shown = page.hint && page.hint.at >= page.view.version ? page.hint : null;
  return h("div", { class: "hint", id: "hint" },
    h("button", { type: "button", id: "hint-ask", disabled: left <= 0, onclick: () => askHint(page) },
      t("coach.hint.ask", { left })),
    shown ? h("p", { id: "hint-move", "aria-live": "polite" }, t("coach.hint.move", { move: moveText(shown.move) })) : null,
    page.hintError ? h("p", { id: "hint-error", class: "error", role: "alert" }, page.hintError) : null);
}

async function loadAnalysis(page, tries = 0) {
  let body = null;
  try {
    body = await call("GET", `/games/${encodeURIComponent(page.id)}/analysis`);
  } catch {
    page.analysis = { failed: true };
    page.render();
    return;
  }
  if (body && body.code === "analysis-pending") {
    page.analysis = { pending: true };
    if (tries < ASK_AT_MOST) setTimeout(() => loadAnalysis(page, tries + 1), ASK_AGAIN_MS);
  } else {
    page.analysis = body;
  }
  page.render();
}

function chart(page, body) {
  const last = Math.max(1, body.chances.length - 1);
  const x = (i) => ((i / last) * WIDTH).toFixed(1);
  const y = (c) => ((1 - c) * HEIGHT).toFixed(1);
  const lines = [];
  for (let seat = 0; seat < body.seats; seat += 1) {
    const points = body.chances.map((p, i) => `${x(i)},${y(p.chances[seat])}`).join(" ");
    lines.push(svg("polyline", { points, fill: "none", stroke: `var(--p${seat})`, "stroke-width": 2, "data-seat": seat }));
  }
  const grid = [0.25, 0.5, 0.75].map((c) => svg("line", { x1: 0, x2: WIDTH, y1: y(c), y2: y(c), stroke: "currentColor", "stroke-opacity": 0.15 }));
  const summary = Array.from({ length: body.seats }, (_, s) =>
    `${page.name(s)} (${LETTERS[s]}) ${percent(body.chances[body.chances.length - 1].chances[s])}`).join(", ");
  return svg("svg", {
    id: "analysis-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: "100%", role: "img",
    "aria-label": t("coach.analysis.chart", { moves: body.moves, end: summary }),
  }, svg("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, fill: "none", stroke: "currentColor", "stroke-opacity": 0.3 }), grid, lines);
}

function drops(page, body) {
  return h("ul", { class: "drops", id: "analysis-drops" }, body.drops.map((entry) =>
    h("li", {}, page.tag(entry.seat), entry.drops.length ? h("ul", {}, entry.drops.map((d) =>
      h("li", {}, t("coach.analysis.drop", {
        index: d.index, move: moveText(d.move), before: percent(d.before), after: percent(d.after),
        preferred: moveText(d.preferred), by: percent(d.by),
      })))) : h("span", {}, " ", t("coach.analysis.none")))));
}

/** A finished game's analysis panel: the chart and the drops, or why they are not here yet. */
export function renderAnalysis(page) {
  if (page.view.status !== "finished") return null;
  if (page.analysis === undefined) {
    page.analysis = { pending: true };
    loadAnalysis(page);
  }
  const body = page.analysis;
  const title = h("h2", { id: "analysis-title" }, t("coach.analysis.title"));
  let content;
  if (body.failed) content = h("p", {}, t("coach.analysis.failed"));
  else if (body.pending) content = h("p", { id: "analysis-pending" }, t("coach.analysis.pending"));
  else content = [chart(page, body), h("p", { class: "legend" }, t("coach.analysis.how")), drops(page, body)];
  return h("section", { class: "panel", id: "analysis", "aria-labelledby": "analysis-title" }, title, content);
}
