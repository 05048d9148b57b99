"""The fast paths of the walk give the lists of the plain one: second halves from bitsets
(``joins.BitJoin``) and lists built as arrays (``table.CandTable``, title hooks called once
per distinct stops they read) against the tree walk (``Enumerator._join``) with a candidate
object per route and every hook called per route, rank by rank (route, bound, bonus)."""

from __future__ import annotations

import pytest
from router_states import first_lists, log_state

from trackage.router import candidates, solve

STATES = [
    ("1858", "1858_game_end_bank.json", 940),  # 7E with a 5E riding along (base bound hook)
    ("1858", "1858_game_end_bank.json", 868),
    ("1825", "1825_game_end_bank.json", 517),  # plain sums, no hooks
    ("1893", "1893_game_end_bank.json", 359),
    ("1867", "21268.json", 846),  # hex bonuses (a route hook reading a few stops)
    ("1861", "167259.json", 594),  # only the best stops pay, a 4 riding along a 5
    ("1861", "bank_breaks_then_final_phase.json", 758),
    ("1822", "1822_game_end_stock_market.json", 1499),  # E trains' bound, destination bonus
    ("1858India", "hotseat_qs_b.json", 880),  # a route hook without its stops named: per route
]


@pytest.fixture(autouse=True)
def _the_walk(monkeypatch):
    """These tests are of the walk: the city-sequence search of two E trains is off."""
    monkeypatch.setattr(solve, "_CITY_PAIRS", False)



def _lists(monkeypatch, game, entity, *, fast: bool) -> tuple[object, dict]:
    """The result and, per train name, its kind's first list as (stops, bound, bonus) by rank."""
    return first_lists(monkeypatch, game, entity, lambda c: (tuple(n.id for n in c.nodes), c.bound, c.bonus),
                       [(solve, "_TABLES", fast), (candidates.Enumerator, "bit_joins", fast)])


@pytest.mark.parametrize(("title", "log", "at"), STATES)
def test_fast_lists_are_the_plain_lists(monkeypatch, title, log, at):
    game, entity = log_state(title, log, at)
    fast, fast_lists = _lists(monkeypatch, game, entity, fast=True)
    plain, plain_lists = _lists(monkeypatch, game, entity, fast=False)
    assert fast.optimal and plain.optimal
    assert fast.revenue == plain.revenue > 0
    assert fast.routes == plain.routes
    assert set(fast_lists) == set(plain_lists)
    for name, ranked in plain_lists.items():
        assert fast_lists[name] == ranked, name
    assert sum(len(v) for v in plain_lists.values()) > 100  # real lists
