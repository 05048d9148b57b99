"""The game page's Programs card: a player's programmed actions (18xx.games' auto actions) in
words, and the forms that set an auto-pass or a purchase until a count or a float, or cancel
(each posts a ``program_*`` action that :func:`trackage.core.programs.available` lists)."""

from __future__ import annotations

import json
from typing import Any

from ..core.programs import available, enabled_of


def program_words(game: Any, prog: dict[str, Any]) -> str:
    """A program in words, as the site says it."""
    if prog.get("type") == "program_share_pass":
        return ("Pass in stock rounds" + (", unconditionally" if prog.get("unconditional") else "")
                + (", indefinitely" if prog.get("indefinite") else ""))
    if prog.get("type") == "program_buy_shares":
        corp = game.corporation_by_id(prog.get("corporation"))
        name = getattr(corp, "name", prog.get("corporation"))
        until = prog.get("until_condition")
        condition = "it floats" if until == "float" else f"{until} shares"
        source = "the market" if prog.get("from_market") else "the IPO"
        return f"Buy {name} from {source} until {condition}" + (", then auto pass" if prog.get("auto_pass_after")
                                                                  else "")
    if prog.get("type") == "program_merger_pass":
        rounds = " and ".join(f"{kind} ({', '.join(map(str, corps)) or 'none'})"
                              for kind, corps in (prog.get("corporations_by_round") or {}).items())
        return f"Pass on mergers in {rounds}" + (", unless someone else acts"
                                                 if "disable_others" in (prog.get("options") or []) else "")
    return str(prog.get("type", "?")).replace("_", " ")


def _json(a: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in a.items() if k != "until_range"})


def _section(game: Any, player: Any, open_: bool) -> dict[str, Any]:
    listed = available(game, player)
    share_pass = next((a for a in listed if a["type"] == "program_share_pass"
                       and not a["unconditional"] and not a["indefinite"]), None)
    buys = []
    for a in listed:
        if a["type"] != "program_buy_shares" or a["auto_pass_after"]:
            continue  # (auto_pass_after: the form's checkbox)
        corp = game.corporation_by_id(a["corporation"])
        name = getattr(corp, "name", a["corporation"])
        if a["until_condition"] == "float":
            label = f"Buy {name} from the IPO until it floats"
        else:
            label = f"Buy {name} from {'the market' if a['from_market'] else 'the IPO'} until I hold"
        buys.append({"label": label, "json": _json(a), "range": a.get("until_range"), "corporation": a["corporation"],
                     "mode": "float" if a["until_condition"] == "float" else ("market" if a["from_market"] else "ipo")})
    mergers = [{"label": program_words(game, a), "json": _json(a)} for a in listed
               if a["type"] == "program_merger_pass"]
    disable = next((a for a in listed if a["type"] == "program_disable"), None)
    return {"mergers": mergers, "pid": str(player.id), "name": player.name, "open": open_,
            "active": [program_words(game, p) for p in enabled_of(game, player)],
            "share_pass": None if share_pass is None else _json(share_pass), "buys": buys,
            "disable": None if disable is None else _json(disable)}


def program_card(game: Any, seat: dict[str, Any] | None, to_act: list[dict[str, Any]],
                 viewing_past: bool) -> list[dict[str, Any]]:
    """The Programs card's sections: the seat's player's (a hotseat: every player's, the one to
    act first, open); none for a spectator, a past position or a finished game."""
    if seat is None or viewing_past or game.finished:
        return []
    acting = {str(p.get("id")) for p in to_act}
    if seat["player_id"] is None:
        first = next((str(p.id) for p in game.players if str(p.id) in acting), None)
        return [_section(game, p, str(p.id) == first) for p in game.players]
    return [_section(game, p, True) for p in game.players if str(p.id) == seat["player_id"]]
