// Entry point: which game this service serves, then the lobby or a game page.
import { call, setBase } from "./api.js";
import { showLobby } from "./lobby.js";
import { showGame } from "./game.js";
import { showLeaderboard, showProfile } from "./leaderboard.js";
import { h } from "./dom.js";

async function main() {
  const config = await fetch("/play/config.json").then((r) => r.json());
  setBase(config.api_base || "");
  document.body.dataset.game = config.game;
  document.getElementById("brand").textContent = `${config.title}`;
  const params = new URLSearchParams(location.search);
  const gameId = params.get("game");
  if (gameId) {
    document.title = `${config.title} · game ${gameId}`;
    await showGame(config, gameId, params.get("watch") === "1", params.get("invite"));
  } else if (params.get("player")) {
    document.title = `${config.title} · player`;
    await showProfile(config, params.get("player"));
  } else if (params.has("leaderboard")) {
    document.title = `${config.title} · leaderboard`;
    await showLeaderboard(config);
  } else {
    document.title = `${config.title} · lobby`;
    await showLobby(config);
  }
}

main().catch((error) => {
  const where = document.getElementById("main");
  where.replaceChildren(h("p", { class: "problem" }, `Something went wrong: ${error.message}`));
  void call; // the API module is loaded for its side effects only here
});
