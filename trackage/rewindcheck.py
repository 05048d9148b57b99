"""Checks of the undo journal (:mod:`trackage.core.rewind`): an action applied under a record
and taken back leaves every state object and container exactly as it was, the same objects
holding the same values (compared by identity, a stronger test than equal dumps).

:func:`marks` walks a game's state as a copy would (the catalogue, derived views, the
pipeline's records and the attributes a copy shares or drops left out) and notes, per object,
its path and what it holds; :func:`differences` names what an undo did not put back.
"""

from __future__ import annotations

import json
import types
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .core.clone import _ATOMS, held_attributes, passed_by_copy
from .core.game import Game
from .core.pipeline import Pipeline
from .core.rewind import recording

Marks = dict[int, tuple[str, Any, Any]]


def _held(v: Any) -> Any:
    return v if type(v) in _ATOMS else id(v)


def marks(game: Game) -> Marks:
    """id -> (path, the object, what it holds) for every state object and container."""
    out: Marks = {}
    skip = set(game.STATE_EXCLUDE) | set(game.CLONE_SHALLOW) | {"snapshots"}
    stack: list[tuple[Any, str]] = [(game, "game")]
    while stack:
        o, path = stack.pop()
        t = type(o)
        if t in _ATOMS or id(o) in out or passed_by_copy(t):
            continue
        if t is list or t is tuple:
            out[id(o)] = (path, o, tuple(map(_held, o)))
            stack.extend((x, f"{path}[{i}]") for i, x in enumerate(o))
        elif t is dict:
            out[id(o)] = (path, o, tuple((_held(k), _held(v)) for k, v in o.items()))
            for k, v in o.items():
                stack.append((k, f"{path}{{key}}"))
                stack.append((v, f"{path}[{k!r}]"))
        elif t is set:
            out[id(o)] = (path, o, frozenset(map(_held, o)))
            stack.extend((x, f"{path}{{}}") for x in o)
        elif t is types.MethodType:
            out[id(o)] = (path, o, _held(o.__self__))
            stack.append((o.__self__, f"{path}.__self__"))
        else:
            held = []
            for name, policy, v in held_attributes(o):
                if policy == "skip" or (o is game and name in skip):
                    continue
                held.append((name, _held(v)))
                if policy == "deep":
                    stack.append((v, f"{path}.{name}"))
                elif policy in ("keys", "shallow") and type(v) in (dict, list, set):
                    items = v.items() if type(v) is dict else enumerate(v)
                    out[id(v)] = (f"{path}.{name}", v, tuple((_held(k), _held(x)) for k, x in items))
            out[id(o)] = (path, o, tuple(sorted(held, key=lambda x: x[0])))
    return out


def differences(before: Marks, after: Marks, limit: int = 10) -> list[str]:
    """What is not as it was: objects whose contents changed, reachable ones that were not."""
    out: list[str] = []
    for k, (path, _, held) in before.items():
        now = after.get(k)
        if now is None:
            out.append(f"{path}: no longer reachable")
        elif now[2] != held:
            out.append(f"{path} ({type(now[1]).__name__}): {held!r:.200} -> {now[2]!r:.200}")
        if len(out) >= limit:
            return out
    for k, (path, o, _) in after.items():
        if k not in before:
            out.append(f"{path} ({type(o).__name__}): new after the undo")
            if len(out) >= limit:
                break
    return out


def check_actions(game: Game, actions: Iterable[dict[str, Any]], every: int = 1) -> list[str]:
    """Apply ``actions`` to ``game`` as a log import; every ``every``-th one is first applied
    under a record, taken back and compared with the state before it. The problems, each
    naming the action."""
    problems: list[str] = []
    pipeline = Pipeline(game)
    game.loading = True
    try:
        for i, action in enumerate(actions):
            if i % every == 0 and not game.finished:
                rec = game.rewind_record()  # (first: it makes a game of barrier-free twins tracked)
                before = marks(game)
                lengths = (len(game.actions), len(game.log), len(game.warnings))
                with recording(rec):
                    pipeline.apply(action)
                pipeline.rewind(rec, lengths)
                found = differences(before, marks(game))
                if found:
                    problems += [f"action {i} ({action.get('type')}): {d}" for d in found]
                    return problems
            pipeline.apply(action)
    finally:
        game.loading = False
    return problems


def check_log(path: str | Path, every: int = 1, limit: int | None = None) -> list[str]:
    """:func:`check_actions` over a log file (its first ``limit`` actions)."""
    from .core.log import filter_actions
    from .replay import game_from_log

    data = json.loads(Path(path).read_text())
    actions = filter_actions(data["actions"])
    return check_actions(game_from_log(data), actions[:limit] if limit else actions, every)


def check_live(game: Game, decisions: int, seed: int) -> list[str]:
    """Play ``game`` live for up to ``decisions`` random decisions (the playout's choices);
    after each, :meth:`Game.undo` (by the action's record) must leave every object as it was
    before the action, and :meth:`Game.redo` go on. The problems, each naming the action."""
    import random

    from .playout import choose

    rng = random.Random(seed)
    for _ in range(decisions):
        if game.finished:
            break
        legal = game.legal_actions()
        if not legal:
            break
        action = game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS)
        before = marks(game)
        n = len(game.actions)
        game.process(action)
        game.undo()
        found = differences(before, marks(game))
        if found or len(game.actions) != n:
            return [f"action {n} ({action.get('type')}): {d}" for d in found] or [f"action {n}: not undone"]
        game.redo()
    return []
