// Ratings: this service's leaderboard (GET /leaderboards/{game}, paged with its cursor)
// and a player's profile (GET /players/{id}). A rating is shown as the answers' `rating`
// (everyone starts at 1000), explained in words, mu ± sigma only on hover; the
// leaderboard says how many rated games a player needs to show on it (its page's
// `min_games`) and how many more the browser's own player needs (`games_to_rank`).
import { call, howtoLink, loadPlayer, tournamentsLink } from "./api.js";
import { fill, h } from "./dom.js";
import { dec1, num, percent, t } from "./i18n.js";

const PAGE = 25;
export const ratingText = (value) => num(value, { useGrouping: false });
export const changeText = (delta) => `${delta >= 0 ? "+" : "−"}${ratingText(Math.abs(delta))}`;
/** mu ± sigma and how the rating comes from them: a rating cell's hover text. */
const detail = (r) => t("board.detail", { mu: dec1(r.mu), sigma: dec1(r.sigma) });
const share = (value) => percent(value);

export const leaderboardLink = () => "/play?leaderboard=1";
export const profileLink = (id) => `/play?${new URLSearchParams({ player: id })}`;

/** What a rating is and which games count, in words: the same on the leaderboard and a profile. */
const explained = () => [h("p", { class: "hint", id: "rating-about" }, t("board.about")),
  h("p", { class: "hint", id: "rating-rated" }, t("board.rated"))];

/** The player's own way to the leaderboard: rated games played, and how many more it needs
 * (its profile's `games_to_rank`; never rated here: the page's `min_games`). */
function progress(game, least, profile, note) {
  const rating = profile && profile.ratings[game];
  const games = rating ? rating.games : 0;
  const left = rating ? rating.games_to_rank : least;
  note.textContent = profile && left > 0 ? t("board.progress", { games, left }) : "";
}

function links() {
  fill(document.getElementById("links"),
    h("a", { href: "/play" }, t("nav.lobby")),
    h("a", { href: howtoLink(), id: "howto-link" }, t("nav.howto")),
    h("a", { href: leaderboardLink(), id: "leaderboard-link" }, t("nav.leaderboard")),
    h("a", { href: tournamentsLink(), id: "tournaments-link" }, t("nav.tournaments")));
}

function row(entry, me) {
  const mine = me && entry.player.id === me.id;
  return h("tr", { class: mine ? "mine" : null, dataset: { player: entry.player.id } },
    h("td", { class: "num" }, num(entry.rank)),
    h("td", { class: "who" }, h("a", { href: profileLink(entry.player.id) }, entry.player.name), mine ? t("common.you") : ""),
    h("td", { class: "num rating", title: detail(entry) }, ratingText(entry.rating)),
    h("td", { class: "num" }, num(entry.games)),
    h("td", { class: "num" }, share(entry.win_share)));
}

/** The leaderboard page: the best first, "More" follows the page's next_cursor. */
export async function showLeaderboard(config) {
  links();
  const main = document.getElementById("main");
  const me = loadPlayer();
  const body = h("tbody", { id: "board-rows" });
  const more = h("button", { type: "button", id: "board-more", class: "quiet", hidden: true }, t("board.more"));
  const note = h("p", { id: "board-note" });
  const mine = h("p", { id: "board-progress" });
  const rule = h("p", { id: "board-rule", hidden: true });
  const table = h("table", { class: "leaderboard", id: "leaderboard" },
    h("caption", { class: "sr" }, t("board.caption", { title: config.title })),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", class: "num" }, t("board.rank")),
      h("th", { scope: "col" }, t("board.player")),
      h("th", { scope: "col", class: "num" }, t("board.rating")),
      h("th", { scope: "col", class: "num" }, t("board.games")),
      h("th", { scope: "col", class: "num" }, t("board.won")))),
    body);
  let cursor = null;
  let least = null;
  const load = async () => {
    more.disabled = true;
    const query = new URLSearchParams({ limit: String(PAGE) });
    if (cursor) query.set("cursor", cursor);
    try {
      const page = await call("GET", `/leaderboards/${encodeURIComponent(config.game)}?${query}`);
      body.append(...page.entries.map((entry) => row(entry, me)));
      cursor = page.next_cursor;
      least = page.min_games;
      more.hidden = !cursor;
      rule.textContent = t("board.min_games", { n: least });
      note.textContent = body.children.length ? "" : t("board.nobody", { n: least });
      rule.hidden = !body.children.length; // an empty board's note says the rule and why
    } catch (error) {
      note.textContent = error.message;
      note.className = "problem";
    }
    more.disabled = false;
  };
  more.addEventListener("click", load);
  fill(main,
    h("h1", {}, t("board.heading", { title: config.title })),
    h("section", { class: "card-panel board-panel", "aria-labelledby": "board-title" },
      h("h2", { id: "board-title" }, t("board.title")),
      explained(),
      rule, mine, table, note, more));
  const profile = me ? call("GET", `/players/${encodeURIComponent(me.id)}`).catch(() => null) : null;
  await load();
  progress(config.game, least, await profile, mine);
  document.body.dataset.view = "leaderboard";
}

/** A player's public profile: their rating in each game they played rated games of. */
export async function showProfile(config, playerId) {
  links();
  const main = document.getElementById("main");
  let profile;
  try {
    profile = await call("GET", `/players/${encodeURIComponent(playerId)}`);
  } catch (error) {
    fill(main, h("h1", {}, t("profile.not_found")), h("p", { class: "problem" }, error.message),
      h("p", {}, h("a", { href: leaderboardLink() }, t("profile.back"))));
    document.body.dataset.view = "profile";
    return;
  }
  document.title = t("page.title.profile", { title: config.title, name: profile.name });
  const me = loadPlayer();
  const games = Object.entries(profile.ratings);
  const toRank = games.filter(([, r]) => r.games_to_rank > 0);
  fill(main,
    h("h1", { id: "profile-name", class: "who" }, profile.name, me && me.id === profile.id ? t("common.you") : ""),
    h("section", { class: "card-panel board-panel", id: "profile", "aria-labelledby": "profile-title", dataset: { player: profile.id } },
      h("h2", { id: "profile-title" }, t("profile.ratings")),
      games.length
        ? h("table", { class: "leaderboard", id: "profile-ratings" },
          h("thead", {}, h("tr", {},
            h("th", { scope: "col" }, t("profile.game")),
            h("th", { scope: "col", class: "num" }, t("board.rating")),
            h("th", { scope: "col", class: "num" }, t("board.games")),
            h("th", { scope: "col", class: "num" }, t("board.won")))),
          h("tbody", {}, games.map(([game, r]) => h("tr", { dataset: { game } },
            h("td", {}, t(`games.${game}`)),
            h("td", { class: "num rating", title: detail(r) }, ratingText(r.rating)),
            h("td", { class: "num" }, num(r.games)),
            h("td", { class: "num" }, share(r.win_share))))))
        : h("p", {}, t("profile.none")),
      toRank.length ? h("ul", { class: "hint", id: "profile-to-rank" }, toRank.map(([game, r]) => h("li", { dataset: { game } },
        t("profile.to_rank", { game: t(`games.${game}`), left: r.games_to_rank })))) : null,
      explained(),
      h("p", {}, h("a", { href: leaderboardLink() }, t("board.heading", { title: config.title })))));
  document.body.dataset.view = "profile";
}
