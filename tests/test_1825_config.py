"""Tests of the 1825 option normalisation and data selection (trackage.titles.t1825.config)."""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from pathlib import Path

import pytest

from trackage.titles.t1825.config import OptionError, build, normalize_options

ROOT = Path(__file__).resolve().parents[1]
STANDARD_TILES = ROOT / "trackage" / "data" / "tiles.json"
FIXTURES = Path("/work/shared/fixtures/1825")

ALL_OPTIONS = ["unit_123", "r1", "r2", "r3", "k1", "k3", "k5", "k6", "k7",
               "u3p", "db1", "db2", "db3"]
NODE_TYPES = {"city", "town", "offboard", "junction", "halt", "pass"}


def built(rules, players):
    return build(normalize_options(rules, players), players)


def hex_ids(hexes):
    """coord -> (preprinted tile id, parts, colour)."""
    out = {}
    for color, groups in hexes.items():
        for group in groups:
            for index, coord in enumerate(group["coords"]):
                assert coord not in out, f"{coord} defined twice"
                out[coord] = (f"{coord}-{index}", group["parts"], color)
    return out


# ---------------------------------------------------------------- options


@pytest.mark.parametrize("players, rules", [
    (2, ("unit_3",)),
    (3, ("unit_2",)),
    (4, ("unit_1",)),
    (5, ("unit_1",)),
    (6, ("unit_12",)),
    (7, ("unit_12",)),
    (8, ("unit_123",)),
    (9, ("unit_123", "r1", "r2", "r3")),
])
def test_defaults_by_player_count(players, rules):
    options = normalize_options([], players)
    assert options.rules == rules


def test_default_units():
    assert normalize_options([], 2).units == {3}
    assert normalize_options([], 4).units == {1}
    assert normalize_options([], 6).units == {1, 2}
    nine = normalize_options([], 9)
    assert nine.units == {1, 2, 3} and nine.regionals == {1, 2, 3}


@pytest.mark.parametrize("rules, players, expected", [
    (["unit_1", "r1", "unit_2"], 4, ("r1", "unit_12")),
    (["unit_3", "unit_1", "k1", "unit_2"], 4, ("k1", "unit_123")),
    (["unit_2", "unit_3"], 3, ("unit_23",)),
    (["unit_12", "unit_3"], 5, ("unit_12", "unit_3")),
    (["unit_1", "r1"], 2, ("unit_1", "r1")),
])
def test_unit_merging_keeps_reference_order(rules, players, expected):
    assert normalize_options(rules, players).rules == expected


def test_unit_12_plus_unit_3_is_all_units():
    options = normalize_options(["unit_12", "unit_3"], 5)
    assert options.units == {1, 2, 3}
    assert options.unit_key == "123"


def test_options_flags_and_frozen():
    options = normalize_options(ALL_OPTIONS, 6)
    assert options.units == {1, 2, 3}
    assert options.kits == {1, 3, 5, 6, 7}
    assert options.regionals == {1, 2, 3}
    assert options.u3p and options.db1 and options.db2 and options.db3
    assert not (options.d1 or options.unit_4 or options.big_bank or options.strict_bank)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.units = frozenset()  # type: ignore[misc]


