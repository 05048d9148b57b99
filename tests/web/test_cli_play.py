"""The terminal: `trackage act` for scripts, `trackage play` hotseat, `trackage replay` of many logs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .webkit import FIXTURES, REPO, fixture


def run(*args, input=None):
    return subprocess.run([sys.executable, "-m", "trackage", *args], capture_output=True, text=True, input=input,
                          cwd=REPO)


def test_act_saves_refuses_and_undoes(tmp_path):
    f = tmp_path / "g.json"
    assert run("new", "1867", "--players", "3", "--seed", "5", "--out", str(f)).returncode == 0
    # the first legal action, from the library
    from trackage.replay import replay_file

    g = replay_file(f).game
    a = next(x for x in g.legal_actions() if x["type"] == "pass")
    r = run("act", str(f), json.dumps(a))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["action_count"] == 1 and not out["finished"]
    log = json.loads(f.read_text())
    assert [x["type"] for x in log["actions"]] == ["pass"] and log["actions"][0]["id"] == 1
    # refused: exit 2, {error, rule}, the file unchanged
    before = f.read_text()
    r = run("act", str(f), json.dumps({**a, "entity": 99}))
    assert r.returncode == 2 and "rule" in json.loads(r.stderr)
    r = run("act", str(f), "{oops")
    assert r.returncode == 2 and json.loads(r.stderr)["rule"] == "malformed-json"
    assert f.read_text() == before
    r = run("act", str(f), "undo")
    assert r.returncode == 0, r.stderr
    log = json.loads(f.read_text())
    assert [x["type"] for x in log["actions"]] == ["pass", "undo"]
    assert run("replay", str(f)).returncode in (0, 1)  # loads (an unfinished game: 1)


def test_play_hotseat_in_the_terminal(tmp_path):
    f = tmp_path / "p.json"
    r = run("play", str(f), "--title", "1825", "--players", "3", "--option", "unit_1", "--seed", "2",
            input="0\nshow\n0\nundo\nbogus\n99999\nquit\n")
    assert r.returncode == 0, r.stderr
    assert "Legal actions" in r.stdout or "Pass" in r.stdout
    assert "not understood" in r.stdout
    log = json.loads(f.read_text())
    assert [x["type"] for x in log["actions"]][-1] == "undo" and len(log["actions"]) == 3


def test_replay_several_files_prints_a_table():
    a = fixture("1867", "hs_ahjzadkh_19792.json")
    folder = FIXTURES / "1893"
    r = run("replay", str(a), str(folder))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "hs_ahjzadkh_19792.json" in r.stdout and "replayed to their result" in r.stdout
    n = 1 + len(list(Path(folder).rglob("*.json")))
    assert f"{n} of {n} replayed" in r.stdout


def test_play_with_bot_seats(tmp_path):
    f = tmp_path / "b.json"
    r = run("play", str(f), "--title", "1893", "--players", "4", "--seed", "3", "--bot", "2=rule", "--bot", "3=rule",
            "--bot", "4=random", input="0\n0\nquit\n")
    assert r.returncode == 0, r.stderr
    assert "🤖 rule (Player 2) Player 2: " in r.stdout and "🤖 random (Player 4)" in r.stdout
    log = json.loads(f.read_text())
    ids = [a["id"] for a in log["actions"]]
    assert ids == list(range(1, len(ids) + 1)) and len(ids) > 2  # two human moves, the bots' after each
    assert {a["entity"] for a in log["actions"]} >= {1, 2, 3, 4}
    assert run("replay", str(f)).returncode in (0, 1)
    assert "1-based" in run("play", "--help").stdout
    r = run("play", str(f), "--bot", "9=rule", input="quit\n")
    assert r.returncode == 2 and "seat is a number from 1 to 4" in r.stderr
