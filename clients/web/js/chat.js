// The table's chat on a game page: what it holds and what it asks of the API (the
// drawing is chatview.js's). Messages come from GET /games/{id}/chat when the page opens
// and then live from the game's own event stream ({"type": "chat", "message": {...}});
// the canned phrases from GET /chat/phrases in the page's language (the server's one
// declaration of them). Mute, block and report are the API's; a muted seat's or a
// blocked player's messages are also hidden here, since the page's EventSource carries
// no credential to filter them by.
import { Problem, call, loadPlayer, watchedChat } from "./api.js";
import { t } from "./i18n.js";
import { ChatView } from "./chatview.js";

const PAGE = 200; // messages per history request
const AFTER_END_MS = 10 * 60 * 1000; // an ended game's chat is followed this long ("gg")
const WAIT = "25"; // seconds a long-poll of the chat waits (the API's most is 30)
const MUTES = "boardgames:chat-mutes"; // this browser's mutes per game (the server keeps them too)

/** "12-4294967296" -> [12, 4294967296]: message and event ids sort by version, then number. */
const idParts = (id) => String(id).split("-").map(Number);
export function compareIds(a, b) {
  const [x, y] = [idParts(a), idParts(b)];
  return x[0] - y[0] || (x[1] || 0) - (y[1] || 0);
}

/** Who sent a message, as the API's mutes name it: a seat ("2"), or a player without one ("player:<id>"). */
export const senderKey = (m) => (m.seat !== null && m.seat !== undefined ? String(m.seat) : `player:${m.player}`);

function storedMutes(gameId) {
  try { return JSON.parse(localStorage.getItem(`${MUTES}:${gameId}`) || "[]"); } catch { return []; }
}

export class Chat {
  constructor(page) {
    this.page = page;
    this.messages = new Map(); // id -> message
    this.pending = []; // our messages answered without an id (a delayed spectator's), until the stream brings them
    this.muted = new Set(storedMutes(page.id)); // sender keys (senderKey)
    this.blocked = new Set(); // player ids blocked from this page
    this.phrases = []; // [{code, text}] in the page's language
    this.unread = 0;
    this.open = false; // the sheet, on a phone
    this.menu = null; // the message whose actions are shown
    this.reporting = null; // the message being reported
    this.notice = "";
    this.sending = false;
    this.view = new ChatView(this);
  }

  get gameId() { return this.page.id; }
  get path() { return `/games/${encodeURIComponent(this.gameId)}/chat`; }
  get token() { return this.page.token; }
  /** Reads go with the seat's token or player key, else the host's token (a host without a seat). */
  get readToken() { return this.token || (this.page.record && this.page.record.host) || null; }
  /** The credential the API keeps this reader's mutes by (a seat, a player, the host), if
   * any: a session that only watches (a watching embed) mutes in this browser alone. */
  get muteToken() { return this.page.watchingSession ? null : this.readToken; }
  get seat() { return this.page.seat; }
  /** The player this browser acts as (its key blocks players), if any. */
  get player() { return this.page.player || loadPlayer(); }
  /** A seat writes to the players; a player without one to the spectators when the host allows it. */
  get canWrite() {
    const v = this.page.view;
    if (!v || !this.token) return false;
    if (v.status === "cancelled") return false;
    return this.seat !== null || Boolean(this.page.player && v.options && v.options.spectator_chat);
  }

  /** The nodes the game page puts beside its board (the same ones on every render). */
  nodes() { return this.view.nodes(); }

  async start() {
    await Promise.all([this.loadPhrases(), this.loadHistory(), this.loadMutes(), this.loadBlocks()]);
    this.view.update();
    document.body.dataset.chat = "ready"; // its history is in: what comes now is news
    if (this.page.view.status === "finished" || this.page.view.status === "cancelled") this.followAfterEnd();
  }

  /** Every event of the page's stream passes here: a message is the chat's (true); the
   * game's end closes the stream, so its chat is then followed by long-polls. */
  saw(event) {
    if (event.type === "game_finished" || event.type === "game_cancelled") this.followAfterEnd();
    if (event.type !== "chat") return false;
    this.receive(event);
    return true;
  }

