"""The rule bot (level 2): it plays whole games, the same seed plays the same game, and every
decision is one of the seat's listed legal actions."""

from __future__ import annotations

import pytest

from trackage.bots import BOT_NAMES, acting_seat, make_bot, seat_actions
from trackage.bots.play import play_game
from trackage.bots.rule_bot import RuleBot
from trackage.titles import new_game

GAMES = [("1893", 2, [], 3), ("1825", 2, ["unit_3"], 3)]


def bots(n: int, seed: int) -> list:
    return [make_bot("rule", seed)] + [make_bot("random", seed * 100 + i) for i in range(1, n)]


def test_rule_bot_is_registered():
    assert "rule" in BOT_NAMES
    assert isinstance(make_bot("rule", 1), RuleBot)


@pytest.mark.parametrize(("title", "players", "options", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_rule_bot_plays_a_whole_game(title, players, options, seed):
    game = play_game(title, options, seed, bots(players, seed))
    assert game.finished and game.game_end_reason


def test_rule_bot_is_deterministic_for_a_seed():
    title, players, options, seed = GAMES[0]
    a = play_game(title, options, seed, bots(players, seed))
    b = play_game(title, options, seed, bots(players, seed))
    assert list(a.actions) == list(b.actions)
    assert a.result() == b.result()


def _strip(action: dict) -> dict:
    return {k: v for k, v in action.items() if k not in ("id", "price", "price_range", "price_step",
                                                         "canonical_prices")}


@pytest.mark.parametrize(("title", "players", "options", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_rule_bot_decisions_are_listed_actions(title, players, options, seed):
    game = new_game(title, [{"id": i + 1, "name": f"p{i + 1}"} for i in range(players)], options, seed)
    rule = make_bot("rule", seed)
    others = bots(players, seed)
    checked = 0
    while not game.finished and len(game.actions) < 400:
        actions = game.legal_actions()
        seat = acting_seat(game, actions)
        if seat == 0:
            listed = seat_actions(game, seat, actions)
            action = rule.choose(game, seat)
            matches = [a for a in listed if _strip(a) == _strip(action)]
            assert matches, action
            if "price_range" in matches[0]:
                lo, hi = matches[0]["price_range"]
                assert lo <= action["price"] <= hi
            checked += 1
        else:
            action = others[seat].choose(game, seat)
        game.process(action)
    assert checked > 20
