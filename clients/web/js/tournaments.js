// Tournaments: this service's list (GET /tournaments, newest first, paged with its
// cursor), and what the list and a tournament's page (tournament.js) both say: the
// header's links, a tournament's format, status and start in words.
import { call, howtoLink, tournamentLink, tournamentsLink } from "./api.js";
import { fill, h } from "./dom.js";
import { dateTime, t, tn } from "./i18n.js";
import { leaderboardLink } from "./leaderboard.js";

const PAGE = 20;

/** The header's links on the tournaments' pages. */
export function tournamentLinks() {
  fill(document.getElementById("links"),
    h("a", { href: "/play" }, t("nav.lobby")),
    h("a", { href: tournamentsLink(), id: "tournaments-link" }, t("nav.tournaments")),
    h("a", { href: leaderboardLink(), id: "leaderboard-link" }, t("nav.leaderboard")),
    h("a", { href: howtoLink(), id: "howto-link" }, t("nav.howto")));
}

/** "Swiss, 3 rounds" / "Arena, 30 minutes". */
export const formatText = (doc) => (doc.format === "arena"
  ? t("tournament.format.arena", { n: doc.minutes })
  : t("tournament.format.swiss", { n: doc.rounds }));

/** "registration open", "round 2 of 3", "finished", ... */
export function statusText(doc) {
  if (doc.status === "running" && doc.format !== "arena") return t("tournament.status.round", { round: doc.round, rounds: doc.rounds });
  return t(`tournament.status.${doc.status}`);
}

/** A moment (ms since the epoch) as a <time> in the page's language. */
export const moment = (ms) => h("time", { datetime: new Date(ms).toISOString() }, dateTime(new Date(ms)));

/** When it starts: a <time>, or "when the host starts it". */
export const startText = (doc) => (doc.starts_at ? moment(doc.starts_at) : t("tournament.starts_by_host"));

function row(doc) {
  return h("li", { class: "game-row tournament-row", dataset: { id: doc.id, status: doc.status } },
    h("a", { href: tournamentLink(doc.id), class: "tournament-name" }, doc.name),
    h("span", { class: "tournament-facts" },
      h("span", {}, formatText(doc)),
      h("span", { class: `badge status-${doc.status}` }, statusText(doc)),
      h("span", {}, t("tournaments.players", { n: doc.players ?? 0 })),
      doc.status === "registering"
        ? h("span", {}, tn("tournaments.starts", { when: startText(doc) }))
        : null));
}

/** The list page: newest first; "More tournaments" follows the page's next_cursor. */
export async function showTournaments(config) {
  tournamentLinks();
  const list = h("ul", { class: "games", id: "tournament-list" });
  const note = h("p", { id: "tournaments-note" });
  const more = h("button", { type: "button", id: "tournaments-more", class: "quiet", hidden: true }, t("tournaments.more"));
  let cursor = null;
  const load = async () => {
    more.disabled = true;
    const query = new URLSearchParams({ limit: String(PAGE) });
    if (cursor) query.set("cursor", cursor);
    try {
      const page = await call("GET", `/tournaments?${query}`);
      list.append(...page.items.map(row));
      cursor = page.next_cursor;
      more.hidden = !cursor;
      note.textContent = list.children.length ? "" : t("tournaments.none");
    } catch (error) {
      note.textContent = error.message;
      note.className = "problem";
    }
    more.disabled = false;
  };
  more.addEventListener("click", load);
  fill(document.getElementById("main"),
    h("h1", {}, t("tournaments.heading", { title: config.title })),
    h("section", { class: "card-panel board-panel", "aria-labelledby": "tournaments-title" },
      h("h2", { id: "tournaments-title" }, t("tournaments.title")),
      h("p", { class: "hint" }, t("tournaments.about")),
      list, note, more));
  await load();
  document.body.dataset.view = "tournaments";
}
