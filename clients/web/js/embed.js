// The embed mode (GET /embed?t=<link>): a platform's page frames one seat (or a
// spectator's view) of one game. The page exchanges its one-use link for a session
// (POST /embed/session), shows the game page without lobby, header or links, and tells
// the host page what happens by postMessage: ready, your_turn, moved, game_over,
// height, error. The host may send set_language and set_theme. Every message goes to,
// and is taken from, only the origins the platform's API key allows (frame_origins).
import { isLanguage, loadLanguage, t } from "./i18n.js";
import { Problem, call, setBase } from "./api.js";
import { fill, h } from "./dom.js";
import { GamePage } from "./game.js";

const SOURCE = "boardgames"; // every message carries it, both ways
// The theme's names and the custom properties of style.css / embed.css they set.
const THEME = { bg: "--paper", fg: "--ink", accent: "--accent", panel: "--panel", font: "--font", radius: "--radius" };
const THEME_VALUE = /^(?!.*url\s*\()[#A-Za-z0-9 ,.%()'"-]{1,80}$/i; // as the service checks a link's theme
const REFRESH_EARLY_MS = 60 * 1000;
const REFRESH_RETRY_MS = [2000, 6000]; // a failed renewal is tried again after these
const REFRESH_FAILED = "embed-session-refresh-failed"; // the host's error when a renewal fails

let origins = [];
let page = null;

/** Tell the host page (on each allowed origin; a frame of any other gets nothing). */
export function post(type, data = {}) {
  if (window.parent === window) return;
  for (const origin of origins) window.parent.postMessage({ source: SOURCE, type, ...data }, origin);
}

export function applyTheme(theme) {
  const root = document.documentElement.style;
  for (const [name, value] of Object.entries(theme || {})) {
    if (Object.hasOwn(THEME, name) && typeof value === "string" && THEME_VALUE.test(value)) root.setProperty(THEME[name], value);
  }
}

/** The link's language, read from its (unverified) payload: only for the page's words. */
function linkLanguage(token) {
  try {
    const body = token.slice(4).split(".")[0].replace(/-/g, "+").replace(/_/g, "/");
    const lang = JSON.parse(atob(body)).lang;
    return isLanguage(lang) ? lang : undefined;
  } catch { return undefined; }
}

/** Links out of the platform's page (the leaderboard, a profile, the lobby) as plain
 * text: nothing to click, nor to reach with the keyboard (a frame of our pages is refused). */
function unlink(root) {
  for (const a of root.querySelectorAll("a[href]")) a.removeAttribute("href");
}

/** The game page, embedded: no links out, no lobby, no rematch; it reports to the host. */
class EmbedPage extends GamePage {
  constructor(config, session, rules) {
    super(config, session.game_id, session.mode === "watch", rules, null);
    this.session = session;
    this.player = null; // never a key this browser may hold for the service's own pages
    this.record = session.mode === "watch" ? null : { token: session.credential };
    this.reported = { ready: false, version: null, game: null, turn: false, over: false };
    this.moveSent = false; // a move of the seat on its way (send), until the render after it
  }

  /** The session reads and acts, a watching one too (an anonymous read is refused by a
   * game whose spectators need its watch link, which the signed link stands for). */
  get token() { return this.session ? this.session.credential : null; }
  /** A watching session reads as a spectator: nobody it could mute as (chat.js). */
  get watchingSession() { return Boolean(this.session && this.session.mode === "watch"); }

  renderLinks() { return null; }

  async start() {
    await super.start();
    if (!this.view) { // the game could not be read: the page says why; the host hears it too
      unlink(this.main);
      const problem = this.main.querySelector(".problem");
      const message = problem ? problem.textContent : t("page.embed_refused");
      post("error", { code: "embed-game-unavailable", message });
    }
  }

  renderSeatPanel(joinLink) {
    // A finished game's "play again" would lead out of the platform's page.
    if (this.view.status === "finished") return [];
    return super.renderSeatPanel(joinLink);
  }

  /** A request failed: tell the player, and the host page with the problem's code
   * (`error` when it has none: no answer). The page's own hints (why a lot cannot be
   * built on, whose turn it is) are the player's alone. */
  fail(error) {
    this.moveSent = false; // (a move refused, or its answer lost: no turn of ours restarts)
    super.fail(error);
    post("error", { code: error.code || "error", message: error.message });
  }

  /** The seat's move: once it went through, a turn of ours starts again if the seat is
   * still to act (report). */
  send(move) {
    if (!this.busy) this.moveSent = true;
    return super.send(move);
  }

  render() {
    super.render();
    unlink(this.main);
    this.report();
  }

  /**
   * ready (once), moved (each newer version whose game differs: its status, who acts or
   * its state; not a hint counted or a seat taken), your_turn (each time a turn of ours
   * starts: we are to act and were not, or are again after our move, as the service's
   * your_turn of a player's webhook), game_over (once, with the public result).
   */
  report() {
    const v = this.view;
    const seen = this.reported;
    if (!seen.ready) {
      seen.ready = true;
      post("ready", { game_id: this.id, seat: this.seat, mode: this.session.mode, status: v.status, version: v.version });
    }
    const game = JSON.stringify([v.status, v.to_act, v.state]);
    if (seen.version === null || v.version > seen.version) {
      if (seen.version !== null && game !== seen.game) post("moved", { version: v.version, status: v.status, to_act: v.to_act });
      seen.version = v.version;
      seen.game = game;
    }
    const again = this.moveSent && !this.busy; // (the render after our move went through)
    if (this.myTurn && !this.busy && (!seen.turn || again)) post("your_turn", { version: v.version });
    if (!this.busy) this.moveSent = false;
    seen.turn = this.myTurn;
    if (v.status === "finished" && !seen.over && this.score && this.score.status === "finished") {
      seen.over = true;
      post("game_over", { result: this.score.result, version: v.version });
    }
  }

  /** A fresh session before this one ends, while the game goes on. */
  keepFresh(expiresAt) {
    const wait = Math.max(5000, Date.parse(expiresAt) - Date.now() - REFRESH_EARLY_MS);
    clearTimeout(this.refreshSession);
    this.refreshSession = setTimeout(() => this.renew(expiresAt, 0), wait);
  }

  /** Renew the session (ending at `expiresAt`). A failure that may pass (no answer, a
   * 5xx, a 429) is tried again after each of REFRESH_RETRY_MS while the session lasts;
   * only then, or at once on a refusal, the player and the host are told. */
  async renew(expiresAt, attempt) {
    if (this.view && (this.view.status === "finished" || this.view.status === "cancelled")) return;
    try {
      const fresh = await call("POST", "/embed/session/refresh", { token: this.session.credential });
      this.session = { ...this.session, credential: fresh.credential };
      if (this.record) this.record.token = fresh.credential;
      this.keepFresh(fresh.expires_at);
    } catch (error) {
      const delay = REFRESH_RETRY_MS[attempt];
      const passing = error.status === 0 || error.status >= 500 || error.status === 429;
      if (passing && delay !== undefined && Date.now() + delay < Date.parse(expiresAt)) {
        this.refreshSession = setTimeout(() => this.renew(expiresAt, attempt + 1), delay);
        return;
      }
      this.fail({ message: t("page.embed_refresh_failed", { reason: error.message }), code: REFRESH_FAILED });
    }
  }
}

/** Commands of the host page: set_language, set_theme (from an allowed origin only). */
function listen() {
  window.addEventListener("message", async (event) => {
    if (event.source !== window.parent || !origins.includes(event.origin)) return;
    const data = event.data || {};
    if (data.source !== SOURCE) return;
    if (data.type === "set_theme") applyTheme(data.theme);
    if (data.type === "set_language" && isLanguage(data.language)) {
      await loadLanguage(data.language);
      if (page && page.view) page.render();
    }
  });
}

/** The height of the page, whenever it changes, so the host sizes the frame. */
function reportHeight() {
  let last = 0;
  const send = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== last) { last = height; post("height", { height }); }
  };
  new ResizeObserver(send).observe(document.documentElement);
  send();
}

