"""Test helpers for the core board: a stub game around a :class:`~trackage.core.board.Board`,
small corporations and hand-built maps.

A :class:`Board` needs a game-like object for a few hooks (graph options, change
notification, the upgrade/lay rules, the phase). :class:`StubGame` provides them with the base
game's own rules: its methods are those of :class:`trackage.core.game.Game`, so what the tests
exercise is the core's default behaviour, not a re-implementation.
"""

from __future__ import annotations

from trackage.core.board import Board
from trackage.core.game import Game
from trackage.core.journal import Journal
from trackage.core.tiles import standard_tiles
from trackage.core.tokens import Token

LIB = standard_tiles()


class Phase:
    """Just what the core reads of a phase: its name and the tile colours it allows."""

    def __init__(self, *tiles, name="test"):
        self.tiles = list(tiles or ("yellow", "green", "brown", "gray"))
        self.name = name


class Corp:
    """A corporation as the board sees it: id/name, cash, owner, tokens (and a home)."""

    def __init__(self, sym, cash=1000, prices=(0, 40, 40), coordinates=None, city=None):
        self.id = self.sym = self.name = sym
        self.cash = cash
        self.owner = None
        self.coordinates = coordinates
        self.city = city
        self.tokens = [Token(self, p) for p in prices]

    def __repr__(self):
        return f"<Corp {self.id}>"


class StubBoard(Board):
    """The board, noting each owner of a token it is given (tokens name their owners by id:
    the stub game has no index to find them in)."""

    def place_city_token(self, city, corporation, token, *args, **kwargs):
        self.game.token_owners[token.owner_key()] = corporation
        return super().place_city_token(city, corporation, token, *args, **kwargs)


class StubGame:
    """A game-like object holding one board. ``loading`` (replay mode: no legality checks
    on lays), ``phase``, ``changes`` (how many times the board said it changed)."""

    def __init__(self, map_data: dict, supply: dict | None = None, *, phase=None,
                 impassable_colors=None, loading: bool = False, graph_options: dict | None = None):
        self.loading = loading
        self.journal = Journal()  # the board records tile lays and tokens there
        self.phase = phase if phase is not None else Phase()
        self.changes = 0
        self._graph_options = dict(graph_options or {})
        self.token_owners: dict = {}  # (kind, id) -> the owner of tokens placed (``place``)
        self.board = None
        self.board = StubBoard(self, map_data, supply or {}, impassable_colors)

    GRAPH_KEEPS_WALKS = False  # (Game's default: the board's graph drops its walks at a new version)
    _moves = 0  # the state number (Game's: bumped by every action)
    _run_checks = None  # (Game's: no suggested run's checks kept)
    _checked_run = None

    def graph_options(self) -> dict:
        return dict(self._graph_options)

    def on_board_changed(self) -> None:
        self.changes += 1

    def token_owner(self, token):
        return self.token_owners.get(token.owner_key())

    # the base game's board hooks and lookups
    graph = Game.graph
    graph_changed = Game.graph_changed
    tile_valid_for_phase = Game.tile_valid_for_phase
    upgrades_to = Game.upgrades_to
    upgrade_ruled_out = Game.upgrade_ruled_out
    check_laid_tile = Game.check_laid_tile
    upgrade_cost = Game.upgrade_cost
    legal_tile_rotation = Game.legal_tile_rotation
    route_rules = Game.route_rules
    train_owner = Game.train_owner
    connected_edges = Game.connected_edges
    layable_hexes = Game.layable_hexes
    upgrade_memo_key = Game.upgrade_memo_key
    upgrade_memo = Game.upgrade_memo
    upgrade_memo_keys = Game.upgrade_memo_keys
    tile_rotation_check = Game.tile_rotation_check
    UPGRADE_ANSWERS_SHARED = Game.UPGRADE_ANSWERS_SHARED
    legal_tile_lays = Game.legal_tile_lays
    tile_lays_hex_keys = Game.tile_lays_hex_keys
    _tile_upgrades = Game._tile_upgrades
    _tile_lay_candidates = Game._tile_lay_candidates
    _candidate_places = staticmethod(Game._candidate_places)
    tile_phase_key = Game.tile_phase_key
    copy = Game.copy

    def __getitem__(self, hex_id):
        return self.board.hexmap[hex_id]

    # what the router reads of a game
    def route_trains(self, entity) -> list:
        return list(getattr(entity, "trains", []))

    def current_entity(self):
        return None

    def compute_route_revenues(self, entity, routes: list, trains: dict) -> list:
        from trackage.core.routes import revenues_for_action

        return revenues_for_action(self, entity, routes, trains)


