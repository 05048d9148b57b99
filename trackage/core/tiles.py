"""Tiles: parsed specifications, tile objects, nodes, paths and upgrade legality.

Layers
------
* :class:`TileSpec` -- the immutable parse of one part list (see ``docs/data-format.md``).
  Shared by every tile built from the same parts; it precomputes, for each of the six
  rotations, the exits, the path end points and what the upgrade checks need.
* :class:`Tile` -- one physical tile (a supply copy or a preprinted map hex). It owns its
  node objects (cities carry tokens and reservations), icons, borders and labels. Its
  :class:`Path` objects are built lazily once per rotation and cached, so ``tile.rotate(r)``
  costs nothing.
* Node classes :class:`City`, :class:`Pass`, :class:`Town`, :class:`Halt`,
  :class:`Offboard` (revenue centres) and :class:`Junction` (Lawson centre point).

Indexes
-------
Every part keeps its *part index*: its position in the part list, where a ``lanes:n`` path
counts as ``n`` consecutive parts. City ids are ``f"{tile.id}-{index}"`` and route node
signatures ``f"{hex.id}-{index}"``. Node references inside paths (``"_N"``) count only
node-like parts (city, town, offboard, junction, halt, pass) -- their *ordinal*.

For the graph walker
--------------------
* ``tile.paths`` -- paths in the current rotation (part order); ``tile.paths_at(edge)`` --
  the paths that leave through a (rotated) edge, i.e. what a walker arriving on that edge
  from the neighbour can continue on.
* ``node.paths`` / ``junction.paths`` -- paths touching the node in the current rotation.
* ``path.a``/``path.b`` -- :class:`Edge` (``num`` rotated, ``lanes``) or a node;
  ``path.edges``, ``path.exits``, ``path.nodes``, ``path.junction``, ``path.terminal``,
  ``path.exit_lanes[num]``; ``tile.converging_exit(num)``; :func:`lane_match`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Container, Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast, overload

if TYPE_CHECKING:
    from trackage.core.errors import GameError
    from trackage.core.hexmap import Hex
else:
    try:  # the project-wide error type, when available
        from trackage.core.errors import GameError
    except ImportError:  # pragma: no cover - fallback for isolated use
        class GameError(Exception):
            pass

__all__ = [
    "ALL_EDGES",
    "COLORS",
    "NODE_TYPES",
    "REVENUE_PHASES",
    "Border",
    "City",
    "Edge",
    "Frame",
    "FutureLabel",
    "GameError",
    "Halt",
    "Icon",
    "Junction",
    "NodeBase",
    "Offboard",
    "Partition",
    "Pass",
    "Path",
    "Placed",
    "RevenueCenter",
    "Stripes",
    "Stub",
    "Tile",
    "TileLibrary",
    "TileSpec",
    "Town",
    "Upgrade",
    "city_map",
    "city_sizes_maintained",
    "lane_match",
    "legal_rotation",
    "legal_rotations",
    "old_paths_maintained",
    "path_le",
    "paths_are_subset_of",
    "standard_tiles",
    "tracks_match",
    "upgrades_to",
    "upgrades_to_correct_city_town",
    "upgrades_to_correct_color",
    "upgrades_to_correct_label",
]

COLORS: tuple[str, ...] = (
    "white", "yellow", "green", "brown", "gray", "blue", "sepia", "greenbrown", "browngray",
    "brownsepia", "none", "pink", "red", "purple", "orange", "gray60", "gray50", "gray40",
    "salmon", "navy",
)
"""Colour order of the reference. A plain upgrade goes to the colour right after the old one."""

REVENUE_PHASES: tuple[str, ...] = ("yellow", "green", "brown", "gray", "diesel")
"""Colours a plain integer revenue is defined for (phase lookups only see these keys)."""

ALL_EDGES: tuple[int, ...] = (0, 1, 2, 3, 4, 5)

NODE_TYPES = frozenset({"city", "town", "offboard", "junction", "halt", "pass"})

_BROAD_OK = frozenset({"broad", "dual"})
_NARROW_OK = frozenset({"narrow", "dual"})


def _flag(v: object) -> bool:
    """Flag parameters are set when present (the reference treats any given value as true)."""
    return v is not None and v is not False


@overload
def _int(v: object, default: int) -> int: ...
@overload
def _int(v: object, default: None = None) -> int | None: ...
def _int(v: object, default: int | None = None) -> int | None:
    if v is None:
        return default
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float)):
        return int(v)
    s = str(v).strip()
    try:
        return int(s)
    except ValueError:
        try:
            return int(float(s))
        except ValueError:
            return default


def _lane_spec(v: Any) -> tuple[int, int]:
    """``"2.1"`` -> (width 2, index 1); absent -> (1, 0)."""
    if v is None:
        return (1, 0)
    f = float(v)
    w = int(f)
    return (w, round((f - w) * 10))


def _parse_revenue(rev: object) -> dict[str, int]:
    """Revenue parameter -> {colour: value}. Integers fill :data:`REVENUE_PHASES`."""
    if rev is None:
        rev = 0
    if isinstance(rev, dict):
        return {str(k): int(v) for k, v in rev.items()}
    if isinstance(rev, str) and "|" in rev:
        out = {}
        for item in rev.split("|"):
            c, _, r = item.partition("_")
            out[c] = int(r)
        return out
    v = _int(rev, 0)
    return dict.fromkeys(REVENUE_PHASES, v)


def _groups(v: str | Iterable[object] | None) -> list[str]:
    if v is None or v == "":
        return []
    if isinstance(v, str):
        return v.split("|")
    return [str(g) for g in v]


# --------------------------------------------------------------------------------------
# small immutable parts


class Edge:
    """One end of a path on a hex edge. ``num`` is the rotated edge number (0-5);
    ``lanes`` is ``(width, index)`` of the track at that edge. Immutable and shared.
    A walker can key an edge crossing by ``(hex.id, num, lanes[1])`` like the reference."""

    CATALOGUE = True

    __slots__ = ("lanes", "num")
    is_edge = True
    is_junction = is_city = is_town = is_offboard = is_halt = is_pass = is_stop = False
    kind = "edge"

    def __init__(self, num: int, lanes: tuple[int, int] = (1, 0)):
        self.num = num
        self.lanes = lanes

    def __repr__(self) -> str:
        return f"Edge({self.num})"


class Upgrade:
    """Terrain cost printed on a hex: ``cost``, ``terrains`` (tuple of str), ``size``, ``loc``."""

    CATALOGUE = True

    __slots__ = ("cost", "index", "loc", "size", "terrains")

    def __init__(self, index: int, cost: object = 0, terrains: str | Iterable[str] = (), size: object = None,
                 loc: Any = None):
        self.index = index
        self.cost = _int(cost, 0)
        if isinstance(terrains, str):
            terrains = terrains.split("|")
        self.terrains = tuple(terrains or ())
        self.size = _int(size)
        self.loc = loc

    @property
    def mountain(self) -> bool:
        return "mountain" in self.terrains

    @property
    def water(self) -> bool:
        return "water" in self.terrains

    def __repr__(self) -> str:
        return f"Upgrade(cost={self.cost}, terrains={list(self.terrains)})"


class Border:
    """A hex-side border: ``edge`` (unrotated, borders belong to the hex), ``type``
    (None, "mountain", "water", "impassable", ...), ``cost``, ``color``. Equality ignores
    the part index, like the reference."""

    CATALOGUE = True

    __slots__ = ("color", "cost", "edge", "index", "type")

    def __init__(self, edge: object, type: str | None = None, cost: object = None, color: str | None = None,
                 index: int | None = None):
        self.index = index
        self.edge = cast(int, _int(edge))  # every border names its edge
        self.type = type
        # the cost to cross it, or None (Any: the rules read it after a getattr(b, "cost") test)
        self.cost: Any = _int(cost)
        self.color = color

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Border) and other.edge == self.edge and other.type == self.type
                and other.cost == self.cost and other.color == self.color)

    def __hash__(self) -> int:
        return hash((self.edge, self.type, self.cost, self.color))

    def __repr__(self) -> str:
        return f"Border(edge={self.edge}, type={self.type!r}, cost={self.cost})"


class Icon:
    """An icon on a tile. ``preprinted`` is False for icons carried over from a previous
    tile (sticky icons) or placed by hex tokens; ``owner`` is free for titles to use."""

    CATALOGUE = True

    __slots__ = ("blocks_lay", "image", "index", "large", "loc", "name", "owner", "preprinted", "sticky")

    def __init__(self, image: str = "", name: str | None = None, sticky: object = True, blocks_lay: object = None,
                 preprinted: bool = True,
                 large: object = False, loc: Any = None, owner: Any = None, index: int | None = None):
        self.index = index
        self.image = image or ""
        self.name = name if name is not None else (self.image.split("/")[-1] if self.image else "")
        self.sticky = bool(sticky)
        self.blocks_lay = bool(blocks_lay)
        self.preprinted = preprinted
        self.large = bool(large)
        self.loc = loc
        self.owner = owner

    def copy(self, preprinted: bool | None = None) -> Icon:
        return Icon(self.image, self.name, self.sticky, self.blocks_lay,
                    self.preprinted if preprinted is None else preprinted,
                    self.large, self.loc, self.owner, self.index)

    def __repr__(self) -> str:
        return f"Icon({self.name!r})"


class FutureLabel:
    """A label the hex takes when a tile of ``color`` is laid. ``sticker`` tracks the
    label a laid tile brought itself (see :meth:`trackage.core.hexmap.Hex.lay`)."""

    CATALOGUE = True

    __slots__ = ("color", "index", "label", "sticker")

    def __init__(self, label: str | None = None, color: str | None = None, index: int | None = None):
        self.index = index
        self.label = label
        self.color = color
        self.sticker: str | None = None


class Stub:

    CATALOGUE = True
    __slots__ = ("edge", "index", "track")

    def __init__(self, edge: object, track: str = "broad", index: int | None = None):
        self.index = index
        self.edge = _int(edge)
        self.track = track


class Partition:
    """Interior divider; ``a``/``b`` vertices, ``type``, ``restrict``, ``inner``/``outer``
    edge lists, ``blockers`` (companies that must be owned to cross)."""

    CATALOGUE = True

    __slots__ = (
        "a",
        "a_sign",
        "b",
        "b_sign",
        "blockers",
        "index",
        "inner",
        "length",
        "outer",
        "restrict",
        "type",
    )

    _SIGN: ClassVar[dict[str, int]] = {"-": -1, "": 0, "+": 1}

    def __init__(self, a: object, b: object, type: str | None = None, restrict: str | None = None, length: Any = None,
                 index: int | None = None):
        self.index = index
        sa, sb = str(a), str(b)
        self.a = int(sa[0])
        self.a_sign = self._SIGN.get(sa[1:2], 0)
        self.b = int(sb[0])
        self.b_sign = self._SIGN.get(sb[1:2], 0)
        self.type = type
        self.restrict = restrict
        self.length = float(length) if length is not None else None
        self.blockers: list[Any] = []
        lo, hi = sorted((self.a, self.b))
        span = list(range(lo, hi))
        self.inner = [] if restrict == "outer" else span
        self.outer = [] if restrict == "inner" else [e for e in range(6) if e not in span]

    def add_blocker(self, company: Any) -> None:
        self.blockers.append(company)


class Frame:

    CATALOGUE = True
    __slots__ = ("color", "color2", "index")

    def __init__(self, color: str | None = None, color2: str | None = None, index: int | None = None):
        self.index = index
        self.color = color
        self.color2 = color2


class Stripes:

    CATALOGUE = True
    __slots__ = ("color", "index")

    def __init__(self, color: str | None = None, index: int | None = None):
        self.index = index
        self.color = color


# --------------------------------------------------------------------------------------
# specification


class _NodeDef:

    CATALOGUE = True
    __slots__ = ("index", "kind", "ordinal", "params", "revenue")

    def __init__(self, kind: str, index: int, ordinal: int, params: dict[str, Any]):
        self.kind = kind
        self.index = index
        self.ordinal = ordinal
        self.params = params
        self.revenue = None if kind == "junction" else _parse_revenue(
            params.get("revenue", 0 if kind == "halt" else None))


class _PathDef:
    """One (expanded) path. ``a``/``b``: ("e", edge) or ("n", node ordinal)."""

    CATALOGUE = True

    __slots__ = (
        "a",
        "b",
        "group",
        "ignore",
        "ignore_gauge_compare",
        "ignore_gauge_walk",
        "index",
        "lanes",
        "terminal",
        "track",
    )

    def __init__(self, index: int, group: int, a: tuple[str, int], b: tuple[str, int],
                 lanes: tuple[tuple[int, int], tuple[int, int]], terminal: int | None, track: str, ignore: bool,
                 igw: bool, igc: bool):
        self.index = index
        self.group = group
        self.a = a
        self.b = b
        self.lanes = lanes
        self.terminal = terminal
        self.track = track
        self.ignore = ignore
        self.ignore_gauge_walk = igw
        self.ignore_gauge_compare = igc


class _Rot:
    """Per-rotation precomputation of a spec."""

    CATALOGUE = True

    __slots__ = ("ct_edges", "ends", "exit_count", "exits", "sig_ends")

    def __init__(self, ends: tuple[tuple[Edge | int, ...], ...], exits: tuple[int, ...], exit_count: dict[int, int],
                 sig_ends: tuple[tuple[tuple[str, object], ...], ...],
                 ct_edges: tuple[tuple[int, tuple[int, ...]], ...]):
        self.ends = ends            # per path: (end_a, end_b); Edge or node ordinal (int)
        self.exits = exits          # tuple of rotated exits, first-appearance order
        self.exit_count = exit_count  # {edge: number of edge end points on it}
        self.sig_ends = sig_ends    # per path: tuple of comparable ends (junctions expanded)
        self.ct_edges = ct_edges    # tuple of (node ordinal, tuple of edges) for cities/towns


def _end_ref(v: object, n_nodes: int) -> tuple[str, int]:
    if isinstance(v, bool):
        raise ValueError(f"bad path end {v!r}")
    if isinstance(v, int):
        return ("e", v % 6)
    s = str(v)
    if s.startswith("_"):
        return ("n", int(s[1:]))
    return ("e", int(s) % 6)


class TileSpec:
    """Immutable parse of a part list; shared between tiles. Use :meth:`get` (cached).

    Attributes: ``parts`` (the raw list), ``n_parts`` (expanded part count), ``node_defs``
    (node-like parts by ordinal), ``path_defs``, ``future_path_defs``, ``labels``
    (tuple of (index, str)), ``upgrades``, ``borders``, ``icon_defs``, ``stubs``,
    ``partitions``, ``frame``, ``stripes``, ``future_label``, ``path_node_ordinals`` (nodes
    reached by paths, reference order), ``edge_count``, ``blocks_lay``, ``has_junction``.
    """

    CATALOGUE = True

    _cache: ClassVar[dict[str, TileSpec]] = {}

    @classmethod
    def get(cls, parts: Sequence[dict[str, Any]]) -> TileSpec:
        key = json.dumps(parts, sort_keys=True, separators=(",", ":"))
        spec = cls._cache.get(key)
        if spec is None:
            spec = cls(parts)
            cls._cache[key] = spec
        return spec

    def __init__(self, parts: Sequence[dict[str, Any]]):
        self.parts = tuple(parts)
        node_defs: list[_NodeDef] = []
        raw_paths: list[tuple[int, int, dict[str, Any], int | None]] = []
        labels: list[tuple[int, str]] = []
        upgrades: list[Upgrade] = []
        borders: list[Border] = []
        icon_defs: list[tuple[int, dict[str, Any]]] = []
        stubs: list[Stub] = []
        partitions: list[tuple[int, dict[str, Any]]] = []
        frame = stripes = future_label = None
        part_kinds: list[str] = []
        idx = 0
        for group, part in enumerate(self.parts):
            t = part["t"]
            if t == "path":
                lanes = part.get("lanes")
                n = _int(lanes) if lanes is not None else None
                raw_paths.append((idx, group, part, n))
                count = n if n else 1
                part_kinds.extend(["path"] * count)
                idx += count
                continue
            if t in NODE_TYPES:
                node_defs.append(_NodeDef(t, idx, len(node_defs), part))
            elif t == "label":
                labels.append((idx, str(part.get("label", ""))))
            elif t == "upgrade":
                upgrades.append(Upgrade(idx, part.get("cost", 0), part.get("terrain") or (),
                                        part.get("size"), part.get("loc")))
            elif t == "border":
                borders.append(Border(part.get("edge"), part.get("type"), part.get("cost"),
                                      part.get("color"), index=idx))
            elif t == "icon":
                icon_defs.append((idx, part))
            elif t == "stub":
                stubs.append(Stub(part.get("edge"), part.get("track", "broad"), index=idx))
            elif t == "partition":
                partitions.append((idx, part))
            elif t == "frame":
                frame = Frame(part.get("color"), part.get("color2"), index=idx)
            elif t == "stripes":
                stripes = Stripes(part.get("color"), index=idx)
            elif t == "future_label":
                future_label = (idx, part.get("label"), part.get("color"))
            else:
                raise ValueError(f"unknown tile part type {t!r}")
            part_kinds.append(t)
            idx += 1

        n_nodes = len(node_defs)
        path_defs: list[_PathDef] = []
        future_path_defs: list[_PathDef] = []
        edge_count = 0
        for pidx, group, part, n in raw_paths:
            a = _end_ref(part["a"], n_nodes)
            b = _end_ref(part["b"], n_nodes)
            track = part.get("track") or "broad"
            for end in (a, b):
                if end[0] == "n" and not 0 <= end[1] < n_nodes:
                    raise ValueError(f"path refers to missing node {end[1]}: {part}")
                if end[0] == "e" and track != "future":
                    edge_count += 1
            terminal = part.get("terminal")
            terminal = (_int(terminal, 1) or 1) if _flag(terminal) else None
            ignore = _flag(part.get("ignore"))
            igw = _flag(part.get("ignore_gauge_walk"))
            igc = _flag(part.get("ignore_gauge_compare"))
            if n:
                for i in range(n):
                    la = (n, i)
                    lb = (n, n - i - 1) if a[0] == "e" and b[0] == "e" else la
                    pd = _PathDef(pidx + i, group, a, b, (la, lb), terminal, track, ignore, igw, igc)
                    (future_path_defs if track == "future" else path_defs).append(pd)
            else:
                lanes = (_lane_spec(part.get("a_lane")), _lane_spec(part.get("b_lane")))
                pd = _PathDef(pidx, group, a, b, lanes, terminal, track, ignore, igw, igc)
                (future_path_defs if track == "future" else path_defs).append(pd)

        self.n_parts = idx
        self.part_kinds = tuple(part_kinds)
        self.node_defs = tuple(node_defs)
        self.path_defs = tuple(path_defs)
        self.future_path_defs = tuple(future_path_defs)
        self.labels = tuple(labels)
        self.upgrades = tuple(upgrades)
        self.borders = tuple(borders)
        self.icon_defs = tuple(icon_defs)
        self.stubs = tuple(stubs)
        self.partition_defs = tuple(partitions)
        self.frame = frame
        self.stripes = stripes
        self.future_label = future_label
        self.edge_count = edge_count
        self.blocks_lay = any(_flag(p.get("blocks_lay")) for _, p in icon_defs)
        self.has_junction = any(d.kind == "junction" for d in node_defs)
        seen: list[int] = []
        for pd in path_defs:
            for end in (pd.a, pd.b):
                if end[0] == "n" and node_defs[end[1]].kind != "junction" and end[1] not in seen:
                    seen.append(end[1])
        self.path_node_ordinals = tuple(seen)
        self._rots: list[_Rot | None] = [None] * 6
        # what a placement in each rotation is made of, by position (see :class:`_Layout`):
        # taken from the first placement made, then used to make the others quickly
        self._layouts: list[_Layout | None] = [None] * 6
        # tile_paths_kept's answers with this spec as the old tile's, by (new spec, gauge flags)
        self._kept_in: dict[tuple[TileSpec, bool | None, bool | None, bool | None], bool] = {}
        # upgrade answers with this spec as the old tile's, per title whose upgrade rule is a
        # pure function of its memo key (``Game.upgrade_memo``), and the legal rotations over
        # it ("legal rotation": ``board.rotation_memo``): shared by all games
        self.upgrade_memos: dict[Hashable, dict[Any, Any]] = {}
        self._multi_path_nodes = sum(
            1 for pd in path_defs
            if pd.a[0] == "n" and pd.b[0] == "n"
            and node_defs[pd.a[1]].kind != "junction" and node_defs[pd.b[1]].kind != "junction"
        )

    # -- per rotation ------------------------------------------------------------------

    def rot(self, r: int) -> _Rot:
        """Precomputed data for rotation ``r`` (0-5)."""
        data = self._rots[r]
        if data is None:
            data = self._rots[r] = self._compute_rot(r)
        return data

    def _compute_rot(self, r: int) -> _Rot:
        node_defs = self.node_defs
        ends: list[tuple[Edge | int, ...]] = []
        exits: list[int] = []
        exit_count: dict[int, int] = {}
        counted = set()
        for pd in self.path_defs:
            new_pair: list[Edge | int] = []
            for which, (kind, val) in enumerate((pd.a, pd.b)):
                if kind == "e":
                    num = (val + r) % 6
                    new_pair.append(Edge(num, pd.lanes[which]))
                    if num not in exits:
                        exits.append(num)
                    key = (pd.group, which)
                    if key not in counted:  # lanes copies share one edge end point
                        counted.add(key)
                        exit_count[num] = exit_count.get(num, 0) + 1
                else:
                    new_pair.append(val)
            ends.append(tuple(new_pair))

        # comparable ends for path subset checks: ("e", num) / (kind, to_city) ; junctions expanded
        def comparable(end: Edge | int) -> tuple[str, object]:
            if isinstance(end, Edge):
                return ("e", end.num)
            d = node_defs[end]
            return (d.kind, _flag(d.params.get("to_city")))

        junction_paths: dict[int, list[int]] = {}
        for i, pair in enumerate(ends):
            for end in pair:
                if not isinstance(end, Edge) and node_defs[end].kind == "junction":
                    junction_paths.setdefault(end, []).append(i)
        sig_ends: list[tuple[tuple[str, object], ...]] = []
        for i, pair in enumerate(ends):
            out = []
            for end in pair:
                if not isinstance(end, Edge) and node_defs[end].kind == "junction":
                    for j in junction_paths.get(end, ()):
                        if j == i:
                            continue
                        for e2 in ends[j]:
                            if isinstance(e2, Edge) or node_defs[e2].kind != "junction":
                                out.append(comparable(e2))
                else:
                    out.append(comparable(end))
            sig_ends.append(tuple(out))

        # city/town edges: for each path with a city (else town) end, its exits
        ct: dict[int, list[int]] = {}
        for pair in ends:
            city = town = None
            for end in pair:
                if isinstance(end, Edge):
                    continue
                k = node_defs[end].kind
                if k in ("city", "pass"):
                    city = end
                elif k in ("town", "halt"):
                    town = end
            node = city if city is not None else town
            if node is None:
                continue
            for end in pair:
                if isinstance(end, Edge):
                    ct.setdefault(node, []).append(end.num)
        ct_edges = tuple((o, tuple(e)) for o, e in ct.items())
        return _Rot(tuple(ends), tuple(exits), exit_count, tuple(sig_ends), ct_edges)

    def exits(self, r: int = 0) -> tuple[int, ...]:
        return self.rot(r).exits

    @property
    def ambiguous_connection(self) -> bool:
        """More than one path joins two nodes inside the tile."""
        return self._multi_path_nodes > 1


# --------------------------------------------------------------------------------------
# nodes


class NodeBase:
    """Common base of node-like parts of a placed tile (catalogue objects, never changed).
    ``tile`` (the :class:`Placed` tile), ``hex`` (None for a tile not on the map), ``index``
    (part index), ``ordinal`` (position among node-like parts, the ``_N`` of path
    references), ``kind``. What happens to a node during a game (tokens, reservations)
    is board state: see :class:`trackage.core.board.Board`."""

    __slots__ = ("hex", "id", "index", "ordinal", "signature", "tile")
    CATALOGUE = True
    kind = "node"
    is_edge = False
    is_city = False
    is_town = False
    is_offboard = False
    is_junction = False
    is_halt = False
    is_pass = False
    is_stop = False

    def __init__(self, tile: Placed, index: int, ordinal: int):
        self.tile = tile
        self.hex = tile.hex
        self.index = index
        self.ordinal = ordinal
        # ``"<tile id>-<part index>"`` (the reference's part id, e.g. city ids) and
        # ``"<hex id>-<part index>"``, as in logged route node lists
        self.id = f"{tile.id}-{index}"
        self.signature = f"{self.hex.id if self.hex is not None else None}-{index}"

    @property
    def paths(self) -> tuple[Path, ...]:
        """Paths of the tile that touch this node."""
        return self.tile._view.node_paths.get(self.ordinal, ())

    @property
    def exits(self) -> tuple[int, ...]:
        """Exits of those paths (with repeats, like the reference)."""
        return self.tile._view.node_exits.get(self.ordinal, ())

    @property
    def visit_cost(self) -> int:
        return 0

    def __repr__(self) -> str:
        h = self.hex
        return f"<{type(self).__name__} {self.tile.id}-{self.index} hex={h.id if h else None}>"


class Junction(NodeBase):
    """Centre point of a Lawson-style tile. Not a stop; paths reach each other through it."""

    __slots__ = ()
    kind = "junction"
    is_junction = True

    @property
    def paths(self) -> tuple[Path, ...]:
        return self.tile._view.junction_paths.get(self.ordinal, ())

    @property
    def exits(self) -> tuple[int, ...]:
        return tuple(e for p in self.paths for e in p.exits)


class RevenueCenter(NodeBase):
    """A stop: ``revenue`` ({colour: value}), ``groups`` (printed; a city keeps the groups of
    the city it replaced: ``Board.groups``), ``hide``, ``visit_cost`` (default 1), ``route``
    ("mandatory"/"optional"/"never"), ``loc``, ``format``, ``rows``."""

    # (``visit_cost`` a plain slot here, shadowing the base's property of 0)
    __slots__ = ("format", "groups", "hide", "loc", "params", "revenue", "route", "rows", "visit_cost")
    default_route = "mandatory"
    is_stop = True

    def __init__(self, tile: Placed, nd: _NodeDef):
        super().__init__(tile, nd.index, nd.ordinal)
        p = nd.params
        self.params = p
        assert nd.revenue is not None  # only junctions have no revenue, and they are no stops
        self.revenue: dict[str, int] = nd.revenue
        self.groups = tuple(_groups(p.get("groups")))
        self.hide = _flag(p.get("hide"))
        self.visit_cost: int = _int(p.get("visit_cost"), 1)
        self.route = str(p.get("route") or self.default_route)
        self.loc = p.get("loc")
        self.format = p.get("format")
        self.rows = _int(p.get("rows"), 1)

    def revenue_for(self, colors: Sequence[str], train_name: str | None = None) -> int:
        """Revenue for the phase whose available tile colours are ``colors``: the value of
        the last listed colour that this revenue defines (0 if none). ``D`` trains use a
        ``diesel`` value when there is one."""
        rev = self.revenue
        if train_name is not None and "diesel" in rev and str(train_name).upper() == "D":
            return rev["diesel"]
        for c in reversed(colors):
            v = rev.get(c)
            if v is not None:
                return v
        return 0

    @property
    def max_revenue(self) -> int:
        return max(self.revenue.values()) if self.revenue else 0

    @property
    def uniq_revenues(self) -> list[int]:
        return list(dict.fromkeys(self.revenue.values()))


class City(RevenueCenter):
    """A city: ``normal_slots`` (printed slots), ``boom``, ``outline``. Its tokens and
    reservations are board state (``Board.tokens(city)`` ...)."""

    __slots__ = ("boom", "normal_slots", "outline")
    kind = "city"
    is_city = True

    def __init__(self, tile: Placed, nd: _NodeDef):
        super().__init__(tile, nd)
        p = nd.params
        self.normal_slots = _int(p.get("slots"), 1)
        self.boom = p.get("boom")
        self.outline = p.get("outline")


class Pass(City):
    """A mountain pass: city-like with slots; ``route`` defaults to "never"."""

    __slots__ = ("color", "size")
    kind = "pass"
    is_pass = True
    default_route = "never"

    def __init__(self, tile: Placed, nd: _NodeDef):
        super().__init__(tile, nd)
        self.color = nd.params.get("color") or "gray"
        self.size = _int(nd.params.get("size"), 1)


class Town(RevenueCenter):
    """A town: ``style``, ``to_city`` (counts as a city for upgrades), ``boom``."""

    __slots__ = ("boom", "style", "to_city")
    kind = "town"
    is_town = True

    def __init__(self, tile: Placed, nd: _NodeDef):
        super().__init__(tile, nd)
        self.style: str | None = nd.params.get("style")
        self.to_city = nd.params.get("to_city")
        self.boom = nd.params.get("boom")

    @property
    def hidden(self) -> bool:
        return self.style == "hidden"


class Halt(Town):
    """A halt (town-like, ``route`` defaults to "optional", revenue defaults to 0)."""

    __slots__ = ("symbol",)
    kind = "halt"
    is_halt = True
    default_route = "optional"

    def __init__(self, tile: Placed, nd: _NodeDef):
        super().__init__(tile, nd)
        self.symbol = nd.params.get("symbol")


class Offboard(RevenueCenter):
    """An off-board area. Always ends a walk."""

    __slots__ = ()
    kind = "offboard"
    is_offboard = True


_NODE_CLASSES = {"city": City, "pass": Pass, "town": Town, "halt": Halt, "offboard": Offboard}


# --------------------------------------------------------------------------------------
# paths


class Path:
    """Track inside a tile in one rotation.

    ``a``/``b`` are :class:`Edge` or node objects; ``edges`` (Edge tuple), ``exits``
    (edge numbers), ``nodes`` (stops on the ends: city/town/offboard), ``stops``,
    ``city``/``town``/``offboard``/``junction`` (the end of that kind or None),
    ``terminal`` (None or 1/2), ``track`` ("broad"/"narrow"/"dual"/...), ``lanes``
    (((width, index) at a), ((width, index) at b)), ``exit_lanes`` {edge num: lane},
    ``ignore``, ``ignore_gauge_walk``, ``ignore_gauge_compare``, ``index`` (part index),
    ``tile``, ``rotation``. Created by the tile; identity is stable per tile and rotation."""

    __slots__ = (
        "_sig",
        "a",
        "b",
        "city",
        "edges",
        "exit_lanes",
        "exits",
        "hex",
        "ignore",
        "ignore_gauge_compare",
        "ignore_gauge_walk",
        "index",
        "junction",
        "lanes",
        "nodes",
        "offboard",
        "rotation",
        "stops",
        "terminal",
        "tile",
        "town",
        "track",
    )
    CATALOGUE = True
    is_edge = False

    def __init__(self, tile: Placed, pd: _PathDef, rotation: int, a: Any, b: Any,
                 sig_ends: tuple[tuple[str, object], ...], igw: bool | None = None, igc: bool | None = None):
        self.tile = tile
        self.hex = tile.hex
        self.index = pd.index
        self.rotation = rotation
        self.a = a
        self.b = b
        self.terminal = pd.terminal
        self.track = pd.track
        self.lanes = pd.lanes
        self.ignore = pd.ignore
        self.ignore_gauge_walk = pd.ignore_gauge_walk if igw is None else igw
        self.ignore_gauge_compare = pd.ignore_gauge_compare if igc is None else igc
        self._sig = sig_ends
        edges = []
        nodes = []
        exit_lanes = {}
        city = town = offboard = junction = None
        for end, lane in ((a, pd.lanes[0]), (b, pd.lanes[1])):
            if end.is_edge:
                edges.append(end)
                exit_lanes[end.num] = lane
            elif end.is_junction:
                junction = end
            else:
                nodes.append(end)
                if end.is_offboard:
                    offboard = end
                elif end.is_city:
                    city = end
                elif end.is_town:
                    town = end
        self.edges = tuple(edges)
        self.exits = tuple(e.num for e in edges)
        self.exit_lanes = exit_lanes
        self.nodes = tuple(nodes)
        self.stops = self.nodes
        self.city = city
        self.town = town
        self.offboard = offboard
        self.junction = junction

    @property
    def is_terminal(self) -> bool:
        return self.terminal is not None

    @property
    def single(self) -> bool:
        return self.lanes[0][0] == 1 and self.lanes[1][0] == 1

    @property
    def ends(self) -> tuple[tuple[str, object], ...]:
        """Comparable end descriptors used by :func:`path_le` (junctions expanded)."""
        return self._sig

    def tracks_match(self, other: Path, dual_ok: bool = False) -> bool:
        return tracks_match(self.track, other.track, dual_ok)

    def __le__(self, other: Path) -> bool:
        return path_le(self, other)

    def __repr__(self) -> str:
        h = self.tile.hex if self.tile is not None else None
        tile = self.tile.id if self.tile else None
        return f"<Path {tile}#{self.index} r{self.rotation} exits={list(self.exits)} hex={h.id if h else None}>"


def tracks_match(track: str, other_track: str, dual_ok: bool = False) -> bool:
    """Gauge compatibility of ``track`` with ``other_track`` (reference semantics)."""
    if track == "broad":
        return other_track in _BROAD_OK
    if track == "narrow":
        return other_track in _NARROW_OK
    if track == "dual":
        return dual_ok or other_track == "dual"
    return False


def lane_match(lanes0: Sequence[int] | None, lanes1: Sequence[int] | None) -> bool:
    """Do two facing exits (``(width, index)`` each) line up, taking lanes into account?"""
    if not lanes0 or not lanes1:
        return False
    if lanes0[0] == lanes1[0]:
        return lanes1[1] == lanes0[0] - lanes0[1] - 1
    small, big = sorted((tuple(lanes0), tuple(lanes1)))
    delta = (big[0] - small[0]) // 2
    return small[1] + delta == big[0] - big[1] - 1


def _end_le(t: tuple[str, object], o: tuple[str, object]) -> bool:
    if t[0] == "e":
        return o[0] == "e" and o[1] == t[1]
    ok = o[0]
    if ok == "e":
        return False
    kind = t[0]
    if kind == "halt" and ok in ("town", "halt"):
        return True
    if t[1] and kind in ("town", "halt") and ok in ("city", "pass"):
        return True
    return kind == ok


def _sig_le(ends: tuple[tuple[str, object], ...], track: str, igc: bool, other_ends: tuple[tuple[str, object], ...],
            other_track: str) -> bool:
    for t in ends:
        for o in other_ends:
            if _end_le(t, o):
                break
        else:
            return False
    return igc or tracks_match(track, other_track)


def path_le(p: Path, other: Path) -> bool:
    """``p`` is contained in ``other``: every end of ``p`` matches an end of ``other`` (same
    edge, or a node of the same kind; a ``to_city`` town matches a city; a halt any town)
    and the gauges are compatible (unless ``p.ignore_gauge_compare``)."""
    return _sig_le(p._sig, p.track, p.ignore_gauge_compare, other._sig, other.track)


# --------------------------------------------------------------------------------------
# tile


class _View:
    __slots__ = ("by_edge", "junction_paths", "node_exits", "node_paths", "paths")

    def __init__(self, paths: tuple[Path, ...], by_edge: dict[int, tuple[Path, ...]],
                 node_paths: dict[int, tuple[Path, ...]], node_exits: dict[int, tuple[int, ...]],
                 junction_paths: dict[int, tuple[Path, ...]]) -> None:
        self.paths = paths
        self.by_edge = by_edge
        self.node_paths = node_paths
        self.node_exits = node_exits
        self.junction_paths = junction_paths


_EMPTY: tuple[Path, ...] = ()


class _Layout:
    """A placement of one spec in one rotation by position (catalogue, shared by every tile of
    the spec): which nodes are cities, towns, halts, offboards and the junction; each path's
    ends (an ``Edge``, shared, or a node's position), edges, exits, lanes per exit and nodes,
    and the view's tables by path position. Read once from a placement made the long way, so a
    placement made from it (:meth:`Placed._from_layout`) is equal part for part."""

    CATALOGUE = True

    __slots__ = ("by_edge", "cities", "city_towns", "halts", "junction", "junction_paths", "node_exits",
                 "node_paths", "offboards", "paths", "towns")

    def __init__(self, placed: Placed) -> None:
        pos = {id(n): i for i, n in enumerate(placed.all_nodes)}
        paths = placed._view.paths
        path_pos = {id(p): i for i, p in enumerate(paths)}

        def ref(end: Any) -> Any:
            return end if end.is_edge else pos[id(end)]

        def node_pos(n: Any) -> int | None:
            return None if n is None else pos[id(n)]

        self.cities = tuple(pos[id(n)] for n in placed.cities)
        self.towns = tuple(pos[id(n)] for n in placed.towns)
        self.halts = tuple(pos[id(n)] for n in placed.halts)
        self.offboards = tuple(pos[id(n)] for n in placed.offboards)
        self.city_towns = tuple(pos[id(n)] for n in placed.city_towns)
        self.junction = node_pos(placed.junction)
        self.paths = tuple(
            (ref(p.a), ref(p.b), p.edges, p.exits, tuple(p.exit_lanes.items()),
             tuple(pos[id(n)] for n in p.nodes), node_pos(p.city), node_pos(p.town), node_pos(p.offboard),
             node_pos(p.junction))
            for p in paths)
        view = placed._view

        def by_pos(table: dict[int, tuple[Path, ...]]) -> tuple[tuple[int, tuple[int, ...]], ...]:
            return tuple((k, tuple(path_pos[id(p)] for p in v)) for k, v in table.items())

        self.by_edge = by_pos(view.by_edge)
        self.node_paths = by_pos(view.node_paths)
        self.junction_paths = by_pos(view.junction_paths)
        self.node_exits = tuple(view.node_exits.items())


class Tile:
    """One physical tile: a supply copy or a preprinted map tile (a catalogue object, never
    changed). ``id`` = ``f"{name}-{index}"``.

    Attributes: ``spec``, ``name``, ``index``, ``color``, ``preprinted``, ``unlimited``,
    ``hidden``, ``reservation_blocks`` ("never"/"always"/"single_slot_cities"), and what is
    printed on it: ``labels`` (``label`` is the last), ``upgrades`` (terrain costs),
    ``borders``, ``icons``, ``stubs``, ``partitions``, ``frame``, ``stripes``,
    ``future_label``, ``blocks_lay``.

    A tile in a rotation, on a hex or not, is a :class:`Placed` tile: ``tile.at(rotation,
    hex)``; it owns the nodes and paths. Placed tiles are interned, so the same tile in the
    same place is the same object in every copy of a game.
    """

    __slots__ = (
        "__weakref__",
        "_placed",
        "blocks_lay",
        "borders",
        "color",
        "frame",
        "future_label",
        "hidden",
        "icons",
        "id",
        "index",
        "labels",
        "name",
        "partitions",
        "preprinted",
        "reservation_blocks",
        "spec",
        "stripes",
        "stubs",
        "unlimited",
        "upgrades",
    )
    CATALOGUE = True

    def __init__(self, spec: TileSpec, name: str, color: str, index: int = 0,
                 preprinted: bool = False, unlimited: bool = False, hidden: bool = False,
                 reservation_blocks: str = "never"):
        self.spec = spec
        self.name = str(name)
        self.index = index
        self.id = f"{self.name}-{index}"
        self.color = color
        self.preprinted = preprinted
        self.unlimited = unlimited
        self.hidden = hidden
        self.reservation_blocks = reservation_blocks or "never"
        self.labels = tuple(lab for _, lab in spec.labels)
        self.upgrades = tuple(spec.upgrades)
        self.borders = tuple(spec.borders)
        self.icons = tuple(Icon(p.get("image", ""), p.get("name"), _flag(p.get("sticky")),
                                _flag(p.get("blocks_lay")), True, _flag(p.get("large")), p.get("loc"),
                                index=i) for i, p in spec.icon_defs)
        self.stubs = tuple(spec.stubs)
        self.partitions = tuple(Partition(p.get("a"), p.get("b"), p.get("type"), p.get("restrict"),
                                          p.get("length"), index=i) for i, p in spec.partition_defs)
        self.frame = spec.frame
        self.stripes = spec.stripes
        fl = spec.future_label
        self.future_label = FutureLabel(fl[1], fl[2], index=fl[0]) if fl else None
        self.blocks_lay = spec.blocks_lay
        self._placed: dict[tuple[int, Hex | None, bool | None, bool | None], Placed] = {}

    @classmethod
    def from_parts(cls, name: str, color: str, parts: Sequence[dict[str, Any]], **kwargs: Any) -> Tile:
        return cls(TileSpec.get(parts), name, color, **kwargs)

    def at(self, rotation: int = 0, hex: Hex | None = None, igw: bool | None = None, igc: bool | None = None) -> Placed:
        """This tile in ``rotation`` on ``hex`` (None: a tile looked at in the supply).
        ``igw``/``igc`` override the paths' gauge flags (a title's dual-gauge rule)."""
        key = (rotation % 6, hex, igw, igc)
        p = self._placed.get(key)
        if p is None:
            # (one object per key even where two threads ask at once: a pooled tile is
            # shared by the games of its map)
            p = self._placed.setdefault(key, Placed(self, rotation % 6, hex, igw, igc))
        return p

    @property
    def label(self) -> str | None:
        return self.labels[-1] if self.labels else None

    def dismantle_placements(self) -> None:
        """Forget this tile's placements and take each apart (see :meth:`Placed.dismantle`):
        for a game being closed (``Game.close``) only."""
        for placed in self._placed.values():
            placed.dismantle()
        self._placed.clear()

    @property
    def terrain(self) -> list[str]:
        return _terrain(self.upgrades)

    @property
    def edges(self) -> int:
        """Number of track end points on edges (the reference's ``edges.size``)."""
        return self.spec.edge_count

    @property
    def ambiguous_connection(self) -> bool:
        return self.spec.ambiguous_connection

    def __repr__(self) -> str:
        return f"<Tile {self.id} {self.color}>"


def _terrain(upgrades: Iterable[Upgrade]) -> list[str]:
    out: list[str] = []
    for u in upgrades:
        for t in u.terrains:
            if t not in out:
                out.append(t)
    return out


class Placed:
    """A :class:`Tile` in one rotation, on a hex (``hex``) or looked at in the supply (hex
    None). A catalogue object: its nodes and paths never change, and what happens on the
    map (tokens, reservations, icons, borders carried over from earlier tiles...) is board
    state. It answers the tile's own attributes (``id``, ``name``, ``color``, ``labels``,
    ``upgrades`` ...) and the rotation's geometry: ``paths``, ``paths_at(edge)``,
    ``paths_by_edge``, ``exits``, ``exit_count``, ``city_town_edges``, and the nodes:
    ``cities`` (cities and passes, part order), ``towns`` (towns and halts), ``halts``,
    ``offboards``, ``city_towns``, ``junction``, ``all_nodes`` (by ordinal), ``nodes``
    (reached by paths), ``stops``."""

    __slots__ = (
        "__weakref__",
        "_view",
        "all_nodes",
        "blocks_lay",
        "cities",
        "city_towns",
        "color",
        "frame",
        "halts",
        "hex",
        "hidden",
        "id",
        "igc",
        "igw",
        "index",
        "junction",
        "labels",
        "name",
        "nodes",
        "offboards",
        "preprinted",
        "reservation_blocks",
        "rotation",
        "spec",
        "stops",
        "stripes",
        "tile",
        "towns",
        "unlimited",
        "upgrades",
    )
    CATALOGUE = True

    def __init__(self, tile: Tile, rotation: int, hex: Hex | None, igw: bool | None = None, igc: bool | None = None):
        self.tile = tile
        self.rotation = rotation
        # a Hex; None only for a tile looked at in the supply (Any: on the board it never is None,
        # and the track walks read it in their loops)
        self.hex: Any = hex
        self.igw = igw
        self.igc = igc
        spec = self.spec = tile.spec
        self.name = tile.name
        self.index = tile.index
        self.id = tile.id
        self.color = tile.color
        self.preprinted = tile.preprinted
        self.unlimited = tile.unlimited
        self.hidden = tile.hidden
        self.reservation_blocks = tile.reservation_blocks
        self.labels = tile.labels
        self.upgrades = tile.upgrades
        self.frame = tile.frame
        self.stripes = tile.stripes
        self.blocks_lay = tile.blocks_lay
        nodes: list[NodeBase] = []
        for nd in spec.node_defs:
            if nd.kind == "junction":
                nodes.append(Junction(self, nd.index, nd.ordinal))
            else:
                nodes.append(_NODE_CLASSES[nd.kind](self, nd))
        self.all_nodes = tuple(nodes)
        layout = spec._layouts[rotation]
        if layout is not None:
            self._from_layout(layout, nodes)
            return
        self.cities = cast("tuple[City, ...]", tuple(n for n in nodes if n.is_city))
        self.towns = cast("tuple[Town, ...]", tuple(n for n in nodes if n.is_town))
        self.halts = cast("tuple[Halt, ...]", tuple(n for n in nodes if n.is_halt))
        self.offboards = cast("tuple[Offboard, ...]", tuple(n for n in nodes if n.is_offboard))
        self.city_towns = tuple(n for n in nodes if n.is_city or n.is_town)
        junctions = [n for n in nodes if n.is_junction]
        self.junction = junctions[-1] if junctions else None
        self.nodes = cast("tuple[RevenueCenter, ...]", tuple(nodes[o] for o in spec.path_node_ordinals))  # no junctions
        self.stops = self.nodes
        self._view = self._build_view(rotation)
        spec._layouts[rotation] = _Layout(self)

    def _from_layout(self, layout: _Layout, nodes: list[NodeBase]) -> None:
        """The rest of :meth:`__init__` from the spec's layout in this rotation: the same
        nodes lists, paths and view as the long way makes (``_build_view``)."""
        self.cities = cast("tuple[City, ...]", tuple(nodes[i] for i in layout.cities))
        self.towns = cast("tuple[Town, ...]", tuple(nodes[i] for i in layout.towns))
        self.halts = cast("tuple[Halt, ...]", tuple(nodes[i] for i in layout.halts))
        self.offboards = cast("tuple[Offboard, ...]", tuple(nodes[i] for i in layout.offboards))
        self.city_towns = tuple(nodes[i] for i in layout.city_towns)
        self.junction = None if layout.junction is None else nodes[layout.junction]
        self.nodes = cast("tuple[RevenueCenter, ...]", tuple(nodes[o] for o in self.spec.path_node_ordinals))
        self.stops = self.nodes
        r = self.rotation
        hex_ = self.hex
        igw, igc = self.igw, self.igc
        new = Path.__new__
        path_list: list[Path] = []
        for pd, sig, (a, b, edges, exits, lanes, node_pos, ci, ti, oi, ji) in zip(
                self.spec.path_defs, self.spec.rot(r).sig_ends, layout.paths):
            p = new(Path)
            p.tile = self
            p.hex = hex_
            p.index = pd.index
            p.rotation = r
            p.a = a if a.__class__ is not int else nodes[a]
            p.b = b if b.__class__ is not int else nodes[b]
            p.terminal = pd.terminal
            p.track = pd.track
            p.lanes = pd.lanes
            p.ignore = pd.ignore
            p.ignore_gauge_walk = pd.ignore_gauge_walk if igw is None else igw
            p.ignore_gauge_compare = pd.ignore_gauge_compare if igc is None else igc
            p._sig = sig
            p.edges = edges
            p.exits = exits
            p.exit_lanes = dict(lanes)
            p.nodes = p.stops = tuple(nodes[i] for i in node_pos)
            p.city = None if ci is None else nodes[ci]
            p.town = None if ti is None else nodes[ti]
            p.offboard = None if oi is None else nodes[oi]
            p.junction = None if ji is None else nodes[ji]
            path_list.append(p)
        paths = tuple(path_list)

        def table(rows: tuple[tuple[int, tuple[int, ...]], ...]) -> dict[int, tuple[Path, ...]]:
            return {k: tuple(paths[i] for i in v) for k, v in rows}

        self._view = _View(paths, table(layout.by_edge), table(layout.node_paths), dict(layout.node_exits),
                           table(layout.junction_paths))

    # the slots that hold the parts pointing back at this tile (nodes, paths)
    _PARTS = ("_view", "all_nodes", "cities", "city_towns", "halts", "junction", "nodes", "offboards", "stops",
              "towns")

    def dismantle(self) -> None:
        """Drop the nodes and paths (they refer back to this tile: without this the tile and
        its parts are a reference cycle that only a full collection frees). The tile is
        unusable afterwards: for a game being closed (``Game.close``) only."""
        for name in self._PARTS:
            if hasattr(self, name):
                delattr(self, name)

    def _build_view(self, r: int) -> _View:
        rot = self.spec.rot(r)
        nodes = self.all_nodes
        path_list: list[Path] = []
        for pd, (ea, eb), sig in zip(self.spec.path_defs, rot.ends, rot.sig_ends):
            a = ea if isinstance(ea, Edge) else nodes[ea]
            b = eb if isinstance(eb, Edge) else nodes[eb]
            path_list.append(Path(self, pd, r, a, b, sig, self.igw, self.igc))
        paths = tuple(path_list)
        by_edge: dict[int, list[Path]] = {}
        node_paths: dict[int, list[Path]] = {}
        junction_paths: dict[int, list[Path]] = {}
        for p in paths:
            for e in p.exits:
                lst = by_edge.setdefault(e, [])
                if not lst or lst[-1] is not p:
                    lst.append(p)
            for n in p.nodes:
                lst = node_paths.setdefault(n.ordinal, [])
                if not lst or lst[-1] is not p:
                    lst.append(p)
            if p.junction is not None:
                junction_paths.setdefault(p.junction.ordinal, []).append(p)
        node_exits = {o: tuple(e for p in ps for e in p.exits) for o, ps in node_paths.items()}
        return _View(paths,
                     {k: tuple(v) for k, v in by_edge.items()},
                     {k: tuple(v) for k, v in node_paths.items()},
                     node_exits,
                     {k: tuple(v) for k, v in junction_paths.items()})

    # -- other placements of the same tile -----------------------------------------------

    def rotated(self, rotation: int) -> Placed:
        return self.tile.at(rotation, self.hex, self.igw, self.igc)

    def on(self, hex: Hex | None) -> Placed:
        return self.tile.at(self.rotation, hex, self.igw, self.igc)

    def with_gauge_flags(self, igw: bool | None = None, igc: bool | None = None) -> Placed:
        return self.tile.at(self.rotation, self.hex, igw, igc)

    # -- geometry -----------------------------------------------------------------------

    @property
    def paths(self) -> tuple[Path, ...]:
        """Paths in this rotation, in part order."""
        return self._view.paths

    def paths_at(self, edge: int) -> tuple[Path, ...]:
        """Paths leaving through (rotated) ``edge``."""
        return self._view.by_edge.get(edge, _EMPTY)

    @property
    def paths_by_edge(self) -> dict[int, tuple[Path, ...]]:
        """{edge: tuple of paths} in this rotation."""
        return self._view.by_edge

    @property
    def exits(self) -> tuple[int, ...]:
        """Rotated exits, unique, in first-appearance order."""
        return self.spec.rot(self.rotation).exits

    @property
    def exit_count(self) -> dict[int, int]:
        return self.spec.rot(self.rotation).exit_count

    def converging_exit(self, num: int) -> bool:
        """More than one track end point meets at edge ``num``."""
        # (:meth:`TileSpec.rot` inline where the rotation's data is worked out already)
        spec = self.spec
        data = spec._rots[self.rotation]
        if data is None:
            data = spec.rot(self.rotation)
        return data.exit_count.get(num, 0) > 1

    @property
    def city_town_edges(self) -> list[list[int]]:
        """For each city/town with exits (first path order), its list of exits."""
        return [list(e) for _, e in self.spec.rot(self.rotation).ct_edges]

    def city_town_edges_are_subset_of(self, other_cte: Sequence[Sequence[int]]) -> bool:
        cte = self.spec.rot(self.rotation).ct_edges
        return any(all(any(all((e + r) % 6 in oc for e in ce) for oc in other_cte) for _, ce in cte) for r in ALL_EDGES)

    @property
    def edges(self) -> int:
        """Number of track end points on edges (the reference's ``edges.size``)."""
        return self.spec.edge_count

    # -- printed ------------------------------------------------------------------------

    @property
    def label(self) -> str | None:
        return self.labels[-1] if self.labels else None

    @property
    def future_label(self) -> FutureLabel | None:
        return self.tile.future_label

    @property
    def terrain(self) -> list[str]:
        return _terrain(self.upgrades)

    @property
    def ambiguous_connection(self) -> bool:
        return self.spec.ambiguous_connection

    @property
    def preprinted_hex(self) -> bool:
        return self.preprinted

    @property
    def location_name(self) -> str | None:
        return self.hex.location_name if self.hex is not None else None

    def city_by_index(self, index: int) -> City | None:
        """The city whose part index is ``index`` (None if no such city)."""
        for c in self.cities:
            if c.index == index:
                return c
        return None

    def node_by_index(self, index: int) -> NodeBase | None:
        for n in self.all_nodes:
            if n.index == index:
                return n
        return None

    def paths_are_subset_of(self, other_paths: Sequence[Path]) -> bool:
        return paths_are_subset_of(self, other_paths)

    def __repr__(self) -> str:
        return f"<Tile {self.id} {self.color} r{self.rotation} hex={self.hex.id if self.hex else None}>"


# --------------------------------------------------------------------------------------
# standard tiles


class TileLibrary:
    """Named tile definitions (``{colour: {name: parts}}``), parsed lazily.

    ``get(name)`` -> ``(color, TileSpec)`` or None; ``tile(name, index=0, **kw)`` builds a
    :class:`Tile`. Colour ``"none"`` is listed in the data but not reachable by name, like
    the reference's ``Tile.for``."""

    LOOKUP_SKIP = ("none",)

    def __init__(self, data: dict[str, dict[str, list[dict[str, Any]]]]):
        self._raw: dict[str, tuple[str, list[dict[str, Any]]]] = {}
        for color, tiles in data.items():
            if color in self.LOOKUP_SKIP:
                continue
            for name, parts in tiles.items():
                self._raw.setdefault(name, (color, parts))
        self._specs: dict[str, tuple[str, TileSpec]] = {}

    def __contains__(self, name: object) -> bool:
        return name in self._raw

    def names(self) -> list[str]:
        return list(self._raw)

    def parts(self, name: str) -> list[dict[str, Any]] | None:
        e = self._raw.get(name)
        return e[1] if e else None

    def get(self, name: str) -> tuple[str, TileSpec] | None:
        e = self._specs.get(name)
        if e is None:
            raw = self._raw.get(name)
            if raw is None:
                return None
            e = self._specs[name] = (raw[0], TileSpec.get(raw[1]))
        return e

    def __call__(self, name: str) -> tuple[str, TileSpec] | None:
        return self.get(name)

    def tile(self, name: str, index: int = 0, **kwargs: Any) -> Tile:
        e = self.get(name)
        if e is None:
            raise KeyError(f"tile {name!r} not found")
        return Tile(e[1], name, e[0], index=index, **kwargs)


_STANDARD: TileLibrary | None = None


def standard_tiles() -> TileLibrary:
    """The standard tiles of ``trackage/data/tiles.json`` (loaded once)."""
    global _STANDARD
    if _STANDARD is None:
        path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "tiles.json")
        with open(path, encoding="utf-8") as f:
            _STANDARD = TileLibrary(json.load(f))
    return _STANDARD


