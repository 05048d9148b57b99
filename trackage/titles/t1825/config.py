"""1825 option handling and game-data selection.

1825 is played with any legal mix of Units 1-3 (maps of the south, the north of England and
Scotland), regional kits R1-R3, extension kits K1-K7, the D1 tile kit and the DB1-DB3 variants.
Every one of them contributes hexes, tiles, companies, corporations or trains. This module turns
an optional-rule list into an :class:`Options` record (with the reference's normalisation and
validity errors) and then selects the matching data from ``data/*.json``.

Only data selection happens here; the rules that use the data live elsewhere.
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).parent / "data"

UNIT_RULES = ("unit_1", "unit_2", "unit_3", "unit_12", "unit_23", "unit_123")
KIT_NUMBERS = (1, 2, 3, 5, 6, 7)
REGIONAL_NUMBERS = (1, 2, 3)
REGIONAL_RULES = tuple(f"r{r}" for r in REGIONAL_NUMBERS)
UNITS_OF_RULE = {
    "unit_1": (1,),
    "unit_2": (2,),
    "unit_3": (3,),
    "unit_12": (1, 2),
    "unit_23": (2, 3),
    "unit_123": (1, 2, 3),
}
TITLE = "1825"


class OptionError(ValueError):
    """An optional-rule combination (or player count) the game does not allow. The message
    is the reference's; a player-count refusal also says which rules set the range
    (``rules``) and the range (``players``, low and high)."""

    def __init__(self, message: str, rules: tuple[str, ...] = (), players: tuple[int, int] | None = None):
        super().__init__(message)
        self.rules = rules
        self.players = players


@cache
def load(name: str) -> dict[str, Any]:
    """One of the title's data files, parsed (shared; callers must not mutate it)."""
    with open(DATA_DIR / f"{name}.json", encoding="utf-8") as f:
        return json.load(f)


@dataclass(frozen=True)
class Options:
    """Normalised 1825 options.

    ``rules`` is the rule list exactly as the reference keeps it after normalisation (defaults
    added, unit pairs merged into ``unit_12``/``unit_23``/``unit_123``, order preserved).
    """

    units: frozenset[int]
    kits: frozenset[int]
    regionals: frozenset[int]
    rules: tuple[str, ...]
    unit_4: bool = False
    d1: bool = False
    u3p: bool = False
    big_bank: bool = False
    strict_bank: bool = False
    db1: bool = False
    db2: bool = False
    db3: bool = False

    @property
    def unit_key(self) -> str:
        """Units as the reference spells them in its tables: '1', '2', '3', '12', '23', '123'."""
        return "".join(str(u) for u in sorted(self.units))

    def has(self, rule: str) -> bool:
        return rule in self.rules

    def kit(self, number: int) -> bool:
        return number in self.kits

    def regional(self, number: int) -> bool:
        return number in self.regionals


def _units_of(rules: Iterable[str]) -> set[int]:
    units: set[int] = set()
    for rule in rules:
        units.update(UNITS_OF_RULE.get(rule, ()))
    return units


def _merge_units(rules: list[str]) -> list[str]:
    def without(*names: str) -> list[str]:
        return [r for r in rules if r not in names]

    if "unit_1" in rules and "unit_2" in rules and "unit_3" in rules:
        return without("unit_1", "unit_2", "unit_3") + ["unit_123"]
    if "unit_1" in rules and "unit_2" in rules:
        return without("unit_1", "unit_2") + ["unit_12"]
    if "unit_2" in rules and "unit_3" in rules:
        return without("unit_2", "unit_3") + ["unit_23"]
    return rules


def _default_rules(num_players: int) -> list[str]:
    defaults = load("options")["defaults_by_players"]
    return list(defaults.get(str(num_players), defaults["other"]))


def _player_range(units: set[int], regionals: set[int]) -> tuple[int, int]:
    ranges = load("options")["player_range_by_units"]
    key = "".join(str(u) for u in sorted(units))
    if key not in ("1", "2", "3", "12", "23"):
        key = "123_regionals" if regionals else "123"
    return ranges[key][0], ranges[key][-1]


