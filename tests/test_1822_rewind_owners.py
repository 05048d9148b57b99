"""1822's undo journal owners are the core's (``Game.rewind_owners``, which leaves out the
groups whose classes name no container changed in place; 1867's add its stale track graph):
at every position of seeded random games (plain and 1822+) the record made of them saves the
very containers, with the same contents, that a record of every player, operator and train
holder saves, and an undo after each move gives back the state."""

from __future__ import annotations

import random

from helpers import players

from trackage.core.game import Game
from trackage.core.rewind import Rewind
from trackage.core.state import full_state
from trackage.playout import COMBOS, choose
from trackage.titles import new_game


def _saved(game, owners):
    r = game.round
    rec = Rewind(game, owners, r.in_place_containers() if r is not None else ())
    return sorted((id(c), repr(contents)) for c, contents in rec.saved)


def _every_owner(game):
    index = game.index
    out = [game, index, game.depot, *game.players, *index.corporations.values(), *index.minors.values()]
    named = {id(o) for o in out}
    out.extend({id(o): o for t in game.depot.trains
                if (o := t.owner) is not None and id(o) not in named}.values())
    r = game.round
    if r is not None:
        out.append(r)
        out.extend(r.steps)
    return out


def test_1822_and_1867_owners_are_the_cores():
    from trackage.titles.t1822.game import Game1822

    assert Game1822.rewind_owners is Game.rewind_owners
    game = new_game("1867", players(3), [], 0)
    assert game.rewind_owners()[:len(Game.rewind_owners(game))] == Game.rewind_owners(game)


def test_owners_save_what_the_cores_save():
    positions = 0
    for seed in range(3):
        n, options = COMBOS["1822"][seed % len(COMBOS["1822"])]
        game = new_game("1822", players(n), options, seed)
        rng = random.Random(seed)
        for step in range(120):
            if game.finished:
                break
            owners = game.rewind_owners()
            every = _every_owner(game)
            assert len(owners) <= len(every)
            assert _saved(game, owners) == _saved(game, every)
            legal = game.legal_actions()
            action = game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS)
            if step % 10 == 0:
                before = full_state(game)
                game.process(action)
                game.undo()
                assert full_state(game) == before
            game.process(action)
            positions += 1
    assert positions > 300


def test_floated_unchanged_for_an_unfloated_corporation():
    game = new_game("1822", players(3), [], 0)
    corp = next(c for c in game.corporations if c.type == "major")
    assert corp.floated() is False
    assert corp._floated is False
