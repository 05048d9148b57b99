"""What the search bot pays for an item in a title's opening auction, found by experiment
(issue 31).

Some openings are decided by one item of the auction: in 1867, with rule bots in every seat,
seat 0 wins QB (at 100, the rule bot's limit) and the game; replayed with seat 1 or seat 3
bidding QB up to 110, that seat won each of the 6 games tried, but seat 2 doing so handed the
win to seat 1; bidding C&SL up to 50 as well, the seat won each of the 9 games tried from
every seat (docs/bots.md, slice s37-search67). In 1861 (the same auction: privates, then
minors) the rule bots in every seat give the game to the seat that wins BSS, MRR and WVR; the
search bot bidding TSR up to 50, BSS up to 65, MRR up to 105 and WVR up to 120, and leaving the
rest of the auction to the rule bot (its learned values spent its cash on four privates and
lost from two seats of four), won each of the 9 games tried, from every seat (slice
s37-search3); against rule bots whose limits vary by ±10% (``rule-varied``) those caps won 11
of games 0-23, and the search bot never had the cash left for WVR. Now it passes on TSR and
MRR (a cap of 0: left to the others) and bids BSS, MYR and WVR up to 75, 90 and 130, above the
band's top (the rule bot's limit times 1.1: 70, 90, 130), which won 15 of games 0-23 (slice
s38-caps61). In 1822's first stock round the rule bots bid each private in the bid boxes up
to 20 and seat 0 wins them; the search bot bids them up to 25 (slice s37-search3: a smaller
gain, 1822 being less deterministic: docs/bots.md). A cap here makes the search
bot bid the least allowed on that item, while the price is at most the cap and its cash
allows, in the opening (before the second stock round); a cap of 0 makes it pass on the item;
other bids stay with its other rules.

A ceiling works the other way: in 1858 India's opening auction the rule bots bid up to 1.2
times an item's face value plus 10, the cheap privates come up first, and the seat that pays
above face value for them runs out of cash before the good ones (seat 0, outbid on the cheap
ones, won all eight rule bot games tried with five privates bought at or below face value).
The search bot there bids as the rule bot does but never above an item's face value times
the title's ceiling (1.1: it won 6 of 8 replays, face value itself 5), passing instead (slice
s38-india)."""

from __future__ import annotations

from types import MappingProxyType

# title -> item (company symbol or corporation id) -> the highest price the search bot bids
# (0: it passes on the item)
AUCTION_CAPS: MappingProxyType[str, MappingProxyType[str, int]] = MappingProxyType({
    # 1822's privates (P1...P21, all valued 0): the rule bots' bids stop at 20
    "1822": MappingProxyType({f"P{n}": 25 for n in range(1, 22)}),
    "1861": MappingProxyType({"BSS": 75, "MRR": 0, "MYR": 90, "TSR": 0, "WVR": 130}),
    "1867": MappingProxyType({"C&SL": 50, "QB": 110}),
})

# titles whose auctions, beyond the capped bids, are the rule bot's (not the learned values')
RULE_AUCTIONS: frozenset[str] = frozenset({"1861", "1858India"})

# title -> the most the search bot bids in its opening auction, as a share of the item's face value
CEILINGS: MappingProxyType[str, float] = MappingProxyType({"1858India": 1.1})


def auction_cap(title: str, item: str) -> int | None:
    """The most the search bot bids for ``item`` in ``title``'s opening auction (None: no cap)."""
    caps = AUCTION_CAPS.get(title)
    return None if caps is None else caps.get(item)


def auction_left_to_rule(title: str) -> bool:
    """Whether the search bot leaves ``title``'s auctions, beyond its capped bids, to the rule
    bot rather than judging them by the title's learned opening values."""
    return title in RULE_AUCTIONS


def bid_ceiling(title: str, value: int) -> int | None:
    """The most the search bot bids in ``title``'s opening auction for an item of face value
    ``value`` (None: no ceiling)."""
    share = CEILINGS.get(title)
    return None if share is None else int(value * share)
