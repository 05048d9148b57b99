"""Writing games in the 18xx.games log format, so they load there and here."""

from __future__ import annotations

import time

# hints our legal-action lists add for bots; not part of the 18xx.games action format
LOCAL_KEYS = {"price_range", "price_step", "canonical_prices"}


def game_to_log(game, game_id=None, created_at: int | None = None) -> dict:
    """The game as an 18xx.games log. ``created_at`` is the log's time stamp (seconds): the
    moment of the export unless given; it is bookkeeping, never read by the rules here, and a
    caller that wants the same game to give the same bytes passes it (or drops the key)."""
    actions = []
    for i, a in enumerate(game.actions, start=1):
        a = {k: v for k, v in a.items() if k not in LOCAL_KEYS}
        a.setdefault("id", i)
        actions.append(a)
    log = {
        "id": game_id if game_id is not None else (game.game_id if game.game_id is not None else "trackage"),
        "title": game.TITLE,
        "players": [{"id": p.id, "name": p.name} for p in game.seats],
        "settings": {"seed": game.seed, "optional_rules": list(game.raw_options)},
        "actions": actions,
        "status": "finished" if game.finished else "active",
        "created_at": int(time.time()) if created_at is None else created_at,
    }
    if game.finished:
        log["result"] = game.result()
        log["game_end_reason"] = game.game_end_reason
    return log
