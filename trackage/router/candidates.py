"""Every route one train could run, as a trail of links with its track as a bitmask.

Routes are walked on tile paths: from a node, a path walk gives every piece of track to the
next node (a *link*: next node, paths in walk order, track keys). A route is a sequence of
nodes joined by links that share no track and visit no node twice, containing a start node
(a city the company has tokened, or what the title's rules add). Routes through a start node
join two halves walked from it. Each route is generated once: from its first start node (in
order; earlier start nodes are out of bounds); in front the half that spends more of the
meter (on a tie, or without a meter capacity, the half on the lower-numbered first link).
Nothing is capped: every route the meter allows is kept.

A walk step is an *entry* ``(parent, node, paths, mask, meter state, stop values, first
link, depth, nodes so far, link index, children, clash bits, spent count, index in the
tree)``; a candidate keeps its one or two entries and builds its node list and segments
only when asked.

The halves walked from a start node form a tree (each entry lists its children); the second
half of a route is found on that tree, so a ``floor`` (the least bound still wanted) prunes a
whole subtree when the best half in it cannot lift the route to the floor.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Sequence
from operator import itemgetter, sub
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
import numpy.typing as npt

from ..core.errors import GameError
from ..core.graph import walk_path
from ..core.routes import Chain, Route, Segment, chain_id, track_keys
from .entries import (
    CLASH,
    DEPTH,
    FIRST,
    IDX,
    KIDS,
    LINK,
    MASK,
    NODE,
    NODES,
    PARENT,
    PATHS,
    SPENT,
    STATE,
    VALS,
    Entry,
)
from .joins import BitJoin, ListJoin
from .meter import Meter
from .slack import BonusSlack, weakest_paid

if TYPE_CHECKING:
    from ..core.board import Board
    from ..core.entities import Corporation, Minor
    from ..core.routes import RouteRules
    from ..core.tiles import Path, RevenueCenter
    from ..core.trains import PhaseTrack, Train

Seg: TypeAlias = "tuple[RevenueCenter, list[Path]]"  # a route's leg: (its first node, its paths in walk order)
Link: TypeAlias = "tuple[RevenueCenter, list[Path], frozenset[Hashable]]"  # (next node, paths, track keys)
# a kind's view of a link (see ``Enumerator.klinks``)
KLink: TypeAlias = "tuple[RevenueCenter, list[Path], int, bool, bool, bool, int, int, bool]"
Want: TypeAlias = "tuple[int | None, int, tuple[int, ...] | None, int]"  # (limit, rem, need, split): ``_wanted``
# what a walk yields: (first half, its second halves' join or None, their places in the join)
Found: TypeAlias = "tuple[Entry, BitJoin | ListJoin | None, Sequence[int]]"
# a start's tree of halves kept for a later walk: (root, halves, frontier, lim, rows)
Kept: TypeAlias = "tuple[Entry, list[Entry], list[Entry], int | None, _Rows]"

__all__ = ["CLASH", "DEPTH", "FIRST", "IDX", "KIDS", "LINK", "MASK", "NODE", "NODES", "PARENT", "PATHS", "SPENT",
           "STATE", "VALS", "Candidate", "Enumerator", "Links", "build_route", "evaluate_alone", "trail_nodes"]

_ROW_MAX = 24  # a meter with a larger capacity is not told apart by spending in the rows
_FLOOR_DEPTH = 4  # a half's own floor (``floor_of``) down to this depth; deeper, its ancestor's
_HUBS = 3  # the most valuable stops whose avoidance the rows tell apart (2**_HUBS versions)
# (``probe``) how many of the best halves by stop values are joined first, for a floor: one
# (1861's lone 8 at 721: walk steps 19,482 -> 17,979; 5 halves 18,100, 40 18,923)
_PROBE_HALVES = 1
# (``_beyond``) a deep half's bound takes at most two stops that end every walk (a route's two
# ends) and one stop of each clash class (``_stop_classes``); False: the board's best stops
# alone (1861's lone 8 at 721: walk steps 17,979 -> see docs/router.md, stop 45's eighth pass)
_STOP_LIMITS = True
# (``routes``) a walk on kept trees skips a half that gave no route in the walk that kept them
# under a floor no higher than its own; False: every half asked again
_SKIP_EMPTY = True


class Candidate:
    """One route of one train kind: ``bound`` (cheap upper bound of its revenue alone),
    ``mask`` (conflict keys as bits), ``value`` (its exact revenue alone once computed; -1:
    it can never run)."""

    __slots__ = ("_nodes", "_segs", "bonus", "bound", "half", "mask", "other", "train", "value")

    def __init__(self, half: Entry, other: Entry | None, bound: int, mask: int, bonus: int, train: Train):
        self.train = train  # a train of the kind the route was found for
        self.half = half
        self.other = other
        self.bound = bound
        self.bonus = bonus  # the part of ``bound`` a run earns once (the title's run bonus)
        self.mask = mask
        self.value: int | None = None
        self._nodes: list[RevenueCenter] | None = None
        self._segs: list[Seg] | None = None

    def _build(self) -> None:
        nodes: list[RevenueCenter] = []
        segs: list[Seg] = []
        e = self.half
        while e is not None:
            nodes.append(e[NODE])
            if e[PARENT] is not None:
                segs.append((e[PARENT][NODE], e[PATHS]))
            e = e[PARENT]
        nodes.reverse()
        segs.reverse()
        o = self.other
        if o is not None:
            front_nodes: list[RevenueCenter] = []
            front_segs: list[Seg] = []
            while o[PARENT] is not None:
                front_nodes.append(o[NODE])
                front_segs.append((o[NODE], o[PATHS][::-1]))
                o = o[PARENT]
            nodes = front_nodes + nodes
            segs = front_segs + segs
        self._nodes = nodes
        self._segs = segs

    @property
    def nodes(self) -> list[RevenueCenter]:
        if self._nodes is None:
            self._build()
        assert self._nodes is not None
        return self._nodes

    @property
    def segs(self) -> list[Seg]:
        if self._segs is None:
            self._build()
        assert self._segs is not None
        return self._segs


def trail_nodes(half: Entry, other: Entry | None) -> tuple[RevenueCenter, ...]:
    """The stops of a route (in no particular order)."""
    nodes: tuple[RevenueCenter, ...] = half[NODES]
    if other is None:
        return nodes
    more: tuple[RevenueCenter, ...] = other[NODES]
    return nodes + more[1:]


def build_route(rules: RouteRules, train: Train, nodes: Sequence[RevenueCenter], segs: Sequence[Seg],
                routes: list[Route] | None, phase: PhaseTrack | None = None,
                chain_cache: dict[Any, Any] | None = None) -> Route:
    if not segs:
        cd = [Segment(nodes[0], nodes[0], Chain(None, [], None))]
    else:
        cd = [Segment(start, end, Chain((start, end), paths, chain_id(paths)))
              for (start, paths), end in zip(segs, nodes[1:])]
    r = Route(rules, train, routes=routes, connection_data=cd, phase=phase,
              chain_cache=chain_cache if chain_cache is not None else {})
    if routes is not None:
        routes.append(r)
    return r


class Links:
    """Memoised path walks on one gauge: for a node, every (next node, paths, track keys).

    ``earlier`` (the walks of the same board at an earlier version, same gauge): a node's
    walk made then is taken again when every hex it read (the hexes of the paths it went
    through and their neighbours across their edges, and the node's own) holds the same tile
    now and the hexes' links are the same map (both are replaced on change, never changed
    in place); otherwise it is walked again."""

    def __init__(self, board: Board, skip_track: str | None, earlier: Links | None = None):
        self.board = board
        self.skip_track = skip_track
        self.memo: dict[RevenueCenter, list[Link]] = {}
        # by node: (hex id, its tile) of every hex its walk read
        self.reads: dict[RevenueCenter, tuple[tuple[str, object], ...]] = {}
        self.walked = 0
        st = board.state
        self._neighbours = st.links
        self._tile_at = st.tile_at
        # earlier walks of nodes still on the map, checked when asked
        self._earlier: dict[RevenueCenter, tuple[list[Link], tuple[tuple[str, object], ...]]] = {}
        if (earlier is not None and earlier.board is board and earlier.skip_track == skip_track
                and earlier._neighbours is st.links):
            tile_at = st.tile_at
            carried = dict(earlier._earlier)
            reads = earlier.reads
            for n, out in earlier.memo.items():
                carried[n] = (out, reads[n])
            self._earlier = {n: got for n, got in carried.items()
                             if n.hex is not None and tile_at.get(n.hex.id) is n.tile}

    def __call__(self, node: RevenueCenter) -> list[Link]:
        r = self.memo.get(node)
        if r is not None:
            return r
        tile_at = self._tile_at
        got = self._earlier.get(node)
        if got is not None:
            for h, t in got[1]:
                if tile_at.get(h) is not t:
                    break
            else:
                self.memo[node] = got[0]
                self.reads[node] = got[1]
                return got[0]
        out: list[Link] = []
        skip = self.skip_track
        seen: dict[Path, None] = {}

        def visit(path: Path, visited: dict[Path, Any], _c: object, _v: object) -> None:
            self.walked += 1
            seen[path] = None
            for n in path.nodes:
                if n is not node:
                    paths = list(visited)
                    out.append((n, paths, frozenset(track_keys(paths))))

        for sp in node.paths:
            if skip is not None and sp.track == skip:  # ignored paths count, as in node_chains
                continue
            walk_path(sp, visit, board=self.board, skip_track=skip)
        # the hexes the walks read: the node's, each path's, and its neighbours across its edges
        hexes: dict[str, None] = {}
        if node.hex is not None:
            hexes[node.hex.id] = None
        neighbours = self._neighbours
        for p in seen:
            hid = p.hex.id
            hexes[hid] = None
            row = neighbours.get(hid)
            if row:
                for e in p.edges:
                    nb = row.get(e.num)
                    if nb is not None:
                        hexes[nb.id] = None
        self.reads[node] = tuple((h, tile_at.get(h)) for h in hexes)
        self.memo[node] = out
        return out


class _Start:
    """What the routes from one start share (see ``Enumerator.routes``)."""

    __slots__ = ("bits", "plans", "reach", "room", "root", "rows", "slack", "sp0", "split", "sub", "summed", "t",
                 "through", "tlinks", "zero")

    def __init__(self, t: RevenueCenter, root: Entry, rows: _Rows | None, through: bool, tlinks: list[KLink], sp0: int,
                 room: int, split: bool, summed: bool, slack: int, zero: Any):
        self.t = t
        self.root = root
        self.rows = rows
        self.through = through
        self.tlinks = tlinks
        self.sp0 = sp0
        self.room = room
        self.split = split
        self.summed = summed
        self.slack = slack
        self.zero = zero
        # (floor, stop values, meter state, version, first link) -> sides to join
        self.plans: dict[Any, list[tuple[int, int | None, Want | None]]] = {}
        self.bits: BitJoin | None = None  # without a floor: the second halves as bitsets
        # with a bonus slack (``Enumerator.bonus``) and rows: by half (IDX), its subtree's bonus stops as bits
        self.sub: list[int] | None = None
        self.reach = 0  # (with ``sub``) the bonus stops of every second half


class _Rows:
    """The subtree rows of a tree of halves in versions (see ``Enumerator._subtree_best``):
    ``table(v)[i]`` is the row of the tree's half i among halves avoiding the hubs of version
    v; ``beside(v, side)[li]``, the same over the start's links after (side 1) or before
    (-1) link li. Versions are turned into lists when first used."""

    def __init__(self, rows: npt.NDArray[np.int32], root: Entry, versions: list[int], size: int, where: list[int],
                 n_all: int):
        self.rows = rows  # (row, version, column): rows of the halves at ``where`` (by IDX)
        self.root = root
        self.versions = versions  # by half: the version avoiding the hubs it went through
        self.size = size
        self.where = where
        self.n_all = n_all
        self.hub_bit: dict[RevenueCenter, int] = {}  # a hub stop -> its version bit
        self.links = 0  # the start's links
        self.split = 0  # capped rows: where the uncounted stops' row starts (0: one row)
        self.uncounted = 0  # capped rows: the best value of an uncounted stop of the tree
        # (a kept tree, see ``Enumerator.keep_trees``) by half: the floor under which the walk
        # that kept it found no route with that half as first half (None: not known), and the
        # slack it had
        self.empty_at: list[int | None] | None = None
        self.empty_slack: int | None = None
        self._tables: dict[int, list[list[int] | None]] = {}
        self._joined: dict[tuple[int, int], list[list[int] | None]] = {}
        self._beside: dict[tuple[int, int], list[list[int]]] = {}

    def version(self, half: Entry) -> int:
        """The version avoiding the hubs ``half`` went through."""
        return self.versions[half[IDX]]

    def table(self, v: int) -> list[list[int] | None]:
        t = self._tables.get(v)
        if t is None:
            t = [None] * self.n_all
            for i, row in zip(self.where, self.rows[:, v, :].tolist()):
                t[i] = row
            self._tables[v] = t
        return t

    def joined(self, v: int, rem: int) -> list[list[int] | None]:
        """(Capped rows, ``split`` > 0) ``table(v)`` with each half's two rows made one for
        second halves counting at most ``rem`` stops: ``a[j]``, the most of ``row[c] +
        row[split + j - c]`` over c up to ``rem`` (j up to the pay)."""
        split = self.split
        key = (v, min(rem, split - 1))
        t = self._joined.get(key)
        if t is None:
            rows = self.rows[:, v, :].astype(np.int64)
            width = rows.shape[1] - split
            # every (j, c) with c up to min(j, rem), grouped by j
            js = np.array([j for j in range(width) for c in range(min(j, key[1]) + 1)], dtype=np.int64)
            cs = np.array([c for j in range(width) for c in range(min(j, key[1]) + 1)], dtype=np.int64)
            sums = rows[:, cs] + rows[:, split + js - cs]
            out = np.maximum.reduceat(sums, np.flatnonzero(np.r_[True, js[1:] != js[:-1]]), axis=1)
            out[rows[:, 0] < 0] = -1  # (no half)
            t = [None] * self.n_all
            for i, row in zip(self.where, out.tolist()):
                t[i] = row
            self._joined[key] = t
        return t

    def beside(self, v: int, side: int) -> list[list[int]]:
        """By link index of the start (``links`` of them): the fold of the rows of the start's
        children on later (side 1) or earlier (-1) links."""
        key = (v, side)
        got = self._beside.get(key)
        if got is None:
            table = self.table(v)
            by_link: dict[int, list[int]] = {}
            for k in self.root[KIDS]:
                row = table[k[IDX]]
                if row is not None:
                    prev = by_link.get(k[LINK])
                    by_link[k[LINK]] = row if prev is None else [max(b, a) for a, b in zip(prev, row)]
            got = [[]] * self.links  # (every place is set below)
            acc = [-1] * self.size
            for li in (range(self.links - 1, -1, -1) if side > 0 else range(self.links)):
                got[li] = acc
                row = by_link.get(li)
                if row is not None:
                    acc = [max(b, a) for a, b in zip(acc, row)]
            self._beside[key] = got
        return got


def _flat(want: Want) -> Want:
    """A capped rows' want for the joined rows (``_Rows.joined``): ``row[j] >= need[j]``."""
    return want[0], want[1], want[2], 0


