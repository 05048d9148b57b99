"""1858's gauge graphs kept from one board version to the next (``Game1858.KEEP_GAUGE_WALKS``,
``TrackGraph.keep_walks(lazy_seeds=True)``): a game lists the same actions, undoes and redoes
to the same state and ends in the same state with the graphs kept or made fresh per version,
and keeping them spares walks."""

from __future__ import annotations

import json
import random

import pytest

from trackage.core import graph as graphmod
from trackage.core.state import full_state
from trackage.playout import COMBOS, choose
from trackage.titles import new_game
from trackage.titles.t1858.game import Game1858


def _play(title: str, seed: int, decisions: int, keep: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], int]:
    monkeypatch.setattr(Game1858, "KEEP_GAUGE_WALKS", keep)
    walks = [0]
    compute = graphmod.TrackGraph._compute

    def counted(self, corporation, one_token=None):  # type: ignore[no-untyped-def]
        walks[0] += 1
        return compute(self, corporation, one_token)

    monkeypatch.setattr(graphmod.TrackGraph, "_compute", counted)
    n, options = COMBOS[title][seed % len(COMBOS[title])]
    game = new_game(title, [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, seed)
    rng = random.Random(seed)
    out = []
    for made in range(1, decisions + 1):
        if game.finished:
            break
        legal = game.legal_actions()
        out.append(json.dumps(legal, sort_keys=True))
        game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))
        if made % 11 == 0:
            before = full_state(game)
            game.undo()
            out.append(json.dumps(game.legal_actions(), sort_keys=True))
            out.append(json.dumps(full_state(game), sort_keys=True, default=str))
            game.redo()
            assert full_state(game) == before
        if made % 17 == 0:
            out.append(json.dumps(game.copy().legal_actions(), sort_keys=True))
    out.append(json.dumps(full_state(game), sort_keys=True, default=str))
    game.close()
    return out, walks[0]


@pytest.mark.parametrize(("title", "seed"), [("1858", 0), ("1858", 2), ("1858India", 1)])
def test_kept_gauge_walks_list_the_same(title: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    fresh, fresh_walks = _play(title, seed, 200, False, monkeypatch)
    kept, kept_walks = _play(title, seed, 200, True, monkeypatch)
    assert kept == fresh
    assert kept_walks < fresh_walks
