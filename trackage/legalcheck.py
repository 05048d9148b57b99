"""Does ``legal_actions()`` say exactly what ``process()`` accepts?

Both directions, over random games: every listed action is accepted (tried on a copy of the
game), and variants of listed actions that are not listed (another entity, a price out of its
range, another hex, rotation or city) are refused with a :class:`GameError` and leave the game
exactly as it was. The list also has no duplicates.

Used by ``tests/test_legal_agreement.py`` (a small budget) and ``scripts/legalcheck`` (any
budget). Checking a state costs a few copies, so only every ``every``-th state is checked.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

from .core.errors import GameError
from .core.legal import is_listed
from .playout import COMBOS, choose
from .titles import new_game

BOOKKEEPING = {"price_range", "price_step", "canonical_prices", "id", "created_at", "user", "auto_actions"}


def _key(action: dict) -> str:
    return json.dumps({k: v for k, v in action.items() if k not in BOOKKEEPING}, sort_keys=True, default=str)


@dataclass
class Report:
    states: int = 0
    checked_states: int = 0
    accepted: int = 0
    refused: int = 0
    problems: list[str] = field(default_factory=list)

    def add(self, msg: str) -> None:
        if len(self.problems) < 50:
            self.problems.append(msg)


def _concrete(action: dict, rng: random.Random) -> dict:
    a = dict(action)
    if "price_range" in a:
        lo, hi = a["price_range"]
        step = a.get("price_step") or 1
        a["price"] = rng.choice([lo, hi, lo + (hi - lo) // step // 2 * step])
    for k in ("price_range", "price_step", "canonical_prices"):
        a.pop(k, None)
    return a


def variants(game, action: dict, legal: list[dict], rng: random.Random) -> list[dict]:
    """Unlisted neighbours of a listed action: what a confused or cheating client would send."""
    out: list[dict] = []
    base = _concrete(action, rng)
    # another entity of the same kind
    pool = {"player": [p.id for p in game.players],
            "corporation": [c.id for c in game.corporations],
            "company": [c.id for c in game.companies],
            "minor": [m.id for m in getattr(game, "minors", [])]}.get(str(action.get("entity_type")), [])
    others = [e for e in pool if str(e) != str(action.get("entity"))]
    if others:
        out.append({**base, "entity": rng.choice(others)})
    if "price_range" in action:
        lo, hi = action["price_range"]
        step = action.get("price_step") or 1
        out.append({**base, "price": hi + step})
        if lo > 0:
            out.append({**base, "price": lo - 1})
    if action["type"] == "lay_tile" and game.board is not None:
        hexes = [h.id for h in game.board.hexmap.hexes]
        out.append({**base, "hex": rng.choice(hexes)})
        out.append({**base, "rotation": (int(base.get("rotation", 0)) + rng.randint(1, 5)) % 6})
    if action["type"] == "place_token" and game.board is not None:
        cities = [c.id for c in game.board.cities()]
        if cities:
            out.append({**base, "city": rng.choice(cities)})
    return [v for v in out if not is_listed(v, legal)]


def check_state(game, rng: random.Random, report: Report, *, max_accept: int = 4, max_refuse: int = 3) -> None:
    legal = game.legal_actions()
    keys = [_key(a) for a in legal]
    if len(set(keys)) != len(keys):
        dup = next(k for k in keys if keys.count(k) > 1)
        report.add(f"action {len(game.actions)}: duplicate legal action {dup[:200]}")
    # accepted: one of each type (and at most max_accept)
    by_type: dict[str, dict] = {}
    for a in legal:
        by_type.setdefault(a["type"], a)
    sample = list(by_type.values())
    rng.shuffle(sample)
    for a in sample[:max_accept]:
        c = game.copy()
        act = {**_concrete(a, rng), "id": len(game.actions) + 1}
        try:
            c.process(act)
            report.accepted += 1
        except GameError as e:
            report.add(f"action {len(game.actions)}: listed but refused: {json.dumps(act)[:300]}: {e}")
    # refused: unlisted variants
    tried = 0
    for a in rng.sample(legal, min(len(legal), 6)):
        for v in variants(game, a, legal, rng):
            if tried >= max_refuse:
                return
            tried += 1
            v["id"] = len(game.actions) + 1
            before = game.state()
            try:
                game.process(v)
            except GameError:
                report.refused += 1
                if game.state() != before:
                    report.add(f"action {len(game.actions)}: refusal changed the state: {json.dumps(v)[:300]}")
                continue
            except Exception as e:  # noqa: BLE001 - a crash is a finding
                report.add(f"action {len(game.actions)}: {type(e).__name__} on {json.dumps(v)[:300]}: {e}")
                return
            report.add(f"action {len(game.actions) - 1}: unlisted but accepted: {json.dumps(v)[:300]}")
            game.undo()
            game.redo_stack = []


def check_game(title: str, seed: int, *, every: int = 10, max_actions: int = 400, report: Report | None = None,
               players: int | None = None, options: list[str] | None = None) -> Report:
    """Play seed's random game (the playout's combination for that seed) for up to
    ``max_actions`` actions, checking every ``every``-th state."""
    report = report or Report()
    n, opts = COMBOS[title][seed % len(COMBOS[title])]
    n = players or n
    opts = list(options if options is not None else opts)
    game = new_game(title, [{"id": i + 1, "name": f"Player {i + 1}"} for i in range(n)], opts, seed)
    rng = random.Random(seed)
    check_rng = random.Random(seed * 7919 + 1)
    for i in range(max_actions):
        if game.finished:
            break
        report.states += 1
        if i % every == 0:
            report.checked_states += 1
            check_state(game, check_rng, report)
        legal = game.legal_actions()
        if not legal:
            report.add(f"action {len(game.actions)}: no legal action and the game is not over")
            break
        action = choose(rng, legal, game.PLAYOUT_WEIGHTS)
        action["id"] = len(game.actions) + 1
        try:
            game.process(action)
        except GameError as e:
            report.add(f"action {len(game.actions)}: the chosen listed action was refused: {e}")
            break
    return report