# --------------------------------------------------------------------------------------
# upgrade legality


def paths_are_subset_of(from_tile: Placed, other_paths: Sequence[Path]) -> bool:
    """Under some rotation, every path of ``from_tile`` is contained in a path of
    ``other_paths``. Lawson to Lawson compares exits only."""
    if from_tile.junction is not None and any(p.junction is not None for p in other_paths):
        other_exits = {e for p in other_paths for e in p.exits}
        mine = from_tile.exits
        return any(all(((e - t) % 6) in other_exits for e in mine) for t in ALL_EDGES)
    spec = from_tile.spec
    others = [(p._sig, p.track) for p in other_paths]
    igc_tile = from_tile.igc
    for ticks in ALL_EDGES:
        rot = spec.rot(ticks)
        ok = True
        for pd, sig in zip(spec.path_defs, rot.sig_ends):
            igc = pd.ignore_gauge_compare if igc_tile is None else igc_tile
            if not any(_sig_le(sig, pd.track, igc, o_sig, o_track) for o_sig, o_track in others):
                ok = False
                break
        if ok:
            return True
    return False


def tile_paths_kept(from_tile: Placed, to_tile: Placed) -> bool:
    """``paths_are_subset_of(from_tile, to_tile.paths)``, remembered with the old tile's spec.
    The old tile is tried in every rotation, and turning the new tile turns its paths' edges
    alike, so the answer does not depend on either tile's rotation (nor hex): it is a function
    of the two specs and the gauge flags, the same in every game."""
    memo = from_tile.spec._kept_in
    key = (to_tile.spec, from_tile.igc, to_tile.igw, to_tile.igc)
    ok = memo.get(key)
    if ok is None:
        ok = memo[key] = paths_are_subset_of(from_tile, to_tile.paths)
    return ok


