"""Station tokens.

A :class:`Token` belongs to a corporation (or minor) and is either unused (in its charter)
or placed in a city slot (``city`` set) or directly on a hex (``hex`` set, no city; e.g.
destination or mine tokens). Placing, removing and moving tokens are moves on the board
(:class:`trackage.core.board.Board`: ``place_city_token``, ``remove_token``, ``swap_token``,
``move_token``, ``place_hex_token``); this class only records where the token is.
"""

from __future__ import annotations

__all__ = ["Token"]


class Token:
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

    def __init__(self, corporation, price: int = 0, type: str = "normal"):
        self.corporation = corporation
        self.price = price
        self.type = type
        self.used = False
        self.city = None
        self.hex = None
        self.extra = None
        self.cheater = None
        self.status = None
        self.location_type = None

    def __repr__(self) -> str:
        corp = getattr(self.corporation, "id", self.corporation)
        if self.city is not None:
            return f"<Token {corp} in {self.city.id}>"
        if self.hex is not None:
            return f"<Token {corp} on {self.hex.id}>"
        return f"<Token {corp} price={self.price}>"
