"""1861's steps: the 1867 steps, with the national railway (RSR) skipping its choices."""

from __future__ import annotations

from ..t1867.steps import (
    BuyCompany1867,
    BuyCompanyPreloan,
    BuySellParShares1867,
    BuyTrain1867,
    Dividend1867,
    Token1867,
    Track1867,
)


def _national(entity) -> bool:
    return getattr(entity, "type", None) == "national"


class SkipForNational:
    def actions(self, entity):
        if entity.is_corporation and entity.type == "national":  # (:func:`_national`, inline; the slot always set)
            return []
        return super().actions(entity)  # type: ignore[misc]  # mixed in before a Step, which has actions()

    def has_actions(self, entity):
        """:meth:`actions`' truth: none for a national, else the step's own answer."""
        if entity.is_corporation and entity.type == "national":  # (:func:`_national`, inline; the slot always set)
            return False
        return super().has_actions(entity)  # type: ignore[misc]  # mixed in before a Step, which has has_actions()

    # (the round's two questions likewise: without these the mixin's own ``actions`` would hand
    # the step the core's defaults, its whole list worked out for each, instead of the step's
    # own answers below it)
    def answers(self, entity, atype):
        """:meth:`actions`' two truths: none for a national, else the step's own answers."""
        if entity.is_corporation and entity.type == "national":  # (:func:`_national`, inline; the slot always set)
            return False, False
        return super().answers(entity, atype)  # type: ignore[misc]  # mixed in before a Step, which has answers()

    def accepts(self, entity, atype):
        """Whether :meth:`actions` lists ``atype`` (its "anything?" known true): the step's own
        answer (a national, never asked, lists nothing)."""
        if entity.is_corporation and entity.type == "national":  # (:func:`_national`, inline; the slot always set)
            return False
        return super().accepts(entity, atype)  # type: ignore[misc]  # mixed in before a Step, which has accepts()


class BuyCompany1861(SkipForNational, BuyCompany1867):
    pass


class BuyCompanyPreloan1861(SkipForNational, BuyCompanyPreloan):
    pass


class Track1861(SkipForNational, Track1867):
    pass


class Token1861(SkipForNational, Token1867):
    pass


class Dividend1861(SkipForNational, Dividend1867):
    pass


class BuyTrain1861(SkipForNational, BuyTrain1867):
    """The national buys automatically: the cheapest train if it has none, then as many of
    the next train as its cash allows."""

    def skip(self):
        entity = self.current_entity()
        if entity is None or not _national(entity):
            return super().skip()
        depot = self.game.depot
        if self.must_buy_train(entity):
            self.national_buy(entity, min(depot.depot_trains(), key=lambda t: t.price))
        while depot.upcoming and entity.cash >= depot.upcoming[0].price:
            self.national_buy(entity, depot.upcoming[0])
        # no pass here (as in the reference): the step stays open while the national can
        # still buy, so it buys again whenever its steps are skipped once more in its turn,
        # e.g. after the trainless majors its purchase exposed have chosen

    def national_buy(self, entity, train):
        self.process_buy_train({"type": "buy_train", "train": train.id, "price": train.price}, entity)

    def can_buy_from(self, owner) -> bool:
        return not _national(owner)


class BuySellParShares1861(BuySellParShares1867):
    """Nikolaev (N) must be the first minor started."""

    ASK_ORDER = ("buy_shares", "sell_shares", "bid", "buy_company", "sell_company", "par")  # a par's check is dear

    def minor_startable(self, corp) -> bool:
        n = self.game.corporation_by_id("N")
        return corp.id == "N" or n is None or n.ipoed or n.closed
