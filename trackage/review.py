"""A review no one else has: for every run of a log, what the company earned against what
the exact router proves it could have earned in the same state (``trackage review``).

One replay of the log: just before each ``run_routes`` action the router is asked, on the game
as it stands (it reads the game and changes nothing), for the best run of the acting company
within a work limit. The logged revenue is what the game computed for that action: the sum of
the journal's ``run`` events at it. Everything returned is plain data (dicts, lists, ints,
strings), ready for JSON.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict

from .core.errors import GameError, TrackageError
from .core.journal import round_label
from .core.log import filter_actions, load_log
from .replay import game_from_log

if TYPE_CHECKING:
    from .core.game import Game

#: the ``by_player`` key of runs made by a company without a president (receivership)
NO_PRESIDENT = "(no president)"


class RunReview(TypedDict):
    """One logged run against the router's best for the same state."""

    action: int  # the run_routes action's id
    round: str  # ``OR 3.2``
    corporation: str  # the company's id
    president: str | None  # the president's name then; None: no president
    logged: int  # the sum of the run's routes as the game computed it
    best: int | None  # the router's best revenue; None: the router failed (see ``note``)
    left: int  # best - logged, never below 0
    proven: bool  # the router proved ``best`` optimal within its work limit
    confirmed: bool  # our rules give the logged routes the logged revenue (the replay did not warn)
    note: str | None  # why ``best`` is missing or below ``logged``; None: nothing to say


class Totals(TypedDict):
    runs: int
    improved: int  # runs whose best exceeds the logged revenue
    unproven: int  # runs the router could not prove within its work limit
    logged: int
    best: int
    left: int


class Review(TypedDict):
    title: str
    work_limit: int
    runs: list[RunReview]
    by_company: dict[str, Totals]
    by_player: dict[str, Totals]
    total: Totals
    problems: list[str]  # runs whose proven best is below a confirmed logged revenue, failures
    unconfirmed: list[str]  # runs whose logged revenue our rules do not give the logged routes


class _Pending(TypedDict):
    action: int
    round: str
    corporation: str
    president: str | None
    best: int | None
    proven: bool
    note: str | None


def logged_revenues(game: Game) -> dict[int, int]:
    """The revenue of each run, by the id of its ``run_routes`` action: the sum of the
    journal's ``run`` events at that action."""
    out: dict[int, int] = {}
    for e in game.journal.of_kind("run"):
        out[e.action] = out.get(e.action, 0) + int(e["revenue"] or 0)
    return out


#: the review's work limit per run: a review wants a proof behind every best and may spend
#: seconds on a run (a lone 7E on 1858's late map walks ~76,000 steps), where live play's
#: suggestion keeps to the title's ``ROUTER_WORK``
REVIEW_WORK = 200_000


def review_limit(game: Game, work_limit: int | None = None) -> int:
    """The router's work limit per reviewed run: ``work_limit`` when given."""
    return max(REVIEW_WORK, game.ROUTER_WORK) if work_limit is None else work_limit


