// Entry point: the page's language, which game this service serves, then the lobby, a
// game page, the leaderboard, a profile, the tournaments (their list, one's page), the
// game's "How to play" or the notifications.
import { LANGUAGES, language, loadLanguage, setLanguage, t } from "./i18n.js";
import { setBase, setWatchCode } from "./api.js";
import { fill, h } from "./dom.js";
import { registerWorker } from "./notifications.js";

/** The switch in the header: the language is kept in this browser (localStorage). */
function languageSwitch() {
  const select = h("select", { id: "lang", "aria-label": t("page.language"), onchange: (e) => setLanguage(e.target.value) },
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code, selected: code === language() }, name)));
  fill(document.getElementById("language"), select);
}

async function main() {
  await loadLanguage();
  registerWorker();
  languageSwitch();
  document.getElementById("links").setAttribute("aria-label", t("page.links"));
  const config = await fetch("/play/config.json").then((r) => r.json());
  config.title = t(`games.${config.game}`);
  setBase(config.api_base || "");
  document.body.dataset.game = config.game;
  document.getElementById("brand").textContent = config.title;
  const params = new URLSearchParams(location.search);
  const gameId = params.get("game");
  const titled = (key, fields = {}) => { document.title = t(key, { title: config.title, ...fields }); };
  if (gameId) {
    titled("page.title.game", { id: gameId });
    const { showGame } = await import("./game.js");
    // `watch=1`: the spectator's page; `watch=<code>`: the same, with a watch link's
    // code; an invite code lets one watch too (a `link` game's reads need either)
    const watch = params.get("watch");
    if (watch && watch !== "1") setWatchCode(watch);
    else if (params.get("invite")) setWatchCode(params.get("invite"));
    await showGame(config, gameId, watch !== null, params.get("invite"));
  } else if (params.get("player")) {
    titled("page.title.player");
    const { showProfile } = await import("./leaderboard.js");
    await showProfile(config, params.get("player"));
  } else if (params.has("leaderboard")) {
    titled("page.title.leaderboard");
    const { showLeaderboard } = await import("./leaderboard.js");
    await showLeaderboard(config);
  } else if (params.get("tournament")) {
    titled("page.title.tournaments");
    const { showTournament } = await import("./tournament.js");
    await showTournament(config, params.get("tournament"));
  } else if (params.has("tournaments")) {
    titled("page.title.tournaments");
    const { showTournaments } = await import("./tournaments.js");
    await showTournaments(config);
  } else if (params.has("notifications")) {
    titled("page.title.notifications");
    const { showNotifications } = await import("./settings.js");
    await showNotifications(config);
  } else if (params.has("howto")) {
    titled("page.title.howto");
    const { showHowto } = await import("./howto.js");
    showHowto(config);
  } else {
    titled("page.title.lobby");
    const { showLobby } = await import("./lobby.js");
    await showLobby(config);
  }
}

main().catch((error) => {
  const where = document.getElementById("main");
  fill(where, h("p", { class: "problem" }, t("page.broken", { message: error.message })));
});
