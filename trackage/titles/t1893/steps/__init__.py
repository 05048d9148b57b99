"""1893's steps: the starting package, stock round rules, merger votes, minors' operations,
train trade-ins and the president's help with a forced train purchase.

One module per kind of step; the names are re-exported here."""

from .auction import StartingPackageForcedAuction, StartingPackageInitialAuction
from .bankrupt import Bankrupt1893
from .buy_company import BuyCompany1893
from .buy_train import BuyTrain1893
from .merger import MergerVote, PotentialDiscardTrainsAfterMerge
from .operating import DiscardTrain1893, Dividend1893, Route1893, Token1893, Track1893
from .stock import BuySellParShares1893

__all__ = [
    "Bankrupt1893", "BuyCompany1893", "BuySellParShares1893", "BuyTrain1893", "DiscardTrain1893", "Dividend1893",
    "MergerVote", "PotentialDiscardTrainsAfterMerge", "Route1893",
    "StartingPackageForcedAuction", "StartingPackageInitialAuction", "Token1893", "Track1893",
]
