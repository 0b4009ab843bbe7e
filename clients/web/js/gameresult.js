// The game page's players and result panels (clients/web/js/game.js): who sits where and
// who is to act, with clocks; the final ranking with each seat's rating change.
import { h } from "./dom.js";
import { clockTime, dec1, num, t } from "./i18n.js";
import { changeText, leaderboardLink, profileLink, ratingText } from "./leaderboard.js";
import { statusText } from "./gamelabels.js";

export function playersPanel(page) {
  const v = page.view;
  return h("section", { class: "panel", "aria-labelledby": "players-title" },
    h("h2", { id: "players-title" }, t("game.players.title")),
    v.options.clock ? h("p", { class: "clock-rule", id: "clock-rule" },
      t("game.players.clock", { seconds: v.options.clock.turn_seconds, timeouts: v.options.clock.max_timeouts })) : null,
    h("ul", { class: "players" }, v.players.map((p) => h("li", { class: v.to_act.includes(p.seat) ? "to-act" : "" },
      page.tag(p.seat), p.seat === page.seat ? t("common.you") : "",
      v.to_act.includes(p.seat) ? h("span", { class: "badge" }, t("game.players.to_act")) : null,
      h("span", { class: `seat-status ${p.status || "active"}`, dataset: { seatStatus: p.status || "active" } },
        p.status && p.status !== "active" ? `${statusText(p.status)}${p.bot ? ` (${t(`game.bot.${p.bot}`)})` : ""}` : t("game.players.active")),
      p.deadline && v.status === "running" && v.to_act.includes(p.seat)
        ? h("span", { class: "deadline", dataset: { deadlineOf: p.deadline }, title: t("game.players.deadline", { time: clockTime(new Date(p.deadline)) }) }, "") : null,
      p.timeouts ? h("span", { class: "timeouts" }, t("game.players.missed", { count: p.timeouts })) : null,
      v.state ? h("div", { class: "details" }, page.rules.playerDetails(page.context(), p.seat)) : null))));
}

export function resultPanel(page) {
  const v = page.view;
  if (v.status !== "finished" || !v.result) return null;
  // A rated game's result says each seat's rating before and after it.
  const rated = new Map((v.result.ratings || []).map((r) => [r.seat, r]));
  return h("section", { class: "panel result", "aria-labelledby": "result-title", id: "result" },
    h("h2", { id: "result-title" }, t("game.result.title")),
    h("table", {}, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("game.result.rank")), h("th", { scope: "col" }, t("board.player")),
      h("th", { scope: "col", class: "num" }, t("game.result.total")), rated.size ? h("th", { scope: "col", class: "num" }, t("board.rating")) : null)),
      h("tbody", {}, v.result.standings.map((s) => h("tr", {},
        // Resigned seats share the last place: they say so rather than show a rank.
        h("td", { dataset: { rank: s.resigned ? "resigned" : String(s.rank) } }, s.resigned ? t("game.result.resigned") : num(s.rank)),
        h("td", {}, page.tag(s.seat)), h("td", { class: "num" }, num(s.total)),
        rated.size ? ratingCell(page, rated.get(s.seat)) : null)))),
    rated.size ? h("p", { class: "hint" }, t("game.result.rating_hint"), " ",
      h("a", { href: leaderboardLink() }, t("nav.leaderboard"))) : null);
}

/** "+193" (up or down), with "1000 → 1193" under it and mu ± sigma on hover; a bot's rating is fixed. */
export function ratingCell(page, entry) {
  if (!entry || entry.before.rating === undefined) return h("td", {}); // a result stored before ratings were shown
  const [before, after] = [entry.before.rating, entry.after.rating];
  const detail = `${ratingText(before)} → ${ratingText(after)}`;
  const title = t("game.result.rating_title", {
    before: ratingText(before), before_mu: dec1(entry.before.mu), before_sigma: dec1(entry.before.sigma),
    after: ratingText(after), after_mu: dec1(entry.after.mu), after_sigma: dec1(entry.after.sigma),
  });
  if (entry.bot) return h("td", { class: "num rating-change", title, dataset: { seat: entry.seat } }, ratingText(after), h("span", { class: "spread" }, t("game.result.bot_fixed")));
  const delta = after - before;
  const change = h("span", { class: `delta ${delta >= 0 ? "up" : "down"}` }, changeText(delta));
  return h("td", { class: "num rating-change", title, dataset: { seat: entry.seat, before: String(before), after: String(after) } },
    entry.player ? h("a", { href: profileLink(entry.player), "aria-label": t("game.result.change_label", { name: page.name(entry.seat), change: changeText(delta), detail }) }, change) : change,
    h("span", { class: "spread" }, detail));
}
