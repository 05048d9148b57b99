"""Structural copies of a game's state.

A game is its catalogue (tiles, placed tiles, hexes, specs, the title's data: built once,
never changed, shared by every copy) plus its state (entities, board state, rounds and
steps, the title's own records). :func:`clone` copies the state and shares the catalogue:

* an object whose class has ``CATALOGUE = True`` is shared;
* an object whose class has ``DERIVED = True`` (a memo such as a track graph) is not
  copied: the copy holds None and recomputes it;
* a class may name attributes to share (``CLONE_SHARE``: catalogue data held by a state
  object, e.g. a corporation's data dict, or a map that is replaced, never changed in
  place), to copy one level deep (``CLONE_SHALLOW``: lists of records that are never
  changed, e.g. the action list), to copy with their keys only (``CLONE_KEYS``: a dict keyed
  by state objects whose values are replaced, never changed in place, e.g. a stale track
  graph's results per corporation: the copy's dict has the copied keys and the same values)
  and to drop (``CLONE_SKIP``);
* a class may name attributes that only ever hold atoms (``CLONE_ATOMS``: numbers,
  strings, booleans, None): the copy takes them as they are without looking at them
  (:func:`shared_state` reports one found holding anything else);
* tuples of shared things are shared; lists, dicts and sets are copied; bound methods are
  rebound to the copy of their object.

Each class's copier (which attributes to copy, share or drop) is worked out once, and written
out as code for that class (one read and one store per slot).
"""

from __future__ import annotations

import gc
import types
from collections.abc import Callable, Iterator
from operator import is_
from typing import Any, ParamSpec, TypeVar, cast

from .rewind import COMPILED_FUNCTIONS, Tracked, untracked_twin

_ATOMS: frozenset[type] = frozenset({int, str, float, bool, type(None), bytes, complex, range, type,
                    types.FunctionType, types.BuiltinFunctionType, types.BuiltinMethodType,
                    frozenset, type(Ellipsis), type(NotImplemented)})

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")

# the types a copy takes as they are without a look: the atoms, and each class found to be
# shared (catalogue) as it is met, so that the many references to catalogue objects (hexes,
# tiles, paths) cost a set lookup instead of a call (a memo of classes, like ``_copiers``)
_TAKEN: set[type] = set(_ATOMS)
_SHARE = object()
_DROP = object()
_POLICIES = (("CLONE_SKIP", "skip"), ("CLONE_SHARE", "share"), ("CLONE_ATOMS", "atom"), ("CLONE_SHALLOW", "shallow"),
             ("CLONE_KEYS", "keys"))
# each (class, attribute)'s policy as it is asked (a memo of classes, like ``_copiers``)
_POLICY_OF: dict[tuple[type, str], str] = {}


def _policy(cls: type, name: str) -> str:
    """How ``cls``'s copier takes attribute ``name``: the first class in the MRO to name it
    decides (as in ``_make_copier``: a subclass's ``CLONE_SHARE`` adds to its base's)."""
    key = (cls, name)
    found = _POLICY_OF.get(key)
    if found is None:
        found = _POLICY_OF[key] = next((kind for c in cls.__mro__ for attr, kind in _POLICIES
                                       if name in c.__dict__.get(attr, ())), "deep")
    return found


def held_attributes(o: Any) -> Iterator[tuple[str, str, Any]]:
    """The attributes state object ``o`` holds, as a copy takes them: (name, policy, value),
    the policy one of "deep", "share", "atom", "shallow", "keys", "skip" (see ``_make_copier``)."""
    t = type(o)
    for name in [*getattr(o, "__dict__", {}), *_slot_names(t)]:
        try:
            v = getattr(o, name)
        except AttributeError:
            continue
        yield name, _policy(t, name), v


def _keys_copy(v: Any, m: dict[int, Any], C: Callable[[Any, dict[int, Any]], Any], A: set[type]) -> Any:
    """``v`` (a dict) with its keys copied and its values shared (policy ``CLONE_KEYS``)."""
    r = m.get(id(v))
    if r is None:
        r = m[id(v)] = {k if type(k) in A else C(k, m): x for k, x in v.items()}
    return r


