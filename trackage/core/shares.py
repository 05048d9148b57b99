"""Share transfers: buying, selling, presidency changes and receivership."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .entities import ShareBundle, set_holder, shift_holding
from .errors import GameError
from .money import pay
from .rewind import Tracked

if TYPE_CHECKING:
    from collections.abc import Callable

    from .entities import Corporation, Share, SharePoolHolder
    from .game import Game


class ShareMarket(Tracked):
    """Moves certificates between holders and keeps presidencies right.

    ``allow_president_sale``: the president's certificate may go to the pool,
    putting the corporation in receivership (1825).
    """

    def __init__(self, game: Game, pool: SharePoolHolder, *, allow_president_sale: bool = False):
        self.game = game
        self.pool = pool
        self.allow_president_sale = allow_president_sale

    # ---------------------------------------------------------------- helpers
    def _move_share(self, share: Share, to: Any) -> None:
        corp = self.game.share_corp(share)
        owner = corp.holder_of(share)
        owner._remove_share(share)
        to._add_share(share)
        set_holder(corp, share, to)
        shift_holding(corp, owner, to, share.percent)

    def distance(self, a: Any, b: Any) -> int:
        players = list(self.game.players)
        if a is None or b is None or a not in players or b not in players:
            return 0
        ia, ib = players.index(a), players.index(b)
        return (ib - ia) % len(players)

    # ---------------------------------------------------------------- buying
    def buy_shares(self, entity: Any, bundle: ShareBundle, *, exchange: bool = False,
                   allow_president_change: bool = True) -> None:
        corp = bundle.corporation
        # (the bundle's president's certificate found once: a new bundle of the same
        # certificates holds the same one)
        has_president = bundle.presidents_share is not None
        if self.allow_president_sale and has_president and bundle.owner is self.pool:
            bundle = ShareBundle(bundle.shares, corp.share_percent, corporation=corp)
        if has_president or (corp.owner is not None and corp.owner.is_player):
            corp.ipoed = True
        floated_before = corp.floated()
        price = 0 if exchange else bundle.price()
        owner = bundle.owner
        if owner.is_player or (owner.is_corporation and (corp.capitalization == "incremental" or owner is not corp)):
            receiver = owner
        else:
            receiver = self.game.bank
        self.transfer(bundle, entity, spender=entity, receiver=receiver, price=price,
                      allow_president_change=allow_president_change)
        if corp.floatable and floated_before != corp.floated():
            self.game.float_corporation(corp)

    # ---------------------------------------------------------------- selling
    def sell_shares(self, bundle: ShareBundle, *, allow_president_change: bool = True) -> None:
        price = bundle.price()
        self.transfer(bundle, self.pool, spender=self.game.bank, receiver=bundle.owner, price=price,
                      allow_president_change=allow_president_change)

    # ---------------------------------------------------------------- core
    def transfer(self, bundle: ShareBundle, to: Any, *, spender: Any = None, receiver: Any = None, price: int = 0,
                 allow_president_change: bool = True, why: str | None = None) -> None:
        """Move ``bundle`` to ``to``; ``spender`` pays ``receiver`` ``price`` for it, for the reason
        ``why`` (by default a share sale when it goes to the pool, else a share purchase)."""
        corp = bundle.corporation
        owner = bundle.owner
        previous_president = corp.owner
        # (the bundle's president's certificate found once: nothing below changes the
        # bundle's certificates or which of them is the president's)
        pres_share = bundle.presidents_share
        if spender is not None and receiver is not None and price > 0:
            if why is None:
                why = "share_sale" if to is self.pool else "share_purchase"
            pay(self.game, spender, receiver, price, why)
        for s in list(bundle.shares):
            self._move_share(s, to)
        self.game.journal.add("shares", {"corporation": corp.id, "percent": bundle.percent, "seller": owner.id,
                                         "buyer": to.id, "price": price, "president": pres_share is not None})
        if not allow_president_change:
            return
        if not self.allow_president_sale and previous_president is not None and previous_president.is_player:
            # (the usual case first: the president still holds a largest player holding, so
            # stays; the same test as the majority's below, without its dict and list)
            held = corp.share_holders
            mine = held.get(previous_president, 0)
            if mine > 0:
                for h, p in held.items():
                    if p > mine and h.is_player:
                        break
                else:
                    return
        holders = corp.player_share_holders()
        max_pct = max(holders.values()) if holders else 0
        if (self.allow_president_sale and max_pct < corp.presidents_percent and pres_share is not None
                and to is self.pool):
            corp.owner = self.pool
            self._new_president(corp, previous_president)
            if bundle.partial:
                self._handle_partial(bundle, self.pool, owner)
            return
        if self.allow_president_sale and owner is self.pool and pres_share is not None:
            corp.owner = to
            self._new_president(corp, previous_president)
            self._handle_partial(bundle, to, self.pool)
            return
        if self.allow_president_sale and max_pct < corp.presidents_percent:
            return
        majority = [p for p, pct in holders.items() if pct == max_pct]
        if any(p is previous_president for p in majority):
            return
        president = None
        if previous_president is None:
            for p in majority:
                if p is corp.holder_of(corp.presidents_share):
                    president = p
                    break
        if president is None:
            cands = [p for p in majority if p.percent_of(corp) >= corp.presidents_percent]
            if cands:
                if previous_president is self.pool:
                    president = cands[0]
                else:
                    president = min(cands, key=lambda p: self.distance(previous_president, p))
        if president is None:
            return
        corp.owner = president
        self._new_president(corp, previous_president)
        if to is president and previous_president is owner and pres_share is not None and not bundle.partial:
            return
        if owner is corp and pres_share is None:
            previous_president = previous_president or corp
        if owner is president or previous_president is None:
            return
        presidents_share = pres_share or next((s for s in previous_president.shares_of(corp) if s.president), None)
        if presidents_share is None:
            return
        if owner.is_player and to.is_player and pres_share is not None:
            transfer_to = to
            swap_to = to
        else:
            transfer_to = self.pool
            keeps = previous_president.percent_of(corp) >= presidents_share.percent
            swap_to = previous_president if keeps else transfer_to
        self._change_president(presidents_share, swap_to, president)
        if bundle.partial:
            self._handle_partial(bundle, transfer_to, owner)

    def _new_president(self, corp: Any, before: Any) -> None:
        """Record that ``corp.owner`` has just become its president (the pool: receivership)."""
        if corp.owner is not before:
            self.game.journal.record("president", corporation=corp.id, player=corp.owner.id,
                                     before=None if before is None else before.id)

    def _handle_partial(self, bundle: ShareBundle, frm: Any, to: Any) -> None:
        corp = bundle.corporation
        diff = sum(s.percent for s in bundle.shares) - bundle.percent
        for _ in range(diff // corp.share_percent):
            self._move_share(frm.shares_of(corp)[0], to)

    def _change_president(self, presidents_share: Share, swap_to: Any, president: Any) -> None:
        corp = self.game.share_corp(presidents_share)
        num = presidents_share.percent // corp.share_percent
        moved = 0
        for s in list(president.shares_of(corp)):
            if moved >= num:
                break
            if s.president:
                continue
            self._move_share(s, swap_to)
            moved += s.percent // corp.share_percent
        self._move_share(presidents_share, president)

    # ---------------------------------------------------------------- bundles
    def bundles_for(self, holder: Any, corp: Corporation) -> list[ShareBundle]:
        """Every sellable bundle of ``holder``'s certificates of ``corp``, smallest first."""
        if not corp.ipoed:
            return []
        shares = list(holder.shares_of(corp))
        if not shares:
            return []
        shares.sort(key=lambda s: (1 if s.president else 0, s.percent))
        out: list[ShareBundle] = []
        acc: list[Share] = []
        pct = 0
        for s in shares:
            acc.append(s)
            pct += s.percent
            out.append(ShareBundle(list(acc), pct, corporation=corp))
        if shares[-1].president:
            normal = corp.share_percent
            diff = corp.presidents_percent - normal
            for n in range(1, diff // normal + 1):
                out.append(ShareBundle(list(acc), pct - normal * n, corporation=corp))
        out.sort(key=lambda b: b.percent)
        return out

    def any_bundle(self, holder: Any, corp: Corporation, ok: Callable[[ShareBundle], bool]) -> bool:
        """Whether ``ok`` holds for one of :meth:`bundles_for` (the same bundles, made one at a
        time and asked as made, smallest of the ordinary certificates first: a question that
        reads the state without changing it has the same answer in any order)."""
        if not corp.ipoed:
            return False
        shares = list(holder.shares_of(corp))
        if not shares:
            return False
        shares.sort(key=lambda s: (1 if s.president else 0, s.percent))
        acc: list[Share] = []
        pct = 0
        for s in shares:
            acc.append(s)
            pct += s.percent
            if ok(ShareBundle(list(acc), pct, corporation=corp)):
                return True
        if shares[-1].president:
            normal = corp.share_percent
            for n in range(1, (corp.presidents_percent - normal) // normal + 1):
                if ok(ShareBundle(list(acc), pct - normal * n, corporation=corp)):
                    return True
        return False

    def can_dump(self, entity: Any, bundle: ShareBundle) -> bool:
        if bundle.presidents_share is None:
            return True
        corp = bundle.corporation
        others = [p for h, p in corp.share_holders.items() if h is not entity
                  and (h.is_player or (h.is_corporation and h is not corp)) and p > 0]
        return (max(others) if others else 0) >= bundle.presidents_share.percent

    def change_given_back(self, seller: Any, bundle: ShareBundle) -> bool:
        """Can the sale of part of ``seller``'s president's certificate give back the rest?
        When the presidency passes, the new president swaps ordinary shares for the
        certificate, and the part not sold returns to the seller from the pool: with too few
        shares of the company there after the swap, the reference fails, so the sale is not
        a legal one (the 1825 random game of seed 0, game 10, offered one)."""
        pres = bundle.presidents_share
        if pres is None or not bundle.partial:
            return True
        corp = bundle.corporation
        moved = sum(s.percent for s in bundle.shares)
        # who is president afterwards is counted as the holders' percentages count the sale
        # (the percent sold), who gets the new president's shares by the certificates kept
        held = corp.share_holders.get(seller, 0) - bundle.percent
        top = max((p for h, p in corp.player_share_holders().items() if h is not seller), default=0)
        if held >= top:
            return True  # the seller stays president: nothing is swapped
        if self.allow_president_sale and top < corp.presidents_percent:
            return True  # receivership: the pool holds the certificate and gives back from it
        in_pool = sum(1 for s in self.pool.shares_of(corp) if not s.president)
        in_pool += sum(1 for s in bundle.shares if not s.president)
        if seller.percent_of(corp) - moved < pres.percent:  # the new president's shares go to the pool
            in_pool += pres.percent // corp.share_percent
        return in_pool >= (moved - bundle.percent) // corp.share_percent

    def fit_in_pool(self, bundle: ShareBundle, limit: int) -> bool:
        return bundle.percent + self.pool.percent_of(bundle.corporation) <= limit


def action_bundle(game: Game, action: dict[str, Any], priced: bool = True) -> ShareBundle:
    """The bundle an action's ``shares`` name (with its ``percent`` and, when ``priced``, the
    ``share_price`` it states), checked as ``bundle_from_ids`` checks it."""
    price = action.get("share_price") if priced else None
    return bundle_from_ids(game, action.get("shares") or [], action.get("percent"), price)


def bundle_from_ids(game: Game, share_ids: list[str], percent: int | None = None,
                    share_price: int | None = None) -> ShareBundle:
    if not share_ids or not isinstance(share_ids, list):
        raise GameError("no shares named", rule="malformed-action")
    if len(set(map(str, share_ids))) != len(share_ids):
        raise GameError("a bundle names each certificate once", rule="bad-bundle")
    shares: list[Share] = []
    for sid in share_ids:
        s = game.index.share(sid)
        if s is None:
            raise GameError(f"unknown share {sid}", rule="unknown-entity")
        shares.append(s)
    corp_ids = {s.corp_id for s in shares}
    corp = game.share_corp(shares[0])
    if len(corp_ids) != 1 or len({id(corp.holder_of(s)) for s in shares}) != 1:
        raise GameError("a bundle's shares must share one corporation and one owner", rule="bad-bundle")
    total = sum(s.percent for s in shares)
    # the percent is the certificates' sum: the client's figure is checked, not used. Only a
    # president's certificate may be sold in part (what it is worth in ordinary shares, less
    # some of them: the buyer of the presidency hands those back)
    if percent is None:
        pct = total
    elif type(percent) is not int:
        raise GameError(f"a bundle's percent is a whole number, not {percent!r}", rule="malformed-action")
    else:
        pct = percent
    if pct != total:
        pres = next((s for s in shares if s.president), None)
        unit = corp.share_percent or 0
        if pres is None or not (0 < pct < total) or not unit or (total - pct) % unit or total - pct >= pres.percent:
            raise GameError(f"bundle percent {pct} does not fit its certificates ({total}%)", rule="bad-bundle")
    return ShareBundle(shares, pct, share_price or None, corporation=corp)
