"""JSON request bodies read by trackage's rules: a size limit (413, refused before reading when
the length is declared), malformed JSON and too deep nesting (400), whatever the Content-Type.

:class:`JsonBodyRoute` reads the body of a route whose body is a :class:`~.models.JsonBody`
model this way before FastAPI validates it against the model.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from .service import NotFound, ServiceError

MAX_ACTION_BODY = 256 * 1024          # one action (and a new game's set-up)
MAX_IMPORT_BODY = 16 * 1024 * 1024    # a whole log
MAX_JSON_DEPTH = 64                   # lists and objects inside each other


class BodyTooLarge(ServiceError):
    status = 413


class BadJson(ServiceError):
    status = 400


def json_depth(value: Any, limit: int) -> int:
    """How deeply ``value`` nests lists and objects (1 for a flat one), counted without
    recursion and only up to ``limit + 1``."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)] if isinstance(value, (list, dict)) else []
    while stack:
        v, d = stack.pop()
        deepest = max(deepest, d)
        if d > limit:
            break
        for x in (v.values() if isinstance(v, dict) else v):
            if isinstance(x, (list, dict)):
                stack.append((x, d + 1))
    return deepest


def parse_json(raw: bytes | str) -> Any:
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


async def read_json(request: Request, limit: int) -> Any:
    """The request body as JSON, refusing bodies over ``limit`` bytes (before reading them
    when the length is declared) and malformed JSON. The request keeps the body and its JSON
    (Starlette's ``body()`` and ``json()`` answer them from then on)."""
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > limit:
                raise BodyTooLarge(f"the body is larger than {limit} bytes", "body-too-large")
        except ValueError:
            raise BadJson("bad Content-Length", "bad-request") from None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(f"the body is larger than {limit} bytes", "body-too-large")
        chunks.append(chunk)
    raw = b"".join(chunks)
    request._body = raw     # the stream is spent: what Request.body() answers
    data = parse_json(raw)
    request._json = data    # what Request.json() answers
    return data


def game_id(gid: str) -> int:
    """The game id in a path: a positive 32-bit integer, or 404 ``unknown-game``."""
    try:
        v = int(gid)
    except (TypeError, ValueError):
        raise NotFound(f"no game {gid!r}", "unknown-game") from None
    if not 0 < v < 2**31:
        raise NotFound(f"no game {gid!r}", "unknown-game")
    return v


class JsonBodyRoute(APIRoute):
    """A route whose JSON body model (a :class:`~.models.JsonBody`) is read by
    :func:`read_json` first, within the model's ``MAX_BYTES``: a game id in the path is
    checked before the body is read, and the model's ``first_check`` runs on the JSON before
    the route's dependencies (the game, the seat). Routes without such a body are plain."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        model = self.body_field.field_info.annotation if self.body_field is not None else None
        limit = getattr(model, "MAX_BYTES", None)
        if model is None or not isinstance(limit, int):
            return handler
        first_check: Callable[[Any], None] = model.first_check

        async def read_body_first(request: Request) -> Response:
            if "gid" in request.path_params:
                game_id(request.path_params["gid"])
            first_check(await read_json(request, limit))
            return await handler(request)
        return read_body_first
