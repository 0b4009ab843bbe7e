// The lobby: open and running games, a creation form, and this browser's own games;
// with a player (POST /players, its key kept in localStorage): "My games" with their
// your-turn badges and a quick match.
import { apiBase, call, gameLink, loadPlayer, loadSeat, mySeats, saveSeat, savePlayer } from "./api.js";
import { h } from "./dom.js";
import { leaderboardLink } from "./leaderboard.js";

const OPTIONS = {
  manhattan: {
    players: [2, 4, 2],
    fields: [
      { name: "six_rounds", label: "Six rounds of 4 pieces (good with 3 players)", kind: "bool" },
      { name: "promo_cards", label: "Promotion cards", kind: "bool" },
    ],
  },
  windcity: {
    players: [2, 5, 2],
    fields: [
      {
        name: "play_area", label: "Play area", kind: "choice",
        choices: [["used_sections", "Sections in use"], ["full", "Full board (24 rows)"]],
      },
      { name: "score_money", label: "Money counts as points", kind: "bool", checked: true },
      { name: "max_turns", label: "Safety stop after turns", kind: "int", min: 10, max: 1000, value: 100 },
    ],
  },
};

// The turn clock's range as documented by the service (its OpenAPI document refines it).
const CLOCK_RANGE = { turn_seconds: [10, 1209600], max_timeouts: [1, 10] };

/** Follow `$ref`s (and a single `allOf`) of the OpenAPI document `spec`. */
function resolve(spec, schema) {
  for (let i = 0; schema && i < 10; i++) {
    if (schema.$ref) schema = schema.$ref.split("/").slice(1).reduce((at, key) => at && at[key], spec);
    else if (schema.allOf && schema.allOf.length === 1) schema = schema.allOf[0];
    else return schema;
  }
  return schema;
}

/** Set the clock fields' min and max from the create body's schema in /openapi.json. */
async function clockRange(form) {
  let spec;
  try { spec = await fetch(`${apiBase()}/openapi.json`).then((r) => (r.ok ? r.json() : null)); } catch { return; }
  const post = spec && spec.paths && spec.paths["/games"] && spec.paths["/games"].post;
  const body = post && post.requestBody && post.requestBody.content && post.requestBody.content["application/json"];
  const create = resolve(spec, body && body.schema);
  const clock = resolve(spec, create && create.properties && create.properties.clock);
  for (const name of Object.keys(CLOCK_RANGE)) {
    const field = resolve(spec, clock && clock.properties && clock.properties[name]);
    const input = form.querySelector(`#opt-${name}`);
    if (!field || !input) continue;
    if (Number.isInteger(field.minimum)) input.min = String(field.minimum);
    if (Number.isInteger(field.maximum)) input.max = String(field.maximum);
  }
}

/** A validation problem's messages by field name: {"clock": {"turn_seconds": [..]}} -> turn_seconds: [..]. */
function fieldErrors(errors, out = {}, path = []) {
  for (const [key, value] of Object.entries(errors || {})) {
    if (Array.isArray(value)) out[key === "_schema" ? path.join(".") : key] = { path: [...path, key].join("."), messages: value.map(String) };
    else if (value && typeof value === "object") fieldErrors(value, out, key === "json" ? path : [...path, key]);
  }
  return out;
}

/** Show `messages` under the field `input` (or clear them with []). */
function markField(input, messages) {
  const id = `${input.id}-error`;
  let note = document.getElementById(id);
  if (!messages.length) {
    if (note) note.remove();
    input.removeAttribute("aria-invalid");
    input.setAttribute("aria-describedby", (input.getAttribute("aria-describedby") || "").replace(id, "").trim());
    if (!input.getAttribute("aria-describedby")) input.removeAttribute("aria-describedby");
    return;
  }
  if (!note) {
    note = h("p", { id, class: "field-error" });
    input.insertAdjacentElement("afterend", note);
  }
  note.textContent = messages.join(" ");
  input.setAttribute("aria-invalid", "true");
  const described = (input.getAttribute("aria-describedby") || "").split(" ").filter(Boolean);
  if (!described.includes(id)) input.setAttribute("aria-describedby", [...described, id].join(" "));
}

function field(spec) {
  const id = `opt-${spec.name}`;
  if (spec.kind === "bool") {
    return h("div", { class: "field check" },
      h("input", { type: "checkbox", id, name: spec.name, checked: spec.checked }),
      h("label", { for: id }, spec.label));
  }
  if (spec.kind === "choice") {
    return h("div", { class: "field" }, h("label", { for: id }, spec.label),
      h("select", { id, name: spec.name },
        spec.choices.map(([value, text]) => h("option", { value }, text))));
  }
  return h("div", { class: "field" }, h("label", { for: id }, spec.label),
    h("input", { type: "number", id, name: spec.name, min: spec.min, max: spec.max, value: spec.value, required: true }));
}

