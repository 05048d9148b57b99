"""The HTML pages: the lobby and its forms (new game, import), a game's page (a seat link
sets the seat's cookie) and its parts (swapped in place by the page's script), the tile
choices of a hex, the map as SVG, the favicon and /healthz."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.datastructures import UploadFile

from .. import story
from ..core.journal import round_label
from ..core.ledger import table as ledger_table
from ..titles import display_name
from . import auctions, cards, handroutes, maptargets, roster, views
from .api import titles_catalogue
from .botseats import bot_levels
from .charts import flow_chart, line_chart
from .deps import (
    SEAT_COOKIE_AGE,
    GameId,
    Locked,
    LockedGame,
    PageSeat,
    ServiceDep,
    StorageDep,
    TemplatesDep,
    seat_cookie,
)
from .jsonbody import MAX_IMPORT_BODY, BadJson, game_id, parse_json
from .lobby import lobby_games, your_turn
from .mapsvg import entity_colors, render_map, render_tile
from .maptargets import focus_hexes
from .models import CreateGame, ImportLog
from .programcard import program_card
from .service import GameService, Live, NotFound, ServiceError, to_act_of
from .storage import Storage
from .tokenoffers import token_offers

router = APIRouter()
STATIC = Path(__file__).parent / "static"


def new_game_form() -> dict[str, Any]:
    """The lobby's forms as it first shows them."""
    return {"title": "", "players": "Alice\nBob\nCarol", "options": [], "seed": "", "mode": "hotseat", "log": "",
            "bots": ""}


def lobby_page(request: Request, templates: Jinja2Templates, storage: Storage, error: str | None = None,
               status: int = 200, which: str | None = None, form: dict[str, Any] | None = None,
               error_form: str = "new") -> Response:
    """The lobby; after a refused form, ``error`` beside the form ``error_form`` (new, import,
    games) and ``form``: the values submitted, shown again."""
    titles = titles_catalogue()
    try:
        games = lobby_games(storage, request.cookies, which)
    except ServiceError as e:
        games, error, status, which = lobby_games(storage, request.cookies), e.message, e.status, None
        error_form = "games"
    return templates.TemplateResponse(request, "lobby.html", {
        "games": games, "titles": titles, "error": error, "error_form": error_form, "game_filter": which or "all",
        "form": {**new_game_form(), **(form or {})}, "titles_json": json.dumps(titles)}, status_code=status)


@router.get("/", response_class=HTMLResponse)
def lobby(request: Request, templates: TemplatesDep, storage: StorageDep, error: str | None = None,
          filter: str | None = None) -> Response:
    return lobby_page(request, templates, storage, error, which=filter)


@router.post("/games")
async def page_create(request: Request, service: ServiceDep, templates: TemplatesDep,
                      storage: StorageDep) -> Response:
    form = await request.form()
    kept = {"title": str(form.get("title") or ""), "players": str(form.get("players") or ""),
            "options": [str(o) for o in form.getlist("options")], "seed": str(form.get("seed") or ""),
            "mode": "seats" if form.get("mode") == "seats" else "hotseat", "bots": str(form.get("bots") or "")}
    names = [n.strip() for n in str(form.get("players", "")).replace(",", "\n").splitlines() if n.strip()]
    body: dict[str, Any] = {"title": form.get("title"), "players": names, "options": list(form.getlist("options")),
                            "hotseat": form.get("mode", "hotseat") == "hotseat",
                            "bots": form_bots(str(form.get("bots") or ""))}
    seed = str(form.get("seed") or "").strip()
    if seed:
        body["seed"] = int(seed) if seed.isascii() and seed.isdigit() else seed
    try:
        setup = CreateGame.model_validate(body)
        out = await run_in_threadpool(service.create, setup)
    except ServiceError as e:
        return lobby_page(request, templates, storage, e.message, e.status, form=kept)
    if body["hotseat"]:
        return RedirectResponse(f"/games/{out['id']}?token={out['seats'][0]['token']}", status_code=303)
    return templates.TemplateResponse(request, "seats.html", {"gid": out["id"], "seats": out["seats"],
                                                              "base": str(request.base_url).rstrip("/")})


def form_bots(text: str) -> dict[str, str] | str:
    """The lobby's bot seats ("2=rule 3=search") as the API's ``bots`` (a malformed entry is
    passed on as it is, for the API's rule to refuse)."""
    out: dict[str, str] = {}
    for item in text.replace(",", " ").split():
        seat, sep, level = item.partition("=")
        if not sep:
            return text
        out[seat.strip()] = level.strip()
    return out


