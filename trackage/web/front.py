"""The workers' front: ``trackage serve --workers N`` runs N app processes, each on its own
loopback socket, and this proxy on the server's address, which sends each connection to the
worker that owns the game its first request names (``/games/{id}...``, ``/api/games/{id}...``:
worker ``id % N``), and any other connection to the workers in turn.

So one game's actions are applied by one worker, which never has to catch up with the
others' (a game's catch-up costs the engine's work again in every worker that serves it:
with new connections spread over 4 workers, 2.4 times the CPU per action, measured). Routing
is an optimisation, not what keeps the games right: a keep-alive connection stays on the worker
its first request chose, and a worker still catches up with whatever another one stored.

The proxy reads one request head, then copies bytes both ways until either side closes (so
event streams and keep-alive pass through unchanged).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator, Mapping

log = logging.getLogger("trackage.web")

GAME_PATH = re.compile(rb"^/(?:api/)?games/(\d+)(?:[/?#]|$)")
HEAD_LIMIT = 64 * 1024   # the longest request head the front reads
CHUNK = 64 * 1024


def owner(target: bytes, workers: int) -> int | None:
    """The worker (0..workers-1) owning the game a request target names; None: it names none."""
    m = GAME_PATH.match(target)
    return None if m is None else int(m.group(1)) % workers


def refusal(status: str, message: str, rule: str) -> bytes:
    """A whole HTTP response the front answers with itself (JSON like the app's errors)."""
    body = json.dumps({"error": message, "rule": rule}).encode()
    return (f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
            f"connection: close\r\n\r\n").encode() + body


async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
    """Copy ``src`` to ``dst`` until ``src`` ends, then end ``dst``'s writing side."""
    try:
        while chunk := await src.read(CHUNK):
            dst.write(chunk)
            await dst.drain()
        if dst.can_write_eof():
            dst.write_eof()
    except (ConnectionError, OSError):
        dst.close()


class Front:
    """The proxy over the workers listening on ``ports`` (loopback)."""

    def __init__(self, ports: list[int]) -> None:
        if not ports:
            raise ValueError("the front needs at least one worker")
        self.ports = ports
        self._turns: Iterator[int] = itertools.cycle(range(len(ports)))

    def worker_for(self, target: bytes) -> int:
        """The worker a request for ``target`` goes to: its game's owner, or the next in turn."""
        k = owner(target, len(self.ports))
        return next(self._turns) if k is None else k

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.LimitOverrunError:
            writer.write(refusal("431 Request Header Fields Too Large",
                                 f"the request head is longer than {HEAD_LIMIT} bytes", "head-too-long"))
            await self._close(writer)
            return
        except (asyncio.IncompleteReadError, ConnectionError):
            await self._close(writer)
            return
        parts = head.split(b" ", 2)
        k = self.worker_for(parts[1] if len(parts) > 1 else b"/")
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.ports[k], limit=HEAD_LIMIT)
        except OSError as e:
            writer.write(refusal("502 Bad Gateway", f"worker {k} (port {self.ports[k]}) is not answering: {e}",
                                 "worker-down"))
            await self._close(writer)
            return
        up_writer.write(head)
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        await self._close(up_writer)
        await self._close(writer)

    @staticmethod
    async def _close(writer: asyncio.StreamWriter) -> None:
        writer.close()
        with contextlib.suppress(ConnectionError, OSError):
            await writer.wait_closed()

    async def start(self, host: str, port: int) -> asyncio.Server:
        return await asyncio.start_server(self.handle, host, port, limit=HEAD_LIMIT, reuse_address=True)


def loopback_socket() -> socket.socket:
    """A listening socket on a free loopback port (handed to a worker, which accepts on it)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    s.listen(512)
    return s


Workers = list[subprocess.Popen[bytes]]


def start_workers(count: int, env: Mapping[str, str], log_level: str) -> tuple[list[int], Workers]:
    """``count`` app processes (uvicorn, the app from ``env``: see ``app_from_env``), each on
    a loopback socket made here (so the front may connect before they are up: the connection
    waits in the socket's queue); their ports and processes."""
    ports: list[int] = []
    procs: Workers = []
    for _ in range(count):
        s = loopback_socket()
        ports.append(s.getsockname()[1])
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "--factory", "trackage.web.app:app_from_env",
             "--fd", str(s.fileno()), "--log-level", log_level],
            env={**os.environ, **env}, pass_fds=(s.fileno(),)))
        s.close()  # the worker holds it now
    return ports, procs


def stop_workers(procs: Workers) -> None:
    for p in procs:
        if p.poll() is None:
            p.terminate()
    for p in procs:
        try:
            p.wait(15)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(5)


async def serve_front(host: str, port: int, ports: list[int], procs: Workers) -> int:
    """Run the front until SIGTERM/SIGINT, or until a worker exits (then 1: whoever runs the
    server restarts it whole)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    server = await Front(ports).start(host, port)
    code = 0
    async with server:
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 1.0)
            gone = [i for i, p in enumerate(procs) if p.poll() is not None]
            if gone and not stop.is_set():
                log.error("worker %s exited (code %s): stopping the server", gone[0], procs[gone[0]].returncode)
                code = 1
                break
    return code


def run(host: str, port: int, workers: int, env: Mapping[str, str], log_level: str) -> int:
    """``trackage serve --workers N``: the workers and the front, until stopped."""
    ports, procs = start_workers(workers, env, log_level)
    try:
        return asyncio.run(serve_front(host, port, ports, procs))
    finally:
        stop_workers(procs)
