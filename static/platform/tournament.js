// Tournaments: the create form, the live tournament page, and — on every page of a signed-in
// player — a notice when a tournament round seats them ("your table is ready").
import { api, wsUrl } from "./api.js";
import { el } from "./kit.js";
import { placeOptions, readOptions } from "./options.js";

const CFG = window.TOURNAMENT_CONFIG || { page: "any" };
const LANG = (document.body.dataset.lang || "en").slice(0, 2);
// The notice shows on every page: its words come from the djangojs catalogue base.html loads on each of them.
const NOTICE = {
  ready: gettext("Your table is ready"), round: pgettext("tournament", "round"), go: gettext("Go to the table"), close: gettext("Close"),
};

// The rating tie-break comes as the ratings' conservative figure (0: no rating); people read the friendly
// scale the profile and leaderboards use (stats/ratings.py friendly_of: 1500 + 40 x figure).
function friendlyRating(display) {
  return Number.isFinite(display) ? String(Math.round(1500 + 40 * display)) : "";
}

function fmtPoints(x) {
  if (x === null || x === undefined) return "";
  return Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/0+$/, "").replace(/\.$/, "");
}

function reconnecting(path, onMessage, onState) {
  let delay = 500;
  const open = () => {
    const ws = new WebSocket(wsUrl(path));
    ws.onopen = () => { delay = 500; onState && onState("open"); };
    ws.onmessage = (e) => { try { onMessage(JSON.parse(e.data)); } catch (err) { console.warn(err); } };
    ws.onclose = (e) => {
      onState && onState("closed");
      if (e.code === 4401 || e.code === 4404) return;
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 10000);
    };
  };
  open();
}

// --- the notice on any page --------------------------------------------------------------------

function showSeated(seated) {
  if (location.pathname === seated.url) return;
  document.getElementById("t-banner")?.remove();
  const box = el("div", { id: "t-banner", class: "t-banner", role: "status", "data-testid": "seated-banner",
    style: "position:fixed;right:1rem;bottom:1rem;z-index:50;background:#1d2733;color:#fff;padding:.7rem 1rem;border-radius:8px;max-width:24rem" },
  `${NOTICE.ready} — ${seated.name}, ${NOTICE.round} ${seated.round}: `,
  el("a", { href: seated.url, text: NOTICE.go, style: "color:#ffd866;font-weight:600", "data-testid": "seated-link" }),
  el("button", { type: "button", text: "×", "aria-label": NOTICE.close, style: "margin-left:.6rem", onclick: () => box.remove() }));
  document.body.append(box);
}

if (document.querySelector("[data-testid=nav-profile]") && !window.__tournamentNotices) {
  window.__tournamentNotices = true;
  reconnecting("/ws/tournaments/mine/", (m) => { if (m.type === "seated") showSeated(m.seated); });
}

// --- the create form ---------------------------------------------------------------------------

function createPage() {
  const games = JSON.parse(document.getElementById("games-data").textContent);
  const bySlug = Object.fromEntries(games.map((g) => [g.slug, g]));
  const $ = (id) => document.getElementById(id);
  const build = () => {
    const g = bySlug[$("t-game").value];
    placeOptions($("create-options"), $("create-advanced-game"), g.options);
    const size = $("t-table-size");
    size.min = g.min_seats; size.max = g.max_seats;
    if (+size.value < g.min_seats || +size.value > g.max_seats) size.value = Math.min(g.max_seats, Math.max(g.min_seats, 4));
  };
  const formatChanged = () => {
    const f = $("t-format").value;
    $("t-rounds-label").hidden = !(f === "swiss" || f === "round_robin");
    $("t-duration-label").hidden = f !== "arena";
    $("t-format-help").querySelector("small").textContent = CFG.i18n[f] || "";
    if (f === "round_robin") $("t-rounds").value = "";
    else if (f === "swiss" && !$("t-rounds").value) $("t-rounds").value = 3;
  };
  $("t-game").addEventListener("change", build);
  $("t-format").addEventListener("change", formatChanged);
  build();
  formatChanged();
  $("tournament-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const g = bySlug[$("t-game").value];
    const options = readOptions(g.options);
    const f = $("t-format").value;
    const body = {
      name: $("t-name").value, game: g.slug, format: f, table_size: parseInt($("t-table-size").value, 10), options,
      ranked: $("t-ranked").checked, duplicate: $("t-duplicate").checked, open: $("t-open").checked,
      no_show_seconds: parseInt($("t-no-show").value || "0", 10),
    };
    if ((f === "swiss" || f === "round_robin") && $("t-rounds").value) body.rounds = parseInt($("t-rounds").value, 10);
    if (f === "arena") body.duration_minutes = parseInt($("t-duration").value, 10);
    if ($("t-starts-at").value) body.starts_at = new Date($("t-starts-at").value).toISOString();
    try {
      const t = await api("POST", "/api/tournaments/", body);
      location.href = `/tournaments/${t.id}/`;
    } catch (err) {
      $("t-error").textContent = err.message;
    }
  });
}

