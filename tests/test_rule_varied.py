"""The rule bot varied by its seed (``rule-varied``) and distinct games in tournaments: in a
title without chance (1825) deterministic bots play one game whatever the seeds, the varied
bot plays another game for another seed and the same game for the same seed."""

from __future__ import annotations

import pytest

from trackage.bots import make_bot
from trackage.bots.play import play_game
from trackage.bots.registry import VARIANT_NAMES
from trackage.bots.rule_bot import RuleBot
from trackage.bots.stats import summary
from trackage.bots.tournament import Setup, actions_hash, run
from trackage.bots.varied_rule_bot import BAND, VariedRuleBot
from trackage.export import game_to_log

TITLE, OPTIONS = "1825", ["unit_3"]


def varied_game(seed: int) -> str:
    game = play_game(TITLE, OPTIONS, 1, [make_bot("rule-varied", seed), make_bot("rule-varied", seed + 1)])
    assert game.finished
    return actions_hash(game_to_log(game)["actions"])


def test_rule_varied_is_registered_beside_the_levels():
    assert VARIANT_NAMES == ("rule-varied",)
    bot = make_bot("rule-varied", 3)
    assert isinstance(bot, VariedRuleBot) and isinstance(bot, RuleBot) and bot.name == "rule-varied"
    assert type(make_bot("rule", 3)) is RuleBot


def test_rule_varied_limits_are_scaled_within_the_band_by_the_seed():
    a, b = VariedRuleBot(1), VariedRuleBot(2)
    for bot in (a, b):
        assert 1 - BAND <= bot.bid_scale <= 1 + BAND and 1 - BAND <= bot.price_scale <= 1 + BAND
    assert (a.bid_scale, a.price_scale) == (VariedRuleBot(1).bid_scale, VariedRuleBot(1).price_scale)
    assert a.bid_scale != b.bid_scale


def test_rule_varied_same_seed_same_game_other_seed_other_game():
    first = varied_game(1)
    assert varied_game(1) == first
    assert varied_game(7) != first


def test_deterministic_bots_in_a_title_without_chance_play_fewer_distinct_games():
    out = run(Setup(TITLE, ("rule", "rule"), 2, seed=0, options=tuple(OPTIONS)))
    assert out["games"] == 2 and out["distinct_games"] == 1


def test_varied_bots_play_distinct_games():
    out = run(Setup(TITLE, ("rule-varied", "rule-varied"), 2, seed=0, options=tuple(OPTIONS)))
    assert out["games"] == 2 and out["distinct_games"] == 2


@pytest.mark.parametrize(("hashes", "distinct"), [(["a", "a", "b"], 2), (["a", None, None], 3)])
def test_summary_counts_distinct_games_by_hash(hashes, distinct):
    recs = [{"game": g, "seating": ["x", "y"], "ranks": [1, 2], "wins": [1.0, 0.0], "margins": [5, -5],
             **({"actions_hash": h} if h else {})} for g, h in enumerate(hashes)]
    assert summary(TITLE, recs)["distinct_games"] == distinct