def _slot_names(cls: type) -> list[str]:
    out: list[str] = []
    for c in reversed(cls.__mro__):
        s = c.__dict__.get("__slots__", ())
        if isinstance(s, str):
            s = (s,)
        out.extend(x for x in s if x not in ("__dict__", "__weakref__") and x not in out)
    return out


def _is_slot(cls: type, name: str) -> bool:
    """Whether ``name``, as ``cls``'s objects see it, is a slot (not shadowed by a property)."""
    for c in cls.__mro__:
        if name in c.__dict__:
            return type(c.__dict__[name]) is types.MemberDescriptorType
    return False


def _make_copier(cls: type) -> Any:
    if getattr(cls, "CATALOGUE", False) or cls.__name__ in COMPILED_FUNCTIONS:
        return _SHARE  # (a compiled function, as a plain one: taken as it is)
    if getattr(cls, "DERIVED", False):
        return _DROP
    params = getattr(cls, "__dataclass_params__", None)
    if (params is not None and params.frozen) or getattr(cls, "FROZEN", False):
        # a frozen value (a frozen dataclass, or a class saying ``FROZEN = True`` whose objects
        # refuse every write): a change is a new value put in its place, so copies share it
        return _SHARE
    # a slot a subclass shadows with a property (a computed ``par_price`` over its own slot)
    # is copied through the slot it stores to, never through the property
    slots = [name for name in _slot_names(cls) if _is_slot(cls, name)]
    has_dict = any("__dict__" in (c.__dict__.get("__slots__", ()) or ()) for c in cls.__mro__) or \
        not all("__slots__" in c.__dict__ for c in cls.__mro__ if c is not object)
    policies: dict[str, str] = {}
    for c in cls.__mro__:
        for attr, kind in _POLICIES:
            for name in c.__dict__.get(attr, ()):
                policies.setdefault(name, kind)
    # the copier's code, written out for this class: one statement per slot (an attribute
    # read and a plain store are much cheaper than a loop of getattr/setattr calls)
    plain_store = all("__setattr__" not in c.__dict__ for c in cls.__mro__ if c is not object)
    # a state class with the undo journal's write barrier: its new objects are filled as the
    # barrier-free twin (plain stores) and made the class's at the end
    twin = untracked_twin(cls) if not plain_store and issubclass(cls, Tracked) and len(slots) > 1 else None
    if twin is not None:
        plain_store = True
        code = ["def copier(o, m, C, A, target=None):",
                "    if target is None:",
                "        n = new(twin)",
                "    else:",
                "        n = target",
                "        setattr_(n, '__class__', twin)",
                "    m[id(o)] = n"]
    else:
        code = ["def copier(o, m, C, A, target=None):",
                "    n = new(cls) if target is None else target",
                "    m[id(o)] = n"]
    if has_dict:
        code += ["    d = getattr(o, '__dict__', None)",
                 "    if d is not None:",
                 "        nd = d.copy()",
                 "        for k, v in d.items():",
                 "            if type(v) not in A and k not in policies:",
                 "                nd[k] = C(v, m)",
                 "        for k, p in policy_items:",
                 "            if k in d:",
                 "                nd[k] = take(p, d[k], m, C, A)",
                 "        setattr_(n, '__dict__', nd)"]
    for name in slots:
        p = policies.get(name, "deep")
        # (the empty tuple, held by every holder of nothing, is taken without a look)
        value = {"deep": "v if type(v) in A or v is E else C(v, m)", "share": "v", "atom": "v", "skip": "None"}.get(
            p, f"take(p_{name}, v, m, C, A)")
        store = f"n.{name} = {value}" if plain_store else f"setattr_(n, {name!r}, {value})"
        code += ["    try:", f"        v = o.{name}", "    except AttributeError:", "        pass", "    else:",
                 f"        {store}"]
    if twin is not None:
        code.append("    n.__class__ = cls")
    code.append("    return n")
    # (a shared attribute is in the dict's copy as it is)
    policy_items = tuple((k, p) for k, p in policies.items() if p not in ("share", "atom"))
    space: dict[str, Any] = {"E": (), "new": object.__new__, "cls": cls, "twin": twin, "setattr_": object.__setattr__,
                             "take": _take,
                             "policies": policies, "policy_items": policy_items}
    space.update({"p_" + name: policies.get(name, "deep") for name in slots})
    # (named for its class, so that a profile tells the copiers apart)
    exec(compile("\n".join(code), f"<copier of {cls.__module__}.{cls.__qualname__}>", "exec"), space)
    return space["copier"]