def upgrades_to_correct_color(from_tile: Tile | Placed, to_tile: Tile | Placed,
                              colors_order: Sequence[str] = COLORS) -> bool:
    """``to_tile`` is the colour right after ``from_tile``'s in ``colors_order``."""
    try:
        return colors_order.index(to_tile.color) == colors_order.index(from_tile.color) + 1
    except ValueError:
        return False


PRINTED = object()
"""Default of ``from_label``/``from_future_label``: what the old tile prints (the board may
hold another label for the hex: ``Board.label``, ``Board.future_label``)."""


def upgrades_to_correct_label(from_tile: Placed, to_tile: Placed, from_label: object = PRINTED,
                              from_future_label: Any = PRINTED) -> bool:
    """Same label; a future label applies when ``to_tile`` has its colour."""
    fl = from_tile.future_label if from_future_label is PRINTED else from_future_label
    if fl is not None and to_tile.color == fl.color:
        return fl.label == to_tile.label
    return (from_tile.label if from_label is PRINTED else from_label) == to_tile.label


def upgrades_to_correct_city_town(from_tile: Placed, to_tile: Placed, ignore_num_cities: bool = False,
                                  from_label: object = PRINTED) -> bool:
    """Town counts equal; city counts equal unless labelled (or ``ignore_num_cities``);
    multi-city edge groups kept; a labelled city tile keeps at least one city; a white OO
    hex needs a two-city tile."""
    if not upgrades_to_correct_city_counts(from_tile, to_tile, ignore_num_cities, from_label):
        return False
    return not (len(from_tile.cities) > 1 and len(to_tile.cities) > 1
                and not from_tile.city_town_edges_are_subset_of(to_tile.city_town_edges))


