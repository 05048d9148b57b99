"""Hex coordinates, layouts and edge directions.

Coordinates are strings made of letters and a number (``"S13"``, ``"AA4"``, ``"a4"``,
``"B0"``, ``"C-1"``). They map onto a *doubled* coordinate system ``(x, y)``:

* The letter axis counts ``A``..``Z``, ``AA``..``AZ`` from 0; lower-case letters are negative
  (``a`` = -1, ``b`` = -2, ...).
* The number axis is ``number - 1`` (so ``B0`` has number value -1).
* ``axes`` says which of the two is ``x`` and which ``y``. Without an explicit setting the
  default depends on the layout, as in the reference: ``flat`` -> ``{"x": "letter", "y":
  "number"}`` (letters are columns), ``pointy`` -> ``{"x": "number", "y": "letter"}``
  (letters are rows). Titles may set either explicitly.

Edges are numbered 0-5. Which neighbour lies behind each edge depends on the layout
(``"flat"`` or ``"pointy"``); :data:`DIRECTIONS` gives the ``(dx, dy)`` offset of each edge
in the doubled system. The opposite edge is ``invert(edge) == (edge + 3) % 6``.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TypeAlias

# how a title gives its axes: a dict like {"x": "letter", "y": "number"}, an (x, y) pair, or None
AxesSpec: TypeAlias = dict[str, str] | tuple[str, str] | None

__all__ = [
    "DEFAULT_AXES",
    "DIRECTIONS",
    "LAYOUTS",
    "LAYOUT_AXES",
    "LETTERS",
    "NEGATIVE_LETTERS",
    "OFFSETS",
    "HexGrid",
    "coord_column_row",
    "default_axes",
    "direction_between",
    "distance",
    "format_coord",
    "invert",
    "neighbor",
    "normalize_axes",
    "parse_coord",
]

LETTERS: tuple[str, ...] = tuple(
    [chr(c) for c in range(ord("A"), ord("Z") + 1)] + ["A" + chr(c) for c in range(ord("A"), ord("Z") + 1)]
)
"""Positive letter values: ``LETTERS.index(letter)``."""

NEGATIVE_LETTERS: tuple[str, ...] = ("",) + tuple(chr(c) for c in range(ord("a"), ord("z") + 1))
"""Negative letter values: ``-NEGATIVE_LETTERS.index(letter)`` (``a`` = -1)."""

_LETTER_VALUE = {l: i for i, l in enumerate(LETTERS)}
_LETTER_VALUE.update({l: -i for i, l in enumerate(NEGATIVE_LETTERS) if l})

LAYOUTS = ("flat", "pointy")

DIRECTIONS: dict[str, dict[tuple[int, int], int]] = {
    "flat": {(0, 2): 0, (-1, 1): 1, (-1, -1): 2, (0, -2): 3, (1, -1): 4, (1, 1): 5},
    "pointy": {(-1, 1): 0, (-2, 0): 1, (-1, -1): 2, (1, -1): 3, (2, 0): 4, (1, 1): 5},
}
"""layout -> {(dx, dy): edge}: the neighbour at ``(x + dx, y + dy)`` lies behind ``edge``."""

OFFSETS: dict[str, tuple[tuple[int, int], ...]] = {
    layout: tuple(xy for e in range(6) for xy, d in table.items() if d == e)
    for layout, table in DIRECTIONS.items()
}
"""layout -> tuple indexed by edge of the ``(dx, dy)`` offset of the neighbour behind it."""

DEFAULT_AXES = {"x": "letter", "y": "number"}
"""Axes used when neither axes nor a layout is known (module-level helpers)."""

LAYOUT_AXES = {"flat": ("letter", "number"), "pointy": ("number", "letter")}
"""Default axes per layout when a title does not set them."""

_COORD_LETTER = re.compile(r"([A-Za-z]+)")
_COORD_NUMBER = re.compile(r"(-?[0-9]+)")


def invert(edge: int) -> int:
    """The edge on the other side of ``edge`` (as seen from the neighbouring hex)."""
    return (edge + 3) % 6


def default_axes(layout: str) -> tuple[str, str]:
    """Axes the reference uses for ``layout`` when the title sets none."""
    return LAYOUT_AXES[layout]


def normalize_axes(axes: AxesSpec, layout: str | None = None) -> tuple[str, str]:
    """``axes`` (dict like ``{"x": "letter", "y": "number"}``, a tuple, or None) -> (x, y)
    kinds. None means the default of ``layout`` (x letter / y number without a layout)."""
    if axes is None:
        return LAYOUT_AXES[layout] if layout is not None else ("letter", "number")
    if isinstance(axes, dict):
        return (str(axes.get("x", "letter")), str(axes.get("y", "number")))
    x, y = axes
    return (str(x), str(y))


@cache
def _parse(coord: str, axes: tuple[str, str]) -> tuple[int, int, object, object]:
    m_letter = _COORD_LETTER.search(coord)
    m_number = _COORD_NUMBER.search(coord)
    if not m_letter or not m_number:
        raise ValueError(f"bad hex coordinate {coord!r}")
    letter = m_letter.group(1)
    number = int(m_number.group(1))
    try:
        lval = _LETTER_VALUE[letter]
    except KeyError:
        raise ValueError(f"bad hex coordinate letter in {coord!r}") from None
    x = lval if axes[0] == "letter" else number - 1
    y = lval if axes[1] == "letter" else number - 1
    column: object
    row: object
    if axes[0] == "letter":
        column, row = letter, number
    else:
        column, row = number, letter
    return x, y, column, row


def parse_coord(coord: str, axes: AxesSpec = None) -> tuple[int, int]:
    """``"S13"`` -> ``(x, y)`` in the doubled coordinate system."""
    x, y, _, _ = _parse(coord, normalize_axes(axes))
    return x, y


def coord_column_row(coord: str, axes: AxesSpec = None) -> tuple[object, object]:
    """Column and row labels of a coordinate (letter/number in axis order, as the reference)."""
    _, _, column, row = _parse(coord, normalize_axes(axes))
    return column, row


def _letter_for(value: int) -> str:
    if value >= 0:
        return LETTERS[value]
    return NEGATIVE_LETTERS[-value]


def format_coord(x: int, y: int, axes: AxesSpec = None) -> str:
    """Inverse of :func:`parse_coord`: ``(x, y)`` -> ``"<letters><number>"``."""
    ax = normalize_axes(axes)
    if ax[0] == "letter":
        return f"{_letter_for(x)}{y + 1}"
    return f"{_letter_for(y)}{x + 1}"


def direction_between(layout: str, x0: int, y0: int, x1: int, y1: int) -> int | None:
    """Edge of hex ``(x0, y0)`` that faces ``(x1, y1)``, or None if they are not adjacent."""
    return DIRECTIONS[layout].get((x1 - x0, y1 - y0))


def distance(layout: str, x0: int, y0: int, x1: int, y1: int) -> int:
    """Hex distance as the crow flies (doubled coordinates)."""
    dx = abs(x1 - x0)
    dy = abs(y1 - y0)
    if layout == "pointy":
        return dy + max(0, (dx - dy) // 2)
    return dx + max(0, (dy - dx) // 2)


class HexGrid:
    """A layout plus an axes configuration; converts between coordinates and neighbours."""

    __slots__ = ("_offsets", "axes", "layout")

    def __init__(self, layout: str = "flat", axes: AxesSpec = None):
        if layout not in DIRECTIONS:
            raise ValueError(f"unknown layout {layout!r}")
        self.layout = layout
        self.axes = normalize_axes(axes, layout)
        self._offsets = OFFSETS[layout]

    def parse(self, coord: str) -> tuple[int, int]:
        x, y, _, _ = _parse(coord, self.axes)
        return x, y

    def format(self, x: int, y: int) -> str:
        return format_coord(x, y, self.axes)

    def neighbor_xy(self, x: int, y: int, edge: int) -> tuple[int, int]:
        dx, dy = self._offsets[edge % 6]
        return x + dx, y + dy

    def neighbor(self, coord: str, edge: int) -> str:
        """Coordinate of the hex behind ``edge`` of ``coord`` (whether or not it exists on a map)."""
        x, y = self.parse(coord)
        return self.format(*self.neighbor_xy(x, y, edge))

    def direction(self, coord: str, other: str) -> int | None:
        """Edge of ``coord`` facing ``other`` (None when not adjacent)."""
        x0, y0 = self.parse(coord)
        x1, y1 = self.parse(other)
        return direction_between(self.layout, x0, y0, x1, y1)

    def distance(self, coord: str, other: str) -> int:
        x0, y0 = self.parse(coord)
        x1, y1 = self.parse(other)
        return distance(self.layout, x0, y0, x1, y1)

    def __repr__(self) -> str:
        return f"HexGrid({self.layout!r}, axes={{'x': {self.axes[0]!r}, 'y': {self.axes[1]!r}}})"


def neighbor(coord: str, edge: int, layout: str = "flat", axes: AxesSpec = None) -> str:
    """Coordinate of the hex behind ``edge`` of ``coord`` for the given layout and axes
    (default axes of the layout when None)."""
    return HexGrid(layout, axes).neighbor(coord, edge)
