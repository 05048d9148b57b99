"""Is an action one of the legal actions? (the gate of live play)

Live play accepts exactly what :meth:`Game.legal_actions` lists: an action matches a listed
one when its type, entity and every field the rules read are equal, a free price lies inside
the listed range and on its step, and the site's bookkeeping fields are ignored. A bundle of
shares may name other certificates of the same kinds than the listed one (company, holder,
size, president's or not): which 10% certificate of a company's pool changes hands is no choice. Fields the
engine works out itself (a token's slot, its cost, the ``tokener``) may be left out. A
``run_routes`` matches by type: its routes are then checked, and their revenues computed, by
the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game


BOOKKEEPING = frozenset({"id", "created_at", "user", "original_id", "skip", "auto_actions",
                         "price_range", "price_step", "canonical_prices"})
# fields the engine works out itself: a client may leave them out
DERIVED = frozenset({"slot", "cost", "tokener"})
PRICES = ("price", "bid", "share_price")

# actions that are not moves of the game: allowed in live play (the rules still check who sends
# them; a programmed action must be one its player may set now: trackage.core.programs.available)
META_TYPES = frozenset({"message", "end_game", "program_share_pass", "program_buy_shares", "program_merger_pass",
                        "program_disable", "program_auction_bid", "program_independent_mines",
                        "program_harzbahn_draft_pass"})


def share_kind(game: Game, share_id: object) -> str:
    """What makes a certificate different from another for a buyer or seller: its company,
    holder, size and whether it is the president's (certificates of one kind are alike)."""
    s = game.index.share(share_id) if isinstance(share_id, str) else None
    if s is None:
        return f"?{share_id!r}"
    owner = game.share_corp(s).holder_of(s)
    holder = f"{type(owner).__name__}:{getattr(owner, 'id', id(owner))}"
    return f"{s.corp_id}|{holder}|{s.percent}|{s.president}|{getattr(s, 'buyable', True)}"


def _same(k: str, a: object, b: object, canon: Callable[[object], str] | None = None) -> bool:
    if isinstance(a, list) and isinstance(b, list) and k in ("shares", "combo_entities"):
        if len(a) != len(set(map(str, a))):
            return False  # a certificate named twice
        if k == "shares" and canon is not None:
            # interchangeable certificates (same company, holder, size, kind) are the same
            return sorted(canon(x) for x in a) == sorted(canon(x) for x in b)
        return sorted(map(str, a)) == sorted(map(str, b))
    if a == b:
        return type(a) is type(b) or not (isinstance(a, bool) or isinstance(b, bool))
    return False


def matches(action: dict[str, Any], listed: dict[str, Any], canon: Callable[[object], str] | None = None) -> bool:
    if action.get("type") != listed.get("type") or str(action.get("entity")) != str(listed.get("entity")):
        return False
    et = action.get("entity_type")
    if et is not None and et != listed.get("entity_type"):
        return False
    if action.get("type") == "run_routes":
        return True
    for k in (set(action) | set(listed)) - BOOKKEEPING - {"type", "entity", "entity_type"}:
        a, b = action.get(k), listed.get(k)
        if k not in action:
            if k in DERIVED:
                continue
            if k == "variant" and str(b) == str(listed.get("train", "")).rsplit("-", 1)[0]:
                continue  # the train's own variant
            return False
        if k not in listed:
            if a is None or a is False:
                continue
            if k == "slot" or (k == "tokener" and str(a) == str(action.get("entity"))):
                continue  # the rules place the token where it goes; the tokener is the entity
            return False
        if _same(k, a, b, canon):
            continue
        if k in PRICES and "price_range" in listed and type(a) is int:
            lo, hi = listed["price_range"]
            step = listed.get("price_step") or 1
            if lo <= a <= hi and (a - lo) % step == 0:
                continue
        if k in DERIVED and k != "cost":
            continue
        return False
    return True


def is_listed(action: dict[str, Any], legal: list[dict[str, Any]], canon: Callable[[object], str] | None = None,
              resolve: Callable[[dict[str, Any]], object] | None = None) -> bool:
    """Is ``action`` one of ``legal`` (see the module)? ``canon(share_id)`` names a
    certificate's kind, when certificates of one kind are interchangeable; ``resolve(action)``
    finds the acting entity (an action without ``entity_type`` names the entity its id
    resolves to, which may not be the listed one of the same id)."""
    if resolve is not None:
        who = resolve(action)
        return any(matches(action, la, canon) and resolve(la) is who for la in legal)
    return any(matches(action, la, canon) for la in legal)
