// The table chat drawn: a panel beside the board on a wide screen, a bottom sheet opened
// by a button (with the count of unread messages) on a phone: the same nodes, laid out
// by style.css. A message's words, and its sender's name, only ever go in as text nodes
// (h() and fill() never parse HTML), whatever they hold.
import { LETTERS } from "./api.js";
import { fill, h } from "./dom.js";
import { clockTime, num, t } from "./i18n.js";

export const MAX_LENGTH = 500; // the service's CHAT_MAX_LENGTH (docs/api.md), shown by the box
export const REASONS = ["spam", "abuse", "cheating", "hate", "other"]; // a report's fixed list

export class ChatView {
  constructor(chat) {
    this.chat = chat;
    this.badge = h("span", { class: "badge chat-unread", id: "chat-unread", hidden: true });
    this.toggle = h("button", {
      type: "button", id: "chat-toggle", class: "chat-toggle", "aria-controls": "chat", "aria-expanded": "false",
      onclick: () => this.setOpen(!chat.open),
    }, h("span", {}, t("chat.toggle")), this.badge);
    this.notice = h("p", { class: "chat-notice", id: "chat-notice", role: "status" });
    this.list = h("ol", { class: "chat-list", id: "chat-list", tabindex: 0, "aria-label": t("chat.list") });
    this.mutedLine = h("div", { class: "chat-muted", id: "chat-muted" });
    this.phraseRow = h("div", { class: "chat-phrases", id: "chat-phrases", role: "group", "aria-label": t("chat.phrases") });
    this.input = h("input", {
      id: "chat-text", name: "text", maxlength: MAX_LENGTH, autocomplete: "off",
      "aria-describedby": "chat-count", oninput: () => this.count(),
    });
    this.counter = h("span", { class: "chat-count", id: "chat-count", "aria-live": "polite" });
    this.form = h("form", { class: "chat-form", id: "chat-form" },
      h("label", { for: "chat-text", class: "sr" }, t("chat.text_label")),
      this.input, this.counter,
      h("button", { type: "submit", id: "chat-send", class: "primary" }, t("chat.send")));
    this.form.addEventListener("submit", (event) => { event.preventDefault(); this.submit(); });
    this.readOnly = h("p", { class: "hint", id: "chat-read-only" }, t("chat.read_only"));
    this.root = h("section", { class: "panel chat", id: "chat", "aria-labelledby": "chat-title" },
      h("div", { class: "chat-head" },
        h("h2", { id: "chat-title" }, t("chat.title")),
        h("button", { type: "button", id: "chat-close", class: "quiet chat-close", onclick: () => this.setOpen(false) }, t("chat.close"))),
      this.notice, this.list, this.mutedLine, this.phraseRow, this.form, this.readOnly);
    this.count();
  }

  nodes() { return [this.toggle, this.root]; }

  setOpen(open) {
    this.chat.setOpen(open);
    const target = !open ? this.toggle : this.form.hidden ? this.list : this.input;
    target.focus({ preventScroll: true });
  }

  count() {
    this.counter.textContent = t("chat.count", { n: this.input.value.length, max: MAX_LENGTH });
  }

  async submit() {
    const text = this.input.value.trim();
    if (!text) return;
    if (await this.chat.send({ text })) {
      this.input.value = "";
      this.count();
    }
  }

  update() {
    const chat = this.chat;
    this.root.classList.toggle("open", chat.open);
    this.toggle.setAttribute("aria-expanded", String(chat.open));
    this.badge.hidden = !chat.unread;
    this.badge.textContent = num(chat.unread);
    this.toggle.setAttribute("aria-label", chat.unread ? t("chat.toggle_unread", { n: chat.unread }) : t("chat.toggle"));
    this.notice.textContent = chat.notice;
    const shown = chat.shown();
    // Newest first in the document; the list's column-reverse shows it at the bottom.
    fill(this.list, shown.length ? shown.reverse().map((m) => this.message(m)) : h("li", { class: "chat-empty" }, t("chat.empty")));
    this.drawMuted();
    const writes = chat.canWrite;
    this.form.hidden = !writes;
    this.phraseRow.hidden = !writes || !chat.phrases.length;
    this.readOnly.hidden = writes;
    fill(this.phraseRow, chat.phrases.map((p) => h("button", {
      type: "button", class: "chip chat-phrase", dataset: { phrase: p.code }, disabled: chat.sending,
      onclick: () => chat.send({ phrase: p.code }),
    }, p.text)));
    this.form.querySelector("#chat-send").disabled = chat.sending;
  }

