"""Finding a game's entities by the ids actions name them by.

:class:`Index` is owned by the game (``game.index``) and is part of its state: a copy of the
game has its own index, pointing at its own entities. Each lookup is one dict get. Hexes,
tiles and cities are found by the board (``game.board.hex_by_id`` ...), trains by the depot
(``game.depot.train_by_id``); corporations by :meth:`Game.corporation_by_id` (a title hook),
which reads :attr:`Index.corporations`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from .entities import entity_type
from .errors import ActionFormatError
from .rewind import Tracked

if TYPE_CHECKING:
    from .game import Game


class Index(Tracked):
    """The game's players, corporations, companies and minors by id."""
    IN_PLACE: ClassVar[tuple[str, ...]] = ("corporations",)

    __slots__ = ("companies", "corporations", "game", "minors", "players")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players: dict[str, Any] = {}
        self.corporations: dict[str, Any] = {}
        self.companies: dict[str, Any] = {}
        self.minors: dict[str, Any] = {}
        self.rebuild()

    def rebuild(self) -> None:
        """Index the game's entities anew (after a title adds or replaces some)."""
        game = self.game
        self.players = {str(p.id): p for p in game.players}
        self.corporations = {c.id: c for c in game.corporations}
        self.companies = {c.sym: c for c in game.companies}
        self.minors = {m.id: m for m in game.minors}

    def player(self, pid: Any) -> Any:
        """The player with id ``pid`` (an int or its string), or None."""
        return self.players.get(str(pid))

    def company(self, cid: Any) -> Any:
        """The private company with symbol ``cid``, or None."""
        return self.companies.get(cid)

    def minor(self, mid: Any) -> Any:
        """The minor with id ``mid``, or None."""
        return self.minors.get(mid)

    def share(self, sid: Any) -> Any:
        """The certificate ``"<corporation id>_<index>"``, or None."""
        if not isinstance(sid, str) or "_" not in sid:
            return None
        cid, _, idx = sid.rpartition("_")
        corp = self.game.corporation_by_id(cid)
        if corp is None or not idx.isdigit() or int(idx) >= len(corp.shares):
            return None
        return corp.shares[int(idx)]

    def resolve(self, action: dict[str, Any]) -> Any:
        """The entity an action names (``entity`` and ``entity_type``); ActionFormatError if none."""
        etype = action.get("entity_type")
        eid = action.get("entity")
        if eid is None:
            raise ActionFormatError("action has no entity", action)
        if etype == "player" or (etype is None and isinstance(eid, int)):
            e = self.players.get(str(eid))  # (:meth:`player`, inlined: asked for most actions)
        elif etype == "corporation":
            game = self.game  # (the base :meth:`Game.corporation_by_id` in place where the title keeps it)
            e = self.corporations.get(eid) if game.PLAIN_CORPORATION_LOOKUP else game.corporation_by_id(eid)
        elif etype == "company":
            e = self.companies.get(eid)
        elif etype == "minor":
            e = self.minors.get(eid)
        else:
            e = self.game.corporation_by_id(eid) or self.companies.get(eid) or self.minors.get(eid)
        if e is None:
            raise ActionFormatError(f"unknown entity {eid!r} ({etype})", action)
        return e

    @staticmethod
    def ref(e: Any) -> dict[str, Any]:
        """How an action names entity ``e``: its ``entity`` and ``entity_type`` fields."""
        return {"entity": e.id, "entity_type": entity_type(e)}

    @staticmethod
    def name(e: Any) -> str:
        """An entity's name for the log and the views."""
        return getattr(e, "name", str(e))
