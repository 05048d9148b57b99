"""Web app test helpers: fixture logs, PostgreSQL databases, server processes, actions."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("TRACKAGE_SHARED", REPO.parent / "shared"))
FIXTURES = Path(os.environ.get("TRACKAGE_FIXTURES", SHARED / "fixtures"))
ARTIFACTS = Path(os.environ.get("TRACKAGE_ARTIFACTS", REPO / "test-artifacts"))
PG = os.environ.get("TRACKAGE_TEST_PG")
NO_PG = "NO POSTGRESQL: set TRACKAGE_TEST_PG to a server URL (bash .ci/run starts one)"

def fixture(title: str, name: str) -> Path:
    p = FIXTURES / title / name
    if not p.exists():
        pytest.skip(f"NO FIXTURES: {p} is absent (set TRACKAGE_FIXTURES)")
    return p


def pg_database() -> str:
    """A fresh, empty database on the test PostgreSQL server; its URL."""
    import psycopg

    name = "trackage_" + uuid.uuid4().hex[:12]
    with psycopg.connect(PG, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base, _, _ = PG.rpartition("/")
    return f"{base}/{name}"


def pg_drop(url: str) -> None:
    import psycopg

    name = url.rpartition("/")[2]
    with psycopg.connect(PG, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Server:
    """``trackage serve`` in a subprocess on a free port (``extra``: more options, e.g.
    ``--workers 2``; stopped by ``stop``)."""

    def __init__(self, db_url: str, log_path: Path, *extra: str):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.log = open(log_path, "w")  # noqa: SIM115 - the server writes to it until stop()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "trackage", "serve", "--port", str(self.port), "--db", db_url,
             "--log-level", "warning", *extra], cwd=REPO, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        import httpx

        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {log_path.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("server did not start")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.log.close()


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def first_of(actions: list, *types):
    for t in types:
        for a in actions:
            if a["type"] == t:
                return dict(a)
    return None


def playable(action: dict) -> dict:
    a = dict(action)
    rng = a.pop("price_range", None)
    a.pop("price_step", None)
    a.pop("canonical_prices", None)
    if rng:
        a["price"] = rng[0]
    return a
