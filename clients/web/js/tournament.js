// A tournament's page (/play?tournament=<id>): its status and a countdown to the start
// (an arena's: to its end), what the browser's player can do (register, withdraw, check
// in; its table, to play it), the host's start and end, the games of the round to watch,
// the earlier rounds, the standings (paged) and the settings.
//
// Live by polling, cheaply: GET /tournaments/{id} every few seconds while it runs (every
// 10 s before the start, sooner when the start is near; nothing while the page is
// hidden; never once it is over), and the standings again only when a round (an arena's
// game) has closed, since they change only then.
import { call, gameLink, loadPlayer, tournamentsLink } from "./api.js";
import { fill, h, rerender } from "./dom.js";
import { num, remaining, t, tn } from "./i18n.js";
import { moment, statusText, tournamentLinks } from "./tournaments.js";
import { currentTables, earlierGames, settingsList, standingRow, standingsTable, tablesList } from "./tournamentview.js";

const POLL_MS = { registering: 10000, running: 3000 };
/** A running tournament is read every 3 s, up to every 15 s for the biggest (its
 * document grows with its players: about 1 MB at 10,000). */
const pollRunning = (players) => Math.min(15000, Math.max(POLL_MS.running, players * 1.5));
const STANDINGS_PAGE = 50;
const OVER = ["finished", "cancelled"];

class TournamentPage {
  constructor(config, id) {
    this.config = config;
    this.id = id;
    this.path = `/tournaments/${encodeURIComponent(id)}`;
    this.player = loadPlayer();
    this.doc = null;
    this.timer = null;
    this.closed = null; // what the standings shown depend on (closedCount)
    this.cursor = null;
    this.parts = {
      status: h("p", { id: "tournament-status", role: "status", class: "status-line" }),
      countdown: h("p", { id: "tournament-countdown", role: "timer", "aria-atomic": "true", class: "countdown" }),
      me: h("div", { id: "tournament-me" }),
      host: h("section", { class: "card-panel", id: "tournament-host", "aria-labelledby": "host-title", hidden: true }),
      round: h("div", { id: "tournament-round" }),
      settings: h("div", { id: "tournament-settings-panel" }),
      rows: h("tbody", { id: "standings-rows" }),
      standingsNote: h("p", { id: "standings-note", class: "hint" }),
      more: h("button", { type: "button", id: "standings-more", class: "quiet", hidden: true }, t("tournament.standings.more")),
    };
    this.parts.more.addEventListener("click", () => this.loadStandings(false));
  }

  say(text) { document.getElementById("alert").textContent = text; }

