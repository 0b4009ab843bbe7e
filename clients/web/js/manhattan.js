// Manhattan: six cities of 3x3 lots seen from the player's side, the hand drawn as the
// lots its cards allow, pieces, and a move chosen as card (or lot), then piece.
import { LETTERS } from "./api.js";
import { h, keyboardGrid } from "./dom.js";

const QUARTER = { S: 0, W: 1, N: 2, E: 3 };
const SIDE_NAME = { S: "south", W: "west", N: "north", E: "east" };
const PROMOS = {
  big_business: "Big business", megacity: "Megacity", mixed_use: "Mixed use",
  world_expansion: "World expansion", small_town: "Small town", founder: "Founder",
  above_the_clouds: "Above the clouds", suburbs: "Suburbs", shire: "Shire", fake_news: "Fake news",
};
const CATEGORIES = [["tallest", "Tallest building"], ["majority", "City majorities"], ["buildings", "Buildings"], ["promo", "Promotion card"]];

/** Board [row, col] (row 0 north, col 0 west) shown at display (r, c) to a viewer turned q quarters. */
function toBoard(q, r, c, width, height) {
  if (q === 1) return [c, width - 1 - r];
  if (q === 2) return [height - 1 - r, width - 1 - c];
  if (q === 3) return [height - 1 - c, r];
  return [r, c];
}

const sideOf = (ctx) => (ctx.seat !== null && ctx.state.players[ctx.seat]) ? ctx.state.players[ctx.seat].side : "S";
const floors = (n) => `${n} floor${n === 1 ? "" : "s"}`;
const cityName = (ctx, city) => ctx.state.cities[city - 1].name;

/** Legal placements: "city-lot" -> Set of piece sizes. */
function placements(ctx) {
  const out = new Map();
  for (const move of ctx.legal) {
    if (move.type !== "place") continue;
    const key = `${move.city}-${move.lot}`;
    if (!out.has(key)) out.set(key, new Set());
    out.get(key).add(move.floors);
  }
  return out;
}

const mode = (ctx) => {
  const kinds = new Set(ctx.legal.map((m) => m.type));
  if (kinds.has("place")) return "place";
  if (kinds.has("discard")) return "discard";
  if (kinds.has("forfeit")) return "forfeit";
  if (kinds.has("select")) return "select";
  return "wait";
};

export function hint(ctx) {
  switch (mode(ctx)) {
    case "select": return `choose ${ctx.state.pieces_per_round} pieces for round ${ctx.state.round}.`;
    case "discard": return "you cannot build anywhere: discard a card.";
    case "forfeit": return "nothing you hold can be built: give up one piece.";
    default: return "pick a card or a lot, then a piece.";
  }
}

function floorsOf(lot, seat) {
  return lot.pieces.filter((p) => p.seat === seat).reduce((sum, p) => sum + p.floors, 0);
}

/** Why (city, lot) cannot take a piece now, in words. */
function whyNot(ctx, city, lot) {
  if (ctx.seat === null) return "You are watching: join a game to play.";
  if (ctx.view.status !== "running") return "The game is not running.";
  if (!ctx.myTurn) return `It is not your turn: waiting for ${ctx.view.to_act.map(ctx.name).join(", ")}.`;
  const m = mode(ctx);
  if (m === "select") return "First choose this round's pieces.";
  if (m === "discard") return "No card in your hand allows a building anywhere: discard a card.";
  if (m === "forfeit") return "None of your selected pieces can be built anywhere: give one up.";
  const hand = ctx.state.hand || [];
  const where = `${cityName(ctx, city)} lot ${lot}`;
  if (!hand.some((c) => c.lot === lot)) {
    const lots = [...new Set(hand.map((c) => c.lot))].sort().join(", ");
    return `No card in your hand allows lot ${lot}; your cards allow lots ${lots}.`;
  }
  const here = ctx.state.cities[city - 1].lots[lot - 1];
  const mine = floorsOf(here, ctx.seat);
  const theirs = floorsOf(here, here.owner);
  const biggest = Math.max(...ctx.state.players[ctx.seat].selected);
  return `You cannot build on ${where}: ${ctx.name(here.owner)} owns it with ${floors(theirs)}, and your ${mine} plus your biggest piece (${biggest}) would be fewer.`;
}

