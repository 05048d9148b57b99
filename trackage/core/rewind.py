"""The undo journal: a live action taken back by putting back what it changed.

While an action is applied under :func:`recording`, every attribute written on a state object
(a :class:`Tracked` one: players, companies, operators, certificates, trains, tokens, the
market, the board's state, rounds, steps, the game) is noted with the value it replaced, and
the containers that state objects change in place (a class names them in ``IN_PLACE``, or in
``IN_PLACE_NESTED`` for a dict whose values are containers changed in place) are copied, one
level, before the action starts, for every object the game names in ``rewind_owners()``.
:meth:`Rewind.undo` puts every attribute back, newest first, and every saved container's
contents back into the same container, so the game is again the very objects it was (not a
copy of them): what refers to them stays true.

What is not recorded: writes to objects that are not :class:`Tracked` (derived views, which
are memoised on versions, and the catalogue, which never changes), the pipeline's own records
(the action list, the log: the pipeline takes its entries back itself) and containers changed
in place that no class names. The last would be a bug; ``trackage.rewindcheck`` finds it (a
walk of the whole state before an action and after its undo, compared object by object).

Objects made by a copy (:mod:`trackage.core.clone`) are filled without the write barrier.

A game built and replayed where nothing records (a new game, a log import) is made of
barrier-free twins (:func:`building_untracked`: every state object made within it is of its
class's twin, :func:`tracked_twin_of`); the game says so (``untracked``), and the first record
made of it (:class:`Rewind`) turns every one of its objects back into its class
(:func:`make_tracked`), so live play records all it must.
"""

from __future__ import annotations

import contextlib
import contextvars
import gc
import types
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any, ClassVar

MISSING: Any = object()  # an attribute that had no value before the write

# the record of the action being applied in this context (thread, task), or None: a game's
# process() sets it around its own action only, so a trial on a copy inside it records into
# its own record (or none), never into the outer action's
_RECORDING: contextvars.ContextVar[Rewind | None] = contextvars.ContextVar("trackage_rewind", default=None)

# are state objects made in this context made as barrier-free twins (a game built or a log
# imported where nothing records)?
_UNTRACKED: contextvars.ContextVar[bool] = contextvars.ContextVar("trackage_untracked", default=False)

_CONTAINERS = (list, dict, set)
_MEMBER = types.MemberDescriptorType


