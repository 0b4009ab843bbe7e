// Manhattan: six cities of 3x3 lots seen from the player's side, the hand drawn as the
// lots its cards allow, pieces, and a move chosen as card (or lot), then piece.
import { LETTERS } from "./api.js";
import { h, keyboardGrid } from "./dom.js";
import { joined, num, t, tn } from "./i18n.js";

const QUARTER = { S: 0, W: 1, N: 2, E: 3 };
const sideName = (side) => t(`manhattan.side.${side}`);
const promoName = (id) => t(`manhattan.promo.${id}`);
const CATEGORIES = ["tallest", "majority", "buildings", "promo"];

/** Board [row, col] (row 0 north, col 0 west) shown at display (r, c) to a viewer turned q quarters. */
function toBoard(q, r, c, width, height) {
  if (q === 1) return [c, width - 1 - r];
  if (q === 2) return [height - 1 - r, width - 1 - c];
  if (q === 3) return [height - 1 - c, r];
  return [r, c];
}

const sideOf = (ctx) => (ctx.seat !== null && ctx.state.players[ctx.seat]) ? ctx.state.players[ctx.seat].side : "S";
const floors = (n) => t("manhattan.floors", { n });
/** A city's name in the page's language (the API gives the English one). */
const cityName = (ctx, city) => t(`manhattan.city.${city}`);
const lotName = (ctx, city, lot) => t("manhattan.lot_in_city", { city: cityName(ctx, city), lot });

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
    case "select": return t("manhattan.hint.select", { count: ctx.state.pieces_per_round, round: ctx.state.round });
    case "discard": return t("manhattan.hint.discard");
    case "forfeit": return t("manhattan.hint.forfeit");
    default: return t("manhattan.hint.place");
  }
}

function floorsOf(lot, seat) {
  return lot.pieces.filter((p) => p.seat === seat).reduce((sum, p) => sum + p.floors, 0);
}

