// Friends page and a profile's action bar: follow, block, challenge, answer challenges and report, through
// the REST API; on the friends page a challenge arriving on the lobby socket shows at once.
import { api, wsUrl } from "./api.js";

function say(box, text) {
  if (box) box.textContent = text;
}

async function run(box, call) {
  try {
    await call();
    location.reload();
  } catch (e) {
    say(box, e.message);
  }
}

// ---- a profile's buttons ----------------------------------------------------------------------------
const bar = document.querySelector("[data-testid=profile-actions]");
if (bar) {
  const name = encodeURIComponent(bar.dataset.username);
  const status = bar.querySelector("[data-testid=profile-actions-status]");
  bar.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-action]");
    if (!b) return;
    const paths = { follow: ["POST", `/api/me/following/${name}/`], unfollow: ["DELETE", `/api/me/following/${name}/`],
      block: ["POST", `/api/me/blocks/${name}/`], unblock: ["DELETE", `/api/me/blocks/${name}/`] };
    const [method, url] = paths[b.dataset.action];
    run(status, () => api(method, url));
  });
  const report = bar.querySelector("[data-testid=report-form]");
  report.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = { username: bar.dataset.username, reason: report.elements.reason.value };
    if (report.elements.text.value.trim()) body.text = report.elements.text.value.trim();
    try {
      await api("POST", "/api/reports/", body);
      say(status, gettext("Thank you: the report is sent to the moderators."));
      report.closest("details").open = false;
    } catch (e) {
      say(status, e.message);
    }
  });
}

// ---- the friends page ---------------------------------------------------------------------------------
const page = document.querySelector("[data-testid=challenge-form]");
if (page) {
  const status = document.querySelector("[data-testid=friends-status]");
  document.querySelector("main").addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-action]");
    if (!b) return;
    const item = b.closest("li");
    const who = encodeURIComponent(item.dataset.username || "");
    const id = item.dataset.challenge;
    const calls = {
      accept: async () => {
        const c = await api("POST", `/api/challenges/${id}/accept/`);
        location.href = `/tables/${c.table}/`;
      },
      decline: () => api("POST", `/api/challenges/${id}/decline/`),
      unfollow: () => api("DELETE", `/api/me/following/${who}/`),
      unblock: () => api("DELETE", `/api/me/blocks/${who}/`),
    };
    if (b.dataset.action === "accept") calls.accept().catch((e) => say(status, e.message));
    else run(status, calls[b.dataset.action]);
  });
  const game = page.elements.game;
  const seats = page.elements.seats;
  const fit = () => {
    const o = game.selectedOptions[0];
    seats.min = Math.max(2, +o.dataset.min);
    seats.max = o.dataset.max;
    if (+seats.value < +seats.min) seats.value = seats.min;
    if (+seats.value > +seats.max) seats.value = seats.max;
  };
  game.addEventListener("change", fit);
  fit();
  page.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const c = await api("POST", "/api/challenges/", {
        username: page.elements.username.value.trim(), game: game.value,
        seats: parseInt(seats.value, 10), ranked: page.elements.ranked.checked,
      });
      location.href = `/tables/${c.table}/`;
    } catch (e) {
      say(status, e.message);
    }
  });
  // A challenge (or the answer to one of ours) arriving while the page is open.
  const connect = () => {
    const ws = new WebSocket(wsUrl("/ws/lobby/"));
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "challenge") location.reload();
    };
    ws.onclose = () => setTimeout(connect, 3000);
  };
  connect();
}
