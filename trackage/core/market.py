"""The stock market: a grid of share prices (one row = 1-D market)."""

from __future__ import annotations

import pickle
from functools import cache
from typing import TYPE_CHECKING, Any

from .rewind import Tracked

if TYPE_CHECKING:
    from .journal import Journal

PAR_TYPES = ("par", "par_overlap", "par_1", "par_2", "par_3")
LETTER_TYPES = {
    "p": "par", "e": "endgame", "c": "close", "b": "multiple_buy", "o": "unlimited",
    "y": "no_cert_limit", "l": "liquidation", "a": "acquisition", "r": "repar",
    "i": "ignore_one_sale", "j": "ignore_two_sales", "s": "safe_par", "P": "par_overlap",
    "x": "par_1", "z": "par_2", "w": "par_3", "C": "convert_range", "m": "max_price",
    "n": "max_price_1", "u": "phase_limited", "t": "type_limited", "B": "pays_bonus",
    "W": "pays_bonus_1", "X": "pays_bonus_2", "Y": "pays_bonus_3", "Z": "pays_bonus_4",
    "S": "share_split", "f": "only_president",
}


class SharePrice:
    """One cell of the market (catalogue). Which corporations stand on it, in arrival
    order, is the market's state: :meth:`StockMarket.corporations_at`."""

    __slots__ = ("_counts", "column", "price", "row", "type", "types")
    CATALOGUE = True

    def __init__(self, price: int, row: int, column: int, types: list[str]):
        self.price = price
        self.row = row
        self.column = column
        self.types = tuple(types)
        # (the cell's first type, a plain attribute: the cell never changes after the build, and
        # the titles read it after every action)
        self.type: str | None = self.types[0] if self.types else None
        # (the cell never changes: whether its certificates count, worked out once; asked for
        # every certificate a player holds, in every listing of a stock turn)
        self._counts = not any(t in ("multiple_buy", "unlimited", "no_cert_limit") for t in self.types)

    @property
    def id(self) -> str:
        return f"{self.price},{self.row},{self.column}"

    @property
    def coordinates(self) -> tuple[int, int]:
        return (self.row, self.column)

    def can_par(self) -> bool:
        return self.type in PAR_TYPES

    def counts_for_limit(self) -> bool:
        return self._counts

    def __repr__(self) -> str:
        return f"<SharePrice {self.id}>"


def parse_cell(cell: dict[str, Any] | None, row: int, col: int) -> SharePrice | None:
    """A market cell from our data: ``{"price": 67, "types": ["par"]}`` or None."""
    if cell is None:
        return None
    return SharePrice(int(cell["price"]), row, col, cell.get("types", []))


@cache
def _parsed_market(rows_data: bytes) -> tuple[tuple[tuple[SharePrice | None, ...], ...], tuple[SharePrice, ...],
                                            tuple[tuple[str, SharePrice], ...]]:
    """The market given as pickled data (its rows of cells), parsed once per process: (the
    grid of cells, the par prices best first, (id, cell) pairs). Immutable: a function of the
    bytes, its cells catalogue values shared by the games made of it."""
    rows = pickle.loads(rows_data)
    grid = tuple(tuple(parse_cell(c, r, i) for i, c in enumerate(row)) for r, row in enumerate(rows))
    pars = [sp for row in grid for sp in row if sp is not None and sp.can_par()]
    pars.sort(key=lambda p: (p.price, p.column, p.row), reverse=True)
    by_id = tuple((sp.id, sp) for row in grid for sp in row if sp is not None)
    return grid, tuple(pars), by_id