function createForm(config, say, player) {
  const spec = OPTIONS[config.game];
  const [low, high, initial] = spec.players;
  const players = [];
  for (let n = low; n <= high; n++) players.push(h("option", { value: n, selected: n === initial }, String(n)));
  const form = h("form", { id: "create", class: "card-panel", "aria-labelledby": "create-title" },
    h("h2", { id: "create-title" }, "New game"),
    h("div", { class: "field" }, h("label", { for: "opt-players" }, "Players"),
      h("select", { id: "opt-players", name: "players" }, players)),
    spec.fields.map(field),
    h("div", { class: "field" }, h("label", { for: "host-name" }, "Your name (joins the first seat)"),
      h("input", {
        id: "host-name", name: "name", maxlength: 32, autocomplete: "nickname", placeholder: "leave empty to only host",
        value: player ? player.name : null,
      })),
    h("div", { class: "field" }, h("label", { for: "opt-visibility" }, "Table"),
      h("select", { id: "opt-visibility", name: "visibility" },
        h("option", { value: "public" }, "Public: listed in the lobby"),
        h("option", { value: "unlisted" }, "Private: only with the invite link"))),
    h("div", { class: "field check" },
      h("input", { type: "checkbox", id: "opt-start", name: "start" }),
      h("label", { for: "opt-start" }, "Start as soon as every seat is taken")),
    h("fieldset", { id: "clock-options" }, h("legend", {}, "Turn clock"),
      h("div", { class: "field check" },
        h("input", { type: "checkbox", id: "opt-clock", name: "clock" }),
        h("label", { for: "opt-clock" }, "Limit the time per turn (a bot moves for a late player)")),
      h("div", { class: "field" }, h("label", { for: "opt-turn_seconds" }, "Seconds per turn"),
        h("input", {
          type: "number", id: "opt-turn_seconds", name: "turn_seconds", min: CLOCK_RANGE.turn_seconds[0],
          max: CLOCK_RANGE.turn_seconds[1], value: 120, inputmode: "numeric", required: true, disabled: true,
        })),
      h("div", { class: "field" }, h("label", { for: "opt-max_timeouts" }, "Missed turns in a row before a bot takes the seat"),
        h("input", {
          type: "number", id: "opt-max_timeouts", name: "max_timeouts", min: CLOCK_RANGE.max_timeouts[0],
          max: CLOCK_RANGE.max_timeouts[1], value: 3, inputmode: "numeric", required: true, disabled: true,
        }))),
    h("details", {}, h("summary", {}, "Advanced"),
      h("div", { class: "field" }, h("label", { for: "opt-seed" }, "Seed (replays the same deal)"),
        h("input", { id: "opt-seed", name: "seed", type: "number", min: 0, inputmode: "numeric" }))),
    h("button", { type: "submit", class: "primary", id: "create-game" }, "Create game"));
  // The clock's fields count (and are checked) only with the clock on.
  const clockBox = form.querySelector("#opt-clock");
  clockBox.addEventListener("change", () => {
    for (const name of Object.keys(CLOCK_RANGE)) form.querySelector(`#opt-${name}`).disabled = !clockBox.checked;
  });
  clockRange(form);
  form.addEventListener("input", (event) => { if (event.target.id) markField(event.target, []); });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    say("");
    const data = new FormData(form);
    const options = { players: Number(data.get("players")) };
    for (const f of spec.fields) {
      if (f.kind === "bool") options[f.name] = data.get(f.name) === "on";
      else if (f.kind === "int") options[f.name] = Number(data.get(f.name));
      else options[f.name] = data.get(f.name);
    }
    if (data.get("seed") !== "") options.seed = Number(data.get("seed"));
    if (data.get("visibility") === "unlisted") options.visibility = "unlisted";
    if (data.get("start") === "on") options.start = "when_full";
    if (data.get("clock") === "on") {
      options.clock = { turn_seconds: Number(data.get("turn_seconds")), max_timeouts: Number(data.get("max_timeouts")) };
    }
    const name = String(data.get("name") || "").trim();
    form.querySelector("button[type=submit]").disabled = true;
    try {
      const created = await call("POST", "/games", { body: options });
      const invite = created.invite_code || null; // an unlisted game's: only shown here
      const hosted = { host: created.host_token };
      if (invite) hosted.invite = invite;
      if (options.start) hosted.whenFull = true;
      saveSeat(config.game, created.id, hosted);
      if (name) {
        // With a player key the seat is the player's (the seat token is kept as well).
        const body = invite ? { name, invite } : { name };
        const joined = await call("POST", `/games/${created.id}/players`, { token: player && player.key, body });
        saveSeat(config.game, created.id, { seat: joined.seat, token: joined.token, name });
      }
      location.assign(gameLink(created.id));
    } catch (error) {
      // A refused field: its own message, next to it (not "see `errors`").
      const byField = error.code === "validation-error" ? fieldErrors(error.body.errors) : {};
      const lines = [];
      let first = null;
      for (const [name, { path, messages }] of Object.entries(byField)) {
        const input = form.querySelector(`#opt-${CSS.escape(name)}`) || (name === "name" ? form.querySelector("#host-name") : null);
        const label = input && input.labels && input.labels[0] ? input.labels[0].textContent : path;
        if (input) { markField(input, messages); first = first || input; }
        lines.push(`${label}: ${messages.join(" ")}`);
      }
      if (first) first.focus();
      say(lines.length ? lines.join(" ") : error.message);
      form.querySelector("button[type=submit]").disabled = false;
    }
  });
  return form;
}

