// Report a player from wherever their name is shown (a table's seats, its chat, a replay): any element with
// `data-report-user="<username>"` (and `data-report-match="<id>"` when a match is concerned) opens one small
// dialog that posts `POST /api/reports/` {username, reason, match?, text?} with the session's CSRF token.
import { api } from "./api.js";
import { el } from "./kit.js";

const T = {
  title: (name) => window.interpolate(window.gettext("Report %(name)s"), { name }, true),
  why: window.gettext("Why"),
  cheating: window.gettext("Cheating"),
  abuse: window.gettext("Abuse"),
  other: window.gettext("Something else"),
  text: window.gettext("What happened (optional)"),
  send: window.gettext("Send the report"),
  cancel: window.gettext("Cancel"),
  sent: window.gettext("Thank you: the report is sent to the moderators."),
};

let dialog = null;

function build() {
  const heading = el("h2", { id: "report-title" });
  const reason = el("select", { name: "reason", id: "report-dialog-reason", "data-testid": "report-dialog-reason" },
    ...["cheating", "abuse", "other"].map((r) => el("option", { value: r, text: T[r] })));
  const text = el("textarea", { name: "text", id: "report-dialog-text", rows: "2", maxlength: "500" });
  const status = el("p", { class: "error", role: "status", "aria-live": "polite", "data-testid": "report-dialog-status" });
  const send = el("button", { type: "submit", "data-testid": "report-dialog-send", text: T.send });
  const cancel = el("button", { type: "button", class: "secondary", text: T.cancel, onclick: () => dialog.close() });
  const form = el("form", { method: "dialog" },
    heading,
    el("label", { for: "report-dialog-reason", text: T.why }), reason,
    el("label", { for: "report-dialog-text", text: T.text }), text,
    el("p", { class: "report-buttons" }, send, " ", cancel), status);
  dialog = el("dialog", { class: "report-dialog", "data-testid": "report-dialog", "aria-labelledby": "report-title" }, form);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = { username: dialog.dataset.username, reason: reason.value };
    if (dialog.dataset.match) body.match = Number(dialog.dataset.match);
    if (text.value.trim()) body.text = text.value.trim();
    send.disabled = true;
    try {
      await api("POST", "/api/reports/", body);
      status.textContent = T.sent;
      setTimeout(() => dialog.close(), 1200);
    } catch (e) {
      status.textContent = e.message;
    } finally {
      send.disabled = false;
    }
  });
  document.body.append(dialog);
}

export function openReport(username, match) {
  if (!dialog) build();
  dialog.dataset.username = username;
  if (match) dialog.dataset.match = String(match); else delete dialog.dataset.match;
  dialog.querySelector("#report-title").textContent = T.title(username);
  dialog.querySelector("[data-testid=report-dialog-status]").textContent = "";
  dialog.querySelector("textarea").value = "";
  dialog.showModal();
}

/** A small "report" button for a player's name (the pages' scripts put it beside names they draw). */
export function reportButton(username, match) {
  return el("button", {
    type: "button", class: "report-btn linkish", "data-report-user": username, "data-report-match": match || null,
    "data-testid": "report-button", title: T.title(username), "aria-label": T.title(username), text: "⚑",
  });
}

document.addEventListener("click", (ev) => {
  const button = ev.target.closest("[data-report-user]");
  if (!button) return;
  ev.preventDefault();
  openReport(button.dataset.reportUser, button.dataset.reportMatch);
});
