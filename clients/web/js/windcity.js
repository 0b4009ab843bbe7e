// Wind City: the grid (sea, beach row, sections), houses, the hurricane and its path,
// the observatories, the plan builder, the insurance answer and the turn's playback.
import { LETTERS } from "./api.js";
import { h, keyboardGrid } from "./dom.js";
import { joined, num, t } from "./i18n.js";

const COLS = "ABCDEFGHIJKL";
const dirName = (dir) => t(`windcity.dir.${dir}`);
const STEP_MS = 250;

const rowOf = (square) => Number(square.slice(1));
const colOf = (square) => COLS.indexOf(square[0]);
const section = (row) => (row <= 4 ? 0 : Math.floor((row - 5) / 5) + 1);
const terrain = (row) => (row <= 4 ? t("windcity.terrain.sea") : row === 5 ? t("windcity.terrain.beach") : t("windcity.terrain.land", { section: section(row) }));
const actionText = (a) => (a.kind === "kauf" ? t("windcity.kauf_long") : t("windcity.move_long", { dir: dirName(a.dir), steps: a.steps }));
const actionShort = (a) => (a.kind === "kauf" ? t("windcity.kauf") : t("windcity.move_short", { dir: t(`windcity.dir_short.${a.dir}`), steps: a.steps }));

// The last resolved turn, collected from the live events, and its playback position.
let lastTurn = null;
let timer = null;

export function onEvent(event, ctx) {
  if (event.type === "turn_revealed") {
    lastTurn = { events: [event], path: [], step: 0, done: false };
    return;
  }
  if (!lastTurn || lastTurn.done) return;
  if (event.type === "turn_started" || event.type === "game_finished") {
    lastTurn.done = true;
    play(ctx);
    return;
  }
  lastTurn.events.push(event);
  if (event.type === "hurricane_moved") lastTurn.path.push(...event.squares);
}

/**
 * The last resolved turn from the game's events so far (oldest first), shown at once
 * (no playback): after a reload the "Last turn" panel is as it was.
 */
export function onHistory(events) {
  clearInterval(timer);
  lastTurn = null;
  const start = events.map((e) => e.type).lastIndexOf("turn_revealed");
  if (start < 0) return;
  lastTurn = { events: [events[start]], path: [], step: 0, done: false };
  for (const event of events.slice(start + 1)) {
    if (event.type === "turn_started" || event.type === "game_finished") break;
    lastTurn.events.push(event);
    if (event.type === "hurricane_moved") lastTurn.path.push(...event.squares);
  }
  lastTurn.done = true;
  lastTurn.step = lastTurn.path.length;
}

/** Step the hurricane along the turn's path, one square every STEP_MS. */
function play(ctx) {
  clearInterval(timer);
  if (!lastTurn) return;
  const reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  lastTurn.step = reduced ? lastTurn.path.length : 0;
  ctx.update();
  if (reduced) return;
  timer = setInterval(() => {
    lastTurn.step += 1;
    if (lastTurn.step >= lastTurn.path.length) clearInterval(timer);
    ctx.page.render();
  }, STEP_MS);
}

const mine = (ctx) => (ctx.state.you ? ctx.state.you : null);

export function hint(ctx) {
  switch (ctx.state.phase) {
    case "hurricane": case "houses": case "plan": case "insure": return t(`windcity.hint.${ctx.state.phase}`);
    default: return "";
  }
}

function squareSet(ctx) {
  return new Set(ctx.legal.filter((m) => m.square).map((m) => m.square));
}

/** Your single houses off the beach that are not being renewed: the Kauf targets. */
function kaufTargets(ctx) {
  const renew = ctx.ui.renew || new Set();
  return ctx.state.houses.filter((x) => x.owner === ctx.seat && !x.duplex && !x.beach && !renew.has(x.square)).map((x) => x.square);
}

const hasKauf = (ctx) => {
  const card = mine(ctx) && mine(ctx).card;
  return !!card && (ctx.ui.actions || []).some((i) => card.actions[i - 1].kind === "kauf");
};

/** The squares the planned movements enter (coming-to-rest steps not included). */
function plannedPath(ctx) {
  const you = mine(ctx);
  if (!you || !you.card || !ctx.state.hurricane || ctx.state.phase !== "plan") return [];
  let col = colOf(ctx.state.hurricane);
  let row = rowOf(ctx.state.hurricane);
  const path = [];
  for (const index of ctx.ui.actions || []) {
    const action = you.card.actions[index - 1];
    if (action.kind !== "move") continue;
    for (let i = 0; i < action.steps; i++) {
      if (action.dir === "N") row += 1;
      else if (action.dir === "S") { if (row === 1) continue; row -= 1; }
      else if (action.dir === "E") col = (col + 1) % 12;
      else col = (col + 11) % 12;
      if (row > ctx.state.north_edge) return path;
      path.push(`${COLS[col]}${row}`);
    }
  }
  return path;
}

