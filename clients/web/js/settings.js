// The notifications page (/play?notifications=1): whether this browser gets pushes and
// why not, the player's push settings (GET/PATCH /players/me/push: events, quiet hours
// in a time zone, language) and its devices (the subscriptions, each removable).
import { call, loadPlayer } from "./api.js";
import { h } from "./dom.js";
import { LANGUAGES, dateTime, language, t } from "./i18n.js";
import { serverKey, thisDevice, turnOff, turnOn, whyNone } from "./notifications.js";

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

function statusLine(why) {
  return h("p", { id: "push-status", class: why ? "push-why" : "push-on", dataset: { why: why || "on" } },
    t(why ? `push.why.${why}` : "push.on"));
}

function eventsField(events, chosen) {
  return h("fieldset", { id: "push-events" },
    h("legend", {}, t("push.events")),
    events.map((name) => h("label", { class: "check" },
      h("input", { type: "checkbox", name: "event", value: name, checked: chosen.includes(name) }),
      " ", t(`push.event.${name}`))));
}

function quietField(quiet, zone) {
  const on = h("input", { type: "checkbox", id: "quiet-on", checked: Boolean(quiet) });
  return h("fieldset", { id: "push-quiet" },
    h("legend", {}, t("push.quiet.title")),
    h("label", { class: "check" }, on, " ", t("push.quiet.on")),
    h("label", {}, t("push.quiet.start"), " ", h("input", { type: "time", id: "quiet-start", value: quiet ? quiet.start : "22:00" })),
    h("label", {}, t("push.quiet.end"), " ", h("input", { type: "time", id: "quiet-end", value: quiet ? quiet.end : "07:00" })),
    h("label", {}, t("push.quiet.zone"), " ", h("input", { type: "text", id: "quiet-zone", value: zone, autocomplete: "off" })),
    h("p", { class: "hint" }, t("push.quiet.hint")));
}

function languageField(current) {
  return h("label", {}, t("push.language"), " ",
    h("select", { id: "push-language" }, Object.entries(LANGUAGES).map(([code, name]) =>
      h("option", { value: code, lang: code, selected: code === current }, name))));
}

/** What the form says, as PATCH /players/me/push takes it. */
function formValue(form) {
  const events = [...form.querySelectorAll("input[name=event]:checked")].map((box) => box.value);
  const quiet = form.querySelector("#quiet-on").checked
    ? { start: form.querySelector("#quiet-start").value, end: form.querySelector("#quiet-end").value } : null;
  return {
    events, quiet_hours: quiet,
    time_zone: form.querySelector("#quiet-zone").value.trim() || browserZone(),
    language: form.querySelector("#push-language").value,
  };
}

function devicesList(subscriptions, remove) {
  const here = thisDevice();
  return h("section", { id: "push-devices", "aria-labelledby": "push-devices-title" },
    h("h2", { id: "push-devices-title" }, t("push.devices.title")),
    subscriptions.length ? h("ul", { class: "games" }, subscriptions.map((sub) => h("li", { class: "game-row", dataset: { id: sub.id } },
      h("span", {}, sub.device || t("push.devices.unnamed")),
      sub.id === here ? h("strong", {}, t("push.devices.this")) : null,
      h("time", { class: "when", datetime: new Date(sub.since).toISOString() }, dateTime(new Date(sub.since))),
      h("button", { type: "button", class: "quiet", onclick: () => remove(sub.id) },
        t("push.devices.remove"), h("span", { class: "sr" }, ` ${sub.device || sub.id}`)))))
      : h("p", {}, t("push.devices.none")));
}

/** The notifications page. */
export async function showNotifications(config) {
  const main = document.getElementById("main");
  const alert = document.getElementById("alert");
  const say = (text) => { alert.textContent = text; };
  document.getElementById("links").replaceChildren(h("a", { href: "/play" }, t("nav.lobby")));
  const player = loadPlayer();
  const key = config.push ? await serverKey().catch(() => null) : null;
  const why = await whyNone(key);
  const heading = h("h1", {}, t("push.title", { title: config.title }));
  if (!player || !key) {
    main.replaceChildren(heading, statusLine(why));
    return;
  }
  const settings = await call("GET", "/players/me/push", { token: player.key });
  const again = () => showNotifications(config);
  const act = (work) => async () => {
    try { await work(); await again(); } catch (error) { say(error.message); }
  };
  const form = h("form", { id: "push-settings", class: "card-panel", onsubmit: async (event) => {
    event.preventDefault();
    try {
      await call("PATCH", "/players/me/push", { token: player.key, body: formValue(form) });
      say(t("push.saved"));
    } catch (error) { say(error.message); }
  } },
  eventsField(key.events || settings.events, settings.events),
  quietField(settings.quiet_hours, settings.quiet_hours || settings.time_zone !== "UTC" ? settings.time_zone : browserZone()),
  languageField(settings.language || language()),
  h("button", { type: "submit", id: "push-save" }, t("push.save")));
  const switchButton = why === null
    ? h("button", { type: "button", id: "push-off", class: "quiet", onclick: act(() => turnOff()) }, t("push.turn_off"))
    : why === "not_asked" || why === "not_subscribed"
      ? h("button", { type: "button", id: "push-on", onclick: act(turnOn) }, t("push.turn_on")) : null;
  main.replaceChildren(heading, statusLine(why), switchButton, form,
    devicesList(settings.subscriptions, (id) => act(() => turnOff(id))()));
}
