// The settings page: the account's sound preference becomes what the table's mute switch starts from
// (feedback.js keeps it in localStorage under "cardtables.sound"); the switch at a table still works.
const form = document.querySelector("[data-testid=settings-form]");
if (form) {
  try { window.localStorage.setItem("cardtables.sound", form.dataset.sounds === "off" ? "off" : "on"); } catch (e) { /* private mode */ }
}
