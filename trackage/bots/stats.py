"""A tournament's figures per bot: win share with its 95% Wilson interval, mean rank, mean score
margin and an OpenSkill (Plackett-Luce) rating, from the games' records in game order."""

from __future__ import annotations

import math
from typing import Any

Z95 = 1.959963984540054  # the normal quantile of 0.975


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (shared wins count as fractions)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def ratings(records: list[dict[str, Any]]) -> dict[str, tuple[float, float]]:
    """(mu, sigma) per bot name after rating the games in order with OpenSkill's Plackett-Luce
    model. Each seat is a team of one; a name in several seats of a game rates as each of them,
    its new rating the mean of their updates (mirror games then leave it where it was)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: dict[str, Any] = {}
    for rec in records:
        seating: list[str] = rec["seating"]
        for name in seating:
            if name not in current:
                current[name] = model.rating(name=name)
        teams = [[model.rating(mu=current[n].mu, sigma=current[n].sigma, name=n)] for n in seating]
        rated = model.rate(teams, ranks=[float(r) for r in rec["ranks"]])
        for name in set(seating):
            seats = [i for i, n in enumerate(seating) if n == name]
            mu = sum(rated[i][0].mu for i in seats) / len(seats)
            sigma = sum(rated[i][0].sigma for i in seats) / len(seats)
            current[name] = model.rating(mu=mu, sigma=sigma, name=name)
    return {n: (r.mu, r.sigma) for n, r in current.items()}


def summary(title: str, records: list[dict[str, Any]]) -> dict[str, Any]:
    """The tournament's result: per distinct bot name (in order of first seating) its seat-games,
    wins, win share, 95% interval, mean rank, mean margin and rating (mu; sigma beside it), over
    the games that ended; the games that raised (a line with ``error``) are counted as failed
    (``failed``, their indices in ``failed_games``) and count for no bot. ``distinct_games``
    counts the games that ended once per distinct ``actions_hash`` (a line without one counts
    as a game of its own)."""
    failed = sorted(r["game"] for r in records if "error" in r)
    records = sorted((r for r in records if "error" not in r), key=lambda r: r["game"])
    names: list[str] = []
    for rec in records:
        for n in rec["seating"]:
            if n not in names:
                names.append(n)
    rated = ratings(records)
    bots = []
    for name in names:
        seat_games = 0
        wins = 0.0
        rank_sum = 0
        margin_sum = 0
        for rec in records:
            for i, n in enumerate(rec["seating"]):
                if n == name:
                    seat_games += 1
                    wins += rec["wins"][i]
                    rank_sum += rec["ranks"][i]
                    margin_sum += rec["margins"][i]
        lo, hi = wilson(wins, seat_games)
        mu, sigma = rated[name]
        bots.append({"bot": name, "seat_games": seat_games, "wins": round(wins, 6),
                     "win_share": round(wins / seat_games, 6) if seat_games else 0.0,
                     "ci95": [round(lo, 6), round(hi, 6)],
                     "mean_rank": round(rank_sum / seat_games, 6) if seat_games else 0.0,
                     "mean_margin": round(margin_sum / seat_games, 6) if seat_games else 0.0,
                     "rating": round(mu, 6), "sigma": round(sigma, 6)})
    distinct = len({r.get("actions_hash") or f"game {r['game']}" for r in records})
    return {"title": title, "games": len(records), "distinct_games": distinct, "failed": len(failed),
            "failed_games": failed, "bots": bots}
