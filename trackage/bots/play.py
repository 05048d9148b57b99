"""One game between bots, to the title's own end (no cap on its length)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from ..core.errors import GameError
from ..playout import STALL_LIMIT
from ..titles import new_game
from .base import BotBase, acting_seat


def derive_seed(*parts: object) -> int:
    """A seed (31 bits) from parts: the same parts give the same seed on every machine."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


@dataclass
class Outcome:
    """How a game ended, by seat: scores (the title's result), ranks (1 + the number of seats
    that scored more: tied seats share a rank), margins (score minus the best other score) and
    wins (1/k for each of k seats sharing the top score, else 0)."""

    scores: list[int]
    ranks: list[int]
    margins: list[int]
    wins: list[float]


def outcome(game: Any) -> Outcome:
    result = game.result()
    scores = [int(result[str(p.id)]) for p in game.seats]
    ranks = [1 + sum(1 for o in scores if o > s) for s in scores]
    margins = [s - max(o for j, o in enumerate(scores) if j != i) if len(scores) > 1 else 0
               for i, s in enumerate(scores)]
    top = max(scores)
    winners = sum(1 for s in scores if s == top)
    wins = [1.0 / winners if s == top else 0.0 for s in scores]
    return Outcome(scores, ranks, margins, wins)




def play_game(title: str, options: list[str], seed: int, bots: list[BotBase]) -> Any:
    """A game of ``title`` seeded ``seed`` with one bot per seat, played through ``process``
    until the game ends by its own rules; returns the finished game. A game in which one
    entity stays in charge of one round for :data:`STALL_LIMIT` actions is stopped as stuck
    (bots answering each other without end) rather than played forever."""
    players = [{"id": i + 1, "name": f"{b.name} {i + 1}"} for i, b in enumerate(bots)]
    game = new_game(title, players, options, seed)
    held: tuple[int, int] = (0, 0)
    since = 0
    while not game.finished:
        actions = game.legal_actions()
        if not actions:
            raise GameError(f"tournament game: no legal action in {game.round.name} after action "
                            f"{len(game.actions)}", rule="stuck")
        key = (id(game.round), id(game.current_entity()))
        if key != held:
            held, since = key, len(game.actions)
        elif len(game.actions) - since >= STALL_LIMIT:
            raise GameError(f"tournament game: {game.current_entity().name} has been in charge of "
                            f"{game.round.name} since action {since + 1} ({STALL_LIMIT} actions, last "
                            f"{actions[0]['type']} and the like): bots answering each other", rule="stuck")
        seat = acting_seat(game, actions)
        action = bots[seat].choose(game, seat)
        game.process(action)
    return game
