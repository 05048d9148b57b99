"""1858's start of the game: the stubs of the private railways' home lines, the privates a
two-player game leaves unbuyable, and the quick-start packets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.money import pay

if TYPE_CHECKING:
    from .game import Game1858


def setup_unbuyable_privates(game: Game1858) -> None:
    """A two-player game leaves five yellow and two green privates unbuyable."""
    yellow = [m for m in game.minors if m.data.get("color") == "yellow"]
    green = [m for m in game.minors if m.data.get("color") != "yellow"]
    picked = game.rng.shuffle(yellow)[:5] + game.rng.shuffle(green)[:2]
    game.unbuyable_companies = [game.private_company(m) for m in picked]


def setup_stubs(game: Game1858) -> dict:
    """Stubs mark the unbuilt line between the home hexes of each private railway."""
    from ...core.tiles import Stub

    stubs: dict = {}
    board = game.board
    # the board's stubs, changed here and put in place once (as a stub set at a time would)
    on_board = dict(board.state.stubs)
    for m in game.minors:
        if len(m.coordinates) < 2:
            continue
        homes = [game.board.hex_by_id(c) for c in m.coordinates]
        for hex_ in homes:
            if board.tile(hex_).color != "white":
                continue
            for edge, nb in board.neighbors(hex_).items():
                if nb in homes:
                    st = Stub(edge, track="future")
                    on_board[hex_.id] = on_board.get(hex_.id, ()) + (st,)
                    stubs.setdefault(m, []).append((hex_, st))
    if stubs:
        board.state.stubs = on_board
    return stubs


def option_quick_start(game: Game1858) -> str | None:
    """The quick-start option chosen (None: none)."""
    for r in game.QUICK_START:
        if r in game.optional_rules:
            return r
    return None


def quick_start(game: Game1858, option: str) -> None:
    """Deal the quick-start packets to the players."""
    key = "quick_start_packets_b" if option == "quick_start_b" else "quick_start_packets_a"
    packets = game.rng.shuffle(list(game.data[key][str(len(game.players))]))
    for player, packet in zip(game.players, packets):
        pay(game, player, game.bank, packet["cost"], "company_purchase")
        for sym in packet["companies"]:
            game.purchase_company(player, game.index.company(sym), 0)
