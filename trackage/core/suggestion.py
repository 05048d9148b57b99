"""The router's suggested run in the listing, worked out only when asked for.

A whole listing is made without it (``legal_actions(routes=False)``: a ``run_routes`` is
listed with no ``routes`` key) and remembered until the game moves; ``legal_actions()``
then fills in each listed ``run_routes`` from :func:`suggested_run`, which lists that one
action again with the suggestion (through the title's own ``legal_actions``, so it is the
very action a listing with the routes would hold) and remembers it for the state."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game

__all__ = ["suggested_run", "with_suggestions"]

RUN = "run_routes"


def suggested_run(game: Game, entity: Any) -> dict[str, Any] | None:
    """``entity``'s listed ``run_routes`` with the router's suggestion (``routes``, and
    whatever the title derives from them), or None when it may not run now. Remembered
    until the game moves; a copy is handed out."""
    memo = game._suggested
    if memo is None or memo[0] != game._moves:
        memo = (game._moves, {})
        game._suggested = memo
    ref = game.index.ref(entity)
    key = (str(ref.get("entity_type")), str(ref.get("entity")))
    if key not in memo[1]:
        asking, suggesting = game._asking, game._suggesting
        game._asking, game._suggesting = {"type": RUN}, True
        try:
            acts = game.legal_actions(entity, routes=False)
        finally:
            game._asking, game._suggesting = asking, suggesting
        memo[1][key] = next((a for a in acts if a["type"] == RUN), None)
    found = memo[1][key]
    return dict(found) if found is not None else None


def with_suggestions(game: Game, listing: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``listing`` (made without the suggestion) with each ``run_routes`` filled in."""
    out: list[dict[str, Any]] = []
    for a in listing:
        if a["type"] == RUN and "routes" not in a:
            full = suggested_run(game, game.index.resolve(a))
            if full is None:
                continue  # the title's listing drops it once its routes are known
            a = full
        out.append(a)
    return out
