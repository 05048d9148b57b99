"""`trackage review`: every logged run against the exact router's best for the same state."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import FIXTURES

from trackage.cli import main
from trackage.core.log import load_log
from trackage.replay import replay_data
from trackage.review import NO_PRESIDENT, Review, by_company, by_player, review, totals

LOG = FIXTURES / "1893" / "1893_game_end_bank.json"  # small: 62 runs, about a second

needs_log = pytest.mark.skipif(not LOG.exists(), reason=f"NO FIXTURES: {LOG} is absent (set TRACKAGE_FIXTURES)")

RUN_FIELDS = {"action", "round", "corporation", "president", "logged", "best", "left", "proven", "confirmed"}


@pytest.fixture(scope="module")
def reviewed() -> Review:
    return review(LOG)


@needs_log
def test_every_run_is_reviewed_and_the_best_is_never_below_the_logged(reviewed: Review) -> None:
    data = load_log(LOG)
    ids = [a["id"] for a in data["actions"] if a.get("type") == "run_routes"]
    runs = reviewed["runs"]
    assert [r["action"] for r in runs] == ids  # this log has no undo of a run
    for r in runs:
        assert r["proven"], r
        assert r["best"] is not None and r["best"] >= r["logged"], r
        assert r["left"] == r["best"] - r["logged"]
        assert r["round"].startswith("OR ")
    assert reviewed["problems"] == []


@needs_log
def test_logged_figures_are_the_journals_runs(reviewed: Review) -> None:
    """The logged revenue of each run is the sum of the run events at its action, in a replay
    without the router (which shows too that asking the router changed nothing)."""
    out = replay_data(load_log(LOG))
    assert out.matches
    assert out.game is not None
    want: dict[int, int] = {}
    corp: dict[int, str] = {}
    for e in out.game.journal.of_kind("run"):
        want[e.action] = want.get(e.action, 0) + e["revenue"]
        corp[e.action] = e["corporation"]
    got = {r["action"]: r["logged"] for r in reviewed["runs"] if r["logged"] or r["action"] in want}
    assert got == want
    for r in reviewed["runs"]:
        if r["action"] in corp:
            assert r["corporation"] == corp[r["action"]]


@needs_log
def test_sums_add_up(reviewed: Review) -> None:
    runs = reviewed["runs"]
    total = reviewed["total"]
    assert total == totals(runs)
    assert total["runs"] == len(runs)
    assert total["logged"] == sum(r["logged"] for r in runs)
    assert total["left"] == sum(r["left"] for r in runs)
    for groups in (reviewed["by_company"], reviewed["by_player"]):
        for key in ("runs", "improved", "unproven", "logged", "best", "left"):
            assert sum(g[key] for g in groups.values()) == total[key], key
    assert reviewed["by_company"] == by_company(runs)
    for name, g in reviewed["by_company"].items():
        mine = [r for r in runs if r["corporation"] == name]
        assert g["runs"] == len(mine)
        assert g["left"] == sum(r["left"] for r in mine)
        assert g["logged"] == sum(r["logged"] for r in mine)
    players = {p["name"] for p in load_log(LOG)["players"]} | {NO_PRESIDENT}
    assert set(reviewed["by_player"]) <= players
    assert reviewed["by_player"] == by_player(runs)


def test_sums_of_made_up_runs() -> None:
    """Per company and per president, with a run left short, an unproven run and a company
    without a president."""
    def run(action: int, corp: str, pres: str | None, logged: int, best: int | None, proven: bool = True) -> Any:
        left = max(0, best - logged) if best is not None else 0
        return {"action": action, "round": "OR 1.1", "corporation": corp, "president": pres, "logged": logged,
                "best": best, "left": left, "proven": proven, "confirmed": True, "note": None}

    runs = [run(1, "A", "Ann", 100, 120), run(2, "B", "Ann", 50, 50), run(3, "A", None, 80, 90, False),
            run(4, "B", "Bob", 40, None, False)]
    assert by_company(runs) == {
        "A": {"runs": 2, "improved": 2, "unproven": 1, "logged": 180, "best": 210, "left": 30},
        "B": {"runs": 2, "improved": 0, "unproven": 1, "logged": 90, "best": 90, "left": 0}}
    assert by_player(runs) == {
        "Ann": {"runs": 2, "improved": 1, "unproven": 0, "logged": 150, "best": 170, "left": 20},
        NO_PRESIDENT: {"runs": 1, "improved": 1, "unproven": 1, "logged": 80, "best": 90, "left": 10},
        "Bob": {"runs": 1, "improved": 0, "unproven": 1, "logged": 40, "best": 40, "left": 0}}
    assert totals(runs)["left"] == 30


@needs_log
def test_command_prints_json(reviewed: Review) -> None:
    r = CliRunner().invoke(main, ["review", str(LOG), "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert {"runs", "by_company", "by_player", "total"} <= set(out)
    assert out["runs"] and all(set(run) >= RUN_FIELDS for run in out["runs"])
    assert out["runs"] == reviewed["runs"]
    assert out["by_company"] == reviewed["by_company"]
    assert out["by_player"] == reviewed["by_player"]


@needs_log
def test_command_prints_tables() -> None:
    r = CliRunner().invoke(main, ["review", str(LOG)])
    assert r.exit_code == 0, r.output
    assert "Per company" in r.output and "Per president" in r.output
    assert "62 runs" in r.output


@pytest.mark.parametrize("content", [None, "not json", '{"title": "1893"}'])
def test_bad_file_is_a_clear_error(tmp_path: Any, content: str | None) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    r = CliRunner().invoke(main, ["review", str(path), "--json"])
    assert r.exit_code == 2, r.output
    assert isinstance(r.exception, SystemExit)
    assert "error:" in r.output and "Traceback" not in r.output


LOG_1822 = FIXTURES / "1822" / "1822_game_end_stock_market.json"


needs_1822 = pytest.mark.skipif(not LOG_1822.exists(),
                                reason=f"NO FIXTURES: {LOG_1822} is absent (set TRACKAGE_FIXTURES)")


@needs_1822
def test_a_best_below_the_logged_is_reported_with_its_cause() -> None:
    """In this 1822 log (played in April 2025) the game took three logged revenues that the
    rules of today do not give the logged routes: two E-train routes that do not start and end
    at tokened cities (a rule of October 2025) and a destination bonus counted twice. The
    router's best is below them: the review lists them as unconfirmed, with the replay's
    warning, never as revenue left (negative) nor as a router problem; every run is proven."""
    out = review(LOG_1822)
    below = [r for r in out["runs"] if r["best"] is not None and r["best"] < r["logged"]]
    assert {r["action"] for r in below} == {1319, 1404, 1499}
    for r in below:
        assert r["left"] == 0 and not r["confirmed"] and r["proven"], r
        assert r["note"] is not None and "not confirmed by our rules" in r["note"], r
    assert {int(p.split()[1]) for p in out["unconfirmed"]} == {1319, 1404, 1499}
    assert out["problems"] == []
    assert all(r["left"] >= 0 and r["proven"] for r in out["runs"])


@needs_1822
@pytest.mark.parametrize(("action", "revenues", "error"), [
    (1319, None, "E-train route must start and end at tokened cities"),
    (1404, [780, 310, 160], None),  # the log says 340 for the 5+: the destination bonus twice
    (1499, None, "E-train route must start and end at tokened cities"),
])
def test_the_unconfirmed_runs_are_judged_as_the_reference_judges_them(
        action: int, revenues: list[int] | None, error: str | None) -> None:
    """The reference of today, asked to compute these logged routes afresh, rejects the same
    E-train routes and gives the 5+ train 310 (it replays the log only because it keeps a
    log's stored revenue); ours agree, and the router's proven best is at least what the
    logged routes are worth under the rules (1404: 1,250)."""
    from trackage.core.errors import GameError
    from trackage.review import review_limit
    from trackage.router import logstates, optimal_routes

    game, logged = logstates.state_before(LOG_1822, action)
    entity = game.index.resolve(logged)
    trains = {t.id: t for t in game.route_trains(entity)}
    if error is not None:
        with pytest.raises(GameError, match=error):
            game.compute_route_revenues(entity, logged["routes"], trains)
    else:
        assert game.compute_route_revenues(entity, logged["routes"], trains) == revenues
    best = optimal_routes(game, entity, work_limit=review_limit(game))
    assert best.optimal
    assert revenues is None or best.revenue >= sum(revenues)
