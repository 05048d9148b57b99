"""The best run of a lone train that pays its best stops, searched over paid stop sets.

A train like 1867/1861's 5+5E pays its ``pay`` best stops (the stops of its paying row's
kinds always, the rest filled from the other stops, one of them tokened) and may visit any
number of others: its routes cross the whole map, and the walk of every route is far too
long. Its revenue depends on which stops pay, not on the path between them, so the search
goes over *paid sets* instead:

- the candidate stops (reachable from the starts, worth something, or of a paying kind) are
  ordered by worth (value plus a lone stop's bonus); every set of at most ``pay`` of them is
  generated in falling order of its summed worth (a heap, from the best set by shifting a
  stop to the next one or dropping it);
- a set's upper bound is the title's route bound of a route visiting exactly that set (no
  more than its worth plus the bound slack); sets are taken in falling order of bound, and
  a set bounded above the best run found is tried: a depth-first search for a legal route
  through all its stops (and a start when none of them is one), visiting no other stop of a
  paying kind, pruned by reachability on the unused track;
- the first route found through a set is priced by the title: it earns at least the set's
  price (the set is among the combinations it may pay). The search ends when the best run
  found is at least every remaining set's bound: it is then the best run (every route's
  revenue is the price of its paid set, bounded by that set's bound, and a route through a
  set, cut to the span of its set and a start, is legal and pays at least as much).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError
from .candidates import build_route
from .meter import TypedMeter

if TYPE_CHECKING:
    from ..core.routes import Route, RouteRules
    from ..core.tiles import RevenueCenter
    from ..core.trains import Train
    from .candidates import Enumerator, Seg

_BUDGET = 300_000  # DFS steps in all before the walk is used instead
# sets generated before the walk is used instead: many sets bounded above the best run while
# few are tried (a bound slack that is one constant, no per-part slack) is the walk's ground
_SETS = 4_000


class SetStats:
    """What a set search did: sets generated, sets tried (a feasibility search each), DFS
    steps, routes priced, parts (pairs, triples) probed."""

    def __init__(self) -> None:
        self.generated = 0
        self.tried = 0
        self.steps = 0
        self.priced = 0
        self.parts = 0


#: the most stops a train may pay for the set search to be asked: the sets grow with it, and a
#: long train's walk is short (1861's lone 8 train: 0.08 s walked, 0.11 s searched by sets;
#: the national's 5+5E: 12 s walked, 0.006 s searched)
SET_SEARCH_MAX_PAY = 6


def set_search_applies(train: Train, pay: int | None, en: Enumerator, hook: Any, base_hook: Any, run_bonus: Any,
                       free: Any) -> bool:
    """Does the set search fit this lone train: it pays its ``pay`` best stops (one paying row
    of some kinds, any number of other stops on rows that pay nothing), with a known bound
    slack and no base bound, run bonus, free stops or local runs."""
    d = train.distance
    if pay is None or isinstance(d, (int, float)) or en.slack is None or base_hook is not None:
        return False
    if run_bonus is not None or free is not None or en.local or not isinstance(en.meter, TypedMeter):
        return False
    paying = [r for r in d if int(r.get("pay") or 0) > 0]
    others = [r for r in d if not int(r.get("pay") or 0)]
    if len(paying) != 1 or not others:
        return False
    if pay > SET_SEARCH_MAX_PAY:
        return False
    paid_kinds = set(paying[0]["nodes"])
    return all(int(r.get("visit") or 0) >= 99 and not paid_kinds & set(r["nodes"]) for r in others)


class SetSearch:
    """See the module's docstring. ``price(nodes, segs)``: the title's checked revenue of the
    route (None: the rules refuse it)."""

    def __init__(self, en: Enumerator, pay: int, value: Callable[[RevenueCenter], int],
                 hook: Callable[..., int] | None, slack: int,
                 price: Callable[[list[RevenueCenter], list[Seg]], int | None]):
        self.en = en
        self.pay = pay
        self.value = value
        self.hook = hook
        self.slack = slack
        self.price = price
        self.stats = SetStats()
        self.best = 0
        self.best_route: tuple[list[RevenueCenter], list[Seg]] | None = None
        self.starts = frozenset(en.starts)
        meter = en.meter
        self.counted: Callable[[RevenueCenter], bool] = meter.counted  # stops of a paying kind
        self.out_of_budget = False
        self._end_only: dict[RevenueCenter, bool] = {}
        self._parts: dict[tuple[frozenset[RevenueCenter], frozenset[RevenueCenter]], bool] = {}  # ``part_ok``
        self._probe = False  # a part's search: a route found is not priced
        self._adj_memo: dict[RevenueCenter, list[tuple[RevenueCenter, int, bool]]] = {}
        self._counted: frozenset[RevenueCenter] = frozenset()  # reachable stops of a paying kind
        self._end_set: frozenset[RevenueCenter] = frozenset()  # reachable stops that end a route (not starts)

    def bound(self, stops: Sequence[RevenueCenter]) -> int:
        base = sum(self.value(s) for s in stops)
        if self.hook is None:
            return base
        return int(self.hook(lambda: tuple(stops), base, 0))

    def end_only(self, n: RevenueCenter) -> bool:
        """A stop no route can pass (blocked, or every way out is a terminal path)."""
        got = self._end_only.get(n)
        if got is None:
            kl = self.en.klinks(n)
            got = self.en.board.blocks(n, self.en.corp) or all(k[3] for k in kl)
            self._end_only[n] = got
        return got

    def _adj(self, x: RevenueCenter) -> list[tuple[RevenueCenter, int, bool]]:
        """``x``'s links a route may take (none passes a terminal): (next stop, track bits,
        leaves by a terminal path)."""
        got = self._adj_memo.get(x)
        if got is None:
            got = self._adj_memo[x] = [(k[0], k[2], bool(k[3])) for k in self.en.klinks(x) if not k[4]]
        return got

    def reachable(self) -> list[RevenueCenter]:
        """Every stop some route from a start can reach (ignoring track conflicts), in walk order."""
        seen: dict[RevenueCenter, None] = {}
        frontier = list(self.en.starts)
        for s in frontier:
            seen[s] = None
        while frontier:
            u = frontier.pop()
            if u not in self.starts and self.end_only(u):
                continue
            for k in self.en.klinks(u):
                n = k[0]
                if n not in seen and not k[4]:
                    seen[n] = None
                    frontier.append(n)
        return list(seen)

    def run(self) -> bool:
        """Search; True when the best run is proven (False: out of budget)."""
        reach = self.reachable()
        self._counted = frozenset(s for s in reach if self.counted(s))
        self._end_set = frozenset(s for s in reach if s not in self.starts and self.end_only(s))
        relevant = frozenset(getattr(self.hook, "relevant", ()) or ())
        bonus = self.en.bonus
        bonus_nodes = frozenset(bonus.nodes) if bonus is not None else frozenset()
        # the bonus stops apart (each subset's slack from the title), the others by value
        extra = [s for s in reach if s in bonus_nodes]
        plain = [s for s in reach if s not in bonus_nodes
                 and (self.value(s) > 0 or self.counted(s) or s in relevant or s in self.starts)]
        plain.sort(key=lambda s: -self.value(s))  # (stable: reach order on ties)
        pay = self.pay
        starts = self.starts
        # a paid set holds a start unless it is ``pay`` stops of a paying kind: each set is
        # made once, from its best start (``anchor``: the others of ``rest`` rank after it),
        # or with a start among its bonus stops, or of paying-kind stops alone
        rests: list[tuple[RevenueCenter | None, list[RevenueCenter], list[int]]] = []
        for ia, a in enumerate(plain):
            if a in starts:
                rest = [x for ix, x in enumerate(plain) if ix != ia and not (x in starts and ix < ia)]
                rests.append((a, rest, [self.value(x) for x in rest]))
        anyone = (None, plain, [self.value(x) for x in plain])
        paying = [x for x in plain if x in self._counted]
        only_paying = (None, paying, [self.value(x) for x in paying])
        heap: list[tuple[int, int, int, Any]] = []  # (-bound, order, generator or -1, combination or set)
        # generators: (stops always in, their values and slack, the stops to choose from, their
        # values, combinations seen)
        gens: list[tuple[tuple[RevenueCenter, ...], int, list[RevenueCenter], list[int], set[tuple[int, ...]]]] = []
        order = 0
        for size in range(min(pay, len(extra)) + 1):
            for part in itertools.combinations(extra, size):
                clash = 0
                for x in part:
                    cb = self.en.clash_bits(x)
                    if cb & clash:
                        break
                    clash |= cb
                else:
                    slack = bonus(bonus.path_bits(part), 0) if bonus is not None else self.slack
                    base = sum(self.value(x) for x in part) + slack
                    choices: list[tuple[tuple[RevenueCenter, ...], list[RevenueCenter], list[int], bool]] = []
                    if starts.intersection(part):
                        choices.append((part, anyone[1], anyone[2], False))
                    else:
                        choices.extend(((*part, a), rest, rv, False) for a, rest, rv in rests if a is not None)
                        if all(x in self._counted for x in part):
                            choices.append((part, only_paying[1], only_paying[2], True))
                    for fixed, rest, rv, full in choices:
                        fbase = base + sum(self.value(x) for x in fixed[len(part):])
                        room = pay - len(fixed)
                        for k in ([room] if full else range(room + 1)):
                            if k > len(rest):
                                continue
                            comb = tuple(range(k))
                            gens.append((fixed, fbase, rest, rv, {comb}))
                            heapq.heappush(heap, (-(fbase + sum(rv[:k])), order, len(gens) - 1, comb))
                            order += 1
        while heap:
            nb, _o, g, item = heapq.heappop(heap)
            if -nb <= self.best:
                return True  # every set left is bounded by the best run
            if g < 0:  # a set, its exact bound known
                self.try_set(list(item))
                if self.out_of_budget:
                    return False
                continue
            fixed, _base, rest, rv, seen = gens[g]
            comb = item
            n = len(rest)
            self.stats.generated += 1
            if self.stats.generated > _SETS:
                self.out_of_budget = True
                return False
            key = -nb
            for q in range(len(comb)):
                nxt = comb[q] + 1
                if nxt < n and (q + 1 == len(comb) or comb[q + 1] != nxt):
                    c = comb[:q] + (nxt,) + comb[q + 1:]
                    if c not in seen:
                        seen.add(c)
                        heapq.heappush(heap, (-(key - rv[comb[q]] + rv[nxt]), order, g, c))
                        order += 1
            chosen = list(fixed) + [rest[i] for i in comb]
            if not chosen:
                continue
            if not self.well_formed(chosen):
                continue
            b = min(self.bound(chosen), key)
            if b > self.best:
                heapq.heappush(heap, (-b, order, -1, tuple(chosen)))
                order += 1
        return True

    def well_formed(self, chosen: list[RevenueCenter]) -> bool:
        """No two stops sharing a clash bit (a group, a hex), at most ``pay`` of a paying kind,
        at most two that end a route."""
        clash = 0
        ends = 0
        for s in chosen:
            cb = self.en.clash_bits(s)
            if cb & clash:
                return False
            clash |= cb
            if s not in self.starts and self.end_only(s):
                ends += 1
        return ends <= 2

    def part_ok(self, part: tuple[RevenueCenter, ...], whole: list[RevenueCenter]) -> bool:
        """Can one route visit every stop of ``part`` (and a start)? (Found once per part, by
        the same search without pricing: a set holding a part no route visits is skipped.)"""
        # (the route may pass the set's other paying-kind stops: only those outside it are barred)
        key = (frozenset(part), frozenset(x for x in whole if x in self._counted))
        got = self._parts.get(key)
        if got is None:
            self._probe = True
            try:
                got = self._route_through(list(part), whole)
            finally:
                self._probe = False
            self._parts[key] = got
            self.stats.parts += 1
        return got

    def try_set(self, chosen: list[RevenueCenter]) -> None:
        """Look for a legal route through ``chosen`` (and a start); price the first found.
        Its pairs, then its triples, are tried first (each once per search)."""
        for size in (2, 3):
            if len(chosen) <= size:
                break
            for part in itertools.combinations(chosen, size):
                if not self.part_ok(part, chosen) or self.out_of_budget:
                    return
        self.stats.tried += 1
        self._route_through(chosen, chosen)

    def _route_through(self, chosen: list[RevenueCenter], whole: list[RevenueCenter]) -> bool:
        """Search for a route through ``chosen`` and a start (priced unless probing)."""
        need = set(chosen)
        token = not (need & self.starts)
        ends = [s for s in chosen if self.end_only(s)]
        # a route cut to the span of the set (and a start) ends at two of its stops when it
        # holds a start: one root may be left out; an end-only stop is an end
        roots = ends[:1] if ends else (chosen[:-1] if not token and len(chosen) > 1 else chosen)
        for root in roots:
            if self._dfs_from(root, need, token, frozenset(whole)):
                return True
            if self.out_of_budget:
                return False
        return False

    def _dfs_from(self, root: RevenueCenter, need: set[RevenueCenter], token: bool,
                  whole: frozenset[RevenueCenter]) -> bool:
        """A route from ``root`` through ``need`` (and a start if ``token``), visiting no stop
        of a paying kind outside ``whole``."""
        en = self.en
        meter = en.meter
        st0 = meter.begin(root)
        if st0 is None:
            return False
        m0 = 0
        if en.conflict is not None:
            for key in en.conflict((), root):
                m0 |= en.key_bit(key)
        nodes = [root]
        segs: list[Seg] = []
        visited = {root}
        left = set(need)
        left.discard(root)
        tok = token and root not in self.starts
        stats = self.stats

        starts = self.starts
        end_only = self._end_set
        adj = self._adj
        barred = self._counted - whole  # stops of a paying kind outside the set: never visited

        def reach_ok(u: RevenueCenter, used: int) -> bool:
            # every stop still needed (and a start, if still needed) reachable from ``u`` on
            # track not used, through stops not visited that a route may pass
            if len(end_only.intersection(left)) > 1:
                return False  # the route has one end left
            want = len(left)
            got_tok = not tok_left[0]
            seen = {u}
            frontier = [u]
            first = True
            while frontier:
                x = frontier.pop()
                for y, m, bad_first in adj(x):
                    if y in seen or y in visited or m & used or y in barred or (bad_first and not first):
                        continue
                    seen.add(y)
                    if y in left:
                        want -= 1
                    if y in starts:
                        got_tok = True
                    if want == 0 and got_tok:
                        return True
                    if y not in end_only:
                        frontier.append(y)
                first = False
            return want == 0 and got_tok

        def dfs(u: RevenueCenter, used: int, clash: int, state: Any, inner: bool) -> bool:
            stats.steps += 1
            if stats.steps > _BUDGET:
                self.out_of_budget = True
                return False
            if not left and not tok_left[0]:
                if self._probe:
                    return True
                v = self.price(list(nodes), list(segs))
                stats.priced += 1
                if v is not None:
                    if v > self.best:
                        self.best = v
                        self.best_route = (list(nodes), list(segs))
                    return True
                return False
            if inner and self.end_only(u):
                return False
            if not reach_ok(u, used):
                return False
            steps = []
            for kl in en.klinks(u):
                y, paths, m, bad_first, bad_mid, ends, cb, _val, _free = kl
                if inner and bad_first:
                    continue
                if m & used or bad_mid or cb & clash or y in visited:
                    continue
                if y in barred:
                    continue
                st = meter.step(state, y, paths)
                if st is None:
                    continue
                steps.append((0 if y in left else 1, y, paths, m, cb, ends, st))
            steps.sort(key=lambda t: t[0])
            for _pri, y, paths, m, cb, ends, st in steps:
                nodes.append(y)
                segs.append((u, paths))
                visited.add(y)
                was_left = y in left
                left.discard(y)
                was_tok = tok_left[0]
                if y in self.starts:
                    tok_left[0] = False
                done = not left and not tok_left[0]
                ok = False
                if done or not ends:
                    ok = dfs(y, used | m, clash | cb, st, True)
                tok_left[0] = was_tok
                if was_left:
                    left.add(y)
                visited.discard(y)
                segs.pop()
                nodes.pop()
                if ok or self.out_of_budget:
                    return ok
            return False

        tok_left = [tok]
        return dfs(root, m0, en.clash_bits(root), st0, False)


def priced_by(rules: RouteRules, train: Train, chain_cache: dict[Any, Any]
              ) -> Callable[[list[RevenueCenter], list[Seg]], int | None]:
    """``price(nodes, segs)``: the title's revenue of a lone train's route (None: refused)."""

    def price(nodes: list[RevenueCenter], segs: list[Seg]) -> int | None:
        routes: list[Route] = []
        build_route(rules, train, nodes, segs, routes, None, chain_cache)
        try:
            return sum(r.revenue(recompute=True) for r in routes)
        except GameError:
            return None

    return price
