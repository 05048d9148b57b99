"""Random playouts: whole games of random legal actions (for tests and bots)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

from .core.errors import GameError
from .export import game_to_log
from .invariants import check
from .replay import replay_data
from .titles import new_game

# a little bias so random games move on: passing is legal almost always
WEIGHTS = {"pass": 1.0, "buy_shares": 3.0, "par": 2.0, "buy_company": 2.0, "sell_shares": 0.4,
           "sell_company": 0.3, "lay_tile": 3.0, "place_token": 2.0, "run_routes": 5.0, "dividend": 2.0,
           "buy_train": 4.0, "discard_train": 1.0, "special_buy": 0.2}


def choose(rng: random.Random, actions: list[dict], weights_by_type: dict | None = None) -> dict:
    table = {**WEIGHTS, **(weights_by_type or {})}
    weights = [table.get(a["type"], 1.0) for a in actions]
    a = dict(rng.choices(actions, weights=weights, k=1)[0])
    if "price_range" in a:
        lo, hi = a.pop("price_range")
        step = a.pop("price_step", 1) or 1
        hi = max(lo, hi - (hi - lo) % step)
        a["price"] = rng.randrange(lo, hi + 1, step)
    a.pop("price_step", None)
    a.pop("canonical_prices", None)
    return a


# actions in a row by which the same entity stays in charge of the same round before a game
# counts as stuck (a turn of any title takes far fewer)
STALL_LIMIT = 2000


def random_playout(title: str, num_players: int, options: list[str], seed: int, *, max_actions: int | None = None,
                   on_action=None):
    """A whole game of random legal actions, to the title's own end (``max_actions``, when
    given, stops it earlier: for tests that need only the start of a game). A game in which
    one entity stays in charge of one round for :data:`STALL_LIMIT` actions (only others'
    actions that never move the round on are left) stops with a "stuck" GameError."""
    players = [{"id": i + 1, "name": f"Player {i + 1}"} for i in range(num_players)]
    game = new_game(title, players, options, seed)
    rng = random.Random(seed)
    played = 0
    held: tuple[int, int] = (0, 0)
    since = 0
    while max_actions is None or played < max_actions:
        if game.finished:
            break
        played += 1
        actions = game.legal_actions()
        if not actions:
            raise GameError(f"no legal action for {game.index.name(game.current_entity())} in {game.round.name}",
                            rule="stuck")
        key = (id(game.round), id(game.current_entity()))
        if key != held:
            held, since = key, played
        elif played - since >= STALL_LIMIT:
            # (e.g. 1893: every action of the operator refused as leading where the reference
            # cannot go on, while the other players may still buy EVA from each other for ever)
            raise GameError(f"{game.index.name(game.current_entity())} has been in charge of {game.round.name} "
                            f"for {STALL_LIMIT} actions (last {actions[0]['type']} and the like): the game "
                            f"does not move on", rule="stuck")
        action = game.playout_choose(rng, actions) or choose(rng, actions, game.PLAYOUT_WEIGHTS)
        action["id"] = len(game.actions) + 1
        game._apply(action)  # legal by construction; a failure is an engine bug and propagates
        if on_action is not None:
            on_action(game, action)
    return game


# (players, options) combinations per title, cycled by seed
COMBOS = {
    "1825": [
        (4, ["unit_1"]), (2, ["unit_1", "r1"]), (3, ["unit_2"]), (2, ["unit_3"]), (5, ["unit_1", "k7"]),
        (6, ["unit_1", "unit_2"]), (3, ["unit_2", "unit_3"]), (4, ["unit_2", "k5"]), (2, ["unit_2", "k3"]),
        (8, ["unit_1", "unit_2", "unit_3"]), (4, ["unit_1", "r1", "r2", "r3", "db2"]),
        (6, ["unit_1", "unit_2", "unit_3", "r1", "r2", "r3", "k1", "k3", "k5", "k6", "k7", "u3p", "db1", "db2", "db3"]),
        (5, ["unit_1", "unit_2", "k2", "k3"]), (4, ["unit_1", "d1"]), (7, ["unit_1", "unit_2", "big_bank"]),
        (2, ["unit_3", "db3", "u3p"]), (5, ["unit_2", "unit_3", "db1"]), (9, ["unit_1", "unit_2", "unit_3", "r1", "r2",
                                                                              "r3"]),
        (5, ["unit_1", "unit_2", "unit_3", "unit_4"]), (4, ["unit_2", "unit_3", "unit_4", "strict_bank"]),
        (4, ["unit_1", "k2", "k3"]), (3, ["unit_2", "k6"]),
    ],
    "1867": [(2, []), (3, []), (4, []), (5, []), (6, []), (4, ["grid_market"]), (3, ["grid_market"]),
             (6, ["grid_market"]), (2, ["grid_market"]), (5, ["grid_market"])],
    "1861": [(2, []), (3, []), (4, []), (5, []), (6, []), (4, ["column_market"]), (3, ["column_market"])],
    "1822": [(3, []), (4, ["plus_expansion"]), (5, []), (2, ["plus_expansion", "plus_expansion_no_removals"]),
             (6, ["plus_expansion", "plus_expansion_single_stack"]), (7, []), (4, ["tax_haven_multiple"]),
             (3, ["plus_expansion", "plus_expansion_no_removals", "plus_expansion_single_stack",
                  "tax_haven_multiple"])],
    "1893": [(2, []), (3, []), (4, []), (3, ["optional_2_train"]), (4, ["optional_grey_phase"]),
             (2, ["optional_existing_track"]), (4, ["optional_2_train", "optional_grey_phase",
                                                    "optional_existing_track"]),
             (3, ["optional_grey_phase", "optional_existing_track"])],
    "1858": [(4, []), (3, []), (5, ["quick_start_a"]), (4, ["quick_start_b"]), (6, []), (2, []), (3, ["quick_start_a"]),
             (6, ["quick_start_a"])],
    "1858India": [(5, ["quick_start_b"]), (3, []), (4, ["quick_start_a"]), (6, []), (4, []), (5, []),
                  (3, ["quick_start_a"]), (6, ["quick_start_b"])],
}


def run_one(title: str, seed: int, max_actions: int = 20000, out_dir=None):
    """Play seed's game, check invariants after every action, export and replay it."""

    players, options = COMBOS[title][seed % len(COMBOS[title])]
    start = {}

    def on_action(game, action):
        if "total" not in start:
            start["total"] = game.total_cash()  # nothing is created or destroyed after set-up
        check(game, start["total"], action)

    t = time.perf_counter()
    game = random_playout(title, players, options, seed, max_actions=max_actions, on_action=on_action)
    played = time.perf_counter() - t
    log = game_to_log(game, game_id=f"playout-{title}-{seed}")
    if out_dir:
        (Path(out_dir) / f"{title}-{seed}.json").write_text(json.dumps(log))
    t = time.perf_counter()
    rep = replay_data(json.loads(json.dumps(log)))
    replayed = time.perf_counter() - t
    ok = game.finished and rep.error is None and rep.result == game.result() and rep.finished
    return ok, game, players, options, played, replayed, rep
