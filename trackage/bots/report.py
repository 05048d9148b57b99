"""A tournament's summary as a table (rich)."""

from __future__ import annotations

from typing import Any

from rich.table import Table


def summary_table(result: dict[str, Any]) -> Table:
    failed = result.get("failed", 0)
    caption = f", {failed} failed (games {', '.join(map(str, result.get('failed_games', [])))})" if failed else ""
    distinct = result.get("distinct_games", result["games"])
    table = Table(title=f"{result['title']}: {result['games']} games ({distinct} distinct){caption}")
    for col in ("bot", "seat-games", "wins", "win share", "95% interval", "mean rank", "mean margin", "rating"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for b in result["bots"]:
        lo, hi = b["ci95"]
        table.add_row(b["bot"], str(b["seat_games"]), f"{b['wins']:g}", f"{b['win_share']:.3f}",
                      f"{lo:.3f}–{hi:.3f}", f"{b['mean_rank']:.2f}", f"{b['mean_margin']:+.1f}",
                      f"{b['rating']:.2f} ± {b['sigma']:.2f}")
    return table
