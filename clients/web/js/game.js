// A game page: joining, the host's start, whose turn, the board of the game's module,
// live updates, the final score and a step-through of the finished game.
import { LETTERS, Problem, call, forgetSeat, gameLink, howtoLink, loadPlayer, loadSeat, postMove, saveSeat } from "./api.js";
import { fill, h, rerender } from "./dom.js";
import { clockTime, dec1, joined, num, remaining, t } from "./i18n.js";
import { openChat } from "./chat.js";
import { offerAfterMove } from "./notifications.js";
import { follow } from "./live.js";
import { changeText, leaderboardLink, profileLink, ratingText } from "./leaderboard.js";
import { renderAnalysis, renderHint } from "./coach.js";

const LOG_SIZE = 40;
const MIN_PLAYERS = 2; // both games start with 2 players or more
const NEXT_GAME_POLL_MS = 3000; // a finished game's page looks for a rematch (its stream has ended)
const NEXT_GAME_POLL_FOR_MS = 10 * 60 * 1000; // as long as a rematch holds the seats
// The bot levels a host may seat, weakest first (the API's `bot` of a join; docs/bots.md).
const BOT_LEVELS = ["random", "greedy", "medium", "strong"];
const STATUS_TEXT = { bot: "game.seat.bot", abandoned: "game.seat.abandoned", resigned: "game.seat.resigned" };
const statusText = (status) => (STATUS_TEXT[status] ? t(STATUS_TEXT[status]) : status);

export class GamePage {
  constructor(config, gameId, watch, rules, invite) {
    this.config = config;
    this.id = gameId;
    this.watch = watch;
    this.rules = rules;
    this.record = watch ? null : loadSeat(config.game, gameId);
    this.player = watch ? null : loadPlayer(); // its key acts for the player's own seats
    this.invite = invite || (this.record && this.record.invite) || null;
    this.view = null;
    this.legal = [];
    this.ui = {};
    this.busy = false;
    this.events = [];
    this.eventCount = 0; // events so far: the number of the newest in "What happened"
    this.score = null;
    this.replay = null;
    this.live = "connecting";
    this.loading = false;
    this.dirty = false;
    this.confirmingResign = false;
    this.main = document.getElementById("main");
  }

  /** The seat token when this browser holds one, else the player's key (if any). */
  get token() { return (this.record && this.record.token) || (this.player && this.player.key) || null; }
  get seat() { return this.view && typeof this.view.you === "number" ? this.view.you : null; }
  get myTurn() {
    return this.seat !== null && this.view.status === "running" && this.view.to_act.includes(this.seat) &&
      GamePage.active(this.view, this.seat);
  }

  /** Only an active seat moves through the API (a bot plays a resigned or abandoned one). */
  static active(view, seat) {
    const player = view.players.find((p) => p.seat === seat);
    return !player || !player.status || player.status === "active";
  }

  name(seat) {
    const player = this.view.players.find((p) => p.seat === seat);
    return player ? player.name : t("game.seat_name", { seat: LETTERS[seat] });
  }

  /** A player's name with the letter and colour that mark their pieces. */
  tag(seat) {
    return h("span", { class: `tag p${seat}` }, h("span", { class: "letter", "aria-hidden": "true" }, LETTERS[seat]), "\u00a0", this.name(seat));
  }

  /** Tell the player why something did not happen (or clear it with ""). */
  say(text) {
    document.getElementById("alert").textContent = text;
  }

