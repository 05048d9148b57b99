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


def test_the_1825_worked_example_told_by_its_money_events():
    """The seeds' 1825 worked example (seed 000) as money events: S1 pays £30 for the S&M at the
    set-up, £200 for the LNWR's director's certificate, the LNWR gets its £1,000 when the 6th
    share is sold (the director's certificate counts two), and the S&M pays S1 its £5 in OR 1."""
    from helpers import act

    g = new_game("1825", players(4, "S"), ["unit_1"], seed=1)
    s1 = g.index.player(1)

    def money(since=0):
        return [(e.action, e["payer"], e["receiver"], e["amount"], e["why"])
                for e in g.journal.events(since) if e.kind == "money"]

    start = money()
    assert (0, s1.id, "bank", 30, "company_purchase") in start
    assert sum(1 for m in start if m[4] == "starting_cash") == 4
    n = len(g.journal)
    g.process({"type": "par", **g.index.ref(s1), "corporation": "LNWR", "share_price": "100,0,15"})
    assert money(n) == [(1, s1.id, "bank", 200, "share_purchase")]
    floated_at = None
    for i, who in enumerate([2, 3, 4, 1, 2, 3, 4, 1], start=1):
        n = len(g.journal)
        p = g.index.player(who)
        g.process({"type": "buy_shares", **g.index.ref(p), "shares": [f"LNWR_{i}"], "percent": 10})
        got = money(n)
        assert (len(g.actions), p.id, "bank", 100, "share_purchase") in got
        if any(m[4] == "float_capital" for m in got):
            floated_at = i
            assert (len(g.actions), "bank", "LNWR", 1000, "float_capital") in got
    assert floated_at == 4  # the director's 20% and four shares: 60% sold, it floats
    while g.round.name == "Stock Round":
        act(g, "pass")
    assert ("bank", s1.id, 5, "private_revenue") in [m[1:] for m in money() if m[4] == "private_revenue"]
