"""Games built in one process share what is immutable per title (parsed markets, the supply's
tile patterns, the map's printed state) and nothing else: a change to one game never shows
in another, and a game's state after set-up is the same whether or not others were built."""

from __future__ import annotations

import json
import random

import pytest

from trackage.core.state import full_state
from trackage.playout import COMBOS, choose
from trackage.titles import new_game


def _players(n: int) -> list[dict[str, object]]:
    return [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)]


def _state(game: object) -> str:
    return json.dumps(full_state(game), sort_keys=True, default=repr)  # type: ignore[arg-type]


@pytest.mark.parametrize("title", sorted(COMBOS))
def test_games_of_a_title_are_independent(title: str) -> None:
    n, options = COMBOS[title][0]
    a = new_game(title, _players(n), options, 3)
    b = new_game(title, _players(n), options, 3)
    assert a.board is not None and b.board is not None
    if a.board.supply._pool[0] is not b.board.supply._pool[0]:
        # (a was the last game its pool serves, so b began the next pool: games built earlier
        # in the process decide where that falls; the game after b shares b's pool)
        a, b = b, new_game(title, _players(n), options, 3)
    before = _state(b)
    # own containers; the shared parts are catalogue (the map, the supply's tiles through the
    # map's pool, market cells)
    assert a.board is not None and b.board is not None
    assert a.board.supply is not b.board.supply and a.board.supply.pooled and b.board.supply.pooled
    assert a.board.supply.initial[0] is b.board.supply.initial[0]
    assert a.board.state.tile_at is not b.board.state.tile_at
    assert a.board.state.icons is not b.board.state.icons
    assert a.stock_market.market is not b.stock_market.market
    assert a.stock_market.par_prices is not b.stock_market.par_prices
    rng = random.Random(5)
    played = 0
    while played < 120 and not a.finished:
        a.process(choose(rng, a.legal_actions(), a.PLAYOUT_WEIGHTS))
        played += 1
    assert played > 20
    assert _state(a) != before
    assert _state(b) == before
    c = new_game(title, _players(n), options, 3)  # built after a has played: the same set-up
    assert _state(c) == before


def test_a_closed_game_leaves_the_pooled_tiles_whole() -> None:
    n, options = COMBOS["1867"][0]
    a = new_game("1867", _players(n), options, 3)
    b = new_game("1867", _players(n), options, 3)
    rng = random.Random(2)
    for _ in range(150):
        if b.finished:
            break
        b.process(choose(rng, b.legal_actions(), b.PLAYOUT_WEIGHTS))
    placed = [p for t in b.board.supply.made() for p in t._placed.values()]
    assert placed and a.board is not None
    before = _state(a)
    a.close()  # a's pooled tiles are b's too: their placements stay whole
    assert all(hasattr(p, "all_nodes") for p in placed)
    legal = b.legal_actions()
    assert legal
    b.process(choose(rng, legal, b.PLAYOUT_WEIGHTS))
    c = new_game("1867", _players(n), options, 3)
    assert _state(c) == before


def test_shared_catalogue_data_is_never_changed() -> None:
    """The map and tile data the titles share between games (parsed once) are as in their
    files after games of each title were built and played."""
    from trackage.titles.t1822 import config as c1822
    from trackage.titles.t1858 import game as g1858
    from trackage.titles.t1858india import game as g1858india
    from trackage.titles.t1861.game import Game1861
    from trackage.titles.t1867 import config as c1867

    for title in ("1822", "1858", "1858India", "1867", "1861"):
        n, options = COMBOS[title][0]
        game = new_game(title, _players(n), options, 4)
        rng = random.Random(4)
        for _ in range(150):
            if game.finished:
                break
            game.process(choose(rng, game.legal_actions(), game.PLAYOUT_WEIGHTS))
    for name in ("map", "tiles"):
        assert c1822.catalogue(name) == json.loads((c1822.DATA / f"{name}.json").read_text(encoding="utf-8"))
        for directory in (c1867.DATA, Game1861.DATA_DIR):
            assert c1867.catalogue(name, str(directory)) == json.loads((directory / f"{name}.json").read_text(
                encoding="utf-8"))
        for folder in (g1858.DATA, g1858india.DATA):
            path = folder / f"{name}.json"
            assert g1858._catalogue(path) == json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("title", ["1825", "1893"])
def test_worked_out_catalogue_is_shared_and_never_changed(title: str) -> None:
    """1825's and 1893's map and tile supply, worked out per option set once per process, are
    handed to every game of those options as they are, and are as worked out afresh after
    games of the title were built and played."""
    import copy

    n, options = COMBOS[title][0]
    a = new_game(title, _players(n), options, 4)
    b = new_game(title, _players(n), options, 4)
    for key in ("hexes", "tiles", "location_names"):
        assert a.data[key] is b.data[key]
    assert a.data["trains"] is not b.data["trains"]  # the rest is each game's own
    assert list(a.data) == list(b.data)
    shared = copy.deepcopy({k: a.data[k] for k in ("layout", "axes", "hexes", "location_names", "tiles")})
    rng = random.Random(4)
    for _ in range(150):
        if a.finished:
            break
        a.process(choose(rng, a.legal_actions(), a.PLAYOUT_WEIGHTS))
    if title == "1825":
        from trackage.titles.t1825 import config as c1825
        fresh = c1825.build(a.options, n)
    else:
        from trackage.titles.t1893 import config as c1893
        fresh = c1893.build(list(a.optional_rules), n)
        fresh["tiles"], fresh["hexes"] = (copy.deepcopy(x) for x in c1893._catalogue.__wrapped__(
            tuple(a.optional_rules)))
    for key, value in shared.items():
        assert a.data[key] == value == fresh[key]
    c = new_game(title, _players(n), options, 4)
    assert _state(c) == _state(b)


def test_new_share_is_the_frozen_class_made_as_by_its_init() -> None:
    """A corporation's certificates are made without the class's ``__init__``: every field as
    the class's own constructor sets it (the slots in the fields' order, the defaults kept)."""
    import dataclasses

    from trackage.core.entities import Share, new_share

    assert tuple(f.name for f in dataclasses.fields(Share)) == Share.__slots__
    for args in (("PRR", 0, 20, True), ("B&O", 3, 10, False)):
        made, plain = new_share(*args), Share(*args)
        assert type(made) is Share
        assert dataclasses.astuple(made) == dataclasses.astuple(plain)
        assert made is not new_share(*args)