@router.post("/import")
async def page_import(request: Request, service: ServiceDep, templates: TemplatesDep,
                      storage: StorageDep) -> Response:
    form = await request.form()
    raw = form.get("file")
    text = ""
    if isinstance(raw, UploadFile):
        text = (await raw.read()).decode("utf-8", "replace")
    if not text.strip():
        text = str(form.get("log") or "")
    if len(text) > MAX_IMPORT_BODY:
        return lobby_page(request, templates, storage, "import refused: the log is too large", 413,
                          error_form="import")
    kept = {"log": text}
    try:
        data = parse_json(text)
    except BadJson as e:
        return lobby_page(request, templates, storage, f"not a log: {e.message}", e.status, form=kept,
                          error_form="import")
    try:
        log = ImportLog.model_validate(data)
        out = await run_in_threadpool(service.import_log, log)
    except ServiceError as e:
        return lobby_page(request, templates, storage, e.message, e.status, form=kept, error_form="import")
    return RedirectResponse(f"/games/{out['id']}?token={out['seats'][0]['token']}&action=0", status_code=303)


@router.get("/games/{gid}", response_class=HTMLResponse)
def game_page(gid: str, request: Request, service: ServiceDep, templates: TemplatesDep,
              action: int | None = None, token: str | None = None) -> Response:
    g = game_id(gid)  # here, not a dependency: a bad query parameter is answered first, as FastAPI answers it
    if token:  # a seat link: the token goes to the seat's cookie
        url = f"/games/{g}" + (f"?action={action}" if action is not None else "")
        resp = RedirectResponse(url, status_code=303)
        resp.set_cookie(seat_cookie(g), token, httponly=False, samesite="lax", max_age=SEAT_COOKIE_AGE)
        return resp
    token = request.cookies.get(seat_cookie(g))
    with LockedGame(service, g) as lv:
        ctx = page_context(service, lv, token, action)
    return templates.TemplateResponse(request, "game.html", ctx)


@router.get("/games/{gid}/panels", response_class=HTMLResponse)
def game_panels(gid: str, request: Request, service: ServiceDep, templates: TemplatesDep,
                action: int | None = None) -> Response:
    """The game page's parts after the stored actions up to ``action`` (None: all), as the
    page renders them, for its script to swap in place (after an action, a live update, a
    history step)."""
    g = game_id(gid)
    token = request.cookies.get(seat_cookie(g))
    with LockedGame(service, g) as lv:
        ctx = page_context(service, lv, token, action)
    return templates.TemplateResponse(request, "game/panels.html", ctx,
                                      headers={"Cache-Control": "no-store"})


def page_context(service: GameService, lv: Live, token: str | None, action: int | None) -> dict[str, Any]:
    """What game.html shows of a game (under its lock) to the seat of ``token``, after the
    stored actions up to ``action`` (None: all)."""
    g = lv.gid
    seat = service.seat(g, token)
    history = service.history(g)
    game, at = service.game_at(g, action)
    viewing_past = at < lv.last_id
    # a run is listed without the router's run: the page asks /api/games/{id}/routes/suggested
    # after it shows (the button, the map's run and the route builder's best run fill in then)
    legal = [] if viewing_past else service.seat_legal(game, seat, lv)
    lay = [a for a in legal if a["type"] == "lay_tile"]
    tok = [a for a in legal if a["type"] == "place_token"]
    others = [a for a in legal if a["type"] not in ("lay_tile",)]
    lay_targets, token_targets = maptargets.lay_targets(game, lay), maptargets.token_targets(game, tok)
    offers = token_offers(game, legal, priced=False)  # priced when previewed (GET /api/games/{id}/tokens)
    hex_token_targets = sorted({(o["hex"], o["where"]) for o in offers if o["kind"] == "hex"})
    svg = render_map(game, layable={a["hex"] for a in lay}, tokenable={a["city"] for a in tok},
                     hex_tokenable={h for h, _ in hex_token_targets})
    buttons = []
    for a in others:
        clean = views.clean_for_json(a)
        buttons.append({"label": views.describe(game, a), "type": a["type"], "json": json.dumps(clean),
                        "entity": views.acting_label(game, a), "range": a.get("price_range"),
                        "step": a.get("price_step") or 1, "price": a.get("price"),
                        "suggest": a["type"] == "run_routes" and not a.get("routes")})
    groups: dict[str, list[dict[str, Any]]] = {}
    for b in buttons:
        groups.setdefault(b["type"], []).append(b)
    live_game: Any = lv.game
    charts = history.charts.finish(live_game, lv.last_id)
    cursor = None
    if viewing_past:
        cursor = max([i for i, n in enumerate(charts.action_of_label) if n <= at] or [0])
    colors = {c.id: entity_colors(c)[0] for c in list(live_game.corporations) + list(live_game.minors)}
    rev_labels, rev_series = charts.revenue()
    chart_svgs = [
        line_chart("Player value by round", charts.labels, charts.values, cursor=cursor, chart_id="chart-values"),
        line_chart("Share price by round", charts.labels, charts.prices, colors=colors, cursor=cursor,
                   chart_id="chart-prices"),
        line_chart("Revenue per operating round", rev_labels, rev_series, colors=colors, chart_id="chart-revenue"),
    ]
    rows = history.rows
    log_rows = views.history_rows(rows, history.labels)
    acting = [views.entity_label(game, e) for e in game.acting_entities()] if not game.finished else []
    to_act = to_act_of(game)
    bots = bot_levels(lv.meta)
    report = service.clock(lv)
    this_round = round_label(game)
    return {
        "routing": handroutes.builder(game, legal),
        "gid": g, "game": game, "meta": lv.meta, "title_name": display_name(game.TITLE),
        "round_label": this_round, "acting": acting, "at": at, "last": lv.last_id,
        "to_act": to_act, "bots": bots, "bot_error": service.bots.error(g),
        "your_turn": not viewing_past and your_turn(seat, [p for p in to_act if str(p["id"]) not in bots]),
        "clock": None if report is None else report.as_json(),
        "clock_running": () if report is None else report.running,
        "clock_since": None if report is None or game.finished else report.since,
        "clock_settings": lv.meta.get("clock"),
        "viewing_past": viewing_past, "map_svg": svg, "groups": groups, "has_lay": bool(lay),
        "lay_hexes": sorted({a["hex"] for a in lay}), "lay_targets": lay_targets, "token_targets": token_targets,
        "focus_hexes": focus_hexes(game, lay_targets, token_targets),
        "hex_token_targets": [{"hex": h, "where": w} for h, w in hex_token_targets],
        "token_json": json.dumps(offers),
        "sheet": views.spreadsheet(game), "cards": cards.cards(game), "auctions": auctions.auctions(game),
        "trains": roster.trains(game), "phases": roster.phases(game),
        "rules": roster.rules(game, list(lv.meta.get("options") or [])),
        "market": views.market_grid(game), "charts": chart_svgs,
        "log_rows": log_rows, "seat": seat, "token": token or "",
        "money_round": story.money_rows(game, this_round), "money_round_label": this_round,
        "money_game": story.money_rows(game),
        "money_svg": flow_chart(ledger_table(game), lambda n: story.money(game, n), chart_id="money-flow"),
        "story": [{"action": a, "header": h, "text": t} for a, h, t in story.log_lines(live_game)],
        "seat_name": None if seat is None else ("hotseat (every player)" if seat["player_id"] is None else
                                                next((p.name for p in game.seats
                                                      if str(p.id) == seat["player_id"]), seat["player_id"])),
        "result": {k: story.money(game, v) for k, v in game.result().items()} if game.finished else None,
        "names": {str(p.id): p.name for p in game.seats},
        "can_undo": not viewing_past and service.may_undo(lv, seat),
        "can_redo": not viewing_past and service.may_redo(lv, seat),
        "history_error": str(history.error) if history.error else None,
        "webhooks": [] if service.hooks is None else service.hooks.status(g, seat),
        "programs": program_card(game, seat, to_act, viewing_past),
    }


