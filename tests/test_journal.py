"""The event journal: recorded where a change happens, tied to its action, copied and undone
with the game; money events and the ledger built from them."""

from __future__ import annotations

import pytest
from conftest import ref
from helpers import players, refused

from trackage.core.clone import clone
from trackage.core.journal import MONEY_CATEGORIES, Journal
from trackage.core.ledger import cash_of, flows, net, table, unexplained
from trackage.core.money import pay
from trackage.titles import new_game


def test_events_are_kept_in_order_and_shared_by_copies():
    j = Journal()
    j.action = 4
    j.record("money", payer=1, receiver="bank", amount=30, why="company_purchase", round="SR 1")
    j.action = 5
    j.record("money", payer="bank", receiver="LNWR", amount=1000, why="float_capital", round="SR 1")
    assert len(j) == 2
    assert [(e.action, e["amount"]) for e in j] == [(4, 30), (5, 1000)]
    assert [e["amount"] for e in j.events(1)] == [1000]
    copy = clone(j)
    copy.record("money", payer="LNWR", receiver="bank", amount=80, why="train_purchase", round="OR 1.1")
    assert len(j) == 2 and len(copy) == 3  # the original is untouched
    assert copy.events()[0] is j.events()[0]  # recorded events are shared, never copied
    with pytest.raises(TypeError):
        j.events()[0].fields["amount"] = 1  # type: ignore[index]


def test_pay_records_the_flow_and_its_reason():
    g = new_game("1825", players(4), ["unit_1"], seed=3)
    p1, lnwr = g.players[0], g.corporation_by_id("LNWR")
    before, n = cash_of(g), len(g.journal)
    pay(g, p1, lnwr, 50, "transfer")
    fl = flows(g, n)
    assert fl == [{"action": g.journal.action, "round": "SR 1", "payer": p1.id, "receiver": "LNWR",
                   "amount": 50, "category": "transfer"}]
    assert unexplained(before, cash_of(g), fl) == {}
    assert net(fl) == {p1.id: -50, "LNWR": 50}
    assert table(g, since=n) == [{"from": "players", "to": "companies", "category": "transfer", "amount": 50}]
    with pytest.raises(ValueError, match="unknown reason"):
        pay(g, p1, lnwr, 5, "gift")
    assert "gift" not in MONEY_CATEGORIES


def test_unexplained_names_the_holder_and_both_figures():
    assert unexplained({"bank": 100, 1: 0}, {"bank": 70, 1: 30}, []) == {"bank": (-30, 0), 1: (30, 0)}


def test_a_refused_action_leaves_the_journal_as_it_was_and_undo_takes_events_away():
    g = new_game("1825", players(4), ["unit_1"], seed=3)
    n = len(g.journal)
    tail = g.journal.tail
    refused(g, {"type": "par", **ref(g), "corporation": "LNWR", "share_price": "nope"}, "unknown-price")
    assert g.journal.tail is tail
    g.process({"type": "par", **ref(g), "corporation": "LNWR", "share_price": "100,0,15"})
    assert len(g.journal) >= n
    after_par = len(g.journal)
    if after_par > n:
        assert {e.action for e in g.journal.events(n)} == {len(g.actions)}
    g.undo()
    assert len(g.journal) == n