def upgrades_to_correct_city_counts(from_tile: Placed, to_tile: Placed, ignore_num_cities: bool = False,
                                    from_label: object = PRINTED) -> bool:
    """The rules of :func:`upgrades_to_correct_city_town` that read no rotation (all but the
    multi-city edge groups): town counts equal; city counts equal unless labelled (or
    ``ignore_num_cities``); a labelled city tile keeps at least one city; a white OO hex needs
    a two-city tile."""
    if len(from_tile.towns) != len(to_tile.towns):
        return False
    label = from_tile.label if from_label is PRINTED else from_label
    if not label and len(from_tile.cities) != len(to_tile.cities) and not ignore_num_cities:
        return False
    if label and from_tile.cities and not to_tile.cities:
        return False
    return not (from_tile.color == "white" and label == "OO" and len(from_tile.cities) != len(to_tile.cities))


def upgrades_to(from_tile: Placed, to_tile: Placed, special: bool = False,
                colors_order: Sequence[str] = COLORS,
                color_check: Callable[[Placed, Placed], bool] | None = None,
                label_check: Callable[[Placed, Placed], bool] | None = None,
                city_town_check: Callable[[Placed, Placed], bool] | None = None,
                ignore_num_cities: bool = False, from_label: object = PRINTED,
                from_future_label: Any = PRINTED) -> bool:
    """Generic upgrade legality of ``from_tile`` (on the map) to ``to_tile`` in its current
    rotation-independent sense: colour order, old track kept under some rotation, then
    (unless ``special``, e.g. a private company's lay) label and city/town rules.
    The ``*_check`` callables replace the corresponding default rule (title hooks);
    ``from_label``/``from_future_label`` are the labels of the hex now (default: printed).

    Without title hooks and in the usual colour order the answer reads only the two tiles'
    colours, specs, rotations and gauge flags, the old label and future label (its label and
    colour) and the two flags: it is kept with the old tile's spec under them (shared by
    every game: a pure function of the key)."""
    if color_check is None and label_check is None and city_town_check is None and colors_order is COLORS:
        label = from_tile.label if from_label is PRINTED else from_label
        fl = from_tile.future_label if from_future_label is PRINTED else from_future_label
        key = (from_tile.color, from_tile.rotation, from_tile.igw, from_tile.igc, to_tile.spec, to_tile.color,
               to_tile.rotation, to_tile.igw, to_tile.igc, special, ignore_num_cities, label,
               None if fl is None else (fl.label, fl.color))
        memos = from_tile.spec.upgrade_memos
        memo = memos.get("upgrades to")
        if memo is None:
            memo = memos.setdefault("upgrades to", {})
        ok: bool | None = memo.get(key)
        if ok is None:
            ok = memo.setdefault(key, _upgrades_to(from_tile, to_tile, special, COLORS, None, None, None,
                                                   ignore_num_cities, label, fl))
        return ok
    return _upgrades_to(from_tile, to_tile, special, colors_order, color_check, label_check, city_town_check,
                        ignore_num_cities, from_label, from_future_label)


