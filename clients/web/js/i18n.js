// The page's language: English, Japanese or German. Every string a player sees comes
// from one catalog per language, clients/web/i18n/<lang>.json (nested keys, read as
// "a.b.c"); numbers and times are formatted for the language with Intl.
//
// Messages are plain text with {name} fields and a small part of ICU MessageFormat:
//   "{n, plural, one {# floor} other {# floors}}"   (=0 {...} exact cases too)
//   "{side, select, N {north} S {south} other {?}}"   (an empty value selects "none")
// A number given as a field is formatted for the language.

/** The languages, each named in itself (the switch shows them so in every language). */
export const LANGUAGES = { en: "English", ja: "日本語", de: "Deutsch" };
const DEFAULT = "en";
/** One of LANGUAGES (not "toString" or another name every object answers to). */
export const isLanguage = (name) => typeof name === "string" && Object.hasOwn(LANGUAGES, name);
const STORE = "boardgames:lang";

let lang = DEFAULT;
let messages = {};

/** The language chosen on the switch before, else the browser's first we speak. */
export function chooseLanguage() {
  try {
    const kept = localStorage.getItem(STORE);
    if (isLanguage(kept)) return kept;
  } catch { /* private mode */ }
  const wanted = (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""]);
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (isLanguage(base)) return base;
  }
  return DEFAULT;
}

function flatten(tree, prefix = "", out = {}) {
  for (const [key, value] of Object.entries(tree)) {
    if (value && typeof value === "object") flatten(value, `${prefix}${key}.`, out);
    else out[`${prefix}${key}`] = String(value);
  }
  return out;
}

/** Load the chosen language's catalog and translate the page's static HTML. */
export async function loadLanguage(wanted = chooseLanguage()) {
  lang = isLanguage(wanted) ? wanted : DEFAULT;
  const answer = await fetch(`/play/i18n/${lang}.json`);
  messages = flatten(await answer.json());
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  return lang;
}

export const language = () => lang;
export const has = (key) => Object.prototype.hasOwnProperty.call(messages, key);

/** Keep `wanted` as this browser's language and show the page in it. */
export function setLanguage(wanted) {
  try { localStorage.setItem(STORE, wanted); } catch { /* private mode */ }
  location.reload();
}

// Formatting for the language.
export const num = (n, options) => new Intl.NumberFormat(lang, options).format(n);
/** A value with one decimal ("12.3", "12,3"): a skill estimate and its uncertainty. */
export const dec1 = (n) => num(Number(n), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
export const percent = (share) => num(Number(share || 0), { style: "percent", maximumFractionDigits: 0 });
export const clockTime = (date) => new Intl.DateTimeFormat(lang, { timeStyle: "short" }).format(date);
/** "1:05" / "1:02:03" for `ms` milliseconds (0 when past): a turn clock's time left. */
export function remaining(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const [hours, minutes, seconds] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const pad = (n) => String(n).padStart(2, "0");
  return hours ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}
export const dateTime = (date) => new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(date);

/** "3 minutes ago", "vor 3 Minuten", "3 分前" for a time `when` (ms or Date) in the past. */
export function ago(when, now = Date.now()) {
  const seconds = Math.round((new Date(when).getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
  const steps = [["year", 31536000], ["month", 2592000], ["day", 86400], ["hour", 3600], ["minute", 60]];
  for (const [unit, size] of steps) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(seconds, "second");
}

/** The index of the "}" closing the "{" at `start`. */
function closing(text, start) {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  throw new Error(`unbalanced braces in ${JSON.stringify(text)}`);
}

function branches(text) {
  const out = {};
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf("{", i);
    if (open < 0) break;
    const end = closing(text, open);
    out[text.slice(i, open).trim()] = text.slice(open + 1, end);
    i = end + 1;
  }
  return out;
}

const show = (value) => (typeof value === "number" ? num(value) : value === undefined || value === null ? "" : String(value));

function format(pattern, params, hash) {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "#" && hash !== undefined) { out += hash; continue; }
    if (c !== "{") { out += c; continue; }
    const end = closing(pattern, i);
    const inner = pattern.slice(i + 1, end);
    i = end;
    const parts = inner.split(",");
    const name = parts[0].trim();
    if (parts.length < 3) { out += show(params[name]); continue; }
    const kind = parts[1].trim();
    const cases = branches(parts.slice(2).join(","));
    const value = params[name];
    if (kind === "plural") {
      const chosen = cases[`=${value}`] ?? cases[new Intl.PluralRules(lang).select(Number(value))] ?? cases.other ?? "";
      out += format(chosen, params, num(Number(value)));
    } else {
      const chosen = value === "" || value === null || value === undefined ? "none" : String(value);
      out += format(cases[chosen] ?? cases.other ?? "", params, hash);
    }
  }
  return out;
}

/** The message `key` in the page's language, its fields filled from `params`. */
export function t(key, params = {}) {
  const pattern = has(key) ? messages[key] : key;
  try { return format(pattern, params); } catch { return pattern; }
}

/**
 * The message `key` as DOM children: a field given a Node (a player's tag, a <strong>)
 * is put in place as that node.
 */
export function tn(key, params = {}) {
  const nodes = [];
  const plain = {};
  for (const [name, value] of Object.entries(params)) {
    if (value instanceof Node) { plain[name] = `\u0000${nodes.length}\u0000`; nodes.push(value); } else plain[name] = value;
  }
  return t(key, plain).split("\u0000").map((part, i) => (i % 2 ? nodes[Number(part)] : part)).filter((part) => part !== "");
}

/** Items joined with the language's list separator ("A, B", "A、B"). */
export const joined = (items) => items.map(String).join(t("common.sep"));

/** The catalog's keys under `prefix` ("howto.manhattan."), in the catalog's order. */
export const keysUnder = (prefix) => Object.keys(messages).filter((key) => key.startsWith(prefix));
