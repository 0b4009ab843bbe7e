// The service worker of /play (scope "/play", see shared/http/play.py): it shows the
// service's Web Push notifications and opens the game a notification is about. It
// caches nothing: the page works as it does without it.
//
// A push's payload (docs/api.md, "Web Push") is JSON: type, game_id, title and body in
// the player's language (lang), tag (one per game: a newer one replaces the older), url
// (the seat in this client, "/play?game=<id>"). The worker adds the "Open" action in
// that language from the page's catalogs (clients/web/i18n).

const LANGUAGES = ["en", "ja", "de"];
const ICON = "/play/icons/icon-192.png";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

/** The "push" part of the catalog of `lang` (English when we lack it). */
async function words(lang) {
  const code = LANGUAGES.includes(lang) ? lang : "en";
  try {
    const catalog = await (await fetch(`/play/i18n/${code}.json`)).json();
    return catalog.push || {};
  } catch {
    return {};
  }
}

function payloadOf(event) {
  if (!event.data) return {};
  try {
    const data = event.data.json();
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

const millis = (stamp) => (typeof stamp === "number" ? stamp : Date.parse(stamp || "") || Date.now());

/** Show one push: its own title and body, else a plain "something happened". */
async function showPush(data) {
  const lang = String(data.lang || (self.navigator.language || "en")).split("-")[0];
  const w = await words(lang);
  const sw = w.sw || {};
  return self.registration.showNotification(data.title || sw.title || "Board games", {
    body: data.body || sw.body || "",
    lang,
    tag: data.tag || "boardgames",
    renotify: Boolean(data.tag),
    icon: ICON,
    badge: ICON,
    timestamp: millis(data.timestamp),
    requireInteraction: data.type === "clock_low",
    data: { url: data.url || "/play", type: data.type || "", game_id: data.game_id || null },
    actions: [{ action: "open", title: sw.open || "Open the game" }],
  });
}

self.addEventListener("push", (event) => event.waitUntil(showPush(payloadOf(event))));

/**
 * Open what a notification points at: focus a window already there, else bring a window
 * of this client there, else open a new one. Focusing needs the user's click, so a
 * refused focus leaves the window where it is.
 */
async function openGame(data) {
  const target = new URL((data && data.url) || "/play", self.location.origin).href;
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const focus = (client) => client.focus().catch(() => client);
  const there = windows.find((client) => client.url === target);
  if (there) return focus(there);
  for (const client of windows) {
    if (!new URL(client.url).pathname.startsWith("/play")) continue;
    try {
      const moved = await client.navigate(target);
      if (moved) return focus(moved);
    } catch { /* not controlled by this worker: try the next */ }
  }
  return self.clients.openWindow(target);
}
self.openGame = openGame; // what a click runs, callable on its own (tests/web/test_push_web.py)

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(openGame(event.notification.data));
});