def _upgrades_to(from_tile: Placed, to_tile: Placed, special: bool, colors_order: Sequence[str],
                 color_check: Callable[[Placed, Placed], bool] | None,
                 label_check: Callable[[Placed, Placed], bool] | None,
                 city_town_check: Callable[[Placed, Placed], bool] | None,
                 ignore_num_cities: bool, from_label: object, from_future_label: Any) -> bool:
    # (:func:`upgrades_to` worked out)
    if color_check is not None:
        if not color_check(from_tile, to_tile):
            return False
    elif not upgrades_to_correct_color(from_tile, to_tile, colors_order):
        return False
    if not tile_paths_kept(from_tile, to_tile):
        return False
    if special:
        return True
    if label_check is not None:
        if not label_check(from_tile, to_tile):
            return False
    elif not upgrades_to_correct_label(from_tile, to_tile, from_label, from_future_label):
        return False
    if city_town_check is not None:
        return bool(city_town_check(from_tile, to_tile))
    return upgrades_to_correct_city_town(from_tile, to_tile, ignore_num_cities, from_label)


def old_paths_maintained(old_tile: Placed, new_tile: Placed) -> bool:
    """Every path of the old tile is contained in some path of the new tile, as rotated."""
    new_paths = new_tile.paths
    return all(any(path_le(p, q) for q in new_paths) for p in old_tile.paths)


