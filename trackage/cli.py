"""The command line: replay, new, playout, tournament, show, ledger, log, review, play, act, routes, serve, twins."""

from __future__ import annotations

import contextlib
import json
import sys

import click

from .core.errors import GameError, LogFormatError, TrackageError


@click.group()
@click.version_option(package_name="trackage")
def main() -> None:
    """trackage: an exact, fast engine for 18xx railway games."""


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=False))
@click.option("--trace", "trace_path", type=click.Path(dir_okay=False),
              help="Write the state after each action (JSONL; one file only).")
@click.option("--strict", is_flag=True, help="Treat a route revenue that differs from the engine's as an error.")
def replay(files: tuple, trace_path: str | None, strict: bool) -> None:
    """Replay 18xx.games logs; exit 0 if each final result matches its log's.

    One FILE prints its summary as JSON. Several files, or folders (every *.json inside,
    recursively), print a summary table with a progress bar."""
    from pathlib import Path

    paths = []
    for f in files:
        p = Path(f)
        if p.is_dir():
            paths.extend(sorted(p.rglob("*.json")))
        else:
            paths.append(p)
    if len(paths) == 1 and not Path(files[0]).is_dir():
        sys.exit(_replay_one(str(paths[0]), trace_path, strict))
    if trace_path:
        click.echo("error: --trace takes one file", err=True)
        sys.exit(2)
    if not paths:
        click.echo("error: no .json files found", err=True)
        sys.exit(2)
    sys.exit(_replay_many(paths, strict))


def _replay_one(file: str, trace_path: str | None, strict: bool) -> int:
    from .replay import replay_file

    trace = open(trace_path, "w") if trace_path else None  # noqa: SIM115 - closed below
    try:
        out = replay_file(file, trace=trace, strict=strict)
    except LogFormatError as e:
        click.echo(f"error: {e}", err=True)
        return 2
    except TrackageError as e:
        click.echo(f"error: {e}", err=True)
        return 2
    finally:
        if trace:
            trace.close()
    for w in out.warnings:
        click.echo(f"warning: {w}", err=True)
    game = out.game
    assert game is not None  # replay_data sets it before replaying
    summary = {"title": game.TITLE, "finished": game.finished, "game_end_reason": game.game_end_reason,
               "applied": out.applied, "result": out.result}
    click.echo(json.dumps(summary))
    if out.error is not None:
        a = out.failed_action or {}
        click.echo(f"action {a.get('id')} ({a.get('type')}) failed: {type(out.error).__name__}: {out.error}", err=True)
        return 2
    if out.expected is None:
        click.echo("the log has no recorded result to compare with", err=True)
        return 0 if game.finished else 1
    if not game.finished:
        click.echo("mismatch: the game did not finish", err=True)
        return 1
    if out.result != out.expected:
        diffs = [f"player {k}: expected {v}, got {out.result.get(k)}" for k, v in out.expected.items()
                 if out.result.get(k) != v]
        click.echo("mismatch: " + "; ".join(diffs), err=True)
        return 1
    return 0


def _replay_many(paths: list, strict: bool) -> int:
    import time

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from .replay import replay_file

    console = Console(stderr=True)
    rows = []
    worst = 0
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=False) as progress:
        task = progress.add_task("replaying", total=len(paths))
        for p in paths:
            progress.update(task, description=f"replaying {p.name}")
            t = time.perf_counter()
            try:
                out = replay_file(str(p), strict=strict)
            except TrackageError as e:
                rows.append((f"{p.parent.name}/{p.name}", "-", "-", "error", str(e)[:60],
                             f"{time.perf_counter() - t:.2f}"))
                worst = max(worst, 2)
                progress.advance(task)
                continue
            dt = time.perf_counter() - t
            g = out.game
            assert g is not None  # replay_data sets it before replaying
            if out.error is not None:
                a = out.failed_action or {}
                status, note, code = "error", f"action {a.get('id')} ({a.get('type')}): {out.error}"[:60], 2
            elif out.expected is None:
                status = "finished" if g.finished else "open"
                note, code = "no recorded result", 0 if g.finished else 1
            elif not g.finished:
                status, note, code = "mismatch", "did not finish", 1
            elif out.result != out.expected:
                status, note, code = "mismatch", "result differs", 1
            else:
                status, note, code = "ok", g.game_end_reason or "", 0
            worst = max(worst, code)
            rows.append((f"{p.parent.name}/{p.name}", g.TITLE, str(out.applied), status, note, f"{dt:.2f}"))
            progress.advance(task)
    table = Table(title=f"{len(paths)} logs")
    for col in ("file", "title", "actions", "status", "note", "seconds"):
        table.add_column(col)
    for r in rows:
        table.add_row(*r, style=None if r[3] in ("ok", "finished") else "red")
    Console(width=None if sys.stdout.isatty() else 200).print(table)
    ok = sum(1 for r in rows if r[3] in ("ok", "finished"))
    click.echo(f"{ok} of {len(rows)} replayed to their result")
    return worst