def _take(p: str, v: Any, m: dict[int, Any], C: Callable[[Any, dict[int, Any]], Any], A: set[type]) -> Any:
    """The copy of ``v``, an attribute copied by policy ``p`` (not "deep")."""
    if p == "shallow":
        return v.copy() if hasattr(v, "copy") else v
    if p == "keys":
        return _keys_copy(v, m, C, A)
    return None if p == "skip" else v


def _copy_list(o: Any, m: dict[int, Any], C: Callable[[Any, dict[int, Any]], Any], A: set[type],
               target: Any = None) -> Any:
    r: list[Any] = []
    m[id(o)] = r
    if o:
        r.extend([x if type(x) in A else C(x, m) for x in o])
    return r


def _copy_dict(o: Any, m: dict[int, Any], C: Callable[[Any, dict[int, Any]], Any], A: set[type],
               target: Any = None, E: tuple[()] = ()) -> Any:
    r: dict[Any, Any] = {}
    m[id(o)] = r
    if o:
        # (a comprehension then one update: cheaper than a store per item; the items are
        # copied in the same order)
        # (the empty tuple, a value many maps hold for nothing, is taken without a call)
        r.update({k if type(k) in A else C(k, m): v if type(v) in A or v is E else C(v, m) for k, v in o.items()})
    return r


def _copy_tuple(o: Any, m: dict[int, Any], C: Callable[[Any, dict[int, Any]], Any], A: set[type],
                target: Any = None) -> Any:
    if len(o) == 1:
        # (most tuples copied hold one thing: a holder's one certificate, a city's one token)
        x = o[0]
        y = x if type(x) in A else C(x, m)
        r = o if y is x else (y,)
        m[id(o)] = r
        return r
    items = [x if type(x) in A else C(x, m) for x in o]
    r = o if all(map(is_, items, o)) else tuple(items)
    m[id(o)] = r
    return r


def _copy_set(o: Any, m: dict[int, Any], C: Callable[[Any, dict[int, Any]], Any], A: set[type],
              target: Any = None) -> Any:
    r: set[Any] = set()
    m[id(o)] = r
    r.update([x if type(x) in A else C(x, m) for x in o])
    return r


def _copy_method(o: Any, m: dict[int, Any], C: Callable[[Any, dict[int, Any]], Any], A: set[type],
                 target: Any = None) -> Any:
    r = types.MethodType(o.__func__, C(o.__self__, m))
    m[id(o)] = r
    return r


# a copier function per class, or _SHARE / _DROP (never None): the containers' copiers, and
# each class's as it is met (a memo of classes, like ``_TAKEN``)
_copiers: dict[type, Any] = {list: _copy_list, dict: _copy_dict, tuple: _copy_tuple, set: _copy_set,
                             types.MethodType: _copy_method}


def copier_of(t: type) -> Any:
    """How a copy treats objects of type ``t``: ``_SHARE``, ``_DROP`` or its copier (made once
    per type and kept)."""
    c: Any = _copiers.get(t)
    if c is None:
        c = _copiers[t] = _make_copier(t)
        if c is _SHARE:
            _TAKEN.add(t)
    return c


def passed_by_copy(t: type) -> bool:
    """Whether a copy shares or drops objects of type ``t`` (catalogue, derived views...)
    instead of copying them: walks of a game's state as a copy sees it skip them."""
    c = copier_of(t)
    return c is _SHARE or c is _DROP