function refused(message, code) {
  const main = document.getElementById("main");
  fill(main, h("section", { class: "panel embed-refused", id: "refused", dataset: { code } },
    h("h1", {}, t("page.embed_refused")), h("p", {}, message)));
  post("error", { code, message });
}

async function main() {
  const token = new URLSearchParams(location.search).get("t") || "";
  await loadLanguage(linkLanguage(token));
  setBase("");
  let session;
  try {
    session = await call("POST", "/embed/session", { body: { token } });
  } catch (error) {
    refused(error.message, error instanceof Problem ? error.code : "error");
    return;
  }
  origins = session.frame_origins;
  if (session.language !== undefined) await loadLanguage(session.language);
  applyTheme(session.theme);
  listen();
  reportHeight();
  const config = await fetch("/play/config.json").then((r) => r.json());
  config.title = t(`games.${config.game}`);
  document.body.dataset.game = config.game;
  document.title = t("page.title.game", { title: config.title, id: session.game_id });
  const rules = config.game === "manhattan" ? await import("./manhattan.js") : await import("./windcity.js");
  page = new EmbedPage(config, session, rules);
  window.boardgamesPage = page;
  page.keepFresh(session.expires_at);
  await page.start();
}

main().catch((error) => {
  refused(error.message, "error");
});
