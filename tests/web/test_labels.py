"""Action labels in words: every action listed in random games of every title, and every
action of the shared logs (with the listing at every 25th position), gets a label without
raw data (no ``{``, ``[``, ``=``, ``None``) that names by name the companies it names."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from trackage.core.log import filter_actions, load_log
from trackage.playout import COMBOS, choose
from trackage.replay import game_from_log
from trackage.titles import new_game
from trackage.web.views import describe

from .webkit import FIXTURES

TITLES = sorted(COMBOS)
RAW = ("{", "[", "=", "None")
SEEDS = (1, 2)
ACTIONS_PER_GAME = 300
EVERY = 25
CHECKED: Counter[str] = Counter()


def named(game, a: dict) -> list[str]:
    """The names a label of ``a`` must contain: each corporation, company or minor the
    action names (its ``corporation``, ``company``, ``minor``, the company of its
    ``shares``, a ``target`` company) whose name differs from its id."""
    out = []
    ents = [game.corporation_by_id(a.get("corporation")) if "corporation" in a else None,
            game.index.company(a.get("company")) if "company" in a else None,
            game.index.minor(a.get("minor")) if "minor" in a else None,
            game.index.company(a.get("target")) if a.get("target_type") == "company" else None]
    shares = [game.index.share(s) for s in a.get("shares") or []]
    ents += [game.share_corp(s) for s in shares if s is not None]
    for e in ents:
        if e is not None and e.name and e.name != str(e.id):
            out.append(e.name)
    return out


def check(game, a: dict, title: str) -> None:
    label = describe(game, a)
    assert label, a
    if a.get("type") != "message":  # (a player's own words)
        bad = [r for r in RAW if r in label]
        assert not bad, f"{title}: raw {bad} in {label!r} for {a}"
    for name in named(game, a):
        assert name in label, f"{title}: {label!r} does not name {name!r} for {a}"
    CHECKED[title] += 1


@pytest.mark.parametrize("title", TITLES)
def test_labels_of_random_games(title):
    for seed in SEEDS:
        players, options = COMBOS[title][seed % len(COMBOS[title])]
        game = new_game(title, [{"id": i + 1, "name": f"Player {i + 1}"} for i in range(players)], options, seed)
        rng = random.Random(seed)
        for _ in range(ACTIONS_PER_GAME):
            if game.finished:
                break
            actions = game.legal_actions()
            for a in actions:
                check(game, a, title)
            action = game.playout_choose(rng, actions) or choose(rng, actions, game.PLAYOUT_WEIGHTS)
            action["id"] = len(game.actions) + 1
            game._apply(action)
    print(f"\n{title}: {CHECKED[title]} labels checked in random games")


def fixture_logs(title):
    files = sorted((FIXTURES / title).glob("*.json"))
    assert files, f"no shared logs of {title} in {FIXTURES / title}"
    return files


@pytest.mark.parametrize("title", TITLES)
def test_labels_of_logs(title):
    key = f"{title} logs"
    for path in fixture_logs(title):
        data = load_log(path)
        game = game_from_log(data)
        actions = filter_actions(data["actions"])
        done = [0]

        def label_next(g, _action, actions=actions, done=done):
            done[0] += 1
            if done[0] % EVERY == 0 and not g.finished:
                for a in g.legal_actions():
                    check(g, a, key)
            if done[0] < len(actions):
                check(g, actions[done[0]], key)

        if actions:
            check(game, actions[0], key)
        game.load(actions, trace=label_next)
    print(f"\n{title}: {CHECKED[key]} labels checked in the shared logs")
