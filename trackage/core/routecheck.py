"""Routes proposed by hand, checked without playing them: stops named by their nodes (or a
hex with one stop), the track between consecutive stops found on the board, and each route
checked and priced by the very function a ``run_routes`` action goes through
(:func:`trackage.core.routes.evaluate_routes`); a refused route says the rule and why in words.

Nothing in the game changes: a check only reads the board and the trains.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from .errors import GameError
from .graph import walk_path
from .routes import chain_id, evaluate_routes, node_chains, routes_from_log, rules_for

if TYPE_CHECKING:
    from .game import Game
    from .tiles import Path, RevenueCenter
    from .trains import Train

#: the rules a route is refused by, in words (``{train}``: its name, ``{distance}``: its reach)
REASONS: dict[str, str] = {
    "route-too-short": "a route visits at least 2 stops",
    "route-too-long": "a {train}-train visits at most {distance} stops",
    "route-no-token": "the route must start at (or pass) a token of the company",
    "route-reuses-city": "the route visits the same city twice",
    "route-overlap": "the route uses the same track twice (or track another train runs on)",
    "route-not-connected": "the route's track is not connected",
    "route-terminal": "the route cannot pass through a terminal (an off-board area ends a route)",
    "route-group": "the route visits two stops of a group that counts once",
    "train-operated": "this train already ran this operating round",
    "unknown-train": "the company has no such train to run",
    "unknown-stop": "there is no stop there",
    "ambiguous-stop": "the hex has several stops: click the city itself",
    "route-no-track": "no track joins these two stops (without reusing track)",
    "route-passes-stops": "the track between these two stops passes other stops: click them too",
    "bad-route": "the route cannot be priced",
}


def reason_for(rule: str, message: str, train: Train | None) -> str:
    """The words for ``rule`` (the engine's message when the rule has none)."""
    words = REASONS.get(rule)
    if words is None:
        return message
    distance = getattr(train, "distance", None) if train is not None else None
    if "{distance}" in words and not isinstance(distance, int):
        words = "the route has more stops than a {train}-train may visit"
    name = str(getattr(train, "name", "")) if train is not None else ""
    return words.format(train=name, distance=distance)


class Refused(GameError):
    """A proposed route that cannot even be drawn (an unknown stop, no track between two);
    ``reason``: the words for the player when the rule's own are not enough, ``between``:
    the stops to click between two that no track joins directly, at index ``insert_at`` of
    the route's stops."""

    def __init__(self, message: str, rule: str, reason: str | None = None,
                 between: Sequence[RevenueCenter] = (), insert_at: int = 0) -> None:
        super().__init__(message, rule=rule)
        self.reason = reason
        self.between = list(between)
        self.insert_at = insert_at


#: how many stops the check looks for between two clicked ones that no track joins directly
MAX_BETWEEN = 6


def stop_name(node: RevenueCenter) -> str:
    """A stop in words: its place name and hex ("Tver (G5)"), else its hex."""
    name = str(getattr(node.hex, "location_name", "") or "")
    return f"{name} ({node.hex.id})" if name else str(node.hex.id)


def stop_json(node: RevenueCenter) -> dict[str, str]:
    """A stop as the page names it: its node, hex and place name."""
    return {"node": node.signature, "hex": node.hex.id, "name": str(getattr(node.hex, "location_name", "") or "")}


def next_stops(game: Game, node: RevenueCenter, skip: str | None, used: set[Path]) -> list[RevenueCenter]:
    """The stops one stretch of track from ``node`` (reusing none of ``used``) ends at."""
    found: list[RevenueCenter] = []

    def visit(path: Path, _visited: object, _counter: object, _conv: object) -> None:
        for n in path.nodes:
            if n is not node and n not in found:
                found.append(n)

    for sp in node.paths:
        walk_path(sp, visit, board=game.board, skip_paths=used, skip_track=skip)
    return found


def stops_between(game: Game, a: RevenueCenter, b: RevenueCenter, skip: str | None,
                  used: set[Path]) -> list[RevenueCenter]:
    """The fewest stops the track from ``a`` to ``b`` passes (at most ``MAX_BETWEEN``; a
    terminal, an off-board area, is never passed); empty when there is no such track."""
    came: dict[RevenueCenter, RevenueCenter | None] = {a: None}
    frontier = [a]
    for _ in range(MAX_BETWEEN + 1):
        nxt: list[RevenueCenter] = []
        for n in frontier:
            if n is not a and getattr(n, "is_offboard", False):
                continue
            for m in next_stops(game, n, skip, used):
                if m in came:
                    continue
                came[m] = n
                if m is b:
                    out: list[RevenueCenter] = []
                    back = came[b]
                    while back is not None and back is not a:
                        out.append(back)
                        back = came[back]
                    return out[::-1]
                nxt.append(m)
        frontier = nxt
    return []


def find_stop(game: Game, ref: str) -> RevenueCenter:
    """The node ``ref`` names: a signature ``"<hex>-<index>"`` or a hex with a single stop."""
    board = game.board
    hx = board.hex_by_id(ref)
    if hx is not None:
        nodes = [n for n in board.tile(hx).nodes if not getattr(n, "hidden", False)]
        if len(nodes) == 1:
            return nodes[0]
        rule = "ambiguous-stop" if nodes else "unknown-stop"
        raise Refused(f"{ref} has {len(nodes)} stops", rule=rule)
    hex_id = ref.rpartition("-")[0]
    hx = board.hex_by_id(hex_id) if hex_id else None
    if hx is not None:
        for n in board.tile(hx).nodes:
            if n.signature == ref:
                return n
    raise Refused(f"no stop {ref!r}", rule="unknown-stop")


def connections_between(game: Game, train: Train, stops: Sequence[RevenueCenter],
                        used: set[Path]) -> list[list[str]]:
    """The logged ``connections`` of a route through ``stops`` in order: between each two,
    the shortest chain of track that reuses none of ``used`` (which it then joins)."""
    rules = rules_for(game)
    skip = rules.skip_route_track_type(train)
    out: list[list[str]] = []
    for i, (a, b) in enumerate(pairwise(stops)):
        if a is b:
            raise Refused(f"{a.hex.id} twice in a row", rule="route-reuses-city")
        chain = next((c for c in node_chains(a, b, skip, board=game.board) if used.isdisjoint(c.paths)), None)
        if chain is None:
            between = stops_between(game, a, b, skip, used)
            if between:
                names = " and ".join(stop_name(n) for n in between)
                raise Refused(f"the track from {a.hex.id} to {b.hex.id} passes {names}", rule="route-passes-stops",
                              reason=f"click {names} between {stop_name(a)} and {stop_name(b)}: "
                                     "a route stops at every stop on its way", between=between, insert_at=i + 1)
            raise Refused(f"no track from {a.hex.id} to {b.hex.id}", rule="route-no-track")
        used.update(chain.paths)
        out.append(chain_id(chain.paths))
    return out


def _refusal(e: GameError, train: Train | None) -> dict[str, Any]:
    rule = e.rule or "bad-route"
    out: dict[str, Any] = {"ok": False, "revenue": None, "rule": rule, "message": str(e),
                           "reason": reason_for(rule, str(e), train)}
    if isinstance(e, Refused):
        out["reason"] = e.reason or out["reason"]
        if e.between:
            out["between"] = [stop_json(n) for n in e.between]
            out["insert_at"] = e.insert_at
    return out


def _priced(game: Game, entity: Any, d: dict[str, Any]) -> dict[str, Any]:
    """One route alone: its revenue, stops and logged form, or why it is refused."""
    trains = {t.id: t for t in game.route_trains(entity)}
    train = trains.get(d["train"])
    try:
        [ran] = evaluate_routes(game, entity, [d], {"type": "run_routes"})
        [route] = routes_from_log(rules_for(game), [d], trains)
        logged = route.to_log()
    except GameError as e:
        return _refusal(e, train)
    stops = [stop_json(s) for s in route.stops]
    return {"ok": True, "revenue": ran["revenue"], "stops": stops, "route": logged}


def check_routes(game: Game, entity: Any, proposed: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Check ``entity``'s proposed run: per train ``{"train", "stops": [node refs]}`` (or
    logged ``connections``). Answers ``{"routes": [...], "ok", "total", "routes_action"}``:
    each route ``{"train", "ok", "revenue", "stops", "route"}`` or ``{"ok": False, "rule",
    "reason", "message"}``; the whole run refused by a rule between routes carries it too."""
    trains = {t.id: t for t in game.route_trains(entity)}
    used: set[Path] = set()
    dicts: list[dict[str, Any] | None] = []
    results: list[dict[str, Any]] = []
    for p in proposed:
        tid = str(p.get("train"))
        train = trains.get(tid)
        try:
            if train is None:
                raise GameError(f"{getattr(entity, 'name', entity)} has no train {tid!r} to run",
                                rule="unknown-train")
            if p.get("connections") is not None:
                conns = [[str(h) for h in c] for c in p["connections"]]
            else:
                stops = [find_stop(game, str(s)) for s in p.get("stops") or ()]
                if len(stops) < 2:
                    raise GameError("a route needs 2 stops", rule="route-too-short")
                conns = connections_between(game, train, stops, used)
        except GameError as e:
            dicts.append(None)
            results.append({"train": tid, **_refusal(e, train)})
            continue
        d = {"train": tid, "connections": conns}
        dicts.append(d)
        results.append({"train": tid, **_priced(game, entity, d)})
    whole: dict[str, Any] = {"ok": all(r["ok"] for r in results)}
    chosen = [d for d in dicts if d is not None]
    if whole["ok"] and chosen:
        try:
            ran = evaluate_routes(game, entity, chosen, {"type": "run_routes"})
            for r, done in zip(results, ran, strict=True):
                r["revenue"] = done["revenue"]
        except GameError as err:  # a rule between the routes (shared track, ...): on the first breaking it
            last = len(chosen) - 1
            for i in range(2, len(chosen)):
                try:
                    evaluate_routes(game, entity, chosen[:i], {"type": "run_routes"})
                except GameError:
                    last = i - 1
                    break
            tid = chosen[last]["train"]
            whole = _refusal(err, trains.get(tid))
            next(r for r in results if r["train"] == tid).update(whole)
    total = sum(r["revenue"] for r in results if r["ok"] and whole["ok"])
    if whole["ok"] and chosen:
        total += game.run_extra_revenue(entity, [r["route"] for r in results])
    return {"routes": results, **whole, "total": total,
            "routes_action": [r["route"] for r in results] if whole["ok"] else None}
