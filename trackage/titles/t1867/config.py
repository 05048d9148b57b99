"""1867 data: the JSON files of ``data/`` turned into the dict the game class reads."""

from __future__ import annotations

import json
import pickle
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"


@cache
def _text(directory: str, name: str) -> str:
    return (Path(directory) / f"{name}.json").read_text(encoding="utf-8")


@cache
def _pickled(directory: str, name: str) -> bytes:
    """The file's data pickled, once per process (unpickling makes a fresh copy faster than
    parsing the text again, or a deep copy)."""
    return pickle.dumps(json.loads(_text(directory, name)), protocol=pickle.HIGHEST_PROTOCOL)


def load(name: str, directory: Path = DATA) -> dict:
    """The file's data, a fresh copy each time (unpickled from the cached parse)."""
    data: dict = pickle.loads(_pickled(str(directory), name))
    return data


@cache
def catalogue(name: str, directory: str) -> Any:
    """A data file read only as catalogue (the map, the tiles: what the board's map and tile
    supply, themselves shared by the games of the process, are built of), parsed once per
    process and shared by every game: never changed, as the game's ``data`` never is."""
    return json.loads(_text(directory, name))


def build(rules: list[str], num_players: int, directory: Path = DATA, grid_default: bool = False) -> dict:
    """All data of a game on this map with these options (fresh copies, but for the map and
    the tiles: :func:`catalogue`)."""
    game = load("game", directory)
    map_data = catalogue("map", str(directory))
    entities = load("entities", directory)
    tiles = catalogue("tiles", str(directory))
    grid = "column_market" not in rules if grid_default else "grid_market" in rules
    return {
        "layout": map_data["layout"],
        "axes": map_data["axes"],
        "location_names": map_data["location_names"],
        "hexes": map_data["hexes"],
        "tiles": tiles,
        "market": game["grid_market"] if grid else game["column_market"],
        "phases": game["phases"],
        "trains": game["trains"],
        "companies": entities["companies"],
        "corporations": entities["corporations"],
        "cert_limit": game["cert_limit"][str(num_players)],
        "starting_cash": game["starting_cash"][str(num_players)],
        "national_reservations": game["national_reservations"],
        "trains_remove_2_player": game["trains_remove_2_player"],
        "tile_lays": game["tile_lays"],
    }
