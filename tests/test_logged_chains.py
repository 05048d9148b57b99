"""A logged connection's chains walked along its hexes (`logged_chains`) are the chains the
whole walk finds between the end hexes' nodes, filtered by their id, in the same order; a
route's connection check asks only where its segments meet when each chain's paths meet by
track (`Chain.linked`), with the same answers."""

from __future__ import annotations

import json
from itertools import pairwise

import pytest
from boardkit import Corp, city_at, line_map, place
from conftest import fixture_files
from test_routes import rules_on, run, train

from trackage.core import routes as R
from trackage.core.routes import Chain, RouteError, Segment, logged_chains, node_chains
from trackage.replay import replay_data


def _whole_walk(board, starts, ends, want, skip_track=None):
    """What the chains of a logged connection were before: every chain between a start node
    and another end node, shortest first, filtered by its id."""
    return [c for sn in starts for en in ends if sn is not en
            for c in node_chains(sn, en, skip_track, board=board) if c.id == want]


def _same(a: list[Chain], b: list[Chain]) -> bool:
    return len(a) == len(b) and all(
        x.nodes == y.nodes and x.id == y.id and len(x.paths) == len(y.paths)
        and all(p is q for p, q in zip(x.paths, y.paths, strict=True)) for x, y in zip(a, b, strict=True))


def test_logged_chains_on_a_line():
    m = line_map()
    board = m.board
    a3, a7, a11 = (board.tile(city_at(m, h).hex).nodes for h in ("A3", "A7", "A11"))
    for starts, ends, want in ((a3, a7, ["A3", "A5", "A7"]), (a7, a3, ["A7", "A5", "A3"]),
                               (a3, a11, ["A3", "A5", "A7", "A9", "A11"]), (a3, a7, ["A3", "A7"]),
                               (a3, a7, ["A3", "A9", "A7"]), (a3, a3, ["A3"])):
        got = logged_chains(starts, ends, want, None, board=board)
        assert _same(got, _whole_walk(board, starts, ends, want))
        assert all(c.id == want for c in got)
    (one,) = logged_chains(a3, a7, ["A3", "A5", "A7"], None, board=board)
    assert [p.hex.id for p in one.paths] == ["A3", "A5", "A7"]
    assert one.nodes == (a3[0], a7[0])


def _checked_matching_chains(checked: list[int]):
    """``Route._matching_chains`` that also walks the whole way and asserts the same chains."""
    memo_walk = R.Route._matching_chains

    def both(self, hex_ids, skip_track):
        out = memo_walk(self, hex_ids, skip_track)
        want = list(hex_ids)
        start = self.rules.hex_by_id(want[0].split()[0])
        end = self.rules.hex_by_id(want[-1].split()[0])
        board = self.rules.board
        skip = self.rules.skip_route_track_type(self.train)
        assert skip_track == skip  # (asked once per route: the train's own)
        fresh = logged_chains(board.tile(start).nodes, board.tile(end).nodes, want, skip, board=board)
        whole = self._walk_matching_chains(want, frozenset(h.split()[0] for h in want), start, end)
        assert _same(fresh, whole), want
        assert _same(out, whole), want
        checked.append(len(whole))
        return out

    return both


def _checked_run_chains(checked: list[int]):
    """``Route._run_chains`` (a run's connections' chains, kept with the map per version of
    their hexes' tiles: a hit asks no ``_matching_chains``) that also walks each connection the
    whole way and asserts the same chains."""
    kept = R.Route._run_chains

    def both(self, conns, skip_track):
        out = kept(self, conns, skip_track)
        assert len(out) == len(conns)
        for hex_ids, chains in zip(conns, out, strict=True):
            want = list(hex_ids)
            start = self.rules.hex_by_id(want[0].split()[0])
            end = self.rules.hex_by_id(want[-1].split()[0])
            whole = self._walk_matching_chains(want, frozenset(h.split()[0] for h in want), start, end)
            assert _same(list(chains), whole), want
            checked.append(len(whole))
        return out

    return both


@pytest.mark.parametrize(("title", "log"), [("1858", "219682"), ("1822", "1822_game_end_stock_market")])
def test_every_logged_connection_resolves_as_the_whole_walk(title, log, monkeypatch):
    files = [f for f in fixture_files(title) if f.stem == log]
    if not files:
        pytest.skip(f"no {title} fixture {log}")
    checked: list[int] = []
    monkeypatch.setattr(R.Route, "_matching_chains", _checked_matching_chains(checked))
    # (a run's connections met before, in this game or an earlier one of the map, come from the
    # map's kept answers without asking ``_matching_chains``: those are checked as they come)
    monkeypatch.setattr(R.Route, "_run_chains", _checked_run_chains(checked))
    out = replay_data(json.loads(files[0].read_text()))
    assert out.matches
    assert len(checked) > 100 and sum(checked) >= len(checked)


