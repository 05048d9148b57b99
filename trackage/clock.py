"""A chess clock for 18xx games, computed from the log: a pure function of the actions'
timestamps and of who was to act between them (no clock of the machine is read).

Rules (see docs/web.md, "The chess clock"):

- Time between two consecutive stored actions is charged to every player who was to act
  in the state before the second one (several at once when a title lets several act, e.g.
  simultaneous bids: each one's clock runs). Time before the first action is charged from
  ``start_at`` (the game's creation, when given) to the players to act at the start.
- The interval that ends with an ``undo`` or ``redo`` is charged to the player who sent it
  (one cannot act fast, think on the next player's time and then take the move back);
  when its sender is unknown, to the players to act before it. A ``message`` changes
  nobody's turn: the time around it runs on as if it were not there.
- Time nobody was to act (the game over, a company nobody owns) and intervals with a
  missing timestamp are not charged; time inside a pause agreed by the players
  (``pauses``) is not charged either, nor the time an imported log stood still until its
  import (``resumed_at``).
- Increments: when a stock-round turn ends (the player to act passes on) its player gets
  ``sr_turn_s``; when a company's operation ends its operator gets ``operation_s``. An
  increment earned by an action later undone is taken back.
- ``left_s`` = budget + increments − used; a player is over time when it is below zero.
  Penalty (when set): ``points`` per started minute over, shown, or also deducted from
  the player's value in ``adjusted_result`` (mode "deduct").
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .turns import Mark, Seen

DAY = 86400

# name -> (budget, per stock-round turn, per company operated), in seconds
PRESETS: dict[str, tuple[int, int, int]] = {
    "blitz": (15 * 60, 10, 20),
    "2h": (2 * 3600, 0, 0),
    "async": (DAY, DAY, DAY),   # a day to start, and a day more for every turn or operation
}
PENALTY_MODES = ("show", "deduct")
MAX_SECONDS = 10 * 365 * DAY


class ClockSettingsError(ValueError):
    """Clock settings that cannot be used; the message names the field."""


@dataclass(frozen=True)
class ClockSettings:
    budget_s: int
    sr_turn_s: int = 0
    operation_s: int = 0
    penalty_mode: str = "show"
    penalty_points: int = 0          # points per started minute over time
    pauses: tuple[tuple[float, float], ...] = ()
    preset: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {"preset": self.preset, "budget_s": self.budget_s, "sr_turn_s": self.sr_turn_s,
                "operation_s": self.operation_s,
                "penalty": {"mode": self.penalty_mode, "points_per_minute": self.penalty_points},
                "pauses": [list(p) for p in self.pauses]}


def _seconds(raw: Mapping[str, Any], key: str, default: int) -> int:
    v = raw.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_SECONDS:
        raise ClockSettingsError(f"clock.{key} must be a whole number of seconds from 0 to {MAX_SECONDS}")
    return v


def parse_settings(raw: Any) -> ClockSettings:
    """Clock settings from their JSON: ``{"preset": "blitz" | "2h" | "async", "budget_s",
    "sr_turn_s", "operation_s", "penalty": {"mode": "show" | "deduct", "points_per_minute"},
    "pauses": [[start, end], ...]}``; given fields override the preset's; a budget is
    needed (from the preset or given)."""
    if not isinstance(raw, Mapping):
        raise ClockSettingsError("clock must be an object")
    known = {"preset", "budget_s", "sr_turn_s", "operation_s", "penalty", "pauses"}
    extra = sorted(set(raw) - known)
    if extra:
        raise ClockSettingsError(f"clock: unknown field(s) {', '.join(extra)}; known: {', '.join(sorted(known))}")
    preset = raw.get("preset")
    if preset is not None and preset not in PRESETS:
        raise ClockSettingsError(f"clock.preset {preset!r} is not one of {', '.join(PRESETS)}")
    base = PRESETS[preset] if preset is not None else None
    if base is None and "budget_s" not in raw:
        raise ClockSettingsError("clock needs a preset or a budget_s")
    budget = _seconds(raw, "budget_s", base[0] if base else 0)
    sr = _seconds(raw, "sr_turn_s", base[1] if base else 0)
    op = _seconds(raw, "operation_s", base[2] if base else 0)
    pen = raw.get("penalty") or {}
    if not isinstance(pen, Mapping) or set(pen) - {"mode", "points_per_minute"}:
        raise ClockSettingsError("clock.penalty must be {mode: show|deduct, points_per_minute: n}")
    mode = pen.get("mode", "show")
    if mode not in PENALTY_MODES:
        raise ClockSettingsError(f"clock.penalty.mode {mode!r} is not one of {', '.join(PENALTY_MODES)}")
    points = pen.get("points_per_minute", 0)
    if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= 1_000_000:
        raise ClockSettingsError("clock.penalty.points_per_minute must be a whole number from 0 to 1000000")
    pauses = raw.get("pauses") or []
    if not isinstance(pauses, list):
        raise ClockSettingsError("clock.pauses must be a list of [start, end] timestamps")
    spans: list[tuple[float, float]] = []
    for p in pauses:
        if (not isinstance(p, list) or len(p) != 2
                or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in p) or p[0] > p[1]):
            raise ClockSettingsError("clock.pauses: each pause is [start, end] in seconds, start <= end")
        spans.append((float(p[0]), float(p[1])))
    return ClockSettings(budget, sr, op, mode, points, tuple(spans), preset)


@dataclass
class PlayerClock:
    used_s: float = 0.0
    increments_s: int = 0

    def left_s(self, settings: ClockSettings) -> float:
        return settings.budget_s + self.increments_s - self.used_s


@dataclass
class ClockReport:
    """The clock after the given marks: per player, and the time counted overall."""

    players: dict[str, PlayerClock]
    settings: ClockSettings | None
    counted_s: float = 0.0          # time charged to somebody (once per interval)
    uncharged_s: float = 0.0        # time nobody was to act, or paused
    untimed: int = 0                # intervals with a missing timestamp
    running: tuple[str, ...] = ()   # the players whose clock runs now (to act after the last mark)
    since: float | None = None      # from when (the last timestamp)
    extra: dict[str, Any] = field(default_factory=dict)

    def penalty(self, pid: str) -> int:
        s = self.settings
        if s is None or s.penalty_points == 0:
            return 0
        over = -self.players[pid].left_s(s)
        return math.ceil(over / 60) * s.penalty_points if over > 0 else 0

    def as_json(self) -> dict[str, dict[str, Any]]:
        """``{player id: {used_s, left_s, increments_s, over, penalty}}`` (whole seconds;
        ``left_s``/``over``/``penalty`` only with settings)."""
        out: dict[str, dict[str, Any]] = {}
        for pid, pc in self.players.items():
            row: dict[str, Any] = {"used_s": round(pc.used_s)}
            if self.settings is not None:
                left = pc.left_s(self.settings)
                row.update(left_s=round(left), increments_s=pc.increments_s, over=left < 0,
                           penalty=self.penalty(pid))
            out[pid] = row
        return out

    def adjusted_result(self, result: Mapping[str, int]) -> dict[str, int] | None:
        """The result with penalties deducted (mode "deduct"), best first; None otherwise."""
        if self.settings is None or self.settings.penalty_mode != "deduct":
            return None
        vals = [(pid, v - (self.penalty(pid) if pid in self.players else 0)) for pid, v in result.items()]
        vals.sort(key=lambda kv: kv[1], reverse=True)
        return dict(vals)


def paused_within(pauses: Iterable[tuple[float, float]], a: float, b: float) -> float:
    """The seconds of [a, b] inside the pauses (overlapping pauses counted once)."""
    total = 0.0
    cur = a
    for s, e in sorted(pauses):
        s, e = max(s, cur), min(e, b)
        if e > s:
            total += e - s
            cur = e
    return total


@dataclass
class ClockWalk:
    """Where :func:`tally`'s walk over a list of marks stands, to be taken up again: given
    back to ``tally`` with the same arguments and the same list grown at its end, it walks
    the new marks only (the same sums, added in the same order, as a walk from the start).
    Anything else (other players, settings or start, another list, a list cut or changed)
    starts the walk over."""

    inputs: tuple[Any, ...] | None = None  # players, start, settings, start_at, resumed_at
    marks: list[Mark] | None = None        # the list walked
    done: int = 0                          # how many of its marks
    last: Mark | None = None               # the last one walked (a changed list starts over)
    used: dict[str, float] = field(default_factory=dict)
    counted_s: float = 0.0
    uncharged_s: float = 0.0
    untimed: int = 0
    prev_at: float | None = None
    to_act: tuple[str, ...] = ()

    def restart(self, inputs: tuple[Any, ...], marks: list[Mark], players: Iterable[str],
                start: Seen, start_at: float | None) -> None:
        self.inputs, self.marks, self.done, self.last = inputs, marks, 0, None
        self.used = dict.fromkeys(players, 0.0)
        self.counted_s = self.uncharged_s = 0.0
        self.untimed = 0
        self.prev_at, self.to_act = start_at, start.to_act

    def takes_up(self, inputs: tuple[Any, ...], marks: list[Mark]) -> bool:
        """Whether this walk is one over a start of ``marks`` with these inputs."""
        return (self.inputs == inputs and self.marks is marks and self.done <= len(marks)
                and (self.done == 0 or marks[self.done - 1] is self.last))


def tally(players: Iterable[str], start: Seen, marks: list[Mark], settings: ClockSettings | None = None,
          start_at: float | None = None, live_ids: Iterable[Any] | None = None,
          resumed_at: float | None = None, walk: ClockWalk | None = None) -> ClockReport:
    """The clock of ``players`` (ids) after ``marks`` (from :func:`trackage.turns.replay_marks`),
    ``start``: the state before the first; ``live_ids``: the ids of the actions live at the
    end (an increment earned by an action undone since is not counted; None: all);
    ``resumed_at``: the clock stood still from the last action before it until it (an
    imported log, from its last action until the import): that time is no one's; ``walk``:
    where an earlier tally of the same marks stopped (:class:`ClockWalk`), taken up and
    left where this one stops."""
    pids = [str(p) for p in players]
    inputs = (tuple(pids), start, settings, start_at, resumed_at)
    w = walk if walk is not None else ClockWalk()
    if not w.takes_up(inputs, marks):
        w.restart(inputs, marks, pids, start, start_at)
    pauses = settings.pauses if settings else ()
    used = w.used
    for i in range(w.done, len(marks)):
        m = marks[i]
        prev_at = w.prev_at
        if prev_at is not None and m.at is not None:
            span = max(0.0, m.at - prev_at)
            stood = 0.0
            if resumed_at is not None and prev_at < resumed_at < m.at:  # across the import
                stood = resumed_at - prev_at
            paused = stood + paused_within(pauses, prev_at + stood, prev_at + span)
            charged = span - paused
            who = w.to_act
            if m.kind in ("undo", "redo") and m.sender is not None:
                who = (m.sender,)
            who = tuple(p for p in who if p in used)
            for p in who:
                used[p] += charged
            if who:
                w.counted_s += charged
                w.uncharged_s += paused
            else:
                w.uncharged_s += span
        elif prev_at is not None or m is not marks[0]:
            w.untimed += 1
        if m.at is not None:
            w.prev_at = m.at
        w.to_act = m.to_act
    w.done = len(marks)
    w.last = marks[-1] if marks else None
    report = ClockReport({p: PlayerClock(used_s=used[p]) for p in pids}, settings,
                         counted_s=w.counted_s, uncharged_s=w.uncharged_s, untimed=w.untimed)
    if settings is not None:
        live = None if live_ids is None else set(live_ids)
        per = {"stock": settings.sr_turn_s, "operating": settings.operation_s}
        for m in marks:
            if m.ended is None or (live is not None and m.action_id not in live):
                continue
            pid, kind = m.ended
            if pid in report.players:
                report.players[pid].increments_s += per[kind]
    prev_at = w.prev_at
    report.running = w.to_act
    report.since = prev_at if resumed_at is None or prev_at is None else max(prev_at, resumed_at)
    return report


def clock_time(seconds: float | None) -> str:
    """Seconds as a clock shows them: ``1:02:03``, ``2d 0:00:05``, ``-0:01:40`` when over."""
    if seconds is None:
        return ""
    s = round(seconds)
    sign = "-" if s < 0 else ""
    s = abs(s)
    days, s = divmod(s, DAY)
    h, s = divmod(s, 3600)
    m, s = divmod(s, 60)
    return f"{sign}{f'{days}d ' if days else ''}{h}:{m:02d}:{s:02d}"