  async start() {
    let history = null;
    try {
      history = await this.loadHistory();
      await this.load();
    } catch (error) {
      fill(this.main, h("h1", {}, t("game.not_available")),
        h("p", { class: "problem" }, error.message), h("p", {}, h("a", { href: "/play" }, t("game.back"))));
      return;
    }
    if (history && this.rules.onHistory) this.rules.onHistory(history.events, this.context());
    const following = this.view.status === "open" || this.view.status === "running";
    if (!following) this.live = "ended"; // a finished or cancelled game: nothing to follow
    this.chat = openChat(this); // the table's chat: its history, then live from the stream
    this.render();
    if (following) {
      // From the log's version: what happened after it comes live, nothing twice.
      this.follower = follow(this.id, history ? history.version : this.view.version, {
        onEvent: (event) => this.onEvent(event),
        onState: (state) => { this.live = state; this.renderLive(); },
        token: this.token || null, // a seat or the host reads as itself: live, its mutes and blocks
      });
    }
    if (this.view.status !== "open") this.loadScore();
    this.watchForNextGame();
  }

  /**
   * A finished game's stream is over, so a rematch asked by another player is found by
   * asking for the view now and then (If-None-Match: nothing is sent back until it changes).
   */
  watchForNextGame() {
    if (this.nextGameTimer || this.view.status !== "finished" || this.seat === null || this.view.next_game) return;
    const until = Date.now() + NEXT_GAME_POLL_FOR_MS;
    this.nextGameTimer = setInterval(async () => {
      if (this.view.next_game || Date.now() > until) { clearInterval(this.nextGameTimer); return; }
      try {
        const view = await call("GET", `/games/${encodeURIComponent(this.id)}`, {
          token: this.token, headers: { "If-None-Match": `"${this.view.version}"` },
        });
        if (view && view.version >= this.view.version) { this.view = view; this.render(); }
      } catch { /* try again later */ }
    }, NEXT_GAME_POLL_MS);
  }

  /**
   * Play again: the next game (POST /games/{id}/rematch, or the one another player asked
   * for), then the seat it holds for us, taken back with our old seat token (or player
   * key) as bearer and an empty body; then its page.
   */
  async playAgain() {
    if (this.busy) return;
    this.busy = true;
    this.say("");
    this.renderFlags();
    try {
      let next = this.view.next_game;
      if (!next) {
        const made = await call("POST", `/games/${encodeURIComponent(this.id)}/rematch`, { token: this.token });
        next = made.game_id;
        if (made.host_token) saveSeat(this.config.game, next, { host: made.host_token, rematch: true, whenFull: true });
      }
      const held = loadSeat(this.config.game, next);
      if (!(held && held.token)) {
        try {
          const joined = await call("POST", `/games/${encodeURIComponent(next)}/players`, { token: this.token, body: {} });
          const name = joined.game.players.find((p) => p.seat === joined.seat);
          saveSeat(this.config.game, next, { seat: joined.seat, token: joined.token, name: name ? name.name : "", whenFull: true, rematch: true });
        } catch (error) {
          // Already back in it (another tab, or the player key took the seat): go there.
          if (!(error instanceof Problem && error.code === "already-seated")) throw error;
        }
      }
      location.assign(gameLink(next));
    } catch (error) {
      this.say(error.message);
      this.busy = false;
      this.render();
    }
  }

  /**
   * The game's events so far (public, as in the log), newest first in "What happened":
   * a reload or a returning player sees what the others did. Null when unavailable.
   */
  async loadHistory() {
    let log;
    try {
      log = await call("GET", `/games/${encodeURIComponent(this.id)}/log`, { token: this.token });
    } catch (error) {
      if (error instanceof Problem && error.status === 404) throw error;
      return null; // the page works without its history
    }
    this.events = log.events.slice(-LOG_SIZE).reverse();
    this.eventCount = log.events.length;
    return log;
  }