@main.command()
@click.argument("title")
@click.option("--players", "-p", "num_players", type=click.IntRange(1, 12), required=True)
@click.option("--option", "-o", "options", multiple=True, help="An optional rule (repeatable).")
@click.option("--seed", type=int, default=0)
@click.option("--out", "out_path", type=click.Path(dir_okay=False), required=True)
def new(title: str, num_players: int, options: tuple, seed: int, out_path: str) -> None:
    """Start a game and save it as a log."""
    from .export import game_to_log
    from .titles import new_game

    players = [{"id": i + 1, "name": f"Player {i + 1}"} for i in range(num_players)]
    try:
        game = new_game(title, players, list(options), seed)
    except (TrackageError, ValueError) as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    with open(out_path, "w") as f:
        json.dump(game_to_log(game), f)
    click.echo(f"new {title} game for {num_players} players written to {out_path}")


@main.command()
@click.argument("title")
@click.option("--players", "-p", "num_players", type=click.IntRange(1, 12), required=True)
@click.option("--option", "-o", "options", multiple=True)
@click.option("--seed", type=int, required=True)
@click.option("--out", "out_path", type=click.Path(dir_okay=False), required=True)
@click.option("--max-actions", type=int, default=None, help="Stop after this many actions (default: the game's end).")
def playout(title: str, num_players: int, options: tuple, seed: int, out_path: str, max_actions: int | None) -> None:
    """Play a whole game with random legal actions and save the log."""
    from .export import game_to_log
    from .playout import random_playout

    try:
        game = random_playout(title, num_players, list(options), seed, max_actions=max_actions)
    except (TrackageError, ValueError) as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    with open(out_path, "w") as f:
        json.dump(game_to_log(game), f)
    click.echo(json.dumps({"finished": game.finished, "game_end_reason": game.game_end_reason,
                           "actions": len(game.actions), "result": game.result()}))
    sys.exit(0 if game.finished else 1)


@main.command()
@click.argument("title")
@click.option("--bots", "bot_list", required=True,
              help="One bot name per seat, comma-separated (e.g. random,random,random,random).")
@click.option("--option", "-o", "options", multiple=True, help="An optional rule (repeatable).")
@click.option("--games", "-n", type=click.IntRange(min=1), required=True, help="How many games.")
@click.option("--workers", "-w", type=click.IntRange(min=1), default=None,
              help="Games played at once (processes; default: one per CPU); the results do not depend on it.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
              help="Append each game's results here (JSON lines; logs in <stem>.logs/); a rerun resumes.")
@click.option("--seed", type=int, default=0, show_default=True, help="The tournament's seed (each game's from it).")
@click.option("--budget", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Seconds per decision for bots that think.")
@click.option("--ray", "ray_address", default=None, metavar="ADDRESS",
              help="Play each game as a Ray task on the cluster at ADDRESS ('local' or 'auto': a Ray on this "
                   "machine; needs trackage[cluster]); the results do not depend on it.")
@click.option("--retry-failed", is_flag=True,
              help="Play again the games the results file notes as failed (a rerun skips them otherwise).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
def tournament(title: str, bot_list: str, options: tuple, games: int, workers: int | None, out_path: str | None,
               seed: int, budget: float | None, ray_address: str | None, retry_failed: bool, as_json: bool) -> None:
    """Play seat-rotated games between bots; win shares (95% Wilson interval), mean rank and
    score margin, and an OpenSkill rating per bot. A game that raises is noted in the results
    as failed (with its error) and the tournament goes on."""
    import os

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .bots.report import summary_table
    from .bots.tournament import Setup, read_done, run
    from .heapsettle import settle_heap
    from .titles import TITLES

    bots = tuple(b.strip() for b in bot_list.split(",") if b.strip())
    settle_heap([title] if title in TITLES else [])  # for the in-process games (workers spawn afresh)
    setup = Setup(title, bots, games, seed=seed, options=tuple(options), budget=budget, out=out_path)
    try:
        done = len(read_done(setup, retry_failed))
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=Console(stderr=True), transient=False) as progress:
            task = progress.add_task(f"{title} tournament", total=games, completed=done)
            result = run(setup, workers or os.cpu_count() or 1, on_game=lambda rec: progress.advance(task),
                         ray=ray_address, retry_failed=retry_failed)
    except (TrackageError, ValueError) as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(result))
    else:
        Console(width=None if sys.stdout.isatty() else 160).print(summary_table(result))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--at", "at_id", type=int, default=None, help="Show the state after this action id.")