function gameRow(config, summary) {
  const mine = loadSeat(config.game, summary.id);
  const names = summary.players.map((p) => (p.bot && p.status === "bot" ? `${p.name} (bot)` : p.name)).join(", ") || "nobody yet";
  const seats = `${summary.players.length} of ${summary.options.players} seats`;
  const open = summary.status === "open";
  return h("li", { class: "game-row", dataset: { id: summary.id } },
    h("span", { class: "game-id" }, summary.id),
    h("span", {}, open ? `${seats}: ${names}` : `${names}`),
    h("span", { class: "row-links" },
      h("a", { href: gameLink(summary.id), class: "button" },
        mine && mine.token ? "Resume" : open ? "Join" : "Open",
        h("span", { class: "sr" }, ` game ${summary.id}`)),
      h("a", { href: gameLink(summary.id, { watch: true }), class: "button quiet" }, "Watch",
        h("span", { class: "sr" }, ` game ${summary.id}`))));
}

async function listSection(config, status, title) {
  const section = h("section", { class: "card-panel", "aria-labelledby": `list-${status}` },
    h("h2", { id: `list-${status}` }, title));
  try {
    const { games } = await call("GET", `/games?status=${status}&limit=20`);
    section.append(games.length
      ? h("ul", { class: "games", id: `games-${status}` }, games.map((g) => gameRow(config, g)))
      : h("p", {}, status === "open" ? "No open game: create one." : "None right now."));
  } catch (error) {
    section.append(h("p", { class: "problem" }, error.message));
  }
  return section;
}

const STATUS_WORDS = { open: "waiting for players", running: "being played", finished: "finished", cancelled: "cancelled" };

/** Without a player: a name creates one (POST /players) and keeps its key here. */
function playerForm(config, say) {
  const form = h("form", { id: "player-form", class: "card-panel", "aria-labelledby": "player-title" },
    h("h2", { id: "player-title" }, "Your player"),
    h("p", {}, "A player keeps your games together in this browser: “My games” shows where it is your turn, " +
      "quick match finds you a table and “Play again” keeps the table together. No password: the key stays in this browser."),
    h("div", { class: "inline" },
      h("label", { for: "player-name" }, "Name"),
      h("input", { id: "player-name", name: "name", required: true, maxlength: 32, autocomplete: "nickname" }),
      h("button", { type: "submit", class: "primary", id: "create-player" }, "Create player")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    say("");
    const name = form.elements.name.value.trim();
    if (!name) return;
    form.querySelector("button[type=submit]").disabled = true;
    try {
      savePlayer(await call("POST", "/players", { body: { name } }));
      await showLobby(config);
      say("");
    } catch (error) {
      say(error.message);
      form.querySelector("button[type=submit]").disabled = false;
    }
  });
  return form;
}

/** The player's games in this service (GET /players/me/games), newest activity first. */
async function myGames(config, player) {
  const section = h("section", { class: "card-panel", "aria-labelledby": "my-games-title", id: "my-games-panel" },
    h("h2", { id: "my-games-title" }, `My games (${player.name})`));
  let games;
  try {
    ({ games } = await call("GET", "/players/me/games?limit=20", { token: player.key }));
  } catch (error) {
    section.append(h("p", { class: "problem" }, error.message));
    return section;
  }
  if (!games.length) {
    section.append(h("p", {}, "None yet: create a game, join one or try a quick match."));
    return section;
  }
  section.append(h("ul", { class: "games", id: "my-games" }, games.map((g) => {
    const others = g.players.map((p) => (p.bot ? `${p.name} (bot)` : p.name)).join(", ") || "nobody else yet";
    return h("li", { class: `game-row${g.my_turn ? " my-turn" : ""}`, dataset: { id: g.id, myTurn: String(g.my_turn) } },
      h("span", { class: "game-id" }, g.id),
      g.my_turn ? h("span", { class: "badge turn-badge" }, "Your turn") : null,
      h("span", {}, `${STATUS_WORDS[g.status] || g.status}, with ${others}`),
      h("span", { class: "row-links" },
        h("a", { href: gameLink(g.id), class: "button" }, g.my_turn ? "Play" : "Open",
          h("span", { class: "sr" }, ` game ${g.id}`))));
  })));
  return section;
}

