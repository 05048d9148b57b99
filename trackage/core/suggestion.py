"""The router's suggested run in the listing, worked out only when asked for.

A whole listing is made without it (``legal_actions(routes=False)``: a ``run_routes`` is
listed with no ``routes`` key) and remembered until the game moves; ``legal_actions()``
then fills in each listed ``run_routes`` from :func:`suggested_run`, which lists that one
action again with the suggestion (through the title's own ``legal_actions``, so it is the
very action a listing with the routes would hold) and remembers it for the state. The run
step's hook asks :func:`suggested_routes` for the router's routes: remembered for the state
and kept over a move the title names as leaving them as they were."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game

__all__ = ["suggested_routes", "suggested_run", "with_suggestions"]

RUN = "run_routes"


#: ``Game._suggesting`` while :func:`suggested_run` lists again the run of an entity taken
#: from the state's own whole listing (``listed``): the listing's check that the entity is
#: one it lists is spared (the gate's question sets ``_asking``, never this)
LISTED = "listed"


def suggested_run(game: Game, entity: Any, listed: bool = False) -> dict[str, Any] | None:
    """``entity``'s listed ``run_routes`` with the router's suggestion (``routes``, and
    whatever the title derives from them), or None when it may not run now. Remembered
    until the game moves; a copy is handed out. ``listed``: ``entity`` is named by a
    ``run_routes`` of the whole listing of this very state (the engine's own call)."""
    memo = game._suggested
    if memo is None or memo[0] != game._moves:
        memo = (game._moves, {})
        game._suggested = memo
    ref = game.index.ref(entity)
    key = (str(ref.get("entity_type")), str(ref.get("entity")))
    if key not in memo[1]:
        asking, suggesting = game._asking, game._suggesting
        game._asking, game._suggesting = {"type": RUN}, LISTED if listed else True
        try:
            acts = game.legal_actions(entity, routes=False)
        finally:
            game._asking, game._suggesting = asking, suggesting
        memo[1][key] = next((a for a in acts if a["type"] == RUN), None)
    found = memo[1][key]
    return dict(found) if found is not None else None


def with_suggestions(game: Game, listing: list[dict[str, Any]], listed: bool = False) -> list[dict[str, Any]]:
    """``listing`` (made without the suggestion) with each ``run_routes`` filled in;
    ``listed``: ``listing`` is the whole listing of the game's state now, just made (the
    engine's own ``legal_actions()``)."""
    out: list[dict[str, Any]] = []
    for a in listing:
        if a["type"] == RUN and "routes" not in a:
            full = suggested_run(game, game.index.resolve(a), listed)
            if full is None:
                continue  # the title's listing drops it once its routes are known
            a = full
        out.append(a)
    return out


def _copied(value: Any) -> Any:
    """A copy of plain JSON-like data (dicts, lists; the rest as it is)."""
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    return value


def suggested_routes(game: Game, entity: Any) -> list[dict[str, Any]]:
    """The router's suggested routes for ``entity`` (:func:`trackage.core.routes.suggest_routes`),
    remembered for the state and kept over one move by an action of a type in
    ``Game.SUGGESTION_KEEPS`` that left the board's version as it was (e.g. 1893's EVA changing
    hands between players during the run step): the state number one on, the action list
    one longer and its last action (no automatic actions after it) of such a type; an undo,
    a refusal, a redo of another type or a restore moves the number without that. The
    engine's check of its own suggestion (``Game._checked_run``) is kept with the routes and
    handed to the state it is asked in. A copy is handed out."""
    from . import routes as routemod

    moves, n = game._moves or 0, len(game.actions)
    board = game.board
    version = board.state.version if board is not None else None
    memo = game._suggested_routes
    if memo is None or memo[0] != moves:
        kept: dict[tuple[str, str], tuple[list[dict[str, Any]], tuple[Any, ...] | None]] = {}
        if (memo is not None and memo[3] and memo[0] + 1 == moves and memo[1] + 1 == n and memo[2] == version
                and game.actions[-1].get("type") in game.SUGGESTION_KEEPS
                and not game.actions[-1].get("auto_actions")):
            kept = memo[3]
        memo = (moves, n, version, kept)
        game._suggested_routes = memo
    ref = game.index.ref(entity)
    key = (str(ref.get("entity_type")), str(ref.get("entity")))
    found = memo[3].get(key)
    if found is not None:
        if found[1] is not None:
            game._checked_run = (moves, *found[1])
        return _copied(found[0])
    routes = routemod.suggest_routes(game, entity)
    ran = game._checked_run
    checked = ran[1:] if ran is not None and ran[0] == moves and ran[2] is entity else None
    memo[3][key] = (_copied(routes), checked)
    return routes
