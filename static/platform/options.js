// A game's options as form fields, for every form that starts a game (the lobby's new table, a new tournament):
// one field per option the rules describe (`games.selectors.game_list`), read back as the options that differ
// from their defaults, which is what the API takes.
import { el } from "./kit.js";

// The labelled field of one option (`opt-<name>`); null for a type the forms do not offer.
export function optionInput(name, spec) {
  const id = `opt-${name}`;
  let input;
  if (spec.type === "bool") {
    input = el("input", { type: "checkbox", id, name, "data-testid": id });
    input.checked = !!spec.default;
  } else if (spec.type === "int") {
    input = el("input", { type: "number", id, name, value: spec.default, min: spec.min, max: spec.max, "data-testid": id });
  } else if (spec.type === "choice") {
    input = el("select", { id, name, "data-testid": id });
    for (const c of spec.choices) {
      const o = el("option", { value: JSON.stringify(c), text: String(c) });
      if (c === spec.default) o.selected = true;
      input.append(o);
    }
  } else {
    return null;
  }
  input.dataset.type = spec.type;
  return el("label", { class: spec.type === "bool" ? "check" : "", title: spec.help }, input, " ", spec.label || name.replaceAll("_", " "),
    el("small", { text: spec.help ? ` — ${spec.help}` : "" }));
}

// Every option's field into `box`, the technical ones (`spec.advanced`, games/option_texts.py) into `advanced`
// (a closed <details> of the form: a first-time player reads only what changes the game). Replaces earlier fields.
export function placeOptions(box, advanced, options) {
  for (const holder of [box, advanced]) holder.querySelectorAll("label[data-option]").forEach((n) => n.remove());
  for (const [name, spec] of Object.entries(options)) {
    if (spec.internal) continue;
    const node = optionInput(name, spec);
    if (!node) continue;
    node.dataset.option = name;
    (spec.advanced ? advanced : box).append(node);
  }
  box.hidden = !box.querySelector("label[data-option]");
  const fold = advanced.closest("details");
  if (fold) fold.hidden = !fold.querySelector("label");
}

// The options (name -> spec) whose field on the page holds something other than the default.
export function readOptions(options) {
  const out = {};
  for (const [name, spec] of Object.entries(options)) {
    const input = document.getElementById(`opt-${name}`);
    if (!input) continue;
    let value;
    if (spec.type === "bool") value = input.checked;
    else if (spec.type === "int") value = parseInt(input.value, 10);
    else if (spec.type === "choice") value = JSON.parse(input.value);
    if (value !== spec.default) out[name] = value;
  }
  return out;
}
