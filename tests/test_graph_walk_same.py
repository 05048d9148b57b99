"""The corporation graph walk's pruning (trackage/core/walk_prune.py) must not change what a
walk finds. At every 5th action of some real logs and seeded live games, a fresh TrackGraph
walks every corporation with a placed token; what it finds (hexes and edges, nodes, paths,
reachable hexes, route information, can_token, the nodes offered in walk order, and
can_token's short walk) is hashed and compared with the hashes the walk gave before its
search was made faster (pinned; the full check ran over all shared logs and two live games
per title)."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest
from conftest import FIXTURES

from trackage.core.graph import TrackGraph
from trackage.core.log import filter_actions
from trackage.playout import COMBOS, choose
from trackage.replay import game_from_log
from trackage.titles import new_game

EVERY = 5
LIVE_DECISIONS = 300

# source -> (number of positions sampled, hash of their walks) before the change
PINNED = {
    "1867/21268.json": (210, "9ed9f503ef9b5068"),
    "1858/219682.json": (169, "18a8bcf5f64a152a"),
    "1825/141331.json": (126, "50a4471af829b9e0"),
    "live/1867/0": (60, "60505e5be619f471"),
    "live/1858/0": (60, "abe014afdb349516"),
}


def _path_id(p: Any) -> str:
    return f"{p.hex.id if p.hex else None}-{p.tile.id}-{p.index}"


def _node_id(n: Any) -> str:
    return f"{n.signature}/{n.id}"


def _walks(game: Any) -> str:
    out: dict[str, Any] = {}
    for corp in [*game.corporations, *(getattr(game, "minors", None) or [])]:
        if not any(getattr(t, "used", False) for t in getattr(corp, "tokens", [])):
            continue
        g = TrackGraph(game.board, **game.graph_options())
        rec = {
            "hexes": sorted([h.id, sorted(e)] for h, e in g.connected_hexes(corp).items()),
            "nodes": sorted(_node_id(n) for n in g.connected_nodes(corp)),
            "paths": sorted(_path_id(p) for p in g.connected_paths(corp)),
            "reach": sorted(h.id for h in g.reachable_hexes(corp)),
            "routes": sorted(g.route_info(corp).items()),
            "can_token": g.can_token(corp),
            "offered": [_node_id(n) for n in g._offered[corp]],
        }
        g.clear()  # a remembered train-purchase route: can_token walks only until it finds a city
        rec["can_token_short"] = g.can_token(corp)
        out[str(corp.id)] = rec
    return hashlib.sha1(json.dumps(out, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _sampled(source: str) -> list[list[str]]:
    got: list[list[str]] = []
    if source.startswith("live/"):
        _, title, seed_text = source.split("/")
        seed = int(seed_text)
        n, options = COMBOS[title][seed % len(COMBOS[title])]
        game = new_game(title, [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, seed)
        rng = random.Random(seed)
        for k in range(1, LIVE_DECISIONS + 1):
            if game.finished:
                break
            legal = game.legal_actions()
            game.process(game.playout_choose(rng, legal) or choose(rng, legal, game.PLAYOUT_WEIGHTS))
            if k % EVERY == 0:
                got.append([str(k), _walks(game)])
        return got
    path = FIXTURES / source
    if not path.is_file():
        pytest.fail(f"shared log {path} is absent (set TRACKAGE_FIXTURES)")
    data = json.loads(path.read_text())
    game = game_from_log(data)

    def trace(g: Any, _action: Any) -> None:
        if len(g.actions) % EVERY == 0:
            got.append([str(len(g.actions)), _walks(g)])

    game.load(filter_actions(data["actions"]), trace=trace)
    return got


@pytest.mark.parametrize("source", sorted(PINNED))
def test_the_walk_finds_what_it_found_before(source: str) -> None:
    got = _sampled(source)
    count, digest = PINNED[source]
    assert len(got) == count, f"{source}: {len(got)} positions sampled, {count} pinned"
    assert hashlib.sha1(json.dumps(got).encode()).hexdigest()[:16] == digest, (
        f"{source}: a fresh graph walk finds other hexes, nodes, paths or routes than before")
