"""The lobby's list of games: who is to act in each (kept with the game, never replayed here),
whether it is the viewer's turn (the viewer's seats are the seat cookies the browser holds),
and the filters: every game, mine, waiting on me, active, finished."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .service import Illegal
from .storage import Storage

FILTERS = ("all", "mine", "waiting", "active", "finished")
SEAT_COOKIE_PREFIX = "trackage_seat_"


def seat_tokens(cookies: Mapping[str, str]) -> dict[int, str]:
    """The seat tokens of the viewer's seat cookies, by game id."""
    out: dict[int, str] = {}
    for name, value in cookies.items():
        rest = name[len(SEAT_COOKIE_PREFIX):] if name.startswith(SEAT_COOKIE_PREFIX) else ""
        if rest.isascii() and rest.isdigit() and value:
            out[int(rest)] = value
    return out


def your_turn(seat: dict[str, Any] | None, to_act: list[dict[str, Any]] | None) -> bool:
    """Whether a seat is to act: a hotseat token whenever anyone is, a player's seat when
    that player is among those to act."""
    if seat is None or not to_act:
        return False
    return seat["player_id"] is None or any(str(p.get("id")) == seat["player_id"] for p in to_act)


def lobby_games(storage: Storage, cookies: Mapping[str, str], which: str | None = None) -> list[dict[str, Any]]:
    """The stored games (newest first) as the lobby lists them for the viewer, filtered by
    ``which`` (one of :data:`FILTERS`; 422 ``bad-filter`` otherwise)."""
    which = which or "all"
    if which not in FILTERS:
        raise Illegal(f"unknown filter {which!r}; filters: {', '.join(FILTERS)}", "bad-filter")
    seats = storage.seats_for_tokens(seat_tokens(cookies))
    out = []
    for g in storage.list_games():
        seat = seats.get(g["id"])
        to_act = [] if g["status"] == "finished" else (g.get("to_act") or [])
        mine = seat is not None
        turn = your_turn(seat, to_act)
        if ((which == "mine" and not mine) or (which == "waiting" and not turn)
                or (which in ("active", "finished") and g["status"] != which)):
            continue
        out.append({"id": g["id"], "title": g["title"], "players": [p["name"] for p in g["players"]],
                    "status": g["status"], "source": g["source"], "result": g["result"],
                    "to_act": to_act, "mine": mine, "your_turn": turn, "clock": g.get("clock") is not None})
    return out
