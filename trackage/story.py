"""What happened in a game, told for people: amounts in the title's money, holders by name,
and the money table of the ledger (``trackage ledger``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .core import ledger

if TYPE_CHECKING:
    from . import review
    from .core.game import Game
    from .core.journal import Event

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


#: why the game ended, as players say it (``game_end`` events' ``reason``)
END_REASONS = {"bank": "the bank has broken", "stock_market": "a share price reached the top of the market",
               "final_phase": "the last phase has begun", "final_train": "the last train has been bought",
               "bankrupt": "a player went bankrupt", "manually_ended": "the players ended it",
               "dnf": "it ran out of turns", "custom": "the title's own condition was met"}

#: money told by another event of the same change (the certificates, the train): not said twice
_TOLD_ELSEWHERE = frozenset({"share_purchase", "share_sale", "train_purchase"})


def _whose(game: Game, hid: Any) -> str:
    """A certificate holder's name: the bank pool, a company's own treasury (its IPO), a player."""
    if hid == "pool":
        return "the market"
    return holder_name(game, hid)


def _money_message(game: Game, e: Event) -> str | None:
    why, amount = e["why"], money(game, e["amount"])
    payer, receiver = holder_name(game, e["payer"]), holder_name(game, e["receiver"])
    if why in _TOLD_ELSEWHERE:
        return None
    if why == "starting_cash":
        return f"{receiver} starts with {amount}"
    if why == "float_capital":
        return f"{receiver} receives its capital of {amount}"
    if why == "dividend":
        return f"{receiver} receives {amount} in dividends from {payer}"
    if why == "withheld":
        return f"{receiver} keeps {amount} in its treasury"
    if why == "private_revenue":
        return f"{receiver} collects {amount} from {payer}"
    if e["payer"] == "bank":
        return f"{receiver} receives {amount} from the bank ({why.replace('_', ' ')})"
    if e["receiver"] == "bank":
        return f"{payer} pays {amount} to the bank ({why.replace('_', ' ')})"
    return f"{payer} pays {amount} to {receiver} ({why.replace('_', ' ')})"


def _shares_message(game: Game, e: Event) -> str:
    corp, pct = e["corporation"], e["percent"]
    what = f"{pct}% {'president’s certificate' if e['president'] else 'share'} of {corp}"
    seller = "the IPO" if e["seller"] == corp else _whose(game, e["seller"])
    price = f" for {money(game, e['price'])}" if e["price"] else ""
    if e["buyer"] == corp and not e["price"]:
        return f"{_whose(game, e['seller'])} returns a {what} to the IPO"
    if e["buyer"] == "pool":
        return f"{_whose(game, e['seller'])} sells a {what} to the market{price}"
    return f"{_whose(game, e['buyer'])} gets a {what} from {seller}{price}"


def _round_header(e: Event) -> str:
    if e["operating"]:
        of = f" (of {e['of']})" if e["of"] else ""
        return f"— {e['name']} {e['turn']}.{e['number']}{of} —"
    return f"— {e['name']} {e['turn']} —"


def _train_owner(game: Game, hid: Any) -> str | None:
    return None if hid in (None, "depot") else holder_name(game, hid)


def message(game: Game, event: Event) -> str | None:
    """``event`` told in a line for players (names, the title's money), or None when it says
    nothing a player needs (it is told by another event, or it is bookkeeping)."""
    e, kind = event, event.kind
    if kind == "money":
        return _money_message(game, e)
    if kind == "round":
        return _round_header(e)
    if kind == "shares":
        return _shares_message(game, e)
    if kind == "president":
        if e["player"] == "pool":
            return f"{e['corporation']} goes into receivership"
        return f"{holder_name(game, e['player'])} becomes the president of {e['corporation']}"
    if kind == "float":
        return f"{e['corporation']} floats"
    if kind == "par":
        return f"{e['corporation']} is parred at {money(game, e['price'])}"
    if kind == "share_price":
        way = f" {e['direction']}" if e["direction"] else ""
        start = "" if e["from_price"] is None else f" from {money(game, e['from_price'])}"
        return f"{e['corporation']}'s share price moves{way}{start} to {money(game, e['to_price'])}"
    if kind == "phase":
        return f"— Phase {e['name']} —"
    if kind == "train":
        seller = "the depot" if e["seller"] in (None, "depot") else holder_name(game, e["seller"])
        price = f" for {money(game, e['price'])}" if e["price"] else ""
        return f"{holder_name(game, e['operator'])} buys a {e['name']} train from {seller}{price}"
    if kind in ("rust", "obsolete"):
        owner = _train_owner(game, e["owner"])
        if owner is None:
            return None
        verb = "rusts" if kind == "rust" else "becomes obsolete"
        return f"{owner}'s {e['name']} train {verb}"
    if kind == "tile":
        cost = f" for {money(game, e['cost'])}" if e["cost"] else ""
        return f"{holder_name(game, e['entity'])} lays tile #{e['tile']} on {e['hex']} (rotation {e['rotation']}){cost}"
    if kind == "token":
        return f"{e['corporation']} places a token on {e['hex']}"
    if kind == "close":
        return f"{e['corporation']} closes"
    if kind == "chat":
        return f"{holder_name(game, e['entity'])} says: “{e['message']}”"
    if kind == "pass":
        return f"{holder_name(game, e['entity'])} passes ({e['step'].lower()})"
    if kind == "bid":
        return f"{holder_name(game, e['entity'])} bids {money(game, e['price'])} for {e['item']}"
    if kind == "run":
        where = f": {'-'.join(e['hexes'])}" if e["hexes"] else ""
        return f"{e['corporation']} runs a {e['name']} train for {money(game, e['revenue'])}{where}"
    if kind == "no_run":
        return f"{e['corporation']} does not run"
    if kind == "dividend":
        if e["choice"] == "withhold":
            return f"{e['corporation']} withholds {money(game, e['revenue'])}"
        each = f" ({money(game, e['per_share'])} per share)" if e["per_share"] else ""
        half = "half of " if e["choice"] == "half" else ""
        return f"{e['corporation']} pays out {half}{money(game, e['revenue'])}{each}"
    if kind == "bank_broken":
        return "The bank breaks"
    if kind == "game_end":
        return f"The game ends: {END_REASONS.get(e['reason'], str(e['reason']))}"
    return None


def log_lines(game: Game) -> list[tuple[int, str | None, str]]:
    """The game's log: (action id, round header or None, message) for every event that says
    something, oldest first; a round header line has the header as its message too."""
    out: list[tuple[int, str | None, str]] = []
    for e in game.journal.events():
        text = message(game, e)
        if text is not None:
            out.append((e.action, text if e.kind == "round" else None, text))
    return out


def render_log(game: Game) -> None:
    """Print the game's log, grouped under its round headers, each line with its action id."""
    import click

    for action, header, text in log_lines(game):
        if header is not None:
            click.echo(f"\n{header}")
        else:
            click.echo(f"{action:6d}  {text}")


def money_rows(game: Game, round_label: str | None = None) -> list[dict[str, str]]:
    """The money table for a page: the whole game so far, or one round (``SR 3``, ``OR 3.2``),
    each row from, to, why and the amount in the title's money."""
    rows = ledger.table(game, "round" if round_label else None)
    return [{"from": CLASS_NAMES.get(r["from"], r["from"]), "to": CLASS_NAMES.get(r["to"], r["to"]),
             "why": r["category"].replace("_", " "), "amount": money(game, r["amount"])}
            for r in rows if round_label is None or r["round"] == round_label]


def render_ledger(game: Game, by: str | None = None) -> None:
    """Print the money table with rich."""
    from rich.console import Console
    from rich.table import Table

    rows = ledger.table(game, by)
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


def render_review(result: review.Review) -> None:
    """Print a review (``trackage review``) with rich: the runs that left revenue on the table
    or that the router could not prove, then the sums per company, per president and in all."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    t = result["total"]
    shown = [r for r in result["runs"] if r["left"] > 0 or r["note"] is not None]
    if shown:
        runs = Table(title=f"Runs below the best ({result['title']}, router work limit {result['work_limit']})")
        for col in ("Action", "Round", "Company", "President"):
            runs.add_column(col)
        for col in ("Logged", "Best", "Left"):
            runs.add_column(col, justify="right")
        runs.add_column("Note")
        for r in shown:
            best = "-" if r["best"] is None else str(r["best"]) + ("" if r["proven"] else "?")
            problem = r["note"] is not None and r["proven"] and r["confirmed"]  # (unconfirmed: the log's fault)
            runs.add_row(str(r["action"]), r["round"], r["corporation"], r["president"] or "-", str(r["logged"]),
                         best, str(r["left"]), r["note"] or "", style="red" if problem else None)
        console.print(runs)
    for title, key, group in (("Per company", "Company", result["by_company"]),
                              ("Per president", "President", result["by_player"])):
        table = Table(title=f"{title}: revenue left on the table")
        table.add_column(key)
        for col in ("Runs", "Improved", "Unproven", "Logged", "Best", "Left"):
            table.add_column(col, justify="right")
        for name, s in sorted(group.items(), key=lambda kv: (-kv[1]["left"], kv[0])):
            table.add_row(name, *(str(s[c]) for c in ("runs", "improved", "unproven", "logged", "best", "left")))
        table.add_section()
        table.add_row("total", *(str(t[c]) for c in ("runs", "improved", "unproven", "logged", "best", "left")),
                      style="bold")
        console.print(table)
    console.print(f"{t['runs']} runs, {t['improved']} below the best, {t['unproven']} not proven; "
                  f"{t['left']} left on the table of {t['best']} possible", highlight=False)