def _min_players(units: set[int]) -> int:
    table = load("options")["min_players_by_units"]
    key = "".join(str(u) for u in sorted(units))
    return table.get(key, table["other"])


def normalize_options(optional_rules: list[str], num_players: int) -> Options:
    """Normalise and validate an optional-rule list like the reference does at game start.

    Raises :class:`OptionError` for every combination the reference rejects, with the
    reference's message. Unknown rule names are kept, as the reference keeps them.

    Unlike most titles, 1825 replaces the generic step that drops rules whose ``players``
    list excludes the player count: such a rule stays, and the player-count check rejects
    the game instead (e.g. ``unit_2`` with 5 players).
    """
    given = [str(r) for r in (optional_rules or [])]
    rules = given or _default_rules(num_players)
    named = list(rules)  # as given (or the defaults), before unit rules merge
    rules = _merge_units(rules)

    units = _units_of(rules)
    kits = {k for k in KIT_NUMBERS if f"k{k}" in rules}
    regionals = {r for r in REGIONAL_NUMBERS if f"r{r}" in rules}

    def fail_if(condition: bool, message: str) -> None:
        if condition:
            raise OptionError(message)

    fail_if(not units, "Must select at least one Unit if using other options")
    fail_if(1 in units and 2 not in units and 3 in units,
            "Cannot combine Units 1 and 3 without Unit 2")
    fail_if(bool(regionals) and 1 not in units, "Cannot add Regionals without Unit 1")
    fail_if(5 in kits and 2 not in units, "Cannot add K5 without Unit 2")
    fail_if(7 in kits and 1 not in units, "Cannot add K7 without Unit 1")
    fail_if(2 in kits and units == {3}, "K2 not supported with just Unit 3")
    fail_if(2 in kits and 3 not in kits, "K2 not supported without K3")
    fail_if(3 not in units and "u3p" in rules, "Cannot use extra Unit 3 trains without Unit 3")
    fail_if(bool(kits & {1, 6}) and "d1" in rules, "Cannot use K1 or K6 with D1")
    fail_if(1 not in units and 3 not in units and "db1" in rules,
            "Variant DB1 not useful in a Unit 2 only game")
    fail_if(1 not in units and "db2" in rules, "Variant DB2 is for Unit 1")
    fail_if(3 not in units and "db3" in rules, "Variant DB3 is for Unit 3")
    fail_if("unit_4" in rules and 3 not in units, "Unit 4 requires Unit 3")

    low, high = _player_range(units, regionals)
    if num_players > 0 and not low <= num_players <= high:
        # the rules that set the range: the units, and the regionals when they widen it
        deciding = tuple(r for r in named if r in UNITS_OF_RULE
                         or (r in REGIONAL_RULES and len(units) == 3))
        raise OptionError("Invalid option(s) for number of players", deciding, (low, high))

    # The generic player-range check that follows (a GameError in the reference).
    max_players = load("options")["player_range"][1]
    if not _min_players(units) <= num_players <= max_players:
        plural = "" if num_players == 1 else "s"
        raise OptionError(
            f"{TITLE} ({','.join(rules)}) does not support {num_players} player{plural}")

    # The title's option check after setup adds the one test init_optional_rules lacks.
    fail_if("big_bank" in rules and "strict_bank" in rules, "Cannot use both bank options")

    return Options(
        units=frozenset(units),
        kits=frozenset(kits),
        regionals=frozenset(regionals),
        rules=tuple(rules),
        unit_4="unit_4" in rules,
        d1="d1" in rules,
        u3p="u3p" in rules,
        big_bank="big_bank" in rules,
        strict_bank="strict_bank" in rules,
        db1="db1" in rules,
        db2="db2" in rules,
        db3="db3" in rules,
    )


