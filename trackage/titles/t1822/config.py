"""1822 data: the JSON files of ``data/`` and the options that select among them."""

from __future__ import annotations

import json
import pickle
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"

OPTIONS = ("plus_expansion", "plus_expansion_no_removals", "plus_expansion_single_stack", "tax_haven_multiple")

BASE_PRIVATES = 18
BASE_MINORS = 24
PLUS_PRIVATES = 21
PLUS_MINORS = 30

# the companies and places the rules name
PLUS_BOX_1 = ("P1", "P3", "P4", "P13", "P14", "P19")
PLUS_BOX_2 = ("P2", "P5", "P8", "P10", "P11", "P12", "P21")
PLUS_BOX_3 = ("P6", "P7", "P9", "P15", "P16", "P17", "P18", "P20")
COMPANY_TRAINS = (("P3", "2P-0", False), ("P4", "2P-1", False), ("P1", "5P-0", True), ("P13", "P+-0", False),
                  ("P14", "P+-1", False), ("P19", "LP-0", False))
EXTRA_TRAINS = ("2P", "P+", "LP")
EXTRA_PERMANENTS = ("2P", "LP")
LOCAL_TRAINS = ("L", "LP")
PHASE_REVENUE = {"P15": 10, "P20": 5}
MAIL_CONTRACTS = ("P6", "P7")
REMOVE_REVENUE = ("P5", "P6", "P7", "P8", "P10", "P17", "P18", "P21")
PRIVATE_TRAINS = ("P1", "P3", "P4", "P13", "P14", "P19")
DOUBLE_CASH = "P9"
TAX_HAVEN = "P16"
LUR = "P17"
TWO_HOME = "LNWR"
MINOR_14 = "14"
LONDON = "M38"


@cache
def _text(name: str) -> str:
    return (DATA / f"{name}.json").read_text(encoding="utf-8")


@cache
def _pickled(name: str) -> bytes:
    """The file's data pickled, once per process (unpickling makes a fresh copy faster than
    parsing the text again)."""
    return pickle.dumps(json.loads(_text(name)), protocol=pickle.HIGHEST_PROTOCOL)


def load(name: str) -> dict:
    """The file's data, a fresh copy each time (unpickled from the cached parse)."""
    data: dict = pickle.loads(_pickled(name))
    return data


@cache
def catalogue(name: str) -> Any:
    """A data file read only as catalogue (the map, the tiles: what the board's map and tile
    supply, themselves shared by the games of the process, are built of), parsed once per
    process and shared by every game: never changed, as the game's ``data`` never is."""
    return json.loads(_text(name))


def starting_companies(plus: bool) -> set[str]:
    privates = PLUS_PRIVATES if plus else BASE_PRIVATES
    minors = PLUS_MINORS if plus else BASE_MINORS
    return ({f"P{i}" for i in range(1, privates + 1)} | {f"C{i}" for i in range(1, 11)}
            | {f"M{i}" for i in range(1, minors + 1)})


def build(rules: list[str], num_players: int) -> dict:
    plus = "plus_expansion" in rules
    # (the market, phases, trains and tables are read only, as the map is: shared; the entities
    # are copied, as the private companies' abilities are changed in play)
    game = catalogue("game")
    map_data = catalogue("map")
    entities = load("entities")
    keep = starting_companies(plus)
    minors = PLUS_MINORS if plus else BASE_MINORS
    corps = [c for c in entities["corporations"]
             if c["type"] == "major" or int(c["sym"]) <= minors]
    return {
        "layout": map_data["layout"],
        "axes": map_data["axes"],
        "location_names": map_data["location_names"],
        "hexes": map_data["hexes"],
        "tiles": catalogue("tiles"),
        "market": game["market"],
        "phases": game["phases"],
        "trains": game["trains"],
        "companies": [c for c in entities["companies"] if c["sym"] in keep],
        "corporations": corps,
        "cert_limit": game["cert_limit"][str(num_players)],
        "starting_cash": game["starting_cash"][str(num_players)],
        "bidding_tokens": game["bidding_tokens"][str(num_players)],
        "exchange_tokens": game["exchange_tokens"],
        "private_acquisition": game["private_acquisition"],
        "double_cash_revenue": game["double_cash_revenue"],
        "major_tile_lays": game["major_tile_lays"],
        "hsbc_tile_lays": game["hsbc_tile_lays"],
        "short_names": game["company_short_names"],
    }