def show(file: str, at_id: int | None) -> None:
    """Show a game's state as tables, and the legal actions if it is not over."""
    from .core.log import filter_actions, load_log
    from .replay import game_from_log
    from .show import render

    try:
        data = load_log(file)
        game = game_from_log(data)
        game.loading = True
        for a in filter_actions(data["actions"]):
            if at_id is not None and a.get("id") is not None and a["id"] > at_id:
                break
            game._apply(a)
    except (GameError, TrackageError) as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    game.loading = False
    render(game)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--by", type=click.Choice(["round", "action"]), default=None,
              help="Sum the flows per round or per action (default: the whole game).")
@click.option("--at", "at_id", type=int, default=None, help="Stop after this action id.")
@click.option("--json", "as_json", is_flag=True,
              help="Print every flow as JSON: action, round, payer, receiver, amount, category.")
def ledger(file: str, by: str | None, at_id: int | None, as_json: bool) -> None:
    """Where the money went: flows between the bank, players and companies, with their reasons."""
    from .core.ledger import flows
    from .story import render_ledger

    game = _replayed(file, at_id)
    if as_json:
        click.echo(json.dumps(flows(game)))
        return
    render_ledger(game, by)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--at", "at_id", type=int, default=None, help="Stop after this action id.")
@click.option("--json", "as_json", is_flag=True,
              help="Print every event as JSON (its kind, action and fields) with its message.")
def log(file: str, at_id: int | None, as_json: bool) -> None:
    """The game's story: what happened, round by round, each line with its action id."""
    from .story import message, render_log

    game = _replayed(file, at_id)
    if as_json:
        click.echo(json.dumps([{**e.as_dict(), "message": message(game, e)} for e in game.journal.events()]))
        return
    render_log(game)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON object: runs (action, round, corporation, president, logged, best, left, "
                   "proven, confirmed, note), by_company, by_player, total, problems, unconfirmed.")
@click.option("--work-limit", type=click.IntRange(min=1), default=None,
              help="The router's work limit per run (default: 200,000, a proof for every shared log's run).")
def review(file: str, as_json: bool, work_limit: int | None) -> None:
    """Each run of a log against the best the exact router proves for the same state: the
    revenue left on the table, per run, per company and per president."""
    from .review import review as review_log
    from .story import render_review

    try:
        result = review_log(file, work_limit)
    except (GameError, TrackageError) as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(result))
    else:
        render_review(result)
    for p in result["problems"]:
        click.echo(f"problem: {p}", err=True)
    for u in result["unconfirmed"]:
        click.echo(f"unconfirmed: {u}", err=True)


def _replayed(file: str, at_id: int | None):
    """The game of log ``file`` after action ``at_id`` (or at its end); exits 2 on a bad log."""
    from .core.log import filter_actions, load_log
    from .replay import game_from_log

    try:
        data = load_log(file)
        game = game_from_log(data)
        actions = [a for a in filter_actions(data["actions"])
                   if at_id is None or a.get("id") is None or a["id"] <= at_id]
        game.load(actions)
    except (GameError, TrackageError) as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    return game


def _load_for_play(file: str):
    """(log data, game after its actions) of a log file; the game takes live actions next."""
    from .core.log import filter_actions, load_log
    from .replay import game_from_log

    data = load_log(file)
    game = game_from_log(data)
    live = filter_actions(data["actions"])
    if live:
        game.load(live)
    return data, game


