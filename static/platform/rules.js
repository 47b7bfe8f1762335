// The rules page: every decision of this site ("[D] …", where the printed rulebook is silent) folds into a
// <details>, so a first reading runs through the game's own rules; one click opens the detail. Consecutive
// decisions fold together. The words of the summaries come from the page (data-decision, data-decisions).
import { el } from "./kit.js";

const body = document.querySelector("[data-testid=rules-body]");
const MARK = /^\s*\[D\]/;
const one = body?.dataset.decision || "";
const many = body?.dataset.decisions || "";
const settings = body?.dataset.settings || "";

function isDecision(node) {
  return node instanceof HTMLElement && ["P", "DIV", "LI"].includes(node.tagName) && MARK.test(node.textContent);
}

function fold(nodes) {
  const summary = el("summary", {}, el("strong", { text: "[D]" }), ` ${nodes.length > 1 ? `${many} (${nodes.length})` : one}`);
  const box = el("details", { class: "decision", "data-testid": "decision" }, summary);
  nodes[0].before(box);
  box.append(...nodes);
}

if (body) {
  // paragraphs (and paragraph-like list items) that are decisions as a whole, grouped with their neighbours
  for (const parent of [body, ...body.querySelectorAll("div, section")]) {
    if (parent !== body && (parent.closest("details") || MARK.test(parent.textContent))) continue;
    let run = [];
    for (const child of [...parent.children]) {
      if (isDecision(child) && child.tagName !== "LI") { run.push(child); continue; }
      if (run.length) fold(run);
      run = [];
    }
    if (run.length) fold(run);
  }
  // a list of decisions only: one fold for the whole list
  for (const list of body.querySelectorAll("ul, ol")) {
    const items = [...list.children];
    if (list.closest("details") || !items.length || !items.every((li) => MARK.test(li.textContent))) continue;
    const box = el("details", { class: "decision", "data-testid": "decision" },
      el("summary", {}, el("strong", { text: "[D]" }), ` ${items.length > 1 ? `${many} (${items.length})` : one}`));
    list.before(box);
    box.append(list);
  }
  for (const li of body.querySelectorAll("li")) {
    if (!MARK.test(li.textContent) || li.closest("details")) continue;
    const box = el("details", { class: "decision", "data-testid": "decision" }, el("summary", {}, el("strong", { text: "[D]" }), ` ${one}`));
    box.append(...li.childNodes);
    li.append(box);
  }
  // a long decision inside a sentence ("… <span class=…-decision>[D] …</span>")
  for (const span of body.querySelectorAll("span[class$='-decision'], span[class$='-d']")) {
    if (span.closest("details") || span.textContent.trim().length < 80 || !MARK.test(span.textContent)) continue;
    const box = el("details", { class: "decision inline", "data-testid": "decision" }, el("summary", {}, el("strong", { text: "[D]" }), ` ${one}`));
    span.before(box);
    box.append(span);
  }
  // a table of settings by their identifiers (`turn_seconds`) is for hosts: folded too
  for (const table of body.querySelectorAll("table")) {
    if (table.closest("details") || !/[a-z]+_[a-z]+/.test(table.textContent)) continue;
    const box = el("details", { class: "decision settings", "data-testid": "settings-table" }, el("summary", { text: settings }));
    table.before(box);
    box.append(table);
  }
  // an option named by its identifier in the text (<code>grace_ms</code>) is named as the create form names it;
  // the folded settings tables keep the identifiers (a host looks them up there)
  const words = JSON.parse(document.getElementById("option-words")?.textContent || "{}");
  for (const node of body.querySelectorAll("code, em")) {
    if (node.closest("details.settings")) continue;
    const label = words[node.textContent.trim()];
    if (label) node.replaceWith(el("em", { class: "option-name", text: label }));
  }
}
