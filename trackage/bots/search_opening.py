"""The search bot in the opening: a player's decisions before the second stock round (the draft
or the auction of the private companies and minors, the first stock round's pars and buys)
judged by a rollout.

Each candidate is applied on a copy of the game, which the rule bot then plays for every seat
(one seed for all candidates, so that they differ by the candidate alone) to the start of the
second stock round; the seat's standing there against the best other seat
(``search_eval.standing``) judges it. The rule bot's own pick is rolled out first; its length
tells what the others will cost, and only as many others are tried as the opening's node
budget (``search_cost``) still pays for. A rollout the budget cuts short judges nothing.

In an auction (a bid with a price range) the candidates are the rule bot's pick, passing, the
lowest bid and a bid a quarter above the rule bot's (within the range)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.errors import GameError
from .base import acting_seat
from .play import derive_seed
from .rule_bot import RuleBot
from .rules.common import finalize
from .search_cost import COPY_NODES, node_budget
from .search_eval import standing

if TYPE_CHECKING:
    from .search_bot import SearchBot

# the stock round whose start ends the opening's rollouts (``game.turn`` counts stock rounds)
OPENING_TURN = 1
# a higher bid than the rule bot's: this much above it
RAISE = 1.25
# what another candidate must gain over the rule bot's own pick to be played instead (money)
OPENING_MARGIN = 10.0
MAX_OPENING_CANDIDATES = 6


def in_opening(game: Any) -> bool:
    """Whether the game is before its second stock round (and not in an operating round)."""
    return int(getattr(game, "turn", 0)) <= OPENING_TURN and not game.round.is_operating()


def opening_search(bot: SearchBot, game: Any, seat: int, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The candidate after whose rollout the seat stands best (the rule bot's pick unless another
    beats it by ``OPENING_MARGIN``); None when there is nothing to choose or the budget does not
    pay for the rule bot's own rollout."""
    left = node_budget(bot.budget, str(getattr(game, "TITLE", "")), opening=True)
    if left <= COPY_NODES:
        return None
    candidates = opening_candidates(bot, game, seat, actions)
    if len(candidates) < 2:
        return None
    seed = derive_seed("opening", bot.seed, len(game.actions))
    best: tuple[float, dict[str, Any]] | None = None
    cost = 0
    for i, action in enumerate(candidates):
        if i > 0 and left < cost:
            break
        value, spent = rollout(game, seat, action, left - COPY_NODES, seed)
        left -= spent + COPY_NODES
        if i == 0:
            if value is None:
                return None
            cost = spent + COPY_NODES
            best = (value, action)
        elif value is not None and best is not None and value - OPENING_MARGIN > best[0]:
            best = (value - OPENING_MARGIN, action)
    return None if best is None else best[1]


def opening_candidates(bot: SearchBot, game: Any, seat: int, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rule bot's pick first, then the other candidates of the decision."""
    own = bot.rule.decide(game, seat, actions)
    out: dict[str, dict[str, Any]] = {_key(own): own}
    auctions = [a for a in actions if a["type"] == "bid" and "price_range" in a]
    if auctions:
        for listed in actions:
            if listed["type"] == "pass":
                passing = finalize(listed)
                out.setdefault(_key(passing), passing)
        for listed in auctions:
            lo, hi = listed["price_range"]
            step = max(1, int(listed.get("price_step", 1) or 1))
            prices = [int(lo)]
            if own.get("company") == listed.get("company") and "price" in own:
                raised = int(own["price"]) * RAISE
                prices.append(min(int(hi), int(lo) + max(0, int((raised - lo) // step)) * step))
            for price in prices:
                bid = finalize(listed, price)
                out.setdefault(_key(bid), bid)
    else:
        for action in bot.stock_candidates(game, seat, actions):
            out.setdefault(_key(action), action)
    return list(out.values())[:MAX_OPENING_CANDIDATES]


def rollout(game: Any, seat: int, action: dict[str, Any], limit: int, seed: int) -> tuple[float | None, int]:
    """The seat's standing at the start of the second stock round after ``action`` and the rule
    bot for every seat, and the actions simulated; no standing when the action is refused or
    the rollout needs more than ``limit`` actions."""
    sim = game.copy()
    try:
        sim.process({**action, "id": len(sim.actions) + 1})
    except GameError:
        return None, 1
    policy = RuleBot(seed, None)
    spent = 1
    while not sim.finished and int(getattr(sim, "turn", 0)) <= OPENING_TURN:
        if spent >= limit:
            return None, spent
        listed = sim.legal_actions()
        if not listed:
            break
        mover = acting_seat(sim, listed)
        try:
            sim.process(policy.choose(sim, mover))
        except GameError:
            return None, spent
        spent += 1
    return standing(sim, seat), spent


def _key(action: dict[str, Any]) -> str:
    return repr(sorted((k, repr(v)) for k, v in action.items() if k != "id"))