def city_map(old: Placed, tile: Placed) -> dict[City, City | None]:
    """{old city: new city or None} when ``tile`` replaces ``old``: old cities map to the
    first new city whose exits include all of theirs; exit-less old cities map by position
    (or the first unused). The pairing reads only the two tiles' cities and their exits, a
    function of each spec and rotation: it is kept as positions with the old tile's spec."""
    memo = old.spec.upgrade_memos.get("city map")
    if memo is None:
        memo = old.spec.upgrade_memos.setdefault("city map", {})
    key = (old.rotation, tile.spec, tile.rotation)
    places: tuple[int, ...] | None = memo.get(key)
    new_list = tile.cities
    if places is None:
        found = _city_map(old, tile)
        places = memo.setdefault(key, tuple(-1 if c is None else new_list.index(c) for c in found.values()))
    return {oc: None if j < 0 else new_list[j] for oc, j in zip(old.cities, places)}


def _city_map(old: Placed, tile: Placed) -> dict[City, City | None]:
    # (:func:`city_map` worked out; its keys are ``old.cities`` in their order)
    old_cities = old.cities
    new_list = tile.cities
    if len(old_cities) == len(new_list) and not any(c.exits for c in old_cities):
        cmap: dict[City, City | None] = dict(zip(old_cities, new_list))
    else:
        cmap = {}
        for oc in old_cities:
            oex = oc.exits
            found = None
            if oex:
                for nc in new_list:
                    nex = nc.exits
                    if all(e in nex for e in oex):
                        found = nc
                        break
            cmap[oc] = found
    used: list[City | None] = [v for v in cmap.values() if v is not None]
    for i, oc in enumerate(old_cities):
        if cmap[oc] is not None:
            continue
        new_c = new_list[i] if i < len(new_list) else None
        if new_c in used:
            new_c = next((c for c in new_list if c not in used), None)
        cmap[oc] = new_c
        used.append(new_c)
    return cmap


