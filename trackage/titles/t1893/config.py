"""1893 option handling and game-data selection.

The title has three optional rules (the reference offers all of them at every player count):

* ``optional_2_train`` -- an eighth 2-train;
* ``optional_grey_phase`` -- the Köln tiles KV201/KV269/KV255/KV333 replace K201/K269/K255 and the
  gray KV259 is added;
* ``optional_existing_track`` -- Solingen (D7) and Grevenbroich (E2) start as yellow cities and
  the S upgrades KV619/KV63 are added.

``data/map.json`` is a map in the common format for the default options plus ``option_hexes``:
per optional rule, ``remove_coords`` (hexes dropped from their groups, which renumbers the
preprinted tile ids after them, as in the reference) and ``hexes`` (groups appended per colour).
``data/game.json`` holds the tile supply, market, phases, trains (with the trade-in ``discount``
table), corporations, minors, companies, and which certificates the minors and HdSK become.

Only data selection happens here; the rules that use the data live in ``game.py``.
"""

from __future__ import annotations

import json
import pickle
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parent / "data"
OPTIONAL_RULES = ("optional_2_train", "optional_grey_phase", "optional_existing_track")


@cache
def load(name: str) -> dict:
    with open(DATA_DIR / f"{name}.json", encoding="utf-8") as f:
        return json.load(f)


@cache
def _pickled(name: str) -> bytes:
    """:func:`load`'s data pickled, once per process (unpickling makes a fresh copy faster
    than a deep copy)."""
    return pickle.dumps(load(name), protocol=pickle.HIGHEST_PROTOCOL)


def normalize_options(rules) -> list[str]:
    """Known optional rules in the reference's order; unknown names are dropped."""
    given = {str(r) for r in rules or []}
    return [r for r in OPTIONAL_RULES if r in given]


def build(rules: list[str], num_players: int) -> dict:
    """The game data for these (normalised) rules and player count."""
    game = pickle.loads(_pickled("game"))
    mp = load("map")
    n = str(num_players)
    if n not in game["starting_cash"]:
        raise ValueError(f"1893 is for 2-4 players, not {num_players}")
    data = dict(game)
    data["starting_cash"] = game["starting_cash"][n]
    data["cert_limit"] = game["cert_limit"][n]
    options = load("options")
    for rule, opt in options.items():
        on = rule in rules
        for t in data["trains"]:
            if on and t["name"] in opt.get("train_counts", {}):
                t["num"] = opt["train_counts"][t["name"]]
    tiles, hexes = _catalogue(tuple(rules))
    data["tiles"] = tiles
    data["layout"] = mp["layout"]
    data["axes"] = mp["axes"]
    data["location_names"] = mp["location_names"]
    data["hexes"] = hexes
    return data


@cache
def _catalogue(rules: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """The tile supply and the hexes of a game with these rules, worked out once per process
    and shared by its games as the other titles' catalogue is (read only: the board's shared
    map and its tile supply are built of them; a game's ``data`` is never changed)."""
    options = load("options")
    tiles = dict(load("game")["tiles"])
    for rule, opt in options.items():
        on = rule in rules
        for name in opt.get("remove_tiles" if on else "add_tiles", []):
            tiles.pop(name, None)
    mp = load("map")
    hexes = {color: [dict(g) for g in groups] for color, groups in mp["hexes"].items()}
    for rule, change in mp.get("option_hexes", {}).items():
        if rule not in rules:
            continue
        gone = set(change.get("remove_coords", ()))
        for color, groups in hexes.items():
            kept = []
            for g in groups:
                coords = [c for c in g["coords"] if c not in gone]
                if coords:
                    kept.append({**g, "coords": coords})
            hexes[color] = kept
        for color, groups in change.get("hexes", {}).items():
            hexes.setdefault(color, []).extend(groups)
    return tiles, hexes
