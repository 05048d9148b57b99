"""Replaying 18xx.games logs and comparing with their recorded end."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .core.clone import no_gc
from .core.errors import GameError, TrackageError
from .core.log import filter_actions, load_log
from .core.rng import seed_for
from .core.state import trace_line
from .titles import new_game

if TYPE_CHECKING:
    from .core.game import Game


class TextSink(Protocol):
    """Where a trace goes: anything with ``write(str)`` (a file, a StringIO)."""

    def write(self, text: str, /) -> object: ...


@dataclass
class ReplayOutcome:
    game: Game | None = None  # set by replay_data before the first action
    applied: int = 0
    error: Exception | None = None
    failed_action: dict[str, Any] | None = None
    result: dict[str, int] = field(default_factory=dict)
    expected: dict[str, int] | None = None
    warnings: list[Any] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.game is not None and self.game.finished

    @property
    def matches(self) -> bool:
        return self.error is None and self.expected is not None and self.result == self.expected


def game_from_log(data: dict[str, Any]) -> Game:
    settings = data.get("settings") or {}
    return new_game(data["title"], data["players"], settings.get("optional_rules") or [],
                    seed_for(data.get("id"), settings), data.get("id"), validate=False)


def replay_data(data: dict[str, Any], trace: TextSink | None = None, strict: bool = False,
                check_programs: bool = False, keep_snapshots: bool = False) -> ReplayOutcome:
    """Replay ``data``; ``check_programs`` compares its auto actions with what the players'
    programs make (warnings), as a strict load does, without a strict load's other checks.
    The game is kept for its state, not for undo: no snapshots near the end unless
    ``keep_snapshots`` (an undo of it replays from the start)."""
    out = ReplayOutcome(expected={str(k): v for k, v in data["result"].items()} if data.get("result") else None)
    # the build and the load with the cyclic collector paused, as the load alone was: the
    # build's objects live as long as the game, and the build's own collections (one or two
    # a game, each adding to the count that sets off the next older generation's) are left
    # out; the first collection after it scans what both made at once
    game = no_gc(_build_and_load)(out, data, trace, strict, check_programs, keep_snapshots)
    out.warnings = list(getattr(game, "warnings", []))
    out.result = game.result()
    return out


def _build_and_load(out: ReplayOutcome, data: dict[str, Any], trace: TextSink | None, strict: bool,
                    check_programs: bool, keep_snapshots: bool) -> Game:
    game = game_from_log(data)
    game.check_programs = check_programs
    out.game = game

    def on_action(g: Game, action: dict[str, Any]) -> None:
        out.applied += 1
        if trace is not None:
            trace.write(json.dumps(trace_line(g, action), separators=(",", ":")) + "\n")

    actions = filter_actions(data["actions"])
    try:
        # (the game is as it was built: its start kept as the recipe, built again only if an
        # undo reaches it)
        game.load(actions, strict=strict, trace=on_action, snapshots_near_end=keep_snapshots, as_built=True)
    except (GameError, TrackageError) as e:
        out.error, out.failed_action = e, actions[out.applied]
    except Exception as e:  # noqa: BLE001 - an engine bug: report it with the action, never hide it
        out.error, out.failed_action = e, actions[out.applied] if out.applied < len(actions) else None
    return game


def replay_file(path: str | Path, trace: TextSink | None = None, strict: bool = False,
                check_programs: bool = False) -> ReplayOutcome:
    return replay_data(load_log(path), trace=trace, strict=strict, check_programs=check_programs)
