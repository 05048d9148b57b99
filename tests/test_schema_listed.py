"""An action equal, field by field and type by type, to one the listing handed out skips its
schema check and the gate's comparison (trackage.core.schema.listed_index): the listed actions
fit their schemas, and an action that is not such a copy is checked as before."""

from __future__ import annotations

import copy
import random

import pytest

from trackage.core import schema
from trackage.core.errors import ActionFormatError
from trackage.core.state import full_state
from trackage.playout import COMBOS, choose
from trackage.titles import TITLES, new_game


def _game(title: str, seed: int):  # type: ignore[no-untyped-def]
    n, options = COMBOS[title][seed % len(COMBOS[title])]
    return new_game(title, [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, seed)


@pytest.mark.parametrize("title", sorted(TITLES))
def test_the_listed_actions_fit_their_schemas(title: str) -> None:
    game = _game(title, 0)
    rng = random.Random(5)
    granted = 0
    for _ in range(60):
        if game.finished:
            break
        legal = game.legal_actions()
        if not legal:
            break
        for la in legal:
            if la["type"] in schema.FIELDS and la.keys() <= schema.FIELDS[la["type"]]:
                assert schema.problem(la) is None, la
        action = game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS)
        granted += schema.listed_index(action, game._listing[1] if game._listing else []) is not None
        game.process(copy.deepcopy(action))
    assert granted > 0


def test_a_copy_of_a_listed_action_is_granted_and_a_forged_one_checked() -> None:
    listing = [{"type": "lay_tile", "entity": "LNWR", "hex": "A1", "tile": "8-0", "rotation": 1},
               {"type": "buy_shares", "entity": 1, "shares": ["LNWR_1"], "percent": 10}]
    assert schema.listed_index(dict(listing[0]), listing) == 0
    assert schema.listed_index(dict(listing[0], id=7, created_at=1700000000), listing) == 0
    assert schema.listed_index(dict(listing[1]), listing) == 1
    # the same values of other types (True and 1.0 equal 1), another field, a bad stamp: not granted
    for forged in (dict(listing[0], rotation=True), dict(listing[0], rotation=1.0), dict(listing[0], extra=1),
                   dict(listing[0], id="7"), dict(listing[0], created_at=1.5), dict(listing[1], entity=True),
                   dict(listing[1], shares=["LNWR_1", "LNWR_1"])):
        assert schema.listed_index(forged, listing) is None, forged
    # a listed action with a field its schema does not name is no model to copy
    assert schema.listed_index({"type": "bid", "entity": 1, "price": 5, "price_range": [5, 9]},
                               [{"type": "bid", "entity": 1, "price": 5, "price_range": [5, 9]}]) is None


@pytest.mark.parametrize("title", ["1822", "1893"])
def test_a_forged_copy_is_refused_as_before_and_leaves_the_game(title: str) -> None:
    game = _game(title, 1)
    rng = random.Random(3)
    refused = 0
    for _ in range(40):
        legal = game.legal_actions()
        action = game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS)
        ints = [k for k, v in action.items() if type(v) is int and k != "entity"]
        if ints:
            before = full_state(game)
            forged = dict(action, **{ints[0]: True})
            with pytest.raises(ActionFormatError):
                game.process(forged)
            assert full_state(game) == before
            game.legal_actions()
            refused += 1
        game.process(copy.deepcopy(action))
    assert refused > 0
