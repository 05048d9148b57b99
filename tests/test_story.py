"""The game tells its story: events of every kind recorded where the change happens, at the
right action with the right figures; their messages; ``trackage log``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, ref
from helpers import refused

from trackage.core.game import Game
from trackage.core.journal import Event
from trackage.core.log import load_log
from trackage.replay import replay_data
from trackage.story import log_lines, message

BANK_1825 = FIXTURES / "1825" / "1825_game_end_bank.json"
QUICK_1858 = FIXTURES / "1858" / "1858-quick-start-a.json"


def _replayed(path: Path) -> Game:
    if not path.exists():
        pytest.skip(f"NO FIXTURES: {path} is absent")
    game: Game = replay_data(load_log(path)).game
    return game


@pytest.fixture(scope="module")
def game_1825() -> Game:
    return _replayed(BANK_1825)


def _first(game: Game, kind: str, **fields: object) -> Event:
    return next(e for e in game.journal.events()
                if e.kind == kind and all(e.fields.get(k) == v for k, v in fields.items()))


def test_the_stock_round_events_of_a_real_game(game_1825):
    g = game_1825
    p1 = g.players[0] if g.players[0].name == "Player 1" else next(p for p in g.players if p.name == "Player 1")
    assert _first(g, "round").as_dict() == {
        "kind": "round", "action": 0, "name": "Stock Round", "turn": 1, "number": 1, "of": None,
        "operating": False, "stock": True, "label": "SR 1"}
    assert _first(g, "phase").fields == {"name": "1", "train": None}
    par = _first(g, "par", corporation="LNWR")
    assert (par.action, par["price"]) == (3, 100)
    cert = _first(g, "shares", corporation="LNWR")
    assert (cert.action, cert["percent"], cert["seller"], cert["buyer"], cert["price"], cert["president"]) == \
        (3, 20, "LNWR", p1.id, 200, True)
    pres = _first(g, "president", corporation="LNWR")
    assert (pres.action, pres["player"], pres["before"]) == (3, p1.id, None)
    assert _first(g, "float", corporation="LNWR").action == 7
    assert message(g, pres) == "Player 1 becomes the president of LNWR"
    assert message(g, cert) == "Player 1 gets a 20% president’s certificate of LNWR from the IPO for £200"
    assert message(g, _first(g, "float")) == "LNWR floats"


def test_the_operating_events_of_a_real_game(game_1825):
    g = game_1825
    header = _first(g, "round", operating=True)
    assert (header["turn"], header["number"], header["label"]) == (1, 1, "OR 1.1")
    assert message(g, header).startswith("— Operating Round 1.1")
    token = _first(g, "token", corporation="LNWR")
    assert (token.action, token["hex"], token["free"]) == (9, "T16", True)
    tile = _first(g, "tile", entity="LNWR")
    assert (tile.action, tile["hex"], tile["tile"], tile["rotation"], tile["cost"]) == (10, "T14", "8", 2, 0)
    move = _first(g, "share_price", corporation="LNWR")
    assert (move.action, move["from_price"], move["to_price"], move["direction"]) == (12, 100, 90, "left")
    assert message(g, move) == "LNWR's share price moves left from £100 to £90"
    train = _first(g, "train", operator="LNWR")
    assert (train.action, train["name"], train["price"], train["seller"]) == (13, "2", 180, "depot")
    assert message(g, train) == "LNWR buys a 2 train from the depot for £180"


def test_phases_rusting_the_bank_breaking_and_the_end(game_1825):
    g = game_1825
    assert [(e.action, e["name"], e["train"]) for e in g.journal.of_kind("phase")] == \
        [(0, "1", None), (109, "2", "3-0"), (312, "3", "5-0")]
    rusted = g.journal.of_kind("rust")
    assert {e.action for e in rusted} == {312} and len(rusted) == 6
    assert {e["name"] for e in rusted} == {"2"} and all(e["owner"] is not None for e in rusted)
    assert message(g, rusted[0]) == f"{rusted[0]['owner']}'s 2 train rusts"
    broken = g.journal.of_kind("bank_broken")
    assert [e.action for e in broken] == [530]
    assert message(g, broken[0]) == "The bank breaks"
    end = g.journal.of_kind("game_end")
    assert [(e.action, e["reason"]) for e in end] == [(545, "bank")]
    assert message(g, end[0]) == "The game ends: the bank has broken"
    # every round of the game has its header, in order
    labels = [e["label"] for e in g.journal.of_kind("round")]
    assert labels[:3] == ["SR 1", "OR 1.1", "SR 2"] and len(labels) == len(set(labels))


def test_trains_made_obsolete_and_companies_closing():
    g = _replayed(QUICK_1858)
    obsolete = [e for e in g.journal.of_kind("obsolete") if e["owner"] not in (None, "depot")]
    assert obsolete and obsolete[0].action == 459 and obsolete[0]["name"] == "2H"
    assert message(g, obsolete[0]) == f"{obsolete[0]['owner']}'s 2H train becomes obsolete"
    path = FIXTURES / "1867" / "21268.json"
    g = _replayed(path)
    closed = g.journal.of_kind("close")
    assert closed and closed[0].action == 439 and message(g, closed[0]) == f"{closed[0]['corporation']} closes"


def test_every_event_is_told_in_our_words_with_names(game_1825):
    g = game_1825
    lines = log_lines(g)
    assert all(isinstance(text, str) and text for _, _, text in lines)
    kinds = {e.kind for e in g.journal.events()}
    assert {"round", "phase", "par", "shares", "president", "float", "token", "tile", "share_price",
            "train", "rust", "bank_broken", "game_end"} <= kinds
    assert not any(str(p.id) in text for p in g.players for _, _, text in lines)  # names, never ids


def test_a_live_action_records_at_its_id_and_a_refused_one_records_nothing(operating_game):
    g = operating_game
    lnwr = g.corporation_by_id("LNWR")
    lays = [a for a in g.legal_actions(lnwr) if a["type"] == "lay_tile"]
    lay = lays[0]
    # (a refusal or an undo may replay from a snapshot: the same events, made again)
    told = [e.as_dict() for e in g.journal.events(0)]
    refused(g, {**lay, "rotation": (lay["rotation"] + 3) % 6, "hex": "A1"})
    assert [e.as_dict() for e in g.journal.events(0)] == told
    n = len(g.journal)
    g.process(lay)
    new = g.journal.events(n)
    tiles = [e for e in new if e.kind == "tile"]
    assert len(tiles) == 1 and tiles[0].action == len(g.actions)
    assert (tiles[0]["hex"], tiles[0]["entity"]) == (lay["hex"], "LNWR")
    g.undo()
    assert [e.as_dict() for e in g.journal.events(0)] == told


def test_a_stock_round_action_records_par_certificate_and_president(unit1_game):
    g = unit1_game
    n = len(g.journal)
    g.process({"type": "par", **ref(g), "corporation": "LNWR", "share_price": "100,0,15"})
    kinds = [e.kind for e in g.journal.events(n)]
    assert kinds[:1] == ["par"] and "shares" in kinds and "president" in kinds
    assert {e.action for e in g.journal.events(n)} == {len(g.actions)}


def test_the_log_command_prints_round_headers_and_names():
    if not BANK_1825.exists():
        pytest.skip(f"NO FIXTURES: {BANK_1825} is absent")
    r = subprocess.run([sys.executable, "-m", "trackage", "log", str(BANK_1825), "--at", "40"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "— Stock Round 1 —" in r.stdout and "— Operating Round 1.1" in r.stdout
    assert "Player 1 becomes the president of LNWR" in r.stdout
    assert "The game ends" not in r.stdout  # stopped at action 40
    r = subprocess.run([sys.executable, "-m", "trackage", "log", str(BANK_1825), "--json", "--at", "13"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    events = json.loads(r.stdout)
    assert max(e["action"] for e in events) == 13
    train = next(e for e in events if e["kind"] == "train")
    assert train["message"] == "LNWR buys a 2 train from the depot for £180" and train["price"] == 180


def test_runs_and_dividends_at_the_reference_log_s_actions(game_1825):
    """The reference's log of 1825_game_end_bank: at action 46 the LNWR runs two 2-trains
    for £50 (T16-S13) and £60 (T16-V20); at action 47 it pays out £110, £11 per share."""
    g = game_1825
    runs = [e for e in g.journal.events() if e.kind == "run" and e.action == 46]
    assert [(e["corporation"], e["name"], e["revenue"]) for e in runs] == [("LNWR", "2", 50), ("LNWR", "2", 60)]
    assert [message(g, e) for e in runs] == ["LNWR runs a 2 train for £50: T16-S13",
                                              "LNWR runs a 2 train for £60: T16-V20"]
    paid = _first(g, "dividend", corporation="LNWR", choice="payout")
    assert (paid.action, paid["revenue"], paid["paid"], paid["per_share"]) == (47, 110, 110, 11)
    assert message(g, paid) == "LNWR pays out £110 (£11 per share)"
    dividends = {(e["receiver"], e["amount"]) for e in g.journal.events() if e.kind == "money"
                 and e.action == 47 and e["why"] == "dividend"}
    assert sum(a for _, a in dividends) == 110