@pytest.mark.parametrize("rules, players, message", [
    (["k1"], 4, "Must select at least one Unit if using other options"),
    (["unit_1", "unit_3"], 4, "Cannot combine Units 1 and 3 without Unit 2"),
    (["unit_2", "r1"], 3, "Cannot add Regionals without Unit 1"),
    (["unit_1", "k5"], 4, "Cannot add K5 without Unit 2"),
    (["unit_2", "k7"], 3, "Cannot add K7 without Unit 1"),
    (["unit_3", "k2", "k3"], 2, "K2 not supported with just Unit 3"),
    (["unit_1", "k2"], 4, "K2 not supported without K3"),
    (["unit_12", "u3p"], 4, "Cannot use extra Unit 3 trains without Unit 3"),
    (["unit_1", "k1", "d1"], 4, "Cannot use K1 or K6 with D1"),
    (["unit_1", "k6", "d1"], 4, "Cannot use K1 or K6 with D1"),
    (["unit_2", "db1"], 3, "Variant DB1 not useful in a Unit 2 only game"),
    (["unit_23", "db2"], 3, "Variant DB2 is for Unit 1"),
    (["unit_12", "db3"], 4, "Variant DB3 is for Unit 3"),
    (["unit_12", "unit_4"], 4, "Unit 4 requires Unit 3"),
    (["unit_2"], 5, "Invalid option(s) for number of players"),
    (["unit_3"], 3, "Invalid option(s) for number of players"),
    (["unit_1"], 6, "Invalid option(s) for number of players"),
    (["unit_12"], 2, "Invalid option(s) for number of players"),
    (["unit_23"], 6, "Invalid option(s) for number of players"),
    (["unit_123"], 9, "Invalid option(s) for number of players"),
    (["unit_123"], 3, "Invalid option(s) for number of players"),
    ([], 1, "Invalid option(s) for number of players"),
    ([], 10, "Invalid option(s) for number of players"),
    (["unit_1", "big_bank", "strict_bank"], 4, "Cannot use both bank options"),
])
def test_option_errors(rules, players, message):
    with pytest.raises(OptionError) as err:
        normalize_options(rules, players)
    assert str(err.value) == message
    assert isinstance(err.value, ValueError)


def test_error_precedence_follows_reference():
    # The combination errors come before the player-count check.
    with pytest.raises(OptionError, match="Regionals"):
        normalize_options(["unit_2", "r1"], 9)
    # The bank-option check only runs after everything else passed.
    with pytest.raises(OptionError, match="number of players"):
        normalize_options(["unit_2", "big_bank", "strict_bank"], 5)


def test_player_limited_rules_are_not_dropped():
    # 1825 replaces the generic init_optional_rules, so unit_2 (players 2-4) is not
    # silently removed for 5 players: the count check rejects it instead.
    with pytest.raises(OptionError):
        normalize_options(["unit_2"], 5)
    assert normalize_options(["unit_123", "r1"], 9).rules == ("unit_123", "r1")


def test_unknown_rules_are_kept():
    assert normalize_options(["unit_1", "whatever"], 4).rules == ("unit_1", "whatever")


# ---------------------------------------------------------------- money and certificates


@pytest.mark.parametrize("rules, players, bank, cash, certs", [
    (["unit_1"], 4, 5000, 630, 12),
    (["unit_1"], 2, 5000, 1200, 24),
    (["unit_1", "r1"], 2, 7000, 1200, 26),
    (["unit_2"], 3, 5000, 800, 16),
    (["unit_3"], 2, 4000, 750, 17),
    (["unit_23"], 4, 5000, 630, 23),
    (["unit_12"], 7, 5000, 360, 14),
    (["unit_12", "k5"], 6, 7000, 420, 17),
    (["unit_123"], 8, 5000, 315, 17),
    (["unit_123", "big_bank"], 8, 14000, 315, 17),
    (["unit_123", "r1", "strict_bank"], 9, 5000, 280, 15),
    (["unit_1", "r2"], 3, 7000, 830, 18),
    (["unit_1", "r3"], 4, 5000, 630, 12),
    (["unit_12", "k2", "k3"], 4, 9000, 630, 23),
    (ALL_OPTIONS, 6, 14000, 420, 26),
    (["unit_123", "r1", "r2", "r3"], 9, 9000, 280, 16),
])
def test_bank_cash_and_certs(rules, players, bank, cash, certs):
    data = built(rules, players)
    assert data["bank_cash"] == bank
    assert data["starting_cash"] == cash
    assert data["cert_limit"] == certs
    assert data["bank_cash_initial"] == 50000


def test_num_minors_counts_r2_twice_and_not_r3():
    assert built(["unit_1", "r1"], 2)["num_minors"] == 2
    assert built(["unit_1", "r2"], 2)["num_minors"] == 2
    assert built(["unit_1", "r3"], 2)["num_minors"] == 0
    assert built(ALL_OPTIONS, 6)["num_minors"] == 7


