"""A hard national state: 1867's national late in a real log, given one 5+5E (it pays its 5
best stops and visits any number of others). Its bound (1867's bonuses of stops that need
not pay) promises more than every route earns, so a floor from bounds walked twice; the
floor from the best run judged walks once, with the same proven revenue."""

from __future__ import annotations

import random

import pytest
from conftest import FIXTURES

from trackage.core.routes import rules_for
from trackage.router import logstates, optimal_routes, solve
from trackage.router.candidates import Enumerator, evaluate_alone
from trackage.router.entries import DEPTH, IDX, NODES, PARENT, SPENT, VALS
from trackage.router.national import with_national_train
from trackage.router.slack import BonusSlack, weakest_paid

LOG = FIXTURES / "1867" / "21268.json"


@pytest.fixture(scope="module")
def state():
    if not LOG.exists():
        pytest.skip(f"NO FIXTURES: {LOG} is absent (set TRACKAGE_FIXTURES)")
    game, _ = logstates.state_before(LOG, 846)
    return game, with_national_train(game)


def test_national_5_5e_revenue_is_pinned_and_proven(state):
    game, national = state
    res = optimal_routes(game, national)
    assert res.optimal
    assert res.revenue == 830
    assert res.stats.passes == 1  # one walk
    trains = {t.id: t for t in national.trains}
    assert sum(game.compute_route_revenues(national, res.routes, trains)) == 830


def test_floor_from_bounds_gives_the_same_run(state, monkeypatch):
    game, national = state
    real = solve._walk
    monkeypatch.setattr(solve, "_walk", lambda *a, judge=None, **k: real(*a, **k))
    monkeypatch.setattr(solve, "_SET_SEARCH", False)  # (the walk is tested here)
    res = optimal_routes(game, national)
    assert res.optimal and res.revenue == 830


BOUND_STATES = [("1867", "21268.json", 846), ("1861", "167259.json", 594),
                ("1861", "bank_breaks_then_final_phase.json", 758)]


def national_state(title: str, log: str, at: int):
    """The shared log's state before action ``at`` with the national given one 5+5E: the
    game, the national and the route rules (skipped when the fixtures are absent)."""
    path = FIXTURES / title / log
    if not path.exists():
        pytest.skip(f"NO FIXTURES: {path} is absent (set TRACKAGE_FIXTURES)")
    game, _ = logstates.state_before(path, at)
    national = with_national_train(game)
    return game, national, rules_for(game)


@pytest.mark.parametrize(("title", "log", "at"), BOUND_STATES)
def test_bound_of_a_5_5e_is_at_least_its_revenue(monkeypatch, title, log, at):
    """1867/1861's bound for a train paying its 5 best stops counts a bonus only as far as
    its stop can pay (and a tokened stop must pay): on 1,500 routes of the national's whole
    list (no floor), the bound is at least the route's exact value, and it is that value on
    most of them."""
    game, national, rules = national_state(title, log, at)
    lists: list = []
    real = solve._walk

    def whole(plan, stats, *a, **k):  # every route, as a table (no floor)
        kind, theirs = real(plan, stats)
        lists.append(kind.cands)
        return kind, theirs

    monkeypatch.setattr(solve, "_walk", whole)
    monkeypatch.setattr(solve, "_SET_SEARCH", False)  # (the walk is tested here)
    res = optimal_routes(game, national)
    assert res.optimal
    (table,) = lists
    ranks = random.Random(5).sample(range(len(table)), min(1500, len(table)))
    exact = tight = 0
    for r in ranks:
        c = table[r]
        v = evaluate_alone(rules, c.train, c.nodes, c.segs)
        if v is None:
            continue
        exact += 1
        assert c.bound >= v, (r, c.bound, v)
        tight += c.bound == v
    assert exact > len(ranks) // 2
    assert tight > exact // 2


def test_hard_1861_national_prices_few_routes():
    """1861/167259.json before run_routes 594, the national with 8 tokens and one 5+5E:
    750, proven, in one walk; with the bonuses bounded by what their stops can pay, the list
    keeps and prices a handful of routes (1,468 exact evaluations with the old bound)."""
    path = FIXTURES / "1861" / "167259.json"
    if not path.exists():
        pytest.skip(f"NO FIXTURES: {path} is absent (set TRACKAGE_FIXTURES)")
    game, _ = logstates.state_before(path, 594)
    national = with_national_train(game)
    res = optimal_routes(game, national)
    assert res.optimal and res.revenue == 750
    assert res.stats.passes == 1
    assert sum(res.stats.candidates.values()) < 50
    assert res.stats.evaluated < 50
    trains = {t.id: t for t in national.trains}
    assert sum(game.compute_route_revenues(national, res.routes, trains)) == 750


