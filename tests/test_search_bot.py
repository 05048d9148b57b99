"""The search bot (level 3): registered, the same seed plays the same game, every decision is
one of the seat's listed legal actions, and it plays a short game of 1893 to its end."""

from __future__ import annotations

from trackage.bots import BOT_NAMES, acting_seat, make_bot, seat_actions
from trackage.bots.play import play_game
from trackage.bots.search_bot import SearchBot, node_budget
from trackage.titles import new_game

# a small budget keeps the tests quick; the search is the same at any budget, only shorter
BUDGET = 0.05


def bots(n: int, seed: int) -> list:
    return [make_bot("search", seed, BUDGET)] + [make_bot("rule", seed * 100 + i) for i in range(1, n)]


def _strip(action: dict) -> dict:
    return {k: v for k, v in action.items() if k not in ("id", "price", "price_range", "price_step",
                                                         "canonical_prices")}


def test_search_bot_is_registered():
    assert "search" in BOT_NAMES
    bot = make_bot("search", 1)
    assert isinstance(bot, SearchBot) and bot.name == "search" and bot.budget == 0.25
    assert bot.nodes == node_budget(0.25) > 10
    assert node_budget(0.5) > node_budget(0.25) > node_budget(0.05) > 0


def test_search_bot_is_deterministic_for_a_seed():
    a = play_game("1893", [], 3, bots(2, 3))
    b = play_game("1893", [], 3, bots(2, 3))
    assert list(a.actions) == list(b.actions)
    assert a.result() == b.result()
    assert a.finished and a.game_end_reason


def test_search_bot_decisions_are_listed_actions():
    players = 3
    game = new_game("1893", [{"id": i + 1, "name": f"p{i + 1}"} for i in range(players)], [], 5)
    search = make_bot("search", 5, BUDGET)
    others = bots(players, 5)
    checked = searched = 0
    while not game.finished and len(game.actions) < 300:
        actions = game.legal_actions()
        seat = acting_seat(game, actions)
        if seat == 0:
            listed = seat_actions(game, seat, actions)
            searched += len(search.candidates(game, seat, listed)) > 1
            action = search.choose(game, seat)
            matches = [a for a in listed if _strip(a) == _strip(action)]
            assert matches, action
            if "price_range" in matches[0]:
                lo, hi = matches[0]["price_range"]
                assert lo <= action["price"] <= hi
            checked += 1
        else:
            action = others[seat].choose(game, seat)
        game.process(action)
    assert checked > 20 and searched > 5



def test_node_budgets_follow_each_titles_cost():
    assert node_budget(0.25, "1858India") < node_budget(0.25, "1822") < node_budget(0.25, "1893") == node_budget(0.25)
