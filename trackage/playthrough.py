"""Playthrough files: seeded random games whose every state the reference agreed with.

CI has no reference engine, so what a differential run confirmed is kept as files: the game's
log (as ``trackage playout`` writes it) and the trace of the state after every action (the
reference trace format, ``trackage.core.state.trace_line``). A test replays each log and
compares the trace line by line, and plays the same seed live and compares the actions.

To stay small, both are gzip-compressed and the trace is stored as deltas: each line holds
only what changed since the line before (see :func:`encode_trace`).

A manifest (``tests/playthroughs/manifest.json``) lists the games: title, seed, player count,
options and why the game was chosen. ``scripts/playthroughs`` regenerates the files from it.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass, field
from pathlib import Path

from .export import game_to_log
from .playout import random_playout
from .replay import replay_data

REMOVED = "-"  # a delta's key listing the keys the line no longer has
NESTED = "~"  # a delta of a nested dict, rather than its new value


@dataclass(frozen=True)
class Entry:
    """One playthrough: the random game ``trackage playout`` plays for these settings."""

    title: str
    seed: int
    players: int
    options: tuple[str, ...] = ()
    why: str = ""
    extra: dict = field(default_factory=dict, compare=False)

    @property
    def name(self) -> str:
        opts = "+".join(self.options) if self.options else "base"
        return f"{self.players}p-{opts}-seed{self.seed}"

    @classmethod
    def from_dict(cls, d: dict) -> Entry:
        known = {"title", "seed", "players", "options", "why"}
        return cls(str(d["title"]), int(d["seed"]), int(d["players"]), tuple(d.get("options") or ()),
                   str(d.get("why") or ""), {k: v for k, v in d.items() if k not in known})

    def to_dict(self) -> dict:
        return {"title": self.title, "seed": self.seed, "players": self.players,
                "options": list(self.options), "why": self.why, **self.extra}


# ------------------------------------------------------------------ delta-coded traces
def _delta(before: dict, after: dict) -> dict:
    out: dict = {}
    for key, value in after.items():
        if key not in before:
            out[key] = value
        elif before[key] != value:
            if isinstance(value, dict) and isinstance(before[key], dict):
                out[key] = {NESTED: _delta(before[key], value)}
            else:
                out[key] = value
    gone = [k for k in before if k not in after]
    if gone:
        out[REMOVED] = gone
    return out


def _undelta(before: dict, delta: dict) -> dict:
    out = {k: v for k, v in before.items() if k not in delta.get(REMOVED, ())}
    for key, value in delta.items():
        if key == REMOVED:
            continue
        if isinstance(value, dict) and set(value) == {NESTED}:
            out[key] = _undelta(before[key], value[NESTED])
        else:
            out[key] = value
    return out


def encode_trace(lines: list[dict]) -> str:
    """Trace lines as JSON lines of deltas, each against the line before it.

    Trace keys never are ``-`` or ``~`` (player ids, corporation ids and field names)."""
    prev: dict = {}
    out = []
    for line in lines:
        out.append(json.dumps(_delta(prev, line), separators=(",", ":")))
        prev = line
    return "\n".join(out) + "\n"


def decode_trace(text: str) -> list[dict]:
    prev: dict = {}
    lines = []
    for raw in text.splitlines():
        if raw.strip():
            prev = _undelta(prev, json.loads(raw))
            lines.append(prev)
    return lines


# ------------------------------------------------------------------ games and files
def play(entry: Entry, max_actions: int | None = None):
    """The live game: what ``trackage playout`` plays for the entry's settings."""
    return random_playout(entry.title, entry.players, list(entry.options), entry.seed, max_actions=max_actions)


def log_of(game) -> dict:
    log = game_to_log(game)
    log.pop("created_at", None)  # the only field that depends on the clock
    return log


def trace_of(log: dict) -> tuple[list[dict], object]:
    """Replay a log and collect the state after every action (and the outcome)."""
    lines: list[dict] = []

    class Sink:
        def write(self, text: str) -> None:
            lines.append(json.loads(text))

    outcome = replay_data(log, trace=Sink())
    return lines, outcome


def paths(folder: Path, entry: Entry) -> tuple[Path, Path]:
    base = Path(folder) / entry.title / entry.name
    return base.with_name(base.name + ".json.gz"), base.with_name(base.name + ".jsonl.gz")


def write(folder: Path, entry: Entry, log: dict, lines: list[dict]) -> None:
    log_path, trace_path = paths(folder, entry)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    # mtime=0: the same game gives the same bytes
    log_path.write_bytes(gzip.compress(json.dumps(log, separators=(",", ":")).encode(), 9, mtime=0))
    trace_path.write_bytes(gzip.compress(encode_trace(lines).encode(), 9, mtime=0))


def read(folder: Path, entry: Entry) -> tuple[dict, list[dict]]:
    log_path, trace_path = paths(folder, entry)
    log = json.loads(gzip.decompress(log_path.read_bytes()))
    lines = decode_trace(gzip.decompress(trace_path.read_bytes()).decode())
    return log, lines


def load_manifest(path: Path) -> list[Entry]:
    return [Entry.from_dict(d) for d in json.loads(Path(path).read_text())]


def first_difference(expected: list[dict], got: list[dict]) -> str | None:
    """Where two traces first part, in words; None when they are equal."""
    for i, (a, b) in enumerate(zip(expected, got)):
        if a != b:
            keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
            detail = "; ".join(f"{k}: expected {a.get(k)!r}, got {b.get(k)!r}" for k in keys)
            return f"line {i + 1} (action {a.get('id')} {a.get('type')}): {detail[:600]}"
    if len(expected) != len(got):
        return f"same first {min(len(expected), len(got))} lines; expected {len(expected)}, got {len(got)}"
    return None