def test_fixture_bank_after_first_action():
    # 1825_game_end_bank: 2 players, unit_1 r1. The bank object starts with 50,000, pays
    # 2 x 1200, gets S&M (30) and C&HP (75) at setup, then C&W (130) in action 1.
    data = built(["unit_1", "r1"], 2)
    cheapest = sorted(c["value"] for c in data["companies"])[:2]
    bank = data["bank_cash_initial"] - 2 * data["starting_cash"] + sum(cheapest) + 130
    assert bank == 47835


# ---------------------------------------------------------------- market, phases, trains


def test_markets():
    small = built(["unit_1"], 4)["market"]
    large = built(["unit_2"], 3)["market"]
    assert len(small) == 1 and len(small[0]) == 28
    assert len(large) == 1 and len(large[0]) == 36
    assert small[0][0] == {"price": 0, "types": ["close"]}
    assert small[0][1] == {"price": 5, "types": ["no_cert_limit"]}
    assert small[0][10] == {"price": 67, "types": ["par"]}
    assert small[0][15] == {"price": 100, "types": ["par"]}
    assert small[0][16] == {"price": 112, "types": []}
    assert small[0][-1] == {"price": 340, "types": ["endgame"]}
    assert large[0][27] == {"price": 340, "types": []}
    assert large[0][-1] == {"price": 500, "types": ["endgame"]}


def test_phases():
    names = lambda rules, n: [p["name"] for p in built(rules, n)["phases"]]  # noqa: E731
    assert names(["unit_1"], 4) == ["1", "2", "3"]
    assert names(["unit_2"], 3) == ["1", "2", "3", "3a"]
    assert names(["unit_2", "k3"], 3) == ["1", "2", "3", "4", "4a"]
    assert names(["unit_1", "k3"], 3) == ["1", "2", "3", "4", "4a"]
    phase3 = built(["unit_1"], 4)["phases"][2]
    assert phase3 == {"name": "3", "on": "5", "train_limit": 3,
                      "tiles": ["yellow", "green", "brown"], "operating_rounds": 3}


def train_counts(rules, players):
    return {t["name"]: t["num"] for t in built(rules, players)["trains"]}


@pytest.mark.parametrize("rules, players, expected", [
    (["unit_1"], 4, {"2": 6, "3": 4, "4": 3, "5": 4}),
    (["unit_2"], 3, {"2": 5, "3": 3, "4": 2, "5": 3, "6": 2}),
    (["unit_2", "k3"], 3, {"2": 5, "3": 3, "4": 2, "5": 2, "6": 3, "7": 2}),
    (["unit_3"], 2, {"2": 5, "3": 3, "4": 1, "5": 3, "7": 2, "3T": 1, "U3": 1}),
    (["unit_3", "u3p"], 2, {"2": 5, "3": 3, "4": 1, "5": 3, "7": 2, "3T": 3, "U3": 3}),
    (["unit_12"], 5, {"2": 7, "3": 6, "4": 4, "5": 5, "6": 2}),
    (["unit_23"], 4, {"2": 5, "3": 5, "4": 4, "5": 6, "7": 2, "3T": 1, "U3": 1}),
    (["unit_123"], 6, {"2": 7, "3": 6, "4": 5, "5": 6, "6": 2, "7": 2, "3T": 1, "U3": 1}),
    (["unit_1", "r1", "r2", "r3", "k7"], 4,
     {"2": 6, "3": 4, "4": 3, "5": 5, "U3": 1, "4T": 2, "2+2": 1}),
    (["unit_1", "k2", "k3"], 4,
     {"2": 6, "3": 3, "4": 2, "5": 3, "6": 3, "7": 2, "3T": 3, "U3": 1, "2+2": 3, "4T": 2,
      "4+4E": 2}),
    (["unit_23", "k2", "k3", "k5"], 4,
     {"2": 5, "3": 4, "4": 4, "5": 5, "6": 3, "7": 4, "3T": 6, "U3": 3, "2+2": 3, "4T": 2,
      "4+4E": 2}),
    (ALL_OPTIONS, 6,
     {"2": 7, "3": 6, "4": 5, "5": 7, "6": 5, "7": 4, "3T": 4, "U3": 4, "2+2": 1, "4T": 2}),
])
def test_train_counts(rules, players, expected):
    counts = train_counts(rules, players)
    assert {k: v for k, v in counts.items() if v} == expected


