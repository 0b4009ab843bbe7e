// Words the game page's panels share (clients/web/js/game.js and its panels).
import { t } from "./i18n.js";

const STATUS_TEXT = { bot: "game.seat.bot", abandoned: "game.seat.abandoned", resigned: "game.seat.resigned" };

/** A seat's status in the reader's language ("bot", "abandoned", "resigned"). */
export const statusText = (status) => (STATUS_TEXT[status] ? t(STATUS_TEXT[status]) : status);