function focusLater(selector) {
  setTimeout(() => { const el = document.querySelector(selector); if (el) el.focus(); }, 0);
}

function lotClick(ctx, city, lot) {
  const legal = placements(ctx).get(`${city}-${lot}`);
  if (!legal) { ctx.say(whyNot(ctx, city, lot)); return; }
  ctx.say("");
  ctx.ui.card = lot;
  ctx.ui.target = { city, lot };
  ctx.update();
  focusLater("#pieces button[data-legal=true]");
}

/** Each player's floors in a building, most first (the owner first among equals). */
function holdings(here) {
  const held = new Map();
  for (const piece of here.pieces) held.set(piece.seat, (held.get(piece.seat) || 0) + piece.floors);
  return [...held].sort((a, b) => b[1] - a[1] || (a[0] === here.owner ? -1 : b[0] === here.owner ? 1 : a[0] - b[0]));
}

function lotButton(ctx, city, lot, state, legalMap, active) {
  const here = state.cities[city - 1].lots[lot - 1];
  const legal = active && legalMap.has(`${city}-${lot}`) && (ctx.ui.card == null || ctx.ui.card === lot);
  const target = active && ctx.ui.target && ctx.ui.target.city === city && ctx.ui.target.lot === lot;
  const owner = here.owner;
  const held = holdings(here);
  const label = `${cityName(ctx, city)} lot ${lot}: ` +
    (here.height ? `${floors(here.height)}, owned by ${ctx.name(owner)} (${LETTERS[owner]})` : "empty") +
    (held.length > 1 ? `; ${held.map(([seat, n]) => `${ctx.name(seat)} ${floors(n)}`).join(", ")}` : "") +
    (legal ? ", you can build here" : "") + (target ? ", chosen" : "");
  return h("button", {
    type: "button", class: `lot${owner !== null ? ` owned p${owner}` : ""}${legal ? " legal" : ""}${target ? " target" : ""}`,
    "aria-label": label, "aria-disabled": active && !legal ? "true" : null,
    dataset: { key: `c${city}l${lot}`, city: String(city), lot: String(lot), legal: String(legal) },
    onclick: () => lotClick(ctx, city, lot),
  },
  here.height ? h("span", { class: "height", "aria-hidden": "true" }, `${LETTERS[owner]}${here.height}`) : null,
  // Who holds how many floors: what taking a building over depends on.
  held.length > 1 ? h("span", { class: "floors", "aria-hidden": "true" },
    held.map(([seat, n]) => h("span", { class: `held p${seat}`, dataset: { seat: String(seat) } }, `${LETTERS[seat]}${n}`))) : null);
}

export function renderBoard(ctx, replay) {
  const state = replay || ctx.state;
  const side = sideOf(ctx);
  const q = QUARTER[side];
  const legalMap = replay ? new Map() : placements(ctx);
  const active = !replay && ctx.myTurn && mode(ctx) === "place";
  const [rows, cols] = q % 2 ? [3, 2] : [2, 3];
  const cities = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const [br, bc] = toBoard(q, r, c, 3, 2);
      const city = br * 3 + bc + 1;
      const grid = h("div", { class: "lots", role: "group", "aria-label": `${state.cities[city - 1].name} lots` });
      for (let lr = 0; lr < 3; lr++) {
        for (let lc = 0; lc < 3; lc++) {
          const [sr, sc] = toBoard(q, lr, lc, 3, 3);
          grid.append(lotButton(ctx, city, sr * 3 + sc + 1, state, legalMap, active));
        }
      }
      keyboardGrid(grid, `city${city}`, 3);
      cities.push(h("div", { class: "city", dataset: { city: String(city) } },
        h("h3", {}, `${city} ${state.cities[city - 1].name}`), grid));
    }
  }
  return [
    h("h2", { class: "board-title" }, replay ? "The board at this step" : `The cities, seen from the ${SIDE_NAME[side]}`),
    h("div", { class: `cities${q % 2 ? " turned" : ""}`, id: "board" }, cities),
  ];
}

