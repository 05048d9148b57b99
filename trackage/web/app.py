"""The web server: ``create_app(db_url)`` builds the FastAPI application from the routers
(the JSON API, live updates, the pages); ``trackage serve`` runs it on uvicorn."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..clock import clock_time
from ..titles import DISPLAY_NAMES
from . import api, errorpages, events, pages
from .gamehooks import GameHooks
from .notify import DEFAULT_CHANNEL, Changes, PgListener
from .service import GameService, Illegal, ServiceError
from .storage import DEFAULT_DB, Storage
from .webhooks import WebhookSettings

HERE = Path(__file__).parent
DEFAULT_CACHE_SIZE = 32  # live games per process


def create_app(db_url: str | None = None, *, sse_interval: float = 1.0,
               webhooks: WebhookSettings | None = None, cache_size: int = DEFAULT_CACHE_SIZE,
               channel: str = DEFAULT_CHANNEL) -> FastAPI:
    """The app on the database ``db_url``; ``webhooks``: the operator's webhook settings
    (default: public addresses only, retries after 1, 4 and 16 s); ``cache_size``: the live
    games kept in memory (least recently used dropped); ``channel``: on PostgreSQL, the
    LISTEN/NOTIFY channel the app's processes tell each other of stored actions on. Its
    webhook worker and listener stop when the app shuts down."""
    db_url = db_url or os.environ.get("TRACKAGE_DB") or DEFAULT_DB
    storage = Storage(db_url, channel=channel)
    hooks = GameHooks(storage, webhooks or WebhookSettings())
    changes = Changes()
    listener = PgListener(db_url, channel, changes) if storage.is_postgresql else None

    service = GameService(storage, cache_size=cache_size, hooks=hooks, changes=changes)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if listener is not None:
            listener.start()
        yield
        if listener is not None:
            listener.stop()
        hooks.deliverer.stop()
        service.bots.stop()

    app = FastAPI(title="trackage", docs_url="/api/docs", openapi_url="/api/openapi.json", lifespan=lifespan)
    app.state.storage = storage
    app.state.service = service
    app.state.changes = changes
    app.state.listener = listener
    app.state.webhook_settings = hooks.settings
    app.state.sse_interval = sse_interval
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.filters["clock_time"] = clock_time
    templates.env.globals.update(TITLE_NAMES=dict(DISPLAY_NAMES))
    app.state.templates = templates
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.add_exception_handler(ServiceError, errorpages.service_error)
    app.add_exception_handler(RequestValidationError, errorpages.validation_error)
    app.add_exception_handler(StarletteHTTPException, errorpages.http_error)
    app.add_exception_handler(Exception, errorpages.server_error)
    app.include_router(api.router)
    app.include_router(events.router)
    app.include_router(pages.router)
    return app


def app_from_env() -> FastAPI:
    """For ``uvicorn --factory trackage.web.app:app_from_env`` (each of ``trackage serve
    --workers N``'s workers): the settings from the environment (:func:`env_settings`)."""
    from ..heapsettle import settle_heap
    from ..titles import TITLES

    app = create_app(os.environ.get("TRACKAGE_DB"), **env_settings(os.environ))
    settle_heap(TITLES)  # the catalogues loaded and kept out of full collections
    return app


def env_settings(env: Mapping[str, str]) -> dict[str, Any]:
    """``create_app``'s settings from environment variables: TRACKAGE_CACHE_SIZE,
    TRACKAGE_CHANNEL, TRACKAGE_ALLOW_PRIVATE_WEBHOOKS (1) and TRACKAGE_PUBLIC_URL."""
    out: dict[str, Any] = {"webhooks": WebhookSettings(
        allow_private=env.get("TRACKAGE_ALLOW_PRIVATE_WEBHOOKS") == "1",
        public_url=env.get("TRACKAGE_PUBLIC_URL") or None)}
    if env.get("TRACKAGE_CACHE_SIZE"):
        out["cache_size"] = int(env["TRACKAGE_CACHE_SIZE"])
    if env.get("TRACKAGE_CHANNEL"):
        out["channel"] = env["TRACKAGE_CHANNEL"]
    return out


__all__ = ["Illegal", "app_from_env", "create_app"]
