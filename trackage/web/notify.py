"""Live-update wake-ups: a game's SSE streams wait here for its next stored action.

``Changes`` is the app's board of waiters: ``publish(gid)`` wakes every stream of the game
in this process (the service publishes after each action it stores). On PostgreSQL, a
``PgListener`` thread LISTENs on the app's channel, which ``Storage.append_action`` NOTIFYs
in the action's transaction, and publishes what other processes (workers) stored. On SQLite
only the in-process path runs; the streams also poll the database every interval, which
catches what another process stored without a wake-up.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

log = logging.getLogger("trackage.web")

DEFAULT_CHANNEL = "trackage_actions"


class Subscription:
    """One stream's wake-up for one game (``wait`` returns when the game changed, or after
    ``timeout``)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.event = asyncio.Event()

    def wake(self) -> None:
        self.loop.call_soon_threadsafe(self.event.set)

    async def wait(self, timeout: float) -> bool:
        """Whether a change woke it (False: the timeout passed)."""
        try:
            await asyncio.wait_for(self.event.wait(), timeout)
        except TimeoutError:
            return False
        self.event.clear()
        return True


class Changes:
    """The app's live-update waiters by game id (any thread may publish)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: dict[int, set[Subscription]] = {}

    @contextmanager
    def subscribe(self, gid: int) -> Iterator[Subscription]:
        """A subscription to the game's changes for the block (taken before the stream reads
        the action count, so that no change falls between)."""
        sub = Subscription(asyncio.get_running_loop())
        with self._lock:
            self._subs.setdefault(gid, set()).add(sub)
        try:
            yield sub
        finally:
            with self._lock:
                subs = self._subs.get(gid)
                if subs is not None:
                    subs.discard(sub)
                    if not subs:
                        del self._subs[gid]

    def publish(self, gid: int) -> None:
        with self._lock:
            subs = list(self._subs.get(gid, ()))
        for s in subs:
            s.wake()

    def waiting(self, gid: int) -> int:
        """How many streams wait on the game here."""
        with self._lock:
            return len(self._subs.get(gid, ()))


def psycopg_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL as psycopg's conninfo."""
    for prefix in ("postgresql+psycopg://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix):]
    return url


class PgListener:
    """A thread LISTENing on ``channel`` of the database ``url``: each notification's payload
    (a game id) is published to ``changes``. Reconnects after a lost connection; ``stop``
    ends it within a quarter of a second."""

    def __init__(self, url: str, channel: str, changes: Changes) -> None:
        self.url = psycopg_url(url)
        self.channel = channel
        self.changes = changes
        self.ready = threading.Event()   # set once LISTEN runs
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"trackage-listen-{channel}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        import psycopg
        from psycopg import sql

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
                    self.ready.set()
                    while not self._stop.is_set():
                        for n in conn.notifies(timeout=0.25):
                            self._deliver(n.payload)
            except psycopg.Error as e:
                log.warning("live updates: the LISTEN connection failed (%s); retrying in 1 s", e)
                self._stop.wait(1.0)

    def _deliver(self, payload: str) -> None:
        try:
            gid = int(payload)
        except ValueError:
            return
        self.changes.publish(gid)