class Tracked:
    """A state object: its attribute writes are noted while an action is recorded."""

    __slots__ = ()
    # attributes holding a list, dict or set that the rules change in place (not replace)
    IN_PLACE: ClassVar[tuple[str, ...]] = ()
    # attributes holding a dict whose values are lists, dicts or sets changed in place
    IN_PLACE_NESTED: ClassVar[tuple[str, ...]] = ()
    # attributes holding a state object (or a dict or list of them) whose own IN_PLACE
    # containers are saved with this one's (a round's bids, an auction step's item)
    IN_PLACE_PARTS: ClassVar[tuple[str, ...]] = ()
    # on a barrier-free twin (:func:`tracked_twin_of`): the class it is the twin of
    TRACKED_CLASS: ClassVar[type | None] = None

    # the names this class stores in slots (a member descriptor is what the class finds under
    # the name: not a slot a subclass shadows with a property): set for each class as it is made
    SLOT_NAMES: ClassVar[frozenset[str]] = frozenset()
    # the names the class finds as properties (a write through one is not put back by an
    # undo: its setter's own stores are): set for each class as it is made
    PROPERTY_NAMES: ClassVar[frozenset[str]] = frozenset()
    # what a record saves of an object of the class, as the class is made: (kind, name) for
    # each of its IN_PLACE (0), IN_PLACE_NESTED (1) and IN_PLACE_PARTS (2) names, in that order
    SAVE_PLAN: ClassVar[tuple[tuple[int, str], ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        found = {name: type(getattr(cls, name, None)) for name in dir(cls)}
        cls.SLOT_NAMES = frozenset(name for name, kind in found.items() if kind is _MEMBER)
        cls.PROPERTY_NAMES = frozenset(name for name, kind in found.items() if issubclass(kind, property))
        cls.SAVE_PLAN = (*((0, name) for name in cls.IN_PLACE), *((1, name) for name in cls.IN_PLACE_NESTED),
                         *((2, name) for name in cls.IN_PLACE_PARTS))
        if "__setattr__" not in cls.__dict__:
            # the barrier written for the class's layout (a twin brings its own plain store)
            cls.__setattr__ = _barrier_dict if cls.__dictoffset__ else _barrier_slots  # type: ignore[method-assign]

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        if _UNTRACKED.get():
            kind: Any = cls  # (a class is hashable: the cache's key)
            return object.__new__(untracked_class(kind))
        return object.__new__(cls.TRACKED_CLASS or cls)

    def __setattr__(self, name: str, value: Any) -> None:
        # (every subclass has its layout's own barrier: this one serves a super() call)
        (_barrier_dict if type(self).__dictoffset__ else _barrier_slots)(self, name, value)

    def __delattr__(self, name: str) -> None:
        rec = _RECORDING.get()
        if rec is not None and name not in self.PROPERTY_NAMES:
            rec.writes.append((self, name, _old(self, name)))
        object.__delattr__(self, name)


# The write barrier, one per layout (a class gets the one of its instances' layout as it is
# made, :meth:`Tracked.__init_subclass__`): while an action is recorded, a write is noted
# with the value it replaced, as :func:`_old` finds it; a write of the very object the
# attribute holds already (in the object's own dict or slot) is neither noted nor made, as
# its undo would put back what is there. A write through a property is not noted (its
# setter is always called, and the stores it makes are noted themselves): the undo puts
# back every write it finds, with no question per write.

def _barrier_dict(self: Any, name: str, value: Any,
                  _get: Any = _RECORDING.get, _store: Any = object.__setattr__) -> None:
    """The barrier of a class whose objects have a ``__dict__`` (and maybe slots too)."""
    rec = _get()
    if rec is not None:
        old = self.__dict__.get(name, MISSING)
        if old is MISSING:
            if name in self.SLOT_NAMES:
                old = getattr(self, name, MISSING)
                if old is value:
                    return
            elif name in self.PROPERTY_NAMES:
                _store(self, name, value)  # (the setter's own stores are noted)
                return
        elif old is value:
            return
        rec.writes.append((self, name, old))
    _store(self, name, value)


def _barrier_slots(self: Any, name: str, value: Any,
                   _get: Any = _RECORDING.get, _store: Any = object.__setattr__) -> None:
    """The barrier of a class whose objects have slots only."""
    rec = _get()
    if rec is not None:
        if name in self.SLOT_NAMES:
            old = getattr(self, name, MISSING)
            if old is value:
                return
        elif name in self.PROPERTY_NAMES:
            _store(self, name, value)  # (the setter's own stores are noted)
            return
        else:
            old = getattr(self, name, MISSING)
        rec.writes.append((self, name, old))
    _store(self, name, value)


def has_barrier(cls: type) -> bool:
    """Are ``cls``'s writes noted while an action is recorded (a state class, not its twin)?"""
    return getattr(cls, "__setattr__", None) in (_barrier_dict, _barrier_slots, Tracked.__setattr__)


def _old(obj: Any, name: str) -> Any:
    """The value ``obj`` itself holds as ``name`` (MISSING: none of its own, even where its
    class has a default)."""
    d = getattr(obj, "__dict__", None)
    if d is not None:
        v = d.get(name, MISSING)
        if v is not MISSING or type(getattr(type(obj), name, None)) is not _MEMBER:
            return v
    return getattr(obj, name, MISSING)


class Rewind:
    """What one action changed, to be put back: attribute writes in order, and the contents
    of the owners' in-place containers before it."""

    __slots__ = ("game", "saved", "writes")

    def __init__(self, game: Any, owners: Iterable[Any], containers: Iterable[Any] = ()) -> None:
        if game.untracked or _UNTRACKED.get():
            # the first record of a game of barrier-free twins (or one made inside a log
            # import, a trial of a strict load's programs): every twin it reaches turned back,
            # and whatever the import makes from now on made tracked
            make_tracked(game)
            _UNTRACKED.set(False)
        self.game = game  # whose action this is (work on other games inside it is not recorded)
        self.writes: list[tuple[Any, str, Any]] = []
        saved: list[tuple[Any, Any]] = []
        c: Any
        append = saved.append
        # containers named directly (a round's state): a dict's container values one level down
        # (an empty one saved as None: it was empty)
        for c in containers:
            if not c:
                append((c, None))
                continue
            append((c, c.copy()))
            if type(c) is dict:
                saved.extend((v, v.copy()) for v in c.values() if type(v) in _CONTAINERS)
        todo = list(owners)
        while todo:
            owner = todo.pop()
            for kind, name in type(owner).SAVE_PLAN:
                c = getattr(owner, name, None)
                if c is None:
                    continue  # (nothing held: most steps' auction)
                if kind == 0:
                    if type(c) in _CONTAINERS:
                        append((c, c.copy() if c else None))  # (None: it was empty)
                elif kind == 1:
                    if type(c) is dict:
                        append((c, c.copy()))
                        saved.extend((v, v.copy()) for v in c.values() if type(v) in _CONTAINERS)
                elif isinstance(c, Tracked):
                    todo.append(c)
                elif type(c) is dict:
                    todo.extend(v for v in c.values() if isinstance(v, Tracked))
        self.saved = saved

    def undo(self) -> None:
        """Put back everything recorded (called once, with recording off)."""
        setattr_, delattr_ = object.__setattr__, object.__delattr__
        # (no write through a property is noted: the stores its setter made are)
        for obj, name, old in reversed(self.writes):
            if old is MISSING:
                try:  # noqa: SIM105 (a try costs nothing where it does not raise; suppress() is an object a write)
                    delattr_(obj, name)
                except AttributeError:
                    pass
            else:
                setattr_(obj, name, old)
        for c, contents in self.saved:
            if contents is None:
                if c:
                    c.clear()
            elif c != contents:
                if type(c) is list:
                    c[:] = contents
                else:
                    c.clear()
                    c.update(contents)
        self.writes = []
        self.saved = []


def recording_on(rec: Rewind | None) -> Any:
    """From now on, state writes are noted in ``rec`` (as :func:`recording`, for a caller that
    ends it itself): hand what it returns to :func:`recording_off`, in a ``finally``."""
    return _RECORDING.set(rec)


def recording_off(mark: Any) -> None:
    """End what :func:`recording_on` began (the record before it is the current one again)."""
    _RECORDING.reset(mark)


def current() -> Rewind | None:
    """The record being made in this context, if any."""
    return _RECORDING.get()


@contextlib.contextmanager
def recording(rec: Rewind | None) -> Iterator[Rewind | None]:
    """Within it, state writes are noted in ``rec`` (None: in no record, e.g. a log import)."""
    token = _RECORDING.set(rec)
    try:
        yield rec
    finally:
        _RECORDING.reset(token)


def untracked_twin(cls: type) -> type:
    """A class of the same layout as ``cls`` without the write barrier: a copy fills its new
    objects as one of these (plain stores) and then makes them ``cls``'s."""
    return type(cls.__name__, (cls,), {"__slots__": (), "__setattr__": object.__setattr__,
                                       "__delattr__": object.__delattr__, "__module__": cls.__module__})


def state_class(obj: object) -> type:
    """The class ``obj``'s rules are written in: its own, or, for a barrier-free twin, the class
    it stands for (patch or compare this one; a new game is a twin until its first action)."""
    cls = type(obj)
    return cls.__dict__.get("TRACKED_CLASS") or cls


@cache
def untracked_class(cls: type) -> type:
    """The barrier-free twin made where nothing records (:func:`building_untracked`) for
    ``cls`` (itself for a twin): it knows its class (``TRACKED_CLASS``) to be turned back."""
    if cls.__dict__.get("TRACKED_CLASS") is not None:
        return cls
    twin = untracked_twin(cls)
    type.__setattr__(twin, "TRACKED_CLASS", cls)
    return twin


@contextlib.contextmanager
def building_untracked() -> Iterator[None]:
    """Within it, state objects are made as their classes' barrier-free twins: for a game
    that says so (``untracked``) and is made tracked before anything records."""
    token = _UNTRACKED.set(True)
    try:
        yield
    finally:
        _UNTRACKED.reset(token)


# the type names of a compiled twin's functions (trackage/twins.py): functions all the same
COMPILED_FUNCTIONS = frozenset({"cython_function_or_method", "fused_cython_function"})

_LEAVES = frozenset({str, int, float, bool, bytes, type(None), complex, range, slice,
                     types.FunctionType, types.BuiltinFunctionType, types.ModuleType, types.CodeType,
                     types.MethodDescriptorType, types.WrapperDescriptorType, types.GetSetDescriptorType,
                     types.MemberDescriptorType, property, staticmethod, classmethod})


def make_tracked(game: Any) -> None:
    """Turn every barrier-free twin reachable from ``game`` (its state, its snapshots)
    back into its class: from now on its writes are noted while an action is recorded."""
    seen = {id(game)}
    todo = [game]
    pop, push = todo.pop, todo.extend
    setattr_ = object.__setattr__
    # what the walk does not enter, by type: atoms, functions and classes, and the catalogue
    # and derived views (shared by every game of the process, or rebuilt: no game's state
    # object lives in them; the tiles' shared memos grow with every game played)
    passed: dict[type, bool] = {}

    def passes(t: type) -> bool:
        p = passed.get(t)
        if p is None:
            p = passed[t] = (t in _LEAVES or issubclass(t, type) or bool(getattr(t, "CATALOGUE", False))
                             or bool(getattr(t, "DERIVED", False)) or t.__name__ in COMPILED_FUNCTIONS)
        return p

    while todo:
        o = pop()
        cls = type(o)
        if isinstance(o, Tracked):
            if cls.TRACKED_CLASS is not None:
                setattr_(o, "__class__", cls.TRACKED_CLASS)
            d = getattr(o, "__dict__", None)
            if d and d.get("untracked"):
                d["untracked"] = False  # (a snapshot of the game, made tracked with it)
        fresh = [r for r in gc.get_referents(o) if id(r) not in seen and not passes(type(r))]
        seen.update(id(r) for r in fresh)
        push(fresh)
