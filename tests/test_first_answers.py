"""The steps' quick answers (``has_actions``, ``answers``) equal the truths of their lists
(``actions``) at every position of every shared log and of live random games, for every
active step of the round and every entity that could be asked (the step's own, the
players, the private companies), for every action type a step handles and a pass."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import require_fixtures

from trackage.core.log import filter_actions, load_log
from trackage.playout import COMBOS, choose
from trackage.replay import game_from_log
from trackage.titles import TITLES, new_game

LOGS = [f for title in sorted(TITLES) for f in require_fixtures(title)]


def _disagreements(game: Any) -> list[str]:
    """Where a step's quick answer is not its list's truth, in words (none expected)."""
    out: list[str] = []
    rnd = game.round
    steps = [s for s in rnd.steps if s.active()]
    if not steps:
        return out
    atypes = sorted({a for s in steps for a in s.HANDLERS} | {"pass"})
    for step in steps:
        entities = [step.current_entity(), *game.players, *getattr(game, "companies", [])]
        for e in dict.fromkeys(x for x in entities if x is not None):
            acts = step.actions(e)
            if step.has_actions(e) != bool(acts):
                out.append(f"{type(step).__name__}.has_actions({e.id}) != bool({acts})")
            for atype in atypes:
                got = step.answers(e, atype)
                if got != (atype in acts, bool(acts)):
                    out.append(f"{type(step).__name__}.answers({e.id}, {atype}) = {got}, list {acts}")
    return out


@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.name}" if p else "none")
def test_quick_answers_are_the_lists_truths_along_a_log(path):
    data = load_log(path)
    game = game_from_log(data)
    bad: list[str] = []
    checked = [0]

    def check(g: Any, _action: dict[str, Any]) -> None:
        checked[0] += 1
        if not g.finished:
            bad.extend(f"after action {checked[0]}: {d}" for d in _disagreements(g))

    game.load(filter_actions(data["actions"]), trace=check)
    assert checked[0] > 10
    assert not bad, bad[:10]
    # (the questions asked along the way changed nothing the log's end depends on)
    assert data.get("result") is None or {str(k): v for k, v in data["result"].items()} == game.result()


@pytest.mark.parametrize("title,seed", [("1825", 11), ("1861", 12), ("1867", 13), ("1893", 14), ("1893", 15),
                                        ("1858", 16), ("1822", 17)])
def test_quick_answers_are_the_lists_truths_in_live_games(title, seed):
    n, options = COMBOS[title][seed % len(COMBOS[title])]
    players = [{"id": i + 1, "name": f"Player {i + 1}"} for i in range(n)]
    game = new_game(title, players, options, seed)
    rng = random.Random(seed)
    asked = 0
    for _ in range(200):
        if game.finished:
            break
        bad = _disagreements(game)
        assert not bad, bad[:10]
        asked += 1
        listed = game.legal_actions(routes=False)
        action = game.playout_choose(rng, listed) or choose(rng, listed, game.PLAYOUT_WEIGHTS)
        if action["type"] == "run_routes":  # (listed without its routes: the router's run)
            action = next(a for a in game.legal_actions() if a["type"] == "run_routes")
        game.process(dict(action))
    assert asked > 20


@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.name}" if p else "none")
def test_the_near_test_of_a_walk_only_says_what_the_walk_finds(path, monkeypatch):
    """``_near_targets`` (the first paths of each start) answers "found" only where the whole
    walk finds a target: every walk of a log's replay asked both ways."""
    from trackage.core import graph

    near = graph._near_targets
    walks_find = graph.TrackGraph._walks_find
    asked = {"walks": 0, "near": 0}

    def both(self, corporation, starts, targets_in, keep_off=None, probe=None):
        with monkeypatch.context() as m:
            m.setattr(graph, "_near_targets", lambda *_a: False)
            walked = walks_find(self, corporation, starts, targets_in, keep_off)
            if probe is not None:  # the first looks answer as the pruned walks do
                assert walks_find(self, corporation, starts, targets_in, keep_off, probe) == walked
        board = self.board
        skip_paths = self._skip_paths(corporation) if self._skip_paths is not None else None
        said = near(starts, targets_in, skip_paths, self.skip_track, (board.state.links, board.state.tile_at, None))
        asked["walks"] += 1
        asked["near"] += said
        assert walked or not said
        return walks_find(self, corporation, starts, targets_in, keep_off, probe)

    monkeypatch.setattr(graph.TrackGraph, "_walks_find", both)
    data = load_log(path)
    game = game_from_log(data)
    game.load(filter_actions(data["actions"]))
    assert data.get("result") is None or {str(k): v for k, v in data["result"].items()} == game.result()


