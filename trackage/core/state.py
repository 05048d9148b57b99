"""The game state as plain data: the per-action trace line and a fuller snapshot."""

from __future__ import annotations


def _pid(p) -> str:
    return str(p.id)


def corp_entry(game, corp, minor: bool = False) -> dict:
    owner = corp.owner
    entry = {
        "cash": corp.cash,
        "price": corp.share_price.price if getattr(corp, "share_price", None) is not None else None,
        "trains": [t.name for t in corp.trains],
        "tokens": sum(1 for t in corp.tokens if t.used),
        "owner": _pid(owner) if owner is not None and owner.is_player else None,
    }
    if minor:
        entry["minor"] = True
    else:
        shares = {}
        for p in game.seat_order():
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


def trace_line(game, action: dict) -> dict:
    """One line of the reference trace format (see the traces README)."""
    players = game.seat_order()
    corps = {}
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


def snapshot(game) -> dict:
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
    line["current_entity"] = game.entity_name(game.current_entity()) if game.current_entity() is not None else None
    line["operating_order"] = [c.id for c in game.round.entities] if game.round.is_operating() else []
    line["depot"] = [t.name for t in game.depot.upcoming]
    line["train_limit"] = game.phase.current.get("train_limit")
    return line
