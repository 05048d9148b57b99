"""The registry of supported titles: name -> game class (imported lazily)."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError

if TYPE_CHECKING:
    from ..core.game import Game

TITLES = {
    "1825": ("trackage.titles.t1825.game", "Game1825"),
    "1893": ("trackage.titles.t1893.game", "Game1893"),
    "1861": ("trackage.titles.t1861.game", "Game1861"),
    "1867": ("trackage.titles.t1867.game", "Game1867"),
    "1858": ("trackage.titles.t1858.game", "Game1858"),
    "1858India": ("trackage.titles.t1858india.game", "Game1858India"),
    "1822": ("trackage.titles.t1822.game", "Game1822"),
}

# the name a title is shown by (the web lobby and game pages); a title not named here shows its key
DISPLAY_NAMES = MappingProxyType({
    "1825": "1825",
    "1867": "1867: Railways of Canada",
    "1861": "1861: Railways of the Russian Empire",
    "1893": "1893: Cologne",
    "1822": "1822: The Railways of Great Britain",
    "1858": "1858: Iberia",
    "1858India": "1858 India",
})


@dataclass(frozen=True)
class TitleInfo:
    """What a title is shown as: its key, display name and player counts (fewest, most)."""
    title: str
    name: str
    players: tuple[int, int]


def display_name(title: str) -> str:
    """The name ``title`` is shown by (its key when it has none)."""
    return DISPLAY_NAMES.get(str(title), str(title))


def title_info(title: str) -> TitleInfo:
    """A title's display name and player range (the range is its game class's ``PLAYER_RANGE``)."""
    lo, hi = game_class(title).PLAYER_RANGE
    return TitleInfo(str(title), display_name(title), (int(lo), int(hi)))


def game_class(title: str) -> type[Game]:
    try:
        module, cls = TITLES[str(title)]
    except KeyError:
        raise GameError(f"unsupported title {title!r}; supported: {', '.join(sorted(TITLES))}",
                        rule="unknown-title") from None
    found: type[Game] = getattr(importlib.import_module(module), cls)
    return found


def new_game(title: str, players: list[Any], optional_rules: Iterable[Any] | None = None, seed: int = 0,
             game_id: Any = None, *, validate: bool = True) -> Game:
    """A new game. ``validate`` refuses set-ups the site would not create (player count,
    unknown or exclusive options); importing a log passes ``validate=False``, as the
    reference loads whatever a log names."""
    cls = game_class(title)
    options = [str(o) for o in (optional_rules or [])]
    if validate:
        cls.validate_setup(len(players), options)
    return cls.built(players, options, seed, game_id)
