"""Random playouts: whole games of random legal actions (for tests and bots)."""

from __future__ import annotations

import random

from .core.errors import GameError
from .titles import new_game

# a little bias so random games move on: passing is legal almost always
WEIGHTS = {"pass": 1.0, "buy_shares": 3.0, "par": 2.0, "buy_company": 2.0, "sell_shares": 0.4,
           "sell_company": 0.3, "lay_tile": 3.0, "place_token": 2.0, "run_routes": 5.0, "dividend": 2.0,
           "buy_train": 4.0, "discard_train": 1.0, "special_buy": 0.2}


def choose(rng: random.Random, actions: list[dict]) -> dict:
    weights = [WEIGHTS.get(a["type"], 1.0) for a in actions]
    a = dict(rng.choices(actions, weights=weights, k=1)[0])
    if "price_range" in a:
        lo, hi = a.pop("price_range")
        step = a.pop("price_step", 1) or 1
        hi = max(lo, hi - (hi - lo) % step)
        a["price"] = rng.randrange(lo, hi + 1, step)
    a.pop("price_step", None)
    return a


def random_playout(title: str, num_players: int, options: list[str], seed: int, *, max_actions: int = 20000,
                   on_action=None):
    players = [{"id": i + 1, "name": f"Player {i + 1}"} for i in range(num_players)]
    game = new_game(title, players, options, seed)
    rng = random.Random(seed)
    for _ in range(max_actions):
        if game.finished:
            break
        actions = game.legal_actions()
        if not actions:
            raise GameError(f"no legal action for {game.entity_name(game.current_entity())} in {game.round.name}",
                            rule="stuck")
        action = choose(rng, actions)
        action["id"] = len(game.actions) + 1
        game._apply(action)  # legal by construction; a failure is an engine bug and propagates
        if on_action is not None:
            on_action(game, action)
    return game