  async load() {
    let view;
    try {
      view = await call("GET", `/games/${encodeURIComponent(this.id)}`, { token: this.token });
    } catch (error) {
      if (error instanceof Problem && error.code === "invalid-token" && this.record && this.record.token) {
        forgetSeat(this.config.game, this.id); // a token of no seat here: watch instead
        this.record = null;
        view = await call("GET", `/games/${encodeURIComponent(this.id)}`, { token: this.token });
      } else if (error instanceof Problem && (error.status === 401 || error.status === 403) && this.player && this.token === this.player.key) {
        this.player = null; // a player key the service no longer knows: watch instead
        view = await call("GET", `/games/${encodeURIComponent(this.id)}`);
      } else {
        throw error;
      }
    }
    const legal = await this.fetchLegal(view);
    if (this.view && view.version < this.view.version) return; // an older answer: keep ours
    this.view = view; // the view and its legal moves change together
    this.legal = legal;
  }

  /** The seat's legal moves in `view` ([] when it is not to act there). */
  async fetchLegal(view) {
    const seat = typeof view.you === "number" ? view.you : null;
    if (seat === null || view.status !== "running" || !view.to_act.includes(seat) || !GamePage.active(view, seat)) return [];
    const { moves } = await call("GET", `/games/${encodeURIComponent(this.id)}/legal-moves`, { token: this.token });
    return moves;
  }

  async loadLegal() {
    this.legal = await this.fetchLegal(this.view);
  }

  async loadScore(render = true) {
    try {
      this.score = await call("GET", `/games/${encodeURIComponent(this.id)}/score`, { token: this.token });
      if (render) this.render();
    } catch (error) { this.say(error.message); }
  }

