"""The workers' front (``trackage serve --workers N``): which worker owns a request, and the
proxy sending one game's connections to one worker (two stand-in workers that say who they are)."""

from __future__ import annotations

import asyncio

from trackage.web.front import Front, owner


def test_a_game_request_belongs_to_the_game_ids_worker():
    assert owner(b"/api/games/7/actions", 4) == 3
    assert owner(b"/api/games/7", 4) == 3
    assert owner(b"/games/12", 4) == 0
    assert owner(b"/games/13?seat=x", 4) == 1
    assert owner(b"/games/13/history", 2) == 1
    for target in (b"/api/games", b"/api/games/import", b"/games/7x", b"/", b"/static/app.js", b"/healthz"):
        assert owner(target, 4) is None, target


async def stand_in(name: str) -> asyncio.Server:
    """A worker that answers any request with its name (and closes)."""
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        body = name.encode()
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-length: %d\r\nconnection: close\r\n\r\n%s" % (len(body), body))
        await writer.drain()
        writer.close()
    return await asyncio.start_server(answer, "127.0.0.1", 0)


async def get(port: int, target: str) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {target} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n".encode())
    await writer.drain()
    reply = await reader.read()
    writer.close()
    return reply.rpartition(b"\r\n\r\n")[2]


def test_the_front_sends_each_game_to_its_worker_and_the_rest_in_turn():
    async def scenario() -> None:
        workers = [await stand_in("w0"), await stand_in("w1")]
        ports = [w.sockets[0].getsockname()[1] for w in workers]
        front = await Front(ports).start("127.0.0.1", 0)
        port = front.sockets[0].getsockname()[1]
        try:
            for _ in range(3):  # every connection of a game, every time: its worker
                assert await get(port, "/api/games/5/actions") == b"w1"
                assert await get(port, "/games/8") == b"w0"
            assert {await get(port, "/api/games"), await get(port, "/api/games")} == {b"w0", b"w1"}
        finally:
            front.close()
            for w in workers:
                w.close()

    asyncio.run(scenario())


def test_the_front_says_which_worker_is_down():
    async def scenario() -> None:
        gone = await stand_in("gone")
        dead = gone.sockets[0].getsockname()[1]
        gone.close()
        await gone.wait_closed()
        front = await Front([dead]).start("127.0.0.1", 0)
        port = front.sockets[0].getsockname()[1]
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /api/games/1 HTTP/1.1\r\nhost: x\r\n\r\n")
            reply = await reader.read()
            writer.close()
            assert reply.startswith(b"HTTP/1.1 502") and b"worker-down" in reply and b"worker 0" in reply
        finally:
            front.close()

    asyncio.run(scenario())
