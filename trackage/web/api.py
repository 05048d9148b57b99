"""The JSON API (shaped like 18xx.games's): titles, games, a game's state, actions, its log."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from ..core.entities import entity_type
from ..core.journal import round_label
from ..titles import TITLES, game_class, title_info
from . import handroutes, views
from .botseats import bot_levels, bot_to_act
from .deps import ActingSeat, Bearer, GameId, Locked, Seat, ServiceDep, StorageDep
from .jsonbody import JsonBodyRoute
from .lobby import lobby_games
from .models import Action, AddWebhook, CreateGame, ImportLog, RouteCheck
from .optiontext import describe_options
from .service import GameService, Live, ServiceError, to_act_of
from .tokenoffers import token_offers

router = APIRouter(prefix="/api", route_class=JsonBodyRoute)


def titles_catalogue() -> dict[str, dict[str, Any]]:
    """Every title: its display name, player range, options (each with the player counts
    allowing it), the options that exclude each other, each option's name and description
    (``option_text``) and what sets the player range (``players_note``)."""
    out = {}
    for t in TITLES:
        cls = game_class(t)
        info = title_info(t)
        out[t] = {"name": info.name, "players": list(info.players),
                  "options": cls.option_player_counts(),  # option -> the player counts allowing it
                  "exclusive": [list(g) for g in cls.MUTEX_RULES], **describe_options(t)}
    return out


def game_state(service: GameService, lv: Live, seat: dict | None) -> dict[str, Any]:
    """A game's state as a seat sees it (call under the game's lock)."""
    gid = lv.gid
    game: Any = lv.game
    legal = [views.clean_for_json(a) for a in service.seat_legal(game, seat, lv, shared=True)]
    bots = bot_levels(lv.meta)
    acting = [{"id": getattr(e, "id", None), "type": entity_type(e), "name": views.entity_label(game, e)}
              for e in (game.acting_entities() if not game.finished else [])]
    return {
        "id": gid, "title": game.TITLE,
        "players": [{"id": p.id, "name": p.name, "bot": bots.get(str(p.id))} for p in game.seats],
        "bot_error": service.bots.error(gid),
        "bot_to_act": bot_player(game, service.legal(lv, shared=True), bots) if bots else None,
        "options": list(lv.meta.get("options") or []),
        "round": game.round.name, "round_label": round_label(game), "turn": game.turn,
        "round_num": game.round.round_num, "phase": game.phase.name, "acting": acting,
        "seat": None if seat is None else (seat["player_id"] or "*"),
        "legal_actions": legal, "finished": game.finished,
        "result": game.result() if game.finished else None, "game_end_reason": game.game_end_reason,
        "action_count": lv.last_id, "to_act": to_act_of(game), **clock_state(service, lv),
        "webhooks": [] if service.hooks is None else service.hooks.status(gid, seat),
    }


def bot_player(game: Any, legal: list[dict[str, Any]], bots: dict[str, str]) -> Any:
    """The id of the bot player to move now (None: no bot is to act; the server plays it soon)."""
    turn = bot_to_act(game, legal, bots)
    return None if turn is None else game.seats[turn[0]].id


def clock_state(service: GameService, lv: Live) -> dict[str, Any]:
    """The chess clock (a game with one, or imported): per player ``used_s`` (and with
    settings ``left_s``, ``increments_s``, ``over``, ``penalty``), whose clock runs since
    which timestamp, the settings; ``clock: None`` without one."""
    report = service.clock(lv)
    if report is None:
        return {"clock": None}
    out: dict[str, Any] = {"clock": report.as_json(),
                           "clock_running": {"players": list(report.running), "since": report.since},
                           "clock_settings": lv.meta.get("clock")}
    if lv.game.finished:
        adjusted = report.adjusted_result(lv.game.result())
        if adjusted is not None:
            out["adjusted_result"] = adjusted
    return out


@router.get("/titles")
def api_titles() -> dict[str, dict[str, Any]]:
    return titles_catalogue()


@router.get("/games")
def api_games(request: Request, storage: StorageDep, filter: str | None = None) -> list[dict[str, Any]]:
    """Stored games, newest first, each with who is to act and, for the viewer's seat
    cookies, ``mine`` and ``your_turn``; ``?filter=mine|waiting|active|finished``."""
    return lobby_games(storage, request.cookies, filter)


@router.post("/games", status_code=201)
async def api_create(setup: CreateGame, service: ServiceDep) -> dict[str, Any]:
    return await run_in_threadpool(service.create, setup)


@router.post("/games/import", status_code=201)
async def api_import(log: ImportLog, service: ServiceDep) -> dict[str, Any]:
    return await run_in_threadpool(service.import_log, log)


@router.get("/games/{gid}", response_model=dict[str, Any])
def api_game(seat: Seat, locked: Locked, service: ServiceDep) -> JSONResponse:
    # the state is JSON's own types already (the action's reply sends the same): encoded as
    # it is, not walked by FastAPI's encoder first
    with locked as lv:
        return JSONResponse(game_state(service, lv, seat))


@router.post("/games/{gid}/actions")
async def api_act(gid: GameId, seat: ActingSeat, action: Action, locked: Locked,
                  service: ServiceDep, request: Request) -> JSONResponse:
    base_url = str(request.base_url)

    def work() -> JSONResponse:
        with locked.held():  # the reply is the state this action made
            service.take_catchup(gid)  # (what a read caught up with before is not this request's)
            c0 = time.thread_time()
            t0 = time.perf_counter()
            service.act(gid, seat, action, base_url=base_url)
            t1 = time.perf_counter()
            out = game_state(service, service.live(gid), seat)
            t2 = time.perf_counter()
            caught, caught_s = service.take_catchup(gid)
            cpu = time.thread_time() - c0
        reply = JSONResponse(out)
        t3 = time.perf_counter()
        # Server-Timing: the action (engine + database; it includes the catch-up with actions
        # other workers stored: how many, how long), the new state (legal actions), the CPU
        # time the thread used for both (the rest of their time: waiting for the database, or
        # for the CPU: the interpreter's lock, other processes), and the reply's JSON encoding
        reply.headers["Server-Timing"] = (
            f"act;dur={(t1 - t0) * 1000:.1f}, state;dur={(t2 - t1) * 1000:.1f}, "
            f"catchup;desc={caught};dur={caught_s * 1000:.1f}, cpu;dur={cpu * 1000:.1f}, "
            f"json;dur={(t3 - t2) * 1000:.1f}")
        return reply
    return await run_in_threadpool(work)


@router.get("/games/{gid}/routes/suggested")
async def api_suggested_routes(seat: Seat, locked: Locked, service: ServiceDep) -> dict[str, Any]:
    """The router's suggested run for the seat's ``run_routes`` now (the game's state lists
    it without its routes): ``entity``, ``entity_type``, ``routes``, their ``total``, the
    whole listed ``action`` and its button's ``label`` (the game page's words); 422
    ``no-run`` when the seat has no run to make."""
    def work() -> dict[str, Any]:
        with locked as lv:
            legal = service.seat_legal(lv.game, seat, lv)
            return handroutes.suggested(lv.game, legal)
    return await run_in_threadpool(work)


@router.get("/games/{gid}/tokens")
async def api_token_offers(seat: Seat, locked: Locked, service: ServiceDep) -> dict[str, Any]:
    """The seat's token actions now as the game page's map previews them, each priced by
    trying it on a copy of the game (``cost``, ``cost_text``): ``{action_count, offers}``."""
    def work() -> dict[str, Any]:
        with locked as lv:
            legal = service.seat_legal(lv.game, seat, lv)
            return {"action_count": lv.last_id, "offers": token_offers(lv.game, legal)}
    return await run_in_threadpool(work)


@router.post("/games/{gid}/routes/check")
async def api_check_routes(seat: ActingSeat, body: RouteCheck, locked: Locked, service: ServiceDep) -> dict[str, Any]:
    """Routes proposed by hand, checked by the engine on the current state (nothing changes):
    each route's revenue and stops, or the rule refusing it and why in words; the total; the
    routes as a ``run_routes`` action carries them (``routes_action``, when all are legal)."""
    def work() -> dict[str, Any]:
        with locked as lv:
            legal = service.seat_legal(lv.game, seat, lv)
            return handroutes.check(lv.game, legal, body.routes)
    return await run_in_threadpool(work)


def game_hooks(service: GameService):
    if service.hooks is None:
        raise ServiceError("this server sends no webhooks", "webhook-url")
    return service.hooks


@router.post("/games/{gid}/webhooks", status_code=201)
async def api_add_webhook(gid: GameId, seat: ActingSeat, body: AddWebhook, token: Bearer,
                          service: ServiceDep) -> dict[str, Any]:
    """A seat's webhook: a player's seat is told when its player is to act (with its seat
    link); the hotseat token adds one to the game's (told of every change)."""
    assert token is not None  # the acting seat's
    return await run_in_threadpool(game_hooks(service).add, gid, seat, token, body.url)


@router.delete("/games/{gid}/webhooks/{hook_id}", status_code=204)
def api_delete_webhook(gid: GameId, hook_id: int, seat: ActingSeat, service: ServiceDep) -> None:
    """Remove a seat's own webhook (the game's: with the hotseat token)."""
    game_hooks(service).remove(gid, seat, hook_id)


@router.get("/games/{gid}/log")
def api_log(gid: GameId, service: ServiceDep) -> dict[str, Any]:
    return service.log(gid)
