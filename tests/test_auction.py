"""The core auction: the bid state (Bids) and the shared bid handler's price check."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from trackage.core.clone import clone
from trackage.core.errors import GameError
from trackage.core.journal import Journal
from trackage.core.steps.auction import AuctionMixin, Bids


class Thing:
    def __init__(self, name: str, cash: int = 0) -> None:
        self.id = self.name = name
        self.cash = cash
        self.passed = True


class FakeGame:
    MIN_BID_INCREMENT = 5

    def __init__(self, companies) -> None:
        self.companies = {c.name: c for c in companies}
        self.index = SimpleNamespace(company=self.companies.get)
        self.journal = Journal()  # the bids are recorded there


class FakeRound:
    def __init__(self, entities) -> None:
        self.entities = entities


class Auction(AuctionMixin):
    """A one-item auction opened by the first bid, the floor being the item's face value."""

    def __init__(self, game, round_) -> None:
        self.game = game
        self.round = round_
        self.auction = None
        self.won: list = []
        self.unsold: list = []

    def min_bid(self, item) -> int:
        if self.auction is not None and self.auction.item is item and self.auction:
            return self.auction.highest()[1] + self.bid_step()
        return item.cash  # the face value

    def accept_bid(self, entity, item, price, action):
        if self.auction is None:
            self.open_bidding(entity, item, price)
        else:
            self.place_bid(entity, price)

    def win_auction(self, winner):
        self.won.append(winner)

    def auction_unsold(self, item):
        self.unsold.append(item)


def state(step: Auction):
    a = step.auction
    return None if a is None else (a.item, list(a.bids), list(a.bidders))


@pytest.fixture
def setup():
    a, b, c = Thing("A", 62), Thing("B", 60), Thing("C", 200)
    item = Thing("X", 40)  # face value 40
    step = Auction(FakeGame([item]), FakeRound([a, b, c]))
    return step, item, (a, b, c)


# ------------------------------------------------------------------ Bids
def test_bids_place_replace_highest_and_order():
    a, b = Thing("A"), Thing("B")
    bids = Bids("X", [a, b])
    assert len(bids) == 0 and not bids and bids.highest() is None and bids.next_bidder() is None
    bids.place(a, 50)
    bids.place(b, 55)
    assert bids.highest() == (b, 55, "X")
    assert bids.next_bidder() is a
    bids.place(a, 60)  # replaces a's earlier bid, and is the latest
    assert list(bids) == [(b, 55, "X"), (a, 60, "X")]
    assert bids[0] == (b, 55, "X") and bids[1:] == [(a, 60, "X")]
    assert bids.bid_of(a) == (a, 60, "X") and bids.bid_of(Thing("Z")) is None
    assert bids.next_bidder() is b


def test_bids_highest_keeps_the_oldest_of_equal_bids():
    a, b = Thing("A"), Thing("B")
    bids = Bids("X")
    bids.place(a, 50)
    bids.place(b, 50)
    assert bids.highest()[0] is a


def test_bids_drop_and_winner():
    a, b, c = Thing("A"), Thing("B"), Thing("C")
    bids = Bids("X", [a, b, c])
    bids.place(a, 50)
    bids.place(b, 55)
    assert bids.winner() is None  # three bidders still in
    bids.drop(b)
    assert bids.bidders == [a, c] and list(bids) == [(a, 50, "X")]
    assert bids.winner() is None
    bids.drop(c)
    bids.drop(c)  # dropping twice is harmless
    assert bids.winner() == (a, 50, "X")


def test_bids_winner_needs_a_bid():
    a = Thing("A")
    assert Bids("X", [a]).winner() is None


def test_bids_copied_with_the_game():
    a, b = Thing("A"), Thing("B")
    bids = Bids("X", [a, b])
    bids.place(a, 50)
    holder = {"players": [a, b], "bids": bids}
    copy = clone(holder)
    cb = copy["bids"]
    assert cb is not bids and cb.bidders is not bids.bidders and cb.bids is not bids.bids
    assert cb.bidders == copy["players"] and cb.bids[0][0] is copy["players"][0] and cb.bids[0][1] == 50
    cb.place(copy["players"][1], 55)
    assert len(bids) == 1 and len(cb) == 2


