"""Game state as data: copies, undo/redo and refused actions leave exactly the state they
should (whole-state comparisons), and a copy shares only the catalogue."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from conftest import FIXTURES

from trackage.core.clone import shared_state
from trackage.core.errors import GameError
from trackage.core.log import filter_actions, load_log
from trackage.core.state import full_state, trace_line
from trackage.export import game_to_log
from trackage.playout import random_playout
from trackage.replay import game_from_log

LOGS = sorted(FIXTURES.glob("*/*.json")) if FIXTURES.is_dir() else []
needs_logs = pytest.mark.skipif(not LOGS, reason=f"no shared fixtures in {FIXTURES}")


def loaded(path, cut=0):
    data = load_log(path)
    actions = filter_actions(data["actions"])
    g = game_from_log(data)
    g.load(actions[:len(actions) - cut])
    return g, actions


def bad_action(g) -> dict:
    e = g.acting_entities()[0] if g.acting_entities() else g.players[0]
    return {"type": "lay_tile", **g.index.ref(e), "hex": "no-such-hex", "tile": "x", "rotation": 0,
            "id": len(g.actions) + 1}


@needs_logs
@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
@pytest.mark.parametrize("cut", [0, 30])
def test_copy_undo_redo_and_refusal_keep_the_whole_state(path, cut):
    g, _ = loaded(path, cut)
    before = full_state(g)
    c = g.copy()
    assert full_state(c) == before
    assert not shared_state(g, c), "a copy shares mutable state with its original"
    with pytest.raises(GameError):
        g.process(bad_action(g))
    assert full_state(g) == before
    last = g.undo()
    assert len(g.actions) == len(c.actions) - 1
    g.redo()
    assert g.actions[-1] is last
    assert full_state(g) == before


@needs_logs
@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_copy_goes_its_own_way(path):
    # what copies share (board maps, train events, stale graph results ...) is replaced, never
    # changed in place: the last 30 actions of the log played on a copy leave the original as it
    # was, and played on the original leave a second copy as it was; both end as the log does
    g, actions = loaded(path, 30)
    c, keep = g.copy(), g.copy()
    before = full_state(g)
    rest = actions[len(g.actions):]
    c.loading = True
    for a in rest:
        c._apply(a)
    assert full_state(g) == before
    assert full_state(keep) == before
    g.loading = True
    for a in rest:
        g._apply(a)
    assert full_state(keep) == before
    assert full_state(g) == full_state(c)
    straight, _ = loaded(path, 30)  # no copy ever taken of it
    straight.loading = True
    for a in rest:
        straight._apply(a)
    assert full_state(c) == full_state(straight)


@needs_logs
@pytest.mark.parametrize("title", ["1867", "1893"])
def test_undo_then_redo_of_every_action_of_a_log(title):
    path = next(p for p in LOGS if p.parent.name == title)
    g, _actions = loaded(path)
    n = len(g.actions)
    lines = []
    for i in range(n, max(0, n - 80), -1):
        lines.append((i, json.dumps(trace_line(g, g.actions[-1]), sort_keys=True),
                      full_state(g) if i % 20 == 0 else None))
        g.undo()
    for i, line, whole in reversed(lines):
        g.redo()
        assert json.dumps(trace_line(g, g.actions[-1]), sort_keys=True) == line, f"after redo of action {i}"
        if whole is not None:
            assert full_state(g) == whole, f"after redo of action {i}"


def test_live_play_undo_redo_and_refusals():
    g = random_playout("1867", 4, [], seed=5, max_actions=150)
    states = []
    for _ in range(10):
        states.append(full_state(g))
        g.undo()
    for s in reversed(states):
        with pytest.raises(GameError):
            g.process(bad_action(g))
        g.redo()
        assert full_state(g) == s


def test_same_seed_same_game():
    a = random_playout("1825", 3, ["unit_2"], seed=11, max_actions=400)
    b = random_playout("1825", 3, ["unit_2"], seed=11, max_actions=400)
    # the time stamp is the export's moment (bookkeeping): pinned, so only the game is compared
    log_a = game_to_log(a, game_id="x", created_at=0)
    assert json.dumps(log_a) == json.dumps(game_to_log(b, game_id="x", created_at=0))


@pytest.mark.parametrize("title,n", [("1825", 3), ("1867", 4), ("1822", 3), ("1893", 3), ("1858", 4)])
def test_asking_for_the_legal_actions_changes_nothing(title, n):
    """A game whose legal actions are listed before every move ends in the same state as the
    same moves made blind (so live play and a replay of its log agree)."""
    from trackage.playout import choose
    from trackage.titles import new_game

    players = [{"id": i + 1, "name": f"Player {i + 1}"} for i in range(n)]
    asked, blind = new_game(title, players, [], 5), new_game(title, players, [], 5)
    rng = random.Random(5)
    for i in range(250):
        if asked.finished:
            break
        action = choose(rng, asked.legal_actions(), asked.PLAYOUT_WEIGHTS)
        action["id"] = len(asked.actions) + 1
        asked._apply(action)
        blind._apply(action)
        if i % 25 == 0:
            assert full_state(asked) == full_state(blind), f"after action {i + 1}"
    assert full_state(asked) == full_state(blind)


@needs_logs
@pytest.mark.parametrize("path", [p for p in LOGS if p.parent.name == "1822"], ids=lambda p: p.stem)
def test_a_used_ability_is_the_games_own(path):
    # a company's abilities are shared by copies of a game; a tile lay that uses one up
    # (counts, P12's lays and upgrades, P5's teleport) replaces it: the copies do not see it
    data = load_log(path)
    actions = filter_actions(data["actions"])
    g = game_from_log(data)
    g.loading = True
    for a in actions:
        if a["type"] == "lay_tile" and a.get("entity_type") == "company":
            before = full_state(g)
            c, keep = g.copy(), g.copy()
            c._apply(a)
            assert full_state(g) == before
            g._apply(a)
            assert full_state(keep) == before, f"the lay of action {a['id']} shows on a copy taken before it"
            assert full_state(g) == full_state(c)
        else:
            g._apply(a)


@needs_logs
@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_copys_holdings_are_its_own(path):
    # certificates are values shared by every copy; who holds them is each game's own (the
    # holders' tuples and each corporation's ``cert_holders``, replaced on every change):
    # every certificate moved to the market in a copy leaves the original's holdings as they were
    g, _ = loaded(path)

    def holdings(game):
        return [(h.id, [s.id for s in h.certificates]) for h in [*game.players, game.pool, *game.corporations]]

    before, state = holdings(g), full_state(g)
    holders = [corp.cert_holders for corp in g.corporations]
    c = g.copy()
    assert [s for corp in c.corporations for s in corp.shares] == [s for corp in g.corporations for s in corp.shares]
    moved = [s for h in [*c.players, *c.corporations] for s in h.certificates]
    for s in moved:
        c.share_market._move_share(s, c.pool)
    assert moved and all(c.share_corp(s).holder_of(s) is c.pool for s in moved)
    assert holdings(g) == before
    assert [corp.cert_holders for corp in g.corporations] == holders
    assert full_state(g) == state
    assert all(g.share_corp(s).holder_of(s).certificates.count(s) == 1
               for h in [*g.players, *g.corporations] for s in h.certificates)


@needs_logs
@pytest.mark.parametrize("path", LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_certificates_are_values_of_atoms_held_where_their_corporation_says(path):
    # a certificate is shared by copies: it holds atoms only and cannot be changed; its
    # corporation's ``cert_holders`` names the holder that has it among its certificates
    g, _ = loaded(path)
    for corp in g.corporations:
        assert len(corp.cert_holders) == len(corp.shares)
        for i, s in enumerate(corp.shares):
            assert s.index == i and s.corp_id == corp.id
            assert all(type(getattr(s, f.name)) in (int, str, bool) for f in dataclasses.fields(s))
            assert corp.holder_of(s).certificates.count(s) == 1
            with pytest.raises(dataclasses.FrozenInstanceError):
                s.percent = 0  # type: ignore[misc]


@needs_logs
def test_an_attribute_named_an_atom_holding_anything_else_is_reported():
    # a copy takes ``CLONE_ATOMS`` attributes as they are: one holding a container would be
    # shared by the copies, so the copies' check names it
    g, _ = loaded(LOGS[0])
    c = g.copy()
    train = next(t for corp in g.corporations for t in corp.trains)
    train.price = [train.price]
    found = shared_state(g, c)
    assert any("CLONE_ATOMS" in p and p.endswith("holds a list)") for p in found), found