/** A hand card drawn as the 3x3 lot grid it allows, as the holder sees the board. */
function cardPicture(ctx, boardLot) {
  const q = QUARTER[sideOf(ctx)];
  const cells = [];
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      const [br, bc] = toBoard(q, r, c, 3, 3);
      cells.push(h("span", { class: br * 3 + bc + 1 === boardLot ? "mark" : "" }));
    }
  }
  return h("span", { class: "mini", "aria-hidden": "true" }, cells);
}

function renderSelect(ctx) {
  const need = ctx.state.pieces_per_round;
  const stock = ctx.state.players[ctx.seat].stock;
  const pick = ctx.ui.pick || (ctx.ui.pick = []);
  const left = (size) => stock[String(size)] - pick.filter((p) => p === size).length;
  const add = (size) => {
    if (pick.length >= need) { ctx.say(`You already chose ${need} pieces: remove one first.`); return; }
    if (left(size) <= 0) { ctx.say(`You have no ${size}-floor piece left.`); return; }
    ctx.say("");
    pick.push(size); pick.sort((a, b) => a - b); ctx.update();
  };
  const remove = (i) => { pick.splice(i, 1); ctx.update(); };
  return h("div", { id: "select" },
    h("h2", {}, `Choose ${need} pieces for round ${ctx.state.round}`),
    h("div", { class: "inline", role: "group", "aria-label": "Add a piece" }, [1, 2, 3, 4].map((size) => {
      const ok = left(size) > 0 && pick.length < need;
      return h("button", {
        type: "button", class: `piece-button f${size}`, "aria-disabled": ok ? null : "true",
        dataset: { key: `add${size}`, size: String(size), legal: String(ok) }, onclick: () => add(size),
      }, `+ ${size}`, h("span", { class: "sr" }, `-floor piece`), h("small", {}, ` (${left(size)} left)`));
    })),
    h("p", { id: "pick-count" }, `Chosen: ${pick.length} of ${need}`),
    h("div", { class: "inline", id: "picked", role: "group", "aria-label": "Chosen pieces" }, pick.map((size, i) =>
      h("button", { type: "button", class: `chip f${size}`, dataset: { key: `pick${i}` }, onclick: () => remove(i), "aria-label": `Remove a ${size}-floor piece` }, String(size)))),
    h("button", {
      type: "button", class: "primary", id: "confirm-pieces", disabled: pick.length !== need || ctx.busy,
      onclick: () => ctx.send({ type: "select", pieces: [...pick] }),
    }, "Confirm pieces"));
}