def test_train_list_order_and_shape():
    trains = built(["unit_1"], 4)["trains"]
    assert [t["name"] for t in trains] == \
        ["2", "3", "4", "5", "6", "7", "3T", "U3", "2+2", "4T", "4+4E"]
    for train in trains:
        assert set(train) == {"name", "num", "distance", "price", "rusts_on", "obsolete_on",
                              "available_on", "multiplier"}
    by_name = {t["name"]: t for t in trains}
    assert by_name["2"]["rusts_on"] == "5" and by_name["3"]["rusts_on"] is None
    assert by_name["U3"]["distance"] == [{"nodes": ["city"], "pay": 3, "visit": 3},
                                        {"nodes": ["town"], "pay": 99, "visit": 99}]
    assert by_name["2+2"]["multiplier"] == 2


def test_available_on_dropped_for_missing_phases():
    by_name = {t["name"]: t for t in built(["unit_1"], 4)["trains"]}
    assert by_name["3T"]["available_on"] == "3"
    assert by_name["4T"]["available_on"] is None
    assert by_name["4+4E"]["available_on"] is None
    k3 = {t["name"]: t for t in built(["unit_1", "k3"], 4)["trains"]}
    assert k3["4T"]["available_on"] == "4"
    assert k3["4+4E"]["available_on"] == "4a"
    assert k3["3"]["rusts_on"] == "7"


def test_dummy_trains():
    dummies = built(["unit_1"], 4)["dummy_trains"]
    assert [d["name"] for d in dummies] == ["2", "3", "4", "5", "3T", "U3", "6", "4T", "2+2", "7"]
    assert all(d["price"] == 1 for d in dummies)


# ---------------------------------------------------------------- companies and corporations


def syms(items):
    return [i["sym"] for i in items]


def test_companies_by_unit():
    assert syms(built(["unit_1"], 4)["companies"]) == ["S&M", "C&HP", "C&W", "L&M"]
    assert syms(built(["unit_2"], 3)["companies"]) == ["L&MI", "C&HP", "S&D", "L&M"]
    assert syms(built(["unit_3"], 2)["companies"]) == ["A&F", "TWW", "S&D"]
    assert syms(built(["unit_23"], 3)["companies"]) == ["A&F", "TWW", "S&D", "C&HP", "L&M"]
    assert syms(built(["unit_123"], 6)["companies"]) == \
        ["S&M", "C&HP", "C&W", "L&M", "TWW", "S&D"]


def test_corporations_order_all_options():
    corps = built(ALL_OPTIONS, 6)["corporations"]
    assert syms(corps) == ["LNWR", "GWR", "GER", "LSWR", "SECR", "LBSC", "MR", "NER", "GCR",
                           "GNR", "L&Y", "CR", "NBR", "GSWR", "GNoS", "HR", "M&C", "Cam", "TV",
                           "S&DR", "M&GN", "FR", "NS", "LT&S"]
    types = {c["sym"]: c["type"] for c in corps}
    assert [s for s, t in types.items() if t == "minor"] == \
        ["GNoS", "HR", "M&C", "Cam", "TV", "S&DR", "M&GN", "FR", "NS", "LT&S"]


def corp(data, sym):
    return next(c for c in data["corporations"] if c["sym"] == sym)


def test_major_and_minor_fields():
    data = built(["unit_1", "r1"], 2)
    lnwr = corp(data, "LNWR")
    assert lnwr["shares"] == [20] + [10] * 8
    assert lnwr["float_percent"] == 60
    assert lnwr["par"] == 100 and lnwr["required_train"] is None
    assert lnwr["tokens"] == [0, 40, 100, 100, 100]
    assert lnwr["abilities"] == [{"type": "blocks_hexes", "owner_type": None, "hexes": ["U17"]}]
    assert lnwr["reservations"] == [{"hex": "T16", "city": 0}]
    assert corp(data, "GER")["city"] == 4
    cam = corp(data, "Cam")
    assert cam["type"] == "minor" and cam["shares"] == [40, 20, 20, 20]
    assert cam["float_percent"] == 40 and cam["price_percent"] == 10
    assert cam["required_train"] == "U3" and cam["par"] is None
    assert cam["city"] is None and cam["reservations"] == [{"hex": "R8", "city": None}]
    assert cam["capitalization"] == "incremental" and lnwr["capitalization"] == "full"
    assert corp(data, "TV")["required_train"] == "4T"


