"""Generic operating-round steps: routes, dividends, discards, home tokens (train buying is in
:mod:`.buy_train`, re-exported here)."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, ClassVar

from .. import routes as routemod
from ..actions import amount
from ..entities import OperatingInfo, ShareHolder, record_operation
from ..errors import GameError
from ..money import pay
from ..round import Step
from ..suggestion import suggested_routes
from ..trains import Train, rust
from .buy_train import BuyTrain, Purchase

if TYPE_CHECKING:
    from ..tiles import City
    from ..tokens import Token

__all__ = ["BuyTrain", "DiscardTrain", "Dividend", "HomeToken", "Purchase", "RunRoutes"]


class RunRoutes(Step):
    """The operator names its routes; the engine computes what they earn."""

    HANDLERS: ClassVar[dict[str, Any]] = {"run_routes": "process_run_routes"}

    def round_state(self) -> dict[str, Any]:
        return {"routes": [], "extra_revenue": 0}

    def description(self) -> str:
        return "Run Routes"

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or not self.runs(entity):
            return []
        if not self.game.route_trains(entity) or not self.game.can_run_route(entity):
            return []
        return ["run_routes"]

    def runs(self, entity: Any) -> bool:
        """Title hook: is ``entity`` an operator that runs routes (default: a corporation)?"""
        runs: bool = entity.is_corporation
        return runs

    def process_run_routes(self, action: dict[str, Any], entity: Any) -> None:
        routes = action.get("routes")
        if not isinstance(routes, list):
            raise GameError("run_routes needs a list of routes", rule="malformed-action")
        game = self.game
        self.round.routes = routemod.evaluate_routes(game, entity, routes, action)
        ours = game.run_extra_revenue(entity, routes) if routes else 0
        claimed = amount(action, "extra_revenue", None)
        if claimed is not None and claimed != ours:
            msg = (f"action {action.get('id')}: {entity.name}'s run earns {ours} beside its routes, "
                   f"the action says {claimed}")
            if not game.loading or game.strict:
                raise GameError(msg, rule="wrong-revenue")
            game.warnings.append(msg)
        # a log's figure stands, as on 18xx.games, which takes the client's
        self.round.extra_revenue = claimed if (game.loading and claimed is not None) else ours
        for r in self.round.routes:
            route = r["route"] if isinstance(r.get("route"), dict) else {}
            train = game.depot.train_by_id(r["train"])
            game.journal.add("run", {"corporation": entity.id, "train": r["train"],
                                     "name": getattr(train, "name", r["train"]), "revenue": r["revenue"] or 0,
                                     "hexes": list(route.get("hexes") or [])})
        if not self.round.routes:
            game.journal.record("no_run", corporation=entity.id)
        self.pass_()

    def legal_actions(self, entity: Any) -> list[dict[str, Any]]:
        if "run_routes" not in self.actions(entity):
            return []
        if not self.game._suggesting:
            return [{"type": "run_routes"}]  # the suggestion only when asked (trackage.core.suggestion)
        return [{"type": "run_routes", **self.suggestion(entity)}]

    def suggestion(self, entity: Any) -> dict[str, Any]:
        """Title hook: the fields of ``entity``'s listed run_routes that come from the
        router's suggested run (default: ``routes``)."""
        return {"routes": suggested_routes(self.game, entity)}


