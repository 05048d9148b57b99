"""Station tokens.

A :class:`Token` belongs to a corporation (or minor) and is either unused (in its charter)
or placed in a city slot (``city`` set) or directly on a hex (``hex`` set, no city; e.g.
destination or mine tokens). Placing, removing and moving tokens are moves on the board
(:class:`trackage.core.board.Board`: ``place_city_token``, ``remove_token``, ``swap_token``,
``move_token``, ``place_hex_token``); this class only records where the token is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .rewind import Tracked

if TYPE_CHECKING:
    from .hexmap import Hex
    from .tiles import City

__all__ = ["Token"]


class Token(Tracked):
    """``corporation``, ``price``, ``type`` ("normal", "neutral", "destination", ...),
    ``used``, ``city``, ``hex``, ``extra`` (in an extra slot), ``cheater`` (in a slot
    created beyond the printed ones), ``status`` (free for titles)."""

    __slots__ = (
        "cheater",
        "city",
        "corporation",
        "extra",
        "hex",
        "location_type",
        "price",
        "status",
        "type",
        "used",
    )

    # (slots that only ever hold numbers, strings, booleans or None: a copy takes them as they
    # are, see ``clone``)
    CLONE_ATOMS = ("extra", "location_type", "price", "status", "type", "used")

    def __init__(self, corporation: Any, price: int = 0, type: str = "normal"):
        self.corporation = corporation
        self.price = price
        self.type = type
        self.used = False
        self.city: City | None = None
        self.hex: Hex | None = None
        self.extra: bool | None = None
        self.cheater: int | bool | None = None
        self.status: str | None = None
        self.location_type: str | None = None

    def __repr__(self) -> str:
        corp = getattr(self.corporation, "id", self.corporation)
        if self.city is not None:
            return f"<Token {corp} in {self.city.id}>"
        if self.hex is not None:
            return f"<Token {corp} on {self.hex.id}>"
        return f"<Token {corp} price={self.price}>"