def _save_log(file: str, data: dict, game) -> None:
    from .export import game_to_log

    log = game_to_log(game, game_id=data.get("id"))
    log["actions"] = data["actions"]
    for k in ("id", "players", "settings", "created_at"):
        if k in data:
            log[k] = data[k]
    tmp = f"{file}.tmp"
    with open(tmp, "w") as f:
        json.dump(log, f)
    import os

    os.replace(tmp, file)


def _next_id(data: dict) -> int:
    ids = [a.get("id") for a in data["actions"] if isinstance(a.get("id"), int)]
    return (max(ids) if ids else 0) + 1


def _apply_live(file: str, data: dict, game, action: dict) -> None:
    """Process one action live (refused: GameError, nothing changes) and save the log."""
    from .export import LOCAL_KEYS

    action = {k: v for k, v in action.items() if k not in LOCAL_KEYS}
    action["id"] = _next_id(data)
    if action["type"] == "undo":
        game.undo()
        action = {"type": "undo", "entity": game.seats[0].id, "entity_type": "player", "id": action["id"]}
    elif action["type"] == "redo":
        game.redo()
        action = {"type": "redo", "entity": game.seats[0].id, "entity_type": "player", "id": action["id"]}
    else:
        if action["type"] == "run_routes" and isinstance(action.get("routes"), list):
            try:
                entity = game.index.resolve(action)
                trains = {t.id: t for t in game.route_trains(entity)}
                revs = game.compute_route_revenues(entity, action["routes"], trains)
                action["routes"] = [{**r, "revenue": v} for r, v in zip(action["routes"], revs)]
            except Exception:  # noqa: BLE001 - the engine refuses it below
                pass
        game.process(action)
    data["actions"].append(action)
    _save_log(file, data, game)


def _play_bots(specs: tuple, seats: int) -> dict[int, str]:
    """``--bot SEAT=LEVEL`` options as {seat index from 0: level} (ValueError naming the bad one)."""
    from .bots.registry import BOT_NAMES

    out: dict[int, str] = {}
    for spec in specs:
        seat, _, level = str(spec).partition("=")
        if not seat.strip().isdigit() or not 1 <= int(seat) <= seats:
            raise ValueError(f"{spec!r}: the seat is a number from 1 to {seats}")
        if level.strip() not in BOT_NAMES:
            raise ValueError(f"{spec!r}: the level is one of {', '.join(BOT_NAMES)}")
        out[int(seat) - 1] = level.strip()
    return out


def _bot_moved(file: str, data: dict, game, bots: dict[int, str], console) -> bool:
    """When the seat in charge is a bot's: its move, made, saved and printed; whether one was."""
    if not bots:
        return False
    from .bots.base import acting_seat
    from .bots.play import derive_seed
    from .bots.registry import make_bot
    from .web.views import describe

    acts = game.legal_actions()
    if not acts:
        return False
    seat = acting_seat(game, acts)
    if seat not in bots:
        return False
    aid = _next_id(data)
    bot = make_bot(bots[seat], derive_seed(data.get("id"), aid, seat), 0.25)
    try:
        action = bot.choose(game, seat)
        who = ""
        with contextlib.suppress(GameError):
            who = game.index.name(game.index.resolve(action)) + ": "
        text = describe(game, action)
        _apply_live(file, data, game, action)
    except Exception as e:  # noqa: BLE001 - a bot's failure: said, and the seat is offered to the terminal's player
        console.print(f"[red]the {bots[seat]} bot of seat {seat + 1} could not move: {e}[/red]")
        return False
    console.print(f"  🤖 {bots[seat]} ({game.seats[seat].name}) {who}{text}", highlight=False)
    return True


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, exists=True))
@click.argument("action_json")
def act(file: str, action_json: str) -> None:
    """Apply one action (JSON, or "undo") to a log file and save it; prints the new state.

    Exit 0 on success, 2 with {error, rule} on stderr when the action is refused."""
    try:
        data, game = _load_for_play(file)
    except (TrackageError, ValueError) as e:
        click.echo(json.dumps({"error": str(e), "rule": getattr(e, "rule", "bad-log")}), err=True)
        sys.exit(2)
    text = action_json.strip()
    if text in ("undo", "redo"):
        action = {"type": text}
    else:
        try:
            action = json.loads(text)
        except json.JSONDecodeError as e:
            click.echo(json.dumps({"error": f"malformed JSON: {e}", "rule": "malformed-json"}), err=True)
            sys.exit(2)
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            click.echo(json.dumps({"error": "an action is an object with a string type", "rule": "malformed-action"}),
                       err=True)
            sys.exit(2)
    try:
        _apply_live(file, data, game, action)
    except GameError as e:
        click.echo(json.dumps({"error": e.message, "rule": e.rule}), err=True)
        sys.exit(2)
    from .core.journal import round_label

    click.echo(json.dumps({"action_count": _next_id(data) - 1, "round": round_label(game),
                           "acting": [game.index.name(e) for e in game.acting_entities()] if not game.finished else [],
                           "finished": game.finished, "result": game.result() if game.finished else None}))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--title", help="Start a new game in FILE when it does not exist.")
