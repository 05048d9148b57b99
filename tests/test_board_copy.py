"""Copies of a game share the catalogue (hexes, tiles, placed tiles, nodes, paths, the supply's
tiles) and copy the state: a move on one copy's board never shows on another's."""

from __future__ import annotations

import pytest
from boardkit import Corp, StubGame, board_summary, city_at, tile_on

from trackage.core.clone import clone, shared_state
from trackage.core.tokens import Token

COPY_MAP = {"layout": "flat", "location_names": {"C5": "Port"}, "hexes": {
    "white": [
        {"coords": ["C3", "B4", "B6", "D4", "D6", "C9"], "parts": []},
        {"coords": ["C5"], "parts": [{"t": "icon", "image": "port", "sticky": True},
                                     {"t": "city", "revenue": 0},
                                     {"t": "future_label", "label": "T", "color": "brown"}]},
    ],
    "blue": [{"coords": ["C7"], "parts": []}],
}}


def _game():
    """C5: A's token in a yellow 57 (laid over a printed city); C7 blue (impassable)."""
    g = StubGame(COPY_MAP, {"57": 1, "14": 1, "9": 2, "8": "unlimited"})
    board = g.board
    a = Corp("A")
    board.place_city_token(city_at(g, "C5"), a, a.tokens[0])
    board.place_tile(g["C5"], board.tile_by_id("57-0").at(0, g["C5"]))
    board.changed()
    assert board.graph.reachable_hexes(a)
    return g, a


def _corp_in(game, coord, corp_id):
    for c in game.board.tile(game[coord]).cities:
        for t in game.board.tokens(c):
            if t is not None and t.owner == corp_id:
                return game.token_owner(t)
    raise AssertionError(f"no token of {corp_id} on {coord}")


def test_copy_shares_the_catalogue_and_copies_the_state():
    g, a = _game()
    copy = g.copy()
    board, cboard = g.board, copy.board
    assert cboard is not board and cboard.game is copy
    assert cboard.state is not board.state
    assert cboard.hexmap is board.hexmap and cboard.supply is board.supply
    for h in board.hexes:
        assert copy[h.id] is h
        assert cboard.tile(h) is board.tile(h)  # placed tiles (and their nodes, paths) are shared
    assert cboard.supply_tiles() == board.supply_tiles()
    assert all(x is y for x, y in zip(cboard.supply_tiles(), board.supply_tiles()))
    # corporations are state (copied); a token is a frozen value, shared by the copies
    city = city_at(g, "C5")
    (tok,) = board.tokens(city)
    (ctok,) = cboard.tokens(city)
    assert tok is a.tokens[0] and ctok is tok
    ca = copy.token_owner(ctok)
    assert ca is not a and ca.id == "A" and ca.tokens[0] is ctok
    assert ctok.city is city and ctok.hex is g["C5"] and ctok.used
    # derived views are recomputed, not copied
    assert cboard._graph is None
    assert ids(cboard.graph.reachable_hexes(ca)) == ids(board.graph.reachable_hexes(a))
    assert board_summary(cboard) == board_summary(board)
    assert shared_state(g, copy) == []
    # clone() is the same structural copy
    other = clone(g)
    assert other.board.tile(g["C5"]) is board.tile(g["C5"]) and board_summary(other.board) == board_summary(board)


def ids(hexes):
    return sorted(h.id for h in hexes)


def test_moves_on_a_copy_leave_the_original_unchanged():
    g, a = _game()
    board = g.board
    before = board_summary(board)
    tok = a.tokens[0]
    p57 = board.tile(g["C5"])
    copy = g.copy()
    cb = copy.board
    ca = _corp_in(copy, "C5", "A")
    b = Corp("B")
    # an upgrade (A's token moves), a token, a lay on an impassable hex (relinks), a
    # reservation, a hex token, an unlimited copy, a removed sticky icon
    cb.place_tile(copy["C5"], cb.tile_by_id("14-0").at(0, copy["C5"]))
    cb.place_city_token(tile_on(copy, "C5").cities[0], b, b.tokens[0])
    cb.place_tile(copy["C7"], cb.tile_by_id("9-0").at(0, copy["C7"]))
    cb.add_tile_reservation(copy["C3"], Corp("H"))
    cb.place_hex_token(copy["C9"], Token(b, 0, type="destination"))
    cb.place_tile(copy["C9"], cb.tile_by_id("8-1").at(0, copy["C9"]))
    cb.set_icons(copy["C5"], ())
    cb.graph.clear_graph_for(ca)
    cb.changed()
    assert board_summary(cb) != before
    assert cb.tokens(tile_on(copy, "C5").cities[0])[0].owned_by(ca)
    assert cb.neighbors(copy["C5"])[0] is g["C7"]
    # the original: same board state, same token records, same graph
    assert board_summary(board) == before
    assert board.tile(g["C5"]) is p57 and board.tokens(p57.cities[0]) == (tok,)
    assert tok.city is p57.cities[0] and tok.used
    assert 0 not in board.neighbors(g["C5"])
    assert board.tile_by_id("14-0") is board.supply.known("14-0")  # still in its supply
    assert [t.id for t in board.supply_tiles() if t.name == "8"] == ["8-0"]
    assert ids(board.graph.reachable_hexes(a)) == ["C5"]
    assert g["C3"] in board.graph.connected_hexes(a) and g["C7"] not in board.graph.connected_hexes(a)
    assert g["C7"] in cb.graph.connected_hexes(ca)  # linked in the copy only
    assert g.changes == 1