async function squareClick(ctx, square) {
  const phase = ctx.state.phase;
  if (ctx.seat === null) { ctx.say(`${square}. ${t("common.watching")}`); return; }
  if (!ctx.myTurn) { ctx.say(t("common.not_your_turn_waiting", { who: joined(ctx.view.to_act.map(ctx.name)) })); return; }
  if (phase === "hurricane" || phase === "houses") {
    // Legal or not, the server decides; a refused move changes nothing and says why.
    const type = phase === "hurricane" ? "place_hurricane" : "place_house";
    ctx.send({ type, square });
    return;
  }
  if (phase === "plan" && hasKauf(ctx)) {
    if (kaufTargets(ctx).includes(square)) { ctx.say(""); ctx.ui.kauf = square; ctx.update(); return; }
    ctx.say(t("windcity.why.kauf_target", { square }));
    return;
  }
  ctx.say(phase === "plan" ? t("windcity.why.plan_first") : t("windcity.why.insure_below"));
}

function squareButton(ctx, state, square, marks) {
  const row = rowOf(square);
  const house = marks.houses.get(square);
  const obs = marks.observatories.get(square);
  const hurricane = marks.hurricane === square;
  const legal = marks.legal.has(square);
  const passed = marks.passed.get(square);
  const planned = marks.planned.get(square);
  const unused = row > 4 && section(row) > state.land_sections;
  const parts = [t("windcity.square.where", { square, terrain: terrain(row), unused: unused ? "yes" : "no" })];
  if (house) {
    parts.push(t("windcity.square.house", {
      name: ctx.name(house.owner), kind: house.duplex ? "duplex" : house.beach ? "beach" : "house",
      letter: LETTERS[house.owner], insured: house.insured ? "yes" : "no",
    }));
  }
  if (obs) parts.push(t("windcity.square.observatory", { marker: obs.marker ? "yes" : "no" }));
  if (hurricane) parts.push(t("windcity.square.hurricane"));
  if (passed) parts.push(t("windcity.square.passed", { step: passed }));
  if (planned) parts.push(t("windcity.square.planned", { step: planned }));
  if (legal) parts.push(marks.kauf ? t("windcity.square.kauf_target") : t("windcity.square.legal"));
  if (marks.kauf && ctx.ui.kauf === square) parts.push(t("windcity.square.chosen"));
  const classes = ["sq", row <= 4 ? "sea" : row === 5 ? "beach" : `land s${section(row) % 2}`];
  if (unused) classes.push("unused");
  if (house) classes.push("house", `p${house.owner}`);
  if (house && house.insured) classes.push("insured");
  if (obs) classes.push("obs");
  if (hurricane) classes.push("hurricane");
  if (passed) classes.push("passed");
  if (planned) classes.push("planned");
  if (legal) classes.push("legal");
  if (marks.kauf && ctx.ui.kauf === square) classes.push("target");
  let text = "";
  if (house) text = LETTERS[house.owner] + (house.duplex ? LETTERS[house.owner] : "") + (house.insured ? "✓" : "");
  else if (obs) text = obs.marker ? "★" : "◎";
  return h("button", {
    type: "button", class: classes.join(" "), "aria-label": parts.join(t("common.sep")),
    "aria-disabled": marks.active && !legal ? "true" : null,
    dataset: { key: square, square, legal: String(legal) },
    onclick: () => squareClick(ctx, square),
  }, hurricane ? h("span", { class: "storm", "aria-hidden": "true" }, "@") : null,
  text ? h("span", { "aria-hidden": "true" }, text) : null);
}

