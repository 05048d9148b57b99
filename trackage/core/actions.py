"""Reading an action: the amounts it names, and what the listing being made asks for.

``amount`` reads a field of an action dict as money. ``asks``, ``asks_hex`` and ``asks_tile``
tell a step, while :meth:`Game.legal_actions` lists, whether an action of a kind is wanted:
all are, except while the pipeline's gate asks whether one action is listed (the game's
``_asking``), when steps may skip working out the others.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import GameError

if TYPE_CHECKING:
    from .game import Game


def amount(action: dict[str, Any], field: str, default: Any = None) -> Any:
    """An amount of money an action names (a price, a bid, a cost): a whole number, never a
    string, a fraction, a boolean or an infinity, also in an imported log. ``default`` when
    the field is missing or null."""
    v = action.get(field)
    if v is None:
        return default
    if type(v) is not int:
        raise GameError(f"field {field!r}: an amount is a whole number, not {v!r}"[:200], rule="malformed-action")
    return v


def asks(game: Game, atype: str) -> bool:
    """Is an action of ``atype`` wanted from the listing being made?"""
    a = game._asking
    return a is None or a["type"] == atype


def asks_hex(game: Game, hex_id: str) -> bool:
    """Are tile lays on ``hex_id`` wanted from the listing being made? (see :func:`asks`)"""
    a = game._asking
    return a is None or (a["type"] == "lay_tile" and a.get("hex") == hex_id)


def asks_tile(game: Game, tile_id: str) -> bool:
    """Are lays of the tile ``tile_id`` wanted from the listing being made? (see :func:`asks`)"""
    a = game._asking
    return a is None or (a["type"] == "lay_tile" and a.get("tile") == tile_id)
