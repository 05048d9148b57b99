"""Routes chosen by hand on the game page: the acting company's trains and the router's best
run (for the page's route builder), and a proposed run checked by the engine
(:func:`trackage.core.routecheck.check_routes`, the rules a ``run_routes`` goes through)."""

from __future__ import annotations

from typing import Any

from ..core.errors import GameError
from ..core.routecheck import check_routes
from ..core.suggestion import suggested_run
from . import views
from .service import Illegal

#: the trains' colours on the map, in the order of the company's trains
TRAIN_COLORS = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324")


def run_entity(game: Any, legal: list[dict[str, Any]]) -> tuple[Any, dict[str, Any]] | None:
    """The company the seat runs trains for now and its listed ``run_routes`` (None: no run)."""
    run = next((a for a in legal if a.get("type") == "run_routes"), None)
    if run is None:
        return None
    try:
        return game.index.resolve(run), run
    except GameError:
        return None


def builder(game: Any, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """What the route builder shows: the company, its trains (id, name, colour), the best run
    when the listed run carries it (the page's listing does not: its script asks
    :func:`suggested` and fills it in)."""
    found = run_entity(game, legal)
    if found is None:
        return None
    entity, run = found
    trains = [{"id": t.id, "name": t.name, "color": TRAIN_COLORS[i % len(TRAIN_COLORS)]}
              for i, t in enumerate(game.route_trains(entity))]
    best = run.get("routes") or []
    return {"entity": getattr(entity, "id", None), "entity_type": run.get("entity_type"), "trains": trains,
            "best": best, "best_total": sum(int(r.get("revenue") or 0) for r in best)}


def suggested(game: Any, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The router's suggested run for the seat's run now (the listed ``run_routes`` with its
    ``routes``, as ``legal_actions()`` lists it), its ``total`` and its button's ``label``; 422 ``no-run`` when the
    seat has no run to make now."""
    found = run_entity(game, legal)
    run = suggested_run(game, found[0]) if found is not None else None
    if run is None:
        raise Illegal("routes/suggested: this seat has no trains to run now (no run_routes step)", "no-run")
    routes = run.get("routes") or []
    return {"entity": run.get("entity"), "entity_type": run.get("entity_type"), "routes": routes,
            "total": sum(int(r.get("revenue") or 0) for r in routes), "action": run,
            "label": views.describe(game, run)}


def check(game: Any, legal: list[dict[str, Any]], routes: list[dict[str, Any]]) -> dict[str, Any]:
    """A proposed run checked on the current state (nothing changes); 422 ``no-run`` when the
    seat has no run to make now."""
    found = run_entity(game, legal)
    if found is None:
        raise Illegal("routes/check: this seat has no trains to run now (no run_routes step)", "no-run")
    entity, run = found
    out = check_routes(game, entity, routes)
    return {"entity": getattr(entity, "id", None), "entity_type": run.get("entity_type"), **out}
