"""The routes' dependencies: the service and storage, the game id in the path, the seat
(a bearer token, the seat cookie a seat link sets) and a game held under its lock.

Those that only read the request are ``async``: FastAPI runs a plain function dependency in
its thread pool, a hop per dependency per request; the seats' (a database read) stay plain."""

from __future__ import annotations

import threading
from types import TracebackType
from typing import Annotated

from fastapi import Depends, Request
from fastapi.templating import Jinja2Templates

from .jsonbody import game_id
from .service import GameService, Live, Unauthorized
from .storage import Storage

SEAT_COOKIE_AGE = 3600 * 24 * 365


async def get_service(request: Request) -> GameService:
    return request.app.state.service


async def get_storage(request: Request) -> Storage:
    return request.app.state.storage


async def get_templates(request: Request) -> Jinja2Templates:
    return request.app.state.templates


async def path_game_id(gid: str) -> int:
    """The path's game id (404 ``unknown-game`` when it is not one)."""
    return game_id(gid)


async def bearer(request: Request) -> str | None:
    """The token of ``Authorization: Bearer <token>``."""
    h = request.headers.get("authorization") or ""
    if h.lower().startswith("bearer "):
        return h[7:].strip() or None
    return None


def seat_cookie(gid: int) -> str:
    """The cookie a seat link (``/games/{gid}?token=...``) leaves the seat's token in."""
    return f"trackage_seat_{gid}"


ServiceDep = Annotated[GameService, Depends(get_service)]
StorageDep = Annotated[Storage, Depends(get_storage)]
TemplatesDep = Annotated[Jinja2Templates, Depends(get_templates)]
GameId = Annotated[int, Depends(path_game_id)]
Bearer = Annotated[str | None, Depends(bearer)]


async def cookie_token(gid: GameId, request: Request) -> str | None:
    """The token the game's seat cookie holds."""
    return request.cookies.get(seat_cookie(gid))


async def page_token(gid: GameId, request: Request, token: Bearer) -> str | None:
    """A page fragment's token: the seat cookie, else a bearer token."""
    return request.cookies.get(seat_cookie(gid)) or token


CookieToken = Annotated[str | None, Depends(cookie_token)]
PageToken = Annotated[str | None, Depends(page_token)]


def api_seat(gid: GameId, token: Bearer, service: ServiceDep) -> dict | None:
    """The seat of the bearer token (None: a spectator)."""
    return service.seat(gid, token)


def page_seat(gid: GameId, token: PageToken, service: ServiceDep) -> dict | None:
    """The seat of a page fragment's token (None: a spectator)."""
    return service.seat(gid, token)


Seat = Annotated[dict | None, Depends(api_seat)]
PageSeat = Annotated[dict | None, Depends(page_seat)]


def acting_seat(gid: GameId, token: Bearer, service: ServiceDep) -> dict:
    """The seat that acts: the game must exist (404) and the token be one of its seats (401)."""
    service.meta(gid)
    seat = service.seat(gid, token)
    if seat is None:
        raise Unauthorized("a valid seat token is required (Authorization: Bearer <token>)", "bad-token")
    return seat


ActingSeat = Annotated[dict, Depends(acting_seat)]


class LockedGame:
    """A game to read under its lock: ``with locked as live: ...`` holds the game's lock and
    gives the live game caught up with the database. The lock is a thread's (an RLock), so it
    is taken where the route's work runs, not by the dependency."""

    def __init__(self, service: GameService, gid: int) -> None:
        self.service = service
        self.gid = gid
        self._lock: threading.RLock | None = None

    def __enter__(self) -> Live:
        self._lock = self.service.locked(self.gid)
        self._lock.acquire()
        try:
            return self.service.live(self.gid)
        except BaseException:
            self._lock.release()
            raise

    def held(self) -> threading.RLock:
        """The game's lock alone (to hold while changing the game)."""
        return self.service.locked(self.gid)

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        assert self._lock is not None
        self._lock.release()


async def locked_game(gid: GameId, service: ServiceDep) -> LockedGame:
    return LockedGame(service, gid)


Locked = Annotated[LockedGame, Depends(locked_game)]