@click.option("--players", "-p", "num_players", type=click.IntRange(1, 12), default=None)
@click.option("--option", "-o", "options", multiple=True)
@click.option("--seed", type=int, default=0)
@click.option("--bot", "bot_specs", multiple=True, metavar="SEAT=LEVEL",
              help="A seat played by a bot: SEAT is 1-based in player order, LEVEL random, rule or search "
                   "(repeatable, e.g. --bot 2=rule --bot 3=search).")
def play(file: str, title: str | None, num_players: int | None, options: tuple, seed: int,
         bot_specs: tuple) -> None:
    """Play a game hotseat in the terminal: numbered legal actions; `undo`, `show`, `quit`.

    Type a number to take that action (with a price after it where one is asked, e.g. `3 150`),
    or an action as JSON. Every action is saved to FILE (an 18xx.games log). With --bot, the
    seats given (1 = the first player) are played by bots: each bot move is printed and saved."""
    import os

    from rich.console import Console

    from .core.journal import round_label
    from .export import game_to_log
    from .show import render
    from .titles import new_game
    from .web.views import describe

    console = Console()
    if not os.path.exists(file):
        if not title or not num_players:
            click.echo("error: FILE does not exist: give --title and --players to start a new game", err=True)
            sys.exit(2)
        players = [{"id": i + 1, "name": f"Player {i + 1}"} for i in range(num_players)]
        try:
            g = new_game(title, players, list(options), seed)
        except (TrackageError, ValueError) as e:
            click.echo(f"error: {e}", err=True)
            sys.exit(2)
        with open(file, "w") as f:
            json.dump(game_to_log(g), f)
    try:
        data, game = _load_for_play(file)
    except (TrackageError, ValueError) as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    try:
        bots = _play_bots(bot_specs, len(game.seats))
    except ValueError as e:
        click.echo(f"error: --bot: {e}", err=True)
        sys.exit(2)
    stdin = click.get_text_stream("stdin")
    while True:
        if not game.finished and _bot_moved(file, data, game, bots, console):
            continue
        if game.finished:
            console.print(f"Game over ({game.game_end_reason}): " + ", ".join(
                f"{p.name} {game.player_value(p)}" for p in game.seats), style="bold")
            return
        acts = game.legal_actions()
        acting = ", ".join(game.index.name(e) for e in game.acting_entities())
        console.print(f"[bold]{game.TITLE} {round_label(game)}[/bold] phase {game.phase.name} - acting: {acting}")
        for i, a in enumerate(acts):
            rng = a.get("price_range")
            extra = f"  [price {rng[0]}..{rng[1]} step {a.get('price_step') or 1}]" if rng else ""
            who = ""
            with contextlib.suppress(GameError):
                who = game.index.name(game.index.resolve(a)) + ": "
            console.print(f"  {i:3d}. {who}{describe(game, a)}{extra}", highlight=False)
        console.print("number [price] | undo | show | quit | {json}> ", end="")
        line = stdin.readline()
        if not line:
            return
        line = line.strip()
        if not line:
            continue
        if line in ("quit", "q", "exit"):
            return
        if line == "show":
            render(game, console)
            continue
        try:
            if line in ("undo", "redo"):
                action = {"type": line}
            elif line.startswith("{"):
                action = json.loads(line)
            else:
                parts = line.split()
                a = dict(acts[int(parts[0])])
                if len(parts) > 1:
                    a["price"] = int(parts[1])
                action = a
            _apply_live(file, data, game, action)
        except (ValueError, IndexError, json.JSONDecodeError) as e:
            console.print(f"[red]not understood: {e}[/red]")
        except GameError as e:
            console.print(f"[red]refused: {e.message} [{e.rule}][/red]")


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--at", "at_id", type=int, default=None,
              help="Stop just before the action with this id (default: the end of the log).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Stop the search after S seconds (the result is then not proven optimal).")