def test_moves_on_the_original_leave_a_copy_unchanged():
    g, a = _game()
    board = g.board
    copy = g.copy()
    before = board_summary(copy.board)
    ca = _corp_in(copy, "C5", "A")
    b = Corp("B")
    board.place_tile(g["C5"], board.tile_by_id("14-0").at(3, g["C5"]))
    board.place_city_token(tile_on(g, "C5").cities[0], b, b.tokens[0])
    board.place_tile(g["C7"], board.tile_by_id("9-0").at(0, g["C7"]))
    board.remove_token(a.tokens[0])
    board.changed()
    assert board_summary(copy.board) == before
    (ctok,) = copy.board.tokens(tile_on(copy, "C5").cities[0])
    assert copy.token_owner(ctok) is ca and ctok.used and ctok.city is tile_on(copy, "C5").cities[0]
    assert ids(copy.board.graph.reachable_hexes(ca)) == ["C5"]
    assert g["C7"] not in copy.board.graph.connected_hexes(ca)
    # the same lay on both boards puts the very same placed tile there
    copy.board.place_tile(copy["C5"], copy.board.tile_by_id("14-0").at(3, copy["C5"]))
    assert copy.board.tile(g["C5"]) is board.tile(g["C5"])
    assert copy.board.tile(g["C5"]).cities[0] is board.tile(g["C5"]).cities[0]
    assert [t.owner for t in copy.board.tokens(tile_on(copy, "C5").cities[0]) if t] == ["A"]
    assert [t.owner for t in board.tokens(tile_on(g, "C5").cities[0]) if t] == ["B"]


def test_unlimited_copies_made_by_another_copy():
    # the catalogue remembers every unlimited copy; each board adds it when it is its next one
    g = StubGame(COPY_MAP, {"8": "unlimited"})
    copy = g.copy()
    for game in (copy, g):  # the copy asks first, then the original
        b = game.board
        t = b.tile_by_id("8-1")
        assert [x.id for x in b.supply_tiles()] == ["8-0", "8-1"]
        b.place_tile(game["C3"], t.at(0, game["C3"]))
        assert [x.id for x in b.supply_tiles()] == ["8-0", "8-2"]
        assert b.state.next_copy == {"8": 3}
    assert board_summary(g.board) == board_summary(copy.board)


# ---------------------------------------------------------------------------------------
# a real title


def _lay(g, other_than=None):
    return next(x for x in g.legal_actions() if x["type"] == "lay_tile" and x["hex"] != other_than)


def test_real_game_copy(operating_game):
    g = operating_game
    board = g.board
    lay = _lay(g)
    h = g.board.hex_by_id(lay["hex"])
    before = board_summary(board)
    old = board.tile(h)
    c = g.copy()
    assert shared_state(g, c) == []
    assert c.board.hexmap is board.hexmap and c.board.hex_by_id(lay["hex"]) is h
    c.process(lay)
    assert c.board.tile(h).id == lay["tile"] and c.board.tile(h).rotation == lay["rotation"]
    assert board.tile(h) is old and board_summary(board) == before
    for hx in board.hexes:
        if hx is not h:
            assert c.board.tile(hx) is board.tile(hx)
    # a token placed on the copy's board only
    corp = c.current_entity()
    city = next(x for x in c.board.cities() if c.board.tokenable(x, corp, free=True))
    i = next(i for i, t in enumerate(corp.tokens) if not t.used)
    placed = c.board.place_city_token(city, corp, corp.tokens[i], free=True)
    assert corp.tokens[i] is placed and placed.used  # (the new value, in the copy's tuple only)
    assert c.board.tokens(city) != board.tokens(city)
    assert board_summary(board) == before
    assert not g.corporation_by_id(corp.id).tokens[i].used
    # and the other way round: the original's lay leaves the copy as it is
    after = board_summary(c.board)
    g.process(lay)
    assert board_summary(c.board) == after
    assert board.tile(h) is c.board.tile(h)  # placed tiles are interned: the same object


def test_real_game_undo_restores_the_board(operating_game):
    g = operating_game
    board = g.board
    before = board_summary(board)
    lay = _lay(g)
    h = g.board.hex_by_id(lay["hex"])
    old = board.tile(h)
    g.process(lay)
    laid = g.board.tile(h)
    assert laid is not old and board_summary(g.board) != before
    g.undo()
    assert g.board.tile(h) is old
    assert board_summary(g.board) == before
    g.redo()
    assert g.board.tile(h) is laid


def test_real_game_refused_action_leaves_the_board(operating_game):
    g = operating_game
    before = board_summary(g.board)
    lay = _lay(g)
    bad = {**lay, "rotation": next(r for r in range(6) if not any(
        x.get("hex") == lay["hex"] and x.get("tile") == lay["tile"] and x.get("rotation") == r
        for x in g.legal_actions()))}
    with pytest.raises(Exception):  # noqa: B017 - any refusal; the board must be unchanged
        g.process(bad)
    assert board_summary(g.board) == before
    # the route information is keyed by this game's corporations after the restore
    for _key, per in g.board.state.route_info.items():
        for corp in per:
            assert g.corporation_by_id(corp.id) is corp