function renderBuild(ctx) {
  const m = mode(ctx);
  const hand = ctx.state.hand || [];
  const legalMap = placements(ctx);
  const lotsWithMoves = new Set([...legalMap.keys()].map((k) => Number(k.split("-")[1])));
  const selected = ctx.state.players[ctx.seat].selected;
  const target = ctx.ui.target;
  const targetSizes = target ? legalMap.get(`${target.city}-${target.lot}`) || new Set() : null;
  const cardClick = (card) => {
    if (!ctx.myTurn) { ctx.say("It is not your turn."); return; }
    if (m === "discard") { ctx.send({ type: "discard", lot: card.lot }); return; }
    if (m === "forfeit") { ctx.say("No card can help: give up one of your pieces instead."); return; }
    if (!lotsWithMoves.has(card.lot)) {
      ctx.say(`No selected piece can be built on lot ${card.lot} in any city.`); return;
    }
    ctx.say("");
    ctx.ui.card = ctx.ui.card === card.lot ? null : card.lot;
    if (target && target.lot !== ctx.ui.card) ctx.ui.target = null;
    ctx.update();
  };
  const pieceClick = (size) => {
    if (!ctx.myTurn) { ctx.say("It is not your turn."); return; }
    if (m === "forfeit") { ctx.send({ type: "forfeit", floors: size }); return; }
    if (m === "discard") { ctx.say("You cannot build anywhere: discard a card first."); return; }
    if (!target) { ctx.say("Choose a lot on the board first."); return; }
    if (!targetSizes.has(size)) { ctx.say(`A ${size}-floor piece cannot go on ${cityName(ctx, target.city)} lot ${target.lot}.`); return; }
    ctx.send({ type: "place", city: target.city, lot: target.lot, floors: size });
  };
  const cardLegal = (card) => ctx.myTurn && (m === "discard" || (m === "place" && lotsWithMoves.has(card.lot)));
  const pieceLegal = (size) => ctx.myTurn && (m === "forfeit" || (m === "place" && !!targetSizes && targetSizes.has(size)));
  const what = m === "discard" ? "Discard a card" : m === "forfeit" ? "Give up a piece" : "Your cards";
  return h("div", { id: "build" },
    h("h2", {}, what),
    h("div", { class: "hand", id: "hand", role: "group", "aria-label": "Your hand" }, hand.map((card, i) =>
      h("button", {
        type: "button", class: `card${ctx.ui.card === card.lot ? " chosen" : ""}`,
        "aria-pressed": m === "place" ? String(ctx.ui.card === card.lot) : null,
        "aria-disabled": cardLegal(card) ? null : "true",
        "aria-label": `${m === "discard" ? "Discard the card" : "Card"} for lot ${card.lot} (printed ${card.card})`,
        dataset: { key: `card${i}`, lot: String(card.lot), legal: String(cardLegal(card)) },
        onclick: () => cardClick(card),
      }, cardPicture(ctx, card.lot), h("span", { "aria-hidden": "true" }, `lot ${card.lot}`)))),
    h("h2", {}, m === "forfeit" ? "Give up one piece" : target ? `Piece for ${cityName(ctx, target.city)} lot ${target.lot}` : "Your pieces this round"),
    h("div", { class: "inline", id: "pieces", role: "group", "aria-label": "Your selected pieces" }, selected.map((size, i) =>
      h("button", {
        type: "button", class: `piece-button f${size}`, "aria-disabled": pieceLegal(size) ? null : "true",
        "aria-label": `${m === "forfeit" ? "Give up" : "Build"} a ${size}-floor piece`,
        dataset: { key: `piece${i}`, size: String(size), legal: String(pieceLegal(size)) },
        onclick: () => pieceClick(size),
      }, String(size)))));
}

export function renderControls(ctx) {
  if (ctx.state.phase === "select") {
    const hand = h("div", { class: "hand", role: "group", "aria-label": "Your hand" }, (ctx.state.hand || []).map((card) =>
      h("span", { class: "card", "aria-label": `Card for lot ${card.lot}`, role: "img" }, cardPicture(ctx, card.lot), h("span", { "aria-hidden": "true" }, `lot ${card.lot}`))));
    return [ctx.myTurn ? renderSelect(ctx) : h("p", {}, "The players choose their pieces for this round, one after another."),
      h("h2", {}, "Your cards"), hand];
  }
  if (ctx.state.phase === "build") return renderBuild(ctx);
  return null;
}

export function playerDetails(ctx, seat) {
  const p = ctx.state.players[seat];
  const stock = [1, 2, 3, 4].map((s) => `${p.stock[String(s)]}×${s}`).join(" ");
  return [
    h("span", {}, `${SIDE_NAME[p.side]} side · score ${p.score}`), h("br"),
    h("span", {}, `stock ${stock}`), h("br"),
    h("span", {}, `this round: ${p.selected.length ? p.selected.join(" ") : "none"} · ${p.hand_size} cards`),
    p.forfeited.length ? h("span", {}, ` · gave up ${p.forfeited.join(" ")}`) : null,
  ];
}

