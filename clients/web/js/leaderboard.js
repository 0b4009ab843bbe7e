// Ratings: this service's leaderboard (GET /leaderboards/{game}, paged with its cursor)
// and a player's profile (GET /players/{id}). A rating is shown as its display value,
// the ordinal (mu - 3 sigma), with mu ± sigma in small text.
import { call, loadPlayer } from "./api.js";
import { h } from "./dom.js";

const PAGE = 25;
const TITLES = { manhattan: "Manhattan", windcity: "Wind City" };

export const ratingText = (value) => Number(value).toFixed(1);
export const changeText = (delta) => `${delta >= 0 ? "+" : "−"}${Math.abs(delta).toFixed(1)}`;
const spread = (r) => `${ratingText(r.mu)} ± ${ratingText(r.sigma)}`;
const share = (value) => `${Math.round(100 * Number(value || 0))}%`;

export const leaderboardLink = () => "/play?leaderboard=1";
export const profileLink = (id) => `/play?${new URLSearchParams({ player: id })}`;

function links() {
  document.getElementById("links").replaceChildren(
    h("a", { href: "/play" }, "Lobby"),
    h("a", { href: leaderboardLink(), id: "leaderboard-link" }, "Leaderboard"));
}

function row(entry, me) {
  const mine = me && entry.player.id === me.id;
  return h("tr", { class: mine ? "mine" : null, dataset: { player: entry.player.id } },
    h("td", { class: "num" }, String(entry.rank)),
    h("td", { class: "who" }, h("a", { href: profileLink(entry.player.id) }, entry.player.name), mine ? " (you)" : ""),
    h("td", { class: "num rating" }, ratingText(entry.ordinal),
      h("span", { class: "spread" }, spread(entry))),
    h("td", { class: "num" }, String(entry.games)),
    h("td", { class: "num" }, share(entry.win_share)));
}

/** The leaderboard page: the best first, "More" follows the page's next_cursor. */
export async function showLeaderboard(config) {
  links();
  const main = document.getElementById("main");
  const me = loadPlayer();
  const body = h("tbody", { id: "board-rows" });
  const more = h("button", { type: "button", id: "board-more", class: "quiet", hidden: true }, "More players");
  const note = h("p", { id: "board-note" });
  const table = h("table", { class: "leaderboard", id: "leaderboard" },
    h("caption", { class: "sr" }, `${config.title} players by rating`),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", class: "num" }, "#"),
      h("th", { scope: "col" }, "Player"),
      h("th", { scope: "col", class: "num" }, "Rating", h("span", { class: "spread" }, "mu ± sigma")),
      h("th", { scope: "col", class: "num" }, "Games"),
      h("th", { scope: "col", class: "num" }, "Won"))),
    body);
  let cursor = null;
  const load = async () => {
    more.disabled = true;
    const query = new URLSearchParams({ limit: String(PAGE) });
    if (cursor) query.set("cursor", cursor);
    try {
      const page = await call("GET", `/leaderboards/${encodeURIComponent(config.game)}?${query}`);
      body.append(...page.entries.map((entry) => row(entry, me)));
      cursor = page.next_cursor;
      more.hidden = !cursor;
      note.textContent = body.children.length ? "" : "Nobody yet: players show here after a few rated games.";
    } catch (error) {
      note.textContent = error.message;
      note.className = "problem";
    }
    more.disabled = false;
  };
  more.addEventListener("click", load);
  main.replaceChildren(
    h("h1", {}, `${config.title} leaderboard`),
    h("section", { class: "card-panel board-panel", "aria-labelledby": "board-title" },
      h("h2", { id: "board-title" }, "Players by rating"),
      h("p", { class: "hint" }, "The rating is a cautious estimate of skill (mu − 3 sigma), from every rated game's final ranking. " +
        "A game is rated when every person at the table plays as a player."),
      table, note, more));
  await load();
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
    main.replaceChildren(h("h1", {}, "Player not found"), h("p", { class: "problem" }, error.message),
      h("p", {}, h("a", { href: leaderboardLink() }, "Back to the leaderboard")));
    document.body.dataset.view = "profile";
    return;
  }
  document.title = `${config.title} · ${profile.name}`;
  const me = loadPlayer();
  const games = Object.entries(profile.ratings);
  main.replaceChildren(
    h("h1", { id: "profile-name", class: "who" }, profile.name, me && me.id === profile.id ? " (you)" : ""),
    h("section", { class: "card-panel board-panel", id: "profile", "aria-labelledby": "profile-title", dataset: { player: profile.id } },
      h("h2", { id: "profile-title" }, "Ratings"),
      games.length
        ? h("table", { class: "leaderboard", id: "profile-ratings" },
          h("thead", {}, h("tr", {},
            h("th", { scope: "col" }, "Game"),
            h("th", { scope: "col", class: "num" }, "Rating", h("span", { class: "spread" }, "mu ± sigma")),
            h("th", { scope: "col", class: "num" }, "Games"),
            h("th", { scope: "col", class: "num" }, "Won"))),
          h("tbody", {}, games.map(([game, r]) => h("tr", { dataset: { game } },
            h("td", {}, TITLES[game] || game),
            h("td", { class: "num rating" }, ratingText(r.ordinal), h("span", { class: "spread" }, spread(r))),
            h("td", { class: "num" }, String(r.games)),
            h("td", { class: "num" }, share(r.win_share))))))
        : h("p", {}, "No rated games yet."),
      h("p", {}, h("a", { href: leaderboardLink() }, `${config.title} leaderboard`))));
  document.body.dataset.view = "profile";
}