class Dividend(Step):
    """The operator pays out or withholds its run's revenue.

    Titles hook in through ``decides`` (who chooses), ``auto_kind`` (what the others are
    paid), ``payout_amounts`` (the split), ``pays_half_to_owner`` (minors), ``pay_shareholders``,
    ``price_moves`` and ``after_dividend``."""

    HANDLERS: ClassVar[dict[str, Any]] = {"dividend": "process_dividend"}
    KINDS: ClassVar[tuple[str, ...]] = ("payout", "withhold")
    #: which part of a dividend is a whole amount per share: "kept" (a half dividend keeps
    #: its half rounded down so) or "paid" (1858: any dividend pays a whole amount a share,
    #: the rest is kept)
    WHOLE_PER_SHARE: ClassVar[str] = "kept"
    #: minors keep half of a dividend and pay their owner the rest (see :meth:`pays_half_to_owner`)
    MINORS_PAY_HALF: ClassVar[bool] = False
    #: a company's own shares pay it (see :meth:`corporation_dividends`)
    COMPANY_SHARES_PAY: ClassVar[bool] = True

    def description(self) -> str:
        return "Pay or Withhold Dividends"

    def actions(self, entity: Any) -> list[str]:
        if entity is not self.current_entity() or not self.decides(entity):
            return []
        if self.total_revenue() == 0:
            return []
        return ["dividend"]

    def decides(self, entity: Any) -> bool:
        """Title hook: does ``entity`` choose its dividend (others are paid ``auto_kind``)?
        Default: any operator but a private company."""
        return not entity.is_company

    def auto_kind(self, entity: Any) -> str | None:
        """Title hook: the dividend paid when ``entity`` does not choose (no revenue, or an
        operator that never chooses); None passes the step without one. Default: withhold."""
        return "withhold"

    def total_revenue(self) -> int:
        revenue: int = sum(r["revenue"] for r in self.round.routes) + (self.round.extra_revenue or 0)
        return revenue

    def skip(self) -> None:
        entity = self.current_entity()
        kind = self.auto_kind(entity)
        if kind is None:
            self.pass_()
        else:
            self.do_dividend(entity, kind)

    def legal_actions(self, entity: Any) -> list[dict[str, Any]]:
        if "dividend" not in self.actions(entity):
            return []
        return [{"type": "dividend", "kind": k} for k in self.KINDS]

    def process_dividend(self, action: dict[str, Any], entity: Any) -> None:
        kind = action.get("kind")
        if kind not in self.KINDS:
            raise GameError(f"dividend kind must be one of {', '.join(self.KINDS)}", rule="bad-dividend-kind")
        self.do_dividend(entity, kind)

    # --- the money
    def pays_half_to_owner(self, entity: Any) -> bool:
        """Title hook: does ``entity`` (a minor without shareholders) keep half of any
        dividend it does not withhold and hand the rest to its owner? Default: a minor (a
        :class:`Minor`, or a company of type ``minor``) does when :attr:`MINORS_PAY_HALF`."""
        return self.MINORS_PAY_HALF and (entity.is_minor or entity.type == "minor")

    def payout_amounts(self, entity: Any, kind: str, revenue: int) -> tuple[int, int]:
        """(kept by the corporation, distributed to shareholders), the part named by
        ``WHOLE_PER_SHARE`` rounded down to a whole amount per share."""
        if kind == "withhold":
            return revenue, 0
        if self.pays_half_to_owner(entity):
            return revenue // 2, revenue - revenue // 2
        shares = entity.total_shares
        if self.WHOLE_PER_SHARE == "paid":
            paid: int = (revenue // 2 if kind == "half" else revenue) // shares * shares
            return revenue - paid, paid
        kept = revenue // 2 // shares * shares if kind == "half" else 0
        return kept, revenue - kept

    def do_dividend(self, entity: Any, kind: str) -> None:
        revenue = self.total_revenue()
        kept, paid = self.payout_amounts(entity, kind, revenue)
        shares = getattr(entity, "total_shares", 0)  # (a minor of some titles has no shares)
        self.game.journal.add("dividend", {"corporation": entity.id, "choice": kind, "revenue": revenue, "kept": kept,
                                           "paid": paid,
                                           "per_share": int(self.per_share(entity, paid)) if paid and shares else 0})
        record_operation(entity, (self.game.turn, self.round.round_num),
                         OperatingInfo(self.round.routes, revenue, kind))
        for t in entity.trains:
            t.operated = True
        self.rust_obsolete(entity)
        self.round.routes = []
        self.round.extra_revenue = 0
        if kept > 0:
            pay(self.game, self.game.bank, entity, kept, "withheld")
        if paid > 0:
            self.pay_shareholders(entity, paid)
        self.move_price(entity, revenue, kept, paid)
        self.after_dividend(entity)
        self.pass_()

    def rust_obsolete(self, entity: Any) -> None:
        for t in [t for t in entity.trains if t.obsolete]:
            rust(self.game, t)

    def per_share(self, entity: Any, amount: int) -> float:
        return amount / float(entity.total_shares)

    def dividends_for(self, entity: Any, holder: Any, per_share: float) -> int:
        dividends: int = math.ceil(holder.percent_of(entity) / entity.share_percent * per_share)
        return dividends

    def corporation_dividends(self, entity: Any, per_share: float) -> int:
        """What ``entity`` is paid for its own shares: those in its treasury (incremental) or
        in the market pay it, unless not :attr:`COMPANY_SHARES_PAY`."""
        if not self.COMPANY_SHARES_PAY:
            return 0
        holder = entity if entity.capitalization == "incremental" else self.game.pool
        return self.dividends_for(entity, holder, per_share)

    def pay_shareholders(self, entity: Any, amount: int) -> None:
        if self.pays_half_to_owner(entity):
            if entity.owner is not None:
                pay(self.game, self.game.bank, entity.owner, amount, "dividend")
            return
        ps = self.per_share(entity, amount)
        game = self.game
        # (the default share count of a holder with no certificates at all is nothing: most
        # payees asked are companies holding none, passed without a scan of each)
        plain = type(self).dividends_for is Dividend.dividends_for
        base_percent_of = ShareHolder.percent_of
        share_percent = entity.share_percent
        cid = entity.id
        for payee in (*game.players, *game.corporations):
            if payee is entity:
                amt = self.corporation_dividends(entity, ps)
            elif plain and type(payee).percent_of is base_percent_of:
                # (the default ``dividends_for`` with the default ``percent_of``, worked out in
                # place: the same sum; a holder of none of the certificates is paid nothing)
                held = 0
                for s in payee.certificates:
                    if s.corp_id == cid:
                        held += s.percent
                if not held:
                    continue
                amt = math.ceil(held / share_percent * ps)
            else:
                amt = self.dividends_for(entity, payee, ps)
            if amt > 0:
                pay(game, game.bank, payee, amt, "dividend")

    def move_price(self, entity: Any, revenue: int, kept: int, paid: int) -> None:
        """Withholding everything moves the price left; a paid dividend ``price_moves`` right."""
        if entity.share_price is None:
            return
        if paid <= 0:
            self.game.stock_market.move_left(entity)
            return
        for _ in range(self.price_moves(entity, paid)):
            self.game.stock_market.move_right(entity)

    def price_moves(self, entity: Any, paid: int) -> int:
        """Title hook: how many steps right a dividend of ``paid`` moves the price (default 1)."""
        return 1

    def after_dividend(self, entity: Any) -> None:
        """Title hook: what follows the dividend (default: nothing)."""


def _over_limit(holder: Any, limit: Callable[[Any], int]) -> bool:
    """Whether ``holder`` has more live trains than its limit (one of no more trains than its
    limit, live or not, is never over it: its live trains are not counted)."""
    trains = holder.trains
    return bool(trains) and len(trains) > (n := limit(holder)) and sum(1 for t in trains if not t.obsolete) > n


def _anyone_over_by_kind(game: Any, limit: Callable[[Any], int]) -> bool:
    """Whether an operator holds more live trains than its limit, the limit asked once per
    kind of operator (for titles whose limit depends on the kind alone)."""
    limits: dict[Any, int] = {}
    for group in (game.corporations, game.minors):
        for c in group:
            trains = c.trains
            if not trains:
                continue
            kind = getattr(c, "type", "")
            n = limits.get(kind)
            if n is None:
                n = limits[kind] = limit(c)
            if len(trains) > n and sum(1 for t in trains if not t.obsolete) > n:
                return True
    return False


def over_phase_table_limit(game: Any) -> bool:
    """Whether an operator holds more live trains than the current phase's ``train_limit``
    allows its kind (a number, or a table by the holder's ``type``, read once): for titles
    whose ``train_limit`` is exactly that reading (1867, 1861, 1893)."""
    phase = game.phase  # (the current phase's row read in place: no property call)
    tl = phase.phases[phase.index].get("train_limit", 99)
    by_kind = isinstance(tl, dict)
    # (no call per holder: a holder's kind is its ``type`` slot, always set; a kind missing
    # from the table has limit 0 (a subscript, no ``get``); ``trains[n:]`` is non-empty
    # exactly when the holder has more than ``n`` trains, ``trains`` being non-empty there)
    for group in (game.corporations, game.minors):
        for c in group:
            trains = c.trains
            if not trains:
                continue
            if by_kind:
                try:
                    n = tl[c.type]
                except KeyError:
                    n = 0
            else:
                n = tl
            if trains[n:] and sum(1 for t in trains if not t.obsolete) > n:
                return True
    return False


class DiscardTrain(Step):
    """A company over its train limit discards trains, one action each, until within it.

    Titles hook in through ``crowded`` (who must discard, in order), ``discardable`` (which
    trains may go), ``discard_key`` (which trains are one choice) and ``discard`` (what
    discarding does)."""

    HANDLERS: ClassVar[dict[str, Any]] = {"discard_train": "process_discard_train"}
    #: the rule broken by naming a train the entity holds but may not discard
    UNDISCARDABLE_RULE: ClassVar[str] = "bad-discard"

    def description(self) -> str:
        return "Discard Train"

    def crowded(self) -> list[Any]:
        game = self.game
        limit = game.train_limit
        # (asked for every step check of every action)
        return [c for group in (game.corporations, game.minors) for c in group if _over_limit(c, limit)]

    def current_entity(self) -> Any:
        c = self.crowded()
        return c[0] if c else None

    def active(self) -> bool:
        return self.anyone_crowded()

    def anyone_crowded(self) -> bool:
        """Whether :meth:`crowded` names anyone (asked by every step question of every
        action). Default: the list's truth, stopping at the first over its limit (the list,
        worked out, for a step with a :meth:`crowded` of its own); a title may answer sooner."""
        if type(self).crowded is not DiscardTrain.crowded:
            return bool(self.crowded())
        game = self.game
        limit = game.train_limit
        if game.TRAIN_LIMIT_BY_KIND:
            return _anyone_over_by_kind(game, limit)
        for group in (game.corporations, game.minors):
            for c in group:
                # (a holder without trains is never over: most are, and are passed at once)
                if c.trains and _over_limit(c, limit):
                    return True
        return False

    def actions(self, entity: Any) -> list[str]:
        return ["discard_train"] if entity is self.current_entity() else []

    def discardable(self, entity: Any) -> list[Train]:
        """Title hook: the trains ``entity`` may discard now (default: all it holds)."""
        return list(entity.trains)

    def discard_key(self, train: Train) -> Hashable:
        """Title hook: trains with equal keys are one choice in the legal actions (default: the name)."""
        return train.name

    def discard(self, entity: Any, train: Train) -> None:
        """Title hook: discard ``train`` of ``entity`` (default: to the pool, or away if it rusts)."""
        self.game.discard_train(train)

    def process_discard_train(self, action: dict[str, Any], entity: Any) -> None:
        train = self.game.depot.train_by_id(action.get("train"))
        if train is None or train.owner is not entity:
            raise GameError(f"{entity.name} does not own train {action.get('train')!r}", rule="not-owner")
        if train not in self.discardable(entity):
            raise GameError(f"{entity.name} cannot discard its {train.name} train", rule=self.UNDISCARDABLE_RULE)
        self.discard(entity, train)

    def legal_actions(self, entity: Any) -> list[dict[str, Any]]:
        if entity is not self.current_entity():
            return []
        seen: set[Hashable] = set()
        out: list[dict[str, Any]] = []
        for t in self.discardable(entity):
            key = self.discard_key(t)
            if key not in seen:
                seen.add(key)
                out.append({"type": "discard_train", "train": t.id})
        return out


class HomeToken(Step):
    """Asks an operator to choose a city for a home token when that is ambiguous.

    A pending token is a dict: ``entity``, ``token``, ``hexes`` and optionally ``cities`` (the
    cities offered; default every city on the hexes). Titles hook in through ``home_room``
    (is there room, else ``HOME_ROOM_RULE`` is broken), ``home_price`` (what it costs),
    ``make_home_room`` (before the token goes in) and ``after_home_token``."""

    HANDLERS: ClassVar[dict[str, Any]] = {"place_token": "process_place_token"}
    #: the rule broken by naming a city without room for the home token
    HOME_ROOM_RULE: ClassVar[str] = "city-full"

    def round_state(self) -> dict[str, Any]:
        return {"pending_tokens": []}

    def pending(self) -> Any:
        """The first pending home token, or None; Any, as the handlers index it unchecked
        while the step is active."""
        return self.round.pending_tokens[0] if self.round.pending_tokens else None

    def active(self) -> bool:
        return self.pending() is not None

    def current_entity(self) -> Any:
        p = self.pending()
        return p["entity"] if p else None

    def actions(self, entity: Any) -> list[str]:
        p = self.pending()
        return ["place_token"] if p and entity is p["entity"] else []

    def home_cities(self, pending: dict[str, Any]) -> list[City]:
        """The cities ``pending`` offers: its ``cities``, else every city on its hexes."""
        cities: list[City] | None = pending.get("cities")
        board = self.game.board
        return list(cities) if cities is not None else [c for h in pending["hexes"] for c in board.tile(h).cities]

    def home_room(self, entity: Any, city: City, token: Token) -> bool:
        """Title hook: is there room for ``entity``'s home ``token`` in ``city``? Default: a
        free slot and no token of its own on the tile."""
        room: bool = self.game.board.tokenable(city, entity, free=True, tokens=[token])
        return room

    def home_price(self, entity: Any, city: City, token: Token) -> int:
        """Title hook: what ``entity`` pays the bank for its home token in ``city`` (default: nothing)."""
        return 0

    def make_home_room(self, entity: Any, city: City) -> None:
        """Title hook: changes to ``city`` before the home token goes in (default: none)."""

    def after_home_token(self, entity: Any, city: City) -> None:
        """Title hook: bookkeeping once ``entity`` has placed a pending home token in ``city``."""

    def legal_actions(self, entity: Any) -> list[dict[str, Any]]:
        p = self.pending()
        if not p or entity is not p["entity"]:
            return []
        board, token = self.game.board, p["token"]
        return [{"type": "place_token", "city": c.id, "slot": board.get_slot(c, entity) or 0}
                for c in self.home_cities(p)
                if self.home_room(entity, c, token) and self.home_price(entity, c, token) <= entity.cash] + \
            [{"type": "pass"} for a in self.actions(entity) if a == "pass"]

    def process_place_token(self, action: dict[str, Any], entity: Any) -> None:
        p = self.pending()
        game, token = self.game, p["token"]
        city = game.board.city_by_id(action.get("city"))
        if city is None:
            raise GameError(f"unknown city {action.get('city')!r}", rule="unknown-city")
        if not self.home_room(entity, city, token):
            raise GameError(f"no room for {entity.name}'s home token in {city.id}", rule=self.HOME_ROOM_RULE)
        if city not in self.home_cities(p):
            raise GameError(f"{city.id} is not a home location for {entity.name}", rule="bad-home-token")
        price = self.home_price(entity, city, token)
        if price > entity.cash:
            raise GameError(f"{entity.name} cannot pay {price} for its home token",
                            rule="insufficient-cash")
        self.make_home_room(entity, city)
        token = self.pending()["token"]  # (the hook may have put a new value in the entry)
        game.board.place_city_token(city, entity, token, free=True, check_tokenable=False)
        if price > 0:
            pay(game, entity, game.bank, price, "token")
        self.round.pending_tokens.pop(0)
        self.after_home_token(entity, city)
        game.graph_changed()
