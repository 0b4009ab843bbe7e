// A tournament page's parts that only show the tournament (tournament.js runs the page):
// its settings, the tables of a round with their games, the earlier rounds, and the
// standings' rows. Names only ever become text nodes (dom.js `h`).
import { gameLink } from "./api.js";
import { h } from "./dom.js";
import { joined, num, t, tn } from "./i18n.js";
import { formatText, moment, startText } from "./tournaments.js";

/** One fact of the settings: a term and its value. */
const fact = (term, ...value) => [h("dt", {}, term), h("dd", {}, ...value)];

/** The settings: format, table size, clock, points per place, byes, start, check-in. */
export function settingsList(doc) {
  const clock = (doc.options && doc.options.clock) || {};
  const sizes = Object.entries(doc.place_points || {}).sort(([a], [b]) => Number(b) - Number(a));
  const points = h("ul", { class: "place-points" }, sizes.map(([size, per]) => h("li", { dataset: { size } },
    t("tournament.settings.points_at", { n: Number(size), points: joined(per.map((p) => num(p))) }))));
  const opens = doc.checkin_seconds && doc.starts_at ? doc.starts_at - doc.checkin_seconds * 1000 : null;
  return h("dl", { class: "facts", id: "tournament-settings" },
    fact(t("tournament.settings.format"), formatText(doc)),
    fact(t("tournament.settings.table_size"), t("tournament.settings.players_a_table", { n: doc.table_size })),
    fact(t("tournament.settings.clock"), t("tournament.settings.clock_value", { seconds: clock.turn_seconds || 0 }),
      clock.max_timeouts ? ` ${t("tournament.settings.timeouts", { n: clock.max_timeouts })}` : ""),
    fact(t("tournament.settings.points"), points),
    doc.format === "arena" ? null : fact(t("tournament.settings.bye"), t("tournament.settings.points_n", { n: doc.bye_points })),
    fact(t("tournament.settings.rated"), doc.rated ? t("tournament.settings.yes") : t("tournament.settings.no")),
    fact(t("tournament.settings.start"), startText(doc)),
    opens ? fact(t("tournament.settings.checkin"), tn("tournament.settings.checkin_from", { when: moment(opens) })) : null,
    fact(t("tournament.settings.entries"), t("tournament.settings.entries_of", { n: Object.keys(doc.entries).length, max: doc.max_players })));
}

/** A player's name at a table: "Ann", "Bot 1", "Ann (you)". */
function seatName(doc, pid, me) {
  const entry = doc.entries[pid] || { name: pid };
  return me && pid === me.id ? `${entry.name}${t("common.you")}` : entry.name;
}

/** The tables being played now (a Swiss round's, or an arena's live ones). */
export function currentTables(doc) {
  if (doc.status !== "running") return [];
  if (doc.format === "arena") return doc.live || [];
  const current = doc.history[doc.history.length - 1];
  return current && current.state !== "done" ? current.tables.map((table) => ({ ...table, state: current.state })) : [];
}

/** How many tables a list shows (the first ones: the leaders'), the player's own
 * always; a big tournament's others are left to their count. */
const SHOWN_TABLES = 24;

/** A list of tables: the players, and a link to each game (to play it when it is the
 * player's, else to watch it). */
export function tablesList(doc, tables, me, id) {
  const shown = tables.map((table, i) => [table, i])
    .filter(([table, i]) => i < SHOWN_TABLES || (me && table.players.includes(me.id)));
  const rest = tables.length - shown.length;
  return [h("ol", { class: "games tables", id }, shown.map(([table, i]) => {
    const mine = me && table.players.includes(me.id);
    const seated = table.state !== "seating";
    return h("li", { class: `game-row${mine ? " my-turn" : ""}`, dataset: { game: table.game } },
      h("span", {}, t("tournament.games.table", { n: i + 1, names: joined(table.players.map((p) => seatName(doc, p, me))) })),
      h("span", { class: "row-links" }, seated
        ? h("a", { href: mine ? gameLink(table.game) : gameLink(table.game, { watch: true }), class: "button quiet" },
          mine ? t("tournament.games.open") : t("lobby.row.watch"),
          h("span", { class: "sr" }, t("lobby.row.sr_game", { id: table.game })))
        : h("span", { class: "hint" }, t("tournament.games.seating"))));
  })), rest > 0 ? h("p", { class: "hint" }, t("tournament.games.more", { n: rest })) : null];
}

/** Every round over (Swiss) or every game over (arena), newest first, in a disclosure. */
export function earlierGames(doc, me) {
  if (doc.format === "arena") {
    const done = doc.history.slice().reverse();
    if (!done.length) return null;
    return h("details", { id: "tournament-history" },
      h("summary", {}, t("tournament.history.arena", { n: done.length })),
      tablesList(doc, done, me, "history-games"));
  }
  const rounds = doc.history.filter((r) => r.state === "done").reverse();
  if (!rounds.length) return null;
  return h("details", { id: "tournament-history" },
    h("summary", {}, t("tournament.history.title", { n: rounds.length })),
    rounds.map((r) => h("section", { class: "history-round", "aria-labelledby": `history-${r.round}` },
      h("h3", { id: `history-${r.round}` }, t("tournament.history.round", { round: r.round })),
      tablesList(doc, r.tables, me, `history-games-${r.round}`),
      r.byes.length ? h("p", { class: "hint" }, t("tournament.history.byes", { names: joined(r.byes.map((p) => seatName(doc, p, me))) })) : null)));
}

/** A row of the standings (GET /tournaments/{id}/standings). */
export function standingRow(row, me) {
  const mine = me && row.player === me.id;
  return h("tr", { class: mine ? "mine" : null, dataset: { player: row.player } },
    h("td", { class: "num" }, num(row.place)),
    h("td", { class: "who" }, row.name, mine ? t("common.you") : "", row.withdrawn ? ` ${t("tournament.standings.withdrawn")}` : ""),
    h("td", { class: "num" }, num(row.points)),
    h("td", { class: "num" }, num(row.buchholz)),
    h("td", { class: "num" }, num(row.games.length)),
    h("td", { class: "num" }, num(row.byes)));
}

/** The standings' table, its rows to come. */
export function standingsTable(body) {
  return h("table", { class: "leaderboard standings", id: "standings" },
    h("caption", { class: "sr" }, t("tournament.standings.caption")),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", class: "num" }, t("tournament.standings.place")),
      h("th", { scope: "col" }, t("tournament.standings.player")),
      h("th", { scope: "col", class: "num" }, t("tournament.standings.points")),
      h("th", { scope: "col", class: "num", title: t("tournament.standings.buchholz_about") }, t("tournament.standings.buchholz")),
      h("th", { scope: "col", class: "num" }, t("tournament.standings.games")),
      h("th", { scope: "col", class: "num" }, t("tournament.standings.byes")))),
    body);
}
