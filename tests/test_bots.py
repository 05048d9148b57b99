"""Bots and tournaments: the random bot plays whole games, the same seed plays the same game,
tournaments resume where they stopped and give the same summary."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from trackage.bots import BOT_NAMES, Bot, make_bot, seat_actions
from trackage.bots.play import play_game
from trackage.bots.stats import summary, wilson
from trackage.bots.tournament import Setup, run
from trackage.export import game_to_log
from trackage.replay import replay_data
from trackage.titles import new_game

# (title, players, options, seed): a quick whole random game of each title
WHOLE_GAMES = [
    ("1893", 2, [], 1),
    ("1867", 2, [], 1),
    ("1861", 2, [], 1),
    ("1825", 2, ["unit_3"], 1),
    ("1858", 2, [], 1),
    ("1858India", 3, [], 1),
    ("1822", 2, ["plus_expansion"], 1),
]


def random_bots(n: int, seed: int) -> list:
    return [make_bot("random", seed * 100 + i) for i in range(n)]


@pytest.mark.parametrize(("title", "players", "options", "seed"), WHOLE_GAMES, ids=[g[0] for g in WHOLE_GAMES])
def test_random_bot_plays_a_whole_game(title, players, options, seed):
    game = play_game(title, options, seed, random_bots(players, seed))
    assert game.finished and game.game_end_reason
    assert sorted(game.result()) == [str(i + 1) for i in range(players)]


def test_bot_game_replays():
    """The game bots played is an 18xx.games log that replays to the same result."""
    game = play_game("1893", [], 4, random_bots(3, 4))
    rep = replay_data(json.loads(json.dumps(game_to_log(game))))
    assert rep.error is None and rep.finished and rep.result == game.result()


def test_same_seed_same_game():
    logs = [game_to_log(play_game("1893", [], 7, random_bots(3, 7)))["actions"] for _ in range(2)]
    assert logs[0] == logs[1]
    other = game_to_log(play_game("1893", [], 7, random_bots(3, 8)))["actions"]
    assert other != logs[0]


def test_bot_interface_and_registry():
    bot = make_bot("random", 3, budget=0.5)
    assert isinstance(bot, Bot) and bot.name == "random" and bot.budget == 0.5
    assert BOT_NAMES == ("random", "rule", "search")
    with pytest.raises(ValueError, match="unknown bot 'oracle'"):
        make_bot("oracle", 0)


def test_bot_answers_only_its_own_seat():
    game = new_game("1893", [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}], [], 2)
    bot = make_bot("random", 1)
    for _ in range(40):
        acting = next(i for i in range(2) if seat_actions(game, i))
        action = bot.choose(game, acting)
        assert action["id"] == len(game.actions) + 1
        game.process(action)


def test_wilson_interval_known_values():
    lo, hi = wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    lo, hi = wilson(81, 263)
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)


def test_summary_shares_ties_and_rates():
    recs = [{"game": 0, "seating": ["a", "b", "c"], "ranks": [1, 1, 3], "wins": [0.5, 0.5, 0.0],
             "margins": [0, 0, -10]},
            {"game": 1, "seating": ["b", "c", "a"], "ranks": [3, 1, 2], "wins": [0.0, 1.0, 0.0],
             "margins": [-5, 3, -3]}]
    out = summary("1893", recs)
    by = {b["bot"]: b for b in out["bots"]}
    assert [b["bot"] for b in out["bots"]] == ["a", "b", "c"]
    assert by["a"]["wins"] == 0.5 and by["a"]["mean_rank"] == 1.5 and by["a"]["mean_margin"] == -1.5
    assert by["c"]["win_share"] == 0.5 and by["c"]["seat_games"] == 2
    assert by["b"]["rating"] < by["a"]["rating"]


def test_seats_rotate():
    s = Setup("1893", ("a", "b", "c"), 3)
    assert [s.seating(g) for g in range(3)] == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
    assert s.game_seed(0) != s.game_seed(1) and s.game_seed(1) == Setup("1893", ("x",), 9).game_seed(1)


def cli(*args):
    return subprocess.run([sys.executable, "-m", "trackage", *args], capture_output=True, text=True)


def test_tournament_resumes(tmp_path):
    out = tmp_path / "results.jsonl"
    args = ["tournament", "1893", "--bots", "random,random", "--games", "2", "--seed", "5", "--out", str(out),
            "--workers", "1", "--json"]
    r = cli(*args)
    assert r.returncode == 0, r.stderr
    first = json.loads(r.stdout)
    lines = out.read_text().splitlines()
    assert len(lines) == 2
    recs = [json.loads(line) for line in lines]
    assert sorted(rec["game"] for rec in recs) == [0, 1]
    for rec in recs:
        log = json.loads(Path(rec["log"]).read_text())
        assert log["result"] == rec["result"] and log["status"] == "finished"
    assert first["title"] == "1893" and first["games"] == 2
    assert [b["bot"] for b in first["bots"]] == ["random"] and first["bots"][0]["seat_games"] == 4
    # a run stopped after its first game (and in the middle of writing the second line)
    out.write_text(lines[0] + "\n" + lines[1][:30])
    r = cli(*args)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == first
    again = out.read_text().splitlines()
    assert len(again) == 2 and again[0] == lines[0]
    assert {k: v for k, v in json.loads(again[1]).items() if k != "seconds"} == \
        {k: v for k, v in json.loads(lines[1]).items() if k != "seconds"}
    # nothing left to play: the file is read, not added to
    r = cli(*args)
    assert r.returncode == 0 and json.loads(r.stdout) == first and len(out.read_text().splitlines()) == 2
    # other arguments do not resume this file
    r = cli("tournament", "1893", "--bots", "random,random", "--games", "2", "--seed", "6", "--out", str(out),
            "--workers", "1")
    assert r.returncode == 2 and "other arguments" in r.stderr


def test_tournament_same_with_workers():
    s = Setup("1893", ("random", "random"), 2, seed=3)
    assert run(s, workers=1) == run(s, workers=2)


def test_tournament_table():
    r = cli("tournament", "1893", "--bots", "random,random", "--games", "1", "--workers", "1")
    assert r.returncode == 0, r.stderr
    assert "win share" in r.stdout and "random" in r.stdout


def test_tournament_unknown_bot():
    r = cli("tournament", "1893", "--bots", "random,nobody", "--games", "1", "--workers", "1")
    assert r.returncode == 2 and "unknown bot 'nobody'" in r.stderr
