"""Station tokens.

A :class:`Token` belongs to a corporation (or minor) and is either unused (in its charter)
or placed in a city slot (``city`` set) or directly on a hex (``hex`` set, no city; e.g.
destination or mine tokens). Placement rules live in :class:`trackage.core.tiles.City`;
this class only records where the token is.
"""

from __future__ import annotations

from trackage.core.tiles import City

__all__ = ["Token"]


class Token:
    """``corporation``, ``price``, ``type`` ("normal", "neutral", "destination", ...),
    ``used``, ``city``, ``hex``, ``extra`` (in an extra slot), ``cheater`` (in a slot
    created beyond the printed ones), ``status`` (free for titles)."""

    __slots__ = ("corporation", "price", "type", "used", "city", "hex", "extra", "cheater",
                 "status", "location_type")

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

    def place(self, location, extra=None, cheater=None) -> None:
        """Record placement in a :class:`City` or on a hex. Does not touch the location's
        slot lists (``City.exchange_token`` / ``Hex.place_token`` do that)."""
        self.used = True
        if isinstance(location, City):
            self.location_type = "city"
            self.city = location
            self.hex = location.hex
        else:
            self.location_type = "hex"
            self.hex = location
        self.extra = extra
        self.cheater = cheater

    def remove(self) -> None:
        """Take the token off the board (its slot becomes free) and mark it unused."""
        if self.location_type == "city":
            city = self.city
            if city is not None:
                toks = city.tokens
                for i, t in enumerate(toks):
                    if t is self:
                        toks[i] = None
                extra = city.extra_tokens
                for i in range(len(extra) - 1, -1, -1):
                    if extra[i] is self:
                        del extra[i]
        elif self.location_type == "hex":
            if self.hex is not None:
                self.hex.remove_token(self)
        self.city = None
        self.hex = None
        self.used = False
        self.extra = False
        self.cheater = False
        self.location_type = None

    def destroy(self) -> None:
        """Remove the token from the board and from its corporation's token list."""
        tokens = getattr(self.corporation, "tokens", None)
        if tokens is not None:
            for i, t in enumerate(tokens):
                if t is self:
                    del tokens[i]
                    break
        self.remove()

    def swap(self, other: "Token", check_tokenable: bool = True, free: bool = True) -> None:
        """Replace this token on the board by ``other`` (same city/slot rules)."""
        city, hex_, extra, location_type = self.city, self.hex, self.extra, self.location_type
        self.remove()
        corporation = other.corporation
        if location_type == "city":
            if (not extra and check_tokenable
                    and not city.tokenable(corporation, free=free, tokens=[other])):
                return
            city.place_token(corporation, other, free=free, check_tokenable=check_tokenable,
                             extra_slot=bool(extra))
        elif location_type == "hex":
            hex_.place_token(other)

    def move(self, location) -> None:
        """Move the token to another city (free) or hex."""
        self.remove()
        if isinstance(location, City):
            location.place_token(self.corporation, self, free=True)
        else:
            location.place_token(self)

    def __repr__(self) -> str:
        corp = getattr(self.corporation, "id", self.corporation)
        if self.city is not None:
            return f"<Token {corp} in {self.city.id}>"
        if self.hex is not None:
            return f"<Token {corp} on {self.hex.id}>"
        return f"<Token {corp} price={self.price}>"
