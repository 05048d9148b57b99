"""The exact router (``trackage.router.optimal_routes``) against an independent brute force
(``tests/router_brute.py``), on states small enough for the brute force: run_routes states of
the shared logs (every title present) and of seeded random playouts (every title).

For every compared state: the same revenue, ``optimal`` True, and the router's routes accepted
by ``process()`` in live play with the revenue they claim. For a log state also: the router
earns at least what the logged routes earn under today's rules (logged routes today's rules
refuse are counted and skipped).

Each test is one title and one source, so ``pytest -n 2`` spreads them; together they compare
well over 200 states. The state selection is deterministic: fixed seeds, every n-th state, and
the brute force refuses states by step counts (never by time).
"""

from __future__ import annotations

import random

import pytest
from conftest import FIXTURES, fixture_files
from router_brute import TooBig, brute_force, judge

from trackage.core.errors import GameError
from trackage.playout import COMBOS, choose
from trackage.router import optimal_routes
from trackage.router.logstates import run_routes_states
from trackage.titles import new_game

TITLES = ["1822", "1825", "1858", "1858India", "1861", "1867", "1893"]
TIME_LIMIT = 20.0  # a safety net only: a small state takes milliseconds

# log states: every n-th run_routes of each log
LOG_EVERY = {"1822": 4, "1825": 4, "1858": 6, "1858India": 4, "1861": 4, "1867": 4, "1893": 2}
# random playouts: (seeds, every n-th state where the operating company can run routes, at most
# this many states per seed)
PLAYOUTS = {"1822": ([1, 8], 2, 12), "1825": ([1, 2], 2, 10), "1858": ([1], 2, 8), "1858India": ([2], 1, 10),
            "1861": ([1, 2, 3], 2, 10), "1867": ([1, 2, 3], 2, 10), "1893": ([1, 2], 2, 10)}
PLAY_MAX_ACTIONS = 3000
# the fewest states each test must compare (208 in all; 265 are compared today)
MIN_LOG = {"1822": 18, "1825": 14, "1858": 12, "1858India": 5, "1861": 24, "1867": 18, "1893": 9}
MIN_PLAY = {"1822": 16, "1825": 12, "1858": 6, "1858India": 8, "1861": 25, "1867": 25, "1893": 16}


def playout_states(title: str, seed: int, every: int = 2, limit: int = 10):
    """(label, copy of the game) at every ``every``-th state of seed's random playout where the
    operating company can run routes (the random player of ``trackage.playout``)."""
    players, options = COMBOS[title][seed % len(COMBOS[title])]
    game = new_game(title, [{"id": i + 1, "name": f"Player {i + 1}"} for i in range(players)], options, seed)
    rng = random.Random(seed)
    seen = found = 0
    for _ in range(PLAY_MAX_ACTIONS):
        if game.finished:
            break
        actions = game.legal_actions()
        if any(a["type"] == "run_routes" for a in actions):
            seen += 1
            if seen % every == 0:
                found += 1
                yield f"{title} seed {seed} after action {len(game.actions)}", game.copy()
                if found >= limit:
                    return
        action = game.playout_choose(rng, actions) or choose(rng, actions, game.PLAYOUT_WEIGHTS)
        action["id"] = len(game.actions) + 1
        game._apply(action)


def check_live(game, entity, routes) -> str | None:
    """Submit ``routes`` as a run_routes action in live play on a copy; the error, if any."""
    g = game.copy()
    g.loading = False
    try:
        g.process({"type": "run_routes", **g.index.ref(entity), "routes": [dict(r) for r in routes]})
    except GameError as e:
        return f"{type(e).__name__}: {e}"
    return None


