"""The web server: ``create_app(db_url)`` builds the FastAPI application from the routers
(the JSON API, live updates, the pages); ``trackage serve`` runs it on uvicorn."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..clock import clock_time
from ..titles import DISPLAY_NAMES
from . import api, errorpages, events, pages
from .gamehooks import GameHooks
from .service import GameService, Illegal, ServiceError
from .storage import DEFAULT_DB, Storage
from .webhooks import WebhookSettings

HERE = Path(__file__).parent


def create_app(db_url: str | None = None, *, sse_interval: float = 1.0,
               webhooks: WebhookSettings | None = None) -> FastAPI:
    """The app on the database ``db_url``; ``webhooks``: the operator's webhook settings
    (default: public addresses only, retries after 1, 4 and 16 s). Its webhook worker
    stops when the app shuts down."""
    db_url = db_url or os.environ.get("TRACKAGE_DB") or DEFAULT_DB
    storage = Storage(db_url)
    hooks = GameHooks(storage, webhooks or WebhookSettings())

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        hooks.deliverer.stop()

    app = FastAPI(title="trackage", docs_url="/api/docs", openapi_url="/api/openapi.json", lifespan=lifespan)
    app.state.storage = storage
    app.state.service = GameService(storage, hooks=hooks)
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
    """For ``uvicorn --factory trackage.web.app:app_from_env`` (reads TRACKAGE_DB)."""
    return create_app(os.environ.get("TRACKAGE_DB"))


__all__ = ["Illegal", "app_from_env", "create_app"]
