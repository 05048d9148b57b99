"""Players, private companies, corporations, share certificates and their holders."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from .kinds import Kinds  # every owner's kind flags (is_player, is_corporation ...)
from .money import CashHolder

if TYPE_CHECKING:
    from .market import SharePrice
    from .tokens import Token
    from .trains import Train

T = TypeVar("T")


def entity_type(e: Kinds) -> str:
    """An entity's kind as actions name it (``entity_type``): player, company, minor or
    corporation."""
    if e.is_player:
        return "player"
    if e.is_company:
        return "company"
    if e.is_minor:
        return "minor"
    return "corporation"

class ShareHolder(Kinds):
    """Holds certificates: one tuple of them in arrival order (order matters: of a
    corporation's certificates, the one that came first is the first to go). One container
    per holder, not one per corporation held, and a tuple replaced on every change, never
    changed in place: a game copy copies one container per holder, and none for a holder
    with nothing (every copy shares the empty tuple)."""

    __slots__ = ("certificates",)
    certificates: tuple[Share, ...]
    # (a tuple of certificates, frozen values, replaced on every change: copies share it)
    CLONE_SHARE: tuple[str, ...] = ("certificates",)

    def shares_of(self, corp: Corporation) -> list[Share]:
        """The certificates of ``corp`` held, in arrival order (a new list)."""
        cid = corp.id
        return [s for s in self.certificates if s.corp_id == cid]

    def percent_of(self, corp: Corporation) -> int:
        # (a plain loop: a generator under ``sum`` costs a frame per call and a resume per
        # certificate, and most holders asked hold none or few)
        cid = corp.id
        total = 0
        for s in self.certificates:
            if s.corp_id == cid:
                total += s.percent
        return total

    def held_corporations(self) -> set[str]:
        """The ids of the corporations of which a certificate is held (one look at the
        holdings instead of a :meth:`shares_of` per corporation)."""
        return {s.corp_id for s in self.certificates}

    def num_shares_of(self, corp: Corporation) -> int:
        return math.ceil(self.percent_of(corp) / corp.share_percent)

    def holdings(self) -> dict[str, list[Share]]:
        """The certificates held, by corporation id (corporations in the order their first
        certificate held arrived; each one's certificates in arrival order)."""
        out: dict[str, list[Share]] = {}
        for s in self.certificates:
            out.setdefault(s.corp_id, []).append(s)
        return out

    def all_shares(self) -> list[Share]:
        return list(self.certificates)

    def drop_holdings(self, corp: Corporation) -> None:
        """Forget every certificate of ``corp`` held (it closes)."""
        cid = corp.id
        self.certificates = tuple(s for s in self.certificates if s.corp_id != cid)

    def _add_share(self, share: Share) -> None:
        self.certificates += (share,)

    def _remove_share(self, share: Share) -> None:
        self.certificates = without(self.certificates, share)


def without(items: Sequence[T], item: T) -> tuple[T, ...]:
    """``items`` less the first ``item`` (which must be among them: ValueError if not), as a
    new tuple: what an operator holds is replaced, never changed in place (the undo journal's
    write barrier then notes the change, and nothing need be saved before an action)."""
    i = items.index(item)
    return (*items[:i], *items[i + 1:])


class Player(CashHolder, ShareHolder):
    __slots__ = ("bankrupt", "cash", "companies", "id", "name", "passed", "penalty")
    CLONE_ATOMS = ("bankrupt", "cash", "id", "name", "passed", "penalty")  # (as a company's)
    is_player = True
    #: a player never closes: read as every holder's ``closed`` is (a class answer, no slot:
    #: not part of the state, copied or journaled; asked without a failed look-up)
    closed: ClassVar[bool] = False

    def __init__(self, pid: Any, name: str):
        self.id = pid
        self.name = name
        self.cash = 0
        self.certificates = ()
        self.companies: tuple[Company, ...] = ()  # replaced on every change (see ``without``)
        self.bankrupt = False
        self.passed = False
        self.penalty = 0

    @property
    def player(self) -> Player:
        return self

    @property
    def owner(self) -> Player:
        return self

    def __repr__(self) -> str:
        return f"<Player {self.name}>"


class SharePoolHolder(ShareHolder):
    """The open market (bank pool) as a certificate holder."""

    __slots__ = ()
    is_pool = True
    name = "Market"
    id = "pool"
    cash = 0
    owner = None
    player = None

    def __init__(self) -> None:
        self.certificates = ()


class Company(Kinds):
    """A private company (or any certificate-like company card)."""

    __slots__ = ("abilities", "closed", "data", "max_price", "min_price", "name", "owner", "revenue", "sym", "value")
    # the title's data for it (catalogue); and its abilities, replaced, never changed in
    # place once the game is set up (a title that uses one up replaces it: see 1822's)
    CLONE_SHARE = ("data", "abilities")
    # (slots that only ever hold numbers, strings, booleans or None: a copy takes them as
    # they are, see ``clone``)
    CLONE_ATOMS = ("closed", "max_price", "min_price", "name", "revenue", "sym", "value")
    is_company = True
    # a title's price range for buying it in (None unless the title sets them)
    min_price: int | None
    max_price: int | None

    def __init__(self, sym: str, name: str, value: int, revenue: int, abilities: Iterable[Any] | None = None,
                 data: dict[str, Any] | None = None):
        self.sym = sym
        self.name = name
        self.value = value
        self.revenue = revenue
        self.owner: Any = None  # the holder: a player, a corporation, a minor, the bank ...
        self.closed = False
        self.abilities = list(abilities or [])
        self.data = data or {}
        # (set, not left unset: a copy reads every slot, and an unset one costs an exception)
        self.min_price = None
        self.max_price = None

    @property
    def id(self) -> str:
        return self.sym

    @property
    def player(self) -> Player | None:
        o = self.owner
        return o if o is not None and o.is_player else None

    def close(self) -> None:
        if self.owner is not None and hasattr(self.owner, "companies") and self in self.owner.companies:
            self.owner.companies = without(self.owner.companies, self)
        self.owner = None
        self.closed = True
        self.abilities = []

    def __repr__(self) -> str:
        return f"<Company {self.sym}>"


@dataclass(frozen=True, slots=True, eq=False)
class Share:
    """A certificate: which corporation's (``corp_id``), its place among that corporation's
    certificates (``index``), its percent and flags. A value, never changed: every copy of a
    game shares its certificates. Who holds it is the corporation's (``cert_holders``, by
    index: :meth:`Corporation.holder_of`); a certificate that changes (1858's conversion halves
    the percent, 1893 makes exchange certificates buyable) is replaced by a new one with the
    same corporation and index wherever it is held (:func:`replace_certificate`)."""

    corp_id: str
    index: int
    percent: int
    president: bool
    buyable: bool = True
    counts_for_limit: bool = True

    @property
    def id(self) -> str:
        return f"{self.corp_id}_{self.index}"

    def __repr__(self) -> str:
        return f"<Share {self.id} {self.percent}%>"


def _setters(cls: type) -> tuple[Any, ...]:
    return tuple(cls.__dict__[name].__set__ for name in cls.__slots__)  # type: ignore[attr-defined]


def new_share(corp_id: str, index: int, percent: int, president: bool, _new: Any = object.__new__,
              _set: tuple[Any, ...] = _setters(Share)) -> Share:
    """``Share(corp_id, index, percent, president)``, made without the frozen class's
    ``__init__`` (its slots filled at once: a corporation's certificates are many per game)."""
    share: Share = _new(Share)
    s_corp, s_index, s_percent, s_president, s_buyable, s_counts = _set
    s_corp(share, corp_id)
    s_index(share, index)
    s_percent(share, percent)
    s_president(share, president)
    s_buyable(share, True)
    s_counts(share, True)
    return share


@dataclass
class ShareBundle:
    """Certificates of one corporation and owner sold or bought together.

    ``percent`` may be less than the certificates' sum when a president's
    certificate is split (the surplus goes back to the seller).
    """

    shares: list[Share]
    percent: int = 0
    share_price: int | None = None  # per-share price override
    corporation: Corporation = field(default=None, kw_only=True)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.corporation is None:
            raise TypeError("a share bundle names its corporation")
        if not self.percent:
            self.percent = sum(s.percent for s in self.shares)

    @property
    def owner(self) -> Any:
        """The holder of the bundle's certificates (as they are held now)."""
        # (``Corporation.holder_of``, in place)
        corp = self.corporation
        h = corp.cert_holders[self.shares[0].index]
        return corp if h is None else h

    @property
    def presidents_share(self) -> Share | None:
        for s in self.shares:
            if s.president:
                return s
        return None

    @property
    def partial(self) -> bool:
        return self.percent != sum(s.percent for s in self.shares)

    def num_shares(self) -> float:
        return self.percent / self.corporation.share_percent

    def price_per_share(self) -> int:
        if self.share_price:
            return self.share_price
        return certificate_price_per_share(self.corporation, self.shares[0])

    def price(self) -> int:
        return math.ceil(self.price_per_share() * self.percent / self.corporation.share_percent)


def certificate_price_per_share(corp: Corporation, share: Share) -> int:
    """What one share of ``corp`` costs bought as ``share`` is held now: the par price from
    the IPO, the market price elsewhere (the corporation's minimum without a price)."""
    # (``Corporation.holder_of``, in place: asked for every certificate priced)
    h = corp.cert_holders[share.index]
    sp = corp.par_price if (corp if h is None else h) is corp.ipo_owner else corp.share_price
    return sp.price * corp.price_multiplier if sp is not None else (corp.min_price or 0)


def certificate_price(corp: Corporation, share: Share) -> int:
    # (:func:`certificate_price_per_share`, in place)
    h = corp.cert_holders[share.index]
    sp = corp.par_price if (corp if h is None else h) is corp.ipo_owner else corp.share_price
    per_share = sp.price * corp.price_multiplier if sp is not None else (corp.min_price or 0)
    return math.ceil(per_share * share.percent / corp.share_percent)


class Corporation(CashHolder, ShareHolder):
    """A share-issuing company: majors, and minors modelled as corporations."""

    # slots, not a __dict__: a game copy copies them with one read and one store each (a
    # title's subclass declares its own attributes the same way)
    __slots__ = ("_floated", "capitalization", "cash", "cert_holders", "city", "closed", "companies", "coordinates",
                 "data", "float_percent", "floatable", "id", "ipoed", "max_ownership_percent", "min_price", "name",
                 "operating_history", "owner", "par_price", "presidents_share", "price_multiplier", "share_holders",
                 "share_percent", "share_price", "shares", "sym", "token_prices", "tokens", "trains",
                 "type")
    # the title's data for it; and the operating history, (turn, round) -> OperatingInfo:
    # plain keys and records, a dict replaced on every record (:func:`record_operation`),
    # never changed in place, so copies of the game share it
    # its certificates and its station tokens: tuples of frozen values (``Share``, ``Token``),
    # replaced on every change, never changed in place, so copies share them as they share
    # the values
    CLONE_SHARE = ("data", "coordinates", "city", "token_prices", "operating_history", "shares", "tokens")
    # (slots that only ever hold numbers, strings, booleans or None, as a company's)
    CLONE_ATOMS: tuple[str, ...] = (
        "_floated", "capitalization", "cash", "closed", "float_percent", "floatable", "id", "ipoed",
        "max_ownership_percent", "min_price", "name", "price_multiplier", "share_percent", "sym", "type")
    # ``id`` is ``sym`` again, kept in a slot (read very often: a plain read where a property
    # call would cost a frame); never written after construction, and left out of the state's
    # dump as the same value as ``sym``
    STATE_EXCLUDE: tuple[str, ...] = ("id",)

    is_corporation = True

    def __init__(self, sym: str, name: str, *, share_percents: list[int], tokens: list[int],
                 coordinates: Any = None, city: Any = None, float_percent: int = 60, max_ownership_percent: int = 60,
                 type_: str = "major", capitalization: str = "full", data: dict[str, Any] | None = None):
        self.sym = sym
        self.id = sym
        self.name = name
        self.cash = 0
        self.certificates: tuple[Share, ...] = ()
        self.type = type_
        self.capitalization = capitalization
        self.float_percent = float_percent
        self.max_ownership_percent = max_ownership_percent
        self.coordinates = coordinates
        self.city = city
        self.data = data or {}
        self.owner: Any = None  # the president (a player), the open market in receivership ...
        self.ipoed = False
        self._floated = False
        self.floatable = True
        self.closed = False
        self.par_price: SharePrice | None = None
        self.min_price: int | None = None
        self.share_price: SharePrice | None = None
        self.trains: tuple[Train, ...] = ()  # replaced on every change (see ``without``)
        self.companies: tuple[Company, ...] = ()  # replaced on every change (see ``without``)
        self.operating_history: dict[Any, OperatingInfo] = {}
        self.share_holders: dict[Any, int] = {}  # replaced on every change (``shift_holding``)
        self.token_prices = list(tokens)
        self.tokens: tuple[Token, ...] = ()  # filled by the game; replaced on every change
        # (new values each time: a corporation made again in play, under the same id, must not
        # hold the certificates of the one it replaces)
        self.shares = tuple([new_share(sym, i, p, i == 0) for i, p in enumerate(share_percents)])
        self.presidents_share = self.shares[0]
        # the holder of each certificate, by its index, None for the corporation itself (its
        # IPO): replaced on every move, never changed in place (:func:`set_holder`); read
        # through :meth:`holder_of`. (A corporation no one has bought into holds a tuple of
        # atoms, which every copy shares.)
        self.cert_holders: tuple[Any, ...] = (None,) * len(self.shares)
        first = share_percents[0]
        self.share_percent = share_percents[1] if len(share_percents) > 1 else first // 2 or first
        price_percent = self.data.get("price_percent") or self.share_percent
        self.price_multiplier = self.share_percent // price_percent
        if type(self)._add_share is ShareHolder._add_share:
            self.certificates = self.shares  # all of them, in order (the loop below, at once)
        else:
            for s in self.shares:
                self._add_share(s)
        self.share_holders = {self: sum(share_percents)}

    @property
    def ipo_owner(self) -> Any:
        return self

    @property
    def player(self) -> Player | None:
        o = self.owner
        return o if o is not None and o.is_player else None

    @property
    def presidents_percent(self) -> int:
        return self.presidents_share.percent

    @property
    def total_shares(self) -> int:
        return 100 // self.share_percent

    def num_ipo_shares(self) -> int:
        return self.num_shares_of(self)

    def ipo_shares(self) -> list[Share]:
        return list(self.shares_of(self))

    def num_market_shares(self, pool: ShareHolder) -> int:
        return pool.percent_of(self) // self.share_percent

    def floated(self) -> bool:
        if not self.floatable:
            return False
        if not self._floated:
            self._floated = self.percent_of(self) <= 100 - self.float_percent
        return self._floated

    def receivership(self) -> bool:
        o: Kinds | None = self.owner
        return o is not None and o.is_pool

    def holding_ok(self, holder: ShareHolder | Minor, extra_percent: int = 0) -> bool:
        if holder is self:
            return True
        if self.share_price is not None and self.share_price.type in ("multiple_buy", "unlimited"):
            return True
        return holder.percent_of(self) + extra_percent <= self.max_ownership_percent

    def holder_of(self, share: Share) -> Any:
        """Who holds ``share`` (one of this corporation's certificates)."""
        h = self.cert_holders[share.index]
        return self if h is None else h

    def player_share_holders(self) -> dict[Any, int]:
        return {h: p for h, p in self.share_holders.items() if h.is_player and p > 0}

    def operated(self) -> bool:
        return bool(self.operating_history)

    def tokens_placed(self) -> int:
        return sum(1 for t in self.tokens if t.used)

    def unused_tokens(self) -> list[Token]:
        return [t for t in self.tokens if not t.used]

    def __repr__(self) -> str:
        return f"<Corporation {self.sym}>"


def set_holder(corp: Corporation, share: Share, to: Any) -> None:
    """Note ``to`` as the holder of ``share`` (a certificate of ``corp``): the holders' tuple is
    replaced, never changed in place (the undo journal's write barrier notes it)."""
    holders = corp.cert_holders
    i = share.index
    corp.cert_holders = (*holders[:i], None if to is corp else to, *holders[i + 1:])


def replace_certificate(corp: Corporation, old: Share, new: Share) -> None:
    """Put ``new`` (same corporation and index) where ``old`` is: the corporation's
    certificates, its president's certificate, the holder's certificates (same position)."""
    corp.shares = tuple(new if s is old else s for s in corp.shares)
    if corp.presidents_share is old:
        corp.presidents_share = new
    holder = corp.holder_of(old)
    holder.certificates = tuple(new if s is old else s for s in holder.certificates)


def shift_holding(corp: Corporation, frm: Any, to: Any, percent: int) -> None:
    """Move ``percent`` of ``corp`` from ``frm`` to ``to`` in its holder ledger, which is
    replaced, never changed in place (the undo journal's write barrier notes it)."""
    ledger = dict(corp.share_holders)
    ledger[frm] = ledger.get(frm, 0) - percent
    ledger[to] = ledger.get(to, 0) + percent
    corp.share_holders = ledger


def record_operation(operator: Corporation | Minor, key: tuple[int, int], info: OperatingInfo) -> None:
    """File ``info`` as what ``operator`` did in operating round ``key`` (turn, round): the
    history is replaced, never changed in place (copies of a game share it)."""
    operator.operating_history = {**operator.operating_history, key: info}


@dataclass(frozen=True)
class OperatingInfo:
    """What an operator did in one operating round (a record: never changed, so copies of a
    game share it)."""

    routes: list[Any] = field(default_factory=list)
    revenue: int = 0
    kind: str = "withhold"


class Minor(CashHolder):
    """An operator without shares (a "minor" in the reference): one owner, a treasury,
    trains and station tokens. It floats when the title says so (``float_``)."""

    __slots__ = ("_floated", "cash", "city", "closed", "companies", "coordinates", "data", "name",
                 "operating_history", "owner", "sym", "tokens", "trains", "type")  # as a corporation's
    # the title's data for it, and the operating history (as a corporation's)
    CLONE_SHARE: tuple[str, ...] = ("data", "coordinates", "city", "operating_history", "tokens")
    CLONE_ATOMS: tuple[str, ...] = ("_floated", "cash", "closed", "name", "sym", "type")  # (as a company's)
    is_minor = True
    share_price = None
    par_price = None

    def __init__(self, sym: str, name: str, *, coordinates: Any = None, city: Any = None, type_: str = "minor",
                 data: dict[str, Any] | None = None):
        self.sym = sym
        self.name = name
        self.cash = 0
        self.owner: Any = None
        self.coordinates = coordinates
        self.city = city
        self.type = type_
        self.data = data or {}
        self.trains: tuple[Train, ...] = ()  # replaced on every change (see ``without``)
        self.tokens: tuple[Token, ...] = ()  # filled by the game; replaced on every change
        self.companies: tuple[Company, ...] = ()  # replaced on every change (see ``without``)
        self.operating_history: dict[Any, OperatingInfo] = {}
        self.closed = False
        self._floated = False

    @property
    def id(self) -> str:
        return self.sym

    @property
    def player(self) -> Player | None:
        o = self.owner
        return o if o is not None and o.is_player else None

    def floated(self) -> bool:
        return self._floated and not self.closed

    def float_(self) -> None:
        self._floated = True

    def operated(self) -> bool:
        return bool(self.operating_history)

    def receivership(self) -> bool:
        return False

    def percent_of(self, corp: Corporation) -> int:
        return 0

    def held_corporations(self) -> set[Corporation]:
        return set()

    def shares_of(self, corp: Corporation) -> list[Share]:
        return []

    def unused_tokens(self) -> list[Token]:
        return [t for t in self.tokens if not t.used]

    def close(self) -> None:
        self.closed = True
        self.owner = None

    def __repr__(self) -> str:
        return f"<Minor {self.sym}>"


def hand_over_companies(frm: Any, to: Any) -> None:
    """Every private company ``frm`` owns becomes ``to``'s, in the order ``frm`` held them
    (a merger, an acquisition, a minor folded into a major)."""
    moved = frm.companies
    frm.companies = ()
    for c in moved:
        c.owner = to
    to.companies = (*to.companies, *moved)


def hand_over_trains(frm: Any, to: Any) -> None:
    """Every train ``frm`` owns becomes ``to``'s, in order (no limit is checked here: the
    caller's rules decide what happens to a company over its limit)."""
    moved = frm.trains
    frm.trains = ()
    for t in moved:
        t.owner = to
    to.trains = (*to.trains, *moved)
