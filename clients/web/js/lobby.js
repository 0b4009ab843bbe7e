// The lobby: open and running games, a creation form, and this browser's own games;
// with a player (POST /players, its key kept in localStorage): "My games" with their
// your-turn badges and a quick match.
import { apiBase, call, gameLink, howtoLink, loadPlayer, loadSeat, mySeats, saveSeat, savePlayer, tournamentsLink } from "./api.js";
import { fill, h } from "./dom.js";
import { ago, joined, t } from "./i18n.js";
import { leaderboardLink } from "./leaderboard.js";

const OPTIONS = {
  manhattan: {
    players: [2, 4, 2],
    fields: [
      { name: "six_rounds", label: "lobby.option.six_rounds", kind: "bool" },
      { name: "promo_cards", label: "lobby.option.promo_cards", kind: "bool" },
    ],
  },
  windcity: {
    players: [2, 5, 2],
    fields: [
      {
        name: "play_area", label: "lobby.option.play_area", kind: "choice",
        choices: [["used_sections", "lobby.option.used_sections"], ["full", "lobby.option.full"]],
      },
      { name: "score_money", label: "lobby.option.score_money", kind: "bool", checked: true },
      { name: "max_turns", label: "lobby.option.max_turns", kind: "int", min: 10, max: 1000, value: 100 },
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
  form.dataset.clockRange = "server"; // (read: the fields now hold the server's range)
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
      h("label", { for: id }, t(spec.label)));
  }
  if (spec.kind === "choice") {
    return h("div", { class: "field" }, h("label", { for: id }, t(spec.label)),
      h("select", { id, name: spec.name },
        spec.choices.map(([value, text]) => h("option", { value }, t(text)))));
  }
  return h("div", { class: "field" }, h("label", { for: id }, t(spec.label)),
    h("input", { type: "number", id, name: spec.name, min: spec.min, max: spec.max, value: spec.value, required: true }));
}

function createForm(config, say, player) {
  const spec = OPTIONS[config.game];
  const [low, high, initial] = spec.players;
  const players = [];
  for (let n = low; n <= high; n++) players.push(h("option", { value: n, selected: n === initial }, String(n)));
  const form = h("form", { id: "create", class: "card-panel", "aria-labelledby": "create-title" },
    h("h2", { id: "create-title" }, t("lobby.create.title")),
    h("div", { class: "field" }, h("label", { for: "opt-players" }, t("lobby.create.players")),
      h("select", { id: "opt-players", name: "players" }, players)),
    spec.fields.map(field),
    h("div", { class: "field" }, h("label", { for: "host-name" }, t("lobby.create.name")),
      h("input", {
        id: "host-name", name: "name", maxlength: 32, autocomplete: "nickname", placeholder: t("lobby.create.name_placeholder"),
        value: player ? player.name : null,
      })),
    h("div", { class: "field" }, h("label", { for: "opt-visibility" }, t("lobby.create.table")),
      h("select", { id: "opt-visibility", name: "visibility" },
        h("option", { value: "public" }, t("lobby.create.public")),
        h("option", { value: "unlisted" }, t("lobby.create.unlisted")))),
    h("div", { class: "field check" },
      h("input", { type: "checkbox", id: "opt-start", name: "start" }),
      h("label", { for: "opt-start" }, t("lobby.create.when_full"))),
    h("fieldset", { id: "clock-options" }, h("legend", {}, t("lobby.clock.title")),
      h("div", { class: "field check" },
        h("input", { type: "checkbox", id: "opt-clock", name: "clock" }),
        h("label", { for: "opt-clock" }, t("lobby.clock.limit"))),
      h("div", { class: "field" }, h("label", { for: "opt-turn_seconds" }, t("lobby.clock.seconds")),
        h("input", {
          type: "number", id: "opt-turn_seconds", name: "turn_seconds", min: CLOCK_RANGE.turn_seconds[0],
          max: CLOCK_RANGE.turn_seconds[1], value: 120, inputmode: "numeric", required: true, disabled: true,
        })),
      h("div", { class: "field" }, h("label", { for: "opt-max_timeouts" }, t("lobby.clock.max_timeouts")),
        h("input", {
          type: "number", id: "opt-max_timeouts", name: "max_timeouts", min: CLOCK_RANGE.max_timeouts[0],
          max: CLOCK_RANGE.max_timeouts[1], value: 3, inputmode: "numeric", required: true, disabled: true,
        }))),
    h("details", {}, h("summary", {}, t("lobby.create.advanced")),
      h("div", { class: "field" }, h("label", { for: "opt-seed" }, t("lobby.create.seed")),
        h("input", { id: "opt-seed", name: "seed", type: "number", min: 0, inputmode: "numeric" }))),
    h("button", { type: "submit", class: "primary", id: "create-game" }, t("lobby.create.submit")));
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
  const names = joined(summary.players.map((p) => (p.bot && p.status === "bot" ? t("lobby.row.bot", { name: p.name }) : p.name))) || t("lobby.row.nobody");
  const seats = t("lobby.row.seats", { taken: summary.players.length, seats: summary.options.players });
  const open = summary.status === "open";
  return h("li", { class: "game-row", dataset: { id: summary.id } },
    h("span", { class: "game-id" }, summary.id),
    h("span", {}, open ? t("lobby.row.open", { seats, names }) : `${names}`),
    h("span", { class: "row-links" },
      h("a", { href: gameLink(summary.id), class: "button" },
        mine && mine.token ? t("lobby.row.resume") : open ? t("lobby.row.join") : t("lobby.row.open_game"),
        h("span", { class: "sr" }, t("lobby.row.sr_game", { id: summary.id }))),
      // a table watched by its link only is listed to be joined: no Watch button for it
      (summary.options.spectators || "everyone") === "everyone"
        ? h("a", { href: gameLink(summary.id, { watch: true }), class: "button quiet" }, t("lobby.row.watch"),
          h("span", { class: "sr" }, t("lobby.row.sr_game", { id: summary.id })))
        : null));
}