def test_combined_unit_adjustments():
    data = built(["unit_12", "r2"], 4)
    lnwr = corp(data, "LNWR")
    assert lnwr["coordinates"] == ["T16", "Q11"]
    assert lnwr["tokens"] == [0, 0, 40, 100, 100, 100, 100]
    assert lnwr["reservations"] == [{"hex": "T16", "city": 0}, {"hex": "Q11", "city": 0}]
    assert [a["hexes"] for a in corp(data, "MR")["abilities"]] == [["Q15"], ["R14"]]
    gwr = corp(data, "GWR")
    assert gwr["coordinates"] == ["V14", "Y7"] and gwr["tokens"][:2] == [0, 0]
    assert syms(data["corporations"]).count("LNWR") == 1
    # The adjustments do not leak into later builds.
    assert [a["hexes"] for a in corp(built(["unit_2"], 3), "MR")["abilities"]] == [["Q15"]]
    assert corp(built(["unit_2"], 3), "LNWR")["coordinates"] == "Q11"


def test_db2_and_unit4_adjustments():
    data = built(["unit_123", "db2", "unit_4"], 5)
    assert [a["hexes"] for a in corp(data, "SECR")["abilities"]] == [["W21"]]
    assert corp(data, "LBSC")["abilities"] == []
    assert corp(data, "SECR")["par"] == 67
    assert data["par_by_corporation"]["SECR"] == 67
    assert corp(data, "HR")["coordinates"] == "A5"
    plain = built(["unit_1"], 4)
    assert corp(plain, "SECR")["abilities"] == [] and corp(plain, "SECR")["par"] == 71


def test_par_values_and_required_trains():
    data = built(["unit_123"], 6)
    pars = {c["sym"]: c["par"] for c in data["corporations"] if c["type"] == "major"}
    assert pars == {"LNWR": 100, "GWR": 90, "GER": 76, "LSWR": 76, "SECR": 71, "LBSC": 67,
                    "MR": 82, "NER": 82, "GCR": 71, "GNR": 71, "L&Y": 71, "CR": 76, "NBR": 76,
                    "GSWR": 67}
    assert data["required_train"]["GNoS"] == "5"
    assert data["required_train"]["LT&S"] == "2+2"


# ---------------------------------------------------------------- map


def check_parts(parts):
    assert isinstance(parts, list)
    nodes = 0
    for part in parts:
        assert isinstance(part, dict) and isinstance(part.get("t"), str)
        if part["t"] in NODE_TYPES:
            nodes += 1
    for part in parts:
        if part["t"] == "path":
            for end in (part["a"], part["b"]):
                if isinstance(end, str):
                    assert re.fullmatch(r"_\d+", end) and int(end[1:]) < nodes
                else:
                    assert 0 <= end <= 5
        if part["t"] == "city":
            assert isinstance(part["revenue"], (int, dict))


COMBOS = [
    (["unit_1"], 4), (["unit_2"], 3), (["unit_3"], 2), (["unit_12"], 5), (["unit_23"], 4),
    (["unit_123"], 6), (["unit_1", "r1", "r2", "r3", "db2"], 3), (["unit_3", "db3"], 2),
    (["unit_23", "unit_4", "db3"], 4), (ALL_OPTIONS, 6),
    (ALL_OPTIONS + ["unit_4", "k2"], 9),
    (["unit_12", "d1", "k3", "k5", "db1"], 5),
]


