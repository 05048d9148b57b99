"""What the search bot's look-ahead costs, per title, and the node budgets that follow from a
time budget.

A node is one simulated action: the rule bot's choice for the seat to move (with the listing
of the legal actions it asks for) and the engine processing it; a copy of the game counts as
``COPY_NODES``. The costs below are CPU seconds per node measured with the rule bot playing
every seat (a whole game), with a margin for a loaded machine. The conversion is fixed:
the search never looks at the clock, so the same seed plays the same game on any machine."""

from __future__ import annotations

from types import MappingProxyType

DEFAULT_BUDGET = 0.25
# what a copy of the game costs, in simulated actions
COPY_NODES = 2
# seconds per node of a title not measured (the previous fixed conversion)
FALLBACK_SECONDS_PER_NODE = 0.0085
# seconds per node where a title's simulated actions cost more than the fallback's (a whole
# rule bot game: 4.7 ms per action in 1822, 4.0 ms in 1858 India with the costliest copies,
# 2.9-4.3 ms in the others, on a loaded machine)
SECONDS_PER_NODE: MappingProxyType[str, float] = MappingProxyType({
    "1822": 0.0100,
    "1858India": 0.0120,
})


def node_budget(budget: float | None, title: str = "") -> int:
    """Simulated actions per decision for a time budget in ``title`` (a fixed conversion, not
    the clock)."""
    seconds = DEFAULT_BUDGET if budget is None else budget
    return max(0, int(seconds / SECONDS_PER_NODE.get(title, FALLBACK_SECONDS_PER_NODE)))
