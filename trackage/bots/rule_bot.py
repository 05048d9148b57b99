"""Level 2: the rule bot, what a competent player does from general 18xx principles.

Every listed action of the seat gets a score from the rules (``rules.operate`` for operators,
``rules.stock`` for players); the best scored action is played. Actions the rules have no
opinion on are left to the random bot's weighted draw, which is also used when the best a rule
offers is to pass (so the bot never gets stuck on a step the rules do not know)."""

from __future__ import annotations

from typing import Any

from ..core.errors import GameError
from ..playout import choose as weighted_choice
from .base import BotBase, seat_actions
from .rules import mergers, operate, stock
from .rules.common import finalize, trains_of
from .rules.tweaks import tweaks_for

# actions a player takes only when nothing else is listed
LAST_RESORT = frozenset({"bankrupt", "sell_shares", "sell_company"})

Scored = tuple[float, dict[str, Any]]


class RuleBot(BotBase):
    name = "rule"

    def __init__(self, seed: int, budget: float | None = 0.25) -> None:
        super().__init__(seed, budget)

    def choose(self, game: Any, seat: int) -> dict[str, Any]:
        actions = seat_actions(game, seat)
        if not actions:
            raise GameError(f"rule bot: seat {seat} has no legal action in {game.round.name}", rule="not-your-turn")
        action = self.decide(game, seat, actions)
        action["id"] = len(game.actions) + 1
        return action

    def decide(self, game: Any, seat: int, actions: list[dict[str, Any]]) -> dict[str, Any]:
        """The best scored action; else a weighted draw among the actions the rules do not
        judge (and passing); else passing; else any listed action."""
        best = self.pick(self.scored(game, seat, actions))
        if best is not None and best[0] > 0:
            return best[1]
        passes = [a for a in actions if a["type"] == "pass"]
        pool = [a for a in actions if a["type"] not in RULED and a["type"] not in LAST_RESORT]
        if not pool and passes:
            return finalize(passes[0])
        pool = (pool + passes) or actions
        picked = game.playout_choose(self.rng, pool) or weighted_choice(self.rng, pool, game.PLAYOUT_WEIGHTS)
        return dict(picked)

    def pick(self, scored: list[Scored | None]) -> Scored | None:
        """The best scored action (the first listed among equals); None when no rule judged one."""
        best: Scored | None = None
        for s in scored:
            if s is not None and (best is None or s[0] > best[0]):
                best = s
        return best

    def tweaks(self, game: Any) -> dict[str, Any]:
        """The thresholds the rules read (``rules.tweaks``): the title's."""
        return tweaks_for(str(getattr(game, "TITLE", "")))

    def scored(self, game: Any, seat: int, actions: list[dict[str, Any]]) -> list[Scored | None]:
        player = game.seats[seat]
        tweaks = self.tweaks(game)
        out: list[Scored | None] = []
        trains = [a for a in actions if a["type"] == "buy_train"]
        by_entity: dict[int, list[dict[str, Any]]] = {}
        for a in trains:
            by_entity.setdefault(id(game.index.resolve(a)), []).append(a)
        train_picks: dict[int, dict[str, Any] | None] = {}
        for a in actions:
            entity = game.index.resolve(a)
            kind = a["type"]
            if kind == "pass":
                out.append((0.0, finalize(a)))
            elif kind in REPAY:
                out.append((95.0, finalize(a)))
            elif kind == "run_routes":
                out.append((operate.score_run(a), finalize(a)))
            elif kind == "dividend":
                out.append((operate.score_dividend(game, entity, a), finalize(a)))
            elif kind == "buy_train":
                key = id(entity)
                if key not in train_picks:
                    forced = not any(p["type"] == "pass" and game.index.resolve(p) is entity for p in actions) or (
                        bool(tweaks.get("buy_when_trainless")) and not trains_of(entity))
                    train_picks[key] = operate.choose_train(game, entity, by_entity[key], forced)
                pick = train_picks[key]
                if pick is not None and pick.get("train") == a.get("train") and pick.get("variant") == a.get("variant"):
                    out.append((60.0, pick))
            elif kind == "lay_tile":
                out.append((operate.score_lay(game, entity, a), finalize(a)))
            elif kind == "place_token":
                out.append((operate.score_token(game, entity, a), finalize(a)))
            elif kind == "discard_train":
                out.append((20.0 - operate.price_of(a) / 10000.0, finalize(a)))
            elif kind == "buy_company" and entity is not player:
                sale = operate.company_sale(game, entity, a)
                out.append(None if sale is None else (30.0, sale))
            elif kind == "buy_company":
                out.append(stock.score_buy_company(game, player, a, tweaks))
            elif kind == "par":
                out.append(stock.score_par(game, player, a, tweaks))
            elif kind == "buy_shares":
                out.append(stock.score_buy_shares(game, player, entity, a, tweaks))
            elif kind == "sell_shares":
                out.append(stock.score_sell_shares(game, player, entity, a))
            elif kind == "convert":
                out.append(mergers.score_convert(game, player, entity, a))
            elif kind == "merge":
                out.append(mergers.score_merge(game, player, entity, a))
            elif kind == "bid":
                out.append(stock.score_bid(game, player, a, tweaks))
            else:
                out.append(None)
        return out


# paying back what a player owes: first, before interest grows
REPAY = frozenset({"payoff_player_debt", "payoff_debt", "repay_loan"})
RULED = REPAY | frozenset({"pass", "run_routes", "dividend", "buy_train", "lay_tile", "place_token", "discard_train",
                   "buy_company", "par", "buy_shares", "sell_shares", "bid", "convert", "merge"})
