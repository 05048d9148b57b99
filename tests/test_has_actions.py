"""A step's ``has_actions`` (the round's "active?"/"blocking?" question) has the truth value
of its ``actions`` list, and its ``answers`` (listed? anything?) the list's; a subclass that
overrides ``actions`` alone gets the default back; a logged route's chains are remembered
only for the same tiles and links."""

from __future__ import annotations

import pytest
from conftest import require_fixtures

from trackage.core.log import filter_actions, load_log
from trackage.core.round import Step
from trackage.core.steps.track import TrackAndTokenStep
from trackage.replay import game_from_log

# short logs of the titles whose steps answer sooner (stock, tile lay, trains, issues)
LOGS = [f for title in ("1822", "1825", "1858India", "1867", "1858") for f in require_fixtures(title)[:1]]
# the action types asked of ``answers`` at each position: the stock kinds and a few others
ASKED = ("buy_shares", "par", "sell_shares", "buy_company", "sell_company", "bid", "convert", "pass",
         "lay_tile", "choose_ability", "payoff_player_debt")


class _Listing(TrackAndTokenStep):
    def actions(self, entity):
        return ["pass"]


class _Mixin:
    def actions(self, entity):
        return []


class _Mixed(_Mixin, TrackAndTokenStep):
    pass


def test_overriding_actions_restores_the_default_answer():
    assert TrackAndTokenStep.has_actions is not Step.has_actions
    assert _Listing.has_actions is Step.has_actions
    assert _Mixed.has_actions is Step.has_actions
    assert TrackAndTokenStep.answers is Step.answers


def _check_position(game):
    rnd = game.round
    entities = {id(e): e for e in [rnd.current_entity_of_round(), *rnd.active_entities()] if e is not None}
    for step in rnd.steps:
        if not step.active():
            continue
        for e in [*entities.values(), *(s.current_entity() for s in [step] if s.current_entity() is not None)]:
            acts = step.actions(e)
            assert step.has_actions(e) == bool(acts), (type(step).__name__, e)
            for atype in ASKED:
                assert step.answers(e, atype) == (atype in acts, bool(acts)), (type(step).__name__, e, atype)


@pytest.mark.parametrize("path", LOGS, ids=[f"{p.parent.name}/{p.stem}" for p in LOGS])
def test_has_actions_is_the_truth_of_actions(path):
    data = load_log(path)
    game = game_from_log(data)
    for action in filter_actions(data["actions"])[:400]:
        _check_position(game)
        game._apply(action)
    _check_position(game)