export function renderBoard(ctx, replay) {
  const state = replay ? { ...ctx.state, ...replay } : ctx.state;
  const live = !replay;
  const placing = live && ctx.myTurn && (state.phase === "hurricane" || state.phase === "houses");
  const kauf = live && ctx.myTurn && state.phase === "plan" && hasKauf(ctx);
  const marks = {
    houses: new Map(state.houses.map((x) => [x.square, x])),
    observatories: new Map(state.observatories.map((o) => [o.square, o])),
    hurricane: state.hurricane,
    legal: placing ? squareSet(ctx) : kauf ? new Set(kaufTargets(ctx)) : new Set(),
    active: placing || kauf,
    kauf,
    passed: new Map(),
    planned: new Map(),
  };
  if (live && lastTurn) {
    const shown = lastTurn.path.slice(0, lastTurn.done ? lastTurn.step : lastTurn.path.length);
    shown.forEach((sq, i) => marks.passed.set(sq, i + 1));
    if (lastTurn.done && lastTurn.step < lastTurn.path.length) marks.hurricane = shown[shown.length - 1] || marks.hurricane;
  }
  plannedPath(ctx).forEach((sq, i) => marks.planned.set(sq, i + 1));
  const grid = h("div", { class: "grid", role: "group", "aria-label": t("windcity.board.squares") });
  for (let row = state.north_edge; row >= 1; row--) {
    for (let col = 0; col < 12; col++) grid.append(squareButton(ctx, state, `${COLS[col]}${row}`, marks));
  }
  keyboardGrid(grid, "windcity", 12);
  const rows = [];
  for (let row = state.north_edge; row >= 1; row--) rows.push(h("span", {}, String(row)));
  const board = h("div", { class: "wc-board", id: "board" },
    h("div", { class: "cols", "aria-hidden": "true" }, [...COLS].map((c) => h("span", {}, c))),
    h("div", { class: "rows", "aria-hidden": "true" }, rows),
    grid);
  // The squares shrink with the window's height too: the whole city fits in one screen
  // (a style property, not an attribute: the page's CSP has no 'unsafe-inline').
  board.style.setProperty("--rows", String(state.north_edge));
  return [
    h("h2", { class: "board-title" }, replay ? t("common.board_at_step") : t("windcity.board.title")),
    board,
    h("p", { class: "legend" }, t("windcity.board.legend")),
  ];
}

function renderPlan(ctx) {
  const you = mine(ctx);
  const card = you.card;
  const ui = ctx.ui;
  ui.actions = ui.actions || [];
  ui.renew = ui.renew || new Set();
  const money = ctx.state.players[ctx.seat].money;
  const toggle = (index) => {
    const at = ui.actions.indexOf(index);
    if (at >= 0) ui.actions.splice(at, 1);
    else if (ui.actions.length >= 3) { ctx.say(t("windcity.plan.at_most")); return; }
    else ui.actions.push(index);
    if (!hasKauf(ctx)) ui.kauf = null;
    ctx.say("");
    ctx.update();
  };
  const renewCost = you.renewable.filter((r) => ui.renew.has(r.square)).reduce((s, r) => s + r.price, 0);
  const actionCost = ui.actions.reduce((s, i) => s + card.actions[i - 1].cost, 0);
  const targets = kaufTargets(ctx);
  if (ui.kauf && !targets.includes(ui.kauf)) ui.kauf = null;
  const kaufPart = hasKauf(ctx)
    ? h("div", { class: "field" },
      h("label", { for: "kauf-target" }, t("windcity.plan.kauf_target")),
      targets.length
        ? h("select", { id: "kauf-target", onchange: (e) => { ui.kauf = e.target.value || null; ctx.update(); } },
          h("option", { value: "" }, t("windcity.plan.choose_house")),
          targets.map((sq) => h("option", { value: sq, selected: ui.kauf === sq }, sq)))
        : h("p", { class: "problem" }, t("windcity.plan.no_target")))
    : null;
  return h("div", { id: "plan" },
    h("h2", {}, t("windcity.plan.card", { number: card.number })),
    h("div", { class: "actions", role: "group", "aria-label": t("windcity.plan.actions_label") }, card.actions.map((a, i) => {
      const index = i + 1;
      const order = ui.actions.indexOf(index);
      return h("button", {
        type: "button", class: `action${order >= 0 ? " chosen" : ""}`, "aria-pressed": String(order >= 0),
        "aria-label": t("windcity.plan.action_label", { index, action: actionText(a), cost: a.cost, chosen: order >= 0 ? "yes" : "no", step: order + 1 }),
        dataset: { key: `action${index}`, index: String(index), kind: a.kind },
        onclick: () => toggle(index),
      }, h("span", { class: "order", "aria-hidden": "true" }, order >= 0 ? String(order + 1) : ""),
      h("span", { "aria-hidden": "true" }, `${actionShort(a)} · ${num(a.cost)}`));
    })),
    kaufPart,
    you.renewable.length ? h("fieldset", {}, h("legend", {}, t("windcity.plan.renew")),
      h("div", { class: "checks" }, you.renewable.map((r) => h("div", { class: "field check" },
        h("input", {
          type: "checkbox", id: `renew-${r.square}`, checked: ui.renew.has(r.square),
          onchange: (e) => { if (e.target.checked) ui.renew.add(r.square); else ui.renew.delete(r.square); ctx.update(); },
        }),
        h("label", { for: `renew-${r.square}` }, t("windcity.costs", { square: r.square, price: r.price })))))) : null,
    h("p", { id: "plan-cost", class: renewCost > money ? "problem" : "" },
      t("windcity.plan.cost", { renew: renewCost, actions: actionCost, money })),
    h("button", {
      type: "button", class: "primary", id: "make-plan", disabled: !ui.actions.length || ctx.busy,
      onclick: () => ctx.send({ type: "plan", actions: [...ui.actions], kauf: hasKauf(ctx) ? ui.kauf : null, renew: you.renewable.map((r) => r.square).filter((sq) => ui.renew.has(sq)) }),
    }, t("windcity.plan.submit")));
}