# ------------------------------------------------------------------ the price check
def refused(step, rule, entity, **action):
    before = state(step)
    with pytest.raises(GameError) as err:
        step.process_bid({"type": "bid", **action}, entity)
    assert err.value.rule == rule, str(err.value)
    assert state(step) == before
    return err.value


def test_bid_below_the_minimum_is_refused(setup):
    step, _item, (a, _b, _c) = setup
    e = refused(step, "bid-too-low", a, company="X", price=35)
    assert str(e) == "minimum bid is 40 for X"
    assert step.auction is None


def test_bid_off_the_increment_is_refused(setup):
    step, _item, (a, _b, _c) = setup
    e = refused(step, "bid-increment", a, company="X", price=42)
    assert "steps of 5" in str(e)


def test_bid_over_the_maximum_is_refused(setup):
    step, _item, (_a, b, _c) = setup
    e = refused(step, "insufficient-cash", b, company="X", price=65)
    assert str(e) == "B can bid at most 60"
    step.process_bid({"type": "bid", "company": "X", "price": 60}, b)  # all of it is fine


def test_malformed_and_unknown(setup):
    step, _item, (a, _b, _c) = setup
    refused(step, "malformed-action", a, company="X", price="50")
    refused(step, "unknown-entity", a, company="Y", price=50)
    step.PRICE_REQUIRED = True
    e = refused(step, "malformed-action", a, company="X")
    assert str(e) == "a bid needs an integer price"


def test_missing_price_is_zero_unless_required(setup):
    step, _item, (a, _b, _c) = setup
    refused(step, "bid-too-low", a, company="X")


def test_auction_runs_to_a_winner(setup):
    step, item, (a, b, c) = setup
    step.process_bid({"type": "bid", "company": "X", "price": 40}, a)
    bids = step.auction
    assert bids.bidders == [a, b, c] and list(bids) == [(a, 40, item)]
    assert step.min_bid(item) == 45
    refused(step, "bid-too-low", b, company="X", price=40)
    step.process_bid({"type": "bid", "company": "X", "price": 60}, b)
    # the minimum is now 65: A (62) cannot reach it and is out
    assert bids.bidders == [b, c] and bids.next_bidder() is c
    step.drop_bidder(c)
    assert step.auction is None and step.won == [(b, 60, item)]
    # the accepted bids are in the journal, the refused one is not
    assert [(e["entity"], e["price"]) for e in step.game.journal if e.kind == "bid"] == [("A", 40), ("B", 60)]


def test_first_bid_nobody_can_raise_wins_at_once(setup):
    step, item, (_a, _b, c) = setup
    step.process_bid({"type": "bid", "company": "X", "price": 150}, c)
    assert step.auction is None and step.won == [(c, 150, item)]


def test_every_bidder_gone_is_unsold(setup):
    step, item, (a, b, _c) = setup
    step.auction = Bids(item, [a, b])
    step.drop_bidder(a)
    assert step.auction is not None
    step.drop_bidder(b)
    assert step.auction is None and step.unsold == [item] and step.won == []


# ------------------------------------------------------------------ in a title
def test_1893_draft_refuses_a_card_its_player_cannot_pay():
    from trackage.titles import new_game

    g = new_game("1893", [{"id": i, "name": f"S{i}"} for i in range(1, 5)])
    entity = g.current_entity()
    card = max(g.draftables(), key=lambda c: c.value)
    entity.cash = card.value - 1
    before = (entity.cash, [c.sym for c in entity.companies], len(g.actions))
    with pytest.raises(GameError) as err:
        g.process({"type": "bid", **g.index.ref(entity), "company": card.sym, "price": card.value})
    assert err.value.rule == "insufficient-cash"
    assert f"{entity.name} cannot afford {card.name}" in str(err.value)
    assert (entity.cash, [c.sym for c in entity.companies], len(g.actions)) == before
