"""Trains, the depot (train supply) and the phase track."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .entities import without
from .rewind import Tracked

if TYPE_CHECKING:
    from .game import Game

from .kinds import Kinds


def _names(trigger: object, bought: Train) -> bool:
    """Does ``trigger`` (a train name or id, or a list of them) name the ``bought`` train?"""
    if trigger is None:
        return False
    return names_train(trigger, bought.sym, bought.id)


def names_train(trigger: object, sym: str, tid: str) -> bool:
    """Does ``trigger`` (a train name or id, or a list of them; not None) name the train of
    name ``sym`` and id ``tid``? (for a loop over many triggers of one bought train)"""
    if isinstance(trigger, list):
        return sym in trigger or tid in trigger
    return trigger in (sym, tid)


class Train(Tracked):
    """One train card. ``id`` keeps the base name even when bought as a variant."""

    __slots__ = (
        "available_on",
        "base",
        "buyable",
        "distance",
        "events",
        "id",
        "index",
        "multiplier",
        "name",
        "obsolete",
        "obsolete_on",
        "operated",
        "owner",
        "price",
        "reserved",
        "rusted",
        "rusts_on",
        "spec",
        "unlimited",
        "variants",
    )
    # the title's data for it; and its events and distance rules, replaced (never changed in
    # place) when the train is bought or a variant chosen, so copies of a game share them
    CLONE_SHARE = ("spec", "variants", "events", "distance")
    # (slots that only ever hold numbers, strings, booleans or None: taken as they are; the
    # rust/obsolescence/availability rules are a train name or None, and stay in full_state)
    CLONE_ATOMS = ("base", "buyable", "id", "index", "multiplier", "name", "obsolete", "operated", "price", "reserved",
                   "rusted", "unlimited", "rusts_on", "obsolete_on", "available_on")
    # ``id`` is the base name and the index, kept in a slot (read very often: a plain read where
    # a property would build the string each time); neither part is written after construction,
    # and the dump of the state leaves it out as the same value as ``base`` and ``index``
    STATE_EXCLUDE: tuple[str, ...] = ("id",)

    def __init__(self, spec: dict[str, Any], index: int):
        self.spec = spec
        self.base: str = spec["name"]
        self.index = index
        self.id: str = f"{self.base}-{index}"
        self.events = [dict(e) for e in spec.get("events", [])] if index == spec.get("event_index", 0) else []
        # (each train its own: the state's record tells trains sharing one map from trains
        # holding equal ones)
        self.variants = spec_variants(spec)
        self.unlimited = spec.get("num") == "unlimited"
        self.owner: Any = None  # the depot, or the operator (any holder) that bought it
        self.operated = False
        self.obsolete = False
        self.rusted = False
        self.buyable = True
        self.reserved = False
        self.set_variant(spec["name"])

    def set_variant(self, name: str) -> None:
        v = self.variants[name]
        self.name: str = v["name"]
        self.distance: Any = v["distance"]  # a number of stops, or a list of {nodes, pay, visit} rules
        self.price: int = v["price"]
        self.rusts_on = v.get("rusts_on")
        self.obsolete_on = v.get("obsolete_on")
        self.available_on = v.get("available_on")
        self.multiplier: int = v.get("multiplier") or 1

    @property
    def sym(self) -> str:
        return self.base

    def rusts_with(self, bought: Train) -> bool:
        return _names(self.rusts_on, bought)

    def obsoletes_with(self, bought: Train) -> bool:
        return _names(self.obsolete_on, bought)

    def __repr__(self) -> str:
        return f"<Train {self.id} {self.name}>"


def spec_variants(spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A train spec's variants by name, each the spec with the variant's fields (the first the
    spec itself): a new map each time (replaced, never changed in place)."""
    variants = {spec["name"]: spec}
    for v in spec.get("variants", []):
        merged = {**spec, **v}
        merged.pop("variants", None)
        variants[v["name"]] = merged
    return variants


class RetiredTrain(Train):
    """A train out of play for good (rusted): a frozen value, shared by every copy of the game
    (``FROZEN``: the copier takes it as it is). :func:`retire` makes it from the live train,
    field for field, and puts it in the depot's ``trains`` in the live one's place through the
    write barrier, so an undo puts the live one back and a copy keeps the value."""

    __slots__ = ()
    FROZEN = True

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{self!r} is out of play: a frozen value ({name} not set)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{self!r} is out of play: a frozen value ({name} not deleted)")