def routes(file: str, at_id: int | None, as_json: bool, time_limit: float | None) -> None:
    """The best routes of the company acting in a log (the exact auto-router)."""
    from .core.log import filter_actions, load_log
    from .replay import game_from_log
    from .router import optimal_routes

    try:
        data = load_log(file)
        actions = filter_actions(data["actions"])
        game = game_from_log(data)
    except (TrackageError, ValueError) as e:
        raise click.ClickException(str(e)) from None
    end = len(actions)
    if at_id is not None:
        ids = [a.get("id") for a in actions]
        if at_id not in ids:
            known = [i for i in ids if isinstance(i, int)]
            span = f" (its live action ids run from {min(known)} to {max(known)})" if known else ""
            raise click.ClickException(f"no live action with id {at_id} in {file}{span}")
        end = ids.index(at_id)
    applied = [0]
    try:
        game.load(actions[:end], trace=lambda _g, _a: applied.__setitem__(0, applied[0] + 1))
    except Exception as e:  # noqa: BLE001 - a log that does not replay is an error, not a traceback
        a = actions[applied[0]] if applied[0] < end else {}
        raise click.ClickException(f"the log does not replay: action {a.get('id')} ({a.get('type')}) failed: "
                                   f"{type(e).__name__}: {e}") from None
    entity = None if game.finished else game.current_entity()
    if entity is None or not hasattr(entity, "trains"):
        acting = game.index.name(entity) if entity is not None else "nobody"
        who = "the game is over" if game.finished else f"{acting} acts"
        raise click.ClickException(f"no company is operating there ({who}); give --at the id of a run_routes action")
    try:
        result = optimal_routes(game, entity, time_limit=time_limit)
    except TrackageError as e:
        raise click.ClickException(f"the router failed: {e}") from None
    if as_json:
        click.echo(json.dumps(result.as_dict()))
        return

    from rich.console import Console
    from rich.table import Table

    where = f"before action {at_id}" if at_id is not None else "at the end of the log"
    console = Console(width=None if sys.stdout.isatty() else 160)
    console.print(f"{game.TITLE}: best routes of {game.index.name(entity)} {where}", style="bold", highlight=False)
    table = Table()
    table.add_column("train")
    table.add_column("stops")
    table.add_column("revenue", justify="right")
    for r in result.routes:
        table.add_row(str(r.get("train")), " - ".join(str(h) for h in r.get("hexes") or []), str(r.get("revenue")))
    table.add_section()
    table.add_row("total", "", str(result.revenue), style="bold")
    console.print(table)
    console.print(f"total {result.revenue}: " + ("proven optimal" if result.optimal else
                                                 "NOT proven optimal (time limit reached or a bound failed)"),
                  highlight=False)
    s = result.stats
    cands = ", ".join(f"{k} {v}" for k, v in s.candidates.items()) or "none"
    console.print(f"candidates: {cands}; evaluated {s.evaluated}, search nodes {s.nodes}, leaves {s.leaves}, "
                  f"enumerate {s.enumerate_s:.3f}s, search {s.search_s:.3f}s", highlight=False)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8018, show_default=True, type=int)
@click.option("--db", "db_url", default=None, help="Database URL (default: $TRACKAGE_DB or sqlite:///trackage.db).")
@click.option("--log-level", default="info", show_default=True)
@click.option("--allow-private-webhooks", is_flag=True,
              help="Let webhooks go to loopback, private and link-local addresses (a LAN or test server).")
