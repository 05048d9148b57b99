"""Where the money went: the money events of a game's journal as flows, and their sums.

A flow is ``{"action", "round", "payer", "receiver", "amount", "category"}`` (ids as in the
journal). :func:`unexplained` is the check that the flows explain every change of cash: for
each holder, what came in less what went out equals its change of cash.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from .money import CashHolder, holder_id

if TYPE_CHECKING:
    from .game import Game

Flow = dict[str, Any]


def flows(game: Game, since: int = 0) -> list[Flow]:
    """The game's money flows, oldest first (from the ``since``-th event of its journal on)."""
    return [{"action": e.action, "round": e["round"], "payer": e["payer"], "receiver": e["receiver"],
             "amount": e["amount"], "category": e["why"]}
            for e in game.journal.events(since) if e.kind == "money"]


def cash_holders(game: Game) -> list[CashHolder]:
    """Every object of the game that can hold cash (the bank, players, corporations, minors,
    and whatever a title keeps: 1822's tax haven and phase-revenue pots, closed or replaced
    companies), found by walking the game's state the way a copy does, not from the lists a
    title keeps of its live entities."""
    from .clone import _copy

    memo: dict[int, Any] = {}
    _copy(game, memo)
    seen: set[int] = set()
    out: list[CashHolder] = []
    for copied in memo.values():
        if isinstance(copied, CashHolder) and id(copied) not in seen:
            seen.add(id(copied))
            out.append(copied)
    return out


def cash_of(game: Game) -> dict[str | int, int]:
    """Each holder's cash, by the id money events name it by."""
    out: dict[str | int, int] = {}
    for h in cash_holders(game):
        hid = holder_id(h)
        out[hid] = out.get(hid, 0) + h.cash
    return out


def net(flow_list: list[Flow]) -> dict[str | int, int]:
    """What each holder received less what it paid, over ``flow_list``."""
    out: dict[str | int, int] = defaultdict(int)
    for f in flow_list:
        out[f["payer"]] -= f["amount"]
        out[f["receiver"]] += f["amount"]
    return dict(out)


def unexplained(before: dict[str | int, int], after: dict[str | int, int],
                flow_list: list[Flow]) -> dict[str | int, tuple[int, int]]:
    """The holders whose change of cash the flows do not account for: id -> (change, flows)."""
    moved = net(flow_list)
    out = {}
    for hid in set(before) | set(after) | set(moved):
        change = after.get(hid, 0) - before.get(hid, 0)
        if change != moved.get(hid, 0):
            out[hid] = (change, moved.get(hid, 0))
    return out


def table(game: Game, by: str | None = None, since: int = 0) -> list[dict[str, Any]]:
    """The game's flows summed per (group, from, to, category), in the seeds' form: from and to
    are the classes of holder (players, companies, minors, bank, pool, other); ``by`` is
    ``"round"``, ``"action"`` or None (the whole game)."""
    sums: dict[tuple[Any, str, str, str], int] = defaultdict(int)
    order: list[tuple[Any, str, str, str]] = []
    for e in game.journal.events(since):
        if e.kind != "money":
            continue
        group = (e.action if by == "action" else e["round"]) if by else None
        key = (group, e["payer_kind"], e["receiver_kind"], e["why"])
        if key not in sums:
            order.append(key)
        sums[key] += e["amount"]
    return [{**({by: k[0]} if by else {}), "from": k[1], "to": k[2], "category": k[3], "amount": sums[k]}
            for k in order]
