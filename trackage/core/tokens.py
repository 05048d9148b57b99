"""Station tokens.

A :class:`Token` belongs to a corporation (or minor) and is either unused (in its charter)
or placed in a city slot (``city`` set) or directly on a hex (``hex`` set, no city; e.g.
destination or mine tokens). Placing, removing and moving tokens are moves on the board
(:class:`trackage.core.board.Board`: ``place_city_token``, ``remove_token``, ``swap_token``,
``move_token``, ``place_hex_token``: each returns the new value); a token is a frozen value
that records where it is.

A token names its owner by id and kind (``owner``, ``owner_kind``: :func:`token_kind`; minors
and corporations share ids in some titles), never by object: ask ``owned_by(entity)``, or
the game's ``token_owner(token)`` for the owner itself. A token thus holds atoms and catalogue
objects only (its city and hex).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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


@dataclass(frozen=True, slots=True, eq=False, init=False, repr=False)
class Token:
    """``owner`` (its owner's id), ``owner_kind`` (:func:`token_kind`), ``price``, ``type``
    ("normal", "neutral", "destination", ...), ``used``, ``city``, ``hex``, ``extra`` (in an
    extra slot), ``cheater`` (in a slot created beyond the printed ones), ``status`` (free for
    titles).

    A frozen value compared by identity: every copy of a game shares it with the tuples that
    hold it. A change (placed, taken off, a new price, a new owner) is a new value put in place
    of the old one where it is held (the owner's ``tokens``, the city's slots or extras, the
    hex's tuple): the board's moves do that (``Board.replace_token``) and return the new value,
    so undo and copies restore and keep exactly the tuples that held each value."""

    owner: str
    owner_kind: str
    price: int
    type: str
    used: bool
    city: City | None
    hex: Hex | None
    extra: bool | None
    cheater: int | bool | None
    status: str | None
    location_type: str | None

    def __init__(self, corporation: Any, price: int = 0, type: str = "normal"):
        s = object.__setattr__
        s(self, "owner", corporation.id)
        s(self, "owner_kind", token_kind(corporation))
        s(self, "price", price)
        s(self, "type", type)
        s(self, "used", False)
        s(self, "city", None)
        s(self, "hex", None)
        s(self, "extra", None)
        s(self, "cheater", None)
        s(self, "status", None)
        s(self, "location_type", None)

    def but(self, **changes: Any) -> Token:
        """A new value: this token with ``changes`` (slot name -> value)."""
        new = object.__new__(Token)
        s = object.__setattr__
        for name in _FIELDS:
            s(new, name, changes[name] if name in changes else getattr(self, name))
        return new

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


_FIELDS = ("owner", "owner_kind", "price", "type", "used", "city", "hex", "extra", "cheater", "status",
           "location_type")