@click.option("--public-url", default=None, help="The server's address in webhooks' links (default: the request's).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="uvicorn worker processes (more than 1 needs a PostgreSQL database).")
@click.option("--cache-size", default=None, type=click.IntRange(1, 100_000),
              help="Live games kept in memory per worker (least recently used dropped; default 32).")
def serve(host: str, port: int, db_url: str | None, log_level: str, allow_private_webhooks: bool,
          public_url: str | None, workers: int, cache_size: int | None) -> None:
    """Run the web app: lobby, games, the JSON API (FastAPI on uvicorn).

    With --workers N, N processes share the PostgreSQL database behind a front on the port that
    sends each game's requests to the worker owning it (game id modulo N; trackage.web.front).
    Correctness does not rest on it: actions of one game are serialised by the database (the
    loser of a race gets 409), a worker's cache catches up with the others' actions, and live
    updates cross workers by LISTEN/NOTIFY."""
    import os

    import uvicorn

    from .heapsettle import settle_heap
    from .titles import TITLES
    from .web import front
    from .web.app import create_app, env_settings
    from .web.storage import DEFAULT_DB, migrate
    from .web.webhooks import WebhookSettings

    url = db_url or os.environ.get("TRACKAGE_DB") or DEFAULT_DB
    if workers > 1:
        if not url.startswith(("postgresql", "postgres:")):
            raise click.UsageError(f"--workers {workers} needs a PostgreSQL database (--db postgresql://...): "
                                   f"{url.split(':', 1)[0]} is one process's database (rule: workers-need-postgresql)")
        env = {"TRACKAGE_DB": url, "TRACKAGE_ALLOW_PRIVATE_WEBHOOKS": "1" if allow_private_webhooks else "0",
               "TRACKAGE_PUBLIC_URL": public_url or ""}
        if cache_size is not None:
            env["TRACKAGE_CACHE_SIZE"] = str(cache_size)
        migrate(url)  # once, before the workers start
        click.echo(f"trackage serving on http://{host}:{port}/ with {workers} workers, each game's requests "
                   f"sent to one of them (database {url})")
        raise SystemExit(front.run(host, port, workers, env, log_level))
    settings = env_settings(os.environ)
    settings["webhooks"] = WebhookSettings(allow_private=allow_private_webhooks, public_url=public_url)
    if cache_size is not None:
        settings["cache_size"] = cache_size
    app = create_app(url, **settings)
    settle_heap(TITLES)  # the catalogues loaded and kept out of full collections
    click.echo(f"trackage serving on http://{host}:{port}/ (database {app.state.storage.url})")
    uvicorn.run(app, host=host, port=port, log_level=log_level)


@main.group()
def twins() -> None:
    """The compiled twins of the engine's modules (Cython; see trackage/twins.py)."""


@twins.command("build")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=2, show_default=True, help="Compilers run at once.")
@click.option("--strict", is_flag=True, help="Exit 1 when the twins cannot be built (else: run as source).")
@click.option("--force", is_flag=True, help="Build every twin again, current ones too.")
def twins_build(jobs: int, strict: bool, force: bool) -> None:
    """Build the twins of the engine's modules (Cython and a C compiler: pip install -e '.[fast]').
    Without them the engine runs as source, as it does for a module edited after the build."""
    from . import twins as tw

    try:
        report = tw.build(jobs=jobs, force=force)
    except tw.BuildError as e:
        click.echo(f"trackage twins build: {e}", err=True)
        raise SystemExit(1 if strict else 0) from None
    click.echo(f"built {len(report.built)} compiled twins in {report.seconds:.0f} s "
               f"({len(tw.status().compiled)} modules run compiled)")


@twins.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print the modules of each kind as one JSON object.")
def twins_status(as_json: bool) -> None:
    """Which modules run compiled, which are stale (edited since the build) and which have no twin."""
    import dataclasses

    from . import twins as tw

    st = tw.status()
    if as_json:
        click.echo(json.dumps({**dataclasses.asdict(st), "pure": tw.pure()}))
        return
    click.echo(f"compiled {len(st.compiled)}, stale {len(st.stale)}, missing {len(st.missing)}"
               + (f" ({tw.PURE_ENV} is set: every module runs as source)" if tw.pure() else ""))
    for module in st.stale:
        click.echo(f"  stale: {module}")


@twins.command("clean")
def twins_clean() -> None:
    """Remove the twins and their manifest (every module runs as source)."""
    from . import twins as tw

    click.echo(f"removed {tw.clean()} compiled twins")


if __name__ == "__main__":
    main()
