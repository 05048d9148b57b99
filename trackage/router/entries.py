"""The fields of a walk step (an *entry*, a tuple; see :mod:`.candidates`).

``PARENT`` (the entry it grew from; None at a start), ``NODE``, ``PATHS`` (the link's paths
from the parent's node), ``MASK`` (the conflict keys of the whole half, its parent's and the
link's), ``STATE`` (the meter's), ``VALS`` (stop values: a sum, or the best paying ones),
``FIRST`` (the start's link it left by), ``DEPTH``, ``NODES`` (its stops, the start first),
``LINK`` (the link's index at the parent's node), ``KIDS`` (the tree's children, or None),
``CLASH`` (clash bits), ``SPENT`` (the meter's spent count), ``IDX`` (its place in the tree).
"""

from __future__ import annotations

from typing import Any, TypeAlias

Entry: TypeAlias = tuple[Any, ...]
"""A walk step: its fields differ in type, read by the indexes below."""

PARENT, NODE, PATHS, MASK, STATE, VALS, FIRST, DEPTH, NODES, LINK, KIDS, CLASH, SPENT, IDX = range(14)
