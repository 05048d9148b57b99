"""Readable tables of a game's state (rich)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from .core.state import snapshot


def render(game, console: Console | None = None) -> None:
    console = console or Console()
    snap = snapshot(game)
    head = (f"{game.TITLE} — {snap['round']} {snap['turn']}.{snap['round_num']} — phase {snap['phase']} "
            f"(train limit {snap['train_limit']}) — bank {game.bank_display()}")
    if game.finished:
        head += f" — game over ({game.game_end_reason})"
    console.print(head, style="bold")

    t = Table(title="Players")
    for col in ("player", "cash", "certs", "value", "companies"):
        t.add_column(col)
    for p in game.seats:
        mark = " (priority)" if game.players and p is game.players[0] else ""
        t.add_row(p.name + mark, str(p.cash), f"{game.num_certs(p)}/{game.cert_limit()}",
                  str(game.player_value(p)), ", ".join(c.sym for c in p.companies))
    console.print(t)

    t = Table(title="Companies")
    for col in ("corp", "president", "price", "cash", "trains", "tokens", "ipo", "pool", "holders"):
        t.add_column(col)
    names = {str(p.id): p.name for p in game.seats}
    for cid, e in snap["corps"].items():
        holders = " ".join(f"{names.get(k, k)}:{v}" for k, v in e.get("shares", {}).items())
        t.add_row(cid, names.get(e["owner"], "-") if e["owner"] else ("receivership" if e.get("pool") else "-"),
                  str(e["price"] or "-"), str(e["cash"]), " ".join(e["trains"]), str(e["tokens"]),
                  f"{e.get('ipo', '-')}", f"{e.get('pool', '-')}", holders)
    console.print(t)

    t = Table(title="Market")
    t.add_column("price")
    t.add_column("companies (operating order within a cell)")
    for sp in sorted(game.stock_market.all_prices(), key=lambda p: (-p.price, p.row, p.column)):
        here = game.stock_market.corporations_at(sp)
        if here:
            t.add_row(f"{sp.price}" + (f" ({', '.join(sp.types)})" if sp.types else ""),
                      ", ".join(c.id for c in here))
    console.print(t)
    console.print(f"Depot: {' '.join(snap['depot'][:12])}{' …' if len(snap['depot']) > 12 else ''}")
    if snap["operating_order"]:
        console.print("Operating order: " + ", ".join(snap["operating_order"]))
    if not game.finished:
        ent = game.current_entity()
        console.print(f"Acting: {game.index.name(ent) if ent is not None else '-'}", style="bold")
        acts = game.legal_actions()
        t = Table(title=f"Legal actions ({len(acts)})")
        t.add_column("#")
        t.add_column("action")
        for i, a in enumerate(acts[:60]):
            t.add_row(str(i), ", ".join(f"{k}={v}" for k, v in a.items() if k not in ("entity_type",)))
        console.print(t)
    else:
        console.print("Result: " + ", ".join(f"{names.get(k, k)} {v}" for k, v in game.result().items()))