def review_runs(data: dict[str, Any], work_limit: int | None = None) -> tuple[list[RunReview], Game]:
    """Every ``run_routes`` of log ``data`` reviewed, in log order, and the replayed game.

    ``work_limit``: the router's work limit per run (default: :data:`REVIEW_WORK`, or the
    title's ``ROUTER_WORK`` when that is higher).
    A log that does not replay raises :class:`TrackageError` naming the failing action."""
    from .router import optimal_routes

    actions = filter_actions(data["actions"])
    game = game_from_log(data)
    limit = review_limit(game, work_limit)
    pending: list[_Pending] = []
    applied = [0]
    seen = [0]  # the game's warnings so far
    warned: dict[int, list[str]] = {}  # a run's id -> what the replay warned about it

    def ask(g: Game, action: dict[str, Any]) -> None:
        entity = g.index.resolve(action)
        player = getattr(entity, "player", None)
        best: int | None = None
        proven = False
        note: str | None = None
        try:
            result = optimal_routes(g, entity, work_limit=limit)
            best, proven = result.revenue, result.optimal
            if not proven:
                note = f"not proven within the work limit ({limit})"
        except (GameError, TrackageError) as e:
            note = f"the router failed: {e}"
        pending.append({"action": int(action["id"]), "round": round_label(g), "corporation": str(entity.id),
                        "president": None if player is None else str(player.name),
                        "best": best, "proven": proven, "note": note})

    def on_action(g: Game, action: dict[str, Any]) -> None:
        if len(g.warnings) > seen[0] and action.get("type") == "run_routes":
            warned[int(action["id"])] = [str(w) for w in g.warnings[seen[0]:]]
        seen[0] = len(g.warnings)
        applied[0] += 1
        k = applied[0]
        if k < len(actions) and actions[k].get("type") == "run_routes" and not g.finished:
            ask(g, actions[k])

    try:
        if actions and actions[0].get("type") == "run_routes":
            ask(game, actions[0])
        game.load(actions, trace=on_action)
    except (GameError, TrackageError) as e:
        a = actions[applied[0]] if applied[0] < len(actions) else {}
        raise TrackageError(f"the log does not replay: action {a.get('id')} ({a.get('type')}) failed: "
                            f"{type(e).__name__}: {e}") from e
    logged = logged_revenues(game)
    runs: list[RunReview] = []
    for p in pending:
        got = logged.get(p["action"], 0)
        best = p["best"]
        note = p["note"]
        if best is not None and best < got:
            note = (f"the router's best {best} is below the logged {got}"
                    + ("" if p["proven"] else " (not proven)"))
        if p["action"] in warned:  # the game took the log's revenue, which our rules do not confirm
            note = ("" if note is None else note + "; ") + ("the log's revenue is not confirmed by our rules: "
                                                            + "; ".join(warned[p["action"]]))
        left = max(0, best - got) if best is not None else 0
        runs.append({"action": p["action"], "round": p["round"], "corporation": p["corporation"],
                     "president": p["president"], "logged": got, "best": best, "left": left,
                     "proven": p["proven"], "confirmed": p["action"] not in warned, "note": note})
    return runs, game


def _zero() -> Totals:
    return {"runs": 0, "improved": 0, "unproven": 0, "logged": 0, "best": 0, "left": 0}


def _add(t: Totals, r: RunReview) -> None:
    t["runs"] += 1
    t["improved"] += 1 if r["left"] > 0 else 0
    t["unproven"] += 0 if r["proven"] else 1
    t["logged"] += r["logged"]
    t["best"] += r["logged"] if r["best"] is None else max(r["best"], r["logged"])
    t["left"] += r["left"]


def totals(runs: list[RunReview]) -> Totals:
    """The runs summed: how many, improved, unproven; logged, best (never below the logged
    revenue of a run) and left on the table."""
    t = _zero()
    for r in runs:
        _add(t, r)
    return t


def by_company(runs: list[RunReview]) -> dict[str, Totals]:
    """The runs summed per company (by its id), in the order companies first ran."""
    out: dict[str, Totals] = {}
    for r in runs:
        _add(out.setdefault(r["corporation"], _zero()), r)
    return out


def by_player(runs: list[RunReview]) -> dict[str, Totals]:
    """The runs summed per president at the time (by name; ``NO_PRESIDENT`` for none)."""
    out: dict[str, Totals] = {}
    for r in runs:
        _add(out.setdefault(r["president"] or NO_PRESIDENT, _zero()), r)
    return out


def _line(r: RunReview) -> str:
    return f"action {r['action']} ({r['corporation']}, {r['round']}): {r['note']}"


def problems(runs: list[RunReview]) -> list[str]:
    """What a reader must check: router failures, and proven bests below a logged revenue
    that our rules confirm (a router that misses a legal run)."""
    return [_line(r) for r in runs
            if r["best"] is None or (r["best"] < r["logged"] and r["proven"] and r["confirmed"])]


def unconfirmed(runs: list[RunReview]) -> list[str]:
    """Runs whose logged revenue our rules do not give the logged routes (the replay took the
    log's figure and warned): a log made under older rules, such as 1822's E-train routes
    that now must start and end at tokened cities. A best below such a revenue is no router
    fault; the run is listed here with the replay's warning."""
    return [_line(r) for r in runs if not r["confirmed"]]


def review(path_or_data: str | Path | dict[str, Any], work_limit: int | None = None) -> Review:
    """The review of a log (a file or its parsed data): every run, sums per company, per
    player and in all, and the problems found."""
    data = path_or_data if isinstance(path_or_data, dict) else load_log(path_or_data)
    runs, game = review_runs(data, work_limit)
    return {"title": str(game.TITLE), "work_limit": review_limit(game, work_limit),
            "runs": runs, "by_company": by_company(runs), "by_player": by_player(runs), "total": totals(runs),
            "problems": problems(runs), "unconfirmed": unconfirmed(runs)}