  /** GET .../chat?after=&wait= in a loop for a while once the game is over. */
  async followAfterEnd() {
    if (this.following) return;
    this.following = true;
    const ids = [...this.messages.keys()].sort(compareIds);
    let after = ids.length ? ids[ids.length - 1] : "0";
    for (const until = Date.now() + AFTER_END_MS; Date.now() < until;) {
      try {
        const path = `${this.path}?${new URLSearchParams({ after, wait: WAIT, limit: String(PAGE) })}`;
        const page = await call("GET", this.readToken ? path : watchedChat(path), { token: this.readToken });
        for (const message of page.messages || []) this.add(message, true);
        if (page.last_id) after = page.last_id;
        if ((page.messages || []).length) this.view.update();
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 5000));
      }
    }
  }

  /** The reader's mutes in this game (GET .../chat/mutes; a reader without a credential keeps its own). */
  async loadMutes() {
    if (!this.muteToken) return;
    try {
      this.setMutes((await call("GET", `${this.path}/mutes`, { token: this.muteToken })).mutes);
    } catch { /* this browser's list stays */ }
  }

  /** The players this browser's player blocked (the page's stream carries no key to hide them by). */
  async loadBlocks() {
    const me = this.player;
    let cursor = null;
    try {
      for (let page = 0; me && page < 10; page++) {
        const query = new URLSearchParams({ limit: "100", ...(cursor ? { cursor } : {}) });
        const found = await call("GET", `/players/me/blocks?${query}`, { token: me.key });
        for (const block of found.blocks || []) this.blocked.add(block.player);
        if (!(cursor = found.next_cursor)) break;
      }
    } catch { /* none known: the API still hides them where it reads the key */ }
  }

  setMutes(mutes) {
    if (Array.isArray(mutes)) this.muted = new Set(mutes.map(String));
    this.keepMutes();
  }

  async loadPhrases() {
    try {
      this.phrases = (await call("GET", "/chat/phrases")).phrases || [];
    } catch { this.phrases = []; } // the box still works
  }

  /** The history, in pages (resumable by `after`), as this reader may read it. */
  async loadHistory() {
    let after = null;
    try {
      for (;;) {
        const query = new URLSearchParams({ limit: String(PAGE) });
        if (after) query.set("after", after);
        const path = `${this.path}?${query}`; // a spectator of a `link` game reads with its code
        const page = await call("GET", this.readToken ? path : watchedChat(path), { token: this.readToken });
        for (const message of page.messages || []) this.add(message, false);
        if (!page.messages || page.messages.length < PAGE || !page.last_id) break;
        after = page.last_id;
      }
    } catch (error) {
      this.notice = error.message;
    }
  }

  add(message, live) {
    if (!message) return;
    if (!message.id) { // ahead of what we may see: shown last until it comes at its place
      if (this.mine(message)) this.pending.push(message);
      return;
    }
    if (this.mine(message)) this.pending = this.pending.filter((m) => m.at !== message.at);
    const known = this.messages.has(message.id);
    this.messages.set(message.id, message); // a second copy replaces the first (a deletion)
    if (live && !known && !this.mine(message) && !this.hidden(message) && !this.open && this.sheet()) this.unread += 1;
  }

  /** Whether the chat is a sheet behind a button (a phone, style.css): only then are messages unread. */
  sheet() { return window.matchMedia("(max-width: 899px)").matches; }

  /** A chat event of the game's stream. */
  receive(event) {
    this.add(event.message, true);
    this.view.update();
  }

  mine(message) {
    if (this.seat !== null && message.seat === this.seat) return true;
    const me = this.player;
    return Boolean(me && message.player && message.player === me.id && message.seat === null);
  }

  hidden(message) {
    // A seat never reads the spectators while the game runs (that would be ghosting); the
    // page's stream, sent without a credential, carries what any spectator reads.
    const v = this.page.view;
    if (message.channel === "spectators" && this.seat !== null && v && (v.status === "running" || v.status === "open")) return true;
    return this.muted.has(senderKey(message)) || (message.player && this.blocked.has(message.player));
  }

  /** The messages to show, oldest first. */
  shown() {
    const known = [...this.messages.values()].filter((m) => !this.hidden(m)).sort((a, b) => compareIds(a.id, b.id));
    return [...known, ...this.pending];
  }

  /** The name to show for a sender: the seat's current name when it has one. */
  nameOf(message) { return message.name || (message.seat !== null ? this.page.name(message.seat) : ""); }

  /** A canned phrase in the page's language (the message carries the sender's code). */
  phraseText(message) {
    const phrase = this.phrases.find((p) => p.code === message.phrase);
    return phrase ? phrase.text : message.phrase_text || message.phrase;
  }

  setOpen(open) {
    this.open = open;
    if (open) this.unread = 0;
    this.view.update();
  }

  async send(body) {
    if (this.sending) return false;
    this.sending = true;
    this.notice = "";
    try {
      const answer = await call("POST", this.path, { token: this.token, body });
      this.add(answer.message, false);
      return true;
    } catch (error) {
      this.notice = error.message;
      return false;
    } finally {
      this.sending = false;
      this.view.update();
    }
  }

  /** Keep the page's mutes in this browser too: the live stream is not filtered for it. */
  keepMutes() {
    try { localStorage.setItem(`${MUTES}:${this.gameId}`, JSON.stringify([...this.muted])); } catch { /* private mode */ }
  }

  /** Mute (or hear again) a message's sender: the API keeps the reader's mutes; a reader
   * without a credential (a spectator's page) keeps them in this browser. */
  async mute(message, on = true) {
    const key = senderKey(message);
    this.menu = null;
    let mutes = null;
    try {
      if (this.token && this.muteToken) mutes = (await call(on ? "PUT" : "DELETE", `${this.path}/mutes/${encodeURIComponent(key)}`, { token: this.token })).mutes;
    } catch (error) {
      if (!(error instanceof Problem && (error.status === 401 || error.status === 403))) {
        this.notice = error.message;
        this.view.update();
        return;
      }
    }
    if (on) this.muted.add(key); else this.muted.delete(key);
    this.setMutes(mutes);
    this.notice = t(on ? "chat.muted" : "chat.unmuted", { name: this.nameOf(message) });
    if (!on) await this.loadHistory(); // the API left the sender's messages out of what it sent
    this.view.update();
  }

  /** The messages of muted senders, one per sender (to unmute them). */
  mutedSenders() {
    const out = new Map();
    for (const m of [...this.messages.values()].sort((a, b) => compareIds(b.id, a.id))) {
      const key = senderKey(m);
      if (this.muted.has(key) && !out.has(key)) out.set(key, m);
    }
    // a mute whose sender said nothing this page holds (the API leaves a muted sender's
    // messages out of what it sends): named by its seat, else a spectator's id
    for (const key of this.muted) {
      if (out.has(key)) continue;
      const seat = /^\d+$/.test(key) ? Number(key) : null;
      out.set(key, { seat, player: seat === null ? key.replace(/^player:/, "") : null, name: seat === null ? key.replace(/^player:/, "") : "" });
    }
    return [...out.values()];
  }

  async block(message) {
    const me = this.player;
    this.menu = null;
    if (!me || !message.player) return;
    try {
      await call("PUT", `/players/me/blocks/${encodeURIComponent(message.player)}`, { token: me.key });
      this.blocked.add(message.player);
      this.notice = t("chat.blocked", { name: this.nameOf(message) });
    } catch (error) { this.notice = error.message; }
    this.view.update();
  }

  async report(message, reason, note) {
    const body = note ? { reason, note } : { reason };
    try {
      // With the player's key when there is one: the report is then the player's (its export).
      const token = (this.player && this.player.key) || this.token;
      await call("POST", `${this.path}/${encodeURIComponent(message.id)}/report`, { token, body });
      this.reporting = null;
      this.menu = null;
      this.notice = t("chat.reported");
    } catch (error) { this.notice = error.message; }
    this.view.update();
  }
}

/** The chat of a game page (`page` is game.js's GamePage); its history loads meanwhile. */
export function openChat(page) {
  const chat = new Chat(page);
  chat.start();
  return chat;
}