/** Why (city, lot) cannot take a piece now, in words. */
function whyNot(ctx, city, lot) {
  if (ctx.seat === null) return t("common.watching");
  if (ctx.view.status !== "running") return t("common.not_running");
  if (!ctx.myTurn) return t("common.not_your_turn_waiting", { who: joined(ctx.view.to_act.map(ctx.name)) });
  const m = mode(ctx);
  if (m === "select") return t("manhattan.why.select");
  if (m === "discard") return t("manhattan.why.discard");
  if (m === "forfeit") return t("manhattan.why.forfeit");
  const hand = ctx.state.hand || [];
  const where = lotName(ctx, city, lot);
  if (!hand.some((c) => c.lot === lot)) {
    const lots = joined([...new Set(hand.map((c) => c.lot))].sort());
    return t("manhattan.why.no_card", { lot, lots });
  }
  const here = ctx.state.cities[city - 1].lots[lot - 1];
  const mine = floorsOf(here, ctx.seat);
  const theirs = floorsOf(here, here.owner);
  const biggest = Math.max(...ctx.state.players[ctx.seat].selected);
  return t("manhattan.why.floors", { where, owner: ctx.name(here.owner), theirs: floors(theirs), mine, biggest });
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
  const label = t("manhattan.lot.label", {
    where: lotName(ctx, city, lot),
    what: here.height ? t("manhattan.lot.owned", { floors: floors(here.height), owner: ctx.name(owner), letter: LETTERS[owner] }) : t("manhattan.lot.empty"),
    held: held.length > 1 ? t("manhattan.lot.held", { list: joined(held.map(([seat, n]) => t("manhattan.lot.holder", { name: ctx.name(seat), floors: floors(n) }))) }) : "",
    legal: legal ? "yes" : "no", chosen: target ? "yes" : "no",
  });
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
      const grid = h("div", { class: "lots", role: "group", "aria-label": t("manhattan.city_lots", { city: cityName(ctx, city) }) });
      for (let lr = 0; lr < 3; lr++) {
        for (let lc = 0; lc < 3; lc++) {
          const [sr, sc] = toBoard(q, lr, lc, 3, 3);
          grid.append(lotButton(ctx, city, sr * 3 + sc + 1, state, legalMap, active));
        }
      }
      keyboardGrid(grid, `city${city}`, 3);
      cities.push(h("div", { class: "city", dataset: { city: String(city) } },
        h("h3", {}, t("manhattan.city_title", { number: city, city: cityName(ctx, city) })), grid));
    }
  }
  return [
    h("h2", { class: "board-title" }, replay ? t("common.board_at_step") : t("manhattan.board_title", { side: sideName(side) })),
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
    if (pick.length >= need) { ctx.say(t("manhattan.select.full", { count: need })); return; }
    if (left(size) <= 0) { ctx.say(t("manhattan.select.none_left", { size })); return; }
    ctx.say("");
    pick.push(size); pick.sort((a, b) => a - b); ctx.update();
  };
  const remove = (i) => { pick.splice(i, 1); ctx.update(); };
  return h("div", { id: "select" },
    h("h2", {}, t("manhattan.select.title", { count: need, round: ctx.state.round })),
    h("div", { class: "inline", role: "group", "aria-label": t("manhattan.select.add") }, [1, 2, 3, 4].map((size) => {
      const ok = left(size) > 0 && pick.length < need;
      return h("button", {
        type: "button", class: `piece-button f${size}`, "aria-disabled": ok ? null : "true",
        dataset: { key: `add${size}`, size: String(size), legal: String(ok) }, onclick: () => add(size),
      }, `+ ${size}`, h("span", { class: "sr" }, t("manhattan.select.piece_sr", { size })), h("small", {}, t("manhattan.select.left", { count: left(size) })));
    })),
    h("p", { id: "pick-count" }, t("manhattan.select.chosen", { count: pick.length, need })),
    h("div", { class: "inline", id: "picked", role: "group", "aria-label": t("manhattan.select.chosen_label") }, pick.map((size, i) =>
      h("button", { type: "button", class: `chip f${size}`, dataset: { key: `pick${i}` }, onclick: () => remove(i), "aria-label": t("manhattan.select.remove", { size }) }, String(size)))),
    h("button", {
      type: "button", class: "primary", id: "confirm-pieces", disabled: pick.length !== need || ctx.busy,
      onclick: () => ctx.send({ type: "select", pieces: [...pick] }),
    }, t("manhattan.select.confirm")));
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
    if (!ctx.myTurn) { ctx.say(t("common.not_your_turn")); return; }
    if (m === "discard") { ctx.send({ type: "discard", lot: card.lot }); return; }
    if (m === "forfeit") { ctx.say(t("manhattan.build.no_card_helps")); return; }
    if (!lotsWithMoves.has(card.lot)) {
      ctx.say(t("manhattan.build.card_useless", { lot: card.lot })); return;
    }
    ctx.say("");
    ctx.ui.card = ctx.ui.card === card.lot ? null : card.lot;
    if (target && target.lot !== ctx.ui.card) ctx.ui.target = null;
    ctx.update();
  };
  const pieceClick = (size) => {
    if (!ctx.myTurn) { ctx.say(t("common.not_your_turn")); return; }
    if (m === "forfeit") { ctx.send({ type: "forfeit", floors: size }); return; }
    if (m === "discard") { ctx.say(t("manhattan.build.discard_first")); return; }
    if (!target) { ctx.say(t("manhattan.build.lot_first")); return; }
    if (!targetSizes.has(size)) { ctx.say(t("manhattan.build.piece_not_here", { size, where: lotName(ctx, target.city, target.lot) })); return; }
    ctx.send({ type: "place", city: target.city, lot: target.lot, floors: size });
  };
  const cardLegal = (card) => ctx.myTurn && (m === "discard" || (m === "place" && lotsWithMoves.has(card.lot)));
  const pieceLegal = (size) => ctx.myTurn && (m === "forfeit" || (m === "place" && !!targetSizes && targetSizes.has(size)));
  const what = m === "discard" ? t("manhattan.build.discard_title") : m === "forfeit" ? t("manhattan.build.forfeit_title") : t("manhattan.cards");
  return h("div", { id: "build" },
    h("h2", {}, what),
    h("div", { class: "hand", id: "hand", role: "group", "aria-label": t("manhattan.hand") }, hand.map((card, i) =>
      h("button", {
        type: "button", class: `card${ctx.ui.card === card.lot ? " chosen" : ""}`,
        "aria-pressed": m === "place" ? String(ctx.ui.card === card.lot) : null,
        "aria-disabled": cardLegal(card) ? null : "true",
        "aria-label": t("manhattan.build.card_label", { discard: m === "discard" ? "yes" : "no", lot: card.lot, printed: card.card }),
        dataset: { key: `card${i}`, lot: String(card.lot), legal: String(cardLegal(card)) },
        onclick: () => cardClick(card),
      }, cardPicture(ctx, card.lot), h("span", { "aria-hidden": "true" }, t("manhattan.lot_short", { lot: card.lot }))))),
    h("h2", {}, m === "forfeit" ? t("manhattan.build.forfeit_one") : target ? t("manhattan.build.piece_for", { where: lotName(ctx, target.city, target.lot) }) : t("manhattan.build.pieces")),
    h("div", { class: "inline", id: "pieces", role: "group", "aria-label": t("manhattan.build.pieces_label") }, selected.map((size, i) =>
      h("button", {
        type: "button", class: `piece-button f${size}`, "aria-disabled": pieceLegal(size) ? null : "true",
        "aria-label": t("manhattan.build.piece_label", { forfeit: m === "forfeit" ? "yes" : "no", size }),
        dataset: { key: `piece${i}`, size: String(size), legal: String(pieceLegal(size)) },
        onclick: () => pieceClick(size),
      }, String(size)))));
}

