"""The observation vector of a trackage game: a compact numeric encoding of its public state.

Its layout is fixed per title, options and player count (:class:`Layout`, made from the game
at its start), so every position of a game gives a vector of the same length. In order:

* the round: three flags (stock, operating, other: auctions, draft, merger...), its number
  and the game's turn; the phase's position among the title's phases; the bank's cash; the
  number of trains left in the depot;
* who is looking and who acts: two one-hot blocks over the seats (the observer, the seat
  acting now; all zeros once the game is over);
* per seat: cash, value (the title's score of the seat now), certificates held, private
  companies held, then the percent it holds of each corporation;
* per corporation (the title's majors and minors, as the game began): floated, share price,
  cash, trains, tokens placed, percent in the pool, percent in its treasury (IPO), and the
  seat of its president (1-based; 0 for none).

Amounts are the title's own (not scaled); an entity a game no longer has gives zeros."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

ROUND_FLAGS = ("stock", "operating", "other")
GLOBAL_FIELDS = (*ROUND_FLAGS, "round_num", "turn", "phase", "bank", "depot_trains")
SEAT_FIELDS = ("cash", "value", "certs", "companies")
CORP_FIELDS = ("floated", "price", "cash", "trains", "tokens", "pool_percent", "ipo_percent", "president")


@dataclass(frozen=True)
class Layout:
    """Where each number sits in the vector of one title + options + player count."""

    seats: tuple[str, ...]
    corporations: tuple[str, ...]
    minors: tuple[str, ...]

    @classmethod
    def of(cls, game: Any) -> Layout:
        return cls(tuple(str(p.id) for p in game.seats), tuple(c.id for c in game.corporations),
                   tuple(m.id for m in game.minors))

    @property
    def size(self) -> int:
        n = len(self.seats)
        companies = len(self.corporations) + len(self.minors)
        return len(GLOBAL_FIELDS) + 2 * n + n * (len(SEAT_FIELDS) + len(self.corporations)) \
            + companies * len(CORP_FIELDS)

    def vector(self, game: Any, observer: int, acting: int | None) -> npt.NDArray[np.float32]:
        """The vector of ``game`` as seat ``observer`` sees it, seat ``acting`` to act
        (``None`` when nobody does)."""
        out: list[float] = []
        rnd = game.round
        kind = "stock" if rnd.is_stock() else ("operating" if rnd.is_operating() else "other")
        out += [1.0 if kind == k else 0.0 for k in ROUND_FLAGS]
        out += [float(rnd.round_num), float(game.turn), float(game.phase.index), float(game.bank.cash),
                float(len(game.depot.upcoming))]
        n = len(self.seats)
        out += [1.0 if s == observer else 0.0 for s in range(n)]
        out += [1.0 if s == acting else 0.0 for s in range(n)]
        players = {str(p.id): p for p in game.seats}
        corps = {c.id: c for c in game.corporations}
        for sid in self.seats:
            p = players.get(sid)
            if p is None:
                out += [0.0] * (len(SEAT_FIELDS) + len(self.corporations))
                continue
            out += [float(p.cash), float(game.player_value(p)), float(game.num_certs(p)), float(len(p.companies))]
            out += [float(p.percent_of(corps[c])) if c in corps else 0.0 for c in self.corporations]
        for cid in self.corporations:
            out += self._company(game, corps.get(cid), shares=True)
        minors = {m.id: m for m in game.minors}
        for mid in self.minors:
            out += self._company(game, minors.get(mid), shares=False)
        return np.asarray(out, dtype=np.float32)

    def _company(self, game: Any, c: Any, shares: bool) -> list[float]:
        if c is None:
            return [0.0] * len(CORP_FIELDS)
        sp = getattr(c, "share_price", None)
        owner = c.owner
        president = self.seats.index(str(owner.id)) + 1 if owner is not None and owner.is_player \
            and str(owner.id) in self.seats else 0
        return [1.0 if c.floated() else 0.0, float(sp.price) if sp is not None else 0.0, float(c.cash),
                float(len(c.trains)), float(sum(1 for t in c.tokens if t.used)),
                float(game.pool.percent_of(c)) if shares else 0.0,
                float(c.percent_of(c)) if shares else 0.0, float(president)]
