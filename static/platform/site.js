// Every page's small behaviours, in a file: the Content-Security-Policy (web/csp.py) runs no inline script or
// on* attribute. The menu button opens the top bar; the language picker submits its form; an input marked
// data-select-all selects its text on a click (the invite link).
document.getElementById("menu-toggle")?.addEventListener("click", (e) => {
  const open = e.currentTarget.getAttribute("aria-expanded") !== "true";
  e.currentTarget.setAttribute("aria-expanded", String(open));
  e.currentTarget.closest(".topbar").classList.toggle("open", open);
});
document.querySelector('select[data-testid="language"]')?.addEventListener("change", (e) => e.currentTarget.form.submit());
document.addEventListener("click", (e) => {
  if (e.target instanceof HTMLInputElement && e.target.matches("input[data-select-all]")) e.target.select();
});
