"""A player's first hour (docs/decisions-first-hour.md): the guided first match and bots that go easy on newcomers.

- `learning`: a game's scripted first match (`games/<slug>/learn.py`), played through the pure rules;
- `views`: its page `/games/<slug>/learn/` and whether the lobby offers it;
- `experience`: how many finished matches each human at a match has played (a read the bots' planning uses).

Not here: the games' own lesson scripts (each in its folder) and the bots' restraint itself (games/<slug>/bot.py).
"""
