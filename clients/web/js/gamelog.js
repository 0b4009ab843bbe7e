// The game page's log, scores and replay (clients/web/js/game.js): "What happened" in
// words, the score panel, and a finished game's step-through.
import { LETTERS, call } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

export function logPanel(page) {
  const section = h("section", { class: "panel", "aria-labelledby": "log-title" }, h("h2", { id: "log-title" }, t("game.log.title")));
  const ctx = page.context();
  section.append(h("ol", { class: "log", id: "log", reversed: true, start: page.eventCount || null, tabindex: 0, "aria-label": t("game.log.label") },
    page.events.map((e) => h("li", {}, describeEvent(page, e, ctx)))));
  return section;
}

export function describeEvent(page, event, ctx) {
  const own = page.rules.describe(event, ctx);
  if (own) return own;
  switch (event.type) {
    case "game_created": case "game_started": case "game_cancelled": case "game_finished":
      return t(`event.${event.type}`);
    case "player_joined": return t("event.player_joined", { name: event.name, seat: LETTERS[event.seat], bot: event.bot ? "yes" : "no" });
    case "player_left": return t("event.player_left", { name: event.name });
    case "seat_resigned": case "seat_timed_out": case "seat_abandoned":
      return t(`event.${event.type}`, { name: page.name(event.seat) });
    default: return t("event.other", { type: event.type.replace(/_/g, " ") });
  }
}

export function scorePanel(page, ctx) {
  if (!page.score || !page.score.score || !page.rules.renderScore) return null;
  return h("section", { class: "panel", "aria-labelledby": "score-title", id: "scores" },
    h("h2", { id: "score-title" }, t("game.scores")), page.rules.renderScore(ctx, page.score.score));
}

export async function openReplay(page) {
  try {
    const log = await call("GET", `/games/${encodeURIComponent(page.id)}/log`, { token: page.token });
    page.replay = { events: log.events, index: log.events.length };
    page.render();
  } catch (error) { page.say(error.message); }
}

/** A finished game's step-through, beside the board it steps. */
export function replayPanel(page) {
  return page.replay ? stepper(page)
    : h("button", { type: "button", id: "replay-open", onclick: () => openReplay(page) }, t("game.replay.open"));
}

export function stepper(page) {
  const r = page.replay;
  const go = (i) => { r.index = Math.max(0, Math.min(r.events.length, i)); page.render(); };
  const current = r.index > 0 ? describeEvent(page, r.events[r.index - 1], page.context()) : t("game.replay.start");
  return h("div", { class: "stepper" },
    h("div", { class: "inline" },
      h("button", { type: "button", "data-key": "first", onclick: () => go(0) }, t("game.replay.first")),
      h("button", { type: "button", "data-key": "back", onclick: () => go(r.index - 1) }, t("game.replay.back")),
      h("button", { type: "button", "data-key": "next", onclick: () => go(r.index + 1) }, t("game.replay.next")),
      h("button", { type: "button", "data-key": "last", onclick: () => go(r.events.length) }, t("game.replay.last")),
      h("button", { type: "button", "data-key": "close", onclick: () => { page.replay = null; page.render(); } }, t("game.replay.close"))),
    h("label", { for: "replay-range" }, t("game.replay.position", { index: r.index, count: r.events.length })),
    h("input", { type: "range", id: "replay-range", min: 0, max: r.events.length, value: r.index, oninput: (e) => go(Number(e.target.value)) }),
    h("p", { id: "replay-now", "aria-live": "polite" }, current));
}
