// The guided first match (/games/<slug>/learn/): the game's real renderer, fed scripted frames, no socket.
// The page's data (json_script "learn-data"): { game, seat, players, rendererUrl, steps: [{ view, events, prompt,
// expect, wrong, final }] } — every view was made by the game's rules on the server (games/first_hour/learning.py).
// A step waits for its expected action (the renderer's own buttons and keys send it) or for "Next"; any other
// action is not played: the step's explanation shows and the learner tries again. Words: the template's.

const data = JSON.parse(document.getElementById("learn-data").textContent);
const root = document.getElementById("game-root");
const promptBox = document.getElementById("learn-prompt");
const feedbackBox = document.getElementById("learn-feedback");
const progress = document.getElementById("learn-progress");
const nextButton = document.getElementById("learn-next");
const endLinks = document.getElementById("learn-end");
const coach = document.getElementById("learn-coach");
const toggle = document.getElementById("learn-toggle");
const words = coach.dataset;
const lang = document.body.dataset.lang || "en";

let index = -1;
let renderer = null;

// An action matches the expected one when every field the script names has the same value (the renderer may add
// fields the step does not care about).
function matches(action, expect) {
  if (!action || !expect) return false;
  return Object.entries(expect).every(([k, v]) => JSON.stringify(action[k]) === JSON.stringify(v));
}

function say(box, text, kind) {
  box.textContent = text || "";
  box.hidden = !text;
  if (kind) box.dataset.kind = kind;
}

// Phones: the coach sticks above the table, so its words can be folded away (learn.css shows the button on narrow
// screens only). A new step or a mistake unfolds it again: what to do next is never hidden unasked.
function fold(folded) {
  coach.classList.toggle("learn-folded", folded);
  toggle.setAttribute("aria-expanded", String(!folded));
  toggle.textContent = folded ? words.show : words.hide;
}

toggle.addEventListener("click", () => fold(!coach.classList.contains("learn-folded")));

function show(k) {
  index = k;
  fold(false);
  const step = data.steps[k];
  document.body.dataset.learnStep = String(k);
  progress.textContent = words.progress.replace("{n}", String(k + 1)).replace("{m}", String(data.steps.length));
  say(promptBox, step.prompt);
  say(feedbackBox, "");
  renderer.update(step.view, step.events || [], { now_ms: 0 });
  window.dispatchEvent(new CustomEvent("cardtable:update", { detail: { view: step.view, events: step.events || [], seat: data.seat, game: data.game, root } }));
  const waiting = step.expect === null && !step.final;
  nextButton.hidden = !waiting;
  endLinks.hidden = !step.final;
  root.dataset.expect = step.expect ? step.expect.kind : "";
  if (step.final) {
    document.body.dataset.learnDone = "true";
    window.scrollTo(0, 0);
  }
}

function onAction(action) {
  const step = data.steps[index];
  if (!step || step.final) return;
  if (step.expect && matches(action, step.expect)) {
    show(index + 1);
    return;
  }
  say(feedbackBox, `${words.wrong} ${step.wrong || step.prompt}`, "wrong");
  fold(false);
}

nextButton.addEventListener("click", () => {
  const step = data.steps[index];
  if (step && step.expect === null && !step.final) show(index + 1);
});

const { createRenderer } = await import(data.rendererUrl);
renderer = createRenderer(root, { seat: data.seat, lang, send: onAction, players: data.players });
show(0);
