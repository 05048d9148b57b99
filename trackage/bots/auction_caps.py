"""What the search bot pays for an item in a title's opening auction, found by experiment
(issue 31).

Some openings are decided by one item of the auction: in 1867, with rule bots in every seat,
seat 0 wins QB (at 100, the rule bot's limit) and the game; replayed with seat 1 or seat 3
bidding QB up to 110, that seat won each of the 6 games tried, but seat 2 doing so handed the
win to seat 1; bidding C&SL up to 50 as well, the seat won each of the 9 games tried from
every seat (docs/bots.md, slice s37-search67). A cap here makes the search
bot bid the least allowed on that item, while the price is at most the cap and its cash
allows, in the opening (before the second stock round); other bids stay with its other rules."""

from __future__ import annotations

from types import MappingProxyType

# title -> item (company symbol or corporation id) -> the highest price the search bot bids
AUCTION_CAPS: MappingProxyType[str, MappingProxyType[str, int]] = MappingProxyType({
    "1867": MappingProxyType({"C&SL": 50, "QB": 110}),
})


def auction_cap(title: str, item: str) -> int | None:
    """The most the search bot bids for ``item`` in ``title``'s opening auction (None: no cap)."""
    caps = AUCTION_CAPS.get(title)
    return None if caps is None else caps.get(item)
