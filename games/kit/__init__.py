"""The game kit's helpers beyond the Rules protocol (games/engine.py): what every game would otherwise write again.

- `opening`: the start of every `setup` (seats and options checked, the dealer, the first seat, a
  shuffled deck dealt round the table);
- `reactions`: a bot's human reaction time (log-normal with a floor, late and missed reactions);
- `memo`: a view's public part built once per state, per thread;
- `texts`: the words a game brings (its options' labels and help, its refusals), registered with it.
- `stats`: what a statistics extractor shares (each logged event unpacked, the table of counters' figures).

Pure like the rules (no Django, no I/O): rules and bots import it; the platform reads a game's texts
through games/registry.py.
"""