def _retired(train: Train, **changes: Any) -> RetiredTrain:
    unknown = set(changes) - set(Train.__slots__)
    if unknown:
        raise AttributeError(f"a train has no {sorted(unknown)}")
    value: RetiredTrain = object.__new__(RetiredTrain)
    store = object.__setattr__
    for name in Train.__slots__:  # (every one set by the train's __init__)
        store(value, name, changes[name] if name in changes else getattr(train, name))
    return value


class Depot(Kinds):
    """All trains in definition order; ``upcoming`` are the ones not yet sold. Its three
    lists are tuples replaced on every change, never changed in place (the undo journal's
    write barrier notes them: nothing is saved before an action)."""

    CLONE_SKIP = ("_cache", "_by_id")  # memos of depot_trains() and train_by_id()

    name = "The Depot"
    id = "depot"
    is_depot = True
    owner = None
    player = None

    def __init__(self, specs: list[dict[str, Any]], phase_available: Callable[[Any], bool]):
        trains: list[Train] = []
        for spec in specs:
            n = spec.get("num", 1)
            count = 1 if n == "unlimited" else int(n)
            for i in range(count):
                t = Train(spec, i)
                t.owner = self
                trains.append(t)
        self.trains: tuple[Train, ...] = tuple(trains)
        self.upcoming: tuple[Train, ...] = self.trains
        self.discarded: tuple[Train, ...] = ()
        self._phase_available = phase_available
        self._cache: list[Train] | None = None
        # (how many trains it was made of, {id: the place of the first train of that id}): the
        # places only, never the trains (a train replaced in its place, as a retired one, is
        # found there); made again on a miss (a place that no longer holds its id, an id not
        # found, a count changed): a hit as quick as a dict, a miss as the scan it replaces
        self._by_id: tuple[int, dict[str, int]] | None = None

    def clear_cache(self) -> None:
        self._cache = None

    def depot_trains(self) -> list[Train]:
        if self._cache is None:
            seen = set()
            out: list[Train] = []
            cands = ([self.upcoming[0]] if self.upcoming else []) + [
                t for t in self.upcoming if self._phase_available(t.available_on)
            ]
            for t in cands:
                if t.name not in seen:
                    seen.add(t.name)
                    out.append(t)
            seen = set()
            for t in self.discarded:
                if t.name not in seen:
                    seen.add(t.name)
                    out.append(t)
            self._cache = out
        return self._cache

    def remove_train(self, train: Train) -> None:
        if train in self.upcoming:
            up = self.upcoming
            idx = up.index(train)
            rest = up[idx + 1:]
            if train.unlimited and not (rest and rest[0].name == train.name):
                clone = Train(train.spec, max(t.index for t in self.trains if t.base == train.base) + 1)
                clone.owner = self
                self.trains = (*self.trains, clone)
                rest = (clone, *rest)
            self.upcoming = up[:idx] + rest
        if train in self.discarded:
            self.discarded = without(self.discarded, train)
        self._cache = None

    def reclaim(self, train: Train, discard: bool = True) -> None:
        train.owner = self
        if discard and not train.obsolete:
            self.discarded = (*self.discarded, train)
        self._cache = None

    def train_by_id(self, tid: Any) -> Train | None:
        if not isinstance(tid, str):
            return None
        trains = self.trains
        memo = self._by_id
        if memo is not None and memo[0] == len(trains):
            at = memo[1].get(tid)
            if at is not None and trains[at].id == tid:
                return trains[at]
        places: dict[str, int] = {}
        for i, t in enumerate(trains):
            places.setdefault(t.id, i)
        self._by_id = (len(trains), places)
        at = places.get(tid)
        return None if at is None else trains[at]

    def other_trains(self, corporation: Any) -> list[Train]:
        """Trains other operators own that ``corporation`` could buy."""
        return [t for t in self.trains
                if t.owner is not None and t.owner is not self and t.owner is not corporation
                and t.buyable and not t.obsolete]

    def min_price(self, corporation: Any) -> int | None:
        """The lowest price ``corporation`` could pay for a train: the depot's trains' cheapest
        variants, and 1 where :meth:`other_trains` names any (asked without its list, stopped
        at the first, and not at all where the depot's lowest is 1 or less)."""
        lo: int | None = None
        for t in self.depot_trains():
            for v in t.variants.values():
                price: int = v["price"]
                if lo is None or price < lo:
                    lo = price
        if lo is not None and lo <= 1:
            return lo
        for t in self.trains:
            owner = t.owner
            if owner is not None and owner is not self and owner is not corporation and t.buyable and not t.obsolete:
                return 1
        return lo


