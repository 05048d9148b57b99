"""The game's trains, phases and rules in effect, as plain data read from the engine: the train
roster (each kind's price, how many are left in the depot, in the open market, owned, gone,
and what rusts or obsoletes it), the phase table (the current phase marked), the certificate
limit, the optional rules and units in effect by name, the title's game-end conditions and,
at the end, why it ended and the bank as broken."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from .. import story
from .optiontext import option_text

#: a game-end condition as it is said before it happens (``GAME_END_CHECK``'s reasons)
END_CONDITIONS = MappingProxyType({
    "bank": "the bank breaks", "stock_market": "a share price reaches the top of the market",
    "final_phase": "the last phase begins", "final_train": "the last train is bought",
    "bankrupt": "a player goes bankrupt"})

#: when the game ends after its condition (``GAME_END_CHECK``'s timings)
END_TIMINGS = MappingProxyType({
    "immediate": "the game ends at once", "current_round": "the game ends with the current round",
    "current_or": "the game ends with the current operating round",
    "full_or": "the game ends after the current set of operating rounds",
    "one_more_full_or_set": "the game ends after one more full set of operating rounds"})


def trains(game: Any) -> list[dict[str, Any]]:
    """Each kind of train in the title's order: its names (variants too), prices, the counts
    (``left`` in the depot, ``market``: in the open market, ``owned``, ``gone``: rusted or
    removed; they add up to ``total``), whether it is unlimited, and when it rusts or becomes
    obsolete (the train whose purchase does it) and when it can be bought (a phase)."""
    depot = game.depot
    upcoming, discarded = set(map(id, depot.upcoming)), set(map(id, depot.discarded))
    kinds: dict[str, list[Any]] = {}
    for t in depot.trains:
        kinds.setdefault(t.base, []).append(t)
    out = []
    for spec in game.data.get("trains", []):
        ts = kinds.get(spec["name"], [])
        num = spec.get("num", 1)
        if not ts and not (isinstance(num, int) and num > 0):
            continue  # a kind this game does not use (1825's trains of units not in play)
        variants = [spec, *({**spec, **v} for v in spec.get("variants", []))]
        left = sum(1 for t in ts if id(t) in upcoming)
        market = sum(1 for t in ts if id(t) in discarded)
        owned = sum(1 for t in ts if t.owner is not None and t.owner is not depot and not t.rusted)
        total = max(len(ts), num) if isinstance(num, int) else len(ts)  # a title may take trains out of the depot
        out.append({
            "name": "/".join(str(v["name"]) for v in variants),
            "price": " / ".join(story.money(game, int(v["price"])) for v in variants),
            "unlimited": num == "unlimited", "total": total, "left": left, "market": market, "owned": owned,
            "gone": total - left - market - owned,
            "rusts_on": spec.get("rusts_on"), "obsolete_on": spec.get("obsolete_on"),
            "available_on": spec.get("available_on"),
            "next": bool(depot.upcoming) and depot.upcoming[0].base == spec["name"],
        })
    return out


def _limit(limit: Any) -> str:
    if isinstance(limit, dict):
        return ", ".join(f"{k} {v}" for k, v in limit.items())
    return "" if limit is None else str(limit)


def phases(game: Any) -> list[dict[str, Any]]:
    """Each phase: its name, the train that starts it, its tile colours, train limit and
    operating rounds per set; exactly one ``current``."""
    out = []
    for i, p in enumerate(game.phase.phases):
        on = p.get("on")
        out.append({"name": str(p["name"]), "on": "/".join(on) if isinstance(on, list) else (on or ""),
                    "tiles": list(p.get("tiles", [])), "train_limit": _limit(p.get("train_limit")),
                    "operating_rounds": p.get("operating_rounds", 1), "current": i == game.phase.index})
    return out


def rules(game: Any, chosen: list[str] | None = None) -> dict[str, Any]:
    """The rules in effect: certificate limit, the optional rules and units by name (and
    whether the title chose them, when ``chosen``, the options the game was made with, has
    fewer), the game-end conditions and, once over, the end in words and the bank."""
    texts = option_text(game.TITLE)
    options = [{"sym": r, **texts.get(r, {"name": r, "desc": ""}),
                "implied": chosen is not None and r not in chosen}
               for r in game.optional_rules]
    ends = [{"when": END_CONDITIONS.get(reason, reason.replace("_", " ")),
             "then": END_TIMINGS.get(timing, timing.replace("_", " ")),
             "reached": game.end_trigger is not None and game.end_trigger[0] == reason}
            for reason, timing in game.GAME_END_CHECK.items()]
    bank = game.bank_display()
    reason = game.game_end_reason if game.finished else None
    return {
        "cert_limit": game.cert_limit(), "options": options, "end": ends,
        "bank": "broken" if game.bank.broken else story.money(game, bank),
        "bank_broken": bool(game.bank.broken),
        "end_reason": None if not game.finished else story.END_REASONS.get(str(reason), str(reason)),
    }
