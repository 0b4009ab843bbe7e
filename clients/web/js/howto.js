// "How to play": the rules of this service's game in the page's language, written from
// the rule specs (setup, a turn, scoring, the end). The text is in the catalogs, under
// howto.<game>.<section>: "title" is the section's heading, "pN" a paragraph and "liN"
// an item of a list; sections and items come in the catalog's order.
import { howtoLink } from "./api.js";
import { fill, h } from "./dom.js";
import { keysUnder, t } from "./i18n.js";

function section(name, keys) {
  const out = h("section", { class: "card-panel howto-section", id: `howto-${name}`, "aria-labelledby": `howto-${name}-title` });
  let list = null;
  for (const key of keys) {
    const part = key.split(".").pop();
    if (part === "title") { out.append(h("h2", { id: `howto-${name}-title` }, t(key))); continue; }
    if (part.startsWith("li")) {
      if (!list) { list = h("ul"); out.append(list); }
      list.append(h("li", {}, t(key)));
      continue;
    }
    list = null;
    out.append(h("p", {}, t(key)));
  }
  return out;
}

export function showHowto(config) {
  const game = config.game;
  const back = new URLSearchParams(location.search).get("back");
  const prefix = `howto.${game}.`;
  const sections = new Map();
  for (const key of keysUnder(prefix)) {
    const name = key.slice(prefix.length).split(".")[0];
    if (!sections.has(name)) sections.set(name, []);
    sections.get(name).push(key);
  }
  const intro = sections.get("intro") || [];
  sections.delete("intro");
  fill(document.getElementById("links"),
    h("a", { href: "/play" }, t("nav.lobby")),
    back ? h("a", { href: `/play?${new URLSearchParams({ game: back })}`, id: "back-to-game" }, t("howto.back_game")) : null,
    h("a", { href: howtoLink(), id: "howto-link", "aria-current": "page" }, t("nav.howto")));
  fill(document.getElementById("main"),
    h("article", { class: "howto", id: "howto", dataset: { game } },
      h("h1", {}, t("howto.title", { title: config.title })),
      intro.map((key) => h("p", { class: "lead" }, t(key))),
      h("nav", { class: "toc", "aria-label": t("howto.contents") },
        h("ul", {}, [...sections.keys()].map((name) =>
          h("li", {}, h("a", { href: `#howto-${name}` }, t(`${prefix}${name}.title`)))))),
      [...sections].map(([name, keys]) => section(name, keys)),
      h("p", {}, back
        ? h("a", { href: `/play?${new URLSearchParams({ game: back })}`, class: "button" }, t("howto.back_game"))
        : h("a", { href: "/play", class: "button" }, t("game.back")))));
  document.body.dataset.view = "howto";
}
