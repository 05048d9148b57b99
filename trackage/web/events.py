"""Live updates: a game's action count as server-sent events."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import StreamingResponse

from .deps import ServiceDep, StorageDep
from .jsonbody import game_id

router = APIRouter()


@router.get("/api/games/{gid}/events")
async def api_events(gid: str, request: Request, service: ServiceDep, storage: StorageDep,
                     once: int = 0) -> StreamingResponse:
    g = game_id(gid)  # here, not a dependency: a bad ``once`` is answered first, as FastAPI answers it
    await run_in_threadpool(service.meta, g)
    interval: float = request.app.state.sse_interval

    async def stream() -> AsyncIterator[str]:
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
            await asyncio.sleep(interval)
    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
