"""What happened in a game, told for people: amounts in the title's money, holders by name,
and the money table of the ledger (``trackage ledger``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .core import ledger

if TYPE_CHECKING:
    from .core.game import Game

CLASS_NAMES = {"bank": "Bank", "players": "Players", "companies": "Companies", "minors": "Minors",
               "pool": "Pool", "other": "Other"}


def money(game: Game, amount: int) -> str:
    """``amount`` as the title writes money (``£100``, ``100M``, ``100₽``)."""
    return game.CURRENCY % amount


def holder_name(game: Game, hid: str | int) -> str:
    """A money holder's name for people: the bank, a player's name, a company's name."""
    if hid == "bank":
        return "the bank"
    for p in game.players:
        if p.id == hid:
            return str(p.name)
    return str(hid)


def ledger_table(game: Game, by: str | None = None) -> list[dict[str, Any]]:
    """The seeds' money table of the whole game (or per round, per action): from which class
    of holder to which, for which reason, how much."""
    return ledger.table(game, by)


def render_ledger(game: Game, by: str | None = None) -> None:
    """Print the money table with rich."""
    from rich.console import Console
    from rich.table import Table

    rows = ledger_table(game, by)
    table = Table(title=f"Where the money went ({game.TITLE})")
    if by:
        table.add_column(by.capitalize())
    for col in ("From", "To", "Why"):
        table.add_column(col)
    table.add_column("Amount", justify="right")
    last = None
    for r in rows:
        group = r.get(by) if by else None
        cells = [str(group) if group != last else ""] if by else []
        last = group
        table.add_row(*cells, CLASS_NAMES.get(r["from"], r["from"]), CLASS_NAMES.get(r["to"], r["to"]),
                      r["category"].replace("_", " "), money(game, r["amount"]))
    Console().print(table)


def unexplained_actions(data: dict[str, Any]) -> tuple[int, list[tuple[int, dict[Any, tuple[int, int]]]]]:
    """Replay log ``data`` and check, after the set-up and after each action, that the money
    flows recorded explain every holder's change of cash. Returns the actions applied and,
    for each action that is not explained, its id (0: the set-up) with the holders concerned
    (id -> (change of cash, net flows))."""
    from .core.log import filter_actions
    from .replay import game_from_log

    game = game_from_log(data)
    bad: list[tuple[int, dict[Any, tuple[int, int]]]] = []
    start = dict.fromkeys(ledger.cash_of(game), 0)
    start["bank"] = game.bank_cash_start()
    off = ledger.unexplained(start, ledger.cash_of(game), ledger.flows(game))
    if off:
        bad.append((0, off))
    state: dict[str, Any] = {"cash": ledger.cash_of(game), "events": len(game.journal), "n": 0}

    def after(g: Game, action: dict[str, Any]) -> None:
        now = ledger.cash_of(g)
        off = ledger.unexplained(state["cash"], now, ledger.flows(g, state["events"]))
        if off:
            bad.append((action.get("id") or 0, off))
        state.update(cash=now, events=len(g.journal), n=state["n"] + 1)

    game.load(filter_actions(data["actions"]), trace=after)
    return state["n"], bad
