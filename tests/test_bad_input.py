"""Bad input gets a clear error naming the action and the rule, and changes nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import partial

import pytest
from conftest import FIXTURES, ref
from helpers import players, refused

from trackage.core.errors import ActionFormatError, GameError, LogFormatError, OutOfTurnError
from trackage.core.log import load_log
from trackage.titles import new_game

PLAYERS = players(4)
# every refusal here must also carry the action and name its id or type
rejected = partial(refused, names_action=True)


@pytest.fixture
def game():
    return new_game("1825", PLAYERS, ["unit_1"], seed=3)


def test_malformed_json_log(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text('{"title": "1825", "players": [')
    with pytest.raises(LogFormatError, match="not valid JSON"):
        load_log(p)
    r = subprocess.run([sys.executable, "-m", "trackage", "replay", str(p)], capture_output=True, text=True)
    assert r.returncode == 2 and "not valid JSON" in r.stderr


def test_log_missing_fields(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text(json.dumps({"title": "1825", "players": []}))
    with pytest.raises(LogFormatError, match="missing field 'actions'"):
        load_log(p)


def test_unknown_title():
    with pytest.raises(GameError, match="unsupported title"):
        new_game("1830x", PLAYERS)


def test_bad_option_combination():
    with pytest.raises(GameError, match="Unit") as e:
        new_game("1825", PLAYERS, ["unit_1", "unit_3"])
    assert e.value.rule == "bad-options"


@pytest.mark.parametrize("title,n,options,rule,words", [
    ("1825", 2, ["bogus"], "unknown-option", "allowed: big_bank"),
    ("1867", 3, ["bogus"], "unknown-option", "allowed: grid_market"),
    ("1861", 3, ["grid_market"], "unknown-option", "allowed: column_market"),
    ("1893", 3, ["bogus"], "unknown-option", "optional_2_train"),
    ("1858India", 4, ["bogus"], "unknown-option", "quick_start_a"),
    ("1822", 3, ["bogus"], "unknown-option", "plus_expansion"),
    ("1893", 5, [], "bad-player-count", "2 to 4 players"),
    ("1858India", 2, [], "bad-player-count", "3 to 6 players"),
    ("1822", 8, [], "bad-player-count", "2 to 7 players"),
    ("1867", 1, [], "bad-player-count", "2 to 6 players"),
    ("1825", 10, [], "bad-player-count", "2 to 9 players"),
    ("1858", 4, ["quick_start_a", "quick_start_b"], "exclusive-options", "exclude each other"),
    ("1825", 4, ["unit_1", "big_bank", "strict_bank"], "exclusive-options", "exclude each other"),
    ("1825", 6, ["unit_1"], "bad-options", "1825"),
])
def test_new_game_refuses_what_the_site_would_not_create(title, n, options, rule, words):
    players = [{"id": i + 1, "name": f"p{i + 1}"} for i in range(n)]
    with pytest.raises(GameError, match=words) as e:
        new_game(title, players, options)
    assert e.value.rule == rule


@pytest.mark.parametrize("n,options,message", [
    (3, ["unit_3"], "1825 with unit_3 is for 2 players, not 3"),
    (5, ["unit_2", "k3"], "1825 with unit_2 is for 2 to 4 players, not 5"),
    (2, ["unit_1", "unit_2"], "1825 with unit_1, unit_2 is for 3 to 7 players, not 2"),
    (6, ["unit_23"], "1825 with unit_23 is for 3 to 5 players, not 6"),
    (9, ["unit_123"], "1825 with unit_123 is for 4 to 8 players, not 9 (4 to 9 with a regional kit: r1, r2, r3)"),
    (3, ["unit_1", "unit_2", "unit_3", "r2"], "1825 with unit_1, unit_2, unit_3, r2 is for 4 to 9 players, not 3"),
])
def test_1825_player_count_refusals_name_the_options_and_counts(n, options, message):
    players = [{"id": i + 1, "name": f"p{i + 1}"} for i in range(n)]
    with pytest.raises(GameError) as e:
        new_game("1825", players, options)
    assert e.value.rule == "bad-options" and e.value.message == message


def test_option_player_counts_agree_with_validate_setup():
    # every title: a rule is refused for a count it does not list; a listed count is played
    # with it, alone or (1825) with one unit rule and the rules it needs
    from trackage.titles import TITLES, game_class

    for title in TITLES:
        cls = game_class(title)
        lo, hi = cls.PLAYER_RANGE
        counts = cls.option_player_counts()
        assert set(counts) == set(cls.OPTIONAL_RULES), title
        for opt, allowed in counts.items():
            assert allowed and set(allowed) <= set(range(lo, hi + 1)), (title, opt)
            for n in range(lo, hi + 1):
                if n not in allowed:
                    with pytest.raises(GameError):
                        cls.validate_setup(n, [opt])
                elif title != "1825":  # 1825's rules: tests/test_1825_config.py
                    cls.validate_setup(n, [opt])
    assert game_class("1825").option_player_counts()["unit_3"] == [2]


def test_cli_new_refuses_an_unknown_option(tmp_path):
    from click.testing import CliRunner

    from trackage.cli import main

    r = CliRunner().invoke(main, ["new", "1867", "--players", "3", "-o", "bogus", "--out", str(tmp_path / "g.json")])
    assert r.exit_code == 2 and "no optional rule 'bogus'" in r.output
    assert not (tmp_path / "g.json").exists()


def test_unknown_action_type(game):
    rejected(game, {"type": "teleport_everything", **ref(game), "id": 7})


def test_action_without_type(game):
    with pytest.raises(ActionFormatError):
        game.process({"entity": 1, "entity_type": "player"})


def test_unknown_entity(game):
    rejected(game, {"type": "pass", "entity": 999, "entity_type": "player", "id": 3},
             rule="malformed-action", error=ActionFormatError)
    rejected(game, {"type": "pass", "entity": "XYZ", "entity_type": "corporation"}, error=ActionFormatError)


def test_out_of_turn(game):
    other = next(p for p in game.players if p is not game.current_entity())
    rejected(game, {"type": "pass", **game.index.ref(other), "id": 1}, rule="out-of-turn", error=OutOfTurnError)


def test_corporation_not_yet_available(game):
    # par bands: the GWR opens only when the LNWR is sold out
    rejected(game, {"type": "par", **ref(game), "corporation": "GWR", "share_price": "90,0,14"},
             rule="cannot-par")


def test_buying_anothers_certificate(game):
    game.process({"type": "par", **ref(game), "corporation": "LNWR", "share_price": "100,0,15"})
    rejected(game, {"type": "buy_shares", **ref(game), "shares": ["LNWR_0"], "percent": 20},
             rule="not-for-sale")


def test_wrong_par_price(game):
    rejected(game, {"type": "par", **ref(game), "corporation": "LNWR", "share_price": "90,0,14"},
             rule="bad-par-price")


def test_unknown_share(game):
    game.process({"type": "par", **ref(game), "corporation": "LNWR", "share_price": "100,0,15"})
    rejected(game, {"type": "buy_shares", **ref(game), "shares": ["LNWR_99"], "percent": 10},
             rule="unknown-entity")


def test_buy_from_unparred_corporation(game):
    rejected(game, {"type": "buy_shares", **ref(game), "shares": ["GWR_3"], "percent": 10})


def test_no_selling_in_first_stock_round(operating_game):
    g = operating_game
    # back to a stock round is far; selling in OR is not a stock action at all
    rejected(g, {"type": "sell_shares", **g.index.ref(g.players[0]), "shares": ["LNWR_1"], "percent": 10})


def test_illegal_tile_lays(operating_game):
    g = operating_game
    rejected(g, {"type": "lay_tile", **ref(g), "hex": "A1", "tile": "8-0", "rotation": 0}, rule="unknown-hex")
    rejected(g, {"type": "lay_tile", **ref(g), "hex": "T14", "tile": "nope-0", "rotation": 0},
             rule="tile-not-available")
    rejected(g, {"type": "lay_tile", **ref(g), "hex": "T14", "tile": "8-0", "rotation": 9}, rule="malformed-action")
    # a green tile in phase 1
    rejected(g, {"type": "lay_tile", **ref(g), "hex": "T14", "tile": "14-0", "rotation": 0}, rule="tile-colour")
    # yellow track far from the LNWR's network
    rejected(g, {"type": "lay_tile", **ref(g), "hex": "N2", "tile": "8-0", "rotation": 0}, error=GameError)
    # a rotation that does not connect
    rejected(g, {"type": "lay_tile", **ref(g), "hex": "T14", "tile": "8-0", "rotation": 5}, rule="illegal-rotation")


def test_adjacent_second_lay(operating_game):
    g = operating_game
    g.process({"type": "lay_tile", **ref(g), "hex": "T14", "tile": "8-0", "rotation": 2})
    rejected(g, {"type": "lay_tile", **ref(g), "hex": "U15", "tile": "9-0", "rotation": 0})


def test_illegal_tokens(operating_game):
    g = operating_game
    # no city is reachable yet: placing a token is not an action now
    rejected(g, {"type": "place_token", **ref(g), "city": "S13-0-2", "slot": 0}, rule="no-such-action-now")
    g.process({"type": "lay_tile", **ref(g), "hex": "T14", "tile": "8-0", "rotation": 2})
    rejected(g, {"type": "place_token", **ref(g), "city": "NOPE-0-0", "slot": 0}, rule="unknown-city")
    # London is not connected
    rejected(g, {"type": "place_token", **ref(g), "city": "V20-0-1", "slot": 0}, rule="token-not-connected")
    # a second token on the home hex
    rejected(g, {"type": "place_token", **ref(g), "city": "T16-0-0", "slot": 0})


def test_illegal_train_purchases(operating_game):
    g = operating_game
    g.process({"type": "pass", **ref(g)})  # track and token
    rejected(g, {"type": "buy_train", **ref(g), "train": "3-0", "price": 300}, rule="train-not-available")
    rejected(g, {"type": "buy_train", **ref(g), "train": "2-0", "price": 100}, rule="wrong-price")
    rejected(g, {"type": "buy_train", **ref(g), "train": "9-9", "price": 100}, rule="unknown-entity")


def test_forged_route_revenue(operating_game):
    g = operating_game
    g.process({"type": "lay_tile", **ref(g), "hex": "T14", "tile": "8-0", "rotation": 2})
    g.process({"type": "pass", **ref(g)})
    g.process({"type": "buy_train", **ref(g), "train": "2-0", "price": 180})
    while g.current_entity().id == "LNWR":
        g.process({"type": "pass", **ref(g)})
    while g.current_entity() is not None and g.current_entity().id != "LNWR":
        acts = g.legal_actions()
        g.process(next(a for a in acts if a["type"] == "pass") if any(a["type"] == "pass" for a in acts) else acts[0])
    # now the LNWR (with a 2-train) runs T16-S13: 50, not 500
    while g.current_entity().id == "LNWR" and "run_routes" not in g.round.actions_for(g.current_entity()):
        g.process({"type": "pass", **ref(g)})
    rejected(g, {"type": "run_routes", **ref(g), "routes": [
        {"train": "2-0", "connections": [["T16", "T14", "S13"]], "revenue": 500}]}, rule="wrong-revenue")


def test_truncated_log(tmp_path):
    src = FIXTURES / "1825" / "1825_game_end_bank.json"
    if not src.exists():
        pytest.skip(f"NO FIXTURES: {src} is absent")
    data = json.loads(src.read_text())
    data["actions"] = data["actions"][:200]
    p = tmp_path / "short.json"
    p.write_text(json.dumps(data))
    r = subprocess.run([sys.executable, "-m", "trackage", "replay", str(p)], capture_output=True, text=True)
    assert r.returncode == 1 and "did not finish" in r.stderr
    p.write_text(src.read_text()[:5000])
    r = subprocess.run([sys.executable, "-m", "trackage", "replay", str(p)], capture_output=True, text=True)
    assert r.returncode == 2 and "not valid JSON" in r.stderr


def test_failing_action_in_log(tmp_path):
    src = FIXTURES / "1825" / "1825_game_end_bank.json"
    if not src.exists():
        pytest.skip(f"NO FIXTURES: {src} is absent")
    data = json.loads(src.read_text())
    data["actions"][2]["share_price"] = "55,0,8"  # not a par price
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(data))
    r = subprocess.run([sys.executable, "-m", "trackage", "replay", str(p)], capture_output=True, text=True)
    assert r.returncode == 2
    assert "action 3 (par)" in r.stderr and "par price" in r.stderr


def test_mismatching_result(tmp_path):
    src = FIXTURES / "1825" / "1825_game_end_bank.json"
    if not src.exists():
        pytest.skip(f"NO FIXTURES: {src} is absent")
    data = json.loads(src.read_text())
    data["result"]["19143"] += 1
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(data))
    r = subprocess.run([sys.executable, "-m", "trackage", "replay", str(p)], capture_output=True, text=True)
    assert r.returncode == 1 and "player 19143" in r.stderr