# ---------------------------------------------------------------------------------------
# building maps


def city(rev=20, slots=1, **kw):
    d = {"t": "city", "revenue": rev, "slots": slots}
    d.update(kw)
    return d


def path(a, b, **kw):
    d = {"t": "path", "a": a, "b": b}
    d.update(kw)
    return d


def map_data(groups: dict, layout: str = "flat", **extra) -> dict:
    """``{colour: {coord: parts or tile name}}`` -> map JSON (one hex per group)."""
    hexes: dict = {}
    for color, by_coord in groups.items():
        out = hexes.setdefault(color, [])
        for c, parts in by_coord.items():
            if isinstance(parts, str):
                out.append({"coords": [c], "tile": parts})
            else:
                out.append({"coords": [c], "parts": parts})
    return {"layout": layout, "hexes": hexes, **extra}


def build(groups: dict, supply: dict | None = None, **kw) -> StubGame:
    """A stub game on a flat map built from ``{colour: {coord: parts}}`` (column A runs
    edge 0 <-> 3)."""
    return StubGame(map_data(groups), supply, **kw)


def line_map(a7_slots=1, offboard_terminal=True) -> StubGame:
    """A1 offboard - A3 city - A5 track - A7 city - A9 track - A11 city."""
    ob_path = path("_0", 0, terminal=1) if offboard_terminal else path("_0", 0)
    return build({
        "red": {"A1": [{"t": "offboard", "revenue": {"yellow": 20, "green": 40}}, ob_path]},
        "yellow": {
            "A3": [city(20), path(3, "_0"), path("_0", 0)],
            "A5": [path(3, 0)],
            "A7": [city(30, a7_slots), path(3, "_0"), path("_0", 0)],
            "A9": [path(3, 0)],
            "A11": [city(10), path(3, "_0")],
        },
        "white": {"B4": [], "B6": []},
    })


def hx(game: StubGame, coord: str):
    return game.board.hexmap[coord]


def tile_on(game: StubGame, coord: str):
    """The (placed) tile on hex ``coord`` now."""
    return game.board.tile(game.board.hexmap[coord])


def city_at(game: StubGame, coord: str, i: int = 0):
    return tile_on(game, coord).cities[i]


def place(corp, game: StubGame, coord: str, i: int = 0):
    """Put the corporation's next unused token (free) in city ``i`` on ``coord``."""
    c = city_at(game, coord, i)
    tok = next(t for t in corp.tokens if not t.used)
    game.board.place_city_token(c, corp, tok, free=True)
    return c


def ids(hexes) -> list:
    return sorted(h.id for h in hexes)


def _eid(e):
    return None if e is None else getattr(e, "id", repr(e))


def board_summary(board) -> dict:
    """Everything a board's state says, by ids (comparable between copies of a game)."""
    st = board.state

    def tok(t):
        if t is None:
            return None
        return ((t.owner_kind, t.owner), t.type, t.used, t.city.id if t.city is not None else None,
                t.hex.id if t.hex is not None else None)

    return {
        "tiles": {h.id: (p.id, p.rotation) for h, p in board.tiles()},
        "supply": [t.id for t in st.supply],
        "next_copy": dict(st.next_copy),
        "laid": dict(st.laid),
        "links": {hid: sorted((e, nb.id) for e, nb in links.items()) for hid, links in st.links.items()},
        "tokens": {c.id: [tok(t) for t in ts] for c, ts in st.tokens.items()},
        "extra_tokens": {c.id: [tok(t) for t in ts] for c, ts in st.extra_tokens.items()},
        "city_res": {c.id: [_eid(r) for r in rs] for c, rs in st.city_res.items()},
        "tile_res": {hid: [_eid(r) for r in rs] for hid, rs in st.tile_res.items()},
        "hex_tokens": {hid: [tok(t) for t in ts] for hid, ts in st.hex_tokens.items()},
        "icons": {hid: [(i.name, i.preprinted) for i in ics] for hid, ics in st.icons.items()},
        "borders": {hid: [(b.edge, b.type, b.cost) for b in bs] for hid, bs in st.borders.items()},
        "labels": dict(st.labels),
        "future_label": {hid: (fl.label, fl.color) if fl is not None else None
                         for hid, fl in st.future_label.items()},
        "groups": {c.id: gs for c, gs in st.groups.items()},
        "route_info": {k: {_eid(c): dict(r) for c, r in v.items()} for k, v in st.route_info.items()},
    }
