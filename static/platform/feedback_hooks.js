// The registry of each game's table feedback: which of its events make which sound, which card just landed,
// where a seat's pile is, which seat's pile an event grows, and the sentences the results card gives for the
// game's own placement reasons. A game registers its hooks from its own renderer module
// (games/<slug>/static/games/<slug>/table.js, loaded before any view is drawn); feedback.js and results.js read
// them by the table's game and never name one. Side-effect free, so a renderer may import it on any page
// (replays, guided matches) without sounds.

const PLATFORM = {
  sounds: { finished: "end" }, // event kind -> "flip" | "smack" | "challenge" | "end"
  landed: null, // selector of the card that just landed (flashed when a "flip" sound's event came)
  pile: (seat) => `[data-testid=pile-${seat}]`, // selector of a seat's pile
  gains: () => null, // the seat whose pile an event grows (flashed), or null
  reasons: {}, // outcome reason code -> sentence ({name}: the seat's player, {limit}), in the page's language
};

const HOOKS = new Map();

export function registerFeedback(game, hooks) {
  HOOKS.set(game, { ...PLATFORM, ...hooks, sounds: { ...PLATFORM.sounds, ...(hooks.sounds || {}) } });
}

export function feedbackHooks(game) {
  return HOOKS.get(game) || PLATFORM;
}
