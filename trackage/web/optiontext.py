"""The lobby's words for each title's optional rules: a name and a line of description per
rule (1825's from its own data file, the others' here), and a note on what sets a title's
player range."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from ..titles import game_class

_QUICK_A = ("Quick start, set A",
            "The yellow private companies are dealt to the players in random batches instead of being auctioned.")
_QUICK_B = ("Quick start, set B", "The quick start with other batches of private companies.")

# title -> rule -> (name, description); read-only
_TEXT: MappingProxyType[str, MappingProxyType[str, tuple[str, str]]] = MappingProxyType({
    "1822": MappingProxyType({
        "plus_expansion": (
            "1822+",
            "Six more minors and three more privates, sorted into train, track and other bid boxes."),
        "plus_expansion_no_removals": (
            "No removals",
            "(1822+) All 21 private companies are used instead of removing three."),
        "plus_expansion_single_stack": (
            "Single stack",
            "(1822+) The privates are not sorted and fill the three bid boxes as in base 1822."),
        "tax_haven_multiple": (
            "Tax haven variant",
            "P16 (Tax Haven) may buy one share per stock round with its cash, never two of one company."),
    }),
    "1858": MappingProxyType({"quick_start_a": _QUICK_A, "quick_start_b": _QUICK_B}),
    "1858India": MappingProxyType({"quick_start_a": _QUICK_A, "quick_start_b": _QUICK_B}),
    "1861": MappingProxyType({
        "column_market": ("Column stock market", "1867's one-dimensional market instead of the grid."),
    }),
    "1867": MappingProxyType({
        "grid_market": ("Grid stock market", "1861's two-dimensional market instead of the columns."),
    }),
    "1893": MappingProxyType({
        "optional_2_train": ("Optional 2-train", "An eighth 2-train."),
        "optional_grey_phase": ("Gray phase", "Changed Köln tiles and an extra gray KV259."),
        "optional_existing_track": (
            "Existing track",
            "Solingen (D7) and Grevenbroich (E2) start as yellow cities; new S upgrades."),
    }),
})

# 1825's units, which its data names without a description
_UNITS_1825 = MappingProxyType({
    "unit_1": "The south of England.", "unit_2": "The north of England.", "unit_3": "Scotland.",
    "unit_12": "England: Units 1 and 2 together.", "unit_23": "The north of England and Scotland.",
})

# title -> what sets its player range beyond the title's own (said next to the range)
_PLAYERS_NOTE = MappingProxyType({
    "1825": "The units set the player range; without a unit the usual units for the player count are used.",
    "1858": "The quick starts are for 3-6 players.",
    "1858India": "The quick starts are for 3-6 players.",
})


def _from_data_1825() -> dict[str, tuple[str, str]]:
    from ..titles.t1825 import config

    out = {}
    for rule in config.load("options")["optional_rules"]:
        sym = str(rule["sym"])
        out[sym] = (str(rule.get("short_name") or sym), str(rule.get("desc") or _UNITS_1825.get(sym, "")))
    return out


def option_text(title: str) -> dict[str, dict[str, str]]:
    """Each optional rule of ``title``: ``{"name", "desc"}`` (its symbol and no description
    when nothing names it)."""
    known: dict[str, tuple[str, str]] = _from_data_1825() if title == "1825" else dict(_TEXT.get(title, {}))
    return {rule: {"name": known.get(rule, (rule, ""))[0], "desc": known.get(rule, (rule, ""))[1]}
            for rule in game_class(title).OPTIONAL_RULES}


def players_note(title: str) -> str:
    """What sets ``title``'s player range beyond its own, or ""."""
    return _PLAYERS_NOTE.get(title, "")


def describe_options(title: str) -> dict[str, Any]:
    """The catalogue's words for a title: ``option_text`` and ``players_note``."""
    return {"option_text": option_text(title), "players_note": players_note(title)}
