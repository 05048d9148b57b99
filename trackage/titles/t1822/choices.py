"""1822's private companies' choices (P5, P8, P9, P17, P18 and the tax haven's) and their
exchange tokens."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.entities import without
from ...core.tokens import Token
from . import bidboxes, taxhaven
from .config import DOUBLE_CASH, LUR, TAX_HAVEN

if TYPE_CHECKING:
    from .game import Game1822


#: the companies :func:`company_choices` may answer with some choice at a company's own step
#: (the times ``stock_round``, ``track``, ``token``, ``issue``), by the kind of their owner: P5,
#: P17 and P18 a corporation's, the tax haven a player's (P8's and P9's choices are made at
#: their own steps, ``special_choose`` and ``choose``, by the operator or the player)
CHOOSING_HELD_BY_CORPORATION = frozenset({LUR, "P18", "P5"})
CHOOSING_HELD_BY_PLAYER = frozenset({TAX_HAVEN})


def choices_entities(game: Game1822) -> list:
    """Who chooses in the choices round: P9's owner, if a player."""
    c = game.index.company(DOUBLE_CASH)
    if c is None or c.closed or c.owner is None or not c.owner.is_player:
        return []
    return [c.owner]


def choices_lur(game: Game1822, company, time) -> dict:
    """P17's choices: move a company outside the boxes to the top or bottom of its stack."""
    if time not in ("token", "track", "issue") or company.owner is None or not company.owner.is_corporation:
        return {}
    out = {}
    for prefix, box in (("M", game.bidbox_minors()), ("C", game.bidbox_concessions()), ("P",
                                                                                        game.bidbox_privates())):
        for c in bidboxes.bank_companies(game, prefix):
            if c in box:
                continue
            out[f"{c.sym}_top"] = f"{c.sym}-Top"
            out[f"{c.sym}_bottom"] = f"{c.sym}-Bottom"
    return out


def choices_chpr(game: Game1822, company, time) -> dict:
    """P18's choices: move a token between a major's exchange and available sections."""
    owner = company.owner
    if time not in ("token", "track") or owner is None or not owner.is_corporation:
        return {}
    out = {}
    if owner.exchange_tokens > 0:
        out["exchange"] = "Move an exchange token to the available section"
    if any(not t.used and t.type == "normal" for t in owner.tokens) and \
            owner.exchange_tokens < game.data["exchange_tokens"].get(owner.id, 0):
        out["available"] = "Move an available token to the exchange section"
    return out


def choices_egr(game: Game1822, company, time) -> dict:
    """P8's choice: a terrain token or the continuous discount."""
    if len(company.abilities) != 3 or time != "special_choose":
        return {}
    return {"token": "Discount token for one rough terrain, hill or mountain lay",
            "discount": "20 continuous discount off hill and mountain terrain"}


def move_exchange_token(game: Game1822, corp) -> None:
    """One of ``corp``'s exchange tokens becomes an available token."""
    corp.exchange_tokens -= 1
    corp.tokens = (*corp.tokens, Token(corp, price=game.TOKEN_PRICE))


def company_choices(game: Game1822, company, time) -> dict:
    """What ``company``'s owner may choose at ``time``."""
    sym = company.sym
    if sym == DOUBLE_CASH:
        if game.double_cash_choice or company.owner is None or not company.owner.is_player or time != "choose":
            return {}
        return {"double": "Double your actual cash holding when determining player turn order."}
    if sym == TAX_HAVEN:
        return taxhaven.choices_tax_haven(game, company, time)
    if sym == LUR:
        return choices_lur(game, company, time)
    if sym == "P18":
        return choices_chpr(game, company, time)
    if sym == "P8":
        return choices_egr(game, company, time)
    if sym == "P5":
        if time != "token" or company.owner is None or not company.owner.is_corporation:
            return {}
        if company.owner.exchange_tokens > 0:
            return {"exchange": "Move an exchange token to the available section"}
        return {}
    return {}


def company_made_choice(game: Game1822, company, choice, time) -> None:
    """Carry out ``company``'s ``choice``."""
    sym = company.sym
    if sym == DOUBLE_CASH:
        game.double_cash_choice = company.owner
    elif sym == TAX_HAVEN:
        taxhaven.made_choice_tax_haven(game, company, choice)
    elif sym == LUR:
        cid, _, where = choice.partition("_")
        sel = game.index.company(cid)
        game.companies.remove(sel)
        if where == "top":
            box = {"M": game.bidbox_minors, "C": game.bidbox_concessions}.get(sel.sym[0], game.bidbox_privates)()
            last = box[-1] if box else None
            idx = game.companies.index(last) if last in game.companies else -1
            game.companies.insert(idx + 1, sel)
        else:
            game.companies.append(sel)
        company.close()
    elif sym == "P5":
        move_exchange_token(game, company.owner)
        company.close()
    elif sym == "P18":
        owner = company.owner
        if choice == "exchange":
            move_exchange_token(game, owner)
        else:
            tok = next(t for t in owner.tokens if not t.used and t.type == "normal")
            owner.tokens = without(owner.tokens, tok)
            owner.exchange_tokens += 1
        company.close()
    elif sym == "P8":
        remove = "tile_discount" if choice == "token" else "tile_lay"
        company.abilities = [a for a in company.abilities if a.get("type") != remove]
