"""1858's own steps: private auctions in the stock round, starting public companies by
exchanging a private railway, exchange approval, home tokens, track with gauge discounts,
tokens priced by distance, dividends with private revenue, wounded trains, issue/redeem and
the private closure round.

One module per kind of step; the names are re-exported here."""

from .buy_train import BuyTrain1858
from .exchange import Exchange1858, ExchangeApproval1858
from .operating import DiscardTrain1858, Dividend1858, HomeToken1858, IssueShares1858, Route1858, Token1858, Track1858
from .private_closure import PrivateClosure1858
from .stock import StockRound1858Step

__all__ = [
    "BuyTrain1858", "DiscardTrain1858", "Dividend1858", "Exchange1858", "ExchangeApproval1858",
    "HomeToken1858", "IssueShares1858", "PrivateClosure1858", "Route1858", "StockRound1858Step",
    "Token1858", "Track1858",
]
