// A platform's page using embed.js, type-checked against embed.d.ts (make openapi-ts).
import type { EmbedGameOver, EmbedYourTurn } from "./embed.d.ts";

export function show(element: HTMLElement, url: string): void {
  const seat = window.BoardgamesEmbed.mount(element, url, {
    onTurn: (m: EmbedYourTurn) => { document.title = `Your move (${m.version})`; },
    onGameOver: (m: EmbedGameOver) => { console.log("over", m.result); },
    onError: (m) => { console.warn(m.code ?? "error", m.message); },
  }, { minHeight: 400 });
  seat.setTheme({ accent: "#c2185b", radius: "12px" });
  seat.setLanguage("de");
}
