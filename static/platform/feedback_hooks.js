// The registry of each game's table feedback: which of its events make which sound, which card just landed,
// where a seat's pile is and which seat's pile an event grows. A game registers its hooks from its own renderer
// module (games/<slug>/static/games/<slug>/table.js); feedback.js reads them by the table's game and never names
// one. Side-effect free, so a renderer may import it on any page (replays, guided matches) without sounds.

const PLATFORM = {
  sounds: { finished: "end" }, // event kind -> "flip" | "smack" | "challenge" | "end"
  landed: null, // selector of the card that just landed (flashed when a "flip" sound's event came)
  pile: (seat) => `[data-testid=pile-${seat}]`, // selector of a seat's pile
  gains: () => null, // the seat whose pile an event grows (flashed), or null
};

const HOOKS = new Map();

export function registerFeedback(game, hooks) {
  HOOKS.set(game, { ...PLATFORM, ...hooks, sounds: { ...PLATFORM.sounds, ...(hooks.sounds || {}) } });
}

export function feedbackHooks(game) {
  return HOOKS.get(game) || PLATFORM;
}
