/**
 * Types of embed.js, the script each game service serves at /embed.js for platforms
 * (docs/api.md "Embedding in your platform"). It defines `window.BoardgamesEmbed`.
 * Beside the API's generated types (generated/<game>.ts: `POST /embeds` and its answer).
 */

/** Every message of the embed page carries `source: "boardgames"` and its `type`. */
export interface EmbedMessageBase {
  source: "boardgames";
}

export interface EmbedReady extends EmbedMessageBase {
  type: "ready";
  game_id: string;
  /** The player's seat, or null for a spectator's view. */
  seat: number | null;
  mode: "seat" | "watch";
  status: "open" | "running" | "finished" | "cancelled";
  version: number;
}

/** A turn of the user's seat starts: it is to act and was not, or is again after its
 * own move (Wind City: an insurance answer, then the seat's own turn), as the
 * `your_turn` of a player's webhook. */
export interface EmbedYourTurn extends EmbedMessageBase {
  type: "your_turn";
  version: number;
}

/** A move (anyone's), the start or the end: the game's status, who acts or its state
 * changed (a hint counted or a seat taken is no move). */
export interface EmbedMoved extends EmbedMessageBase {
  type: "moved";
  version: number;
  status: "open" | "running" | "finished" | "cancelled";
  to_act: number[];
}

export interface EmbedGameOver extends EmbedMessageBase {
  type: "game_over";
  /** The public result (as GET /games/{id}/score gives it): standings, winners. */
  result: Record<string, unknown>;
  version: number;
}

export interface EmbedHeight extends EmbedMessageBase {
  type: "height";
  /** The page's height in CSS pixels: embed.js sizes the frame to it. */
  height: number;
}

export interface EmbedError extends EmbedMessageBase {
  type: "error";
  message: string;
  /** The failed request's problem code (embed-link-used, embed-link-expired, a move's
   * refusal such as not-your-turn, ...; `error` when no answer came;
   * embed-game-unavailable: the game could not be read);
   * embed-session-refresh-failed: the page could not renew its session (mount a new link). */
  code: string;
}

export type EmbedMessage = EmbedReady | EmbedYourTurn | EmbedMoved | EmbedGameOver | EmbedHeight | EmbedError;

/** The page's look: CSS values (colours, a font list, a length). */
export interface EmbedTheme {
  bg?: string;
  fg?: string;
  accent?: string;
  panel?: string;
  font?: string;
  radius?: string;
}

export type EmbedLanguage = "en" | "ja" | "de";

export interface EmbedCallbacks {
  onReady?: (message: EmbedReady) => void;
  onTurn?: (message: EmbedYourTurn) => void;
  onMove?: (message: EmbedMoved) => void;
  onGameOver?: (message: EmbedGameOver) => void;
  onError?: (message: EmbedError) => void;
  onHeight?: (message: EmbedHeight) => void;
}

export interface EmbedOptions {
  /** The frame's title (for screen readers); default "Game". */
  title?: string;
  /** The least height of the frame in px; default 320 until the page reports its own. */
  minHeight?: number;
}

export interface MountedEmbed {
  frame: HTMLIFrameElement;
  setTheme(theme: EmbedTheme): void;
  setLanguage(language: EmbedLanguage): void;
  destroy(): void;
}

export interface BoardgamesEmbed {
  /** Mount the seat of `url` (POST /embeds' answer) into `element`. */
  mount(element: HTMLElement, url: string, callbacks?: EmbedCallbacks, options?: EmbedOptions): MountedEmbed;
}

declare global {
  interface Window {
    BoardgamesEmbed: BoardgamesEmbed;
  }
}
