"""The bot interface and the questions every bot asks: whose turn is it, what may a seat do."""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

from ..core.errors import GameError


@runtime_checkable
class Bot(Protocol):
    """A player: ``choose`` answers the seat's move as an action dict ready for ``game.process``
    (with its ``id``). ``name`` is the registry's name of the bot's kind; ``budget`` the seconds
    it may think per decision (None: no limit; random play does not think)."""

    name: str
    budget: float | None

    def choose(self, game: Any, seat: int) -> dict[str, Any]: ...


class BotBase:
    """What bots share: a name, their own random stream from a seed, a time budget."""

    name = "bot"

    def __init__(self, seed: int, budget: float | None = None) -> None:
        self.seed = seed
        self.budget = budget
        self.rng = random.Random(seed)

    def choose(self, game: Any, seat: int) -> dict[str, Any]:
        raise NotImplementedError(f"{type(self).__name__} does not choose moves")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed}, budget={self.budget})"


def controller(entity: Any) -> Any:
    """The player who acts for ``entity`` (itself, or its owner up the chain); None when nobody
    does (a corporation in receivership: any seat may act for it)."""
    e = entity
    for _ in range(5):
        if e is None:
            return None
        if e.is_player:
            return e
        e = getattr(e, "owner", None)
    return None


def seat_of(game: Any, player: Any) -> int | None:
    """The seat (0-based, in the game's starting list of players) of ``player``."""
    for i, p in enumerate(game.seats):
        if p is player:
            return i
    return None


def seat_actions(game: Any, seat: int, actions: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The legal actions the seat may take now: those of entities it controls, and of entities
    nobody controls."""
    listed = game.legal_actions() if actions is None else actions
    player = game.seats[seat]
    out = []
    for a in listed:
        c = controller(game.index.resolve(a))
        if c is None or c is player:
            out.append(a)
    return out


def acting_seat(game: Any, actions: list[dict[str, Any]] | None = None) -> int:
    """The seat to move: the controller of the entity in charge when it may act, else one of
    the seats that control a listed action (an ability or purchase beside the step in charge),
    taken in turn by the number of actions played so that every such seat gets asked (never
    the same two seats answering each other forever), else seat 0 (nobody controls the actor)."""
    listed = game.legal_actions() if actions is None else actions
    if not listed:
        raise GameError(f"no legal action in {game.round.name}: no seat can move", rule="stuck")
    current = controller(game.current_entity())
    if current is not None:
        seat = seat_of(game, current)
        if seat is not None and seat_actions(game, seat, listed):
            return seat
    seats: list[int] = []
    for a in listed:
        seat = seat_of(game, controller(game.index.resolve(a)))
        if seat is not None and seat not in seats:
            seats.append(seat)
    if not seats:
        return 0
    return sorted(seats)[len(game.actions) % len(seats)]