@router.get("/games/{gid}/hex/{hex_id}", response_class=HTMLResponse)
def tile_choices(gid: GameId, hex_id: str, request: Request, seat: PageSeat, locked: Locked,
                 service: ServiceDep, templates: TemplatesDep) -> Response:
    """The legal tiles and rotations of the seat on one hex (a fragment of the game page)."""
    with locked as lv:
        game: Any = lv.game
        lays = [a for a in service.seat_legal(game, seat, lv) if a["type"] == "lay_tile" and a["hex"] == hex_id]
        hx = game.board.hex_by_id(hex_id) if game.board is not None else None
        if hx is None:
            raise NotFound(f"tile choices refused: this map has no hex {hex_id!r}", "unknown-hex", hex=hex_id)
        tiles: dict[str, dict[str, Any]] = {}
        for a in lays:
            tile = game.board.tile_by_id(a["tile"])
            if tile is None:
                continue
            placed = game.board.placed_tile(getattr(tile, "tile", tile), a["rotation"], hx)
            t = tiles.setdefault(a["tile"], {"tile": a["tile"], "name": getattr(tile, "name", a["tile"]),
                                             "actions": [], "svgs": [], "rotations": []})
            t["actions"].append(views.clean_for_json(a))
            t["svgs"].append(render_tile(game, hx, placed, size=84))
            t["rotations"].append(a["rotation"])
        items = [{**t, "json": json.dumps(t["actions"])} for t in tiles.values()]
        return templates.TemplateResponse(request, "tiles.html", {"items": items, "hex": hex_id,
                                                                  "name": hx.location_name})


@router.get("/games/{gid}/map.svg")
def map_svg(gid: str, service: ServiceDep, action: int | None = None) -> Response:
    g = game_id(gid)  # here, not a dependency: a bad ``action`` is answered first, as FastAPI answers it
    with LockedGame(service, g):
        game, _ = service.game_at(g, action)
        svg = render_map(game)
    return Response(svg, media_type="image/svg+xml")


@router.get("/favicon.ico", include_in_schema=False)
def favicon() -> Response:
    """The site's icon (an SVG; base.html links it too)."""
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})


@router.get("/healthz")
def healthz() -> dict[str, bool]:
    return {"ok": True}