def compare(game, entity, label: str, counts: dict, failures: list) -> tuple | None:
    """Brute force and router on one state; problems go to ``failures``. (router's result,
    brute force's), or None when the state is too big for the brute force."""
    try:
        brute = brute_force(game, entity)
    except TooBig:
        counts["too big"] += 1
        return None
    res = optimal_routes(game, entity, time_limit=TIME_LIMIT)
    counts["compared"] += 1
    trains = [t.name for t in game.route_trains(entity)]
    where = f"{label}: {entity.name} {trains}"
    if res.revenue != brute.revenue:
        live = check_live(game, entity, [{**d, "revenue": v} for d, v in zip(
            brute.routes, game.compute_route_revenues(entity, brute.routes,
                                                      {t.id: t for t in game.route_trains(entity)}))])
        failures.append(f"{where}: router {res.revenue} (optimal={res.optimal}), brute force "
                        f"{brute.revenue}; brute force routes {brute.routes} "
                        f"({'accepted in live play' if live is None else 'refused live: ' + live}); "
                        f"router routes {res.routes}")
    elif not res.optimal:
        failures.append(f"{where}: router {res.revenue} not proven optimal ({res.stats})")
    claimed = sum(r["revenue"] for r in res.routes)
    if claimed != res.revenue:
        failures.append(f"{where}: router routes claim {claimed}, result says {res.revenue}")
    if res.routes:
        err = check_live(game, entity, res.routes)
        if err is not None:
            failures.append(f"{where}: process() refused the router's routes {res.routes}: {err}")
    return res, brute


def report(title: str, source: str, counts: dict, failures: list, minimum: int) -> None:
    print(f"router vs brute force, {title} {source}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    assert not failures, f"{len(failures)} problem(s) in {title} {source}:\n" + "\n".join(failures)
    assert counts["compared"] >= minimum, f"{title} {source}: only {counts['compared']} states compared"


@pytest.mark.parametrize("title", TITLES)
def test_router_matches_brute_force_on_log_states(title):
    files = fixture_files(title)
    if not files:
        pytest.skip(f"NO FIXTURES: folder {FIXTURES / title} is absent (set TRACKAGE_FIXTURES)")
    counts = {"compared": 0, "too big": 0, "logged routes refused today": 0}
    failures: list = []
    for path in files:
        for action, game in run_routes_states(path, every=LOG_EVERY[title]):
            entity = game.index.resolve(action)
            label = f"{path.parent.name}/{path.name} action {action.get('id')}"
            found = compare(game, entity, label, counts, failures)
            if found is None:
                continue
            res, brute = found
            trains = {t.id: t for t in game.route_trains(entity)}
            logged = action.get("routes") or []
            try:
                logged_rev = sum(game.compute_route_revenues(entity, [dict(r) for r in logged], trains))
            except GameError:
                counts["logged routes refused today"] += 1
                continue
            if res.revenue < logged_rev:
                failures.append(f"{label}: router {res.revenue} < logged routes {logged_rev} ({logged})")
            if brute.revenue < logged_rev:  # the brute force missed a route: a bug of the test
                failures.append(f"{label}: brute force {brute.revenue} < logged routes {logged_rev} ({logged})")
    report(title, "logs", counts, failures, MIN_LOG[title])


@pytest.mark.parametrize("title", TITLES)
def test_router_matches_brute_force_on_playouts(title):
    counts = {"compared": 0, "too big": 0}
    failures: list = []
    seeds, every, limit = PLAYOUTS[title]
    for seed in seeds:
        for label, game in playout_states(title, seed, every, limit):
            compare(game, game.current_entity(), label, counts, failures)
    report(title, "playouts", counts, failures, MIN_PLAY[title])


def test_brute_force_judges_runs_as_the_game_does():
    """The brute force's judge is the game's own: an empty run earns nothing, and a run the
    game refuses (a train that is not the company's) is refused."""
    title = "1867"
    for _label, game in playout_states(title, 1):
        entity = game.current_entity()
        if not game.route_trains(entity):
            continue
        try:
            res = brute_force(game, entity)
        except TooBig:
            continue
        trains = {t.id: t for t in game.route_trains(entity)}
        assert judge(game, entity, [], trains) == 0
        if res.routes:
            assert judge(game, entity, res.routes, trains) == res.revenue
            assert judge(game, entity, [{**res.routes[0], "train": "nonexistent"}], trains) is None
            return
    pytest.fail("no state with a run in 1867 seed 1")
