"""Tournaments on Ray (``--ray``): the same summary as the process pool's, results appended as
games end, and a clear error when Ray is not installed."""

from __future__ import annotations

import json
import sys

import pytest

from trackage.bots.tournament import Setup, run


def test_ray_tournament_same_as_process_pool(tmp_path):
    ray = pytest.importorskip("ray", reason="Ray is in the test extras (pip install -e '.[test]')")
    setup = Setup("1893", ("random", "random"), 2, seed=3)
    pooled = run(setup, workers=2)
    out = tmp_path / "ray.jsonl"
    seen: list[int] = []
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = run(Setup("1893", ("random", "random"), 2, seed=3, out=str(out)),
                     on_game=lambda rec: seen.append(rec["game"]), ray="auto")
        assert ray.is_initialized()  # a Ray the caller started is left running
    finally:
        ray.shutdown()
    assert on_ray == pooled
    assert sorted(seen) == [0, 1]
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["game"] for r in recs) == [0, 1]
    assert all(r["title"] == "1893" and r["seating"] for r in recs)


def test_ray_missing_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    out = tmp_path / "r.jsonl"
    with pytest.raises(ValueError, match=r"Ray is not installed .*trackage\[cluster\]"):
        run(Setup("1893", ("random", "random"), 1, out=str(out)), ray="local")
    assert not out.exists()
