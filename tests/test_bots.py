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


def _stand_in_game(listed_by: dict[str, object], in_charge: object, played: int):
    """A stand-in game: players p0..p3 seated in order, each listed action names its entity."""
    from types import SimpleNamespace

    seats = [SimpleNamespace(is_player=True, name=f"p{i}") for i in range(4)]
    by_name = {f"p{i}": p for i, p in enumerate(seats)}
    index = SimpleNamespace(resolve=lambda a: by_name[a["entity"]])
    game = SimpleNamespace(seats=seats, index=index, actions=[None] * played,
                           current_entity=lambda: by_name[str(in_charge)])
    return game, [{"type": "buy_company", "entity": e} for e in listed_by]


def test_seats_beside_the_one_in_charge_are_asked_in_turn():
    """1893 game 36 of the rule-vs-random sample (seed 0) never ended: RAG had to buy a train it
    and its president could not pay for (nor go bankrupt: his city bonds count), so only EVA
    purchases were listed; the same other seat was always asked and the two traded EVA back and
    forth for ever. Now every seat that may act beside the one in charge gets its turn."""
    from trackage.bots import acting_seat

    listed = {"p3": 1, "p1": 1, "p2": 1}
    asked = set()
    for played in range(6):
        game, actions = _stand_in_game(listed, "p0", played)
        asked.add(acting_seat(game, actions))
    assert asked == {1, 2, 3}
    game, actions = _stand_in_game({"p0": 1, "p2": 1}, "p0", 5)
    assert acting_seat(game, actions) == 0  # the seat in charge moves when it may


def test_a_stalled_game_is_stopped(monkeypatch):
    """Bots answering each other without end stop the game as stuck instead of hanging."""
    import trackage.bots.play as play
    from trackage.core.errors import GameError

    monkeypatch.setattr(play, "STALL_LIMIT", 50)
    game = new_game("1893", [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}], [], 2)
    entity = object.__new__(type("Stuck", (), {"name": "X"}))
    fake = type("Fake", (), {"finished": False, "round": game.round, "actions": [],
                             "current_entity": lambda self: entity,
                             "legal_actions": lambda self: [{"type": "pass"}],
                             "process": lambda self, a: self.actions.append(a)})()
    monkeypatch.setattr(play, "new_game", lambda *a: fake)
    monkeypatch.setattr(play, "acting_seat", lambda g, a: 0)
    bot = type("Passer", (), {"name": "p", "choose": lambda self, g, s: {"type": "pass"}})()
    with pytest.raises(GameError, match="50 actions"):
        play.play_game("1893", [], 0, [bot, bot])


def test_1893_game_36_of_the_sample_ends():
    """The game that never ended (see above) now ends."""
    setup = Setup("1893", ("rule", "random", "random", "random"), 37, 0)
    seed = setup.game_seed(36)
    from trackage.bots.play import derive_seed

    players = [make_bot(n, derive_seed("bot", seed, s)) for s, n in enumerate(setup.seating(36))]
    game = play_game("1893", [], seed, players)
    assert game.finished and len(game.actions) < 5000


def _boom_factory(setup: Setup, failing: set[int]):
    """``make_bot`` in which the bot of seat 0 raises on its first move in the games ``failing``."""
    from trackage.bots.base import BotBase
    from trackage.bots.play import derive_seed
    from trackage.bots.random_bot import RandomBot

    class Boom(BotBase):
        name = "random"

        def choose(self, game, seat):
            raise RuntimeError("boom on purpose")

    doomed = {derive_seed("bot", setup.game_seed(g), 0) for g in failing}

    def make(name: str, seed: int, budget: float | None = None) -> BotBase:
        return Boom(seed, budget) if seed in doomed else RandomBot(seed, budget)
    return make


def test_a_failed_game_is_noted_and_the_tournament_goes_on(tmp_path, monkeypatch):
    """A game that raises is a line naming its error, counted as failed (for no bot), and the
    games after it are played; a rerun skips it unless asked to retry failed games."""
    import trackage.bots.tournament as tournament
    from trackage.bots.report import summary_table

    out = tmp_path / "results.jsonl"
    setup = Setup("1893", ("random", "random"), 3, seed=5, out=str(out))
    monkeypatch.setattr(tournament, "make_bot", _boom_factory(setup, {1}))
    result = run(setup, workers=1)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [rec["game"] for rec in lines] == [0, 1, 2]
    bad = lines[1]
    assert bad["error"] == "RuntimeError: boom on purpose" and "result" not in bad and "wins" not in bad
    assert bad["game_seed"] == setup.game_seed(1) and bad["seating"] == setup.seating(1) and bad["seed"] == 5
    assert result["games"] == 2 and result["failed"] == 1 and result["failed_games"] == [1]
    assert result["bots"][0]["seat_games"] == 4 and result["bots"][0]["wins"] == 2
    table = summary_table(result)
    assert "1 failed (games 1)" in str(table.title)
    # a rerun with the same arguments plays nothing, the failed game included
    assert run(setup, workers=1) == result and len(out.read_text().splitlines()) == 3
    # asked to retry, it plays the failed game again (now it ends) and its new line counts
    monkeypatch.setattr(tournament, "make_bot", _boom_factory(setup, set()))
    again = run(setup, workers=1, retry_failed=True)
    assert len(out.read_text().splitlines()) == 4
    assert again["games"] == 3 and again["failed"] == 0 and again["bots"][0]["seat_games"] == 6
    assert again == run(Setup("1893", ("random", "random"), 3, seed=5), workers=1)