function renderInsure(ctx) {
  const you = mine(ctx);
  const ui = ctx.ui;
  ui.insure = ui.insure || new Set();
  const money = ctx.state.players[ctx.seat].money;
  const cost = you.insurable.filter((r) => ui.insure.has(r.square)).reduce((s, r) => s + r.price, 0);
  const squares = you.insurable.map((r) => r.square).filter((sq) => ui.insure.has(sq));
  return h("div", { id: "insure-panel" },
    h("h2", {}, t("windcity.insure.title", { name: ctx.name(ctx.state.active) })),
    h("fieldset", {}, h("legend", {}, t("windcity.insure.legend")),
      h("div", { class: "checks" }, you.insurable.map((r) => h("div", { class: "field check" },
        h("input", {
          type: "checkbox", id: `insure-${r.square}`, checked: ui.insure.has(r.square),
          onchange: (e) => { if (e.target.checked) ui.insure.add(r.square); else ui.insure.delete(r.square); ctx.update(); },
        }),
        h("label", { for: `insure-${r.square}` }, t("windcity.costs", { square: r.square, price: r.price })))))),
    h("p", { id: "insure-cost", class: cost > money ? "problem" : "" }, t("windcity.insure.cost", { cost, money })),
    h("button", {
      type: "button", class: "primary", id: "insure", disabled: ctx.busy,
      onclick: () => ctx.send({ type: "insure", squares }),
    }, t("windcity.insure.submit", { count: squares.length, cost })));
}

export function renderControls(ctx) {
  const s = ctx.state;
  const you = mine(ctx);
  if (ctx.myTurn && s.phase === "plan" && you && you.card) return renderPlan(ctx);
  if (ctx.myTurn && s.phase === "insure" && you) return renderInsure(ctx);
  if (ctx.myTurn) return h("p", {}, t("game.turn.yours", { hint: hint(ctx) }));
  if (you && you.plan && you.card) {
    return h("p", {}, t("windcity.wait.plan", {
      actions: joined(you.plan.actions.map((i) => actionShort(you.card.actions[i - 1]))), kauf: you.plan.kauf || "",
    }));
  }
  return h("p", {}, s.phase === "insure" ? t("windcity.wait.insure", { name: ctx.name(s.active), who: joined(s.pending.map(ctx.name)) }) : t("windcity.wait.others"));
}

export function playerDetails(ctx, seat) {
  const p = ctx.state.players[seat];
  return h("span", {}, p.in_game ? t("windcity.player.line", { money: p.money, board: p.houses_on_board, stock: p.stock }) : t("windcity.player.out"));
}

export function renderInfo(ctx) {
  const s = ctx.state;
  const turnPart = s.phase === "hurricane" || s.phase === "houses" ? t("windcity.info.setup") : t("windcity.info.turn", { turn: s.turn, max: s.max_turns });
  return h("section", { class: "panel", "aria-labelledby": "turn-title" },
    h("h2", { id: "turn-title" }, turnPart),
    h("p", {}, t("windcity.info.line", { hurricane: s.hurricane || t("windcity.info.off_board"), deck: s.deck_size, edge: s.north_edge })),
    lastTurn ? h("div", { id: "last-turn" },
      h("h3", {}, t("windcity.info.last_turn")),
      h("ol", {}, lastTurn.events.map((e) => h("li", {}, describe(e, ctx) || t("event.other", { type: e.type.replace(/_/g, " ") })))),
      h("button", { type: "button", id: "play-back", "data-key": "play-back", onclick: () => play(ctx) }, t("windcity.info.play_back"))) : null);
}