async function listSection(config, status, title) {
  const section = h("section", { class: "card-panel", "aria-labelledby": `list-${status}` },
    h("h2", { id: `list-${status}` }, title));
  try {
    const { games } = await call("GET", `/games?status=${status}&limit=20`);
    section.append(games.length
      ? h("ul", { class: "games", id: `games-${status}` }, games.map((g) => gameRow(config, g)))
      : h("p", {}, status === "open" ? t("lobby.list.no_open") : t("lobby.list.none")));
  } catch (error) {
    section.append(h("p", { class: "problem" }, error.message));
  }
  return section;
}

const STATUS_WORDS = { open: "lobby.status.open", running: "lobby.status.running", finished: "lobby.status.finished", cancelled: "lobby.status.cancelled" };

/** Without a player: a name creates one (POST /players) and keeps its key here. */
function playerForm(config, say) {
  const form = h("form", { id: "player-form", class: "card-panel", "aria-labelledby": "player-title" },
    h("h2", { id: "player-title" }, t("lobby.player.title")),
    h("p", {}, t("lobby.player.about")),
    h("div", { class: "inline" },
      h("label", { for: "player-name" }, t("lobby.player.name")),
      h("input", { id: "player-name", name: "name", required: true, maxlength: 32, autocomplete: "nickname" }),
      h("button", { type: "submit", class: "primary", id: "create-player" }, t("lobby.player.submit"))));
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

/**
 * The player's games in this service (GET /players/me/games), newest activity first:
 * the section, and the ids it lists (not listed again under "in this browser").
 */
async function myGames(config, player) {
  const section = h("section", { class: "card-panel", "aria-labelledby": "my-games-title", id: "my-games-panel" },
    h("h2", { id: "my-games-title" }, t("lobby.mine.title", { name: player.name })));
  let games;
  try {
    ({ games } = await call("GET", "/players/me/games?limit=20", { token: player.key }));
  } catch (error) {
    section.append(h("p", { class: "problem" }, error.message));
    return { section, ids: new Set() };
  }
  if (!games.length) {
    section.append(h("p", {}, t("lobby.mine.none")));
    return { section, ids: new Set() };
  }
  section.append(h("ul", { class: "games", id: "my-games" }, games.map((g) => {
    const others = joined(g.players.map((p) => (p.bot ? t("lobby.row.bot", { name: p.name }) : p.name))) || t("lobby.mine.nobody");
    return h("li", { class: `game-row${g.my_turn ? " my-turn" : ""}`, dataset: { id: g.id, myTurn: String(g.my_turn) } },
      h("span", { class: "game-id" }, g.id),
      g.my_turn ? h("span", { class: "badge turn-badge" }, t("lobby.mine.your_turn")) : null,
      h("span", {}, t("lobby.mine.row", { status: STATUS_WORDS[g.status] ? t(STATUS_WORDS[g.status]) : g.status, others })),
      g.updated_at ? h("time", { class: "when", datetime: g.updated_at }, ago(g.updated_at)) : null,
      h("span", { class: "row-links" },
        h("a", { href: gameLink(g.id), class: "button" }, g.my_turn ? t("lobby.mine.play") : t("lobby.row.open_game"),
          h("span", { class: "sr" }, t("lobby.row.sr_game", { id: g.id })))));
  })));
  return { section, ids: new Set(games.map((g) => g.id)) };
}

/** POST /matches: a seat at the oldest open public table with these options, or a new one. */
function quickMatch(config, say, player) {
  const spec = OPTIONS[config.game];
  const [low, high, initial] = spec.players;
  const players = [];
  for (let n = low; n <= high; n++) players.push(h("option", { value: n, selected: n === initial }, String(n)));
  const form = h("form", { id: "quick", class: "card-panel", "aria-labelledby": "quick-title" },
    h("h2", { id: "quick-title" }, t("lobby.quick.title")),
    h("p", {}, t("lobby.quick.about")),
    h("div", { class: "field" }, h("label", { for: "quick-players" }, t("lobby.create.players")),
      h("select", { id: "quick-players", name: "players" }, players)),
    h("div", { class: "field check" },
      h("input", { type: "checkbox", id: "quick-clock", name: "clock" }),
      h("label", { for: "quick-clock" }, t("lobby.clock.title"))),
    h("div", { class: "field" }, h("label", { for: "quick-seconds" }, t("lobby.clock.seconds")),
      h("input", {
        type: "number", id: "quick-seconds", name: "turn_seconds", min: CLOCK_RANGE.turn_seconds[0],
        max: CLOCK_RANGE.turn_seconds[1], value: 120, inputmode: "numeric", required: true, disabled: true,
      })),
    h("button", { type: "submit", class: "primary", id: "quick-match" }, t("lobby.quick.submit")));
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
  const player = loadPlayer();
  const [open, running, games] = await Promise.all([
    listSection(config, "open", t("lobby.list.open")),
    listSection(config, "running", t("lobby.list.running")),
    player ? myGames(config, player) : { section: null, ids: new Set() },
  ]);
  // This browser's other games: those "My games" does not list already.
  const mine = mySeats(config.game).filter((m) => !games.ids.has(m.id)).slice(0, 10);
  fill(document.getElementById("links"),
    h("a", { href: howtoLink(), id: "howto-link" }, t("nav.howto")),
    h("a", { href: leaderboardLink(), id: "leaderboard-link" }, t("nav.leaderboard")),
    h("a", { href: tournamentsLink(), id: "tournaments-link" }, t("nav.tournaments")));
  fill(main,
    h("h1", {}, t("lobby.heading", { title: config.title })),
    games.section, // first, across the page: where it is the player's turn
    h("div", { class: "lobby" },
      h("div", { class: "forms" },
        player ? quickMatch(config, say, player) : playerForm(config, say),
        createForm(config, say, player)),
      h("div", { class: "lists" },
        mine.length ? h("section", { class: "card-panel", "aria-labelledby": "mine" },
          h("h2", { id: "mine" }, player ? t("lobby.browser.others") : t("lobby.browser.title")),
          h("ul", { class: "games" }, mine.map((m) => h("li", { class: "game-row" },
            h("span", { class: "game-id" }, m.id),
            h("span", {}, m.name ? t("lobby.browser.as", { name: m.name }) : t("lobby.browser.host")),
            m.saved ? h("time", { class: "when", datetime: new Date(m.saved).toISOString() }, ago(m.saved)) : null,
            h("a", { href: gameLink(m.id), class: "button" }, t("lobby.row.resume"), h("span", { class: "sr" }, t("lobby.row.sr_game", { id: m.id }))))))) : null,
        open, running,
        h("button", { type: "button", class: "quiet", onclick: () => showLobby(config) }, t("lobby.refresh")))));
}
