// The game page's status bar (clients/web/js/game.js): whose turn it is in words, the
// countdown of the seats to act (ticking once a second without a re-render), and whether
// the page follows the game live.
import { LETTERS } from "./api.js";
import { fill, h } from "./dom.js";
import { joined, remaining, t } from "./i18n.js";

const MIN_PLAYERS = 2; // both games start with 2 players or more

/** The earliest deadline (ms since the epoch) of the seats to act, or null. */
function nextDeadline(page) {
  const v = page.view;
  if (!v || v.status !== "running") return null;
  const times = v.players.filter((p) => v.to_act.includes(p.seat) && p.deadline).map((p) => Date.parse(p.deadline));
  return times.length ? Math.min(...times) : null;
}

/** Refresh the countdown in the status bar (once a second; no re-render). */
export function tickClock(page) {
  const clock = document.getElementById("clock");
  if (!clock) return;
  const deadline = nextDeadline(page);
  clock.hidden = deadline === null;
  const text = deadline === null ? "" : t("game.clock.left", { time: remaining(deadline - Date.now()) });
  if (clock.textContent !== text) clock.textContent = text;
  if (deadline !== null) clock.dataset.deadline = new Date(deadline).toISOString();
  for (const cell of document.querySelectorAll("[data-deadline-of]")) {
    const left = t("game.clock.left", { time: remaining(Date.parse(cell.dataset.deadlineOf) - Date.now()) });
    if (cell.textContent !== left) cell.textContent = left;
  }
}

function turnText(page) {
  const v = page.view;
  if (v.status === "open") {
    const host = Boolean(page.record && page.record.host);
    const seats = t("game.turn.seats", { taken: v.players.length, seats: v.options.players });
    if (v.players.length >= v.options.players) {
      return host ? t("game.turn.full_host", { seats }) : t("game.turn.full", { seats });
    }
    // The view does not say how a game starts: a table this browser made or found says.
    if (page.record && page.record.whenFull) return t("game.turn.waiting_when_full", { seats });
    if (!host) return t("game.turn.waiting_host", { seats });
    return v.players.length >= MIN_PLAYERS
      ? t("game.turn.waiting_start", { seats })
      : t("game.turn.waiting_invite", { seats });
  }
  if (v.status === "cancelled") return t("game.turn.cancelled");
  if (v.status === "finished") {
    const resigned = new Set((v.result.standings || []).filter((s) => s.resigned).map((s) => s.seat));
    const winners = (v.result.winners || []).filter((s) => !resigned.has(s)).map((s) => page.name(s));
    if (!winners.length && resigned.size) return t("game.turn.over_resigned");
    return t("game.turn.over", { count: winners.length, winners: joined(winners) });
  }
  if (page.myTurn) return t("game.turn.yours", { hint: page.rules.hint(page.context()) });
  const who = joined(v.to_act.map((s) => `${page.name(s)} (${LETTERS[s]})`));
  return t("game.turn.waiting_for", { who });
}

export function renderStatus(page) {
  const status = document.getElementById("status");
  const text = turnText(page);
  if (status.dataset.text !== text) {
    status.dataset.text = text;
    fill(status, h("span", { id: "turn", class: page.myTurn ? "mine" : "" }, text),
      h("span", { class: "status-side" },
        // role=timer is not announced every second; the time is in view in the sticky bar.
        h("span", { id: "clock", class: "clock", role: "timer", "aria-label": t("game.clock.label"), hidden: true }),
        h("span", { id: "live", class: "live" })));
    page.renderLive();
  }
  tickClock(page);
  if (!page.clockTimer) page.clockTimer = setInterval(() => tickClock(page), 1000);
  status.classList.toggle("mine", page.myTurn);
}
