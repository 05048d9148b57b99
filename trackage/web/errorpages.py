"""Errors as their asker reads them: a small HTML page in the site's style (the message, the
rule, a link back) for a browser asking for a page, JSON (``{"error", "rule", ...}``) for API
clients; never a traceback."""

from __future__ import annotations

import logging
import re
from http import HTTPStatus

from fastapi import Request
from fastapi.exception_handlers import http_exception_handler, request_validation_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from .service import ServiceError

log = logging.getLogger("trackage.web")

_GAME_PATH = re.compile(r"^/games/(\d+)(/|$)")


def wants_html(request: Request) -> bool:
    """A browser asking for a page: not the API, and HTML in its Accept header."""
    if request.url.path.startswith("/api"):
        return False
    return "text/html" in request.headers.get("accept", "")


def back_link(request: Request, status: int) -> str:
    """Where the page's link goes: the game of a game's sub-page (when the game is there), else the lobby."""
    m = _GAME_PATH.match(request.url.path)
    if m and status != 404 and request.url.path != f"/games/{m.group(1)}":
        return f"/games/{m.group(1)}"
    return "/"


def error_page(request: Request, status: int, message: str, rule: str | None) -> Response:
    """The HTML page of a refused or failed request."""
    try:
        heading = HTTPStatus(status).phrase
    except ValueError:
        heading = "Error"
    templates = request.app.state.templates
    return templates.TemplateResponse(request, "error.html", {
        "status": status, "heading": heading, "message": message, "rule": rule,
        "back": back_link(request, status)}, status_code=status)


async def service_error(request: Request, exc: Exception) -> Response:
    """A refused request: its status and ``{"error", "rule", ...}`` (a page for a browser)."""
    assert isinstance(exc, ServiceError)
    if wants_html(request):
        return error_page(request, exc.status, exc.message, exc.rule)
    return JSONResponse(exc.body(), status_code=exc.status)


async def validation_error(request: Request, exc: Exception) -> Response:
    """A body its model refused other than by the API's own rules (the models check bodies
    first, so this is a safety net): 422 ``bad-body`` in the API's shape. Other parameters
    (a query's) keep FastAPI's answer; a browser gets a page."""
    assert isinstance(exc, RequestValidationError)
    errors = exc.errors()
    body = [e for e in errors if e.get("loc", ("",))[0] == "body"]
    if wants_html(request):
        first = (body or errors or [{}])[0]
        where = ".".join(str(x) for x in first.get("loc", ()))
        return error_page(request, 422, f"the request does not fit: {where or 'request'}: {first.get('msg')}",
                          "bad-request")
    if not body:
        return await request_validation_exception_handler(request, exc)
    where = ".".join(str(x) for x in body[0]["loc"][1:])
    return JSONResponse({"error": f"the body does not fit: {where or 'body'}: {body[0].get('msg')}",
                         "rule": "bad-body"}, status_code=422)


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such page, a method not allowed): a page for a browser."""
    assert isinstance(exc, StarletteHTTPException)
    if wants_html(request):
        if exc.status_code == 404:
            message, rule = f"there is no page at {request.url.path}", "unknown-page"
        elif exc.status_code == 405:
            message, rule = f"{request.method} is not allowed on {request.url.path}", "method-not-allowed"
        else:
            message, rule = str(exc.detail), None
        return error_page(request, exc.status_code, message, rule)
    return await http_exception_handler(request, exc)


async def server_error(request: Request, exc: Exception) -> Response:
    """A failure of ours: logged with its traceback, answered with a 500 that names the
    request and not the traceback."""
    log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    message = f"the server failed on {request.method} {request.url.path}; the failure is logged"
    if wants_html(request):
        return error_page(request, 500, message, "internal-error")
    return JSONResponse({"error": message, "rule": "internal-error"}, status_code=500)
