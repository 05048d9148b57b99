"""Tournaments: seat-rotated games between bots, resumable from a JSON-lines file of results.

Game ``g`` seats the bot list rotated by ``g mod players`` (seat ``s`` gets bot ``(s + g) mod
players``), so with a multiple of the player count every bot sits in every seat equally often.
Its seed comes from the tournament's seed and ``g`` alone, and each bot's from the game's seed
and its seat: the results do not depend on the number of workers, on the executor (this
process, a process pool, Ray tasks: :mod:`.cluster`) nor on the order games end.
With an output file each finished game is appended as one line as it ends, and its log is
written beside it (``<out stem>.logs/game-<g>.json``), and the line keeps a hash of the game's
actions (``actions_hash``: games that played the same actions count once among the distinct
games of the summary); a rerun with the same arguments skips
the games already there. A game that raises (an engine error, a bot's, a stuck game) does not
stop the tournament: its line names the error instead of a result, the summary counts it as
failed, and a rerun skips it too unless asked to retry failed games."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..export import game_to_log
from ..heapsettle import settle_heap
from .cluster import ray_results, require_ray
from .play import derive_seed, outcome, play_game
from .registry import make_bot
from .stats import summary


@dataclass(frozen=True)
class Setup:
    """What a tournament is: title, options, the bot list (one per seat), games, seed, budget."""

    title: str
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    options: tuple[str, ...] = ()
    budget: float | None = None
    out: str | None = None

    def seating(self, g: int) -> list[str]:
        n = len(self.bots)
        return [self.bots[(s + g) % n] for s in range(n)]

    def game_seed(self, g: int) -> int:
        return derive_seed("game", self.seed, g)

    def identity(self) -> dict[str, Any]:
        """The arguments a results line must share with this run to be counted in it."""
        return {"title": self.title, "options": list(self.options), "bots": list(self.bots),
                "seed": self.seed, "budget": self.budget}

    def logs_dir(self) -> Path | None:
        if self.out is None:
            return None
        p = Path(self.out)
        return p.with_name(p.stem + ".logs")


def play_one(setup: Setup, g: int) -> dict[str, Any]:
    """Play game ``g`` of the tournament; its results line (and its log, kept as a file when the
    tournament has an output file, else in the line), or, when the game raised, a line naming
    the error (:func:`failed_line`)."""
    seating = setup.seating(g)
    seed = setup.game_seed(g)
    bots = [make_bot(name, derive_seed("bot", seed, s), setup.budget) for s, name in enumerate(seating)]
    t = time.perf_counter()
    try:
        game = play_game(setup.title, list(setup.options), seed, bots)
    except Exception as e:  # noqa: BLE001 - any game's failure is noted and the tournament goes on
        return failed_line(setup, g, e, time.perf_counter() - t)
    seconds = time.perf_counter() - t
    out = outcome(game)
    log = game_to_log(game, game_id=f"tournament-{setup.title}-{setup.seed}-{g}")
    log.pop("created_at", None)  # the same game gives the same log
    rec: dict[str, Any] = {"game": g, **setup.identity(), "game_seed": seed, "seating": seating,
                           "result": game.result(), "game_end_reason": game.game_end_reason,
                           "scores": out.scores, "ranks": out.ranks, "margins": out.margins, "wins": out.wins,
                           "actions": len(game.actions), "actions_hash": actions_hash(log["actions"]),
                           "seconds": round(seconds, 3)}
    logs = setup.logs_dir()
    if logs is not None:
        logs.mkdir(parents=True, exist_ok=True)
        path = logs / f"game-{g:05d}.json"
        path.write_text(json.dumps(log))
        rec["log"] = str(path)
    else:
        rec["log"] = log
    return rec


def actions_hash(actions: list[dict[str, Any]]) -> str:
    """A short hash of a game's log actions: two games hash alike when they played the same
    actions (the same game, whatever its seeds)."""
    return hashlib.sha256(json.dumps(actions, sort_keys=True).encode()).hexdigest()[:16]


def with_hash(rec: dict[str, Any]) -> dict[str, Any]:
    """A finished game's line with its ``actions_hash``, computed from its log file when the line
    was written before lines kept one (left without when the log is gone)."""
    if "actions_hash" in rec or "error" in rec or not isinstance(rec.get("log"), str):
        return rec
    path = Path(rec["log"])
    if not path.exists():
        return rec
    return {**rec, "actions_hash": actions_hash(json.loads(path.read_text())["actions"])}


def failed_line(setup: Setup, g: int, error: BaseException, seconds: float) -> dict[str, Any]:
    """The results line of game ``g`` that raised ``error``: its index, arguments, seed, seating
    and the error (no result: it counts for no bot)."""
    return {"game": g, **setup.identity(), "game_seed": setup.game_seed(g), "seating": setup.seating(g),
            "error": f"{type(error).__name__}: {error}", "seconds": round(seconds, 3)}


def _play_star(args: tuple[Setup, int]) -> dict[str, Any]:
    return play_one(*args)


def read_done(setup: Setup, retry_failed: bool = False) -> list[dict[str, Any]]:
    """The games already in the output file, checked against this run's arguments (a game's last
    line counts); a last line cut short (a run stopped while writing) is dropped from the file.
    With ``retry_failed`` the games whose line names an error are left out, to be played again."""
    if setup.out is None or not Path(setup.out).exists():
        return []
    path = Path(setup.out)
    lines = path.read_text().splitlines()
    mine = setup.identity()
    done: dict[int, dict[str, Any]] = {}
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            if i == len(lines) - 1:
                path.write_text("".join(ln + "\n" for ln in lines[:i]))
                break
            raise ValueError(f"tournament: {path} line {i + 1} is not JSON (resume needs a results file)") from None
        theirs = {k: rec.get(k) for k in mine}
        if theirs != mine:
            raise ValueError(f"tournament: {path} line {i + 1} was made by other arguments ({theirs}, not {mine}); "
                             "resume needs the same title, options, bots, seed and budget")
        if 0 <= rec["game"] < setup.games:
            done[rec["game"]] = with_hash(rec)
    return [done[g] for g in sorted(done) if not (retry_failed and "error" in done[g])]


def play(setup: Setup, workers: int = 1, ray: str | None = None,
         retry_failed: bool = False) -> Iterator[dict[str, Any]]:
    """The records of the games not yet in the output file (nor failed there, unless
    ``retry_failed``), as each ends (appended to it first); played in this process, in a pool of
    ``workers`` processes, or as Ray tasks on the cluster at ``ray`` (:mod:`.cluster`)."""
    if not setup.bots:
        raise ValueError("tournament: no bots (give one per seat)")
    for name in set(setup.bots):
        make_bot(name, 0)  # an unknown name fails now, not in a worker
    if ray is not None:
        require_ray()  # Ray missing fails now, before the results file is opened
    done = {r["game"] for r in read_done(setup, retry_failed)}
    todo = [g for g in range(setup.games) if g not in done]
    if not todo:
        return
    sink = open(setup.out, "a") if setup.out is not None else None  # noqa: SIM115 - closed below
    try:
        if ray is not None:
            yield from _kept(ray_results(setup, todo, ray), sink)
        elif workers <= 1 or len(todo) == 1:
            results: Iterator[dict[str, Any]] = (play_one(setup, g) for g in todo)
            yield from _kept(results, sink)
        else:
            ctx = multiprocessing.get_context("spawn")
            # each worker settles its heap (the title's catalogue frozen: trackage.heapsettle)
            with ctx.Pool(min(workers, len(todo)), initializer=settle_heap, initargs=([setup.title],)) as pool:
                yield from _kept(pool.imap_unordered(_play_star, [(setup, g) for g in todo]), sink)
    finally:
        if sink is not None:
            sink.close()


def _kept(results: Iterator[dict[str, Any]], sink: Any) -> Iterator[dict[str, Any]]:
    for rec in results:
        if sink is not None:
            sink.write(json.dumps(rec) + "\n")
            sink.flush()
        yield rec


def run(setup: Setup, workers: int = 1, on_game: Callable[[dict[str, Any]], None] | None = None,
        ray: str | None = None, retry_failed: bool = False) -> dict[str, Any]:
    """Play the tournament's missing games (as Ray tasks when ``ray`` names a cluster; failed
    ones again with ``retry_failed``) and return its summary over all of its games."""
    records = read_done(setup, retry_failed)
    for rec in play(setup, workers, ray, retry_failed):
        records.append(rec)
        if on_game is not None:
            on_game(rec)
    return summary(setup.title, records)