@pytest.mark.parametrize("rules, players", COMBOS)
def test_hex_groups_well_formed(rules, players):
    data = built(rules, players)
    assert data["layout"] == "pointy"
    assert data["axes"] == {"x": "number", "y": "letter"}
    seen = hex_ids(data["hexes"])
    for color, groups in data["hexes"].items():
        assert color in {"white", "yellow", "green", "brown", "gray", "sepia", "red", "blue"}
        for group in groups:
            assert group["coords"] and all(isinstance(c, str) for c in group["coords"])
            assert ("parts" in group) != ("tile" in group)
            check_parts(group.get("parts", []))
    for coord in data["tile200_hexes"]:
        # Crewe (Q11) is a gray off-map hex in a Unit 1 game without Unit 2.
        if coord in seen:
            assert seen[coord][2] in {"sepia", "gray"}


def test_hex_merge_order_and_overrides():
    plain = hex_ids(built(["unit_1"], 4)["hexes"])
    assert plain["R16"][0] == "R16-0" and plain["X20"][0] == "X20-3"
    assert plain["W23"][0] == "W23-0" and len(plain["W23"][1]) == 2
    # DB2 defines W23 first; UNIT1's plain cities then join that group behind it.
    db2 = hex_ids(built(["unit_1", "db2"], 4)["hexes"])
    assert db2["W23"][0] == "W23-0" and db2["W23"][1] == [{"t": "city", "revenue": 0}]
    assert db2["R16"][0] == "R16-1" and db2["X20"][0] == "X20-4"
    # R1 comes before UNIT1: R8 is its city, not Unit 1's blank hex.
    r1 = hex_ids(built(["unit_1", "r1"], 2)["hexes"])
    assert r1["R8"][1] == [{"t": "city", "revenue": 0}] and r1["R8"][0] == "R8-0"
    assert r1["Q9"][2] == "gray" and r1["Q9"][0] == "Q9-1"
    # R2's W9 replaces Unit 1's.
    r2 = hex_ids(built(["unit_1", "r2"], 2)["hexes"])
    assert r2["W9"][1][0]["t"] == "city"
    assert hex_ids(built(["unit_1"], 2)["hexes"])["W9"][1][0]["t"] == "path"
    # Off-map hexes never replace map hexes.
    both = hex_ids(built(["unit_12"], 4)["hexes"])
    assert both["Q11"][2] == "sepia" and both["R14"][2] == "white"
    assert hex_ids(built(["unit_2"], 3)["hexes"])["R14"][2] == "gray"


def test_db3_map_changes():
    base = built(["unit_3"], 2)
    db3 = built(["unit_3", "db3"], 2)
    assert hex_ids(db3["hexes"])["G13"][1] == [{"t": "city", "revenue": 0}]
    assert "G13" not in hex_ids(base["hexes"])  # Berwick only exists on the DB3 map
    f4 = hex_ids(db3["hexes"])["F4"][1]
    assert {"t": "border", "edge": 0, "type": "impassable"} in f4
    assert base["location_names"]["G7"] == "Coatbridge & Airdrie"
    assert db3["location_names"]["G7"] == "Falkirk & Airdrie"


def test_unit4_location_names():
    names = built(["unit_3", "unit_4"], 2)["location_names"]
    assert names["A5"] == "Inverness" and names["C3"] == "Fort William"
    assert "B8" not in names
    assert built(["unit_3"], 2)["location_names"]["B8"] == "Inverness"
    assert "A5" in hex_ids(built(["unit_3", "unit_4"], 2)["hexes"])


# ---------------------------------------------------------------- tiles


def test_tile_supply_merging():
    unit1 = built(["unit_1"], 4)["tiles"]
    assert unit1["8"] == 8 and unit1["87"] == 1 and unit1["32"]["count"] == 1
    all_units = built(["unit_123"], 6)["tiles"]
    assert all_units["8"] == 8 + 4 + 6 and all_units["14"] == 2 + 2 + 3
    assert all_units["51"] == 2
    assert "51" not in built(["unit_2", "k3"], 3)["tiles"] or \
        built(["unit_2", "k3"], 3)["tiles"]["51"] == 3
    r1r3 = built(["unit_1", "r1", "r3"], 3)["tiles"]
    assert r1r3["11"]["count"] == 2 and r1r3["11"]["color"] == "green"


