"""The event journal: what happened in a game, as plain data, in the order it happened.

Every change the rules make is recorded where it is made, as an :class:`Event` tied to the
action that caused it (``action`` is that action's id; 0 is the set-up before the first
action). The journal is part of the game's state: a copy of the game has the journal as it
was, and undoing an action takes its events away with it.

It is a persistent chain: each event is a frozen link to the one before, so a copy of the
game shares every event recorded so far and costs two attributes, and restoring a snapshot
puts back the tail it had. Nothing recorded is ever changed.

Kinds of event (the ``kind`` field) and their fields:

``money``
    ``payer``, ``receiver`` (ids: a player's id, a company's or minor's id, ``"bank"``),
    ``amount`` (> 0) and ``why``, one of :data:`MONEY_CATEGORIES`.

The other kinds (``round``, ``phase``, ``par``, ``share_price``, ``shares``, ``president``,
``float``, ``train``, ``rust``, ``obsolete``, ``tile``, ``token``, ``close``, ``bank_broken``,
``game_end``), where each is recorded and its fields: ``docs/journal.md``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any

from .rewind import Tracked

#: why money moves, after the seeds' tables "where the money goes"; every flow names one
MONEY_CATEGORIES: Mapping[str, str] = MappingProxyType({
    "starting_cash": "the money each player starts with, from the bank",
    "share_purchase": "a certificate bought (from the IPO, the pool, a treasury or a player)",
    "share_sale": "a certificate sold (to the pool, or back to a company)",
    "company_purchase": "a private company, concession or starting packet bought",
    "company_sale": "a private company sold",
    "bid": "an auction's price paid beyond what the item itself is worth",
    "float_capital": "a company's capital, paid to it by the bank when it floats",
    "capital": "money given to a company when it forms, merges or converts",
    "dividend": "a company's revenue paid out to its shareholders (or to its owner)",
    "withheld": "a company's revenue kept in its treasury",
    "private_revenue": "a private company's income to its owner",
    "train_purchase": "a train bought from the depot or from another company",
    "train_sale": "a train sold or exported to the bank",
    "terrain": "the cost of building track on a hex (terrain, water, a city's upgrade)",
    "token": "a station token placed, bought or exchanged",
    "loan": "a loan taken",
    "loan_repayment": "a loan paid back",
    "interest": "interest paid on loans",
    "issue": "shares issued from a company's treasury to the pool",
    "redeem": "shares redeemed from the pool into a company's treasury",
    "emergency": "a president's own money put into a company's forced train purchase",
    "acquisition": "a company acquiring another: its price and the treasury it takes over",
    "compensation": "money paid out for a closed or nationalised holding",
    "treasury_return": "a treasury handed back to the bank (a company closing, a re-capitalisation)",
    "closure": "a closing company's treasury handed on to another holder",
    "penalty": "a penalty or fee paid to the bank",
    "bonus": "a bonus the bank pays (a destination reached, a special ability)",
    "transfer": "money moved between a company and its owner",
    "lease": "a train leased for a company in receivership",
    "bankruptcy": "a bankrupt player's or company's money handed to the bank",
})


class Event:
    """One thing that happened: its ``kind``, the id of the ``action`` that caused it, and
    its fields (see the module's documentation). Events are never changed once recorded;
    each is also a link of the journal's chain (to the event before it), so copies of a
    game share them (``CATALOGUE``: the copy machinery shares, never copies, them)."""

    __slots__ = ("_fields", "_prev", "_size", "action", "kind")
    CATALOGUE = True

    def __init__(self, kind: str, action: int, fields: dict[str, Any], prev: Event | None = None) -> None:
        self.kind = kind
        self.action = action
        # the event's own dict, which no one else holds (a recording's keywords), shown only
        # read-only: no view object per event (a tracked container the collector would scan)
        self._fields = fields
        self._prev = prev
        self._size: int = 1 if prev is None else prev._size + 1

    @property
    def fields(self) -> Mapping[str, Any]:
        """The event's fields, read-only."""
        return MappingProxyType(self._fields)

    def __getitem__(self, name: str) -> Any:
        return self._fields[name]

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.action}, {self._fields!r})"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "action": self.action, **self._fields}


class Journal(Tracked):
    """The events of one game. ``action`` is the id the next events are tied to; the
    pipeline sets it before each action is applied; ``tail`` is the last event (None: none)."""

    __slots__ = ("action", "tail")

    def __init__(self) -> None:
        self.tail: Event | None = None
        self.action = 0

    def __len__(self) -> int:
        tail = self.tail
        return 0 if tail is None else tail._size

    def record(self, kind: str, **fields: Any) -> Event:
        """Add an event of ``kind`` with ``fields``, tied to the current action."""
        event = self.tail = Event(kind, self.action, fields, self.tail)
        return event

    def add(self, kind: str, fields: dict[str, Any]) -> Event:
        """:meth:`record` with the fields given as a new dict that no one else holds (the
        event keeps it): a dict written in place costs less than keywords gathered into one,
        for the journal's most frequent events."""
        event = self.tail = Event(kind, self.action, fields, self.tail)
        return event

    def events(self, since: int = 0) -> list[Event]:
        """The events from the ``since``-th on (0: all of them), oldest first."""
        out: list[Event] = []
        event = self.tail
        while event is not None and event._size > since:
            out.append(event)
            event = event._prev
        out.reverse()
        return out

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events())

    def of_kind(self, kind: str) -> list[Event]:
        return [e for e in self.events() if e.kind == kind]


def round_label(game: Any) -> str:
    """The round an event happens in, as players say it: ``SR 3``, ``OR 3.2``, or the round's
    name and the turn (``Merger Round 4``); ``Set-up`` before the first round."""
    r = getattr(game, "round", None)  # absent while the game is being set up
    if r is None:
        return "Set-up"
    if r.is_stock():
        return f"SR {game.turn}"
    if r.is_operating():
        return f"OR {game.turn}.{r.round_num}"
    return f"{r.name} {game.turn}"


def record_round(game: Any) -> Event:
    """Record that ``game.round`` has just begun (a round header): its ``name`` (``Stock
    Round``), the game's ``turn``, the round's ``number`` in its set, how many the set has
    (``of``, operating rounds only) and its ``label`` as :func:`round_label` gives it."""
    r = game.round
    operating = r.is_operating()
    journal: Journal = game.journal
    return journal.record("round", name=r.name, turn=game.turn, number=getattr(r, "round_num", 1),
                          of=game.operating_rounds_in_set if operating else None,
                          operating=operating, stock=r.is_stock(), label=round_label(game))