def player_count_refusal(error: OptionError, num_players: int, defaults: bool = False) -> str:
    """A player-count refusal said in full: which rules allow which counts, e.g. "1825 with
    unit_3 is for 2 players, not 3"."""
    assert error.players is not None  # only a player-count refusal is said this way
    low, high = error.players
    counts = f"{low} players" if low == high else f"{low} to {high} players"
    rules = ", ".join(error.rules)
    what = f"the default options for {num_players} players ({rules})" if defaults else rules
    text = f"{TITLE} with {what} is for {counts}, not {num_players}"
    units = _units_of(error.rules)
    if len(units) == 3 and not any(r in REGIONAL_RULES for r in error.rules):
        wide = _player_range(units, {1})
        if wide[0] <= num_players <= wide[1]:
            text += f" ({wide[0]} to {wide[1]} with a regional kit: {', '.join(REGIONAL_RULES)})"
    return text


def all_rules() -> tuple[str, ...]:
    """Every optional rule of the title, in the order the lobby offers them."""
    return UNIT_RULES + ("unit_4", "u3p", "d1", "big_bank", "strict_bank") \
        + tuple(f"k{k}" for k in KIT_NUMBERS) + REGIONAL_RULES + ("db1", "db2", "db3")


# the rules that widen a player range or meet another rule's requirement: a regional kit
# (Units 1+2+3 with regionals seat 9) and K3 (K2 needs it); every other rule only narrows
# what a combination allows, so a combination it makes valid needs no other rule but these
_HELPERS = (("r1",), ("k3",), ("r1", "k3"))


@cache
def option_player_counts(low: int, high: int) -> dict[str, tuple[int, ...]]:
    """For each optional rule, the player counts from ``low`` to ``high`` it can be played
    with: the counts of some valid combination of it with exactly one unit rule (a unit
    rule alone, so ``unit_3`` is for 2 players only; Units 1 and 2 together are
    ``unit_12``'s) and any other rules."""
    units = UNIT_RULES
    out = {}
    for rule in all_rules():
        bases = [(rule,)] if rule in units else [(u, rule) for u in units]
        combos = [b + h for b in bases for h in ((),) + _HELPERS if rule not in h]
        counts = []
        for n in range(low, high + 1):
            for combo in combos:
                try:
                    normalize_options(list(combo), n)
                except OptionError:
                    continue
                counts.append(n)
                break
        out[rule] = tuple(counts)
    return out


# ---------------------------------------------------------------- market, phases, trains


def market(options: Options) -> list[list[dict[str, Any] | None]]:
    markets = load("game")["markets"]
    return copy.deepcopy(markets["large"] if 2 in options.units else markets["small"])


def _phase_names(options: Options) -> list[str]:
    return [p["name"] for p in phases(options)]


def phases(options: Options) -> list[dict[str, Any]]:
    table = load("game")["phases"]
    result = list(table["common"])
    if 2 in options.units and not options.kit(3):
        result += table["unit2_no_k3"]
    if options.kit(3):
        result += table["k3"]
    return copy.deepcopy(result)


def trains(options: Options) -> list[dict[str, Any]]:
    """The train list in the reference's order (every type, counts may be 0)."""
    game = load("game")
    specs = game["trains"]["k3" if options.kit(3) else "normal"]
    by_name: dict[str, dict[str, Any]] = {}
    for name in game["train_order"]:
        by_name[name] = {"name": name, "num": 0, **copy.deepcopy(specs[name])}

    def add(counts: dict[str, int]) -> None:
        for name, n in counts.items():
            by_name[name]["num"] += n

    key = options.unit_key
    if key == "2" and options.kit(3):
        key = "2_k3"
    elif key not in game["train_counts"]:
        key = "123"
    add(game["train_counts"][key])

    for option, counts in game["train_additions"]:
        if _option_on(options, option):
            add(counts)

    if options.kit(2) and options.unit_key in game["k2_trains"]:
        extra, with_k3 = game["k2_trains"][options.unit_key]
        add(extra)
        if options.kit(3):
            add(with_k3)

    known = set(_phase_names(options))
    result = []
    for train in by_name.values():
        if train.get("available_on") is not None and train["available_on"] not in known:
            del train["available_on"]
        result.append({
            "name": train["name"],
            "num": train["num"],
            "distance": train["distance"],
            "price": train["price"],
            "rusts_on": train.get("rusts_on"),
            "obsolete_on": train.get("obsolete_on"),
            "available_on": train.get("available_on"),
            "multiplier": train.get("multiplier"),
        })
    return result


