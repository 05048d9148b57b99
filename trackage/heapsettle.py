"""Settling a long-lived process's heap for the garbage collector (called by entry points only).

A process that plays or serves games for long (the web server, the tournament's workers, the
speed scripts) loads the titles' catalogues once and keeps them: every full collection would
scan them again. :func:`settle_heap` loads them, collects, and moves everything alive into
the collector's permanent generation (``gc.freeze()``), which full collections skip; objects
there are still freed by reference counting. Nothing in the library calls it or depends on
it: a process that never calls it behaves the same, only with slower full collections.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable


def settle_heap(titles: Iterable[str] = ()) -> None:
    """Load the catalogues of ``titles`` (a first game of each, listed once) and the action
    schema, collect, and freeze what is alive. (A larger young-generation threshold was measured and did not help:
    the young collections' time is mostly freeing the cyclic garbage of game copies.)"""
    from importlib import import_module

    from .playout import COMBOS
    from .titles import new_game

    # the action schema (pydantic's models) is imported by the first process(): settled too
    import_module(".core.schema", __package__)
    for title in titles:
        n, options = COMBOS[title][0]
        new_game(title, [{"id": i + 1, "name": f"P{i + 1}"} for i in range(n)], options, 0).legal_actions()
    gc.collect()
    gc.freeze()
