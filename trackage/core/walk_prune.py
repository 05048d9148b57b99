"""Pruning a corporation's graph walk: the test whether a branch can still find anything.

A converging walk (whose marks vanish when it returns) would walk every branch again and
again, exponentially, the way the reference does. What it finds is only ever a path of its
reach not seen yet, so a branch from which none of those can be reached any more is cut.
The test (:meth:`Targets.hopeless`) is a search that honours the walk's restrictions now
(paths on the walk, edges crossed, junctions passed, nodes entered) but not those the branch
would add itself: it never cuts a branch that could find something, so the walk finds the
same paths, in the same order, as without it.

The search is the walk's inner loop. What makes it cheap:

* a *witness*: when a search finds a path still to find, the chain of steps leading there is
  kept for every step on it. Asked again from one of them, the chain is checked step by step
  against the walk's restrictions now; while it holds, the answer is known without a search
  (the answer is whether such a chain exists, so it is the same answer);
* a *dead end*: when a search finds nothing, what stopped it is kept: the paths it could not
  enter and the nodes it could not pass. Asked again from the same state while all of them
  still stop it, the search could only reach less than before, and the paths still to find
  are fewer than before, so it would find nothing again;
* the track each path continues on (lanes and gauge matched at each edge) is worked out once
  per walk, not in every search.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Hashable, Mapping
from typing import TYPE_CHECKING, TypeAlias

__all__ = ["NO_LANE", "Targets", "gauge_ok", "lanes_ok"]

if TYPE_CHECKING:
    from .entities import Corporation, Minor
    from .hexmap import Hex
    from .tiles import NodeBase, Path, Placed

    Entity: TypeAlias = Corporation | Minor

Counter: TypeAlias = "dict[Hashable, int]"  # edge crossings and junction passes on the walk
# a state of the search: a path and the edge it was entered through (None: from a node or a
# junction, so every edge of it leads on)
State: TypeAlias = "tuple[Path, int | None]"
# one step of a witness chain: the state reached and the node passed on the way (None: the
# step crossed an edge or a junction)
Step: TypeAlias = "tuple[Path, int | None, NodeBase | None]"
# per path: for each of its edges, the edge number and the paths beyond it (with the edge
# they are entered through) that lanes and gauge let the track continue on
Onward: TypeAlias = "tuple[tuple[int, tuple[tuple[Path, int], ...]], ...]"

NO_LANE = (1, 0)  # the lane of an edge of plain (single-lane) track


def lanes_ok(l0: tuple[int, int] | None, l1: tuple[int, int] | None) -> bool:
    """Do lanes ``l0`` and ``l1`` (``(width, index)``) meet across an edge?"""
    if l0 is None or l1 is None:
        return False
    w0 = l0[0]
    if w0 == l1[0]:
        return l1[1] == w0 - l0[1] - 1
    small, big = (l0, l1) if tuple(l0) < tuple(l1) else (l1, l0)
    return small[1] + (big[0] - small[0]) // 2 == big[0] - big[1] - 1


def gauge_ok(track: str, other: str) -> bool:
    """May a train on ``track`` go on to ``other`` track?"""
    if track == "broad":
        return other == "broad" or other == "dual"
    if track == "narrow":
        return other == "narrow" or other == "dual"
    return track == "dual"


class Targets:
    """What a corporation's graph walk from one token has still to find: the paths of its
    reach (an over-approximation) not seen yet (``left``, shrinking as the walk finds them),
    and the test whether a branch can still reach any of them."""

    __slots__ = ("_dead", "_onward", "_witness", "blocks", "corp", "left", "links", "nodes", "skip_paths", "skip_track",
                 "tile_at")

    def __init__(self, left: set[Path], corp: Entity | None, blocks: Callable[[NodeBase, Entity], bool],
                 skip_track: str | None, skip_paths: Container[Path] | None, links: Mapping[str, Mapping[int, Hex]],
                 tile_at: Mapping[str, Placed]):
        self.left = left
        self.nodes: dict[NodeBase, bool] = {}  # the nodes on the walk now (set by the node walk)
        self.corp = corp
        self.blocks = blocks
        self.skip_track = skip_track
        self.skip_paths = skip_paths
        self.links = links
        self.tile_at = tile_at
        self._onward: dict[Path, Onward] = {}
        # state -> (a chain of steps from it to a path that was still to find, the index of
        # the state's own step in it)
        self._witness: dict[State, tuple[list[Step], int]] = {}
        # state -> what stopped a search from it that found nothing: the paths it could not
        # enter, the nodes on the walk it could not pass
        self._dead: dict[State, tuple[list[Path], list[NodeBase]]] = {}

    def onward(self, path: Path) -> Onward:
        """The paths the track of ``path`` continues on beyond each of its edges (the board
        does not change during a walk, so this is worked out once per path)."""
        got = self._onward.get(path)
        if got is not None:
            return got
        hid = path.hex.id
        neighbours = self.links[hid]
        out: list[tuple[int, tuple[tuple[Path, int], ...]]] = []
        for e in path.edges:
            nb = neighbours.get(e.num)
            if nb is None:
                continue
            np_edge = (e.num + 3) % 6
            beyond: list[tuple[Path, int]] = []
            for np in self.tile_at[nb.id]._view.by_edge.get(np_edge, ()):
                if e.lanes != NO_LANE or np.exit_lanes.get(np_edge) != NO_LANE:
                    if not lanes_ok(e.lanes, np.exit_lanes.get(np_edge)):
                        continue
                if not path.ignore_gauge_walk and not gauge_ok(path.track, np.track):
                    continue
                beyond.append((np, np_edge))
            out.append((e.num, tuple(beyond)))
        got = self._onward[path] = tuple(out)
        return got

    def _open(self, q: Path, visited: dict[Path, bool], counter: Counter) -> bool:
        """May the walk, as it is now, enter ``q``?"""
        if q in visited or q.track == self.skip_track or (self.skip_paths and q in self.skip_paths):
            return False
        j = q.junction
        if j is not None and (q.terminal or counter.get(j, 0) > 1):
            return False
        hid = q.hex.id
        for e in q.edges:
            if counter.get((hid, e.num, e.lanes[1]), 0) > 0:
                return False
        return True

    def _holds(self, chain: list[Step], at: int, visited: dict[Path, bool], counter: Counter) -> bool:
        """Does the witness ``chain`` from its step ``at`` still lead to a path to find, under
        the walk's restrictions now?"""
        if chain[-1][0] not in self.left:
            return False
        nodes = self.nodes
        for i in range(at + 1, len(chain)):
            q, _entry, via = chain[i]
            if via is not None and via in nodes:
                return False
            if not self._open(q, visited, counter):
                return False
        return True

    def _still_dead(self, closed: list[Path], passed: list[NodeBase], visited: dict[Path, bool],
                    counter: Counter) -> bool:
        """Does all that stopped a search that found nothing stop it still?"""
        nodes = self.nodes
        for n in passed:
            if n not in nodes:
                return False
        for q in closed:
            if self._open(q, visited, counter):
                return False
        return True

    def _remember(self, parent: dict[State, tuple[State, NodeBase | None] | None], found: State) -> None:
        """Keep the chain of steps that led the search to ``found``, for each of its states."""
        chain: list[Step] = []
        state: State = found
        while True:
            came = parent[state]
            chain.append((state[0], state[1], None if came is None else came[1]))
            if came is None:
                break
            state = came[0]
        chain.reverse()
        witness = self._witness
        for i, (q, entry, _via) in enumerate(chain):
            witness[(q, entry)] = (chain, i)

    def hopeless(self, path: Path, skip: int | None, visited: dict[Path, bool], counter: Counter) -> bool:
        """Can no path still to find be reached by walking on from ``path`` (entered through
        edge ``skip``) under the restrictions the walk has now?"""
        left = self.left
        if path in left:
            return False
        start: State = (path, skip)
        known = self._witness.get(start)
        if known is not None and self._holds(known[0], known[1], visited, counter):
            return False
        dead = self._dead.get(start)
        if dead is not None and self._still_dead(dead[0], dead[1], visited, counter):
            return True
        nodes, corp, blocks = self.nodes, self.corp, self.blocks
        skip_track, skip_paths = self.skip_track, self.skip_paths
        count = counter.get
        onward = self.onward
        closed: list[Path] = []  # what stops this search (see _dead)
        passed: list[NodeBase] = []
        # a path reached through one edge may leave through the others: (path, entry) states,
        # each with the state it was reached from and the node passed on the way
        parent: dict[State, tuple[State, NodeBase | None] | None] = {start: None}
        todo: list[State] = [start]
        nxt: State
        while todo:
            state = todo.pop()
            q, entry = state
            # (each state reached is tried with :meth:`_open`'s test inline: may the walk, as it
            # is now, enter its path?)
            for num, beyond in onward(q):
                if num == entry:
                    continue
                for nxt in beyond:
                    over = nxt[0]
                    if nxt not in parent:
                        parent[nxt] = (state, None)
                        if over in visited or over.track == skip_track or (skip_paths and over in skip_paths):
                            closed.append(over)
                            continue
                        jn = over.junction
                        if jn is not None and (over.terminal or count(jn, 0) > 1):
                            closed.append(over)
                            continue
                        hid = over.hex.id
                        for e in over.edges:
                            if count((hid, e.num, e.lanes[1]), 0) > 0:
                                break
                        else:
                            if over in left:
                                self._remember(parent, nxt)
                                return False
                            todo.append(nxt)
                            continue
                        closed.append(over)
            j = q.junction
            if j is not None:
                for np in j.paths:
                    nxt = (np, None)
                    if nxt not in parent:
                        parent[nxt] = (state, None)
                        if np in visited or np.track == skip_track or (skip_paths and np in skip_paths):
                            closed.append(np)
                            continue
                        jn = np.junction
                        if jn is not None and (np.terminal or count(jn, 0) > 1):
                            closed.append(np)
                            continue
                        hid = np.hex.id
                        for e in np.edges:
                            if count((hid, e.num, e.lanes[1]), 0) > 0:
                                break
                        else:
                            if np in left:
                                self._remember(parent, nxt)
                                return False
                            todo.append(nxt)
                            continue
                        closed.append(np)
            if not q.terminal:
                for n in q.nodes:
                    if n in nodes:
                        passed.append(n)
                        continue
                    if corp is not None and blocks(n, corp):
                        continue
                    for np in n.paths:
                        if np.ignore:
                            continue
                        nxt = (np, None)
                        if nxt not in parent:
                            parent[nxt] = (state, n)
                            if np in visited or np.track == skip_track or (skip_paths and np in skip_paths):
                                closed.append(np)
                                continue
                            jn = np.junction
                            if jn is not None and (np.terminal or count(jn, 0) > 1):
                                closed.append(np)
                                continue
                            hid = np.hex.id
                            for e in np.edges:
                                if count((hid, e.num, e.lanes[1]), 0) > 0:
                                    break
                            else:
                                if np in left:
                                    self._remember(parent, nxt)
                                    return False
                                todo.append(nxt)
                                continue
                            closed.append(np)
        self._dead[start] = (closed, passed)
        return True
