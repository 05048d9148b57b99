"""The rule bot varied by its seed (``rule-varied``): the same rules, with thresholds and
tie-breaks drawn from the seed, so that seat-rotated games of a title without chance differ.

The plain rule bot is deterministic: in a title with no random element (1861, 1825) the games
of a seating are one game repeated. This one, once per bot (a tournament makes one per game
and seat, each from its own seed), scales its bid limits (``bid_margin``, ``bid_extra``) by a
factor drawn in ``1 ± BAND`` and its price limits (``price_margin``, ``par_cash_share``) by
another; and among the actions of the best one's kind scored within ``NEAR_TIE`` (relative) of
the best it draws one, rather than taking the first listed. Runs are not varied (the router's
best run is the best). The same seed plays the same game."""

from __future__ import annotations

import random
from typing import Any

from .play import derive_seed
from .rule_bot import RuleBot, Scored

# the band the limits are scaled in (±10%) and the relative margin of a near-tie (1%)
BAND = 0.10
NEAR_TIE = 0.01
# actions whose best is never traded for a near one
NOT_VARIED = frozenset({"run_routes"})
# default thresholds of the rules (``rules.tweaks``), scaled when a title leaves them out
BID_KEYS = {"bid_margin": 1.2, "bid_extra": 10.0}
PRICE_KEYS = {"price_margin": 1.0, "par_cash_share": 1.0}


class VariedRuleBot(RuleBot):
    name = "rule-varied"

    def __init__(self, seed: int, budget: float | None = 0.25) -> None:
        super().__init__(seed, budget)
        self.vary = random.Random(derive_seed("vary", seed))
        self.bid_scale = self.vary.uniform(1 - BAND, 1 + BAND)
        self.price_scale = self.vary.uniform(1 - BAND, 1 + BAND)

    def tweaks(self, game: Any) -> dict[str, Any]:
        """The title's thresholds with the bid limits and price limits scaled by this bot's
        factors."""
        out = super().tweaks(game)
        for keys, scale in ((BID_KEYS, self.bid_scale), (PRICE_KEYS, self.price_scale)):
            for key, default in keys.items():
                out[key] = float(out.get(key, default)) * scale
        return out

    def pick(self, scored: list[Scored | None]) -> Scored | None:
        """One of the actions of the best one's kind scored within ``NEAR_TIE`` of it, drawn
        from the bot's seed (the best alone when it is a run or scores nothing)."""
        best = super().pick(scored)
        if best is None or best[0] <= 0 or best[1]["type"] in NOT_VARIED:
            return best
        floor = best[0] - NEAR_TIE * abs(best[0])
        near = [s for s in scored if s is not None and s[1]["type"] == best[1]["type"] and s[0] >= floor]
        return near[self.vary.randrange(len(near))] if len(near) > 1 else best
