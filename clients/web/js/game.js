// A game page: joining, the host's start, whose turn, the board of the game's module,
// live updates, the final score and a step-through of the finished game.
import { LETTERS, Problem, call, forgetSeat, gameLink, howtoLink, loadPlayer, loadSeat, postMove, saveSeat } from "./api.js";
import { fill, h, rerender } from "./dom.js";
import { t } from "./i18n.js";
import { openChat } from "./chat.js";
import { offerAfterMove } from "./notifications.js";
import { follow } from "./live.js";
import { leaderboardLink } from "./leaderboard.js";
import { renderAnalysis, renderHint } from "./coach.js";
import { seatPanel } from "./gameseat.js";
import { renderStatus, tickClock } from "./gamestatus.js";
import { playersPanel, resultPanel } from "./gameresult.js";
import { describeEvent, logPanel, replayPanel, scorePanel } from "./gamelog.js";

const LOG_SIZE = 40;
const NEXT_GAME_POLL_MS = 3000; // a finished game's page looks for a rematch (its stream has ended)
const NEXT_GAME_POLL_FOR_MS = 10 * 60 * 1000; // as long as a rematch holds the seats
// The bot levels a host may seat, weakest first (the API's `bot` of a join; docs/bots.md).

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

  /** A request failed: tell the player its problem's message (an embed tells its host
   * page too, with the problem's code). */
  fail(error) {
    this.say(error.message);
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
    // The scores come with the first drawing (not a second one a moment later).
    if (this.view.status !== "open") await this.loadScore(false);
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
      this.fail(error);
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
    let token = this.token; // a join while this is in flight makes its answer stale
    let view;
    try {
      view = await call("GET", `/games/${encodeURIComponent(this.id)}`, { token });
    } catch (error) {
      if (error instanceof Problem && error.code === "invalid-token" && this.record && this.record.token) {
        forgetSeat(this.config.game, this.id); // a token of no seat here: watch instead
        this.record = null;
      } else if (error instanceof Problem && (error.status === 401 || error.status === 403) && this.player && this.token === this.player.key) {
        this.player = null; // a player key the service no longer knows: watch instead
      } else {
        throw error;
      }
      token = this.token;
      view = await call("GET", `/games/${encodeURIComponent(this.id)}`, { token });
    }
    const legal = await this.fetchLegal(view);
    if (this.view && this.token !== token) { this.dirty = true; return; } // read as another: again
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
    } catch (error) { this.fail(error); }
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
      this.fail(error);
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
      this.fail(error);
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
    } catch (error) { this.fail(error); }
  }

  /** The host seats a bot (before the start): the worker plays its turns. */
  async addBot(kind) {
    try {
      await call("POST", `/games/${encodeURIComponent(this.id)}/players`, { token: this.record.host, body: { bot: kind } });
      await this.refresh();
    } catch (error) { this.fail(error); }
  }

  /** Give up the seat: a bot plays it to the end and the player ranks last. */
  async resign() {
    this.confirmingResign = false;
    try {
      this.view = await call("POST", `/games/${encodeURIComponent(this.id)}/resign`, { token: this.token, body: {} });
      this.legal = [];
      this.say(t("game.resigned"));
    } catch (error) {
      this.fail(error);
      try { await this.load(); } catch { /* shown above */ }
    }
    this.render();
    const back = document.getElementById("resign-open");
    if (back) back.focus();
  }

  async host(action) {
    const path = `/games/${encodeURIComponent(this.id)}${action === "start" ? "/start" : ""}`;
    try {
      await call(action === "start" ? "POST" : "DELETE", path, { token: this.record.host });
      await this.refresh();
    } catch (error) { this.fail(error); }
  }

  context() {
    return {
      view: this.view, state: this.view.state, seat: this.seat, myTurn: this.myTurn,
      legal: this.legal, ui: this.ui, busy: this.busy, page: this,
      name: (s) => this.name(s), tag: (s) => this.tag(s),
      send: (move) => this.send(move), say: (text) => this.say(text),
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

  renderSeatPanel(joinLink) { return seatPanel(this, joinLink); } // embed.js narrows it

  describe(event, ctx) { return describeEvent(this, event, ctx); }

  render() {
    this.renderFlags();
    renderStatus(this);
    const joinLink = this.renderLinks();
    const ctx = this.context();
    rerender(this.main, () => {
      const title = h("h1", { class: "sr" }, t("game.heading", { title: this.config.title, id: this.id }));
      const seatParts = this.renderSeatPanel(joinLink);
      const seatPanel = seatParts.length ? h("section", { class: "panel", id: "seat", "aria-label": t("game.seat.label") }, seatParts) : null;
      if (!this.view.state) return [title, h("div", { class: "layout solo" }, h("div", { class: "side" }, seatPanel, this.chat.nodes(), playersPanel(this)))];
      const boardState = this.replay ? this.rules.replayState(this.replay.events.slice(0, this.replay.index), ctx) : null;
      const board = h("section", { class: "board-area", "aria-label": t("game.board") }, this.rules.renderBoard(ctx, boardState));
      // The controls come next to the board (beside it on a wide screen, right under it
      // on a phone): a move, or the step-through of a finished game.
      const ended = this.view.status === "finished" || this.view.status === "cancelled";
      let controls = null;
      if (this.view.status === "running" && this.seat !== null) {
        controls = h("section", { class: "panel controls", id: "controls", "aria-label": t("game.controls.move") }, this.rules.renderControls(ctx), renderHint(this));
      } else if (ended) {
        controls = h("section", { class: "panel controls", id: "controls", "aria-label": t("game.controls.replay") }, replayPanel(this));
      }
      return [title, h("div", { class: `layout${controls ? " with-controls" : ""}` },
        board, controls,
        h("div", { class: "side" }, seatPanel, this.chat.nodes(), resultPanel(this), renderAnalysis(this), playersPanel(this),
          this.rules.renderInfo ? this.rules.renderInfo(ctx) : null, scorePanel(this, ctx), logPanel(this)))];
    });
    tickClock(this);
  }
}

export async function showGame(config, gameId, watch, invite = null) {
  const rules = config.game === "manhattan" ? await import("./manhattan.js") : await import("./windcity.js");
  const page = new GamePage(config, gameId, watch, rules, invite);
  window.boardgamesPage = page; // handy in the console
  await page.start();
}