  async start() {
    this.doc = await call("GET", this.path);
    document.title = t("page.title.tournament", { title: this.config.title, name: this.doc.name });
    const p = this.parts;
    fill(document.getElementById("main"),
      h("p", {}, h("a", { href: tournamentsLink() }, t("tournament.back"))),
      h("h1", { id: "tournament-name", class: "who" }, this.doc.name),
      h("div", { class: "tournament" },
        h("div", { class: "tournament-side" },
          h("section", { class: "card-panel", "aria-labelledby": "state-title" },
            h("h2", { id: "state-title", class: "sr" }, t("tournament.state")), p.status, p.countdown),
          h("section", { class: "card-panel", id: "tournament-you", "aria-labelledby": "me-title" },
            h("h2", { id: "me-title" }, t("tournament.me.title")), p.me),
          p.host),
        h("div", { class: "tournament-main" },
          h("section", { class: "card-panel", id: "tournament-games", "aria-labelledby": "round-title" }, p.round),
          h("section", { class: "card-panel", "aria-labelledby": "standings-title" },
            h("h2", { id: "standings-title" }, t("tournament.standings.title")),
            p.standingsNote, standingsTable(p.rows), p.more),
          h("section", { class: "card-panel", "aria-labelledby": "settings-title" },
            h("h2", { id: "settings-title" }, t("tournament.settings.title")), p.settings))));
    this.render();
    await this.loadStandings(true);
    setInterval(() => this.tickCountdown(), 1000);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) this.poll(); });
    this.schedule();
  }

  // -- live -------------------------------------------------------------------------

  schedule() {
    clearTimeout(this.timer);
    const doc = this.doc;
    if (OVER.includes(doc.status)) return;
    let wait = doc.status === "registering" ? POLL_MS.registering : pollRunning(Object.keys(doc.entries).length);
    if (doc.status === "registering" && doc.starts_at) wait = Math.max(1000, Math.min(wait, doc.starts_at - Date.now() + 1500));
    this.timer = setTimeout(() => this.poll(), wait);
  }

  async poll() {
    clearTimeout(this.timer);
    if (!document.hidden) {
      try {
        await this.refresh();
      } catch (error) {
        this.parts.status.textContent = error.message;
      }
    }
    this.schedule();
  }

  async refresh() {
    // Nothing is sent back while the tournament is unchanged (If-None-Match: a 304).
    const doc = await call("GET", this.path, { headers: { "If-None-Match": `"${this.doc.version}"` } });
    if (!doc) return;
    this.doc = doc;
    this.render();
    if (this.closedCount() !== this.closed) await this.loadStandings(true);
  }

  /** What the standings depend on: the status, the rounds (games) closed, who plays. */
  closedCount() {
    const doc = this.doc;
    const entries = Object.values(doc.entries);
    const out = entries.filter((e) => e.withdrawn).length;
    return `${doc.status}:${doc.history.filter((r) => r.state === "done").length}:${entries.length}:${out}`;
  }

  async loadStandings(fresh) {
    const p = this.parts;
    if (fresh) { this.cursor = null; this.closed = this.closedCount(); }
    const query = new URLSearchParams({ limit: String(STANDINGS_PAGE) });
    if (this.cursor) query.set("cursor", this.cursor);
    p.more.disabled = true;
    try {
      const page = await call("GET", `${this.path}/standings?${query}`);
      const rows = page.items.map((row) => standingRow(row, this.player));
      if (fresh) fill(p.rows, rows); else p.rows.append(...rows);
      this.cursor = page.next_cursor;
      p.more.hidden = !this.cursor;
      p.standingsNote.textContent = !p.rows.children.length ? t("tournament.standings.none")
        : this.doc.format === "arena" && this.doc.history.length ? t("tournament.standings.after_arena", { n: this.doc.history.length })
          : this.closedRounds() ? t("tournament.standings.after", { round: this.closedRounds() }) : t("tournament.standings.before");
    } catch (error) {
      p.standingsNote.textContent = error.message;
    }
    p.more.disabled = false;
  }

  closedRounds() {
    return this.doc.format === "arena" ? 0 : this.doc.history.filter((r) => r.state === "done").length;
  }

  tickCountdown() {
    const doc = this.doc;
    const el = this.parts.countdown;
    let text = "";
    if (doc.status === "registering" && doc.starts_at) {
      const left = doc.starts_at - Date.now();
      text = left > 0 ? t("tournament.countdown.start", { time: remaining(left) }) : t("tournament.countdown.starting");
    } else if (doc.status === "running" && doc.format === "arena" && doc.ends_ms) {
      const left = doc.ends_ms - Date.now();
      text = left > 0 ? t("tournament.countdown.end", { time: remaining(left) }) : t("tournament.countdown.last_games");
    }
    if (el.textContent !== text) el.textContent = text;
    el.hidden = !text;
  }

  // -- what the page shows --------------------------------------------------------------

  render() {
    const doc = this.doc;
    const p = this.parts;
    let status = statusText(doc);
    if (doc.status === "running" && doc.end_requested) status = `${status} ${t("tournament.status.ending")}`;
    if (doc.status === "cancelled" && doc.error) status = `${status} (${doc.error})`;
    if (p.status.textContent !== status) p.status.textContent = status;
    this.tickCountdown();
    rerender(p.me, () => this.mine());
    this.hostPanel();
    rerender(p.round, () => this.roundGames());
    fill(p.settings, settingsList(doc));
    Object.assign(document.body.dataset, { view: "tournament", tournamentStatus: doc.status, round: String(doc.round) });
  }

  /** The player's part: what it may do now, and its table. */
  mine() {
    const doc = this.doc;
    const me = this.player;
    if (!me) return [h("p", {}, t("tournament.me.no_player")), h("p", {}, h("a", { href: "/play", class: "button" }, t("tournament.me.to_lobby")))];
    const entry = doc.entries[me.id];
    const button = (id, label, method, path, kind = "quiet") =>
      h("button", { type: "button", id, class: kind, onclick: (e) => this.act(e.target, method, path) }, label);
    if (doc.status === "registering") {
      if (!entry) return [h("p", {}, t("tournament.me.not_registered")), button("register", t("tournament.me.register"), "POST", "/players", "primary")];
      const out = [h("p", { id: "registered" }, t("tournament.me.registered"))];
      const opens = doc.checkin_seconds && doc.starts_at ? doc.starts_at - doc.checkin_seconds * 1000 : null;
      if (opens && entry.checked_in) out.push(h("p", { id: "checked-in" }, t("tournament.me.checked_in")));
      else if (opens && Date.now() >= opens) out.push(h("p", { class: "hint" }, t("tournament.me.checkin_needed")), button("checkin", t("tournament.me.checkin"), "POST", "/checkin", "primary"));
      else if (opens) out.push(h("p", { class: "hint" }, tn("tournament.me.checkin_opens", { when: moment(opens) })));
      out.push(button("withdraw", t("tournament.me.withdraw"), "DELETE", "/players/me"));
      return out;
    }
    if (!entry) return h("p", {}, t("tournament.me.not_playing"));
    const standing = h("p", {}, t("tournament.me.points", { points: num(entry.points), games: entry.games.length }));
    if (doc.status !== "running") return standing;
    if (entry.withdrawn) return [standing, h("p", { id: "withdrawn" }, t("tournament.me.withdrawn"))];
    return [this.yourTable(), standing, button("withdraw", t("tournament.me.withdraw"), "DELETE", "/players/me")];
  }

  /** "Your table": the game the player sits at now, a bye, or the wait for the next. */
  yourTable() {
    const doc = this.doc;
    const me = this.player.id;
    const table = currentTables(doc).find((tb) => tb.players.includes(me));
    const current = doc.history[doc.history.length - 1];
    if (table && table.state !== "seating") {
      return h("p", { class: "your-table" }, h("a", { href: gameLink(table.game), id: "your-table", class: "button primary" },
        doc.format === "arena" ? t("tournament.me.play_arena") : t("tournament.me.play", { round: doc.round })));
    }
    if (table) return h("p", { id: "your-table-seating" }, t("tournament.me.seating"));
    if (doc.format !== "arena" && current && current.state !== "done" && current.byes.includes(me)) {
      return h("p", { id: "your-bye" }, t("tournament.me.bye", { points: doc.bye_points }));
    }
    return h("p", { id: "your-wait", class: "hint" }, doc.format === "arena" ? t("tournament.me.wait_arena") : t("tournament.me.wait"));
  }

  hostPanel() {
    const doc = this.doc;
    const panel = this.parts.host;
    const host = this.player && doc.host === this.player.id;
    panel.hidden = !host || OVER.includes(doc.status);
    if (panel.hidden) return;
    const controls = [];
    if (doc.status === "registering" && !doc.start_requested) {
      controls.push(h("button", { type: "button", id: "host-start", class: "primary", onclick: (e) => this.act(e.target, "POST", "/start") }, t("tournament.host.start")));
    } else if (doc.start_requested && doc.status === "registering") {
      controls.push(h("p", {}, t("tournament.host.starting")));
    }
    if (!doc.end_requested) {
      controls.push(h("button", { type: "button", id: "host-end", class: "danger", onclick: (e) => this.act(e.target, "POST", "/end") },
        doc.status === "registering" ? t("tournament.host.cancel") : t("tournament.host.end")));
    }
    controls.push(h("p", { class: "hint" }, doc.status === "registering" ? t("tournament.host.about_start") : t("tournament.host.about_end")));
    rerender(panel, () => [h("h2", { id: "host-title" }, t("tournament.host.title")), controls]);
  }

  /** The games of the round being played (an arena's: those on now), then the earlier ones. */
  roundGames() {
    const doc = this.doc;
    const tables = currentTables(doc);
    const title = doc.format === "arena" ? t("tournament.games.arena") : t("tournament.games.round", { round: doc.round });
    return [
      h("h2", { id: "round-title" }, doc.status === "running" ? title : t("tournament.games.title")),
      tables.length ? tablesList(doc, tables, this.player, "round-games") : h("p", { id: "round-none" }, t("tournament.games.none")),
      earlierGames(doc, this.player),
    ];
  }

  /** One of the player's (or the host's) actions: POST/DELETE `/tournaments/{id}<path>`. */
  async act(button, method, path) {
    this.say("");
    button.disabled = true;
    try {
      await call(method, `${this.path}${path}`, { token: this.player.key });
      await this.refresh();
    } catch (error) {
      this.say(error.message);
      button.disabled = false;
    }
    this.schedule();
  }
}

/** The page of tournament `id`. */
export async function showTournament(config, id) {
  tournamentLinks();
  const page = new TournamentPage(config, id);
  try {
    await page.start();
  } catch (error) {
    fill(document.getElementById("main"), h("h1", {}, t("tournament.not_found")), h("p", { class: "problem" }, error.message),
      h("p", {}, h("a", { href: tournamentsLink() }, t("tournament.back"))));
    document.body.dataset.view = "tournament";
  }
}
