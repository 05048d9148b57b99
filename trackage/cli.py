"""The command line: replay, new, playout, show."""

from __future__ import annotations

import json
import sys

import click

from .core.errors import GameError, LogFormatError, TrackageError


@click.group()
@click.version_option(package_name="trackage")
def main() -> None:
    """trackage: an exact, fast engine for 18xx railway games."""


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--trace", "trace_path", type=click.Path(dir_okay=False), help="Write the state after each action (JSONL).")
@click.option("--strict", is_flag=True, help="Treat a route revenue that differs from the engine's as an error.")
def replay(file: str, trace_path: str | None, strict: bool) -> None:
    """Replay an 18xx.games log; exit 0 if the final result matches the log's."""
    from .replay import replay_file

    trace = open(trace_path, "w") if trace_path else None
    try:
        out = replay_file(file, trace=trace, strict=strict)
    except LogFormatError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    except TrackageError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    finally:
        if trace:
            trace.close()
    for w in out.warnings:
        click.echo(f"warning: {w}", err=True)
    game = out.game
    summary = {"title": game.TITLE, "finished": game.finished, "game_end_reason": game.game_end_reason,
               "applied": out.applied, "result": out.result}
    click.echo(json.dumps(summary))
    if out.error is not None:
        a = out.failed_action or {}
        click.echo(f"action {a.get('id')} ({a.get('type')}) failed: {type(out.error).__name__}: {out.error}", err=True)
        sys.exit(2)
    if out.expected is None:
        click.echo("the log has no recorded result to compare with", err=True)
        sys.exit(0 if game.finished else 1)
    if not game.finished:
        click.echo("mismatch: the game did not finish", err=True)
        sys.exit(1)
    if out.result != out.expected:
        diffs = [f"player {k}: expected {v}, got {out.result.get(k)}" for k, v in out.expected.items()
                 if out.result.get(k) != v]
        click.echo("mismatch: " + "; ".join(diffs), err=True)
        sys.exit(1)


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
@click.option("--max-actions", type=int, default=20000)
def playout(title: str, num_players: int, options: tuple, seed: int, out_path: str, max_actions: int) -> None:
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


if __name__ == "__main__":
    main()