// --- the live tournament page ---------------------------------------------------------------------

function detailPage() {
  const T = CFG.i18n;
  const $ = (id) => document.getElementById(id);
  let t = JSON.parse(document.getElementById("tournament-data").textContent);

  const act = async (path, body) => {
    $("t-error").textContent = "";
    try {
      t = await api("POST", `/api/tournaments/${CFG.id}/${path}/`, body);
      render();
    } catch (err) {
      $("t-error").textContent = err.message;
    }
  };
  const button = (label, testid, onclick) => el("button", { type: "button", "data-testid": testid, text: label, onclick });

  function render() {
    const st = $("t-status");
    st.textContent = T.status[t.status] || t.status;
    st.dataset.status = t.status;
    const info = [];
    if (t.round_count) info.push(`${T.roundsOf}: ${t.round_count}`);
    if (t.duration_minutes) info.push(`${t.duration_minutes} min`);
    if (t.starts_at && (t.status === "registering" || t.status === "draft")) info.push(`${T.startsAt} ${new Date(t.starts_at).toLocaleString()}`);
    if (t.ends_at) info.push(`${T.endsAt} ${new Date(t.ends_at).toLocaleTimeString()}`);
    info.push(`${T.minimum}: ${t.min_players}`);
    $("t-info").textContent = info.join(" · ");
    $("t-note").textContent = t.note || "";
    const conn = $("conn-status");
    conn.hidden = ["finished", "cancelled"].includes(t.status); // over: nothing live to tell
    renderControls();
    renderPodium();
    renderPlayers();
    renderStandings();
    renderRounds();
    renderMyTable();
  }

  function renderControls() {
    const mine = t.players.some((p) => p.username === CFG.me);
    const pc = $("player-controls");
    pc.replaceChildren();
    if (CFG.me && t.status === "registering") {
      pc.append(mine ? button(T.unregister, "unregister", () => act("unregister")) : button(T.register, "register", () => act("register")));
    }
    if (!CFG.organiser) return;
    const over = ["finished", "cancelled"].includes(t.status);
    $("organiser-heading").hidden = over; // nothing left to manage
    const oc = $("organiser-controls");
    oc.replaceChildren();
    if (t.status === "draft") oc.append(button(T.open, "open", () => act("open")));
    if (t.status === "draft" || t.status === "registering") oc.append(button(T.start, "start", () => act("start")));
    if (t.status === "running") oc.append(button(T.pause, "pause", () => act("pause")));
    if (t.status === "paused") oc.append(button(T.resume, "resume", () => act("resume")));
    if (!["finished", "cancelled"].includes(t.status)) {
      oc.append(button(T.cancel, "cancel", () => { if (confirm(T.confirmCancel)) act("cancel"); }));
    }
    $("bot-controls").style.display = t.status === "draft" || t.status === "registering" ? "" : "none";
  }

  function renderPlayers() {
    const ul = $("players");
    ul.replaceChildren();
    $("player-count").textContent = `(${t.players.length})`;
    if (!t.players.length) ul.append(el("li", { class: "empty", text: T.none }));
    const live = new Set();
    for (const r of t.rounds) for (const tb of r.tables) if (tb.status === "playing") for (const p of tb.players) live.add(p.username);
    for (const p of t.players) {
      const li = el("li", { "data-testid": `player-${p.username}` }, p.username);
      if (p.bot) li.append(" ", el("span", { class: "tag", text: `${T.bot} · ${T.levels?.[p.level] || p.level}` }));
      if (p.withdrawn) li.append(" ", el("span", { class: "tag warn", text: T.withdrawn }));
      if (p.eliminated_in) li.append(" ", el("span", { class: "tag", text: `${T.out} ${p.eliminated_in}` }));
      if (CFG.organiser && !p.withdrawn && !["finished", "cancelled"].includes(t.status)) {
        li.append(" ", el("button", { type: "button", class: "linkish", "data-testid": `remove-${p.username}`, text: `✕ ${T.remove}`,
          style: "color:var(--err)", onclick: () => act("remove", { username: p.username }) }));
        if (!p.bot && live.has(p.username)) {
          li.append(" ", el("button", { type: "button", class: "linkish", "data-testid": `replace-${p.username}`, text: T.replace,
            style: "color:var(--accent)", onclick: () => act("replace", { username: p.username }) }));
        }
      }
      ul.append(li);
    }
  }

  function renderStandings() {
    const body = document.querySelector("[data-testid=standings] tbody");
    body.replaceChildren();
    $("standings-empty").hidden = t.standings.some((r) => r.played > 0 || r.byes > 0);
    for (const r of t.standings) {
      const rounds = Object.entries(r.by_round).map(([n, v]) => `R${n}: ${fmtPoints(v)}`).join(" · ");
      const cls = [r.username === CFG.me ? "me" : "", r.withdrawn ? "withdrawn" : ""].join(" ").trim();
      body.append(el("tr", { class: cls || null, "data-testid": `standing-${r.username}` },
        el("td", { class: "num key rank", text: r.rank }), el("td", { class: "key", text: r.username }),
        el("td", { class: "num", "data-testid": "points", "data-label": T.points, text: fmtPoints(r.points) }),
        el("td", { class: "num", "data-label": T.opponents, text: fmtPoints(r.tiebreaks.opponents) }),
        el("td", { class: "num", "data-label": T.wins, text: r.tiebreaks.wins }),
        el("td", { class: "num", "data-label": T.rating, "data-testid": "rating", text: friendlyRating(r.tiebreaks.rating) }),
        el("td", { class: "num", "data-label": T.played, text: r.played }),
        el("td", { "data-label": T.byRound, text: rounds })));
    }
  }

  // A finished tournament ends on its result: the winner, then the podium (players equal on everything share a rank).
  function renderPodium() {
    const box = $("podium");
    const ranked = t.standings.filter((r) => !r.withdrawn);
    if (t.status !== "finished" || !ranked.length) { box.hidden = true; box.replaceChildren(); return; }
    const first = ranked.filter((r) => r.rank === ranked[0].rank).map((r) => r.username);
    const steps = el("ol", { class: "podium", "aria-label": T.podium });
    for (const r of ranked.filter((x) => x.rank <= 3)) {
      steps.append(el("li", { class: `step p${r.rank}`, "data-testid": `podium-${r.rank}` },
        el("b", { text: `${r.rank}.` }), r.username, el("small", { text: ` ${fmtPoints(r.points)} ${T.pts}` })));
    }
    box.replaceChildren(
      el("p", { class: "winner-line", "data-testid": "t-winner" }, `${first.length > 1 ? T.winners : T.winner}: `, el("strong", { text: first.join(", ") })),
      steps);
    box.hidden = false;
  }

  function renderRounds() {
    const box = $("rounds");
    box.replaceChildren();
    for (const r of [...t.rounds].reverse()) {
      const sec = el("section", { class: "t-round", "data-testid": `round-${r.number}` },
        el("h3", { text: `${T.round} ${r.number} — ${r.status === "finished" ? T.finished : T.running}${r.seed ? ` · ${T.seed} ${r.seed}` : ""}` }));
      if (r.byes.length) sec.append(el("p", { text: `${T.byes} ${r.byes.join(", ")}` }));
      const grid = el("div", { class: "t-tables" });
      for (const tb of r.tables) {
        const mine = tb.players.some((p) => p.username === CFG.me);
        const ol = el("ol");
        const byPlace = [...tb.players].sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || a.seat - b.seat);
        for (const p of tb.status === "finished" ? byPlace : tb.players) {
          const li = el("li", {}, p.username);
          if (p.place) li.append(` — ${T.place} ${p.place}, ${fmtPoints(p.points)} ${T.pts}`);
          if (p.forfeit) li.append(" ", el("span", { class: "tag warn", text: T.forfeit }));
          else if (p.bot_playing || p.replaced) li.append(" ", el("span", { class: "tag warn", text: T.botPlays }));
          ol.append(li);
        }
        const link = tb.status === "finished" && tb.match
          ? el("a", { href: `/matches/${tb.match}/replay/`, "data-testid": `replay-${tb.table}`, text: T.replay })
          : el("a", { href: `/tables/${tb.table}/`, "data-testid": `watch-${tb.table}`, text: T.watch });
        grid.append(el("div", { class: `t-table${mine ? " mine" : ""}`, "data-testid": `table-${tb.table}` },
          el("strong", { text: `${T.table} #${tb.table} ` }), el("small", { text: tb.status === "finished" ? T.finished : T.playing }), " · ", link, ol));
      }
      sec.append(grid);
      box.append(sec);
    }
  }

  function renderMyTable() {
    const box = $("my-table");
    box.replaceChildren();
    if (!CFG.me) return;
    for (const r of t.rounds) {
      for (const tb of r.tables) {
        if (tb.status === "playing" && tb.players.some((p) => p.username === CFG.me)) {
          box.append(el("p", { class: "messages" }, `${T.yourTable} `,
            el("a", { href: `/tables/${tb.table}/`, "data-testid": "my-table-link", text: `${T.goToTable} #${tb.table}` })));
        }
      }
    }
  }

  $("add-bots")?.addEventListener("click", () => act("bots", { level: $("bot-level").value, count: parseInt($("bot-count").value, 10) }));
  render();
  reconnecting(`/ws/tournaments/${CFG.id}/`, (m) => {
    if (m.type === "tournament") { t = m.tournament; render(); }
  }, (state) => {
    const c = $("conn-status");
    c.dataset.state = state;
    // live: a green dot (its word for screen readers and the pointer); cut off: the word itself
    c.textContent = state === "open" ? "●" : T.reconnecting;
    c.title = state === "open" ? T.connected : T.reconnecting;
    c.setAttribute("aria-label", c.title);
    c.hidden = ["finished", "cancelled"].includes(t.status); // a finished tournament is not "live"
  });
}

if (CFG.page === "new") createPage();
else if (CFG.page === "detail") detailPage();