export function renderInfo(ctx) {
  const s = ctx.state;
  const promo = s.promo && s.promo.enabled
    ? h("p", {}, "Promotion card: ", h("strong", {}, s.promo.current ? PROMOS[s.promo.current] || s.promo.current : "none"))
    : null;
  return h("section", { class: "panel", "aria-labelledby": "round-title" },
    h("h2", { id: "round-title" }, `Round ${Math.min(s.round, s.rounds)} of ${s.rounds}`),
    h("p", {}, `${s.phase === "select" ? "Choosing pieces" : s.phase === "build" ? "Building" : "Over"} · ${s.deck_size} cards in the deck · ${s.discard_pile.length} played`),
    promo);
}

/** Rounds' points by category (the promotion card's row only in a game with them). */
export function renderScore(ctx, score) {
  if (!score.rounds || !score.rounds.length) return h("p", {}, "No round scored yet.");
  const seats = ctx.view.players.map((p) => p.seat);
  const promos = Boolean(ctx.view.options.promo_cards);
  const categories = CATEGORIES.filter(([key]) => key !== "promo" || promos);
  const label = (round, key, text) => {
    if (key !== "promo") return text;
    const card = round.promo_scored || round.promo;
    return card ? `${text}: ${PROMOS[card] || card}` : text;
  };
  return h("table", { class: "scores" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "round-col" }, "Round"), h("th", { scope: "col", class: "category-col" }, "Category"),
      seats.map((s) => h("th", { scope: "col" }, ctx.tag(s))))),
    h("tbody", {}, score.rounds.map((round) => categories.map(([key, text], i) =>
      h("tr", {}, i === 0 ? h("th", { scope: "row", rowspan: categories.length }, String(round.round)) : null,
        h("td", {}, label(round, key, text)),
        seats.map((s) => h("td", { class: "num", dataset: { seat: String(s), key } }, String(round.categories[key][s]))))))),
    h("tfoot", {}, h("tr", { class: "total" }, h("th", { scope: "row", colspan: 2 }, "Total"),
      seats.map((s) => h("td", { class: "num", dataset: { seat: String(s), key: "total" } }, String(score.totals[s]))))));
}

export function describe(e, ctx) {
  const who = (s) => `${ctx.name(s)} (${LETTERS[s]})`;
  switch (e.type) {
    case "pieces_selected": return `${who(e.seat)} chose pieces ${e.pieces.join(" ")}.`;
    case "piece_placed": {
      const taken = e.previous_owner !== null && e.previous_owner !== e.owner ? `, taking it from ${who(e.previous_owner)}` : "";
      return `${who(e.seat)} built ${floors(e.floors)} on ${cityName(ctx, e.city)} lot ${e.lot}: ${floors(e.height)} now${taken}.`;
    }
    case "card_discarded": return `${who(e.seat)} discarded the card for lot ${e.lot}.`;
    case "deck_reshuffled": return `The deck was reshuffled (${e.size} cards).`;
    case "piece_forfeited": return `${who(e.seat)} gave up a ${e.floors}-floor piece.`;
    case "round_scored": return `Round ${e.round} scored: ${e.totals.map((t, s) => `${LETTERS[s]} ${t}`).join(", ")}.`;
    case "round_started": return `Round ${e.round} starts with ${who(e.start_player)}.`;
    case "game_over": return "The last round is scored.";
    default: return null;
  }
}

/** The board after `events` (for stepping through a finished game). */
export function replayState(events, ctx) {
  const cities = ctx.state.cities.map((c) => ({
    ...c, lots: c.lots.map((l) => ({ lot: l.lot, pieces: [], height: 0, owner: null })),
  }));
  for (const e of events) {
    if (e.type !== "piece_placed") continue;
    const lot = cities[e.city - 1].lots[e.lot - 1];
    lot.pieces.push({ seat: e.seat, floors: e.floors });
    lot.height = e.height;
    lot.owner = e.owner;
  }
  return { cities };
}
