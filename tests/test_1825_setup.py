"""A new 1825 game starts right for every unit combination and player count."""

from __future__ import annotations

import pytest
from helpers import players

from trackage.titles import new_game

# starting cash per player (rules summary; matches the reference)
CASH = {
    ("unit_1",): {2: 1200, 3: 830, 4: 630, 5: 504},
    ("unit_2",): {2: 1200, 3: 800, 4: 600},
    ("unit_3",): {2: 750},
    ("unit_1", "unit_2"): {3: 840, 4: 630, 5: 504, 6: 420, 7: 360},
    ("unit_2", "unit_3"): {3: 840, 4: 630, 5: 504},
    ("unit_1", "unit_2", "unit_3"): {4: 630, 5: 504, 6: 420, 7: 360, 8: 315},
}
# certificate limits without minors (the reference's table; the rules summary's generic
# 28/20/16/13/11 figures are not what 18xx.games uses, the reference wins)
CERTS = {
    ("unit_1",): {2: 24, 3: 16, 4: 12, 5: 10},
    ("unit_2",): {2: 24, 3: 16, 4: 12},
    ("unit_3",): {2: 17},
    ("unit_1", "unit_2"): {3: 31, 4: 23, 5: 19, 6: 16, 7: 14},
    ("unit_2", "unit_3"): {3: 29, 4: 23, 5: 18},
    ("unit_1", "unit_2", "unit_3"): {4: 33, 5: 28, 6: 23, 7: 19, 8: 17},
}
BANK = {("unit_1",): 5000, ("unit_2",): 5000, ("unit_3",): 4000, ("unit_1", "unit_2"): 5000,
        ("unit_2", "unit_3"): 5000, ("unit_1", "unit_2", "unit_3"): 5000}
PRIVATES = {("unit_1",): ["S&M", "C&HP", "C&W", "L&M"]}

CASES = [(units, n) for units, table in CASH.items() for n in table]


@pytest.mark.parametrize("units,n", CASES, ids=[f"{'+'.join(u)}-{n}p" for u, n in CASES])
def test_new_game(units, n):
    g = new_game("1825", players(n), list(units), seed=1)
    assert g.cert_limit() == CERTS[units][n]
    assert g.real_bank_cash() == BANK[units] - sum(p.cash for p in g.players)
    assert g.data["bank_cash"] == BANK[units]
    companies = sorted(g.companies, key=lambda c: c.value)
    for i, p in enumerate(g.players):
        if i < len(companies):
            # each seat receives the i-th cheapest private and pays its face value
            assert [c.sym for c in p.companies] == [companies[i].sym]
            assert p.cash == CASH[units][n] - companies[i].value
        else:
            # more players than privates: LNWR director's certificate, then LNWR shares
            assert not p.companies and p.percent_of(g.corporation_by_id("LNWR")) in (10, 20)
    assert g.total_cash() == g.bank.cash + sum(p.cash for p in g.players)
    assert g.total_cash() == 50_000
    assert g.round.name == "Stock Round" and g.legal_actions()


def test_unit1_privates_in_value_order():
    g = new_game("1825", players(4), ["unit_1"])
    assert [p.companies[0].sym for p in g.players] == PRIVATES[("unit_1",)]


def test_defaults_by_player_count():
    assert new_game("1825", players(2)).units == frozenset({3})
    assert new_game("1825", players(3)).units == frozenset({2})
    assert new_game("1825", players(4)).units == frozenset({1})
    assert new_game("1825", players(6)).units == frozenset({1, 2})


def test_minors_raise_cert_limit_and_bank():
    g = new_game("1825", players(2), ["unit_1", "r1"])
    assert g.data["bank_cash"] == 7000  # 5000 + 1000 per R1 minor
    assert g.cert_limit() == 26
    g = new_game("1825", players(6), ["unit_1", "unit_2", "unit_3", "r1", "r2", "r3", "k1", "k3", "k5", "k6", "k7",
                                      "u3p", "db1", "db2", "db3"])
    assert g.data["bank_cash"] == 14000 and g.cert_limit() == 26
