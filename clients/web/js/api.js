// The public HTTP API, nothing else: fetch for requests, problem+json for errors.
import { has, language, t } from "./i18n.js";

export const LETTERS = ["A", "B", "C", "D", "E"];

/** "clock.turn_seconds: Must be 10..1209600." for each field of a validation problem. */
function fieldMessages(errors, path = []) {
  const out = [];
  for (const [key, value] of Object.entries(errors || {})) {
    const at = key === "json" || key === "_schema" ? path : [...path, key];
    if (Array.isArray(value)) out.push(`${at.join(".") || t("problem.request")}: ${value.map(String).join(" ")}`);
    else if (value && typeof value === "object") out.push(...fieldMessages(value, at));
  }
  return out;
}

/**
 * The words for a problem: the server's own when it answered in the page's language
 * (`Content-Language`; the API speaks English by default), else the catalog's message
 * for its `code` (problem.<code>), else whatever the server said.
 */
function problemMessage(status, body, answerLanguage) {
  const code = body && body.code;
  const sameLanguage = answerLanguage !== null && answerLanguage.split("-")[0].toLowerCase() === language();
  const fields = code === "validation-error" ? fieldMessages(body.errors) : [];
  const server = fields.length ? fields.join(" ") : body && (body.detail || body.title);
  if (sameLanguage && server) return server;
  if (code && has(`problem.${code}`)) return t(`problem.${code}`);
  return server || t("problem.http", { status: String(status) });
}

/**
 * An API error: the server's problem document (or a network failure, status 0). A
 * validation problem's message names each refused field and says why (its `errors`).
 */
export class Problem extends Error {
  constructor(status, body, answerLanguage = null) {
    super(problemMessage(status, body, answerLanguage));
    this.status = status;
    this.code = (body && body.code) || "error";
    this.body = body || {};
  }
}

let base = "";
export const setBase = (url) => { base = url.replace(/\/$/, ""); };
export const apiBase = () => base;

// A spectator's watch code (`/play?game=<id>&watch=<code>`): the reads a spectator makes
// (view, score, log, events) carry it as `watch=<code>`, as a `link` game needs.
let watchCode = null;
export const setWatchCode = (code) => { watchCode = code || null; };
/** `path` with the page's watch code, if any. */
export function watched(path) {
  if (!watchCode || !/^\/games\/[^/?]+(\/(score|log|events))?(\?|$)/.test(path)) return path;
  return `${path}${path.includes("?") ? "&" : "?"}watch=${encodeURIComponent(watchCode)}`;
}

function randomKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** One request; JSON in and out; throws a Problem for any error answer. */
export async function call(method, path, { token, body, headers = {} } = {}) {
  const init = { method, headers: { Accept: "application/json", "Accept-Language": language(), ...headers } };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(base + (method === "GET" ? watched(path) : path), init);
  } catch {
    throw new Problem(0, { code: "network-error" });
  }
  if (response.status === 304) return null;
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  // A seat's or the host's view of a `link` game carries its watch link: the page's
  // reads without a token (its event stream) carry the code from then on.
  const link = data && !watchCode && (data.watch_link || (data.game && data.game.watch_link));
  if (link) setWatchCode(new URLSearchParams(link.split("?")[1]).get("watch"));
  if (!response.ok) {
    // Without a Content-Language the API answered in its default, English.
    const spoken = response.headers.get("Content-Language") || (data && data.code ? "en" : null);
    throw new Problem(response.status, data || { detail: response.statusText }, spoken);
  }
  return data;
}

/**
 * Post a move with an Idempotency-Key, retried with the same key after a network
 * failure or a 503: a move the server acknowledged is applied once, never lost.
 */
export async function postMove(gameId, token, move) {
  const key = randomKey();
  for (let attempt = 0; ; attempt++) {
    try {
      return await call("POST", `/games/${gameId}/moves`, {
        token, body: move, headers: { "Idempotency-Key": key },
      });
    } catch (error) {
      const retry = error.status === 0 || error.status === 503 || error.code === "version-conflict";
      if (!retry || attempt >= 3) throw error;
      await new Promise((r) => setTimeout(r, 300 * (attempt + 1)));
    }
  }
}

// Seats kept in the browser, per game service and game id.
const storeKey = (game, id) => `boardgames:${game}:${id}`;

export function loadSeat(game, id) {
  try { return JSON.parse(localStorage.getItem(storeKey(game, id)) || "null"); } catch { return null; }
}

export function saveSeat(game, id, record) {
  const merged = { ...(loadSeat(game, id) || {}), ...record, saved: Date.now() };
  try { localStorage.setItem(storeKey(game, id), JSON.stringify(merged)); } catch { /* private mode */ }
  return merged;
}

export function forgetSeat(game, id) {
  try { localStorage.removeItem(storeKey(game, id)); } catch { /* private mode */ }
}

/** Every game of this service this browser holds a token for, newest first. */
export function mySeats(game) {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key.startsWith(`boardgames:${game}:`)) continue;
      out.push({ id: key.split(":")[2], ...JSON.parse(localStorage.getItem(key)) });
    }
  } catch { /* private mode */ }
  return out.sort((a, b) => (b.saved || 0) - (a.saved || 0));
}

// The player (POST /players) this browser acts as, if any: its id, name and key. One per
// origin, beside the seat tokens; the key is sent as bearer where a seat token goes.
const PLAYER_KEY = "boardgames:player";

export function loadPlayer() {
  try {
    const player = JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
    return player && typeof player.key === "string" ? player : null;
  } catch { return null; }
}

export function savePlayer(player) {
  const record = { id: player.id, name: player.name, key: player.key };
  try { localStorage.setItem(PLAYER_KEY, JSON.stringify(record)); } catch { /* private mode */ }
  return record;
}

export function forgetPlayer() {
  try { localStorage.removeItem(PLAYER_KEY); } catch { /* private mode */ }
}

/** The page's own link to a game (`invite`: the code an unlisted game needs to join). */
export function gameLink(id, { watch = false, invite = null } = {}) {
  const query = new URLSearchParams({ game: id });
  if (watch) query.set("watch", "1");
  if (invite) query.set("invite", invite);
  return `/play?${query}`;
}

/** The tournaments of this service, newest first; one tournament's page. */
export const tournamentsLink = () => "/play?tournaments=1";
export const tournamentLink = (id) => `/play?${new URLSearchParams({ tournament: id })}`;

/** The page explaining this service's game ("How to play"). */
export const howtoLink = (from = null) => (from ? `/play?${new URLSearchParams({ howto: "1", back: from })}` : "/play?howto=1");

/** A game's chat `path` with the page's watch code, if any (as `watched` adds it to the
 * view, score, log and events): a `link` game's spectators read its chat with it. */
export function watchedChat(path) {
  return watchCode ? `${path}${path.includes("?") ? "&" : "?"}watch=${encodeURIComponent(watchCode)}` : path;
}
