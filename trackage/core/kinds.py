"""What kind of holder an object is: the one typed way to ask.

Every object that can own something or pay (players, private companies, corporations,
minors, the open market, the bank, the depot and the titles' own holders) derives from
:class:`Kinds`, so it has every flag: ask ``x.is_corporation``, never
a getattr with a default. The flags are class attributes, not state (copies
of a game never copy them). Graph nodes' kinds (``is_city``, ``is_town``) are another thing.

Kept apart from :mod:`trackage.core.entities` (which re-exports it) because the bank
(:mod:`trackage.core.money`) derives from it too and the entities import the money module.
"""

from __future__ import annotations

from typing import ClassVar

from .rewind import Tracked


class Kinds(Tracked):
    """The kind flags of an owner or payer, all ``False`` here; each kind sets its own."""

    __slots__ = ()
    is_player: ClassVar[bool] = False
    is_corporation: ClassVar[bool] = False
    is_minor: ClassVar[bool] = False
    is_company: ClassVar[bool] = False
    is_pool: ClassVar[bool] = False
    is_depot: ClassVar[bool] = False
    is_bank: ClassVar[bool] = False

