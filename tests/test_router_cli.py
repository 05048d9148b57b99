"""`trackage routes`: the exact auto-router on a logged state, from the command line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from conftest import FIXTURES

from trackage.cli import main
from trackage.router import logstates, optimal_routes

LOG = FIXTURES / "1867" / "hs_ahjzadkh_19792.json"  # small: 221 actions, 21 run_routes
AT = 240  # a run_routes of CA, two 2-trains

needs_log = pytest.mark.skipif(not LOG.exists(), reason=f"NO FIXTURES: {LOG} is absent (set TRACKAGE_FIXTURES)")


def state_before(action_id: int):
    return logstates.state_before(LOG, action_id)


def invoke(*args):
    return CliRunner().invoke(main, ["routes", str(LOG), *args])


@needs_log
def test_table_shows_routes_and_total():
    game, _ = state_before(AT)
    best = optimal_routes(game, game.current_entity())
    r = invoke("--at", str(AT))
    assert r.exit_code == 0, r.output
    assert "total" in r.output and str(best.revenue) in r.output
    assert "proven optimal" in r.output and "NOT proven" not in r.output
    for route in best.routes:
        assert route["train"] in r.output


@needs_log
def test_json_matches_the_library_and_is_accepted_by_process():
    r = invoke("--at", str(AT), "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    game, logged = state_before(AT)
    entity = game.current_entity()
    assert out["entity"] == entity.id == logged["entity"]
    assert out["revenue"] == optimal_routes(game, entity).revenue
    assert out["optimal"] is True
    assert out["revenue"] == sum(route["revenue"] for route in out["routes"])
    assert set(out["stats"]) >= {"candidates", "evaluated", "search_nodes", "leaves", "enumerate_s", "search_s"}
    # the routes are run_routes entries the engine takes live
    game.process({"type": "run_routes", **game.index.ref(entity), "routes": out["routes"]})


@needs_log
def test_bad_action_id_is_a_clear_error():
    r = invoke("--at", "999999")
    assert r.exit_code != 0
    assert "no live action with id 999999" in r.output
    assert isinstance(r.exception, SystemExit)  # a message, not a traceback


def test_missing_file_is_a_clear_error(tmp_path):
    r = CliRunner().invoke(main, ["routes", str(tmp_path / "nope.json")])
    assert r.exit_code != 0
    assert "cannot read" in r.output
    assert isinstance(r.exception, SystemExit)


@needs_log
def test_no_operating_company_is_a_clear_error():
    r = invoke()  # the end of the log: the game is over
    assert r.exit_code != 0
    assert "no company is operating there" in r.output
    assert isinstance(r.exception, SystemExit)
