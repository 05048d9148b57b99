"""Live updates: a game's action count as server-sent events.

A stream sends the count when it changes: woken by the app's ``Changes`` (an action this
process stored, or on PostgreSQL one another worker NOTIFYed), and checking the database at
least every ``sse_interval`` seconds (a keep-alive comment when nothing changed).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse

from .deps import ServiceDep, StorageDep
from .jsonbody import game_id
from .notify import Changes

router = APIRouter()


@router.get("/api/games/{gid}/events")
async def api_events(gid: str, request: Request, service: ServiceDep, storage: StorageDep,
                     once: int = 0, since: int | None = None) -> StreamingResponse:
    """``since``: the action count the client has (the first event waits for another);
    ``once``: end after the first event."""
    g = game_id(gid)  # here, not a dependency: a bad ``once`` is answered first, as FastAPI answers it
    await run_in_threadpool(service.meta, g)
    interval: float = request.app.state.sse_interval
    changes: Changes = request.app.state.changes

    async def stream() -> AsyncIterator[str]:
        last = since
        with changes.subscribe(g) as sub:
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
                await sub.wait(interval)
    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
