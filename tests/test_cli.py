"""The command line as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import FIXTURES, TRACES


def run(*args):
    return subprocess.run([sys.executable, "-m", "trackage", *args], capture_output=True, text=True)


def test_replay_with_trace_equals_reference(tmp_path):
    src = FIXTURES / "1825" / "1825_game_end_bank.json"
    ref = TRACES / "1825" / "1825_game_end_bank.jsonl"
    if not src.exists() or not ref.exists():
        pytest.skip(f"NO FIXTURES: {src} or {ref} is absent")
    out = tmp_path / "t.jsonl"
    r = run("replay", str(src), "--trace", str(out), "--strict")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["finished"] and summary["game_end_reason"] == "bank"
    assert summary["result"] == {"19143": 10513, "19192": 11604}
    assert out.read_text() == ref.read_text()


def test_new_show_and_playout(tmp_path):
    f = tmp_path / "new.json"
    r = run("new", "1825", "--players", "4", "--option", "unit_1", "--seed", "3", "--out", str(f))
    assert r.returncode == 0, r.stderr
    log = json.loads(f.read_text())
    assert log["title"] == "1825" and len(log["players"]) == 4 and log["actions"] == []
    r = run("show", str(f))
    assert r.returncode == 0, r.stderr
    assert "Players" in r.stdout and "Legal actions" in r.stdout and "par" in r.stdout

    p = tmp_path / "po.json"
    r = run("playout", "1825", "--players", "2", "--option", "unit_3", "--seed", "4", "--out", str(p))
    assert r.returncode == 0, r.stderr
    res = json.loads(r.stdout)
    assert res["finished"]
    r = run("replay", str(p))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["result"] == res["result"]
    r = run("show", str(p), "--at", "40")
    assert r.returncode == 0 and "Legal actions" in r.stdout


def test_bad_option_is_a_clear_error(tmp_path):
    r = run("new", "1825", "--players", "4", "--option", "unit_3", "--out", str(tmp_path / "x.json"))
    assert r.returncode == 2 and "error:" in r.stderr