def test_db1_tiles():
    db1 = built(["unit_123", "db1"], 6)["tiles"]
    assert "87" not in db1 and "88" not in db1
    assert db1["887"] == 3 and db1["888"] == 3
    assert db1["14"] == 6 and db1["15"] == 6
    only3 = built(["unit_3", "db1"], 2)["tiles"]
    assert only3["887"] == 1 and only3["14"] == 2
    keys = list(built(["unit_1", "db1"], 4)["tiles"])
    assert keys[-2:] == ["887", "888"]


def test_tile_ids():
    data = built(["unit_1"], 4)
    ids = data["tile_ids"]
    assert ids[:4] == ["1-0", "2-0", "3-0", "4-0"]
    assert "8-7" in ids and "8-8" not in ids
    assert len(ids) == len(set(ids))


def test_upgrade_tables():
    data = built(["unit_1"], 4)
    assert data["extra_upgrades"]["8"] == ["11"]
    assert data["extra_upgrades"]["115"] == "206"  # a string in the reference (substring match)
    assert data["illegal_upgrades"] == {"81": ["40"], "82": ["41"], "83": ["42"]}
    assert data["tile200_hexes"] == ["Q11", "T16", "V14"]
    assert data["company_sale_fee"] == 30
    assert data["train_price_min"] == 10 and data["train_price_multiple"] == 10


@pytest.mark.parametrize("rules, players", COMBOS)
def test_supply_tiles_exist(rules, players):
    supply = built(rules, players)["tiles"]
    inline = {n for n, v in supply.items() if isinstance(v, dict)}
    for name in inline:
        assert supply[name]["color"] in {"yellow", "green", "brown", "gray"}
        assert supply[name]["count"] > 0
        check_parts(supply[name]["parts"])
    for name, value in supply.items():
        if name not in inline:
            assert isinstance(value, int) and value > 0
    if not STANDARD_TILES.exists():
        pytest.skip("trackage/data/tiles.json not written yet: standard tile names unchecked")
    standard = json.loads(STANDARD_TILES.read_text())
    known = {name for tiles in standard.values() for name in tiles}
    missing = [n for n in supply if n not in inline and n not in known]
    assert not missing


def test_every_combination_builds():
    units = ["unit_1", "unit_2", "unit_3", "unit_12", "unit_23", "unit_123"]
    extras = ["r1", "r2", "r3", "k1", "k2", "k3", "k5", "k6", "k7", "d1", "u3p", "db1", "db2",
              "db3", "unit_4", "big_bank", "strict_bank"]
    built_count = 0
    for unit in units:
        for size in range(4):
            for combo in itertools.combinations(extras, size):
                rules = [unit, *combo]
                for players in range(2, 10):
                    try:
                        options = normalize_options(rules, players)
                    except OptionError:
                        continue
                    data = build(options, players)
                    built_count += 1
                    assert data["starting_cash"] and data["cert_limit"]
                    on_map = hex_ids(data["hexes"])
                    assert all(t["num"] >= 0 for t in data["trains"])
                    for c in data["corporations"]:
                        coords = c["coordinates"]
                        for coord in coords if isinstance(coords, list) else [coords]:
                            assert coord in on_map, (rules, c["sym"], coord)
                    break  # one player count per combination keeps this quick
    assert built_count > 300


def test_build_result_is_independent():
    first = built(ALL_OPTIONS, 6)
    first["hexes"]["white"][0]["parts"].append({"t": "label", "label": "X"})
    first["hexes"]["white"][0]["coords"].append("ZZ9")
    first["trains"][0]["distance"] = 99
    first["corporations"][0]["tokens"].append(5)
    first["corporations"][0]["abilities"].append({"type": "x"})
    first["market"][0][0]["types"].append("x")
    first["phases"][0]["tiles"].append("x")
    first["extra_upgrades"]["8"].append("x")
    next(v for v in first["tiles"].values() if isinstance(v, dict))["parts"].clear()
    again = built(ALL_OPTIONS, 6)
    assert json.dumps(again, sort_keys=True) != json.dumps(first, sort_keys=True)
    assert "ZZ9" not in hex_ids(again["hexes"])
    assert again["trains"][0]["distance"] == 2
    assert again["corporations"][0]["tokens"] == [0, 0, 40, 100, 100, 100, 100]
    assert again["market"][0][0]["types"] == ["close"]
    assert again["extra_upgrades"]["8"] == ["11"]
    assert all(v["parts"] for v in again["tiles"].values() if isinstance(v, dict))


