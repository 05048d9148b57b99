"""1822's steps: bid boxes in the stock round, the P9 choice, and the operating-round steps.

One module per kind of step; the names are re-exported here."""

from .acquisition import MinorAcquisition
from .buy_train import BuyTrain1822
from .choose import Choose, SpecialChoose
from .housekeeping import AcquireCompany, FirstTurnHousekeeping, PendingToken
from .issue import IssueShares1822
from .operating import DiscardTrain1822, Dividend1822, Route1822
from .stock import BuySellParShares1822
from .token import DestinationToken, SpecialToken, Token1822
from .track import SpecialTrack, Track1822

__all__ = [
    "AcquireCompany", "BuySellParShares1822", "BuyTrain1822", "Choose", "DestinationToken",
    "DiscardTrain1822", "Dividend1822", "FirstTurnHousekeeping", "IssueShares1822",
    "MinorAcquisition", "PendingToken", "Route1822", "SpecialChoose", "SpecialToken",
    "SpecialTrack", "Token1822", "Track1822",
]
