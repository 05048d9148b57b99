"""The auctions under way, as plain data read from the round's auction steps: 1822's bid
boxes, a one-item auction (1867's and 1861's privates and minors, 1858's private railways),
1893's draft of the starting package. Each item: its name, the highest bid and its bidder,
the lowest next bid, who still bids and who is in turn; amounts in the title's money."""

from __future__ import annotations

from typing import Any

from .. import story
from ..core.errors import GameError
from ..core.round import Step
from ..core.steps.auction import AuctionMixin, Bids


def _name(e: Any) -> str:
    return str(e.name if getattr(e, "is_player", False) else getattr(e, "id", None) or e)


def _min_bid(step: Any, item: Any) -> int | None:
    try:
        low: int = step.min_bid(item)
    except (GameError, NotImplementedError):
        return None
    return low


def _item(game: Any, step: Any, item: Any, bids: Bids | None, kind: str) -> dict[str, Any]:
    top = step.highest_bid(item)
    low = _min_bid(step, item)
    bidders = list(bids.bidders) if bids is not None and bids.bidders else (
        [b[0] for b in bids] if bids is not None else [])
    in_turn = bids.in_turn() if bids is not None and bids.bidders else None
    return {"kind": kind, "sym": str(getattr(item, "sym", None) or getattr(item, "id", item)),
            "name": str(getattr(item, "name", item)),
            "value": story.money(game, item.value) if isinstance(getattr(item, "value", None), int) else None,
            "high": story.money(game, top[1]) if top else None, "leader": _name(top[0]) if top else None,
            "min": story.money(game, low) if low is not None else None,
            "bidders": [_name(e) for e in bidders], "in_turn": _name(in_turn) if in_turn is not None else None}


def auctions(game: Any) -> list[dict[str, Any]]:
    """Every item being bid on (or drafted) now; empty when no auction runs."""
    if game.finished:
        return []
    out: list[dict[str, Any]] = []
    for step in getattr(game.round, "steps", []):
        if not isinstance(step, AuctionMixin) or not isinstance(step, Step) or not step.active():
            continue
        boxes = getattr(step, "bids", None)
        if isinstance(boxes, dict):  # 1822: a bid box per item, bids kept until the round ends
            items = game.bidbox_items() if hasattr(game, "bidbox_items") else list(boxes)
            out.extend(_item(game, step, c, boxes.get(c), "bid box") for c in items)
        elif step.auction is not None:
            out.append(_item(game, step, step.auction.item, step.auction, "auction"))
        elif hasattr(step, "available"):  # 1893: the cards drafted at their price
            out.extend(_item(game, step, c, None, "draft") for c in step.available())
    return out