export function renderControls(ctx) {
  if (ctx.state.phase === "select") {
    const hand = h("div", { class: "hand", role: "group", "aria-label": t("manhattan.hand") }, (ctx.state.hand || []).map((card) =>
      h("span", { class: "card", "aria-label": t("manhattan.card_for", { lot: card.lot }), role: "img" }, cardPicture(ctx, card.lot), h("span", { "aria-hidden": "true" }, t("manhattan.lot_short", { lot: card.lot })))));
    return [ctx.myTurn ? renderSelect(ctx) : h("p", {}, t("manhattan.select.others")),
      h("h2", {}, t("manhattan.cards")), hand];
  }
  if (ctx.state.phase === "build") return renderBuild(ctx);
  return null;
}

export function playerDetails(ctx, seat) {
  const p = ctx.state.players[seat];
  const stock = [1, 2, 3, 4].map((s) => `${p.stock[String(s)]}×${s}`).join(" ");
  return [
    h("span", {}, t("manhattan.player.side", { side: sideName(p.side), score: p.score })), h("br"),
    h("span", {}, t("manhattan.player.stock", { stock })), h("br"),
    h("span", {}, t("manhattan.player.round", { pieces: p.selected.length ? p.selected.join(" ") : t("manhattan.player.none"), cards: p.hand_size })),
    p.forfeited.length ? h("span", {}, t("manhattan.player.gave_up", { pieces: p.forfeited.join(" ") })) : null,
  ];
}

export function renderInfo(ctx) {
  const s = ctx.state;
  const promo = s.promo && s.promo.enabled
    ? h("p", {}, tn("manhattan.info.promo", { card: h("strong", {}, s.promo.current ? promoName(s.promo.current) : t("manhattan.player.none")) }))
    : null;
  return h("section", { class: "panel", "aria-labelledby": "round-title" },
    h("h2", { id: "round-title" }, t("manhattan.info.round", { round: Math.min(s.round, s.rounds), rounds: s.rounds })),
    h("p", {}, t("manhattan.info.line", { phase: s.phase, deck: s.deck_size, played: s.discard_pile.length })),
    promo);
}

/** Rounds' points by category (the promotion card's row only in a game with them). */
export function renderScore(ctx, score) {
  if (!score.rounds || !score.rounds.length) return h("p", {}, t("manhattan.score.none"));
  const seats = ctx.view.players.map((p) => p.seat);
  const promos = Boolean(ctx.view.options.promo_cards);
  const categories = CATEGORIES.filter((key) => key !== "promo" || promos);
  const label = (round, key) => {
    const text = t(`manhattan.score.${key}`);
    if (key !== "promo") return text;
    const card = round.promo_scored || round.promo;
    return card ? t("manhattan.score.promo_named", { card: promoName(card) }) : text;
  };
  return h("table", { class: "scores", dataset: { seats: String(seats.length) } },
    h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "round-col" }, t("manhattan.score.round")), h("th", { scope: "col", class: "category-col" }, t("manhattan.score.category")),
      seats.map((s) => h("th", { scope: "col", class: "seat-col" }, ctx.tag(s))))),
    h("tbody", {}, score.rounds.map((round) => categories.map((key, i) =>
      h("tr", {}, i === 0 ? h("th", { scope: "row", rowspan: categories.length }, num(round.round)) : null,
        h("td", {}, label(round, key)),
        seats.map((s) => h("td", { class: "num", dataset: { seat: String(s), key } }, num(round.categories[key][s]))))))),
    h("tfoot", {}, h("tr", { class: "total" }, h("th", { scope: "row", colspan: 2 }, t("game.result.total")),
      seats.map((s) => h("td", { class: "num", dataset: { seat: String(s), key: "total" } }, num(score.totals[s]))))));
}

export function describe(e, ctx) {
  const who = (s) => `${ctx.name(s)} (${LETTERS[s]})`;
  switch (e.type) {
    case "pieces_selected": return t("manhattan.event.pieces_selected", { who: who(e.seat), pieces: e.pieces.join(" ") });
    case "piece_placed": {
      const taken = e.previous_owner !== null && e.previous_owner !== e.owner;
      return t("manhattan.event.piece_placed", {
        who: who(e.seat), floors: floors(e.floors), where: lotName(ctx, e.city, e.lot), height: floors(e.height),
        taken: taken ? "yes" : "no", from: taken ? who(e.previous_owner) : "",
      });
    }
    case "card_discarded": return t("manhattan.event.card_discarded", { who: who(e.seat), lot: e.lot });
    case "deck_reshuffled": return t("event.deck_reshuffled", { size: e.size });
    case "piece_forfeited": return t("manhattan.event.piece_forfeited", { who: who(e.seat), size: e.floors });
    case "round_scored": return t("manhattan.event.round_scored", { round: e.round, totals: joined(e.totals.map((n, s) => `${LETTERS[s]} ${num(n)}`)) });
    case "round_started": return t("manhattan.event.round_started", { round: e.round, who: who(e.start_player) });
    case "game_over": return t("manhattan.event.game_over");
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