def _whole_walk_purchases(board: Any, corporation: Any) -> bool:
    """Does a whole walk (``_compute``, never an early answer) of a graph of its own on ``board``
    teach ``corporation`` a train-purchase route? (It teaches the board's route information, as
    a walk of the game's own graph would at this position.)"""
    from trackage.core.graph import TrackGraph

    own = TrackGraph(board, **board.game.graph_options())
    own.connected_paths(corporation)
    return own.route_train_purchase(corporation)


@pytest.mark.parametrize("path", [p for p in LOGS if p is not None and p.parent.name in ("1867", "1861")],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_train_purchase_found_near_the_first_start_is_what_the_whole_walk_teaches(path, monkeypatch):
    """``TrackGraph._first_start_purchases`` (the token question's early teaching) says yes only
    where a whole walk, made by a graph of its own on the same board, finds a train-purchase
    route; and the log still reaches its result."""
    from trackage.core import graph

    first = graph.TrackGraph._first_start_purchases
    said = [0]

    def checked(self, corporation):
        got = first(self, corporation)
        if got:
            said[0] += 1
            assert _whole_walk_purchases(self.board, corporation)
        return got

    monkeypatch.setattr(graph.TrackGraph, "_first_start_purchases", checked)
    data = load_log(path)
    game = game_from_log(data)
    game.load(filter_actions(data["actions"]))
    assert said[0] > 0 or path.name == "hs_ahjzadkh_19792.json"  # (short: its walks teach it farther)
    assert data.get("result") is None or {str(k): v for k, v in data["result"].items()} == game.result()


@pytest.mark.parametrize("path", [p for p in LOGS if p is not None and p.parent.name == "1861"
                                  and p.name in ("167259.json", "29683.json")],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_first_start_walked_farther_teaches_what_the_whole_walk_teaches(path, monkeypatch):
    """The early teaching's second part (the first start's pruned walk to another mandatory stop,
    asked when the start's near paths hold fewer than two): it says yes on these logs where the
    near paths alone would not, and each such yes is a train-purchase route a whole walk of a
    graph of its own finds; the log still reaches its result."""
    from trackage.core import graph

    first = graph.TrackGraph._first_start_purchases
    farther = [0]

    def checked(self, corporation):
        got = first(self, corporation)
        with monkeypatch.context() as m:
            m.setattr(graph.TrackGraph, "_walks_find", lambda *_a, **_k: False)
            near_only = first(self, corporation)
        assert got or not near_only
        if got and not near_only:
            farther[0] += 1
            assert _whole_walk_purchases(self.board, corporation)
        return got

    monkeypatch.setattr(graph.TrackGraph, "_first_start_purchases", checked)
    data = load_log(path)
    game = game_from_log(data)
    game.load(filter_actions(data["actions"]))
    assert farther[0] > 0
    assert data.get("result") is None or {str(k): v for k, v in data["result"].items()} == game.result()


@pytest.mark.parametrize("title,seed", [("1867", 31), ("1861", 32), ("1825", 33), ("1893", 34)])
def test_the_first_start_test_says_no_where_the_whole_walk_finds_no_train_purchase(title, seed):
    """The token question's early teaching (``_first_start_purchases``) against a whole walk of
    its own, at every position of a live game's opening, for every corporation with a token on
    the board: each "yes" is a route the walk finds, and positions where the walk finds none
    are met (so an always-"yes" test fails here), each answered "no"."""
    from trackage.core.graph import TrackGraph

    n, options = COMBOS[title][seed % len(COMBOS[title])]
    players = [{"id": i + 1, "name": f"Player {i + 1}"} for i in range(n)]
    game = new_game(title, players, options, seed)
    rng = random.Random(seed)
    seen = {"yes": 0, "walk_no": 0}
    for _ in range(260):
        if game.finished:
            break
        placed = [c for c in game.corporations if any(t.used for t in c.tokens)]
        if placed:
            trial = game.copy()  # (a whole walk teaches route information: asked on a copy)
            for corp in placed:
                mine = trial.corporation_by_id(corp.id)
                first = TrackGraph(trial.board, **trial.graph_options())._first_start_purchases(mine)
                whole = _whole_walk_purchases(trial.board, mine)
                assert whole or not first, f"{corp.id}: the first start says yes, the whole walk no"
                seen["yes"] += first
                seen["walk_no"] += not whole
        listed = game.legal_actions(routes=False)
        action = game.playout_choose(rng, listed) or choose(rng, listed, game.PLAYOUT_WEIGHTS)
        if action["type"] == "run_routes":
            action = next(a for a in game.legal_actions() if a["type"] == "run_routes")
        game.process(dict(action))
    assert seen["yes"] > 0 and seen["walk_no"] > 0, seen


def _subclasses(cls: type) -> list[type]:
    out: list[type] = []
    for s in cls.__subclasses__():
        out += [s, *_subclasses(s)]
    return out


def test_a_stock_steps_ask_order_is_its_kinds_in_another_order():
    """A stock step's ``ASK_ORDER`` (the order the round's questions ask its kinds) names each
    of its ``KINDS`` once: the same "any of them?" answer, only cheaper."""
    import trackage.titles.t1825.steps
    import trackage.titles.t1858.steps.stock
    import trackage.titles.t1861.steps
    import trackage.titles.t1867.steps.stock
    import trackage.titles.t1893.steps.stock  # noqa: F401  (the titles' stock steps, loaded)
    from trackage.core.steps.stock import BuySellParShares

    ordered = [c for c in {BuySellParShares, *_subclasses(BuySellParShares)} if c.ASK_ORDER is not None]
    assert len(ordered) >= 5  # 1825, 1858, 1861, 1867, 1893
    for cls in ordered:
        assert sorted(cls.ASK_ORDER) == sorted(cls.KINDS), cls.__name__
        assert len(set(cls.ASK_ORDER)) == len(cls.ASK_ORDER), cls.__name__


@pytest.mark.parametrize("path", [p for p in LOGS if p is not None and p.parent.name in ("1867", "1861", "1893")],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_route_question_answered_early_teaches_what_the_whole_walk_teaches(path, monkeypatch):
    """``TrackGraph.route_info`` without the whole walk (``_taught_early``, the route step's
    "can it run?" for a corporation not walked at this board version): where it answers, the
    board's route information after it is exactly (content and order) what a whole walk of a
    graph of its own leaves from the same information; it answers on these logs, and the log
    still reaches its result."""
    from trackage.core import graph

    early = graph.TrackGraph._taught_early
    answered = [0]

    def checked(self, corporation):
        st = self.board.state
        before = st.route_info
        own = graph.TrackGraph(self.board, memory_key=self.memory_key, **self.board.game.graph_options())
        own.connected_paths(corporation)
        walked = st.route_info
        st.route_info = before
        got = early(self, corporation)
        if got:
            answered[0] += 1
            assert list(st.route_info) == list(walked)
            assert {k: (list(v), [dict(r) for r in v.values()]) for k, v in st.route_info.items()} \
                == {k: (list(v), [dict(r) for r in v.values()]) for k, v in walked.items()}
        else:
            assert st.route_info is before
        return got

    monkeypatch.setattr(graph.TrackGraph, "_taught_early", checked)
    data = load_log(path)
    game = game_from_log(data)
    game.load(filter_actions(data["actions"]))
    assert answered[0] > 0
    assert data.get("result") is None or {str(k): v for k, v in data["result"].items()} == game.result()


@pytest.mark.parametrize("path", [p for p in LOGS if p is not None and p.parent.name in ("1825", "1861")],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_walk_found_unable_to_teach_teaches_nothing(path, monkeypatch):
    """``TrackGraph._teaches_nothing`` (the token question without the whole walk when no start
    can reach two mandatory stops, or one and an optional) says yes only where a whole walk of a
    graph of its own teaches no route; it says yes on 1825's logs, and the log still reaches its
    result."""
    from trackage.core import graph

    nothing = graph.TrackGraph._teaches_nothing
    said = {True: 0, False: 0}

    def checked(self, corporation):
        got = nothing(self, corporation)
        own = graph.TrackGraph(self.board, **self.board.game.graph_options())
        own.connected_paths(corporation)
        taught = dict(own._local_routes.get(corporation, {}))
        assert not got or taught == {}, taught
        said[got] += 1
        return got

    monkeypatch.setattr(graph.TrackGraph, "_teaches_nothing", checked)
    data = load_log(path)
    game = game_from_log(data)
    game.load(filter_actions(data["actions"]))
    assert said[True] > 0 or path.parent.name != "1825"
    assert data.get("result") is None or {str(k): v for k, v in data["result"].items()} == game.result()
