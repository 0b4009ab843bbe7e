// Web Push for this client: the service worker, the browser's permission, and the
// player's subscription on the service (GET /push/key, POST and DELETE
// /players/me/push/subscriptions). Permission is asked for only on a click: the
// "Turn on" of the offer after the player's first move in a game with a clock, or the
// button of the notifications page (settings.js). Never on load.
import { call, loadPlayer } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const WORKER = "/play/sw.js";
const SCOPE = "/play";
const DEVICE_KEY = "boardgames:push"; // this browser's subscription id on the service
const OFFERED_KEY = "boardgames:push-offered";

const register = () => navigator.serviceWorker.register(WORKER, { scope: SCOPE }).catch(() => null);

/**
 * Register the service worker (it shows pushes; the page works without it) and, in a
 * browser that turned notifications on, register its subscription again: a renewed
 * subscription is heard, an unchanged one changes nothing (the service answers 200).
 */
export async function registerWorker() {
  if (!("serviceWorker" in navigator)) return null;
  const registration = await register();
  const player = loadPlayer();
  if (!registration || !player || !thisDevice() || !supported() || Notification.permission !== "granted") return registration;
  try {
    const subscription = await registration.pushManager.getSubscription();
    if (!subscription) return registration;
    const saved = await call("POST", "/players/me/push/subscriptions", {
      token: player.key, body: { ...subscription.toJSON(), device: deviceName() },
    });
    keep(DEVICE_KEY, saved.id);
  } catch { /* the notifications page says what is wrong */ }
  return registration;
}

export const supported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

/** iOS and iPadOS push only to a web app added to the home screen. */
const needsInstall = () => /iPhone|iPad|iPod/.test(navigator.userAgent) && !navigator.standalone &&
  !matchMedia("(display-mode: standalone)").matches;

function keep(key, value) {
  try { if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value); } catch { /* private mode */ }
}
function kept(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}
export const thisDevice = () => kept(DEVICE_KEY);

/** The service's VAPID key and events, or null when it sends no push (`push-disabled`). */
export async function serverKey() {
  try {
    return await call("GET", "/push/key");
  } catch (error) {
    if (error.status === 404) return null;
    throw error;
  }
}

/**
 * Why this browser gets no notifications, as a key of the catalog's "push.why", or null
 * when it does: no push in this browser, iOS outside an installed app, permission
 * refused or not given yet, no player, push off on the server, not subscribed here.
 */
export async function whyNone(key) {
  if (needsInstall()) return "install";
  if (!supported()) return "unsupported";
  if (!loadPlayer()) return "no_player";
  if (!key) return "server_off";
  if (Notification.permission === "denied") return "denied";
  if (Notification.permission !== "granted") return "not_asked";
  const registration = await navigator.serviceWorker.ready;
  const subscription = await registration.pushManager.getSubscription();
  return subscription && thisDevice() ? null : "not_subscribed";
}

function applicationKey(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "="));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** A name for this browser in the player's list of devices ("Firefox on Android"). */
export function deviceName() {
  const agent = navigator.userAgent;
  const browser = [["Edg/", "Edge"], ["Firefox/", "Firefox"], ["Chrome/", "Chrome"], ["Safari/", "Safari"]]
    .find(([mark]) => agent.includes(mark));
  const system = [["Android", "Android"], ["iPhone", "iOS"], ["iPad", "iPadOS"], ["Windows", "Windows"], ["Mac OS", "macOS"], ["Linux", "Linux"]]
    .find(([mark]) => agent.includes(mark));
  return t("push.device_name", { browser: browser ? browser[1] : "?", system: system ? system[1] : "?" });
}

/**
 * Ask for permission (call it from a click), subscribe with the service's key and
 * register the subscription for the player. Throws a Problem or a DOMException; answers
 * the subscription as the service lists it.
 */
export async function turnOn() {
  if (!supported()) throw new Error(t("push.why.unsupported"));
  const player = loadPlayer();
  const key = await serverKey();
  if (!key || !player) throw new Error(t(`push.why.${key ? "no_player" : "server_off"}`));
  if (await Notification.requestPermission() !== "granted") throw new Error(t("push.why.denied"));
  const registration = (await register()) && await navigator.serviceWorker.ready;
  if (!registration) throw new Error(t("push.why.unsupported"));
  const subscription = await registration.pushManager.getSubscription() ||
    await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: applicationKey(key.public_key) });
  const saved = await call("POST", "/players/me/push/subscriptions", {
    token: player.key, body: { ...subscription.toJSON(), device: deviceName() },
  });
  keep(DEVICE_KEY, saved.id);
  return saved;
}

/** Stop this browser's notifications: on the service and in the browser. */
export async function turnOff(id = thisDevice()) {
  const player = loadPlayer();
  if (player && id) await call("DELETE", `/players/me/push/subscriptions/${encodeURIComponent(id)}`, { token: player.key });
  if (id !== thisDevice()) return;
  keep(DEVICE_KEY, null);
  const registration = supported() ? await navigator.serviceWorker.getRegistration(SCOPE) : null;
  const subscription = registration && await registration.pushManager.getSubscription();
  if (subscription) await subscription.unsubscribe();
}

/**
 * After a move in a game with a clock: offer notifications once, when the service sends
 * push (`config.push`, from /play/config.json), the player could have them and has not
 * answered the browser's question yet.
 */
export function offerAfterMove(view, config) {
  const clocked = view && view.players && view.players.some((p) => p.deadline);
  if (!clocked || !config.push || kept(OFFERED_KEY) || !supported() || !loadPlayer()) return;
  if (Notification.permission !== "default" || document.getElementById("push-offer")) return;
  keep(OFFERED_KEY, "1");
  const note = h("p", { class: "push-offer-note", role: "status" });
  const close = () => offer.remove();
  const offer = h("aside", { id: "push-offer", class: "push-offer", "aria-labelledby": "push-offer-text" },
    h("p", { id: "push-offer-text" }, t("push.offer.text")),
    h("button", {
      type: "button", id: "push-offer-on", onclick: async () => {
        try { await turnOn(); close(); } catch (error) { note.textContent = error.message; }
      },
    }, t("push.offer.on")),
    h("button", { type: "button", class: "quiet", id: "push-offer-later", onclick: close }, t("push.offer.later")),
    h("a", { href: "/play?notifications=1" }, t("push.link")),
    note);
  document.body.append(offer);
}
