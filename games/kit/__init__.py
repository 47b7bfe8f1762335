"""The game kit: everything a game builds on, beside its contract (games/engine.py). Pure (no Django, no I/O).

A game is its folder `games/<slug>/` (rules, bot, stats, texts, lesson, renderer, help); its rules and bot
import games/engine.py and this package, nothing else of the platform's. games/engine.py holds the Rules and Bot
protocols, `RuleError`, options and `GameRules` (the decide/fold every game shares), at the path the design names.

- `registry`: which games are installed, the one way to find a game's rules, bot, stats, texts and folder;
- `races`, `latency`: fair races, the race state a game keeps and the round trips the platform judges it with;
- `resignation`: a player leaving a match, the same in every game;
- `figures`: the contract of a game's statistics (`games/<slug>/stats.py`);
- `opening`: the start of every `setup` (seats and options checked, the dealer, the first seat, a
  shuffled deck dealt round the table);
- `reactions`: a bot's human reaction time (log-normal with a floor, late and missed reactions);
- `memo`: a view's public part built once per state, per thread;
- `texts`: the words a game brings (its options' labels and help, its refusals), registered with it.
- `stats`: what a statistics extractor shares (each logged event unpacked, the table of counters' figures).

Not here: anything that touches the database, a socket or Django (games/services/, games/socket/), the
platform's own words (games/error_texts.py, games/option_texts.py) and the loaders serving a game's files (games/game_files.py).
"""