  drawMuted() {
    const senders = this.chat.mutedSenders();
    fill(this.mutedLine, senders.length ? [h("span", {}, t("chat.muted_list")), senders.map((m) => h("button", {
      type: "button", class: "quiet chat-unmute", dataset: { sender: m.seat ?? m.player },
      onclick: () => this.chat.mute(m, false),
    }, t("chat.unmute", { name: this.chat.nameOf(m) })))] : null);
  }

  /** The sender: the seat's letter and colour, or the spectators' mark. */
  sender(m) {
    const name = this.chat.nameOf(m);
    if (m.seat !== null && m.seat !== undefined) {
      return h("span", { class: `tag p${m.seat} chat-name` },
        h("span", { class: "letter", "aria-hidden": "true" }, LETTERS[m.seat]), "\u00a0", name);
    }
    return h("span", { class: "chat-name" }, name, h("span", { class: "badge" }, t("chat.spectator")));
  }

  body(m) {
    if (m.deleted) return h("p", { class: "chat-body deleted" }, t("chat.deleted"));
    if (m.phrase) return h("p", { class: "chat-body phrase", dataset: { phrase: m.phrase } }, this.chat.phraseText(m));
    return h("p", { class: "chat-body", dir: "auto" }, m.text || "");
  }

  message(m) {
    const chat = this.chat;
    const mine = chat.mine(m);
    const open = chat.menu === m.id;
    return h("li", { class: `chat-msg${mine ? " mine" : ""}`, dataset: { id: m.id ?? "", seat: m.seat ?? "", channel: m.channel || "players" } },
      h("div", { class: "chat-meta" }, this.sender(m),
        m.at ? h("time", { class: "chat-time", datetime: new Date(m.at).toISOString() }, clockTime(new Date(m.at))) : null,
        mine || m.deleted ? null : h("button", {
          type: "button", class: "quiet chat-actions", "aria-expanded": String(open), "aria-haspopup": "true",
          "aria-label": t("chat.actions", { name: chat.nameOf(m) }),
          onclick: () => { chat.menu = open ? null : m.id; chat.reporting = null; chat.view.update(); this.focus(open ? null : "#chat-mute"); },
        }, "⋯")),
      this.body(m),
      open ? this.menu(m) : null);
  }

  menu(m) {
    const chat = this.chat;
    if (chat.reporting === m.id) return this.reportForm(m);
    return h("div", { class: "chat-menu inline", role: "group", "aria-label": t("chat.actions", { name: chat.nameOf(m) }) },
      h("button", { type: "button", id: "chat-mute", onclick: () => chat.mute(m) }, t("chat.mute", { name: chat.nameOf(m) })),
      chat.player && m.player && m.player !== chat.player.id
        ? h("button", { type: "button", id: "chat-block", onclick: () => chat.block(m) }, t("chat.block", { name: chat.nameOf(m) })) : null,
      h("button", {
        type: "button", id: "chat-report",
        onclick: () => { chat.reporting = m.id; chat.view.update(); this.focus("#chat-reason"); },
      }, t("chat.report")),
      h("button", { type: "button", class: "quiet", id: "chat-menu-close", onclick: () => { chat.menu = null; chat.view.update(); } }, t("chat.cancel")));
  }

  reportForm(m) {
    const form = h("form", { class: "chat-report", id: "chat-report-form", "aria-label": t("chat.report_title") },
      h("label", { for: "chat-reason" }, t("chat.reason")),
      h("select", { id: "chat-reason", name: "reason" }, REASONS.map((r) => h("option", { value: r }, t(`chat.reasons.${r}`)))),
      h("label", { for: "chat-note" }, t("chat.note")),
      h("input", { id: "chat-note", name: "note", maxlength: MAX_LENGTH }),
      h("div", { class: "inline" },
        h("button", { type: "submit", id: "chat-report-send", class: "danger" }, t("chat.report_send")),
        h("button", { type: "button", class: "quiet", onclick: () => { this.chat.reporting = null; this.chat.view.update(); } }, t("chat.cancel"))));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.chat.report(m, form.elements.reason.value, form.elements.note.value.trim());
    });
    return form;
  }

  focus(selector) {
    const target = selector && this.root.querySelector(selector);
    if (target) target.focus();
  }
}
