"""1822's listing asks the steps about the companies that may act only (``listing_companies``:
``Game1822.ACTING_HELD_BY_CORPORATION`` and ``ACTING_HELD_BY_PLAYER``, by the kind of their
owner): the companies left out get no action from any step at any
position of seeded random games (every combo of the random player), the whole listing is the
one the core's default (every open company held) gives, and the set covers every company
of the data with a tile lay or a choice."""

from __future__ import annotations

import random

import pytest
from helpers import players

from trackage.core.game import Game
from trackage.playout import COMBOS, choose
from trackage.titles import new_game
from trackage.titles.t1822 import choices, privatelays
from trackage.titles.t1822.game import Game1822

#: the times at which a company step (stock, track, token, issue) asks a company for its choices
CHOICE_TIMES = ("stock_round", "track", "token", "issue")


def test_acting_companies_cover_the_data():
    """Every company with a tile lay in any combo's data, P5 (teleport and token) and every
    company with choices is asked about when its owner is of the kind they need."""
    lays = set()
    for n, options in COMBOS["1822"]:
        game = new_game("1822", players(n), options, 0)
        lays |= {c.sym for c in game.companies if any(a.get("type") == "tile_lay" for a in c.abilities)}
    assert lays and lays <= Game1822.ACTING_HELD_BY_CORPORATION
    assert choices.CHOOSING_HELD_BY_CORPORATION <= Game1822.ACTING_HELD_BY_CORPORATION
    assert choices.CHOOSING_HELD_BY_PLAYER <= Game1822.ACTING_HELD_BY_PLAYER
    assert "P5" in Game1822.ACTING_HELD_BY_CORPORATION


@pytest.mark.parametrize("seed", range(len(COMBOS["1822"])))
def test_left_out_companies_have_no_actions(seed, monkeypatch):
    n, options = COMBOS["1822"][seed % len(COMBOS["1822"])]
    game = new_game("1822", players(n), options, seed)
    rng = random.Random(seed)
    left_out = asked = 0
    for made in range(160):
        if game.finished:
            break
        listed = set(map(id, game.listing_companies()))
        for c in Game.listing_companies(game):
            if id(c) in listed:
                continue
            left_out += 1
            for t in CHOICE_TIMES:
                assert game.company_choices(c, t) == {}
            assert privatelays.track_ability(game, c, "special_track") is None
            for step in game.round.steps:
                if step.active():
                    assert step.actions(c) == [], (made, c.sym, type(step).__name__)
                    asked += 1
        legal = game.legal_actions()
        if made % 4 == 0:
            # the whole listing as the core's default gives it (on a copy: a listing is kept)
            cp = game.copy()
            with monkeypatch.context() as m:
                m.setattr(Game1822, "listing_companies", Game.listing_companies)
                assert cp.legal_actions(routes=False) == game.legal_actions(routes=False)
        game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))
    assert left_out > 100 and asked > 100