def _option_on(options: Options, option: str) -> bool:
    if option[0] == "k" and option[1:].isdigit():
        return options.kit(int(option[1:]))
    if option[0] == "r" and option[1:].isdigit():
        return options.regional(int(option[1:]))
    return options.has(option)


# ---------------------------------------------------------------- map


HexGroups = dict[str, list[dict[str, Any]]]


def append_hexes(merged: HexGroups, new: HexGroups) -> None:
    """Add a hex set to ``merged`` the way the reference combines map fragments.

    A coordinate defined by an earlier set is skipped (whatever its colour). Remaining
    coordinates whose definition equals an existing group of the same colour join that group:
    the group is moved to the end of its colour with the new coordinates appended, which
    changes the preprinted tile ids (``<coord>-<index in group>``).
    """
    existing = {c for groups in merged.values() for g in groups for c in g["coords"]}
    for color, groups in new.items():
        for group in groups:
            coords = [c for c in group["coords"] if c not in existing]
            if not coords:
                continue
            parts_key = group.get("parts"), group.get("tile")
            target = merged.setdefault(color, [])
            same = next((g for g in target if (g.get("parts"), g.get("tile")) == parts_key), None)
            if same is not None:
                target.remove(same)
                target.append({**same, "coords": same["coords"] + coords})
            else:
                target.append({**copy.deepcopy(group), "coords": coords})


HEX_SET_ORDER = (
    ("DB2", lambda o: o.db2),
    ("DB3", lambda o: o.db3),
    ("UNIT4", lambda o: o.unit_4),
    ("R1", lambda o: o.regional(1)),
    ("R2", lambda o: o.regional(2)),
    ("R3", lambda o: o.regional(3)),
    ("UNIT1", lambda o: 1 in o.units),
    ("UNIT2", lambda o: 2 in o.units),
    ("UNIT3", lambda o: 3 in o.units),
    ("R1_OFFMAP", lambda o: o.regional(1)),
    ("UNIT1_OFFMAP", lambda o: 1 in o.units),
    ("UNIT2_OFFMAP", lambda o: 2 in o.units),
    ("UNIT3_OFFMAP", lambda o: 3 in o.units),
)


def hexes(options: Options) -> HexGroups:
    sets = load("map")["hex_sets"]
    merged: HexGroups = {}
    for name, wanted in HEX_SET_ORDER:
        if wanted(options):
            append_hexes(merged, sets[name])
    return merged


def location_names(options: Options) -> dict[str, str]:
    names = dict(load("map")["location_names"])
    if options.unit_4:
        names["A5"] = "Inverness"
        names["C3"] = "Fort William"
        names.pop("B8", None)
    names["G7"] = "Falkirk & Airdrie" if options.db3 else "Coatbridge & Airdrie"
    return names


# ---------------------------------------------------------------- tiles


TileSupply = dict[str, Any]


def append_tiles(supply: TileSupply, new: dict[str, Any]) -> None:
    """Add a tile set to ``supply``: counts add up; a count reaching 0 removes the tile."""
    for name, value in new.items():
        old = supply.get(name)
        if old is not None and isinstance(value, dict):
            if not isinstance(old, dict):
                raise ValueError(f"conflicting tile definitions for tile {name}")
            old["count"] += value["count"]
        elif old is not None:
            if isinstance(old, dict):
                raise ValueError(f"conflicting tile definitions for tile {name}")
            supply[name] = old + value
        else:
            supply[name] = copy.deepcopy(value)
        current = supply[name]
        count = current["count"] if isinstance(current, dict) else current
        if count < 0:
            raise ValueError(f"negative number of tile {name}")
        if count == 0:
            del supply[name]


