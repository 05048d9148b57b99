"""The game state as plain data: the per-action trace line and a fuller snapshot."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .game import Game



def _pid(p: Any) -> str:
    return str(p.id)


def corp_entry(game: Game, corp: Any, minor: bool = False) -> dict[str, Any]:
    owner = corp.owner
    entry: dict[str, Any] = {
        "cash": corp.cash,
        "price": corp.share_price.price if getattr(corp, "share_price", None) is not None else None,
        "trains": [t.name for t in corp.trains],
        "tokens": sum(1 for t in corp.tokens if t.used),
        "owner": _pid(owner) if owner is not None and owner.is_player else None,
    }
    if minor:
        entry["minor"] = True
    else:
        shares: dict[str, int] = {}
        for p in game.seats:
            pct = p.percent_of(corp)
            if pct:
                shares[_pid(p)] = pct
        entry["shares"] = shares
        entry["pool"] = game.pool.percent_of(corp)
        entry["ipo"] = corp.percent_of(corp)
    comps = getattr(corp, "companies", None)
    if comps:
        entry["companies"] = [c.sym for c in comps]
    return entry


def trace_line(game: Game, action: dict[str, Any]) -> dict[str, Any]:
    """One line of the reference trace format (see the traces README)."""
    players = game.seats
    corps: dict[str, dict[str, Any]] = {}
    for c in game.corporations:
        if c.floated() or c.ipoed or c.cash != 0:
            corps[c.id] = corp_entry(game, c)
    for m in game.minors:
        if m.floated() or m.cash != 0:
            corps[m.id] = corp_entry(game, m, minor=True)
    return {
        "id": action.get("id"),
        "type": action.get("type"),
        "round": game.round.name,
        "turn": game.turn,
        "round_num": game.round.round_num,
        "phase": game.phase.name,
        "bank": game.bank.cash,
        "cash": {_pid(p): p.cash for p in players},
        "companies": {_pid(p): [c.sym for c in p.companies] for p in players},
        "corps": corps,
    }


def snapshot(game: Game) -> dict[str, Any]:
    """A readable, JSON-able summary of the whole state."""
    line = trace_line(game, {})
    del line["id"], line["type"]
    line["title"] = game.TITLE
    line["finished"] = game.finished
    line["game_end_reason"] = game.game_end_reason
    line["players"] = [{"id": p.id, "name": p.name, "cash": p.cash, "value": game.player_value(p),
                        "certs": game.num_certs(p)} for p in game.players]
    line["priority"] = game.players[0].name if game.players else None
    line["cert_limit"] = game.cert_limit()
    line["current_entity"] = game.index.name(game.current_entity()) if game.current_entity() is not None else None
    line["operating_order"] = [c.id for c in game.round.entities] if game.round.is_operating() else []
    line["depot"] = [t.name for t in game.depot.upcoming]
    line["train_limit"] = game.phase.current.get("train_limit")
    return line


def full_state(game: Game) -> dict[str, Any]:
    """Every piece of the game's state as plain data, to compare two games (a copy, an undo
    and redo, a refused action...). Catalogue objects appear as their ids, derived views not
    at all, and the state's own objects once each, in the order a walk from the game meets
    them (``"Player#3"``: the third state object met, a Player), so equal games give equal
    dumps."""
    from .clone import _ATOMS, _policy, _slot_names

    labels: dict[int, str] = {}
    objects: dict[str, object] = {}
    keep_alive: list[object] = []

    def catalogue_name(o: Any) -> str:
        t = type(o)
        for attr in ("id", "name", "sym"):
            v = getattr(o, attr, None)
            if isinstance(v, (str, int)):
                extra = ""
                if hasattr(o, "rotation") and hasattr(o, "hex"):
                    h = o.hex
                    extra = f"@{h.id if h is not None else None}r{o.rotation}"
                return f"{t.__name__}:{v}{extra}"
        # a catalogue record without a name (a label, a border...): its plain fields
        names = list(getattr(o, "__dict__", {}).keys()) + _slot_names(t)
        fields = {n: getattr(o, n, None) for n in names}
        return f"{t.__name__}:" + ",".join(f"{k}={v}" for k, v in fields.items()
                                           if isinstance(v, (int, str, float, bool)) or v is None)

    def dump(o: Any) -> Any:
        t = type(o)
        if t in _ATOMS:
            return o if isinstance(o, (int, str, float, bool)) or o is None else repr(o)
        if getattr(t, "CATALOGUE", False):
            return catalogue_name(o)
        if getattr(t, "DERIVED", False):
            return None
        if t in (list, tuple):
            return [dump(x) for x in o]
        if t in (set, frozenset):
            return sorted((dump(x) for x in o), key=repr)
        if isinstance(o, dict):
            return [[dump(k), dump(v)] for k, v in o.items()]
        if t.__name__ == "method":
            return f"method {o.__func__.__qualname__} of {dump(o.__self__)}"
        label = labels.get(id(o))
        if label is not None:
            return label
        label = labels[id(o)] = f"{t.__name__}#{len(labels)}"
        keep_alive.append(o)
        fields: dict[str, Any] = {}
        names = list(getattr(o, "__dict__", {}).keys()) + _slot_names(t)
        for name in names:
            if name in fields or _policy(t, name) in ("skip", "share") or name in getattr(t, "STATE_EXCLUDE", ()):
                continue
            try:
                v = getattr(o, name)
            except AttributeError:
                continue
            if v is None or getattr(type(v), "DERIVED", False):
                continue  # absent, unset or derived: not part of the state
            fields[name] = dump(v)
        objects[label] = fields
        return label

    root = dump(game)
    return {"root": root, "objects": objects}