@pytest.mark.parametrize(("title", "log"), [("1858", "219682"), ("1867", "hs_wuveadew_21268")])
def test_a_later_game_of_the_map_takes_the_walks_from_the_shared_map(title, log, monkeypatch):
    """A logged connection walked in one game is not walked again in another game of the same
    map with the same tiles and links: its chains are rebuilt on the later game's own tiles, and
    they are still the whole walk's chains."""
    files = [f for f in fixture_files(title) if f.stem == log]
    if not files:
        pytest.skip(f"no {title} fixture {log}")
    text = files[0].read_text()
    first = replay_data(json.loads(text))
    assert first.matches
    walks: list[int] = []
    real = R.logged_chains

    def counted(*args, **kwargs):
        walks.append(1)
        return real(*args, **kwargs)

    checked: list[int] = []
    monkeypatch.setattr(R, "logged_chains", counted)
    monkeypatch.setattr(R.Route, "_matching_chains", _checked_matching_chains(checked))
    monkeypatch.setattr(R.Route, "_run_chains", _checked_run_chains(checked))
    again = replay_data(json.loads(text))
    assert again.matches and again.result == first.result
    assert len(checked) > 50
    assert walks == []  # (the checker walks by its own import: the replay walked nothing)
    assert first.game.board.hexmap is again.game.board.hexmap
    assert again.game.board.hexmap.logged_walks


def _old_check(rules, route, corp):
    return all(R._connects_to(a, b, corp, rules.board) for a, b in pairwise(route.ordered_paths))


def test_connection_check_asks_the_joins_only_when_the_chains_meet_by_track():
    m = line_map()
    a, b = Corp("A"), Corp("B")
    place(a, m, "A3")
    t = train(a, "3", 3)
    rules = rules_on(m)
    entry = {"train": t.id, "connections": [["A3", "A5", "A7"], ["A7", "A9", "A11"]]}
    (r,) = run(rules, a, [entry])
    assert r.revenue() == 20 + 30 + 10
    links = m.board.state.links
    for s in r.connection_data:
        forward = s.left in s.chain.paths[0].nodes
        assert s.chain.linked(forward, links) and s.chain.linked(not forward, links)
        assert s.chain._linked is not None and s.chain._linked[0] is links
    assert _old_check(rules, r, a)
    # B fills A7: the join of the two segments is refused (the chains still meet by track)
    place(b, m, "A7")
    (r,) = run(rules, a, [entry])
    assert not _old_check(rules, r, a)
    with pytest.raises(RouteError, match="not connected"):
        r.revenue()


def test_a_chain_whose_paths_do_not_meet_is_refused_as_before():
    m = line_map()
    a = Corp("A")
    place(a, m, "A3")
    t = train(a, "3", 3)
    rules = rules_on(m)
    (good,) = run(rules, a, [{"train": t.id, "connections": [["A3", "A5", "A7"]]}])
    paths = good.connection_data[0].chain.paths
    assert [p.hex.id for p in paths] == ["A3", "A5", "A7"]
    c3, c11 = city_at(m, "A3"), city_at(m, "A7")
    # the same paths with A5's left out: A3's path and A7's do not meet
    broken = Chain((c3, c11), [paths[0], paths[2]], None)
    links = m.board.state.links
    assert not broken.linked(True, links) and not broken.linked(False, links)
    r = R.Route(rules, t, connection_data=[Segment(c3, c11, broken)])
    assert not _old_check(rules, r, a)
    with pytest.raises(RouteError, match="not connected"):
        rules.check_connected(r, a)
    whole = Chain((c3, c11), list(paths), None)
    r = R.Route(rules, t, connection_data=[Segment(c11, c3, whole)])  # walked from its end
    assert _old_check(rules, r, a)
    rules.check_connected(r, a)
    assert whole._linked is not None and whole._linked[2] is True and whole._linked[1] is None


def test_a_chains_link_answer_outlives_changes_elsewhere_only():
    m = line_map()
    a = Corp("A")
    place(a, m, "A3")
    t = train(a, "3", 3)
    rules = rules_on(m)
    (r,) = run(rules, a, [{"train": t.id, "connections": [["A3", "A5", "A7"]]}])
    chain = r.connection_data[0].chain
    links = m.board.state.links
    assert chain.linked(True, links)
    # a new links dict whose entries for the chain's hexes are the same: the answer is kept
    elsewhere = dict(links)
    elsewhere["A11"] = {}
    assert chain.linked(True, elsewhere)
    assert chain._linked is not None and chain._linked[0] is elsewhere and chain._linked[1] is True
    # A5's links replaced by none: asked again, and now its paths do not meet
    cut = dict(links)
    cut["A5"] = {}
    assert not chain.linked(True, cut) and not chain.linked(False, cut)
    assert chain.linked(True, links)


def test_a_stops_price_is_worked_out_once_per_route_and_forgotten_with_its_cache():
    m = line_map()
    a = Corp("A")
    place(a, m, "A3")
    t = train(a, "3", 3)
    rules = rules_on(m)
    (r,) = run(rules, a, [{"train": t.id, "connections": [["A3", "A5", "A7"], ["A7", "A9", "A11"]]}])
    assert r.revenue() == 20 + 30 + 10
    prices = r._stop_prices
    assert prices is not None and sorted(prices.values()) == [10, 20, 30]
    for stop, price in prices.items():
        assert price == rules.revenue_multiplier(stop, t) * rules.route_base_revenue(stop, r)
        assert rules.stop_revenue(stop, r) == price
    r.clear_cache()
    assert r._stop_prices is None
    assert r.revenue(recompute=True) == 60