def _copy(o: Any, m: dict[int, Any]) -> Any:
    r: Any = m.get(id(o))
    if r is not None:
        return r
    t = type(o)
    c: Any = _copiers.get(t)
    if c is None:
        c = copier_of(t)
    if c is _SHARE:
        return o
    if c is _DROP:
        return None
    return c(o, m, _copy, _TAKEN)


def no_gc(f: Callable[P, R]) -> Callable[P, R]:
    """``f`` with the cyclic garbage collector paused while it runs (a copy, a log's load:
    work that allocates many objects and frees few, which the collector would only rescan)."""
    g: Callable[..., R] = f

    def run(*args: Any, **kwargs: Any) -> Any:
        if not gc.isenabled():
            return g(*args, **kwargs)
        gc.disable()
        try:
            return g(*args, **kwargs)
        finally:
            gc.enable()
    run.__doc__ = f.__doc__
    run.__name__ = f.__name__
    return cast("Callable[P, R]", run)


@no_gc
def clone(obj: T, memo: dict[int, Any] | None = None) -> T:
    """A structural copy of ``obj`` (see the module's description)."""
    copied: T = _copy(obj, {} if memo is None else memo)
    return copied


@no_gc
def clone_into(src: T, dst: T) -> None:
    """Make ``dst`` (an object of ``src``'s class) a copy of ``src``; references to ``src``
    inside it become references to ``dst``."""
    c = copier_of(type(src))
    if c is _SHARE or c is _DROP:
        raise TypeError(f"{type(src).__name__} objects are not copied")
    c(src, {}, _copy, _TAKEN, dst)


def shared_state(original: object, copy: object) -> list[str]:
    """Paths to mutable state that ``copy`` shares with ``original`` (a test helper: a correct
    copy shares only catalogue objects, shared attributes and atoms), and to attributes named
    in ``CLONE_ATOMS`` that hold anything but an atom."""
    seen: set[int] = set()
    mine: dict[int, str] = {}
    not_atoms: list[str] = []

    def collect(o: Any, path: str, out: dict[int, str], visit_shared: bool) -> None:
        if id(o) in seen:
            return
        t = type(o)
        if t in _ATOMS or passed_by_copy(t):
            return
        seen.add(id(o))
        if t is tuple and all(type(x) in _ATOMS for x in o):
            return
        if t not in (tuple,):
            out[id(o)] = path
        if t in (list, tuple, set, frozenset):
            for i, x in enumerate(o):
                collect(x, f"{path}[{i}]", out, visit_shared)
        elif t is dict:
            for k, v in o.items():
                collect(k, f"{path}{{key}}", out, visit_shared)
                collect(v, f"{path}[{k!r}]", out, visit_shared)
        elif t is types.MethodType:
            collect(o.__self__, f"{path}.__self__", out, visit_shared)
        else:
            for name, policy, v in held_attributes(o):
                if policy == "atom" and type(v) not in _ATOMS:
                    not_atoms.append(f"{path}.{name} (CLONE_ATOMS, holds a {type(v).__name__})")
                if policy in ("share", "skip") or any(
                        name in c2.__dict__.get("CLONE_SHARE", ()) or name in c2.__dict__.get("CLONE_SKIP", ())
                        for c2 in t.__mro__):
                    continue
                if name in getattr(t, "CLONE_SHALLOW", ()):
                    if isinstance(v, (list, dict, set)):
                        out[id(v)] = f"{path}.{name}"
                    continue
                if name in getattr(t, "CLONE_KEYS", ()):
                    out[id(v)] = f"{path}.{name}"
                    for k in v:
                        collect(k, f"{path}.{name}{{key}}", out, visit_shared)
                    continue
                collect(v, f"{path}.{name}", out, visit_shared)

    collect(original, "game", mine, True)
    seen.clear()
    theirs: dict[int, str] = {}
    collect(copy, "copy", theirs, True)
    return sorted(mine[i] for i in set(mine) & set(theirs)) + sorted(set(not_atoms))
