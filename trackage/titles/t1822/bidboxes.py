"""1822's start of the game and its bid boxes: the companies' order, the boxes offered in a
stock round and what a won bid does (a minor floats, a company changes hands)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.entities import ShareBundle
from ...core.money import pay
from ...core.trains import Train, retire
from .config import COMPANY_TRAINS, PLUS_BOX_1, PLUS_BOX_2, PLUS_BOX_3

if TYPE_CHECKING:
    from .game import Game1822


def setup_companies(game: Game1822) -> None:
    """Order the companies for the bid boxes (M24, C1, P1 first; the 1822+ removals) and set the
    private companies' trains aside."""
    comps = game.rng.shuffle(game.companies)
    minors = [c for c in comps if c.sym[0] == "M"]
    concessions = [c for c in comps if c.sym[0] == "C"]
    privates = [c for c in comps if c.sym[0] == "P"]
    for lst, first in ((minors, "M24"), (concessions, "C1"), (privates, "P1")):
        c = next((x for x in lst if x.sym == first), None)
        if c is not None:
            lst.remove(c)
            lst.insert(0, c)
    if game.plus and "plus_expansion_no_removals" not in game.optional_rules:
        privates = ([c for c in privates if c.sym in PLUS_BOX_1] + [c for c in privates if c.sym in PLUS_BOX_2]
                    + [c for c in privates if c.sym in PLUS_BOX_3])
        drop = next(c for c in privates if c.sym != "P5" and c.sym in PLUS_BOX_2)
        privates.remove(drop)
        for _ in range(2):
            drop = next(c for c in privates if c.sym in PLUS_BOX_3)
            privates.remove(drop)
    game.companies = minors + concessions + privates
    for c in game.companies:
        c.min_price = c.value if c.sym[0] in "CM" else 0
        c.max_price = 10_000
    game.company_trains = {}
    for sym, tid, buyable in COMPANY_TRAINS:
        t = game.depot.train_by_id(tid)
        if t is None:
            continue
        game.depot.remove_train(t)
        t.buyable = buyable
        t.reserved = True
        game.company_trains[sym] = t


def bank_companies(game: Game1822, prefix) -> list:
    """The bank's companies of one kind (M, C or P), in box order."""
    return [c for c in game.companies if c.sym[0] == prefix and (c.owner is None or c.owner is game.bank)
            and not c.closed]


def bank_companies_by_kind(game: Game1822, limits: dict[str, int | None] | None = None) -> dict[str, list]:
    """:func:`bank_companies` of every kind (M, C, P) in one pass over the companies; with
    ``limits``, only the first so many of each kind (None: all of that kind)."""
    out: dict[str, list] = {"M": [], "C": [], "P": []}
    bank = game.bank
    if limits is None:
        for c in game.companies:
            if (c.owner is None or c.owner is bank) and not c.closed and (kind := out.get(c.sym[0])) is not None:
                kind.append(c)
        return out
    # (a kind's list is taken out of ``room`` once it holds its limit)
    room = {k: v for k, v in out.items() if limits.get(k) != 0}
    for c in game.companies:
        kind = room.get(c.sym[0])
        if kind is not None and (c.owner is None or c.owner is bank) and not c.closed:
            kind.append(c)
            if len(kind) == limits[c.sym[0]]:
                del room[c.sym[0]]
                if not room:
                    break
    return out


def bidbox_minors_refill(game: Game1822) -> None:
    """Remember which minors the minors' box holds now."""
    game.bidbox_minors_cache = [c.sym for c in bank_companies(game, "M")[:game.BIDBOX_MINORS]]


def setup_bidboxes(game: Game1822) -> None:
    """At a stock round's start the boxes' companies go to the bank."""
    bidbox_minors_refill(game)
    for c in game.bidbox_minors() + game.bidbox_concessions() + game.bidbox_privates():
        c.owner = game.bank
    game.double_cash_choice = None


def win_company(game: Game1822, player, company, price) -> None:
    """A won bid: ``player`` takes ``company`` for ``price``."""
    company.owner = player
    player.companies = (*player.companies, company)
    if price > 0:
        pay(game, player, game.bank, price, "company_purchase")


def float_minor(game: Game1822, player, company, bid_amount) -> None:
    """A won bid for a minor: it floats, its price and treasury set by the bid."""
    minor = game.find_corporation(company)
    sp = game.minor_float_share_price(bid_amount)
    presidency = sp.price * 2
    game.stock_market.set_par(minor, sp)
    game.share_market.buy_shares(player, ShareBundle([minor.shares[0]], corporation=minor))
    game.after_par(minor)
    if minor.cash > 0:
        pay(game, minor, game.bank, minor.cash, "treasury_return")
    treasury = game.minor_float_starting_cash(bid_amount, presidency)
    excess = bid_amount - presidency
    if excess:
        pay(game, player, game.bank, excess, "bid")
    pay(game, game.bank, minor, treasury, "float_capital")
    if company in game.companies:
        game.companies.remove(company)
    company.owner = None


def export_train(game: Game1822, train) -> Train:
    """A train leaves the depot for good (the stock round's exports): returns it as the frozen
    value that now stands for it (``core/trains.py``'s ``retire``)."""
    game.depot.remove_train(train)
    train.owner = None
    game.depot.clear_cache()
    return retire(game, train)
