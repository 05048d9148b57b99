"""The exact auto-router: the best routes a company can run now, with a proof.

``optimal_routes(game, entity)`` enumerates every route each of the company's trains could
run (:mod:`.candidates`), then searches the combinations by branch and bound
(:mod:`.search`), evaluating promising runs with the title's own route rules. The result's
routes are ``run_routes`` entries that ``process()`` accepts. It reads the engine through its
public pieces only: the game's route rules (``rules_for``), ``route_trains``, the board.
"""

from __future__ import annotations

from .solve import RouterResult, optimal_routes

__all__ = ["RouterResult", "optimal_routes"]
