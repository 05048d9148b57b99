"""1822's effects of a tile lay on the map: extra tokens and cheater slots go, S/T labels stay
on plain yellow track, London keeps minor 14's extra slot."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .config import LONDON

if TYPE_CHECKING:
    from .game import Game1822


def remove_extra_tokens(game: Game1822, tile) -> None:
    """After a lay, a corporation keeps one token per city of ``tile`` (destination tokens
    count); the others go back to its charter."""
    board = game.board
    for city in tile.cities:
        counted: dict = {}
        for tok in board.tokens(city):
            if tok is None:
                continue
            ent = counted.setdefault(game.token_owner(tok), [[], 0])
            if tok.type != "destination":
                ent[0].append(tok)
            ent[1] += 1
        removed = False
        for corp, (toks, n) in counted.items():
            toks.sort(key=lambda t: corp.tokens.index(t))
            for _ in range(n - 1):
                t = toks.pop()
                board.set_token_price(board.remove_token(t), game.TOKEN_PRICE)
                removed = True
        if removed:
            remove_cheater_slot(game, city)


def remove_cheater_slot(game: Game1822, city) -> None:
    """A city with a cheater slot and an empty slot moves the last token into the empty one."""
    board = game.board
    slots = list(board.tokens(city))
    if len(slots) <= city.normal_slots:
        return
    res = list(board.city_reservations(city)) + [None] * len(slots)
    empty = next((i for i, (t, r) in enumerate(zip(slots, res)) if t is None and r is None), None)
    if empty is None:
        return
    last = slots.pop()
    slots[empty] = last
    board.set_tokens(city, slots)


def after_lay(game: Game1822, entity, hex_, old_tile, tile) -> None:
    """What a lay of ``tile`` on ``hex_`` leaves behind: extra tokens go, labels and London's slot stay."""
    remove_extra_tokens(game, tile)
    after_lay_tile(game, hex_, old_tile, tile)


def after_lay_tile(game: Game1822, hex_, old_tile, tile) -> None:
    # a plain yellow tile laid on an S/T hex keeps the symbol as a temporary label; it is the
    # hex's label (board state), so it leaves with the tile when the tile is upgraded
    """A plain yellow tile on an S/T hex keeps its label; London keeps minor 14's slot."""
    olab = old_tile.label
    if olab and tile.color == "yellow" and olab in ("S", "T") and not tile.label:
        game.board.set_label(hex_, olab)
    if hex_.id == LONDON:
        upgrade_minor_14_home_hex(game, hex_)


def upgrade_minor_14_home_hex(game: Game1822, hex_) -> None:
    """London's upgraded tile keeps the extra slot of minor 14's city."""
    if game.minor_14_city_exit is None:
        return
    board = game.board
    city = next((p.city for p in board.tile(hex_).paths if p.city is not None and p.edges
                 and p.edges[0].num == game.minor_14_city_exit), None)
    if city is None:
        return
    if board.slots(city) <= city.normal_slots:
        board.set_tokens(city, board.tokens(city) + (None,))
