"""Who is to act, after every action of a log: the marks a chess clock is computed from.

The engine is asked through its public API only: ``acting_entities()`` (the entities that
may act now; several when a title lets several act at once), the owner chain up to a
player, ``current_entity()`` and the round. A log is replayed as the server stores it,
undo and redo included: after every stored action the game is in the state of the live
actions up to it (``filter_actions`` of the prefix), and the players to act then are noted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .core.log import filter_actions
from .core.round import OperatingRound, StockRound

META_TYPES = ("undo", "redo")


def player_of(entity: Any) -> Any:
    """The player who acts for ``entity`` (itself, or the owner up the chain); None when
    nobody does (a company in receivership, the bank)."""
    e = entity
    for _ in range(5):
        if e is None:
            return None
        if getattr(e, "is_player", False):
            return e
        e = getattr(e, "owner", None)
    return None


def players_to_act(game: Any) -> list[Any]:
    """The players to act now, in seat order without repeats (none when the game is over,
    or when only an entity nobody owns may act)."""
    if game.finished:
        return []
    out: list[Any] = []
    for e in game.acting_entities():
        p = player_of(e)
        if p is not None and p not in out:
            out.append(p)
    return out


@dataclass(frozen=True)
class Seen:
    """What the clock needs of a game's state: the players to act, and the turn in progress
    (its kind, whose it is, and a key that changes when the turn passes)."""

    to_act: tuple[str, ...]
    kind: str            # "stock", "operating" or "other"
    turn_owner: str | None
    turn_key: tuple[object, ...]


def seen(game: Any) -> Seen:
    """The clock's view of ``game`` now."""
    rnd = game.round
    kind = "stock" if isinstance(rnd, StockRound) else "operating" if isinstance(rnd, OperatingRound) else "other"
    current = None if game.finished else game.current_entity()
    owner = player_of(current)
    return Seen(tuple(str(p.id) for p in players_to_act(game)), kind,
                None if owner is None else str(owner.id),
                (id(rnd), id(current), game.finished))


@dataclass(frozen=True)
class Mark:
    """One stored action as the clock sees it: when it came, what it was, who sent it, who
    was to act after it, and the turn it ended (a turn-end earns its owner an increment)."""

    action_id: Any
    at: float | None          # the action's created_at (seconds since the epoch), None if absent
    kind: str                 # "action", "message", "undo" or "redo"
    sender: str | None        # the player who sent it (its entity's player), when known
    to_act: tuple[str, ...]   # the players to act after it
    ended: tuple[str, str] | None = None   # (player, "stock" | "operating"): the turn it ended


def action_time(action: dict[str, Any]) -> float | None:
    """An action's ``created_at`` in seconds (an integer or float), None when absent."""
    t = action.get("created_at")
    if isinstance(t, bool) or not isinstance(t, (int, float)):
        return None
    return float(t)


def action_kind(action: dict[str, Any]) -> str:
    t = action.get("type")
    return t if t in META_TYPES or t == "message" else "action"


def sender_of(game: Any, action: dict[str, Any]) -> str | None:
    """The player behind an action's entity in ``game`` (None when it does not resolve)."""
    try:
        entity = game.index.resolve(action)
    except Exception:  # noqa: BLE001 - an entity this state does not know: no sender
        return None
    p = player_of(entity)
    return None if p is None else str(p.id)


def turn_ended(before: Seen, after: Seen) -> tuple[str, str] | None:
    """The turn an action ended: a stock-round turn or a company's operation that was in
    progress before it and is not after it, with its player."""
    if before.kind not in ("stock", "operating") or before.turn_owner is None:
        return None
    if before.turn_key == after.turn_key:
        return None
    return (before.turn_owner, before.kind)


def mark_after(game: Any, action: dict[str, Any], before: Seen, sender: str | None) -> tuple[Mark, Seen]:
    """The mark of ``action`` just applied to ``game`` (``before``: the state before it)."""
    now = seen(game)
    kind = action_kind(action)
    ended = turn_ended(before, now) if kind == "action" else None
    return Mark(action.get("id"), action_time(action), kind, sender, now.to_act, ended), now


def _load_run(game: Any, run: list[dict[str, Any]], state: Seen, marks: list[Mark]) -> Seen:
    """Load ``run`` (ordinary actions and messages) by one ``load``, marking each action;
    the state after the last one."""
    senders = [sender_of(game, run[0])]
    now = state

    def trace(g: Any, action: dict[str, Any]) -> None:
        nonlocal now
        mark, now = mark_after(g, action, now, senders[-1])
        marks.append(mark)
        if len(senders) < len(run):
            senders.append(sender_of(g, run[len(senders)]))

    game.load(run, trace=trace)
    return now


def replay_marks(game: Any, actions: list[dict[str, Any]]) -> tuple[Seen, list[Mark]]:
    """Replay ``actions`` (every stored action, undo/redo included) on ``game`` (a new game,
    changed in place): the state at the start and the mark of every action.

    Runs of ordinary actions are applied by one ``load`` (an import's leniencies apply);
    at an undo or redo the game is wound back to the live actions it leaves (engine
    ``undo``) and the rest loaded."""
    start = state = seen(game)
    marks: list[Mark] = []
    applied: list[dict[str, Any]] = []   # the live actions the game holds, in order
    i = 0
    while i < len(actions):
        action = actions[i]
        if action_kind(action) not in META_TYPES:
            j = i
            while j < len(actions) and action_kind(actions[j]) not in META_TYPES:
                j += 1
            state = _load_run(game, actions[i:j], state, marks)
            applied.extend(actions[i:j])
            i = j
            continue
        sender = sender_of(game, action)
        live = filter_actions(actions[: i + 1])
        common = 0
        for a, b in zip(applied, live):
            if a is not b:
                break
            common += 1
        for _ in range(len(applied) - common):
            game.undo()
        if live[common:]:
            game.load(live[common:])
        applied = live
        mark, state = mark_after(game, action, state, sender)
        marks.append(mark)
        i += 1
    return start, marks