  onEvent(event) {
    if (this.chat.saw(event)) return; // a message, not a move (the chat outlives the game)
    this.events.unshift(event);
    this.eventCount += 1;
    this.events.length = Math.min(this.events.length, LOG_SIZE);
    if (this.rules.onEvent) this.rules.onEvent(event, this.context());
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => this.refresh(), 30);
  }

  /** The view, its legal moves and (once started) the score: any move may change it. */
  async refresh() {
    if (this.loading) { this.dirty = true; return; }
    this.loading = true;
    try {
      do {
        this.dirty = false;
        await this.load();
        if (this.view.status !== "open") await this.loadScore(false);
      } while (this.dirty);
    } catch (error) {
      this.say(error.message);
    } finally {
      this.loading = false;
    }
    this.render();
    this.watchForNextGame();
  }

  async send(move) {
    if (this.busy) return;
    this.busy = true;
    this.say("");
    this.renderFlags();
    try {
      const answer = await postMove(this.id, this.token, move);
      this.ui = {};
      const legal = await this.fetchLegal(answer.game);
      if (answer.game.version >= this.view.version) {
        this.view = answer.game;
        this.legal = legal;
      }
      offerAfterMove(answer.game, this.config);
    } catch (error) {
      this.say(error.message);
      try { await this.load(); } catch { /* shown above */ }
    } finally {
      this.busy = false;
      this.render();
    }
  }

  async join(name) {
    try {
      // With a player key the seat is the player's; an unlisted game needs its invite code.
      const body = this.invite ? { name, invite: this.invite } : { name };
      const joined = await call("POST", `/games/${encodeURIComponent(this.id)}/players`, {
        token: this.player && this.player.key, body,
      });
      this.record = saveSeat(this.config.game, this.id, { seat: joined.seat, token: joined.token, name });
      this.view = joined.game;
      this.render();
    } catch (error) { this.say(error.message); }
  }

  /** The host seats a bot (before the start): the worker plays its turns. */
  async addBot(kind) {
    try {
      await call("POST", `/games/${encodeURIComponent(this.id)}/players`, { token: this.record.host, body: { bot: kind } });
      await this.refresh();
    } catch (error) { this.say(error.message); }
  }

  /** Give up the seat: a bot plays it to the end and the player ranks last. */
  async resign() {
    this.confirmingResign = false;
    try {
      this.view = await call("POST", `/games/${encodeURIComponent(this.id)}/resign`, { token: this.token, body: {} });
      this.legal = [];
      this.say(t("game.resigned"));
    } catch (error) {
      this.say(error.message);
      try { await this.load(); } catch { /* shown above */ }
    }
    this.render();
    const back = document.getElementById("resign-open");
    if (back) back.focus();
  }

  /** The earliest deadline (ms since the epoch) of the seats to act, or null. */
  nextDeadline() {
    const v = this.view;
    if (!v || v.status !== "running") return null;
    const times = v.players.filter((p) => v.to_act.includes(p.seat) && p.deadline).map((p) => Date.parse(p.deadline));
    return times.length ? Math.min(...times) : null;
  }

  /** Refresh the countdown in the status bar (once a second; no re-render). */
  tickClock() {
    const clock = document.getElementById("clock");
    if (!clock) return;
    const deadline = this.nextDeadline();
    clock.hidden = deadline === null;
    const text = deadline === null ? "" : t("game.clock.left", { time: remaining(deadline - Date.now()) });
    if (clock.textContent !== text) clock.textContent = text;
    if (deadline !== null) clock.dataset.deadline = new Date(deadline).toISOString();
    for (const cell of document.querySelectorAll("[data-deadline-of]")) {
      const left = t("game.clock.left", { time: remaining(Date.parse(cell.dataset.deadlineOf) - Date.now()) });
      if (cell.textContent !== left) cell.textContent = left;
    }
  }

  async host(action) {
    const path = `/games/${encodeURIComponent(this.id)}${action === "start" ? "/start" : ""}`;
    try {
      await call(action === "start" ? "POST" : "DELETE", path, { token: this.record.host });
      await this.refresh();
    } catch (error) { this.say(error.message); }
  }

  context() {
    return {
      view: this.view, state: this.view.state, seat: this.seat, myTurn: this.myTurn,
      legal: this.legal, ui: this.ui, busy: this.busy, page: this,
      name: (s) => this.name(s), tag: (s) => this.tag(s),
      send: (move) => this.send(move), say: (t, e) => this.say(t, e),
      update: () => this.render(),
    };
  }

  renderFlags() {
    const body = document.body.dataset;
    body.status = this.view.status;
    body.version = this.view.version;
    body.phase = (this.view.state && this.view.state.phase) || "";
    body.myTurn = String(this.myTurn && !this.busy);
    body.busy = String(this.busy);
    body.seat = this.seat === null ? "" : String(this.seat);
  }

  renderLive() {
    const live = document.getElementById("live");
    if (live) live.textContent = this.live === "ended" || !this.live ? "" : t(`game.live.${this.live}`);
  }

  turnText() {
    const v = this.view;
    if (v.status === "open") {
      const host = Boolean(this.record && this.record.host);
      const seats = t("game.turn.seats", { taken: v.players.length, seats: v.options.players });
      if (v.players.length >= v.options.players) {
        return host ? t("game.turn.full_host", { seats }) : t("game.turn.full", { seats });
      }
      // The view does not say how a game starts: a table this browser made or found says.
      if (this.record && this.record.whenFull) return t("game.turn.waiting_when_full", { seats });
      if (!host) return t("game.turn.waiting_host", { seats });
      return v.players.length >= MIN_PLAYERS
        ? t("game.turn.waiting_start", { seats })
        : t("game.turn.waiting_invite", { seats });
    }
    if (v.status === "cancelled") return t("game.turn.cancelled");
    if (v.status === "finished") {
      const resigned = new Set((v.result.standings || []).filter((s) => s.resigned).map((s) => s.seat));
      const winners = (v.result.winners || []).filter((s) => !resigned.has(s)).map((s) => this.name(s));
      if (!winners.length && resigned.size) return t("game.turn.over_resigned");
      return t("game.turn.over", { count: winners.length, winners: joined(winners) });
    }
    if (this.myTurn) return t("game.turn.yours", { hint: this.rules.hint(this.context()) });
    const who = joined(v.to_act.map((s) => `${this.name(s)} (${LETTERS[s]})`));
    return t("game.turn.waiting_for", { who });
  }

  renderStatus() {
    const status = document.getElementById("status");
    const text = this.turnText();
    if (status.dataset.text !== text) {
      status.dataset.text = text;
      fill(status, h("span", { id: "turn", class: this.myTurn ? "mine" : "" }, text),
        h("span", { class: "status-side" },
          // role=timer is not announced every second; the time is in view in the sticky bar.
          h("span", { id: "clock", class: "clock", role: "timer", "aria-label": t("game.clock.label"), hidden: true }),
          h("span", { id: "live", class: "live" })));
      this.renderLive();
    }
    this.tickClock();
    if (!this.clockTimer) this.clockTimer = setInterval(() => this.tickClock(), 1000);
    status.classList.toggle("mine", this.myTurn);
  }

  renderLinks() {
    const here = `${location.origin}/play?game=${encodeURIComponent(this.id)}`;
    fill(document.getElementById("links"),
      h("a", { href: "/play" }, t("nav.lobby")),
      h("a", { href: this.view.watch_link ? location.origin + this.view.watch_link : `${here}&watch=1`, id: "watch-link" }, t("nav.spectator")),
      h("a", { href: howtoLink(this.id), id: "howto-link" }, t("nav.howto")),
      h("a", { href: leaderboardLink(), id: "leaderboard-link" }, t("nav.leaderboard")));
    // A private table's link carries its invite code: whoever opens it may join.
    if (this.view.visibility === "unlisted") return this.invite ? `${location.origin}${gameLink(this.id, { invite: this.invite })}` : null;
    return here;
  }

  renderSeatPanel(joinLink) {
    const v = this.view;
    const parts = [];
    if (v.status === "open") {
      const unlisted = v.visibility === "unlisted";
      if (joinLink) {
        parts.push(h("div", { class: "share" },
          h("label", { for: "join-link" }, unlisted ? t("game.seat.invite_private") : t("game.seat.invite")),
          h("input", { id: "join-link", readonly: true, value: joinLink, onfocus: (e) => e.target.select() })));
      } else if (this.record && this.record.rematch) {
        // A rematch holds its seats for the last game's players: nobody needs an invite.
        parts.push(h("p", { id: "held-note" }, t("game.seat.held_note")));
      } else if (unlisted) {
        parts.push(h("p", { id: "private-note" }, t("game.seat.private_note")));
      }
      if (this.seat === null && !this.watch) {
        const form = h("form", { id: "join", class: "inline" },
          h("label", { for: "join-name" }, t("game.seat.your_name")),
          h("input", {
            id: "join-name", name: "name", required: true, maxlength: 32, autocomplete: "nickname",
            value: this.player ? this.player.name : null,
          }),
          h("button", { type: "submit", class: "primary" }, t("game.seat.join")));
        form.addEventListener("submit", (event) => {
          event.preventDefault();
          const name = form.elements.name.value.trim();
          if (name) this.join(name);
        });
        parts.push(form);
      }
      if (this.record && this.record.host && v.players.length < v.options.players) {
        const bot = h("form", { id: "add-bot-form", class: "inline" },
          h("label", { for: "bot-kind" }, t("game.seat.bot_label")),
          h("select", { id: "bot-kind", name: "bot" }, BOT_LEVELS.map((level) =>
            h("option", { value: level, selected: level === "greedy" }, t(`game.seat.bot_level.${level}`)))),
          h("button", { type: "submit", id: "add-bot" }, t("game.seat.add_bot")));
        bot.addEventListener("submit", (event) => { event.preventDefault(); this.addBot(bot.elements.bot.value); });
        parts.push(bot);
      }
      if (this.record && this.record.host) {
        parts.push(h("div", { class: "inline" },
          h("button", { type: "button", id: "start-game", class: "primary", onclick: () => this.host("start") }, t("game.seat.start")),
          h("button", { type: "button", id: "cancel-game", class: "quiet", onclick: () => this.host("cancel") }, t("game.seat.cancel"))));
      }
    } else if (this.seat === null) {
      parts.push(h("p", {}, t("game.seat.watching")));
      if (v.next_game) {
        parts.push(h("p", {}, h("a", { href: gameLink(v.next_game, { watch: true }), id: "watch-next" }, t("game.seat.watch_next"))));
      }
    } else if (v.status === "finished") {
      parts.push(h("div", { class: "inline", id: "again" }, v.next_game
        ? [h("p", {}, t("game.seat.next_asked")),
          h("button", { type: "button", id: "next-game", class: "primary", disabled: this.busy, onclick: () => this.playAgain() }, t("game.seat.next_go"))]
        : h("button", { type: "button", id: "play-again", class: "primary", disabled: this.busy, onclick: () => this.playAgain() }, t("game.seat.play_again"))));
    } else if (v.status === "running") {
      const me = v.players.find((p) => p.seat === this.seat);
      if (me && me.status === "active") parts.push(this.renderResign());
      else if (me) parts.push(h("p", { id: "seat-status" }, t("game.seat.status", { status: statusText(me.status) })));
    }
    return parts;
  }

  renderResign() {
    if (!this.confirmingResign) {
      return h("div", { class: "inline" }, h("button", {
        type: "button", id: "resign-open", class: "quiet", "aria-haspopup": "true",
        onclick: () => {
          this.confirmingResign = true; this.render();
          document.getElementById("resign-confirm").focus();
        },
      }, t("game.resign.open")));
    }
    return h("div", { class: "confirm", id: "resign-box", role: "group", "aria-labelledby": "resign-question" },
      h("p", { id: "resign-question" }, t("game.resign.question")),
      h("div", { class: "inline" },
        h("button", { type: "button", id: "resign-confirm", class: "danger", onclick: () => this.resign() }, t("game.resign.confirm")),
        h("button", {
          type: "button", id: "resign-cancel",
          onclick: () => { this.confirmingResign = false; this.render(); document.getElementById("resign-open").focus(); },
        }, t("game.resign.keep"))));
  }

  renderPlayers() {
    const v = this.view;
    return h("section", { class: "panel", "aria-labelledby": "players-title" },
      h("h2", { id: "players-title" }, t("game.players.title")),
      v.options.clock ? h("p", { class: "clock-rule", id: "clock-rule" },
        t("game.players.clock", { seconds: v.options.clock.turn_seconds, timeouts: v.options.clock.max_timeouts })) : null,
      h("ul", { class: "players" }, v.players.map((p) => h("li", { class: v.to_act.includes(p.seat) ? "to-act" : "" },
        this.tag(p.seat), p.seat === this.seat ? t("common.you") : "",
        v.to_act.includes(p.seat) ? h("span", { class: "badge" }, t("game.players.to_act")) : null,
        h("span", { class: `seat-status ${p.status || "active"}`, dataset: { seatStatus: p.status || "active" } },
          p.status && p.status !== "active" ? `${statusText(p.status)}${p.bot ? ` (${t(`game.bot.${p.bot}`)})` : ""}` : t("game.players.active")),
        p.deadline && v.status === "running" && v.to_act.includes(p.seat)
          ? h("span", { class: "deadline", dataset: { deadlineOf: p.deadline }, title: t("game.players.deadline", { time: clockTime(new Date(p.deadline)) }) }, "") : null,
        p.timeouts ? h("span", { class: "timeouts" }, t("game.players.missed", { count: p.timeouts })) : null,
        v.state ? h("div", { class: "details" }, this.rules.playerDetails(this.context(), p.seat)) : null))));
  }

  renderResult() {
    const v = this.view;
    if (v.status !== "finished" || !v.result) return null;
    // A rated game's result says each seat's rating before and after it.
    const rated = new Map((v.result.ratings || []).map((r) => [r.seat, r]));
    return h("section", { class: "panel result", "aria-labelledby": "result-title", id: "result" },
      h("h2", { id: "result-title" }, t("game.result.title")),
      h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("game.result.rank")), h("th", { scope: "col" }, t("board.player")),
        h("th", { scope: "col", class: "num" }, t("game.result.total")), rated.size ? h("th", { scope: "col", class: "num" }, t("board.rating")) : null)),
        h("tbody", {}, v.result.standings.map((s) => h("tr", {},
          // Resigned seats share the last place: they say so rather than show a rank.
          h("td", { dataset: { rank: s.resigned ? "resigned" : String(s.rank) } }, s.resigned ? t("game.result.resigned") : num(s.rank)),
          h("td", {}, this.tag(s.seat)), h("td", { class: "num" }, num(s.total)),
          rated.size ? this.ratingCell(rated.get(s.seat)) : null)))),
      rated.size ? h("p", { class: "hint" }, t("game.result.rating_hint"), " ",
        h("a", { href: leaderboardLink() }, t("nav.leaderboard"))) : null);
  }

  /** "+193" (up or down), with "1000 → 1193" under it and mu ± sigma on hover; a bot's rating is fixed. */
  ratingCell(entry) {
    if (!entry || entry.before.rating === undefined) return h("td", {}); // a result stored before ratings were shown
    const [before, after] = [entry.before.rating, entry.after.rating];
    const detail = `${ratingText(before)} → ${ratingText(after)}`;
    const title = t("game.result.rating_title", {
      before: ratingText(before), before_mu: dec1(entry.before.mu), before_sigma: dec1(entry.before.sigma),
      after: ratingText(after), after_mu: dec1(entry.after.mu), after_sigma: dec1(entry.after.sigma),
    });
    if (entry.bot) return h("td", { class: "num rating-change", title, dataset: { seat: entry.seat } }, ratingText(after), h("span", { class: "spread" }, t("game.result.bot_fixed")));
    const delta = after - before;
    const change = h("span", { class: `delta ${delta >= 0 ? "up" : "down"}` }, changeText(delta));
    return h("td", { class: "num rating-change", title, dataset: { seat: entry.seat, before: String(before), after: String(after) } },
      entry.player ? h("a", { href: profileLink(entry.player), "aria-label": t("game.result.change_label", { name: this.name(entry.seat), change: changeText(delta), detail }) }, change) : change,
      h("span", { class: "spread" }, detail));
  }

  renderLog() {
    const section = h("section", { class: "panel", "aria-labelledby": "log-title" }, h("h2", { id: "log-title" }, t("game.log.title")));
    const ctx = this.context();
    section.append(h("ol", { class: "log", id: "log", reversed: true, start: this.eventCount || null, tabindex: 0, "aria-label": t("game.log.label") },
      this.events.map((e) => h("li", {}, this.describe(e, ctx)))));
    return section;
  }

  describe(event, ctx) {
    const own = this.rules.describe(event, ctx);
    if (own) return own;
    switch (event.type) {
      case "game_created": case "game_started": case "game_cancelled": case "game_finished":
        return t(`event.${event.type}`);
      case "player_joined": return t("event.player_joined", { name: event.name, seat: LETTERS[event.seat], bot: event.bot ? "yes" : "no" });
      case "player_left": return t("event.player_left", { name: event.name });
      case "seat_resigned": case "seat_timed_out": case "seat_abandoned":
        return t(`event.${event.type}`, { name: this.name(event.seat) });
      default: return t("event.other", { type: event.type.replace(/_/g, " ") });
    }
  }

  renderScorePanel(ctx) {
    if (!this.score || !this.score.score || !this.rules.renderScore) return null;
    return h("section", { class: "panel", "aria-labelledby": "score-title", id: "scores" },
      h("h2", { id: "score-title" }, t("game.scores")), this.rules.renderScore(ctx, this.score.score));
  }

  async openReplay() {
    try {
      const log = await call("GET", `/games/${encodeURIComponent(this.id)}/log`, { token: this.token });
      this.replay = { events: log.events, index: log.events.length };
      this.render();
    } catch (error) { this.say(error.message); }
  }

  /** A finished game's step-through, beside the board it steps. */
  renderReplay() {
    return this.replay ? this.renderStepper()
      : h("button", { type: "button", id: "replay-open", onclick: () => this.openReplay() }, t("game.replay.open"));
  }

  renderStepper() {
    const r = this.replay;
    const go = (i) => { r.index = Math.max(0, Math.min(r.events.length, i)); this.render(); };
    const current = r.index > 0 ? this.describe(r.events[r.index - 1], this.context()) : t("game.replay.start");
    return h("div", { class: "stepper" },
      h("div", { class: "inline" },
        h("button", { type: "button", "data-key": "first", onclick: () => go(0) }, t("game.replay.first")),
        h("button", { type: "button", "data-key": "back", onclick: () => go(r.index - 1) }, t("game.replay.back")),
        h("button", { type: "button", "data-key": "next", onclick: () => go(r.index + 1) }, t("game.replay.next")),
        h("button", { type: "button", "data-key": "last", onclick: () => go(r.events.length) }, t("game.replay.last")),
        h("button", { type: "button", "data-key": "close", onclick: () => { this.replay = null; this.render(); } }, t("game.replay.close"))),
      h("label", { for: "replay-range" }, t("game.replay.position", { index: r.index, count: r.events.length })),
      h("input", { type: "range", id: "replay-range", min: 0, max: r.events.length, value: r.index, oninput: (e) => go(Number(e.target.value)) }),
      h("p", { id: "replay-now", "aria-live": "polite" }, current));
  }

  render() {
    this.renderFlags();
    this.renderStatus();
    const joinLink = this.renderLinks();
    const ctx = this.context();
    rerender(this.main, () => {
      const title = h("h1", { class: "sr" }, t("game.heading", { title: this.config.title, id: this.id }));
      const seatParts = this.renderSeatPanel(joinLink);
      const seatPanel = seatParts.length ? h("section", { class: "panel", id: "seat", "aria-label": t("game.seat.label") }, seatParts) : null;
      if (!this.view.state) return [title, h("div", { class: "layout solo" }, h("div", { class: "side" }, seatPanel, this.chat.nodes(), this.renderPlayers()))];
      const boardState = this.replay ? this.rules.replayState(this.replay.events.slice(0, this.replay.index), ctx) : null;
      const board = h("section", { class: "board-area", "aria-label": t("game.board") }, this.rules.renderBoard(ctx, boardState));
      // The controls come next to the board (beside it on a wide screen, right under it
      // on a phone): a move, or the step-through of a finished game.
      const ended = this.view.status === "finished" || this.view.status === "cancelled";
      let controls = null;
      if (this.view.status === "running" && this.seat !== null) {
        controls = h("section", { class: "panel controls", id: "controls", "aria-label": t("game.controls.move") }, this.rules.renderControls(ctx), renderHint(this));
      } else if (ended) {
        controls = h("section", { class: "panel controls", id: "controls", "aria-label": t("game.controls.replay") }, this.renderReplay());
      }
      return [title, h("div", { class: `layout${controls ? " with-controls" : ""}` },
        board, controls,
        h("div", { class: "side" }, seatPanel, this.chat.nodes(), this.renderResult(), renderAnalysis(this), this.renderPlayers(),
          this.rules.renderInfo ? this.rules.renderInfo(ctx) : null, this.renderScorePanel(ctx), this.renderLog()))];
    });
    this.tickClock();
  }
}

export async function showGame(config, gameId, watch, invite = null) {
  const rules = config.game === "manhattan" ? await import("./manhattan.js") : await import("./windcity.js");
  const page = new GamePage(config, gameId, watch, rules, invite);
  window.boardgamesPage = page; // handy in the console
  await page.start();
}
