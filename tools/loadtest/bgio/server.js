// boardgame.io 0.50.2 server with the flip-the-top-card game, for `python -m tools.loadtest.versus`.
//
// One Smack It!-like game: 57 cards dealt face down to the seats, the player
// to move flips the top card of his pile onto the centre, the turn passes to
// the next seat. A flipper whose pile is empty takes the centre back (turned
// over), so a match never ends and the benchmark measures flips only.
// Secrecy as on the platform: nobody sees pile order (the player view keeps
// pile sizes). State lives in memory (boardgame.io's default InMemory store):
// nothing is durable. Usage: node server.js <port>
const { Server, Origins } = require('boardgame.io/server');

const CARDS = 57;

const Flip = {
  name: 'flip',
  setup: ({ ctx, random }) => {
    const deck = random.Shuffle([...Array(CARDS).keys()]);
    const piles = Array.from({ length: ctx.numPlayers }, () => []);
    deck.forEach((card, i) => piles[i % ctx.numPlayers].push(card));
    return { piles, centre: [], flips: 0 };
  },
  moves: {
    flip: ({ G, playerID }) => {
      const pile = G.piles[Number(playerID)];
      if (pile.length === 0) {
        pile.push(...G.centre.reverse());
        G.centre = [];
      }
      G.centre.push(pile.shift());
      G.flips += 1;
    },
  },
  turn: { minMoves: 1, maxMoves: 1 },
  playerView: ({ G }) => ({
    piles: G.piles.map((p) => p.length),
    centre: { count: G.centre.length, top: G.centre.length ? G.centre[G.centre.length - 1] : null },
    flips: G.flips,
  }),
};

const port = Number(process.argv[2] || 8000);
const server = Server({ games: [Flip], origins: [Origins.LOCALHOST, /.*/] });
server.run({ port, callback: () => console.log(`bgio listening on ${port}`) });