def tiles(options: Options) -> TileSupply:
    data = load("tile_sets")
    sets = data["sets"]
    supply: TileSupply = {}
    if 1 in options.units:
        append_tiles(supply, sets["UNIT1"])
    if 2 in options.units:
        append_tiles(supply, sets["UNIT2"])
        if not options.kit(3):
            append_tiles(supply, sets["UNIT2_GRAY"])
    if 3 in options.units:
        append_tiles(supply, sets["UNIT3"])
    for number in REGIONAL_NUMBERS:
        if options.regional(number):
            append_tiles(supply, sets[f"R{number}"])
    for number in (1, 3, 5, 6):
        if options.kit(number):
            append_tiles(supply, sets[f"K{number}"])
    if options.d1:
        append_tiles(supply, sets["D1"])
    if options.db1:
        db1 = data["db1"]
        for name in db1["remove"]:
            supply.pop(name, None)
        count = sum(n for unit, n in db1["per_unit"].items() if int(unit) in options.units)
        for name in db1["add"]:
            supply[name] = count
        if 3 in options.units:
            append_tiles(supply, sets["DB1_UNIT3_ANTITILES"])
    if options.db3:
        append_tiles(supply, sets["DB3"])
    return supply


def tile_ids(supply: TileSupply) -> list[str]:
    """Ids of the supply's tiles, ``<name>-<copy index>``, in supply order."""
    ids: list[str] = []
    for name, value in supply.items():
        count = value["count"] if isinstance(value, dict) else value
        count = 1 if count == "unlimited" else count
        ids.extend(f"{name}-{i}" for i in range(count))
    return ids


# ---------------------------------------------------------------- companies, corporations


def companies(options: Options) -> list[dict[str, Any]]:
    """Private companies; a later unit adds only those whose face value is still missing."""
    sets = load("entities")["company_sets"]
    result: list[dict[str, Any]] = []
    for unit in (1, 3, 2):
        if unit not in options.units:
            continue
        values = {c["value"] for c in result}
        result += [copy.deepcopy(c) for c in sets[f"UNIT{unit}"] if c["value"] not in values]
    return result


def par_by_corporation(options: Options) -> dict[str, int]:
    pars = dict(load("entities")["par_by_corporation"])
    if options.db2:
        pars["SECR"] = 67
    return pars


def _blocks(*hexes_: str) -> dict[str, Any]:
    return {"type": "blocks_hexes", "owner_type": None, "hexes": list(hexes_)}


def _raw_corporations(options: Options) -> list[dict[str, Any]]:
    sets = copy.deepcopy(load("entities")["corporation_sets"])
    corps: list[dict[str, Any]] = []

    def find(sym: str) -> dict[str, Any]:
        return next(c for c in corps if c["sym"] == sym)

    if 1 in options.units:
        corps += sets["UNIT1"]
    if 2 in options.units and 1 not in options.units:
        corps += sets["UNIT2"]
    elif 2 in options.units:
        corps += [c for c in sets["UNIT2"] if c["sym"] != "LNWR"]
        lnwr = find("LNWR")
        lnwr["tokens"] = [0, 0, 40, 100, 100, 100, 100]
        lnwr["coordinates"] = ["T16", "Q11"]
        find("MR").setdefault("abilities", []).append(_blocks("R14"))
    if 3 in options.units:
        corps += sets["UNIT3"]
    if options.regional(1):
        corps += sets["R1"]
    if options.regional(2):
        corps += sets["R2"]
        gwr = find("GWR")
        gwr["tokens"] = [0, 0, 40, 100, 100, 100, 100]
        gwr["coordinates"] = ["V14", "Y7"]
    if options.db2:
        find("SECR").setdefault("abilities", []).append(_blocks("W21"))
        find("LBSC")["abilities"] = []
    if options.unit_4:
        find("HR")["coordinates"] = "A5"
    if options.regional(3):
        corps += sets["R3"]
    if options.kit(5):
        corps += sets["K5"]
    if options.kit(7):
        corps += sets["K7"]
    return corps


