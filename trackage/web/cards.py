"""The game page's entity cards, as plain data read from the engine's public state: players,
companies (majors and minors modelled as corporations), minors without shares, and the real
private companies (not 1822's minors and concessions, 1893's bonds and minor proxies, nor
1867's hidden placeholder); amounts in the title's money."""

from __future__ import annotations

from typing import Any

from .. import story
from ..core.round import OperatingRound
from .mapsvg import entity_colors


def _name(e: Any) -> str:
    if e is None:
        return "bank"
    if getattr(e, "is_player", False) or getattr(e, "is_bank", False):
        return str(e.name)
    return str(getattr(e, "id", None) or getattr(e, "name", e))


def is_private(game: Any, company: Any) -> bool:
    """Is ``company`` a real private company of its title, still open? The title's own answer
    where it has one (1893's ``private``; 1822's companies of the P kind, as its bid boxes sort
    them; 1867's and 1861's ``hidden_company`` is none), else every company card."""
    if company.closed:
        return False
    if hasattr(game, "private"):
        return bool(game.private(company))
    if hasattr(game, "bidbox_privates"):
        return str(company.sym)[:1] == "P"
    return company is not getattr(game, "hidden_company", None)


def player_cards(game: Any) -> list[dict[str, Any]]:
    """Each player: cash, certificates against the limit, priority deal, privates, value (and
    an 1822 player's debt)."""
    debts = getattr(game, "player_debt", {})
    out = []
    for p in game.seats:
        debt = int(debts.get(p, 0)) if isinstance(debts, dict) else 0
        out.append({
            "id": p.id, "name": p.name, "cash": story.money(game, p.cash),
            "certs": game.num_certs(p), "cert_limit": game.cert_limit(p),
            "priority": bool(game.players) and p is game.players[0],
            "privates": [{"sym": c.sym, "name": c.name} for c in p.companies if is_private(game, c)],
            "others": [c.sym for c in p.companies if not is_private(game, c)],
            "value": story.money(game, game.player_value(p)), "bankrupt": bool(p.bankrupt),
            "debt": story.money(game, debt) if debt else None,
        })
    return out


def _operated_this_round(game: Any, operator: Any) -> bool | None:
    """Has ``operator`` operated in the operating round under way (None outside one)?"""
    if not isinstance(game.round, OperatingRound):
        return None
    return (game.turn, game.round.round_num) in (getattr(operator, "operating_history", None) or {})


def _tokens_left(operator: Any) -> int:
    return sum(1 for t in operator.tokens if not t.used)


def company_cards(game: Any) -> list[dict[str, Any]]:
    """Each corporation that is started (or floated): treasury, trains, tokens left, president,
    prices, shares in the IPO (the treasury, for incremental capitalisation) and the market,
    whether it operated this round, its loans where the title has them."""
    incremental = game.CAPITALIZATION == "incremental"
    out = []
    for c in game.corporations:
        if getattr(c, "closed", False) or not (getattr(c, "ipoed", False) or c.floated()):
            continue
        fc, tc = entity_colors(c)
        sp, par = c.share_price, getattr(c, "par_price", None)
        out.append({
            "id": c.id, "name": c.name, "kind": str(getattr(c, "type", "") or ""), "color": fc, "text_color": tc,
            "president": _name(c.owner) if c.owner is not None else "-",
            "price": story.money(game, sp.price) if sp is not None else None,
            "par": story.money(game, par.price) if par is not None else None,
            "cash": story.money(game, c.cash), "trains": [t.name for t in c.trains],
            "tokens_left": _tokens_left(c), "tokens": len(c.tokens),
            "ipo_label": "treasury" if incremental else "IPO", "ipo": c.percent_of(c),
            "pool": game.pool.percent_of(c),
            "privates": [x.sym for x in getattr(c, "companies", [])],
            "floated": c.floated(), "operated": _operated_this_round(game, c),
            "loans": getattr(c, "loans", None) if hasattr(game, "loan_pool") else None,
        })
    return out


def minor_cards(game: Any) -> list[dict[str, Any]]:
    """Each open minor (an operator without shares) with its owner."""
    out = []
    for m in game.minors:
        if getattr(m, "closed", False):
            continue
        fc, tc = entity_colors(m)
        out.append({"id": m.id, "name": m.name, "color": fc, "text_color": tc,
                    "owner": _name(m.owner) if m.owner is not None else "bank",
                    "cash": story.money(game, m.cash), "trains": [t.name for t in m.trains],
                    "tokens_left": _tokens_left(m), "tokens": len(m.tokens),
                    "operated": _operated_this_round(game, m)})
    return out


def private_cards(game: Any) -> list[dict[str, Any]]:
    """Each open real private company: value, revenue, owner and what its abilities do."""
    return [{"sym": c.sym, "name": c.name, "value": story.money(game, c.value),
             "revenue": story.money(game, c.revenue), "owner": _name(c.owner),
             "desc": str(c.data.get("desc") or "")}
            for c in game.companies if is_private(game, c)]


def cards(game: Any) -> dict[str, Any]:
    """The cards of every kind the game has now."""
    return {"players": player_cards(game), "companies": company_cards(game), "minors": minor_cards(game),
            "privates": private_cards(game)}
