"""Station tokens.

A :class:`Token` belongs to a corporation (or minor) and is either unused (in its charter)
or placed in a city slot (``city`` set) or directly on a hex (``hex`` set, no city; e.g.
destination or mine tokens). Placing, removing and moving tokens are moves on the board
(:class:`trackage.core.board.Board`: ``place_city_token``, ``remove_token``, ``swap_token``,
``move_token``, ``place_hex_token``); this class only records where the token is.

A token names its owner by id and kind (``owner``, ``owner_kind``: :func:`token_kind`; minors
and corporations share ids in some titles), never by object: ask ``owned_by(entity)``, or
the game's ``token_owner(token)`` for the owner itself. A token thus holds atoms and catalogue
objects only (its city and hex).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .rewind import Tracked

if TYPE_CHECKING:
    from .hexmap import Hex
    from .tiles import City

__all__ = ["Token", "token_kind"]


def token_kind(owner: Any) -> str:
    """The kind a token names its owner by: the owner class's ``TOKEN_KIND`` (a title's
    stand-in owners: 1893's neutral, 1858 India's hex tokens' bank holders), else its kind as
    actions name it (corporation, minor, company, player)."""
    kind = getattr(owner, "TOKEN_KIND", None)
    if kind is not None:
        return str(kind)
    if getattr(owner, "is_player", False):
        return "player"
    if getattr(owner, "is_company", False):
        return "company"
    if getattr(owner, "is_minor", False):
        return "minor"
    return "corporation"


class Token(Tracked):
    """``owner`` (its owner's id), ``owner_kind`` (:func:`token_kind`), ``price``, ``type``
    ("normal", "neutral", "destination", ...), ``used``, ``city``, ``hex``, ``extra`` (in an
    extra slot), ``cheater`` (in a slot created beyond the printed ones), ``status`` (free for
    titles)."""

    __slots__ = (
        "cheater",
        "city",
        "extra",
        "hex",
        "location_type",
        "owner",
        "owner_kind",
        "price",
        "status",
        "type",
        "used",
    )

    # (slots that only ever hold numbers, strings, booleans or None: a copy takes them as they
    # are, see ``clone``)
    CLONE_ATOMS = ("extra", "location_type", "owner", "owner_kind", "price", "status", "type", "used")

    def __init__(self, corporation: Any, price: int = 0, type: str = "normal"):
        self.owner: str = corporation.id
        self.owner_kind = token_kind(corporation)
        self.price = price
        self.type = type
        self.used = False
        self.city: City | None = None
        self.hex: Hex | None = None
        self.extra: bool | None = None
        self.cheater: int | bool | None = None
        self.status: str | None = None
        self.location_type: str | None = None

    def owned_by(self, entity: Any) -> bool:
        """Is ``entity`` this token's owner?"""
        return entity is not None and self.owner == getattr(entity, "id", None) and \
            self.owner_kind == token_kind(entity)

    def owner_key(self) -> tuple[str, str]:
        """(kind, id) of the owner: equal for two tokens of one owner."""
        return self.owner_kind, self.owner

    def __repr__(self) -> str:
        corp = self.owner
        if self.city is not None:
            return f"<Token {corp} in {self.city.id}>"
        if self.hex is not None:
            return f"<Token {corp} on {self.hex.id}>"
        return f"<Token {corp} price={self.price}>"
