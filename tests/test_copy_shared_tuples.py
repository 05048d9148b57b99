"""Tuples of frozen values shared by copies: a holder's certificates, a corporation's
certificates and station tokens, a minor's tokens (``CLONE_SHARE``) are tuples replaced on
every change, never changed in place, holding only frozen values, so a copy takes the same
tuple; so are the board's maps of tokens (``BoardState.tokens``, ``extra_tokens``,
``hex_tokens``: dicts replaced on every change, of tuples of tokens). Checked on the state at
the end of shared logs: every such tuple holds only values a copy shares, the copy holds the
same tuples, and a copy taken back by undo leaves the original as it was while reaching the
state of a replay to that point."""

from __future__ import annotations

import types

import pytest
from conftest import FIXTURES

from trackage.core.board import BoardState
from trackage.core.clone import _ATOMS, clone, held_attributes, passed_by_copy
from trackage.core.log import filter_actions, load_log
from trackage.core.state import full_state
from trackage.replay import game_from_log

LOGS = [FIXTURES / "1822" / "1822_game_end_stock_market.json", FIXTURES / "1825" / "141331.json",
        FIXTURES / "1867" / "21268.json", FIXTURES / "1893" / "1893_game_end_bank.json"]
HISTORY = frozenset({"snapshots", "redo_stack", "actions", "log", "warnings", "_rewinds"})
NAMES = ("certificates", "shares", "tokens")
BOARD_MAPS = ("tokens", "extra_tokens", "hex_tokens")


def state_objects(game) -> list[object]:
    """Every state object (not a container, not shared or dropped by a copy) of ``game``."""
    seen: set[int] = set()
    out = []
    stack: list[object] = [game]
    while stack:
        o = stack.pop()
        t = type(o)
        if t in _ATOMS or id(o) in seen:
            continue
        seen.add(id(o))
        if t in (list, tuple, set, frozenset):
            stack.extend(o)
        elif t is dict:
            stack.extend(o.keys())
            stack.extend(o.values())
        elif t is types.MethodType:
            stack.append(o.__self__)
        elif not passed_by_copy(t):
            out.append(o)
            stack.extend(v for name, policy, v in held_attributes(o) if policy == "deep" and name not in HISTORY)
    return out


def shared_tuples(game) -> list[tuple[object, str, tuple]]:
    return [(o, name, v) for o in state_objects(game) for name, policy, v in held_attributes(o)
            if name in NAMES and policy == "share" and not isinstance(o, BoardState)]


def load(path, upto=None):
    data = load_log(path)
    actions = filter_actions(data["actions"])
    g = game_from_log(data)
    g.load(actions if upto is None else actions[:upto])
    return g, actions


@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_shared_tuples_hold_only_values_and_copies_take_them(path):
    if not path.is_file():
        pytest.skip(f"no shared fixture {path}")
    g, actions = load(path)
    found = shared_tuples(g)
    assert found, "the walk finds the holders' tuples"
    kinds = {name for _o, name, _v in found}
    assert {"certificates", "tokens"} <= kinds
    for o, name, v in found:
        assert type(v) is tuple, f"{type(o).__name__}.{name} holds a {type(v).__name__}"
        bad = [x for x in v if type(x) not in _ATOMS and not passed_by_copy(type(x))]
        assert not bad, f"{type(o).__name__}.{name} holds {type(bad[0]).__name__}, which a copy copies"
    st = g.board.state
    for name in BOARD_MAPS:
        table = getattr(st, name)
        assert type(table) is dict
        for v in table.values():
            assert type(v) is tuple and all(x is None or passed_by_copy(type(x)) for x in v), name
    before = full_state(g)
    if g.board is not None:
        g.board.settle_graph()
    memo: dict[int, object] = {}
    c = clone(g, memo)
    for o, name, v in found:
        assert getattr(memo[id(o)], name) is v, (type(o).__name__, getattr(o, "id", None), name)
    for name in BOARD_MAPS:
        assert getattr(c.board.state, name) is getattr(st, name)
    assert full_state(c) == before
    # the copy moves back: the original keeps its state, the copy reaches the replay's
    back = 3
    for _ in range(back):
        c.undo()
    assert full_state(g) == before
    replayed, _ = load(path, len(actions) - back)
    assert full_state(c) == full_state(replayed)