class Enumerator:
    """Routes of one train kind for ``corp``.

    ``key_bit(key)`` numbers conflict keys; ``conflict(keys, node)`` turns a link's track keys
    (and its end node) into the keys the title compares between routes (default: the track
    keys); ``value(node)`` is a stop's value and ``pay`` how many stops pay at most (None:
    all); ``free(node)``: a stop that never earns nor makes a route legal (a route ending
    there is worth no more than the same route without it, which is also generated)."""

    bit_joins = True  # without a floor, join the halves with bitsets (False: walk the tree)

    def __init__(self, corp: Corporation | Minor, board: Board, links: Links, meter: Meter, starts: list[RevenueCenter],
                 local: bool, *, key_bit: Callable[[Hashable], int],
                 conflict: Callable[[Collection[Hashable], RevenueCenter], Iterable[Hashable]] | None = None,
                 value: Callable[[RevenueCenter], int], pay: int | None,
                 free: Callable[[RevenueCenter], bool] | None = None,
                 unique_groups: bool = False, unique_hexes: bool = False):
        self.unique_groups = unique_groups  # no two stops of one group (offboard areas)
        self.unique_hexes = unique_hexes  # no two stops in one hex
        self.corp = corp
        self.board = board
        self.links = links
        self.meter = meter
        self.starts = starts
        self.local = local
        self.key_bit = key_bit
        self.conflict = conflict
        self.value = value
        self.pay = pay
        self.free = free
        self.walks = 0
        self.budget: int | None = None  # walk steps allowed (None: no limit)
        self.exhausted = False  # the budget ran out: some routes were not generated
        self.floor: int | None = None  # routes bound below this may be left out
        # with ``floor``: the floor of the routes whose first half uses the given track (at
        # least ``floor``; the routes yielded since the last half taken have ``cur_floor``)
        self.floor_of: Callable[[int], int] | None = None
        self.cur_floor: int | None = None
        self.slack: int | None = None  # what a route's bound may add to its stop values (None: unknown)
        self.prunes = False  # a floor is (or will be) set and the slack is known
        # (a lone train's rising walk) given the routes of a few halves taken out of turn, it
        # judges them and raises the floor to the best run among them: a floor no higher than
        # the best run, so the walk in tree order after it keeps the same best routes
        self.probe: Callable[[tuple[Found, ...]], None] | None = None
        # the slack of a part of the walk from the bonus stops it can reach (None: ``slack`` throughout)
        self.bonus: BonusSlack | None = None
        # (without ``bonus``) the part of ``slack`` paid only to a route visiting a stop of
        # every group, as (amount, groups): the title's ``router_visit_bonus``
        self.visit: tuple[int, tuple[frozenset[RevenueCenter], ...]] | None = None
        # ``_visit_groups``, made once
        self._visit: list[tuple[RevenueCenter | None, int, bool, frozenset[RevenueCenter]]] | None = None
        # (capped rows, by the current start's tree) the best value of an uncounted stop, and
        # where the rows of uncounted stops start (0: rows padded with that value)
        self._uncounted = 0
        self._split = 0
        self._klinks: dict[RevenueCenter, list[KLink]] = {}
        self._free_at: dict[RevenueCenter, bool] = {}  # a link's end -> a free stop (see ``klinks``)
        # the trees of halves walked with rows, by start, as (root, halves, frontier, lim, rows)
        # (see ``_extend``, ``_subtree_best``), kept when a dict is given (a rising walk that
        # a walk with per-half floors of the same kind will follow); ``reuse``: such trees of
        # an earlier walk, taken instead of walking them again (each once), the halves
        # beyond their ``lim`` walked on in place (``_grown``)
        self.keep_trees: dict[RevenueCenter, Kept] | None = None
        self.reuse: dict[RevenueCenter, Kept] | None = None
        self._want_memo: dict[Any, Want] = {}  # (floor less slack, stop values, meter state, most) -> _wanted
        self._spent: dict[Any, int] = {}  # meter state -> spent count
        self._vals_memo: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
        self._merged: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}
        self._stops: tuple[list[tuple[int, Any]], list[tuple[int, Any]]] | None = None  # ``_board_stops``
        self._end_stops: frozenset[RevenueCenter] = frozenset()  # ``_board_stops``: stops ending every walk
        self._stop_class: dict[RevenueCenter, int] = {}  # ``_board_stops``: see ``_stop_classes``
        self._paid: dict[Any, int] | None = None  # ``_uncounted_paid``
        self._cbits: dict[RevenueCenter, int] = {}
        self._bits: dict[tuple[str, Any], int] = {}

    def follow(self, earlier: Enumerator) -> None:
        """Walk after ``earlier`` (a walk of the same kind, same links and rules, whose trees
        were kept): take its trees (``reuse``) and what their entries were numbered by (the
        clash bits) with the links as it saw them."""
        self.reuse = earlier.keep_trees
        self._bits = earlier._bits
        self._cbits = earlier._cbits
        self._klinks = earlier._klinks
        self._free_at = earlier._free_at

    def klinks(self, node: RevenueCenter) -> list[KLink]:
        """This kind's view of a node's links: (next node, paths, mask, leaves through a
        terminal, passes a terminal, ends the walk, clash bits, stop value, a free stop)."""
        r = self._klinks.get(node)
        if r is not None:
            return r
        out: list[KLink] = []
        board = self.board
        corp = self.corp
        kb = self.key_bit
        conflict = self.conflict
        free_at = self._free_at
        for n, paths, keys in self.links(node):
            ks = conflict(keys, n) if conflict is not None else keys
            m = 0
            for k in ks:
                m |= kb(k)
            fr = free_at[n] = self.free is not None and bool(self.free(n))
            out.append((n, paths, m, bool(paths[0].terminal),
                        len(paths) > 2 and any(p.terminal for p in paths[1:-1]),
                        board.blocks(n, corp) or bool(paths[-1].terminal), self.clash_bits(n), self.value(n), fr))
        self._klinks[node] = out
        return out

    def clash_bits(self, node: RevenueCenter) -> int:
        """Bits of what no two stops of a route may share: its groups (offboard areas) and,
        where the title says so, its hex (only a hex with several stops can be stopped at
        twice)."""
        b = self._cbits.get(node)
        if b is None:
            b = 0
            if self.unique_groups:
                for g in getattr(node, "groups", None) or ():
                    b |= self._bit(("group", g))
            if self.unique_hexes and len(self.board.tile(node.hex).nodes) > 1:
                b |= self._bit(("hex", node.hex))
            self._cbits[node] = b
        return b

    def _bit(self, key: tuple[str, Any]) -> int:
        b = self._bits.get(key)
        if b is None:
            at = len(self._bits)
            b = self._bits[key] = 1 << at
        return b

    def _add_v(self, vals: Any, v: int) -> Any:
        # (stop values: their sum, an int, when every stop pays; else the best ones, a tuple)
        pay = self.pay
        if pay is None:
            return vals + v
        key = (vals, v)
        got = self._vals_memo.get(key)
        if got is not None:
            return got
        if len(vals) < pay:
            got = tuple(sorted(vals + (v,), reverse=True))
        elif v > vals[-1]:
            got = tuple(sorted(vals[:-1] + (v,), reverse=True))
        else:
            got = vals
        self._vals_memo[key] = got
        return got

    def _tick(self) -> bool:
        """Count a walk step; False (and ``exhausted``) once the budget has run out."""
        self.walks += 1
        if self.budget is not None and self.walks > self.budget:
            self.exhausted = True
            return False
        return True

    def _steps(self, entry: Entry, used_nodes: set[RevenueCenter] | frozenset[RevenueCenter]) -> list[tuple[Any, ...]]:
        """Every step the meter allows from ``entry``: a link sharing no track, stop or clash
        bit with it, as (link index, node, paths, track mask, meter state, meter spent, value,
        clash bits, ends the walk, first link). A list worked out at once (the walk's inner
        loop: no generator)."""
        inner = entry[DEPTH] > 0
        used = entry[MASK]
        state = entry[STATE]
        first = entry[FIRST]
        clash = entry[CLASH]
        meter = self.meter
        step = meter.step
        spent = self._spent
        out = []
        for li, (n, paths, m, bad_first, bad_mid, ends, cb, val, _free) in enumerate(self.klinks(entry[NODE])):
            if inner and bad_first:
                continue
            if m & used or bad_mid or cb & clash or n in used_nodes:
                continue
            st = step(state, n, paths)
            if st is None:
                continue
            sp = spent.get(st)
            if sp is None:
                sp = spent[st] = meter.spent(st)
            out.append((li, n, paths, used | m, st, sp, val, clash | cb, ends, first if inner else li))
        return out

    def _child(self, entry: Entry, s: tuple[Any, ...], out: list[Entry] | None) -> Entry:
        """The half ``entry`` followed by the step ``s`` (see :meth:`_steps`); ``out``: the
        tree's list (the child gets its index there and a list of children), or None."""
        li, n, paths, mask, st, sp, val, clash, _ends, first = s
        vals = entry[VALS]
        return (entry, n, paths, mask, st, vals + val if self.pay is None else self._add_v(vals, val), first,
                entry[DEPTH] + 1, entry[NODES] + (n,), li, [] if out is not None else None, clash, sp,
                len(out) if out is not None else -1)

    def _children(self, entry: Entry, used_nodes: set[RevenueCenter] | frozenset[RevenueCenter],
                  out: list[Entry] | None) -> Iterator[tuple[Entry, bool]]:
        """Yield (child, ends the walk) for every step the meter allows from ``entry``."""
        for s in self._steps(entry, used_nodes):
            yield self._child(entry, s, out), s[8]

    def _extend(self, entry: Entry, used_nodes: set[RevenueCenter], out: list[Entry], lim: int | None,
                frontier: list[Entry]) -> None:
        """Walk every half from ``entry`` into ``out`` (each entry also lists its children).
        With ``lim``: a half spending more than ``lim`` is listed in ``out`` and ``frontier``
        but is nobody's child and is not walked on (see ``_deep``)."""
        if not self._tick():
            return
        kids = entry[KIDS]
        extend = self._extend
        vals = entry[VALS]
        summed = self.pay is None
        add_v = self._add_v
        depth = entry[DEPTH] + 1
        nodes = entry[NODES]
        # (the steps as :meth:`_steps` lists them and the child as :meth:`_child` makes it,
        # both here: the walk's inner loop)
        inner = depth > 1
        used = entry[MASK]
        state = entry[STATE]
        first0 = entry[FIRST]
        clash0 = entry[CLASH]
        meter = self.meter
        step = meter.step
        spent = self._spent
        for li, (n, paths, m, bad_first, bad_mid, ends, cb, val, _free) in enumerate(self.klinks(entry[NODE])):
            if inner and bad_first:
                continue
            if m & used or bad_mid or cb & clash0 or n in used_nodes:
                continue
            st = step(state, n, paths)
            if st is None:
                continue
            sp = spent.get(st)
            if sp is None:
                sp = spent[st] = meter.spent(st)
            e: Entry = (entry, n, paths, used | m, st, vals + val if summed else add_v(vals, val),
                        first0 if inner else li, depth, nodes + (n,), li, [], clash0 | cb, sp, len(out))
            out.append(e)
            if lim is not None and sp > lim:
                if not ends:
                    frontier.append(e)
                continue
            kids.append(e)
            if not ends:
                used_nodes.add(n)
                extend(e, used_nodes, out, lim, frontier)
                used_nodes.discard(n)

    def _join(self, entry: Entry, tree: Entry, used_nodes: set[RevenueCenter], out: list[Entry], want: Want | None,
              best: list[list[int] | None] | None, side: int = 1, most: int | None = None,
              want_of: Callable[[int], Want] | None = None, sub: list[int] | None = None, jb: int = 0,
              keeps: Callable[[Any, int], bool] | None = None) -> None:
        """The second halves of a route on the tree of halves: ``entry`` walks on from
        ``tree`` (the tree's entry at the same node) along its children, with the track,
        stops, clash bits and meter the first half left; with ``want`` (see
        ``_wanted``) a child is skipped when no half in its subtree can lift the route to the
        floor (``best``: the subtrees' rows). From the start, the links after the first
        half's first link (``side`` 1) or before it (-1); ``most``: the most meter a second
        half may spend (its tree entries' spent count). ``want_of`` (with ``sub``, the
        subtrees' bonus stops as bits, and ``jb``, those of the route so far): a subtree's
        want from the bonus stops its routes can reach, in place of ``want``; ``keeps``:
        whether a route may reach the floor (see ``_keeps``; None: every route is listed)."""
        # (``_tick`` and the ``klinks`` memo inlined: one call per second half's step)
        self.walks += 1
        if self.budget is not None and self.walks > self.budget:
            self.exhausted = True
            return
        links = self._klinks.get(tree[NODE])
        if links is None:
            links = self.klinks(tree[NODE])
        inner = entry[DEPTH] > 0
        first_after = entry[FIRST]
        depth = entry[DEPTH] + 1
        used = entry[MASK]
        state = entry[STATE]
        vals = entry[VALS]
        nodes = entry[NODES]
        clash = entry[CLASH]
        summed = self.pay is None
        add_v = self._add_v
        step = self.meter.step
        join = self._join
        passes = self._passes
        bit = self.bonus.bit if want_of is not None and self.bonus is not None else None
        for kid in tree[KIDS]:
            li = kid[LINK]
            n, paths, m, bad_first, _bad_mid, _ends, cb, val, free = links[li]
            if inner:
                first = first_after
            elif bad_first or ((li <= first_after) if side > 0 else (li >= first_after)):
                continue  # (a second half may not leave the start through a terminal)
            else:
                first = li
            if most is not None and kid[SPENT] > most:
                continue
            # (the conflicts first: cheaper than a subtree's row test)
            if m & used or cb & clash or n in used_nodes:
                continue
            if want_of is not None:
                if not passes(best[kid[IDX]], *want_of(jb | sub[kid[IDX]])):  # type: ignore[index]  # (given with want_of)
                    continue
            elif want is not None and not passes(best[kid[IDX]], *want):  # type: ignore[index]  # (given with want)
                continue
            st = step(state, n, paths)
            if st is None:
                continue
            ev = vals + val if summed else add_v(vals, val)
            kb = jb | bit.get(n, 0) if bit is not None else jb
            # no route ends at a free stop (the shorter one is found)
            listed = not free and (keeps is None or keeps(ev, kb))
            if listed or kid[KIDS]:
                # (the entry is made only for a route listed or walked on)
                e = (entry, n, paths, used | m, st, ev, first, depth, nodes + (n,), li, None, clash | cb, 0, -1)
                if listed:
                    out.append(e)
                if kid[KIDS]:
                    join(e, kid, used_nodes, out, want, best, side, most, want_of, sub, kb, keeps)

    def _want_of(self, h: Entry, most: int | None, floor: int, hb: int, wk: int) -> Callable[[int], Want]:
        """``_wanted`` for the second halves of ``h`` by the bonus stops they can reach
        (bits): the slack is that of those and ``h``'s (``hb``), the route's weakest paid
        value at least ``wk`` (memoised per call)."""
        bonus = self.bonus
        assert bonus is not None
        memo: dict[int, Want] = {}
        wanted = self._wanted

        def want_of(bits: int) -> Want:
            got = memo.get(bits)
            if got is None:
                got = memo[bits] = _flat(wanted(h, most, floor, bonus(hb | bits, wk)))
            return got

        return want_of

    def _keeps(self, h: Entry, floor: int, hb: int) -> Callable[[Any, int], bool]:
        """Whether the route of ``h`` and a second half with stop values ``vals`` and bonus
        stops ``bits`` may reach ``floor``: its stop values and the slack of its own bonus
        stops (its weakest paid value known)."""
        bonus = self.bonus
        assert bonus is not None
        hv = h[VALS]
        pay = self.pay
        merged = self.merged
        memo: dict[tuple[Any, int], bool] = {}  # (stop values, bits) -> kept

        def keeps(vals: Any, bits: int) -> bool:
            key = (vals, bits)
            got = memo.get(key)
            if got is None:
                if pay is None:
                    got = bool(hv + vals + bonus(hb | bits, 0) >= floor)
                else:
                    mv = merged(hv, vals)
                    got = bool(sum(mv) + bonus(hb | bits, weakest_paid(mv, pay)) >= floor)
                memo[key] = got
            return got

        return keeps

    def _capped(self) -> bool:
        """Only the best ``pay`` stops pay, and the meter caps the stops it counts: rows are
        then kept by counted and uncounted stops apart (see ``_subtree_best``)."""
        cap = self.meter.capacity
        return self.pay is not None and cap is not None and cap <= _ROW_MAX

    def _subtree_best(self, root: Entry, halves: list[Entry], lim: int | None) -> _Rows:
        """For every half of the tree that may be a second half (spent count at most ``lim``;
        None: any) a row ``a`` (-1: no half), the best in its subtree (such halves only) of:

        * every stop pays: ``a[j]``, a half's value among the halves spending at most j of
          the meter beyond the start;
        * only the best ``pay`` stops pay and the meter caps the stops it counts: ``a[k]``,
          the sum over a half's k best counted stops of each one's value or the best value of
          an uncounted stop, whichever is more (that value for a missing stop); or, where an
          uncounted stop is worth more than the ``pay``-th best counted stop of the tree, two
          rows side by side: ``a[c]`` (c up to ``min(capacity, pay)``) the sum of a half's c
          best counted stops and ``a[split + m]`` (m up to ``pay``) that of its m best
          uncounted stops (``split``: the first row's length; a missing stop is worth 0);
        * else: ``a[j]``, the sum of a half's j best stop values.

        The start's value is left out (a second half does not earn it). Also, for every link
        index li of the start, the same over the start's links after li and before it.

        Each row comes in versions, one per set of *hubs* (the most valuable stops of those
        halves) its halves avoid: a first half through hubs is joined with the version that
        avoids them (see :class:`_Rows`).

        Rows are numpy arrays built a depth at a time: a half's own row from its parent's
        (adding a stop of value v to the best-j sums ``T`` gives ``max(T[j], T[j-1] + v)``),
        then each depth's rows folded into their parents', deepest first."""
        meter = self.meter
        pay = self.pay
        capped = self._capped()
        cap = meter.capacity if (pay is None or capped) and (meter.capacity or 0) <= _ROW_MAX else None
        size = cap + 1 if cap is not None else pay + 1 if pay is not None else 1
        value = self.value
        n_all = len(halves)
        # every half's version (the hubs it went through) is wanted; rows only for the
        # halves that may be second halves (their parents are such halves too)
        sub = halves if lim is None else [e for e in halves if e[SPENT] <= lim]
        n = len(sub)
        where = np.fromiter((e[IDX] for e in sub), dtype=np.int64, count=n)
        local = np.full(n_all + 1, n, dtype=np.int64)  # a full index -> its row (the root: n)
        local[where] = np.arange(n)
        parent = local[np.fromiter((e[PARENT][IDX] for e in sub), dtype=np.int64, count=n)]
        depth = np.fromiter((e[DEPTH] for e in sub), dtype=np.int64, count=n)
        order = np.argsort(depth, kind="stable")
        levels = np.split(order, np.flatnonzero(np.diff(depth[order])) + 1) if n else []  # by depth, shallowest first
        split = 0  # (capped rows) where the uncounted stops' row starts; 0: one row
        if pay is None:
            own = np.zeros((n + 1, size), dtype=np.int32)
            vt = root[VALS]
            vals = np.fromiter((e[VALS] for e in sub), dtype=np.int64, count=n) - vt
            if cap is None:
                own[:n, 0] = vals
            else:
                spent = np.fromiter((e[SPENT] for e in sub), dtype=np.int64, count=n) - root[SPENT]
                cols = np.arange(size)
                own[:n] = np.where(cols[None, :] >= spent[:, None], vals[:, None], -1)
        else:
            stop_v = np.fromiter((value(e[NODE]) for e in sub), dtype=np.int64, count=n)
            if capped:
                counted: dict[RevenueCenter, bool] = {}
                flags = np.fromiter((counted[e[NODE]] if e[NODE] in counted
                                     else counted.setdefault(e[NODE], meter.counted(e[NODE])) for e in sub),
                                    dtype=bool, count=n)
                top_u = int(stop_v[~flags].max()) if (~flags).any() else 0
                best_c = sorted((value(nd) for nd, c in counted.items() if c), reverse=True)
                if top_u > (best_c[pay - 1] if len(best_c) >= pay else 0):
                    # an uncounted stop may outrank a paid counted one: which uncounted stops
                    # a subtree holds matters, the rows keep them apart
                    assert cap is not None
                    split = min(cap, pay) + 1
                    size = split + pay + 1
                    own = np.zeros((n + 1, size), dtype=np.int32)
                else:
                    own = np.zeros((n + 1, size), dtype=np.int32)
                    own[n] = np.arange(size) * top_u
                self._uncounted = top_u
                self._split = split
            else:
                own = np.zeros((n + 1, size), dtype=np.int32)
                flags = np.ones(n, dtype=bool)
            for lvl in levels:
                rows = own[parent[lvl]]
                add = rows.copy()
                sv = stop_v[lvl][:, None]
                if split:
                    # a counted stop joins the first row, an uncounted one the second
                    add[:, 1:split] = np.maximum(rows[:, 1:split], rows[:, :split - 1] + sv)
                    more = np.maximum(rows[:, split + 1:], rows[:, split:-1] + sv)
                    add[:, split + 1:] = np.where(flags[lvl][:, None], rows[:, split + 1:], more)
                    add[:, 1:split] = np.where(flags[lvl][:, None], add[:, 1:split], rows[:, 1:split])
                    own[lvl] = add
                else:
                    add[:, 1:] = np.maximum(rows[:, 1:], rows[:, :-1] + sv)
                    own[lvl] = np.where(flags[lvl][:, None], add, rows)
        # the hubs: the most valuable stops of the second halves; version v avoids the hubs
        # of v's bits
        node_v: dict[RevenueCenter, int] = {}
        for e in sub:
            node_v[e[NODE]] = value(e[NODE])
        hubs = sorted(node_v, key=lambda nd: -node_v[nd])[:_HUBS]
        hubs = [nd for nd in hubs if node_v[nd] > 0]
        nhubs = len(hubs)
        nv = 1 << nhubs
        best_rows = np.repeat(own[:, None, :], nv, axis=1)
        best_rows[n] = -1
        hub_at = {nd: i for i, nd in enumerate(hubs)}
        hub_idx = np.fromiter((hub_at.get(e[NODE], -1) for e in sub), dtype=np.int64, count=n)
        has = (np.arange(nv)[:, None] >> np.arange(max(1, len(hubs)))[None, :]) & 1  # (version, hub)
        is_hub = hub_idx >= 0
        # fold each depth into its parents, deepest first (a depth's halves come grouped by
        # parent, parents in order)
        for lvl in reversed(levels):
            hl = lvl[is_hub[lvl]]
            if len(hl):  # a half through a hub, and all below it, is in no version avoiding it
                drop = has[:, hub_idx[hl]].T.astype(bool)  # (half, version)
                rows = best_rows[hl]
                rows[drop] = -1
                best_rows[hl] = rows
            ps = parent[lvl]
            starts = np.flatnonzero(np.r_[True, ps[1:] != ps[:-1]])
            folded = np.maximum.reduceat(best_rows[lvl], starts, axis=0)
            targets = ps[starts]
            best_rows[targets] = np.maximum(best_rows[targets], folded)
        # every half's version: the hubs on its way from the start
        bits = {nd: 1 << i for i, nd in enumerate(hubs)}
        versions = [0] * n_all
        for e in halves:  # parents first
            p = e[PARENT][IDX]
            v = versions[p] if p >= 0 else 0
            b = bits.get(e[NODE])
            versions[e[IDX]] = v | b if b is not None else v
        out = _Rows(best_rows, root, versions, size, where.tolist(), n_all)
        out.split = split
        out.uncounted = self._uncounted if capped else 0
        out.hub_bit = bits
        out.links = len(self.klinks(root[NODE]))
        return out

    def _wanted(self, h: Entry, most: int | None, floor: int, slack: int | None = None) -> Want:
        """(limit, rem, need, split) for the second halves of ``h`` under the floor. A
        subtree's row passes when ``row[rem] >= limit`` (limit not None) or it reaches
        ``need`` (not None): every stop pays: ``limit`` at ``rem`` (the meter left); only the
        best ``pay`` stops pay: ``need[j]`` is what j stops of the second half must add,
        ``row[j] >= need[j]`` for some j; with capped rows only j up to ``rem`` are compared,
        ``limit`` covering the second halves that add more uncounted stops, or, with two rows
        (``split`` > 0, see ``_subtree_best``), ``row[c] + row[split + j - c] >= need[j]``
        for some j and c up to ``rem`` (a second half counts no more stops than the meter
        leaves, the others are uncounted). ``most``: the most meter a second half
        may spend (None: what the meter leaves); ``slack``: what the bound may add to the
        routes' stop values (None: ``self.slack``)."""
        if slack is None:
            slack = self.slack
        assert slack is not None
        base = floor - slack
        pay = self.pay
        cap = self.meter.capacity
        if pay is None:
            rem = 0 if cap is None or cap > _ROW_MAX else cap - self.meter.spent(h[STATE])
            if most is not None and rem:
                rem = min(rem, most)
            return base - h[VALS], rem, None, 0
        key = (base, h[VALS], h[STATE], most, self._split, self._uncounted)
        got = self._want_memo.get(key)
        if got is None:
            got = self._want_memo[key] = self._wanted_pay(base, h[VALS], h[STATE], most)
        return got

    def _wanted_pay(self, base: int, vals: tuple[int, ...], state: Any, most: int | None) -> Want:
        """``_wanted`` for pay-limited trains: from a half's stop values and meter state."""
        pay = self.pay
        assert pay is not None
        cap = self.meter.capacity
        pre = [0]
        for v in vals:
            pre.append(pre[-1] + v)
        # (``pre[i]``: the best i of the half's values; a half has at most ``pay`` of them)
        n_vals = len(vals)
        pre += [pre[-1]] * (pay - n_vals)
        need = tuple(base - pre[pay - j] for j in range(pay + 1))
        if not self._capped():
            return None, 0, need, 0
        assert cap is not None
        rem = max(0, cap - self.meter.spent(state))
        if most is not None:
            rem = min(rem, most)
        if self._split:
            return None, min(rem, pay), need, self._split
        top = min(rem, pay)
        if top >= pay:
            return None, rem, need, 0
        u = self._uncounted
        more = max(pre[pay - j] + (j - rem) * u for j in range(top + 1, pay + 1))
        return base - more, rem, need[:top + 1], 0

    @staticmethod
    def _passes(row: list[int], limit: int | None, rem: int, need: tuple[int, ...] | None, split: int) -> bool:
        if split:
            if row[0] < 0:
                return False  # (no half)
            assert need is not None
            for c in range(rem + 1):
                tc = row[c]
                for j in range(c, len(need)):
                    if tc + row[split + j - c] >= need[j]:
                        return True
            return False
        if need is not None and max(map(sub, row, need)) >= 0:
            return True
        return limit is not None and row[rem] >= limit

    def routes(self) -> Iterator[Found]:
        """Yield every distinct route once, grouped by first half: (half entry, None, ())
        for the half alone, (half entry, join, places) for the routes it makes with second
        halves: ``join.batch(half, places)`` gives them (a :class:`~.joins.BitJoin`: places
        in its ``uni``; a :class:`~.joins.ListJoin`: all of them, places ()). A route's track is the
        half's mask with the other's. With ``floor`` set (it may rise while routes are
        taken), routes whose bound (at most their stop values plus ``slack``) is below it
        may be left out."""
        banned: set[RevenueCenter] = set()
        zero: Any = 0 if self.pay is None else ()
        kb = self.key_bit
        conflict = self.conflict
        split = self.meter.capacity is not None
        summed = self.pay is None
        floor_of = self.floor_of
        self.cur_floor = self.floor
        slack = self.slack if self.slack is not None else 0
        for t in self.starts:
            if t in banned:
                continue
            st0 = self.meter.begin(t)
            if st0 is None:
                banned.add(t)
                continue
            m0 = 0
            if conflict is not None:
                for k in conflict((), t):
                    m0 |= kb(k)
            sp0 = self.meter.spent(st0)
            cap = self.meter.capacity
            room = cap - sp0 if split and cap is not None else 0  # the meter a route has beyond the start
            # a lone train (a floor that rises, no per-half floors) with a meter that caps what
            # it counts walks the halves beyond the second halves' depth last (``_deep``)
            defer = self.prunes and split and floor_of is None and (summed or self._capped())
            frontier: list[Entry] = []
            # (a walk with per-half floors after a rising walk of the same kind: that walk's
            # tree and rows, its halves beyond the second halves' depth walked on here)
            kept = self.reuse.pop(t, None) if self.reuse is not None and self.prunes and not defer else None
            root: Entry
            rows: _Rows | None
            # (a kept tree's halves that gave no route in the earlier walk, by the floor they
            # had there: ``_Rows.empty_at``; read by the later walk, written by the earlier)
            skip_at: list[int | None] | None = None
            empty_at: list[int | None] | None = None
            if kept is not None:
                root, halves, frontier, lim, rows = kept
                if _SKIP_EMPTY and rows.empty_slack == slack:
                    skip_at = rows.empty_at
                if self._capped():  # (what ``_subtree_best`` tells ``_wanted`` of this tree)
                    self._uncounted, self._split = rows.uncounted, rows.split
                if self.local:
                    yield root, None, ()
            else:
                root = (None, t, None, m0, st0, self._add_v(zero, self.value(t)), -1, 0, (t,), -1, [],
                        self.clash_bits(t), sp0, -1)
                if self.local:
                    yield root, None, ()
                halves = []
                lim = sp0 + room // 2 if defer else None
                self._extend(root, banned | {t}, halves, lim, frontier)
                # the subtrees' rows only matter when a floor prunes
                rows = self._subtree_best(root, halves, sp0 + room // 2 if split else None) if self.prunes else None
                if self.keep_trees is not None and not self.exhausted and rows is not None:
                    self.keep_trees[t] = (root, halves, frontier, lim, rows)
                    rows.empty_at = empty_at = [None] * len(halves)
                    rows.empty_slack = slack
            through = not self.board.blocks(t, self.corp)
            tlinks = self.klinks(t)
            versions = rows.versions if rows is not None else None
            ctx = _Start(t, root, rows, through, tlinks, sp0, room, split, summed, slack, zero)
            if rows is not None and self.bonus is not None:
                ctx.sub = sub = self.bonus.subtree_bits(halves, sp0 + room // 2 if split else None)
                for k in root[KIDS]:
                    ctx.reach |= sub[k[IDX]]
            if rows is None and through and self.bit_joins and self.meter.join is not None:
                ctx.bits = BitJoin(self, root, halves, sp0 + room // 2 if split else None)
            if ctx.bits is not None:
                yield from self._bit_routes(halves, ctx)
                banned.add(t)
                continue
            floors = [0] * len(halves) if floor_of is not None else []
            half_routes = self._half_routes
            # (a kept tree cut at ``lim``: its frontier halves are walked on in place)
            walk_on = {id(e) for e in frontier} if kept is not None and lim is not None else None
            if defer and self.probe is not None:
                # the halves with the best stop values joined first, their routes judged (not
                # listed: the walk lists them in their turn), for a floor from a real run
                probe = self.probe
                assert versions is not None
                for h in sorted(halves, key=self._stop_sum, reverse=True)[:_PROBE_HALVES]:
                    got = half_routes(h, self.floor, versions[h[IDX]], ctx)
                    if got:
                        probe(got)
            for h in halves:
                floor = self.floor
                f = 0
                if floor_of is not None and floor is not None:
                    # a half's floor from the track of its first links (its ancestor's, deeper)
                    f = floor_of(h[MASK]) if h[DEPTH] <= _FLOOR_DEPTH else floors[h[PARENT][IDX]]
                    floors[h[IDX]] = f
                    floor = max(floor, f)
                self.cur_floor = floor
                v = versions[h[IDX]] if versions is not None else 0
                # a half that gave no route under a floor gives none under a floor as high (its
                # sides and second halves are pruned by the floor alone, everything else the same)
                e1 = skip_at[h[IDX]] if skip_at is not None else None
                skip = e1 is not None and floor is not None and floor >= e1
                got = () if skip else half_routes(h, floor, v, ctx)
                if got:
                    yield from got
                elif empty_at is not None and floor is not None:
                    empty_at[h[IDX]] = floor
                if walk_on is not None and id(h) in walk_on:
                    yield from self._grown(h, set(h[NODES]) | banned, v, f, ctx)
            if defer:
                # the halves beyond the second halves' depth, walked now that the floor has risen:
                # a half none of whose routes can reach it is not walked on
                assert rows is not None and versions is not None
                for e in frontier:
                    yield from self._deep(e, set(e[NODES]) | banned, versions[e[IDX]], ctx)
            banned.add(t)

    def _stop_sum(self, h: Entry) -> int:
        """The sum of a half's stop values (the best ``pay`` of them where only those pay)."""
        vals = h[VALS]
        return vals if self.pay is None else sum(vals)

    def _grown(self, e: Entry, used_nodes: set[RevenueCenter], version: int, f: int, c: _Start) -> Iterator[Found]:
        """Walk on from a kept tree's frontier half ``e`` (see ``reuse``) in the order a whole
        walk lists the halves, each taken as a first half at once (``_half_routes``) with its
        own floor (``floor_of``, its ancestor's deeper; ``f``: ``e``'s); a half none of whose
        routes can reach the walk's floor (``_beyond``) is left out with all beyond it (its
        routes are all below every half's floor)."""
        if not self._tick():
            return
        hub_bit = c.rows.hub_bit  # type: ignore[union-attr]  # (kept trees have rows)
        slack = c.slack
        bonus = self.bonus
        nbonus = len(bonus.nodes) if bonus is not None else 0
        every = (1 << nbonus) - 1
        floor_of = self.floor_of
        base = self.floor
        pay = self.pay
        rest = self._visit_rest(slack)
        # (the children as ``_children`` makes them, inlined: one call per step saved)
        vals = e[VALS]
        depth = e[DEPTH] + 1
        nodes = e[NODES]
        for li, n, paths, mask, st, sp, val, clash, ends, first in self._steps(e, used_nodes):
            h: Entry = (e, n, paths, mask, st, vals + val if pay is None else self._add_v(vals, val), first,
                        depth, nodes + (n,), li, None, clash, sp, -1)
            floor = base
            fh = f
            if floor_of is not None and base is not None:
                fh = floor_of(h[MASK]) if h[DEPTH] <= _FLOOR_DEPTH else f
                floor = max(base, fh)
            if base is not None:
                if bonus is not None:
                    if self._beyond(h) + bonus(every, weakest_paid(h[VALS], pay)) < base:
                        continue
                else:
                    on = set(h[NODES])
                    b = self._beyond(h, on)
                    if b + slack < base or (b + rest < base and self._visit_beyond(h, b, on) + slack < base):
                        continue
            v = version | hub_bit.get(n, 0)
            self.cur_floor = floor
            got = self._half_routes(h, floor, v, c)
            if got:
                yield from got
            if not ends:
                used_nodes.add(n)
                yield from self._grown(h, used_nodes, v, fh, c)
                used_nodes.discard(n)

    def _bit_routes(self, halves: list[Entry], c: _Start) -> Iterator[Found]:
        """``_half_routes`` for every half of a start's tree when no floor prunes: the
        second halves come from bitsets (``c.bits``)."""
        free = self.free
        tlinks = c.tlinks
        sp0 = c.sp0
        room = c.room
        split = c.split
        bits = c.bits
        assert bits is not None  # (this start's halves are joined by bitsets)
        index = bits.index
        conflicts = bits.conflicts
        tick = self._tick
        # what each ancestor of the current half conflicts with, by depth (halves come in
        # tree order: a half's parent is the last half one level up)
        ancestors = [0] * (max((h[DEPTH] for h in halves), default=0) + 1)
        for h in halves:
            d = h[DEPTH]
            cf = ancestors[d] = conflicts(h, ancestors[d - 1])
            if free is not None and free(h[NODE]):
                if h[DEPTH] == 1:
                    yield h, None, ()  # two stops: the shorter one is no route
                continue
            yield h, None, ()
            if tlinks[h[FIRST]][3]:
                continue
            # (the split convention of ``_half_routes``)
            if split:
                s_h = h[SPENT] - sp0
                left = room - s_h
                most = min(s_h, left)
                if most < 0:
                    continue
                back = min(s_h - 1, left)
                sides: tuple[tuple[int, int | None], ...] = (
                    ((1, most + sp0), (-1, back + sp0)) if back >= 0 else ((1, most + sp0),))
            else:
                sides = ((1, None),)
            if tick():
                idx = index(h, sides, cf)
                if idx:
                    yield h, bits, idx

    def _half_routes(self, h: Entry, floor: int | None, version: int, c: _Start,
                     slack: int | None = None) -> tuple[Found, ...]:
        """The routes with first half ``h`` (and ``h`` alone) from start ``c.t``: the second
        halves are joined on the tree (see ``routes``); ``slack``: what the bound may add to
        these routes' stop values (None: ``c.slack``). Made at once (a tuple, not a generator:
        most halves give none or one, and the call is made for every half); nothing in it
        reads the floor as it rises while the routes are taken."""
        # (whether ``h`` ends at a free stop: as its link told, ``klinks``, without a hook call)
        if self.free is not None and self._free_at[h[NODE]]:
            return ((h, None, ()),) if h[DEPTH] == 1 else ()  # (two stops: the shorter one is no route)
        rows = c.rows
        prunes = rows is not None and floor is not None
        bonus = self.bonus if prunes else None
        if slack is None:
            slack = c.slack
        hb = wk = 0
        if bonus is not None:
            # the bonus stops of ``h`` and the least paid value of a route holding it
            hb = bonus.path_bits(h[NODES])
            wk = weakest_paid(h[VALS], self.pay)
            slack = bonus(hb, wk)
        # (mypy does not narrow ``rows`` and ``floor`` through ``prunes``: the ignores below)
        alone = not prunes or (h[VALS] if c.summed else sum(h[VALS])) + slack >= floor  # type: ignore[operator]
        if not c.through:
            return ((h, None, ()),) if alone else ()
        first = h[FIRST]
        if c.tlinks[first][3]:
            return ((h, None, ()),) if alone else ()
        # the second half spends no more of the meter than the first (less when its first
        # link comes before the first half's): each route is found once, and the second
        # halves are walked only as deep as the first half went. Which sides may lift the
        # route to the floor depends only on (floor, stop values, meter state, version,
        # first link): memoised
        sp0 = c.sp0
        sub = c.sub
        if bonus is not None and sub is not None:
            # the second halves reach at most the bonus stops of the whole tree
            slack = bonus(hb | c.reach, wk)
        key = (floor, h[VALS], h[STATE], version, first, slack) if prunes else None
        sides = c.plans.get(key) if prunes else None
        if sides is None:
            sides = []
            if c.split:
                s_h = h[SPENT] - sp0
                left = c.room - s_h
                options: tuple[tuple[int, int | None], ...] = ((1, min(s_h, left)), (-1, min(s_h - 1, left)))
            else:
                options = ((1, None),)
            for side, most in options:
                if most is not None and most < 0:
                    continue
                want = None
                if prunes:
                    want = self._wanted(h, most, floor, slack)  # type: ignore[arg-type]
                    if not self._passes(rows.beside(version, side)[first], *want):  # type: ignore[union-attr]
                        continue
                sides.append((side, None if most is None else most + sp0, want))  # (spent as the tree counts it)
            if prunes:
                c.plans[key] = sides
        if not sides:
            return ((h, None, ()),) if alone else ()
        other: list[Entry] = []
        joined = (None, c.t, None, h[MASK], h[STATE], c.zero, first, 0, (c.t,), -1, None, h[CLASH], 0, -1)
        used_nodes = set(h[NODES])
        for side, most, want in sides:
            want_of = keeps = None
            table = None
            if want is not None and want[3]:
                # capped rows: the subtrees' two rows made one for the meter this side leaves
                table = rows.joined(version, want[1])  # type: ignore[union-attr]
                want = _flat(want)
            elif prunes:
                table = rows.table(version)  # type: ignore[union-attr]
            if bonus is not None and sub is not None and want is not None:
                # a subtree's want from the bonus stops its second halves can reach; a route
                # kept by the slack of its own bonus stops
                want_of = self._want_of(h, None if most is None else most - sp0, floor, hb, wk)  # type: ignore[arg-type]
                keeps = self._keeps(h, floor, hb)  # type: ignore[arg-type]
            self._join(joined, c.root, used_nodes, other, want, table, side, most, want_of, sub, hb, keeps)
        if other:
            return ((h, None, ()), (h, ListJoin(other), ())) if alone else ((h, ListJoin(other), ()),)
        return ((h, None, ()),) if alone else ()

    def _beyond(self, e: Entry, on: set[RevenueCenter] | None = None) -> int:
        """An upper bound of the stop values of any route whose first half starts with ``e``:
        ``e``'s values and, for what the meter has left, the board's best counted stop values
        and its uncounted ones (every one worth something, or where only the best stops pay
        as many of the best), of the stops not on ``e`` (no route visits a stop twice).
        Stops that end every walk into them (``_end_stops``: an offboard, a city blocked to
        the company) are only a route's ends: of those not on ``e``, no more than two of each
        list are taken, one when ``e`` itself ends at such a stop (it is then the first
        half's end: only the second half's end is left). ``on``: ``e``'s stops as a set, if
        the caller has made it."""
        cap = self.meter.capacity
        assert cap is not None
        left = cap - e[SPENT]
        counted, uncounted = self._stops if self._stops is not None else self._board_stops()
        end_stops = self._end_stops
        classes = self._stop_class
        if on is None:
            on = set(e[NODES])  # (a route visits none of them again)
        ends = 1 if e[NODE] in end_stops else 2
        pay = self.pay
        if pay is None:
            # every stop pays: also every uncounted stop worth something, not on ``e`` (the
            # meter does not limit how many a route visits: hex edges, stops it passes free)
            total = 0
            k = left
            if k > 0:
                free_ends = ends
                taken = e[CLASH]
                for v, n in counted:
                    if n not in on:
                        cls = classes.get(n, 0)
                        if cls & taken:
                            continue
                        if n in end_stops:
                            if not free_ends:
                                continue
                            free_ends -= 1
                        taken |= cls
                        total += v
                        k -= 1
                        if not k:
                            break
            vals: int = e[VALS]
            paid = self._uncounted_paid()
            return vals + total + paid[None] - sum(paid.get(n, 0) for n in on)
        # only the best ``pay`` stops pay: no more than that many of the best counted stops
        # the meter has room for, and as many of the best uncounted stops, none on ``e``
        # (both loops of ``_best_off``, inlined: asked for every half of a rising walk)
        pool = [*e[VALS]]
        add = pool.append
        k = left if left < pay else pay
        if k > 0:
            free_ends = ends
            taken = e[CLASH]
            for v, n in counted:
                if n not in on:
                    cls = classes.get(n, 0)
                    if cls & taken:
                        continue
                    if n in end_stops:
                        if not free_ends:
                            continue
                        free_ends -= 1
                    taken |= cls
                    add(v)
                    k -= 1
                    if not k:
                        break
        k = pay
        free_ends = ends
        taken = e[CLASH]
        for v, n in uncounted:
            if n not in on:
                cls = classes.get(n, 0)
                if cls & taken:
                    continue
                if n in end_stops:
                    if not free_ends:
                        continue
                    free_ends -= 1
                taken |= cls
                add(v)
                k -= 1
                if not k:
                    break
        pool.sort(reverse=True)
        return sum(pool[:pay])

    def _visit_rest(self, slack: int) -> int:
        """The part of ``slack`` any route may take, the visit bonus (``visit``) aside (the
        whole ``slack`` when the bonus is unknown or not within it)."""
        if self.visit is None or self.bonus is not None or not 0 < self.visit[0] <= slack:
            return slack
        return slack - self.visit[0]

    def _visit_groups(self) -> list[tuple[RevenueCenter | None, int, bool, frozenset[RevenueCenter]]]:
        """The visit bonus's groups (``visit``) as (the group's best stop, its value, whether
        the meter counts every stop of the group, the group's stops)."""
        if self._visit is None:
            assert self.visit is not None
            counts = self.meter.counted
            value = self.value
            out: list[tuple[RevenueCenter | None, int, bool, frozenset[RevenueCenter]]] = []
            for g in self.visit[1]:
                best = max(g, key=value, default=None)
                out.append((best, value(best) if best is not None else 0, all(counts(n) for n in g), g))
            self._visit = out
        return self._visit

    def _visit_beyond(self, e: Entry, b: int, on: set[RevenueCenter] | None = None) -> int:
        """As ``_beyond``, for the routes through ``e`` that take the visit bonus (``visit``):
        each group no stop of ``e`` is in takes a stop of it (worth at most the group's best,
        a counted one spending the meter, its best left to that slot), in place of the best
        other stops; a large negative number when no such route exists. The groups are taken
        pairwise disjoint (a title's word: ``router_visit_bonus``). ``b``: ``_beyond(e)``,
        the answer when ``e`` holds a stop of every group; ``on``: ``e``'s stops as a set, if
        the caller has made it (not changed here)."""
        groups = self._visit_groups()
        if on is None:
            on = set(e[NODES])
        forced: list[int] = []
        skip: list[RevenueCenter] = []
        counts = 0
        for best, v, all_counted, g in groups:
            if g.isdisjoint(on):
                if best is None:
                    return _NONE_BOUND  # an empty group: the bonus is never paid
                forced.append(v)
                skip.append(best)
                if all_counted:
                    counts += 1
        if not forced:
            return b
        cap = self.meter.capacity
        assert cap is not None
        left = cap - e[SPENT] - counts
        if left < 0:
            return _NONE_BOUND  # the meter has no room for the groups' stops
        on = on.union(skip)  # (the others: neither on ``e`` nor a group's best)
        counted, uncounted = self._stops if self._stops is not None else self._board_stops()
        pay = self.pay
        if pay is None:
            paid = self._uncounted_paid()
            vals: int = e[VALS]
            return (vals + sum(forced) + sum(_best_off(counted, on, left)) + paid[None]
                    - sum(paid.get(n, 0) for n in on))
        pool = [*e[VALS], *forced]
        pool += _best_off(counted, on, left if left < pay else pay)
        pool += _best_off(uncounted, on, pay)
        pool.sort(reverse=True)
        return sum(pool[:pay])

    def _uncounted_paid(self) -> dict[Any, int]:
        """The board's uncounted stops worth something, by stop, and (under None) their sum."""
        if self._paid is None:
            paid: dict[Any, int] = {n: v for v, n in self._board_stops()[1] if v > 0}
            paid[None] = sum(paid.values())
            self._paid = paid
        return self._paid

    def _board_stops(self) -> tuple[list[tuple[int, Any]], list[tuple[int, Any]]]:
        """(the board's counted stops, its uncounted ones, each as (value, stop), best first)."""
        if self._stops is None:
            counted: list[tuple[int, Any]] = []
            uncounted: list[tuple[int, Any]] = []
            counts = self.meter.counted
            value = self.value
            for _hx, tile in self.board.tiles():
                for n in tile.nodes:
                    (counted if counts(n) else uncounted).append((value(n), n))
            counted.sort(key=itemgetter(0), reverse=True)
            uncounted.sort(key=itemgetter(0), reverse=True)
            self._stops = (counted, uncounted)
            # the stops every walk ends at (``klinks``: the board blocks the company there)
            if _STOP_LIMITS:
                blocks = self.board.blocks
                corp = self.corp
                self._end_stops = frozenset(n for _v, n in counted + uncounted if blocks(n, corp))
                self._stop_class = _stop_classes([n for _v, n in counted + uncounted], self.clash_bits,
                                                 self._end_stops)
        return self._stops

    def _deep(self, e: Entry, used_nodes: set[RevenueCenter], version: int, c: _Start) -> Iterator[Found]:
        """Walk on from the frontier half ``e`` (see ``_extend``), each half taken as a first
        half at once (``_half_routes``) so the floor rises as the walk goes; a half none of
        whose routes can reach the floor (``_beyond``) is left out with all beyond it."""
        if not self._tick():
            return
        hub_bit = c.rows.hub_bit  # type: ignore[union-attr]  # (rows are built when halves are deferred)
        slack = c.slack
        bonus = self.bonus
        nbonus = len(bonus.nodes) if bonus is not None else 0
        every = (1 << nbonus) - 1
        pay = self.pay
        beyond = self._beyond
        half_routes = self._half_routes
        rest = self._visit_rest(slack)
        # (the children as ``_children`` makes them, inlined: one call per step saved)
        vals = e[VALS]
        depth = e[DEPTH] + 1
        nodes = e[NODES]
        for li, n, paths, mask, st, sp, val, clash, ends, first in self._steps(e, used_nodes):
            h: Entry = (e, n, paths, mask, st, vals + val if pay is None else self._add_v(vals, val), first,
                        depth, nodes + (n,), li, None, clash, sp, -1)
            floor = self.floor
            s_h = slack
            if floor is not None:
                if bonus is not None:
                    if beyond(h) + bonus(every, weakest_paid(h[VALS], pay)) < floor:
                        continue
                else:
                    on = set(h[NODES])
                    b = beyond(h, on)
                    if b + slack < floor:
                        continue
                    if rest != slack and self._visit_beyond(h, b, on) + slack < floor:
                        # no route through ``h`` taking the visit bonus reaches the floor
                        if b + rest < floor:
                            continue
                        s_h = rest
            v = version | hub_bit.get(n, 0)
            got = half_routes(h, floor, v, c, s_h)
            if got:
                yield from got
            if not ends:
                used_nodes.add(n)
                yield from self._deep(h, used_nodes, v, c)
                used_nodes.discard(n)

    def merged(self, hv: Any, ov: Any) -> Any:
        """The stop values of a route from its two halves' values (``ov`` of the other half
        without the start's)."""
        if self.pay is None:
            return hv + ov
        if not ov:
            return hv
        key = (hv, ov)
        got = self._merged.get(key)
        if got is None:
            got = self._merged[key] = tuple(sorted(hv + ov, reverse=True)[:self.pay])
        return got


_NONE_BOUND = -(1 << 40)  # a bound below every floor: no route of that kind exists


def _stop_classes(stops: list[RevenueCenter], clash_bits: Callable[[RevenueCenter], int],
                  end_stops: frozenset[RevenueCenter]) -> dict[RevenueCenter, int]:
    """The clash bit (``clash_bits``: no two stops of a route share one) of each stop that has
    exactly one, where the stops of that bit are all in ``end_stops`` or none is: no route
    holds two stops of one class. With these the classes and ``end_stops`` form a laminar
    family (each class within ``end_stops`` or apart from it), so taking the best stops in
    order, each class at most once and ``end_stops`` at most so many times, gives stop values
    at least those of any route's, place by place (``_beyond``). Stops of several bits, and
    those of a bit shared across the two kinds, are left without a class (a looser bound:
    a class is then some of its bit's stops, still at most one of them on a route)."""
    by_bit: dict[int, list[RevenueCenter]] = {}
    for n in stops:
        b = clash_bits(n)
        if b and not b & (b - 1):
            by_bit.setdefault(b, []).append(n)
    out: dict[RevenueCenter, int] = {}
    for b, ns in by_bit.items():
        inside = sum(1 for n in ns if n in end_stops)
        if inside and inside != len(ns):
            continue
        for n in ns:
            out[n] = b
    return out


def _best_off(stops: list[tuple[int, Any]], on: set[RevenueCenter], k: int) -> list[int]:
    """The ``k`` best values of ``stops`` ((value, stop), best first) whose stop is not in ``on``."""
    out: list[int] = []
    if k <= 0:
        return out
    for v, n in stops:
        if n not in on:
            out.append(v)
            if len(out) == k:
                break
    return out


def evaluate_alone(rules: RouteRules, train: Train, nodes: Sequence[RevenueCenter], segs: Sequence[Seg],
                   phase: PhaseTrack | None = None, chain_cache: dict[Any, Any] | None = None) -> int | None:
    """The value of one route run alone: the title's ``router_bound`` (an upper bound of what
    it can add to a run) or its checked revenue; None when it can never be run."""
    r = build_route(rules, train, nodes, segs, None, phase, chain_cache)
    try:
        return rules.router_bound(r)
    except GameError:
        return None