# ---------------------------------------------------------------- fixtures


def fixture_actions(name):
    path = FIXTURES / name
    if not path.exists():
        pytest.skip(f"fixture {path} not available")
    data = json.loads(path.read_text())
    actions = []

    def walk(action):
        actions.append(action)
        for sub in action.get("auto_actions") or []:
            walk(sub)

    for action in data["actions"]:
        walk(action)
    return data, actions


@pytest.mark.parametrize("name", ["1825_game_end_bank.json", "141331.json"])
def test_fixture_ids_exist(name):
    game, actions = fixture_actions(name)
    rules = game["settings"]["optional_rules"]
    data = built(rules, len(game["players"]))
    hexes = hex_ids(data["hexes"])
    preprinted = {tile_id: parts for tile_id, parts, _ in hexes.values()}
    tile_ids = set(data["tile_ids"])
    trains = {t["name"]: t["num"] for t in data["trains"]}
    checked = 0
    for action in actions:
        kind = action["type"]
        if kind == "lay_tile":
            assert action["tile"] in tile_ids
            assert action["hex"] in hexes
        elif kind == "place_token":
            tile_id, index = action["city"].rsplit("-", 1)
            if tile_id in preprinted:
                assert preprinted[tile_id][int(index)]["t"] == "city"
            else:
                assert tile_id in tile_ids
        elif kind == "buy_train":
            train, index = action["train"].rsplit("-", 1)
            assert int(index) < trains[train]
        elif kind == "par":
            price, row, column = map(int, action["share_price"].split(","))
            assert data["market"][row][column]["price"] == price
        elif kind == "run_routes":
            for route in action["routes"]:
                for hex_id in route.get("hexes", []):
                    assert hex_id in hexes
        else:
            continue
        checked += 1
    assert checked > 50


def test_fixture_141331_minor_trains_present():
    game, _ = fixture_actions("141331.json")
    data = built(game["settings"]["optional_rules"], len(game["players"]))
    trains = {t["name"]: t["num"] for t in data["trains"]}
    needed: dict[str, int] = {}
    for c in data["corporations"]:
        if c["type"] == "minor":
            needed[c["required_train"]] = needed.get(c["required_train"], 0) + 1
    for name, count in needed.items():
        assert trains[name] >= count


def test_option_player_counts_are_those_of_some_valid_combination():
    # worked out independently: every combination of one unit rule with up to three other
    # rules, for every count; a rule's counts are those of the combinations holding it
    import itertools

    from trackage.titles.t1825.config import UNIT_RULES, all_rules, option_player_counts

    others = [r for r in all_rules() if r not in UNIT_RULES]
    found = {r: set() for r in all_rules()}
    for unit in UNIT_RULES:
        for k in range(4):
            for extra in itertools.combinations(others, k):
                combo = [unit, *extra]
                for n in range(2, 10):
                    try:
                        normalize_options(combo, n)
                    except OptionError:
                        continue
                    for r in combo:
                        found[r].add(n)
    counts = option_player_counts(2, 9)
    assert {r: set(v) for r, v in counts.items()} == found
    # a unit rule alone: its own range (Units 1+2+3 seat 9 with a regional kit)
    assert counts["unit_1"] == (2, 3, 4, 5) and counts["unit_2"] == (2, 3, 4) and counts["unit_3"] == (2,)
    assert counts["unit_12"] == tuple(range(3, 8)) and counts["unit_23"] == (3, 4, 5)
    assert counts["unit_123"] == tuple(range(4, 10))
    for unit in ("unit_1", "unit_2", "unit_3", "unit_12", "unit_23"):
        for n in range(2, 10):
            if n in counts[unit]:
                normalize_options([unit], n)
            else:
                with pytest.raises(OptionError, match="number of players"):
                    normalize_options([unit], n)