class StockMarket(Tracked):
    """The market grid (catalogue: ``market``, ``par_prices``) and its state: the
    corporations on each cell (``cells``: cell -> tuple, in arrival order) and whether the
    top was reached."""

    CLONE_SHARE = ("market", "one_d", "par_prices", "_by_id")

    def __init__(self, rows: list[list[dict[str, Any] | None]]):
        self.journal: Journal | None = None  # the game's, set by Game.__init__: price moves are recorded there
        grid, pars, by_id = _parsed_market(pickle.dumps(rows, protocol=pickle.HIGHEST_PROTOCOL))
        # the cells are shared by every game of the process with this market (catalogue, never
        # changed); the lists and the map holding them are this game's own
        self.market = [list(row) for row in grid]
        self.one_d = len(self.market) == 1
        self.par_prices = list(pars)
        self.max_reached = False
        self.cells: dict[SharePrice, tuple[Any, ...]] = {}
        self._by_id = dict(by_id)

    def by_id(self, sid: str) -> SharePrice | None:
        return self._by_id.get(sid)

    def cell(self, row: int, col: int) -> SharePrice | None:
        if row < 0 or col < 0 or row >= len(self.market) or col >= len(self.market[row]):
            return None
        return self.market[row][col]

    def all_prices(self) -> list[SharePrice]:
        return [sp for row in self.market for sp in row if sp is not None]

    # -- movement (coordinates -> coordinates); titles may wrap these
    def left_of(self, corp: Any, rc: tuple[int, int]) -> tuple[int, int]:
        r, c = rc
        if self.one_d:
            return (r, c - 1) if c - 1 >= 0 else (r, c)
        if c > 0 and self.cell(r, c - 1) is not None:
            return (r, c - 1)
        return self.down_of(corp, rc)

    def right_of(self, corp: Any, rc: tuple[int, int]) -> tuple[int, int]:
        r, c = rc
        if self.one_d:
            return (r, c + 1) if c + 1 < len(self.market[r]) else (r, c)
        if c + 1 >= len(self.market[r]):
            return self.up_of(corp, rc)
        return (r, c + 1)

    def down_of(self, corp: Any, rc: tuple[int, int]) -> tuple[int, int]:
        if self.one_d:
            return self.left_of(corp, rc)
        r, c = rc
        return (r + 1, c) if r + 1 < len(self.market) else (r, c)

    def up_of(self, corp: Any, rc: tuple[int, int]) -> tuple[int, int]:
        if self.one_d:
            return self.right_of(corp, rc)
        r, c = rc
        return (r - 1, c) if r - 1 >= 0 else (r, c)

    def corporations_at(self, sp: SharePrice) -> tuple[Any, ...]:
        """The corporations on ``sp``, in arrival order."""
        return self.cells.get(sp, ())

    def operating_key(self, corp: Any) -> tuple[int, int, int, int, str]:
        """Where ``corp`` stands in the operating order by market position: higher price
        first, then further right, higher up, earlier arrival on the cell, name."""
        sp = corp.share_price
        here = self.corporations_at(sp)
        idx = here.index(corp) if corp in here else 0
        return (-sp.price, -sp.column, sp.row, idx, corp.name)

    def _enter(self, corp: Any, sp: SharePrice) -> None:
        self.cells = {**self.cells, sp: self.cells.get(sp, ()) + (corp,)}

    def _leave(self, corp: Any) -> None:
        sp = corp.share_price
        if sp is not None and corp in self.cells.get(sp, ()):
            self.cells = {**self.cells, sp: tuple(c for c in self.cells[sp] if c is not corp)}

    def set_par(self, corp: Any, sp: SharePrice) -> None:
        self._enter(corp, sp)
        corp.share_price = sp
        corp.par_price = sp
        if self.journal is not None:
            self.journal.record("par", corporation=corp.id, price=sp.price)

    def move(self, corp: Any, rc: tuple[int, int], direction: str | None = None) -> None:
        sp = self.cell(*rc)
        if sp is None or sp is corp.share_price or sp.type == "liquidation":
            return
        if self.journal is not None:
            old = corp.share_price
            self.journal.add("share_price", {"corporation": corp.id, "from_price": None if old is None else old.price,
                                             "to_price": sp.price, "direction": direction})
        # (leaving the old cell and entering the new one in one replacement of the table:
        # the same table as ``_leave`` then ``_enter``, one copy instead of two)
        cells = dict(self.cells)
        old_sp = corp.share_price
        if old_sp is not None:
            here = cells.get(old_sp, ())
            if corp in here:
                cells[old_sp] = tuple(c for c in here if c is not corp)
        cells[sp] = cells.get(sp, ()) + (corp,)
        self.cells = cells
        corp.share_price = sp
        if sp.type == "endgame":
            self.max_reached = True

    def move_left(self, corp: Any) -> None:
        self.move(corp, self.left_of(corp, corp.share_price.coordinates), "left")

    def move_right(self, corp: Any) -> None:
        self.move(corp, self.right_of(corp, corp.share_price.coordinates), "right")

    def move_up(self, corp: Any) -> None:
        self.move(corp, self.up_of(corp, corp.share_price.coordinates), "up")

    def move_down(self, corp: Any) -> None:
        self.move(corp, self.down_of(corp, corp.share_price.coordinates), "down")

    def remove(self, corp: Any) -> None:
        self._leave(corp)