/** One column per player (names wrap), one row per figure: fits a phone with 5 players. */
export function renderScore(ctx, score) {
  if (!score.seats) return null;
  const rows = [
    ["houses", t("windcity.score.houses")], ["beach", t("windcity.score.beach")], ["duplex", t("windcity.score.duplex")],
    ["house_points", t("windcity.score.house_points")],
    ["money", score.score_money === false ? t("windcity.score.money_uncounted") : t("windcity.score.money")], ["total", t("game.result.total")],
  ];
  return h("table", { class: "scores", dataset: { seats: String(score.seats.length) } },
    h("thead", {}, h("tr", {}, h("td", { class: "corner" }), score.seats.map((s) => h("th", { scope: "col", class: "seat-col" }, ctx.tag(s.seat))))),
    h("tbody", {}, rows.map(([key, label]) => h("tr", { class: key === "total" ? "total" : "" },
      h("th", { scope: "row" }, label),
      score.seats.map((s) => h("td", { class: "num", dataset: { seat: String(s.seat), key } }, num(s[key])))))));
}

export function describe(e, ctx) {
  const who = (s) => (typeof s === "number" ? `${ctx.name(s)} (${LETTERS[s]})` : t("windcity.event.bank"));
  const E = (key, params) => t(`windcity.event.${key}`, params);
  switch (e.type) {
    case "hurricane_placed": case "house_placed": case "observatory_taken": case "kauf":
      return E(e.type, { who: who(e.seat), square: e.square });
    case "turn_started": return E("turn_started", { turn: e.turn, who: who(e.seat) });
    case "card_drawn": case "calm_bonus": case "bankrupt": return E(e.type, { who: who(e.seat) });
    case "deck_reshuffled": return t("event.deck_reshuffled", { size: e.size });
    case "plan_made": return E("plan_made", { who: who(e.seat), renew: e.renew.join(" "), lapsed: e.lapsed.join(" ") });
    case "insurance_market": return E("insurance_market", { who: who(e.seller), to: joined(e.pending.map(who)) });
    case "insured": return E("insured", { who: who(e.seat), squares: e.squares.join(" "), paid: e.paid || 0 });
    case "payment": return E("payment", { payer: who(e.payer), payee: who(e.payee), amount: e.amount, reason: E(`reason.${e.reason}`) });
    case "turn_revealed": return E("turn_revealed", { card: e.card, plan: joined(e.plan.map((i) => actionShort(e.card_actions[i - 1]))), kauf: e.kauf || "" });
    case "hurricane_moved": return E("hurricane_moved", {
      dir: dirName(e.dir), rest: e.rest ? "yes" : "no", squares: e.squares.join(" "), left: e.left_board ? "yes" : "no",
    });
    case "house_destroyed": return E("house_destroyed", { square: e.square, who: who(e.owner) });
    case "kauf_void": return E("kauf_void", { who: who(e.seat), square: e.square, reason: E(`void.${e.reason}`) });
    case "game_over": return E("game_over", { reason: E(`end.${e.reason}`) });
    default: return null;
  }
}

/** Houses, hurricane and markers after `events` (for stepping through a finished game). */
export function replayState(events, ctx) {
  const houses = new Map();
  const markers = new Map(ctx.state.observatories.map((o) => [o.square, true]));
  let hurricane = null;
  for (const e of events) {
    if (e.type === "hurricane_placed") hurricane = e.square;
    else if (e.type === "house_placed") houses.set(e.square, { square: e.square, owner: e.seat, insured: false, duplex: false, beach: rowOf(e.square) === 5 });
    else if (e.type === "insured") e.squares.forEach((sq) => { if (houses.has(sq)) houses.get(sq).insured = true; });
    else if (e.type === "plan_made") e.lapsed.forEach((sq) => { if (houses.has(sq)) houses.get(sq).insured = false; });
    else if (e.type === "hurricane_moved") hurricane = e.left_board ? null : e.squares[e.squares.length - 1] || hurricane;
    else if (e.type === "house_destroyed") houses.delete(e.square);
    else if (e.type === "kauf") { if (houses.has(e.square)) houses.get(e.square).duplex = true; }
    else if (e.type === "observatory_taken") markers.set(e.square, false);
    else if (e.type === "bankrupt") e.houses_removed.forEach((sq) => houses.delete(sq));
  }
  return {
    hurricane,
    houses: [...houses.values()],
    observatories: [...markers].map(([square, marker]) => ({ square, marker })),
  };
}
