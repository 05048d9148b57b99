"""1822's destinations: whether a major's home reaches its destination."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game1822


def destination_connected(game: Game1822, entity) -> bool:
    """Does a walk from the destination (not entering cities that block ``entity``) reach
    its home token? The walk stops at the first path that does."""
    dest = game.board.hex_by_id(entity.destination)
    home = entity.tokens[0].city if entity.tokens and entity.tokens[0].used else None
    dest_tile = game.board.tile(dest) if dest is not None else None
    if dest_tile is None or home is None or not dest_tile.nodes:
        return False
    # the walk can take seconds on a big network: remember its answer for this board (the
    # tokens are part of the key: a token placed in a city does not change the version)
    board = game.board
    key = ("destination", entity.id, frozenset(board.state.tokens.items()))
    return board.derived(key, lambda: walk_to_home(game, entity, dest_tile, home))


def walk_to_home(game: Game1822, entity, dest_tile, home) -> bool:
    """Does a walk from the destination tile reach ``home``?"""
    from ...core.graph import walk_node

    class Found(Exception):
        pass

    def visit(path, *args):
        if home in path.nodes:
            raise Found

    try:
        # the reference walks every converging branch (exponential on a big network); a
        # plain reachability walk, as its graph uses, gives the same answer
        walk_node(dest_tile.nodes[0], visit, board=game.board, corporation=entity, converging=False)
    except Found:
        return True
    except TypeError:
        return False
    return False
