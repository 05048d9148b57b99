"""Fuzzing with untrusted actions: random games with mutated actions interleaved.

A :class:`Fuzzer` plays one game in live mode. Each step either makes a listed move or sends
a mutant of one (wrong types, forged fields, out-of-range values, other entities, other action
types) and counts what must never happen:

- ``crashes``: anything but a :class:`GameError` (and its kinds) out of ``process()``;
- ``changed_after_refusal``: a refused action left the state (or the money) different;
- ``money``: the money over every cash holder (closed ones included) is not what it was;
- ``unlisted_accepted``: an accepted action that ``legal_actions()`` did not list;
- ``listed_refused``: a listed action that was refused.

Used by ``tests/test_fuzz.py`` (hypothesis, stateful) and ``scripts/fuzz TITLE --seconds N``.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass, field
from functools import partial

from .core.entities import entity_type
from .core.errors import GameError
from .core.legal import is_listed, share_kind
from .core.schema import problem
from .core.state import full_state
from .invariants import all_cash
from .playout import COMBOS, choose
from .titles import new_game

COUNTS = ("crashes", "changed_after_refusal", "money", "unlisted_accepted", "listed_refused")
BAD_NUMBERS: list = [0, -1, 1, 7, 5, 10**9, 10**30, -10**30, math.inf, -math.inf, math.nan, True, False, None,
                     "200", "", 100.5, 10.0, [], {}, "x" * 100]
BAD_STRINGS = ["", "0", " ", "None", "null", "_", "A1", "Z99", "X0", 0, 1, None, True, ["x"], {"a": 1}]
ACTION_TYPES = ["pass", "bid", "par", "buy_shares", "sell_shares", "buy_company", "sell_company", "lay_tile",
                "place_token", "run_routes", "dividend", "buy_train", "discard_train", "end_game", "hex_token",
                "choose", "merge", "convert", "bankrupt", "special_buy", "acquire_company", "scrap_train",
                "remove_token", "message", "undo", "bogus"]


@dataclass
class Counts:
    steps: int = 0
    moves: int = 0
    mutants: int = 0
    refused: int = 0
    accepted_mutants: int = 0
    crashes: int = 0
    changed_after_refusal: int = 0
    money: int = 0
    unlisted_accepted: int = 0
    listed_refused: int = 0
    examples: list = field(default_factory=list)

    def bad(self) -> int:
        return sum(getattr(self, k) for k in COUNTS)

    def add(self, other: Counts) -> None:
        for k in ("steps", "moves", "mutants", "refused", "accepted_mutants") + COUNTS:
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.examples += other.examples[: max(0, 20 - len(self.examples))]

    def line(self) -> str:
        return " ".join(f"{k}={getattr(self, k)}" for k in ("steps", "moves", "mutants", "refused",
                                                            "accepted_mutants") + COUNTS)


def fingerprint(game) -> tuple:
    return (json.dumps(full_state(game), sort_keys=True, default=repr), len(game.actions), all_cash(game),
            game.finished)


def mutate(game, action: dict, rng: random.Random) -> dict:
    """A forged variant of a listed ``action``."""
    a = {k: v for k, v in action.items() if k not in ("price_range", "price_step", "canonical_prices")}
    if "price_range" in action:
        lo, hi = action["price_range"]
        a["price"] = lo
    keys = [k for k in a if k not in ("type",)]
    how = rng.randrange(12)
    if how == 0 and keys:  # a field of the wrong kind or out of range
        k = rng.choice(keys)
        a[k] = rng.choice(BAD_NUMBERS if isinstance(a[k], (int, float)) else BAD_STRINGS + BAD_NUMBERS)
    elif how == 1 and keys:  # a required field missing
        del a[rng.choice(keys)]
    elif how == 2:  # another entity
        others = list(game.players) + list(game.corporations) + list(getattr(game, "minors", []))
        e = rng.choice(others)
        a["entity"], a["entity_type"] = e.id, entity_type(e)
    elif how == 3:  # another type
        a["type"] = rng.choice(ACTION_TYPES)
    elif how == 4 and a.get("shares"):  # a repeated certificate, a forged percent
        s = list(a["shares"])
        a["shares"] = s + [rng.choice(s)] if rng.random() < 0.6 else s
        a["percent"] = rng.choice([a.get("percent", 10) * 2, 5, 7, 1, True, 0, -10, 100, 10.0])
    elif how == 5 and "price" in a:  # a price just outside the range, or not a number
        hi = action.get("price_range", [a["price"], a["price"]])[1]
        a["price"] = rng.choice([a["price"] - 1, hi + 1, hi + 10, -a["price"], 0, math.inf, str(a["price"]),
                                 a["price"] + 0.5, True, 10**12])
    elif how == 6:  # an unknown field
        a[rng.choice(["cheat", "amount", "percent", "price", "cost", "rotation", "token_type"])] = \
            rng.choice(BAD_NUMBERS)
    elif how == 7 and "train" in a:  # another train
        trains = getattr(game.depot, "trains", [])
        if trains:
            a["train"] = rng.choice(trains).id
        a["price"] = rng.choice([1, 10, 100, a.get("price", 1)])
    elif how == 8 and "rotation" in a:
        a["rotation"] = rng.choice([6, -1, 7, True, None, "1", 1.0, (a["rotation"] + 1) % 6])
    elif how == 9 and "shares" in a:  # other certificates
        corp = rng.choice(game.corporations) if game.corporations else None
        if corp is not None and corp.shares:
            a["shares"] = [rng.choice(corp.shares).id for _ in range(rng.randint(1, 3))]
    elif how == 10:  # an end of the game, from anyone
        # (from a player it is legal and ends the game: rarely)
        pool = list(game.players) if rng.random() < 0.03 else list(game.corporations) + list(game.companies)
        e = rng.choice(pool)
        a = {"type": "end_game", "entity": e.id if not e.is_company else e.sym,
             "entity_type": entity_type(e)}
    else:  # a field from another listed action
        if keys:
            k = rng.choice(keys)
            a[k] = rng.choice(BAD_STRINGS + BAD_NUMBERS)
    return a


class Fuzzer:
    """One game of ``title`` (players and options from ``COMBOS``), played in live mode."""

    def __init__(self, title: str, seed: int, combo: int | None = None, warmup: int = 0):
        self.rng = random.Random(seed)
        combos = COMBOS[title]
        n, opts = combos[(seed if combo is None else combo) % len(combos)]
        self.game = new_game(title, [{"id": i + 1, "name": f"Player {i + 1}"} for i in range(n)], opts, seed)
        self.title = title
        self.counts = Counts()
        self.start_money = all_cash(self.game)
        for _ in range(warmup):  # fast forward (legal moves, no checks)
            legal = self._legal()
            if not legal:
                break
            a = self.game.playout_choose(self.rng, legal) or choose(self.rng, legal, self.game.PLAYOUT_WEIGHTS)
            self.game._apply(a)

    def _legal(self) -> list[dict]:
        return [] if self.game.finished else self.game.legal_actions()

    def _note(self, kind: str, action, detail="") -> None:
        setattr(self.counts, kind, getattr(self.counts, kind) + 1)
        if len(self.counts.examples) < 20:
            self.counts.examples.append((kind, self.title, len(self.game.actions), action, str(detail)[:300]))

    def _check_money(self, action) -> None:
        total = all_cash(self.game)
        if total != self.start_money:
            self._note("money", action, f"{total} != {self.start_money}")
            self.start_money = total  # count each change once

    def move(self, pick: int | None = None) -> bool:
        """A listed move (chosen at random, or the ``pick``-th). False when the game is over."""
        legal = self._legal()
        if not legal:
            return False
        if pick is None:
            a = self.game.playout_choose(self.rng, legal) or choose(self.rng, legal, self.game.PLAYOUT_WEIGHTS)
        else:
            a = choose(random.Random(pick), [legal[pick % len(legal)]])
        self.counts.steps += 1
        self.counts.moves += 1
        try:
            self.game.process(dict(a))
        except GameError as e:
            self._note("listed_refused", a, e)
            # move on all the same (unchecked), so that one refusal does not stop the game
            legal2 = self._legal()
            if legal2:
                self.game._apply(choose(self.rng, legal2, self.game.PLAYOUT_WEIGHTS))
        except Exception as e:  # noqa: BLE001 - an engine crash is what is counted
            self._note("crashes", a, repr(e))
            return False
        self._check_money(a)
        return True

    def mutant(self, action: dict | None = None) -> bool:
        """A mutated action (of a listed one, at random, unless given)."""
        game = self.game
        legal = self._legal()
        if not legal:
            return False
        if action is None:
            action = mutate(game, self.rng.choice(legal), self.rng)
        self.counts.steps += 1
        self.counts.mutants += 1
        before = fingerprint(game)
        # whether it is listed, judged before it is applied (certificates by their holders then)
        # (an action must also fit its type's schema: extra fields, even null, are not the listed action)
        listed = (isinstance(action.get("type"), str) and problem(action) is None
                  and is_listed(action, legal, partial(share_kind, game), self._resolve))
        if listed and action.get("type") == "run_routes":
            # the gate lets any run through to the rules, which check its routes (any valid set
            # is a legal move) and compute its figures: one naming another extra revenue is forged
            routes = action.get("routes") or []
            listed = action.get("extra_revenue") in (
                None, game.run_extra_revenue(self._resolve(action), routes) if routes else 0)
        try:
            game.process(action)
        except GameError as e:
            self.counts.refused += 1
            if fingerprint(game) != before:
                self._note("changed_after_refusal", action, e)
            if listed:
                self._note("listed_refused", action, e)
            return True
        except Exception as e:  # noqa: BLE001
            self._note("crashes", action, repr(e))
            return False
        self.counts.accepted_mutants += 1
        if not listed and action.get("type") not in ("message", "end_game") and not _meta(action):
            self._note("unlisted_accepted", action)
        self._check_money(action)
        return True

    def _resolve(self, action):
        try:
            return self.game.index.resolve(action)
        except Exception:  # noqa: BLE001 - no such entity
            return None

    def run(self, steps: int, mutant_share: float = 0.5) -> bool:
        """``steps`` steps, a share of them mutants; False when the game cannot go on."""
        for _ in range(steps):
            ok = self.mutant() if self.rng.random() < mutant_share else self.move()
            if not ok:
                return False
        return True


def _meta(action) -> bool:
    from .core.legal import META_TYPES

    return action.get("type") in META_TYPES
