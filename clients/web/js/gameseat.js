// The game page's seat panel (clients/web/js/game.js): the invite to share, joining, the
// host's bots, start and cancel, play again, and resigning with a confirmation.
import { gameLink } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { statusText } from "./gamelabels.js";

const BOT_LEVELS = ["random", "greedy", "medium", "strong"];

export function seatPanel(page, joinLink) {
  const v = page.view;
  const parts = [];
  if (v.status === "open") {
    const unlisted = v.visibility === "unlisted";
    if (joinLink) {
      parts.push(h("div", { class: "share" },
        h("label", { for: "join-link" }, unlisted ? t("game.seat.invite_private") : t("game.seat.invite")),
        h("input", { id: "join-link", readonly: true, value: joinLink, onfocus: (e) => e.target.select() })));
    } else if (page.record && page.record.rematch) {
      // A rematch holds its seats for the last game's players: nobody needs an invite.
      parts.push(h("p", { id: "held-note" }, t("game.seat.held_note")));
    } else if (unlisted) {
      parts.push(h("p", { id: "private-note" }, t("game.seat.private_note")));
    }
    if (page.seat === null && !page.watch) {
      const form = h("form", { id: "join", class: "inline" },
        h("label", { for: "join-name" }, t("game.seat.your_name")),
        h("input", {
          id: "join-name", name: "name", required: true, maxlength: 32, autocomplete: "nickname",
          value: page.player ? page.player.name : null,
        }),
        h("button", { type: "submit", class: "primary" }, t("game.seat.join")));
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const name = form.elements.name.value.trim();
        if (name) page.join(name);
      });
      parts.push(form);
    }
    if (page.record && page.record.host && v.players.length < v.options.players) {
      const bot = h("form", { id: "add-bot-form", class: "inline" },
        h("label", { for: "bot-kind" }, t("game.seat.bot_label")),
        h("select", { id: "bot-kind", name: "bot" }, BOT_LEVELS.map((level) =>
          h("option", { value: level, selected: level === "greedy" }, t(`game.seat.bot_level.${level}`)))),
        h("button", { type: "submit", id: "add-bot" }, t("game.seat.add_bot")));
      bot.addEventListener("submit", (event) => { event.preventDefault(); page.addBot(bot.elements.bot.value); });
      parts.push(bot);
    }
    if (page.record && page.record.host) {
      parts.push(h("div", { class: "inline" },
        h("button", { type: "button", id: "start-game", class: "primary", onclick: () => page.host("start") }, t("game.seat.start")),
        h("button", { type: "button", id: "cancel-game", class: "quiet", onclick: () => page.host("cancel") }, t("game.seat.cancel"))));
    }
  } else if (page.seat === null) {
    parts.push(h("p", {}, t("game.seat.watching")));
    if (v.next_game) {
      parts.push(h("p", {}, h("a", { href: gameLink(v.next_game, { watch: true }), id: "watch-next" }, t("game.seat.watch_next"))));
    }
  } else if (v.status === "finished") {
    parts.push(h("div", { class: "inline", id: "again" }, v.next_game
      ? [h("p", {}, t("game.seat.next_asked")),
        h("button", { type: "button", id: "next-game", class: "primary", disabled: page.busy, onclick: () => page.playAgain() }, t("game.seat.next_go"))]
      : h("button", { type: "button", id: "play-again", class: "primary", disabled: page.busy, onclick: () => page.playAgain() }, t("game.seat.play_again"))));
  } else if (v.status === "running") {
    const me = v.players.find((p) => p.seat === page.seat);
    if (me && me.status === "active") parts.push(resignBox(page));
    else if (me) parts.push(h("p", { id: "seat-status" }, t("game.seat.status", { status: statusText(me.status) })));
  }
  return parts;
}

export function resignBox(page) {
  if (!page.confirmingResign) {
    return h("div", { class: "inline" }, h("button", {
      type: "button", id: "resign-open", class: "quiet", "aria-haspopup": "true",
      onclick: () => {
        page.confirmingResign = true; page.render();
        document.getElementById("resign-confirm").focus();
      },
    }, t("game.resign.open")));
  }
  return h("div", { class: "confirm", id: "resign-box", role: "group", "aria-labelledby": "resign-question" },
    h("p", { id: "resign-question" }, t("game.resign.question")),
    h("div", { class: "inline" },
      h("button", { type: "button", id: "resign-confirm", class: "danger", onclick: () => page.resign() }, t("game.resign.confirm")),
      h("button", {
        type: "button", id: "resign-cancel",
        onclick: () => { page.confirmingResign = false; page.render(); document.getElementById("resign-open").focus(); },
      }, t("game.resign.keep"))));
}