DEFAULT_SHARES = [20] + [10] * 8


def corporations(options: Options) -> list[dict[str, Any]]:
    """Majors and minors in the reference's order, with the defaults of the core filled in.

    ``type`` is ``major`` when the president's share is 20%. ``reservations`` lists the home
    reservations the map gets: one ``{"hex", "city"}`` per home coordinate (``city`` may be
    ``None``: the reference then reserves the only city of a one-city tile, or the hex).
    """
    pars = par_by_corporation(options)
    required = load("entities")["required_train"]
    result = []
    for raw in _raw_corporations(options):
        shares = raw.get("shares", DEFAULT_SHARES)
        major = shares[0] == 20
        coords = raw["coordinates"]
        city = raw.get("city")
        coord_list = coords if isinstance(coords, list) else [coords]
        reservations = [
            {"hex": c, "city": city[i] if isinstance(city, list) else city}
            for i, c in enumerate(coord_list)
        ]
        corp = {
            "sym": raw["sym"],
            "name": raw["name"],
            "type": "major" if major else "minor",
            "tokens": raw["tokens"],
            "coordinates": coords,
            "city": city,
            "shares": list(shares),
            "float_percent": raw.get("float_percent", 60),
            "max_ownership_percent": raw.get("max_ownership_percent", 60),
            "price_percent": raw.get("price_percent", shares[1] if shares[1:] else shares[0] // 2),
            "capitalization": raw.get("capitalization", load("game")["capitalization"]),
            "par": pars.get(raw["sym"]) if major else None,
            "required_train": None if major else required.get(raw["sym"]),
            "abilities": raw.get("abilities", []),
            "reservations": reservations,
            "logo": raw.get("logo"),
            "simple_logo": raw.get("simple_logo"),
            "color": raw.get("color"),
            "text_color": raw.get("text_color", "#ffffff"),
        }
        result.append(corp)
    return result


# ---------------------------------------------------------------- money and certificates


def num_minors(options: Options) -> int:
    """The reference's minor count for bank and certificate limits (R2 counts twice, R3 not)."""
    return sum(n for option, n in load("game")["minors_by_option"] if _option_on(options, option))


def bank_cash(options: Options) -> int:
    """The bank size the game compares player cash with (``calculate_bank_cash``)."""
    game = load("game")
    by_unit = game["bank_by_unit"]
    units = sorted(options.units)
    cash = sum(by_unit[str(u)] for u in units) if options.big_bank else by_unit[str(units[0])]
    if not options.strict_bank:
        for kit, amount in game["bank_per_kit"].items():
            if _option_on(options, kit):
                cash += amount
        cash += game["bank_per_minor"] * num_minors(options)
    return cash


def _unit_table(table: dict[str, dict[str, int]], options: Options) -> dict[int, int]:
    row = table.get(options.unit_key, table["123"])
    return {int(k): v for k, v in row.items()}


def starting_cash_table(options: Options) -> dict[int, int]:
    return _unit_table(load("game")["starting_cash"], options)


def cert_limit_table(options: Options) -> dict[int, int]:
    game = load("game")
    certs = _unit_table(game["cert_limit"], options)
    adjust = game["cert_adjust_by_minors"].get(str(num_minors(options)), {})
    for players, extra in adjust.items():
        certs[int(players)] = certs.get(int(players), 0) + extra
    return certs


# ---------------------------------------------------------------- everything


def build(options: Options, num_players: int) -> dict[str, Any]:
    """All data of a 1825 game with these options, as plain JSON-like values.

    The result shares nothing with the loaded data files, so callers may modify it: a fresh
    copy each time, unpickled from the data worked out once per process for these options.
    """
    got: dict[str, Any] = pickle.loads(_built_all(options, num_players))
    return got


def game_data(options: Options, num_players: int) -> dict[str, Any]:
    """:func:`build`'s data for a game: a fresh copy each time but for the catalogue
    (:data:`CATALOGUE`: the map and the tile supply the board's shared map and supply are
    built of), which the games of these options share and never change (a game's ``data`` is
    never changed); in :func:`_build`'s order."""
    own = pickle.loads(_built(options, num_players))
    shared = _shared(options, num_players)
    got: dict[str, Any] = {k: shared[k] if k in CATALOGUE else own[k] for k in shared}
    return got


@cache
def _built_all(options: Options, num_players: int) -> bytes:
    """:func:`_build`'s data for these options, pickled (``options`` is frozen)."""
    return pickle.dumps(_shared(options, num_players), protocol=pickle.HIGHEST_PROTOCOL)


# the data that is catalogue: read only by the board's (shared) map and tile supply
CATALOGUE = frozenset({"layout", "axes", "hexes", "location_names", "tiles"})


@cache
def _shared(options: Options, num_players: int) -> dict[str, Any]:
    """:func:`_build`'s data for these options, once per process (``options`` is frozen): its
    catalogue parts are handed to every game as they are, never changed."""
    return _build(options, num_players)


@cache
def _built(options: Options, num_players: int) -> bytes:
    """:func:`_build`'s data but its catalogue, pickled (``options`` is frozen)."""
    data = _shared(options, num_players)
    return pickle.dumps({k: v for k, v in data.items() if k not in CATALOGUE}, protocol=pickle.HIGHEST_PROTOCOL)


def _build(options: Options, num_players: int) -> dict[str, Any]:
    """:func:`build`'s data, worked out (a pure function of the options and the files)."""
    game = load("game")
    map_data = load("map")
    tile_data = load("tile_sets")
    entities = load("entities")
    supply = tiles(options)
    constants = {key: copy.deepcopy(game[key]) for key in (
        "company_sale_fee", "train_price_min", "train_price_multiple", "tile_lays",
        "game_end_check", "capitalization", "currency_format", "must_sell_in_blocks",
        "sell_movement", "sell_buy_order", "sold_out_increase", "president_sales_to_market",
        "market_share_limit", "home_token_timing", "track_restriction")}
    return {
        "title": TITLE,
        "rules": list(options.rules),
        "units": sorted(options.units),
        "kits": sorted(options.kits),
        "regionals": sorted(options.regionals),
        "num_players": num_players,
        "layout": map_data["layout"],
        "axes": dict(map_data["axes"]),
        "market": market(options),
        "phases": phases(options),
        "trains": trains(options),
        "dummy_trains": copy.deepcopy(game["dummy_trains"]),
        "hexes": hexes(options),
        "location_names": location_names(options),
        "tiles": supply,
        "tile_ids": tile_ids(supply),
        "companies": companies(options),
        "corporations": corporations(options),
        "par_by_corporation": par_by_corporation(options),
        "required_train": dict(entities["required_train"]),
        "num_minors": num_minors(options),
        "bank_cash": bank_cash(options),
        "bank_cash_initial": game["bank_cash_initial"],
        "starting_cash": starting_cash_table(options).get(num_players),
        "cert_limit": cert_limit_table(options).get(num_players),
        "starting_cash_by_players": starting_cash_table(options),
        "cert_limit_by_players": cert_limit_table(options),
        "extra_upgrades": copy.deepcopy(tile_data["extra_upgrades"]),
        "illegal_upgrades": copy.deepcopy(tile_data["illegal_upgrades"]),
        "tile_200": tile_data["tile_200"],
        "tile200_hexes": list(map_data["tile200_hexes"]),
        "impassable_hex_colors": list(map_data["impassable_hex_colors"]),
        **constants,
    }