class PhaseTrack(Tracked):
    """The phases of a title and the current one."""

    CLONE_SHARE = ("phases", "_names")

    def __init__(self, phases: list[dict[str, Any]]):
        self.phases = phases
        self.index = 0
        self._names = [p["name"] for p in phases]

    @property
    def current(self) -> dict[str, Any]:
        return self.phases[self.index]

    @property
    def name(self) -> str:
        name: str = self.current["name"]
        return name

    @property
    def tiles(self) -> list[str]:
        return list(self.current.get("tiles", []))

    @property
    def operating_rounds(self) -> int:
        rounds: int = self.current.get("operating_rounds", 1)
        return rounds

    @property
    def status(self) -> list[str]:
        status: list[str] = self.current.get("status", [])
        return status

    def train_limit(self, entity: Any) -> int:
        tl = self.current.get("train_limit", 99)
        if isinstance(tl, dict):
            limit: int = tl.get(getattr(entity, "type", ""), 0)
            return limit
        total: int = tl
        return total

    def available(self, phase_name: str | None) -> bool:
        if not phase_name or phase_name not in self._names:
            return False
        return self._names.index(phase_name) <= self.index

    def next_on(self) -> list[str]:
        if self.index + 1 >= len(self.phases):
            return []
        on = self.phases[self.index + 1].get("on")
        if on is None:
            return []
        return on if isinstance(on, list) else [on]


# ---------------------------------------------------------------- the game's train bookkeeping
def remove_train(game: Game, train: Any) -> None:
    """Take ``train`` from its holder (the depot or an operator); it keeps its owner field."""
    owner = train.owner
    if owner is None:
        return
    if owner is game.depot:
        game.depot.remove_train(train)
    elif train in owner.trains:
        owner.trains = without(owner.trains, train)


def rust(game: Game, train: Train) -> None:
    """``train`` rusts: it leaves the game."""
    game.journal.record("rust", train=train.id, name=train.name, owner=getattr(train.owner, "id", None))
    if type(train) is RetiredTrain:  # (out of play already, an export: no holder to leave)
        change_train(game, train, rusted=True)
        return
    train.rusted = True
    remove_train(game, train)
    train.owner = None
    retire(game, train)


def change_train(game: Game, train: Train, **changes: Any) -> Train:
    """Set ``changes`` (slot name -> value) on ``train``, a loop over every train of the depot
    may meet one out of play: that one's value is replaced in the depot's ``trains`` by a new
    value with the changes (through the write barrier, as :func:`retire`). Returns the train
    that now holds them."""
    if type(train) is not RetiredTrain:
        for name, value in changes.items():
            setattr(train, name, value)
        return train
    new = _retired(train, **changes)
    depot = game.depot
    depot.trains = tuple(new if t is train else t for t in depot.trains)
    return new


def retire(game: Game, train: Train) -> Train:
    """``train``, out of play for good (no holder; a later change through :func:`change_train`:
    an exported train that rusts, a loop over the depot making a kind obsolete), becomes a frozen value
    in the depot's list of every train (a copy of the game then shares it); returns the value
    (``train`` itself where the depot does not list it)."""
    depot = game.depot
    trains = depot.trains
    if type(train) is RetiredTrain or train not in trains:
        return train
    value = _retired(train)
    depot.trains = tuple(value if t is train else t for t in trains)
    return value


def phase_buying_train(game: Game, entity: Any, train: Train) -> None:
    """After ``entity`` bought ``train``: the phases it starts, the trains it rusts or makes
    obsolete, its events, then the title's :meth:`Game.after_buying_train`. An export (no
    ``entity``, the train taken out of play) then leaves as a frozen value (:func:`retire`)."""
    phase = game.phase
    tid, sym = train.id, train.base
    while tid in (on := phase.next_on()) or sym in on:
        phase.index += 1
        game.journal.record("phase", name=game.phase.name, train=train.id)
        game.on_phase_change(game.phase.name)
    game.rust_trains(train, entity)
    game.depot.clear_cache()
    events = train.events
    train = change_train(game, train, events=[])
    for ev in events:
        game.on_train_event(ev, train)
    game.after_buying_train(train)
    if entity is None and train.owner is None:
        retire(game, train)  # an export: the train left play with no buyer