/** POST /matches: a seat at the oldest open public table with these options, or a new one. */
function quickMatch(config, say, player) {
  const spec = OPTIONS[config.game];
  const [low, high, initial] = spec.players;
  const players = [];
  for (let n = low; n <= high; n++) players.push(h("option", { value: n, selected: n === initial }, String(n)));
  const form = h("form", { id: "quick", class: "card-panel", "aria-labelledby": "quick-title" },
    h("h2", { id: "quick-title" }, "Quick match"),
    h("p", {}, "A seat at a table of people who asked for the same: the game starts once it is full."),
    h("div", { class: "field" }, h("label", { for: "quick-players" }, "Players"),
      h("select", { id: "quick-players", name: "players" }, players)),
    h("div", { class: "field check" },
      h("input", { type: "checkbox", id: "quick-clock", name: "clock" }),
      h("label", { for: "quick-clock" }, "Turn clock")),
    h("div", { class: "field" }, h("label", { for: "quick-seconds" }, "Seconds per turn"),
      h("input", {
        type: "number", id: "quick-seconds", name: "turn_seconds", min: CLOCK_RANGE.turn_seconds[0],
        max: CLOCK_RANGE.turn_seconds[1], value: 120, inputmode: "numeric", required: true, disabled: true,
      })),
    h("button", { type: "submit", class: "primary", id: "quick-match" }, "Find a table"));
  const clockBox = form.querySelector("#quick-clock");
  clockBox.addEventListener("change", () => { form.querySelector("#quick-seconds").disabled = !clockBox.checked; });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    say("");
    const data = new FormData(form);
    const body = { players: Number(data.get("players")) };
    if (data.get("clock") === "on") body.clock = { turn_seconds: Number(data.get("turn_seconds")) };
    form.querySelector("button[type=submit]").disabled = true;
    try {
      const matched = await call("POST", "/matches", { token: player.key, body });
      // A repeated ask gets the same seat without its token: the player key acts for it.
      const me = matched.game.players.find((p) => p.seat === matched.seat);
      const record = { seat: matched.seat, name: me ? me.name : player.name, whenFull: true };
      if (matched.token) record.token = matched.token;
      saveSeat(config.game, matched.game_id, record);
      location.assign(gameLink(matched.game_id));
    } catch (error) {
      say(error.message);
      form.querySelector("button[type=submit]").disabled = false;
    }
  });
  return form;
}

export async function showLobby(config) {
  const main = document.getElementById("main");
  const alert = document.getElementById("alert");
  const say = (text) => { alert.textContent = text; };
  const mine = mySeats(config.game).slice(0, 10);
  const player = loadPlayer();
  const [open, running, games] = await Promise.all([
    listSection(config, "open", "Open games"),
    listSection(config, "running", "Games being played"),
    player ? myGames(config, player) : null,
  ]);
  document.getElementById("links").replaceChildren(
    h("a", { href: leaderboardLink(), id: "leaderboard-link" }, "Leaderboard"));
  main.replaceChildren(
    h("h1", {}, `${config.title}: play in the browser`),
    games, // first, across the page: where it is the player's turn
    h("div", { class: "lobby" },
      h("div", { class: "forms" },
        player ? quickMatch(config, say, player) : playerForm(config, say),
        createForm(config, say, player)),
      h("div", { class: "lists" },
        mine.length ? h("section", { class: "card-panel", "aria-labelledby": "mine" },
          h("h2", { id: "mine" }, "Your games in this browser"),
          h("ul", { class: "games" }, mine.map((m) => h("li", { class: "game-row" },
            h("span", { class: "game-id" }, m.id),
            h("span", {}, m.name ? `as ${m.name}` : "as host"),
            h("a", { href: gameLink(m.id), class: "button" }, "Resume", h("span", { class: "sr" }, ` game ${m.id}`)))))) : null,
        open, running,
        h("button", { type: "button", class: "quiet", onclick: () => showLobby(config) }, "Refresh lists"))));
}