@pytest.mark.parametrize(("title", "log", "at"), BOUND_STATES)
def test_bonus_slack_of_a_subtree_bounds_its_routes(monkeypatch, title, log, at):
    """The per-part slack (``trackage.router.slack``): a half's subtree bits hold the bonus
    stops of every half below it; and on sampled routes of the national's whole list, the
    stop values plus the slack of any set of bonus stops holding the route's (as a subtree's
    does), with a weakest paid value at most the route's, is at least the route's bound and
    its exact value. The floored walk with it keeps the proven revenue of the whole list."""
    game, national, rules = national_state(title, log, at)
    trees: list = []
    real_bits = BonusSlack.subtree_bits

    def record(self, halves, lim):
        out = real_bits(self, halves, lim)
        trees.append((self, list(halves), lim, out))
        return out

    monkeypatch.setattr(BonusSlack, "subtree_bits", record)
    monkeypatch.setattr(solve, "_SET_SEARCH", False)  # (the walk is tested here)
    floored = optimal_routes(game, national)
    assert floored.optimal
    assert trees  # the floored walk pruned by subtree slack
    rnd = random.Random(7)
    for bonus, halves, lim, out in trees:
        kept = [h for h in halves if lim is None or h[SPENT] <= lim]
        for h in rnd.sample(kept, min(2000, len(kept))):
            below = bonus.path_bits(h[NODES][h[DEPTH]:])  # its own stop
            assert below & ~out[h[IDX]] == 0
            p = h[PARENT]
            if p[IDX] >= 0:
                assert out[h[IDX]] & ~out[p[IDX]] == 0  # a parent's subtree holds its children's

    lists: list = []
    plans: list = []
    real = solve._walk

    def whole(plan, stats, *a, **k):  # every route, as a table (no floor)
        kind, theirs = real(plan, stats)
        lists.append(kind.cands)
        plans.append(plan)
        return kind, theirs

    monkeypatch.setattr(solve, "_walk", whole)
    monkeypatch.setattr(solve, "_SET_SEARCH", False)  # (the walk is tested here)
    res = optimal_routes(game, national)
    assert res.optimal and res.revenue == floored.revenue
    (table,) = lists
    (plan,) = plans
    bonus = plan.en.bonus
    assert bonus is not None
    pay = plan.pay
    every = (1 << len(bonus.nodes)) - 1
    checked = 0
    for r in rnd.sample(range(len(table)), min(1500, len(table))):
        c = table[r]
        v = evaluate_alone(rules, c.train, c.nodes, c.segs)
        if v is None:
            continue
        vals = tuple(sorted((plan.en.value(n) for n in c.nodes), reverse=True)[:pay])
        base = sum(vals)
        bits = bonus.path_bits(c.nodes)
        wk = weakest_paid(vals, pay)
        for reach, w in ((bits, wk), (bits | (rnd.getrandbits(len(bonus.nodes)) & every), rnd.randint(0, wk))):
            assert base + bonus(reach, w) >= max(v, c.bound), (r, reach, w, base, v, c.bound)
        checked += 1
    assert checked > 500


@pytest.mark.parametrize(("title", "log", "at"), BOUND_STATES)
def test_subtree_rows_keep_every_route_reaching_the_floor(monkeypatch, title, log, at):
    """The 5+5E's subtree rows (counted and uncounted stops apart, ``Enumerator._subtree_best``)
    are an upper bound: on sampled (first half, second half) pairs of the national's trees,
    with the floor set to the route's own stop values, the want of the first half passes the
    row of every subtree on the second half's way from the start (so no route reaching the
    floor is cut); and the floored walk's revenue is proven."""
    path = FIXTURES / title / log
    if not path.exists():
        pytest.skip(f"NO FIXTURES: {path} is absent (set TRACKAGE_FIXTURES)")
    game, _ = logstates.state_before(path, at)
    national = with_national_train(game)
    trees: list = []
    real_rows = Enumerator._subtree_best

    def record(self, root, halves, lim):
        out = real_rows(self, root, halves, lim)
        trees.append((self, root, list(halves), lim, out))
        return out

    monkeypatch.setattr(Enumerator, "_subtree_best", record)
    monkeypatch.setattr(solve, "_SET_SEARCH", False)  # (the walk is tested here)
    res = optimal_routes(game, national)
    assert res.optimal
    rnd = random.Random(11)
    checked = split = 0
    for en, root, halves, lim, rows in trees:
        assert en._capped()
        sp0 = root[SPENT]
        room = en.meter.capacity - sp0
        seconds = [h for h in halves if lim is None or h[SPENT] <= lim]
        if not seconds:
            continue
        for _ in range(3000):
            h1 = rnd.choice(halves)
            s_h = h1[SPENT] - sp0
            most = min(s_h, room - s_h)
            h2 = rnd.choice(seconds)
            if most < 0 or h2[SPENT] - sp0 > most or rows.version(h1) & rows.version(h2):
                continue
            paid = sorted((*h1[VALS], *(en.value(n) for n in h2[NODES][1:])), reverse=True)[:en.pay]
            want = en._wanted(h1, most, sum(paid), 0)
            table = rows.table(rows.version(h1))
            # (with two rows, also as the walk joins them for the meter left)
            joined = rows.joined(rows.version(h1), want[1]) if want[3] else table
            a = h2
            while a[IDX] >= 0:
                assert en._passes(table[a[IDX]], *want), (at, h1[NODES], h2[NODES], a[NODES], want)
                assert en._passes(joined[a[IDX]], *want[:3], 0), (at, h1[NODES], h2[NODES], a[NODES], want)
                a = a[PARENT]
            split += bool(want[3])
            checked += 1
    assert checked > 1000
    assert split > checked // 2  # (the national's uncounted cities outrank its paid offboards)
