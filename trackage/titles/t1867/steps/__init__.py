"""1867's steps: private auction, minor auctions in the stock round, home tokens, loans,
track/token with automatic loans, dividends (minors split 50/50), train buying.

One module per kind of step; the names are re-exported here."""

from .auction import SingleItemAuction
from .buy_company import BuyCompany1867, BuyCompanyPreloan
from .buy_train import BuyTrain1867
from .loans import LoanOperations, RedeemShares, take_loans_for
from .operating import Dividend1867, HomeToken1867, MajorTrainless, Route1867, Token1867, Track1867
from .stock import BuySellParShares1867

__all__ = [
    "BuyCompany1867", "BuyCompanyPreloan", "BuySellParShares1867", "BuyTrain1867",
    "Dividend1867", "HomeToken1867", "LoanOperations", "MajorTrainless", "RedeemShares",
    "Route1867", "SingleItemAuction", "Token1867", "Track1867", "take_loans_for",
]
