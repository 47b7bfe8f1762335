// Tally's table renderer: the hand as buttons, the centre and the totals as text (the renderer contract is
// documented in static/platform/kit.js).
import { el, legalOf } from "../../platform/kit.js";
import { registerFeedback } from "../../platform/feedback_hooks.js";

registerFeedback("tally", { sounds: { played: "flip" }, landed: "[data-testid=tally-centre]" });

export function createRenderer(root, { send }) {
  const box = el("div", { class: "tally", "data-testid": "tally" });
  root.append(box);
  return {
    update(view) {
      box.replaceChildren(
        el("p", { "data-testid": "tally-centre", text: view.centre.join(" ") }),
        el("p", { "data-testid": "tally-totals", text: view.totals.join(" / ") }),
        ...(view.hand || []).map((c) => el("button", { type: "button", text: String(c), disabled: !legalOf(view, "play", { card: c }),
          onclick: () => send && send({ kind: "play", card: c }) })),
      );
    },
    destroy() { box.remove(); },
  };
}
