"""Tally's bot: plays its highest card, a human reaction after its turn came (the kit's reaction draw)."""

from __future__ import annotations

import random

from games.engine import BotContext, BotMove
from games.kit.reactions import reaction_ms


class TallyBot:
    def choose(self, ctx: BotContext, rng: random.Random) -> BotMove | None:
        legal = ctx.view["legal"]
        if not legal:
            return None
        since = ctx.history[-1]["t_ms"] if ctx.history else ctx.now_ms
        delay = reaction_ms(random.Random(len(ctx.history) * 8 + ctx.seat), median_ms=300, sigma=0.3, floor_ms=150)
        return BotMove(at_ms=since + delay, action=max(legal, key=lambda a: a["card"]))


BOT = TallyBot()
