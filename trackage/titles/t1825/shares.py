"""1825's share transfers: the holdings count that decides presidencies, kept as 18xx.games keeps it.

The reference counts each holder's percentage of a corporation separately from the
certificates it holds, and changes that count only by the sold or bought percentage of a
transfer. Certificates that change hands as part of the transfer (the president's swap, the
part of a president's certificate given back after a partial sale) do not touch it.

Normally both agree. They part when a director sells half of a minor's 40% president's
certificate to an empty pool (quirk "stale presidency count", docs/quirks.md): the pool
takes the certificate, the corporation enters receivership, and the certificate goes back
to the seller as the 20% "change". The seller then holds 40% of certificates but counts as
holding 20%, so later transfers decide the presidency from the 20%, and selling or buying
counts from there. We keep the same count so that games replay identically there.
"""

from __future__ import annotations

from ...core.entities import set_holder, shift_holding
from ...core.shares import ShareMarket


class ShareMarket1825(ShareMarket):
    def _move_share(self, share, to) -> None:
        # certificates only: the holdings count follows transfers (see transfer)
        corp = self.game.share_corp(share)
        owner = corp.holder_of(share)
        owner._remove_share(share)
        to._add_share(share)
        set_holder(corp, share, to)

    def transfer(self, bundle, to, **kwargs) -> None:
        corp = bundle.corporation
        owner = bundle.owner
        shift_holding(corp, owner, to, bundle.percent)
        super().transfer(bundle, to, **kwargs)
