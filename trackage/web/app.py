"""The web server: the JSON API (shaped like 18xx.games's), the pages and live updates.

``create_app(db_url)`` builds the FastAPI application; ``trackage serve`` runs it on uvicorn.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from ..titles import TITLES, game_class
from . import views
from .charts import line_chart
from .mapsvg import entity_colors, render_map, render_tile
from .service import GameService, Illegal, NotFound, ServiceError
from .storage import DEFAULT_DB, Storage

HERE = Path(__file__).parent
MAX_ACTION_BODY = 256 * 1024          # one action
MAX_IMPORT_BODY = 16 * 1024 * 1024    # a whole log
MAX_JSON_DEPTH = 64                   # lists and objects inside each other
TITLE_NAMES = {"1825": "1825", "1867": "1867: Railways of Canada", "1861": "1861: Railways of the Russian Empire",
               "1893": "1893: Cologne", "1822": "1822: The Railways of Great Britain", "1858": "1858: Iberia",
               "1858India": "1858 India"}


class BodyTooLarge(ServiceError):
    status = 413


class BadJson(ServiceError):
    status = 400


async def read_json(request: Request, limit: int):
    """The request body as JSON, refusing bodies over ``limit`` bytes (before reading them
    when the length is declared) and malformed JSON."""
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > limit:
                raise BodyTooLarge(f"the body is larger than {limit} bytes", "body-too-large")
        except ValueError:
            raise BadJson("bad Content-Length", "bad-request") from None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(f"the body is larger than {limit} bytes", "body-too-large")
        chunks.append(chunk)
    return parse_json(b"".join(chunks))


def json_depth(value, limit: int) -> int:
    """How deeply ``value`` nests lists and objects (1 for a flat one), counted without
    recursion and only up to ``limit + 1``."""
    deepest = 0
    stack = [(value, 1)] if isinstance(value, (list, dict)) else []
    while stack:
        v, d = stack.pop()
        deepest = max(deepest, d)
        if d > limit:
            break
        for x in (v.values() if isinstance(v, dict) else v):
            if isinstance(x, (list, dict)):
                stack.append((x, d + 1))
    return deepest


def parse_json(raw: bytes | str):
    """A request's JSON, refusing malformed JSON and JSON nested deeper than
    ``MAX_JSON_DEPTH`` (an 18xx.games log nests 9 deep at most; a deeper body would only
    exhaust the parser's or the engine's recursion)."""
    too_deep = BadJson(f"the JSON is nested too deeply (more than {MAX_JSON_DEPTH} levels of lists and objects)",
                       "too-deeply-nested")
    try:
        data = json.loads(raw)
    except RecursionError:
        raise too_deep from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise BadJson(f"malformed JSON: {e}", "malformed-json") from None
    if json_depth(data, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        raise too_deep
    return data


def bearer(request: Request) -> str | None:
    h = request.headers.get("authorization") or ""
    if h.lower().startswith("bearer "):
        return h[7:].strip() or None
    return None


def _gid(raw: str) -> int:
    try:
        v = int(raw)
    except (TypeError, ValueError):
        raise NotFound(f"no game {raw!r}", "unknown-game") from None
    if not 0 < v < 2**31:
        raise NotFound(f"no game {raw!r}", "unknown-game")
    return v


def game_state(service: GameService, gid: int, token: str | None) -> dict:
    seat = service.seat(gid, token)
    with service.locked(gid):
        return _game_state(service, service.live(gid), seat)


def _game_state(service: GameService, lv, seat) -> dict:
    gid = lv.gid
    game = lv.game
    legal = [views.clean_for_json(a) for a in service.seat_legal(game, seat, lv)]
    acting = [{"id": getattr(e, "id", None), "type": game.entity_type(e), "name": views.entity_label(game, e)}
              for e in (game.acting_entities() if not game.finished else [])]
    return {
        "id": gid, "title": game.TITLE, "players": [{"id": p.id, "name": p.name} for p in game.seat_order()],
        "options": list(lv.meta.get("options") or []),
        "round": game.round.name, "round_label": views.round_label(game), "turn": game.turn,
        "round_num": game.round.round_num, "phase": game.phase.name, "acting": acting,
        "seat": None if seat is None else (seat["player_id"] or "*"),
        "legal_actions": legal, "finished": game.finished,
        "result": game.result() if game.finished else None, "game_end_reason": game.game_end_reason,
        "action_count": lv.last_id,
    }


def create_app(db_url: str | None = None, *, sse_interval: float = 1.0) -> FastAPI:
    db_url = db_url or os.environ.get("TRACKAGE_DB") or DEFAULT_DB
    storage = Storage(db_url)
    service = GameService(storage)
    app = FastAPI(title="trackage", docs_url="/api/docs", openapi_url="/api/openapi.json")
    app.state.service = service
    app.state.storage = storage
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.globals.update(TITLE_NAMES=TITLE_NAMES)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, exc: ServiceError):
        return JSONResponse(exc.body(), status_code=exc.status)

    # ------------------------------------------------------------------ API
    @app.get("/api/titles")
    def api_titles():
        out = {}
        for t in TITLES:
            cls = game_class(t)
            out[t] = {"name": TITLE_NAMES.get(t, t), "players": list(cls.PLAYER_RANGE),
                      "options": cls.option_player_counts(),  # option -> the player counts allowing it
                      "exclusive": [list(g) for g in cls.MUTEX_RULES]}
        return out

    @app.get("/api/games")
    def api_games():
        return [{"id": g["id"], "title": g["title"], "players": [p["name"] for p in g["players"]],
                 "status": g["status"], "source": g["source"], "result": g["result"]}
                for g in storage.list_games()]

    @app.post("/api/games", status_code=201)
    async def api_create(request: Request):
        body = await read_json(request, MAX_ACTION_BODY)
        return await run_in_threadpool(service.create, body)

    @app.post("/api/games/import", status_code=201)
    async def api_import(request: Request):
        body = await read_json(request, MAX_IMPORT_BODY)
        return await run_in_threadpool(service.import_log, body)

    @app.get("/api/games/{gid}")
    def api_game(gid: str, request: Request):
        return game_state(service, _gid(gid), bearer(request))

    @app.post("/api/games/{gid}/actions")
    async def api_act(gid: str, request: Request):
        g = _gid(gid)
        token = bearer(request)
        body = await read_json(request, MAX_ACTION_BODY)

        def work():
            with service.locked(g):  # the reply is the state this action made
                t0 = time.perf_counter()
                service.act(g, token, body)
                t1 = time.perf_counter()
                out = game_state(service, g, token)
                t2 = time.perf_counter()
            # Server-Timing: the action (engine + database) and the new state (legal actions)
            timing = f"act;dur={(t1 - t0) * 1000:.1f}, state;dur={(t2 - t1) * 1000:.1f}"
            return JSONResponse(out, headers={"Server-Timing": timing})
        return await run_in_threadpool(work)

    @app.get("/api/games/{gid}/log")
    def api_log(gid: str):
        g = _gid(gid)
        return service.log(g)

    @app.get("/api/games/{gid}/events")
    async def api_events(gid: str, request: Request, once: int = 0):
        g = _gid(gid)
        await run_in_threadpool(service.meta, g)

        async def stream():
            last = None
            while True:
                n = await run_in_threadpool(storage.last_action_id, g)
                if n != last:
                    yield f"event: action\ndata: {json.dumps({'action_count': n})}\n\n"
                    last = n
                    if once:
                        return
                else:
                    yield ": keep-alive\n\n"
                if await request.is_disconnected():
                    return
                await asyncio.sleep(sse_interval)
        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    # ------------------------------------------------------------------ pages
    def lobby_page(request: Request, error: str | None = None, status: int = 200):
        titles = api_titles()
        return templates.TemplateResponse(request, "lobby.html", {
            "games": storage.list_games(), "titles": titles, "error": error,
            "titles_json": json.dumps(titles)}, status_code=status)

    @app.get("/", response_class=HTMLResponse)
    def lobby(request: Request, error: str | None = None):
        return lobby_page(request, error)

    @app.post("/games")
    async def page_create(request: Request):
        form = await request.form()
        names = [n.strip() for n in str(form.get("players", "")).replace(",", "\n").splitlines() if n.strip()]
        body = {"title": form.get("title"), "players": names, "options": list(form.getlist("options")),
                "hotseat": form.get("mode", "hotseat") == "hotseat"}
        seed = str(form.get("seed") or "").strip()
        if seed:
            body["seed"] = int(seed) if seed.isascii() and seed.isdigit() else seed
        try:
            out = await run_in_threadpool(service.create, body)
        except ServiceError as e:
            return lobby_page(request, e.message, e.status)
        if body["hotseat"]:
            return RedirectResponse(f"/games/{out['id']}?token={out['seats'][0]['token']}", status_code=303)
        return templates.TemplateResponse(request, "seats.html", {"gid": out["id"], "seats": out["seats"],
                                                                  "base": str(request.base_url).rstrip("/")})

    @app.post("/import")
    async def page_import(request: Request):
        form = await request.form()
        raw = form.get("file")
        text = ""
        if raw is not None and hasattr(raw, "read"):
            text = (await raw.read()).decode("utf-8", "replace")
        if not text.strip():
            text = str(form.get("log") or "")
        if len(text) > MAX_IMPORT_BODY:
            return lobby_page(request, "the log is too large", 413)
        try:
            data = parse_json(text)
        except BadJson as e:
            return lobby_page(request, f"not a log: {e.message}", e.status)
        try:
            out = await run_in_threadpool(service.import_log, data)
        except ServiceError as e:
            return lobby_page(request, e.message, e.status)
        return RedirectResponse(f"/games/{out['id']}?token={out['seats'][0]['token']}&action=0", status_code=303)

    def _token_cookie(gid: int) -> str:
        return f"trackage_seat_{gid}"

    @app.get("/games/{gid}", response_class=HTMLResponse)
    def game_page(gid: str, request: Request, action: int | None = None, token: str | None = None):
        g = _gid(gid)
        if token:
            url = f"/games/{g}" + (f"?action={action}" if action is not None else "")
            resp = RedirectResponse(url, status_code=303)
            resp.set_cookie(_token_cookie(g), token, httponly=False, samesite="lax", max_age=3600 * 24 * 365)
            return resp
        token = request.cookies.get(_token_cookie(g))
        with service.locked(g):
            ctx = page_context(g, token, action)
        return templates.TemplateResponse(request, "game.html", ctx)

    def page_context(g: int, token: str | None, action: int | None) -> dict:
        lv = service.live(g)
        seat = service.seat(g, token)
        history = service.history(g)
        game, at = service.game_at(g, action)
        viewing_past = at < lv.last_id
        legal = [] if viewing_past else service.seat_legal(game, seat, lv)
        lay = [a for a in legal if a["type"] == "lay_tile"]
        tok = [a for a in legal if a["type"] == "place_token"]
        runs = [a for a in legal if a["type"] == "run_routes"]
        others = [a for a in legal if a["type"] not in ("lay_tile",)]
        routes = runs[0].get("routes") if runs else None
        svg = render_map(game, layable={a["hex"] for a in lay}, tokenable={a["city"] for a in tok}, routes=routes)
        buttons = []
        for a in others:
            clean = views.clean_for_json(a)
            buttons.append({"label": views.describe(game, a), "type": a["type"], "json": json.dumps(clean),
                            "entity": views.acting_label(game, a), "range": a.get("price_range"),
                            "step": a.get("price_step") or 1, "price": a.get("price")})
        groups = {}
        for b in buttons:
            groups.setdefault(b["type"], []).append(b)
        charts = history.charts.finish(lv.game, lv.last_id)
        cursor = None
        if viewing_past:
            cursor = max([i for i, n in enumerate(charts.action_of_label) if n <= at] or [0])
        colors = {c.id: entity_colors(c)[0] for c in list(lv.game.corporations) + list(lv.game.minors)}
        rev_labels, rev_series = charts.revenue()
        chart_svgs = [
            line_chart("Player value by round", charts.labels, charts.values, cursor=cursor, chart_id="chart-values"),
            line_chart("Share price by round", charts.labels, charts.prices, colors=colors, cursor=cursor,
                       chart_id="chart-prices"),
            line_chart("Revenue per operating round", rev_labels, rev_series, colors=colors, chart_id="chart-revenue"),
        ]
        rows = history.rows
        log_rows = [{"id": r["id"], "type": r["data"].get("type"), "entity": r["data"].get("entity"),
                     "label": views.short_label(r["data"])} for r in rows]
        acting = [views.entity_label(game, e) for e in game.acting_entities()] if not game.finished else []
        return {
            "gid": g, "game": game, "meta": lv.meta, "title_name": TITLE_NAMES.get(game.TITLE, game.TITLE),
            "round_label": views.round_label(game), "acting": acting, "at": at, "last": lv.last_id,
            "viewing_past": viewing_past, "map_svg": svg, "groups": groups, "has_lay": bool(lay),
            "lay_hexes": sorted({a["hex"] for a in lay}),
            "token_json": json.dumps([views.clean_for_json(a) for a in tok]),
            "sheet": views.spreadsheet(game), "market": views.market_grid(game), "charts": chart_svgs,
            "log_rows": log_rows, "seat": seat, "token": token or "",
            "seat_name": None if seat is None else ("hotseat (every player)" if seat["player_id"] is None else
                                                    next((p.name for p in game.seat_order()
                                                          if str(p.id) == seat["player_id"]), seat["player_id"])),
            "result": game.result() if game.finished else None,
            "names": {str(p.id): p.name for p in game.seat_order()},
            "can_undo": seat is not None and not viewing_past and bool(game.actions),
            "history_error": str(history.error) if history.error else None,
        }

    @app.get("/games/{gid}/hex/{hex_id}", response_class=HTMLResponse)
    def tile_choices(gid: str, hex_id: str, request: Request):
        """The legal tiles and rotations of the seat on one hex (a fragment of the game page)."""
        g = _gid(gid)
        token = request.cookies.get(_token_cookie(g)) or bearer(request)
        seat = service.seat(g, token)
        with service.locked(g):
            return _tile_choices(request, g, seat, hex_id)

    def _tile_choices(request, g, seat, hex_id):
        lv = service.live(g)
        game = lv.game
        lays = [a for a in service.seat_legal(game, seat, lv) if a["type"] == "lay_tile" and a["hex"] == hex_id]
        hx = game.hex_by_id(hex_id)
        items = []
        for a in lays:
            tile = game.tile_by_id(a["tile"])
            if tile is None or hx is None:
                continue
            placed = game.placed_tile(getattr(tile, "tile", tile), a["rotation"], hx)
            items.append({"svg": render_tile(game, hx, placed, size=84), "json": json.dumps(views.clean_for_json(a)),
                          "label": f"{getattr(tile, 'name', a['tile'])} r{a['rotation']}", "tile": a["tile"],
                          "rotation": a["rotation"]})
        return templates.TemplateResponse(request, "tiles.html", {"items": items, "hex": hex_id,
                                                                  "name": hx.location_name if hx else None})

    @app.get("/games/{gid}/map.svg")
    def map_svg(gid: str, action: int | None = None):
        g = _gid(gid)
        with service.locked(g):
            game, _ = service.game_at(g, action)
            svg = render_map(game)
        return Response(svg, media_type="image/svg+xml")

    @app.get("/healthz")
    def healthz():
        return {"ok": True}

    return app


def app_from_env() -> FastAPI:
    """For ``uvicorn --factory trackage.web.app:app_from_env`` (reads TRACKAGE_DB)."""
    return create_app(os.environ.get("TRACKAGE_DB"))


__all__ = ["Illegal", "app_from_env", "create_app"]
