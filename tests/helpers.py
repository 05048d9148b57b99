"""Helpers the test files share (import them as ``from helpers import ...``, like
``boardkit``): players for a new game, an action by whoever acts (:func:`action`,
:func:`act`), a game part-way through a log (:func:`game_until`), and a refused action that
must leave the game exactly as it was (:func:`refused`, by the state's :func:`fingerprint`),
and what the journal tells at an action (:func:`told_at`, :func:`money_at`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from trackage.core.errors import GameError
from trackage.core.game import Game
from trackage.core.log import filter_actions, load_log
from trackage.core.state import full_state, snapshot
from trackage.invariants import all_cash
from trackage.replay import game_from_log


def players(n: int, prefix: str = "P") -> list[dict[str, Any]]:
    """``n`` players for :func:`new_game`, ids 1..n, named ``prefix`` and their id ("P1"...)."""
    return [{"id": i, "name": f"{prefix}{i}"} for i in range(1, n + 1)]


def player(game: Game, name: str) -> Any:
    """The player of ``game`` called ``name``."""
    return next(p for p in game.players if p.name == name)


def action(game: Game, type_: str, entity: Any = None, **kw: Any) -> dict[str, Any]:
    """An action of ``type_`` (fields ``kw``) by ``entity``, by default whoever acts now."""
    e = entity if entity is not None else game.current_entity()
    return {"type": type_, **game.index.ref(e), **kw}


def act(game: Game, type_: str, who: str | int | None = None, *, entity: Any = None, **kw: Any) -> Any:
    """Process an action of ``type_`` (fields ``kw``) and return the entity that took it:
    ``entity`` if given, else whoever acts now. With ``who``, first check that this entity
    is the one expected (``who`` is its name or its id)."""
    e = entity if entity is not None else game.current_entity()
    if who is not None:
        assert who in (e.name, e.id), f"expected {who} to act, not {e.name}"
    game.process(action(game, type_, e, **kw))
    return e


def game_until(path: Path, last_id: int) -> Game:
    """The game of the log at ``path`` after its actions up to id ``last_id`` (loaded as a log
    is, without the live-play checks), then switched to live play."""
    data = load_log(path)
    game = game_from_log(data)
    game.loading = True
    for a in filter_actions(data["actions"]):
        if a.get("id") is not None and a["id"] > last_id:
            break
        game._apply(a)
    game.loading = False
    return game


def fingerprint(game: Game) -> tuple[str, str, int, int, int]:
    """Everything a refused action must leave as it was: the full state, the readable
    snapshot (which holds the trace line), the number of actions and the money, counted both
    over every cash holder and by the game itself."""
    return (json.dumps(full_state(game), sort_keys=True, default=str),
            json.dumps(snapshot(game), sort_keys=True),
            len(game.actions), all_cash(game), game.total_cash())


def refused(game: Game, action: dict[str, Any], rule: str | None = None, *,
            error: type[GameError] | tuple[type[GameError], ...] = GameError,
            names_action: bool = False) -> GameError:
    """Process ``action``, which must raise ``error`` (naming ``rule`` if given) and leave
    the game's :func:`fingerprint` unchanged; return the error. With ``names_action`` the
    error must also carry this very action and name its id or type in its message."""
    before = fingerprint(game)
    with pytest.raises(error) as err:
        game.process(action)
    assert fingerprint(game) == before, f"a refused action changed the game: {action}"
    if rule is not None:
        assert err.value.rule == rule, (err.value.rule, str(err.value))
    if names_action:
        assert err.value.action is action
        assert str(action.get("id", "")) in str(err.value) or action.get("type") in str(err.value)
    return err.value


def told_at(game: Game, action_id: int, *kinds: str) -> list[str]:
    """What the game's story says at action ``action_id``: the messages of the events recorded
    then (only those of ``kinds``, if given), in order."""
    from trackage.story import message

    said = (message(game, e) for e in game.journal.events()
            if e.action == action_id and (not kinds or e.kind in kinds))
    return [m for m in said if m]


def money_at(game: Game, action_id: int) -> list[tuple[Any, Any, int, str]]:
    """The money events recorded at action ``action_id``: (payer, receiver, amount, why)."""
    return [(e["payer"], e["receiver"], e["amount"], e["why"]) for e in game.journal.events()
            if e.action == action_id and e.kind == "money"]


#: the events' fields that name a holder (a player's id, a company's, "bank", "pool")
HOLDER_FIELDS = ("payer", "receiver", "seller", "buyer", "player", "before", "entity", "operator", "owner")


def ids_told(game: Game) -> list[str]:
    """The story's messages that give a player by id rather than by name (none should): an
    event naming a player whose message holds that id as a word of its own."""
    import re

    from trackage.story import message

    ids = {p.id for p in game.players}
    bad = []
    for e in game.journal.events():
        m = message(game, e)
        named = {e[k] for k in HOLDER_FIELDS if k in e.fields and e[k] in ids}
        if m and any(re.search(rf"(?<![\w£$.]){i}(?![\w%.])", m) for i in named):
            bad.append(m)
    return bad
