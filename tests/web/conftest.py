"""Web app test fixtures: databases (SQLite always, PostgreSQL when TRACKAGE_TEST_PG names a
server) and app clients."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="NO WEB DEPENDENCIES: pip install -e '.[test]'")

from .webkit import NO_PG, PG, pg_database, pg_drop


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'trackage.db'}"
        return
    if not PG:
        pytest.skip(NO_PG)
    url = pg_database()
    yield url
    pg_drop(url)


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'trackage.db'}"


@pytest.fixture
def client(db_url):
    from fastapi.testclient import TestClient

    from trackage.web.app import create_app

    app = create_app(db_url)
    with TestClient(app) as c:
        c.db_url = db_url
        yield c
    app.state.storage.close()


