"""The in-place reads of the base look-ups: a title keeping the base corporation look-up has it
read in place, one overriding it is still asked; a player's ``closed`` is a class answer that is
no part of the state."""
from __future__ import annotations

from typing import Any

from trackage.core.entities import Player
from trackage.core.game import Game
from trackage.core.state import full_state
from trackage.titles import new_game


def test_titles_keep_the_base_corporation_lookup() -> None:
    for title in ("1822", "1825", "1858", "1861", "1867", "1893"):
        g = new_game(title, ["p1", "p2", "p3"], seed=1)
        assert type(g).PLAIN_CORPORATION_LOOKUP
        corp = g.corporations[0]
        assert g.corporation_by_id(corp.id) is corp
        assert g.index.resolve({"entity": corp.id, "entity_type": "corporation"}) is corp


def test_an_override_is_still_asked() -> None:
    g = new_game("1867", ["p1", "p2", "p3"], seed=1)
    asked: list[Any] = []

    class Spy(type(g)):  # type: ignore[misc]
        def corporation_by_id(self, cid: Any) -> Any:
            asked.append(cid)
            return Game.corporation_by_id(self, cid)

    assert not Spy.PLAIN_CORPORATION_LOOKUP
    g.__class__ = Spy
    corp = g.corporations[0]
    assert g.index.resolve({"entity": corp.id, "entity_type": "corporation"}) is corp
    assert asked == [corp.id]


def test_a_players_closed_is_no_state() -> None:
    g = new_game("1861", ["p1", "p2", "p3"], seed=1)
    p = g.players[0]
    assert p.closed is False and isinstance(p, Player)
    objects = full_state(g)["objects"]
    players = [o for k, o in objects.items() if k.startswith("Player#")]
    assert players and all("closed" not in o for o in players)
