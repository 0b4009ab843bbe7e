// Live updates by Server-Sent Events. EventSource resumes by itself with Last-Event-ID
// after a dropped stream; when the browser gives up (CLOSED) we reopen from the last id.
import { apiBase, call, watched } from "./api.js";

const TYPES = [
  "game_created", "player_joined", "player_left", "seat_resigned", "seat_timed_out",
  "seat_abandoned", "game_started", "game_cancelled", "game_finished",
  "chat", // a table chat message (chat.js), on the same stream
  // Manhattan
  "pieces_selected", "piece_placed", "card_discarded", "deck_reshuffled", "piece_forfeited",
  "round_scored", "round_started", "game_over",
  // Wind City
  "hurricane_placed", "house_placed", "turn_started", "card_drawn", "plan_made",
  "insurance_market", "insured", "payment", "turn_revealed", "hurricane_moved",
  "house_destroyed", "observatory_taken", "calm_bonus", "kauf", "kauf_void", "bankrupt",
];
const FINAL = new Set(["game_finished", "game_cancelled"]);

// An EventSource cannot send a credential, so it reads as a spectator: refused by a game
// only its players may watch, behind by a spectator delay, without the reader's mutes and
// blocks. A page with a token (a seat, the host, a player) long-polls with it instead.
const POLL_WAIT = 25; // seconds a long-poll waits (the API's most is 30)

/** Follow by long-polls sent with `token` (a seat token or a player key). The first read,
 * and the first after a failed one, does not wait: a good answer shows the page live at
 * once (a quiet game's long-poll answers only after POLL_WAIT seconds). */
function poll(gameId, after, token, { onEvent, onState }) {
  let lastId = String(after);
  let stopped = false;
  let wait = 0;
  const stop = () => { stopped = true; onState("ended"); };
  (async () => {
    while (!stopped) {
      try {
        const query = new URLSearchParams({ after: lastId, wait: String(wait) });
        const page = await call("GET", `/games/${encodeURIComponent(gameId)}/events?${query}`, { token });
        if (stopped) return;
        onState("live");
        wait = POLL_WAIT;
        for (const event of page.events || []) {
          lastId = event.id || lastId;
          onEvent(event);
          if (FINAL.has(event.type)) { stop(); return; }
        }
        if (page.last_id) lastId = page.last_id;
      } catch {
        if (stopped) return;
        onState("reconnecting");
        wait = 0;
        await new Promise((resolve) => setTimeout(resolve, 3000));
      }
    }
  })();
  return { stop, lastId: () => lastId };
}

// A chat message's id is `<version>-<2**32 + j>`: the cursor `v-(2**32 - 1)` is after the
// game's events of version v and before what is said while the game stays at v.
const CHAT_SEQ = 2 ** 32;
const cursor = (after) => (String(after).includes("-") ? String(after) : `${after}-${CHAT_SEQ - 1}`);

/** Follow the events of a game after `after` (an event id or a version); with `token`,
 * by long-polls that carry it. */
export function follow(gameId, after, { onEvent, onState, token = null }) {
  if (token) return poll(gameId, cursor(after), token, { onEvent, onState });
  let lastId = cursor(after);
  let source = null;
  let stopped = false;
  let timer = null;
  const seen = new Set();

  const open = () => {
    const url = apiBase() + watched(`/games/${encodeURIComponent(gameId)}/events?after=${encodeURIComponent(lastId)}`);
    source = new EventSource(url);
    const handle = (message) => {
      if (message.lastEventId) {
        if (seen.has(message.lastEventId)) return;
        seen.add(message.lastEventId);
        lastId = message.lastEventId;
      }
      let event;
      try { event = JSON.parse(message.data); } catch { return; }
      onEvent(event);
      if (FINAL.has(event.type)) stop();
    };
    for (const type of TYPES) source.addEventListener(type, handle);
    source.onmessage = handle;
    source.onopen = () => onState("live");
    source.onerror = () => {
      if (stopped) return;
      if (source.readyState === EventSource.CLOSED) {
        onState("offline");
        timer = setTimeout(open, 3000);
      } else {
        onState("reconnecting");
      }
    };
  };

  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    if (source) source.close();
    onState("ended");
  };

  open();
  return { stop, lastId: () => lastId };
}