def city_sizes_maintained(old: Placed, tile: Placed) -> bool:
    """When the old tile mixes city sizes, no city may lose slots."""
    if len({c.normal_slots for c in old.cities}) <= 1:
        return True
    for old_c, new_c in city_map(old, tile).items():
        if new_c is None or new_c.normal_slots < old_c.normal_slots:
            return False
    return True


def legal_rotation(old: Placed, tile: Placed, neighbors: Container[int], connected_edges: Iterable[int] | None = None,
                   extra_check: Callable[[Placed], bool] | None = None) -> bool:
    """Is ``tile`` (rotated, on its hex) a legal lay over ``old``, the tile on that hex?

    * every new exit leads to a linked neighbour (``neighbors``: the edges of the hex with
      one, e.g. ``Board.neighbors(hex)``), so not off-map, into impassable hexes or borders;
    * ``connected_edges``: the edges of the hex the laying entity reaches (from its
      graph); at least one new exit must be among them. ``None`` skips this check
      (replay/loading mode);
    * old paths are kept, no unexpected new cities, every old city maps to exactly one
      new city on multi-city upgrades, city sizes kept;
    * ``extra_check(tile)`` is a title hook (the game's own rotation rule)."""
    if extra_check is not None and not extra_check(tile):
        return False
    old_ct = [list(e) for _, e in old.spec.rot(old.rotation).ct_edges]
    new_exits = tile.exits
    new_ct = [list(e) for _, e in tile.spec.rot(tile.rotation).ct_edges]
    added = max(0, len(new_ct) - len(old_ct))
    multi = len(tile.cities) > 1 and len(old.cities) > 1

    if not all(e in neighbors for e in new_exits):
        return False
    if connected_edges is not None:
        ce = set(connected_edges)
        if not any(e in ce for e in new_exits):
            return False
    if not old_paths_maintained(old, tile):
        return False
    fresh = sum(1 for n in new_ct if all(not (set(n) & set(o)) for o in old_ct))
    if added < fresh:
        return False
    if multi:
        for o in old_ct:
            uniq = list(dict.fromkeys(o))
            if sum(1 for n in new_ct if [e for e in uniq if e in n] == o) != 1:
                return False
    return city_sizes_maintained(old, tile)


def legal_rotations(old: Placed, tile: Placed, neighbors: Container[int], **kwargs: Any) -> list[int]:
    """Rotations (0-5) of ``tile`` in which :func:`legal_rotation` holds."""
    return [r for r in ALL_EDGES if legal_rotation(old, tile.rotated(r), neighbors, **kwargs)]
