"""The programmed merger pass of 1867 and 1861 (trackage.core.programs): a player passes in
merger rounds for the minors they name, stopped (option ``disable_others``) by a conversion.

The games are a shared 1867 log cut where its second merger round of phase 4 starts (before
action 463: QLS of Player 1 is to act, BBG of Player 3 converts next, then LPS of Player 4 and
TGB, SLA, PM of Player 2)."""

from __future__ import annotations

import json

from conftest import require_fixtures
from helpers import fingerprint, game_until, players, refused

from trackage.core.programs import available
from trackage.export import game_to_log
from trackage.replay import game_from_log, load_log
from trackage.titles import new_game

LOG = next(p for p in require_fixtures("1867") if p.stem == "hs_wuveadew_21268")
CUT = 462


def _player(g, name):
    return next(p for p in g.players if p.name == name)


def _merger_pass(p, corps, options=()):
    return {"type": "program_merger_pass", "entity": p.id, "entity_type": "player",
            "corporations_by_round": {"MR": list(corps)}, "options": list(options)}


def _state(g):
    return json.dumps(g.state(), sort_keys=True, default=str)


def _replays_alike(g):
    log = json.loads(json.dumps(game_to_log(g)))
    h = game_from_log(log)
    h.load(log["actions"])
    assert _state(h) == _state(g)
    return log


def _rest():
    """The log's moves after the cut, to play on."""
    return iter([a for a in load_log(LOG)["actions"] if a["id"] > CUT and a["type"] != "message"])


def _follow_log(g, rest, until):
    """Play the log's moves ``rest`` (live; a move the programs made is skipped) until ``until(g)``."""
    for a in rest:
        if until(g):
            return
        if g.round.current_entity is not None and a["entity"] != g.round.current_entity.id \
                and a["type"] == "pass" and a["entity_type"] == "corporation":
            continue  # (passed by the program)
        g.process({k: v for k, v in a.items() if k not in ("auto_actions", "id")})
    raise AssertionError("the log ended first")


def test_the_merger_pass_is_offered_in_1867_and_1861_for_the_players_minors():
    g = game_until(LOG, CUT)
    assert g.round.is_merger() and g.round.SHORT_NAME == "MR"
    p2 = _player(g, "Player 2")
    listed = [a for a in available(g, p2) if a["type"] == "program_merger_pass"]
    assert [a["options"] for a in listed] == [["disable_others"], []]
    assert sorted(listed[0]["corporations_by_round"]["MR"]) == ["PM", "SLA", "TGB"]
    for title in ("1867", "1861"):
        assert "program_merger_pass" in new_game(title, players(3)).available_programs()
    assert "program_merger_pass" not in new_game("1825", players(3)).available_programs()
    s = new_game("1867", players(3))  # (a new game starts with no merger pass to offer)
    assert not [a for a in available(s, s.players[0]) if a["type"] == "program_merger_pass"]


def test_the_program_passes_for_the_minor_to_act_and_the_game_replays_alike():
    g = game_until(LOG, CUT)
    p1 = _player(g, "Player 1")
    assert g.round.current_entity.id == "QLS"
    g.process(_merger_pass(p1, ["QLS", "CS"]))
    made = g.actions[-1]["auto_actions"]
    assert {"type": "pass", "entity": "QLS", "entity_type": "corporation"}.items() <= made[0].items()
    assert g.round.current_entity.id == "BBG"
    assert g.programs["enabled"][str(p1.id)][-1]["corporations_by_round"] == {"MR": ["QLS", "CS"]}
    log = _replays_alike(g)
    assert log["actions"][-1]["auto_actions"][0]["entity"] == "QLS"


def test_unnamed_minors_are_left_to_their_player():
    g = game_until(LOG, CUT)
    p1 = _player(g, "Player 1")
    g.process(_merger_pass(p1, ["CS"]))
    assert not g.actions[-1].get("auto_actions")
    assert g.round.current_entity.id == "QLS"


def test_after_a_conversion_disable_others_stops_the_program():
    g = game_until(LOG, CUT)
    p2 = _player(g, "Player 2")
    g.process(_merger_pass(p2, ["TGB", "SLA", "PM"], ["disable_others"]))
    _follow_log(g, _rest(),
                lambda g: any(a["type"] == "program_disable" for a in g.actions[-1].get("auto_actions") or []))
    made = g.actions[-1]["auto_actions"]
    assert made[-1]["reason"] == "Other players have acted and requested to stop"
    assert made[-1]["entity"] == p2.id
    assert not g.programs["enabled"][str(p2.id)]
    assert g.round.current_entity.id == "PM"  # (TGB and SLA had nothing to merge with: the site's own passes)
    _replays_alike(g)


def test_without_disable_others_the_program_goes_on_and_ends_with_the_round():
    g = game_until(LOG, CUT)
    p2 = _player(g, "Player 2")
    g.process(_merger_pass(p2, ["TGB", "SLA", "PM"]))
    rest = _rest()
    _follow_log(g, rest, lambda g: any(a.get("entity") == "PM" for a in g.actions[-1].get("auto_actions") or []))
    assert g.programs["enabled"][str(p2.id)]
    _replays_alike(g)
    _follow_log(g, rest, lambda g: not g.round.is_merger())
    assert not g.programs["enabled"][str(p2.id)]  # removed at the round's change


def test_refused_merger_passes_leave_the_game_as_it_was():
    g = game_until(LOG, CUT)
    p1, p2 = _player(g, "Player 1"), _player(g, "Player 2")
    before = fingerprint(g)
    refused(g, _merger_pass(p1, ["PM"]), rule="program-not-listed")  # not their minor
    refused(g, _merger_pass(p1, ["QLS", "QLS"]), rule="program-not-listed")
    refused(g, {**_merger_pass(p1, ["QLS"]), "corporations_by_round": {"SR": ["QLS"]}}, rule="program-not-listed")
    refused(g, _merger_pass(p1, ["QLS"], ["sometimes"]), rule="program-fields")
    refused(g, {**_merger_pass(p2, ["PM"]), "corporations_by_round": ["PM"]}, rule="program-fields")
    assert fingerprint(g) == before
    s = new_game("1825", players(3))
    refused(s, _merger_pass(s.players[0], []), rule="program-not-available")


def test_the_programs_card_offers_the_merger_pass_and_says_it():
    from trackage.web.programcard import program_card, program_words

    g = game_until(LOG, CUT)
    p2 = _player(g, "Player 2")
    [section] = program_card(g, {"player_id": str(p2.id)}, [], False)
    assert [json.loads(m["json"])["options"] for m in section["mergers"]] == [["disable_others"], []]
    prog = _merger_pass(p2, ["TGB", "PM"], ["disable_others"])
    assert program_words(g, prog) == "Pass on mergers in MR (TGB, PM), unless someone else acts"


def test_in_1861_the_program_passes_for_the_named_minor():
    log = next(p for p in require_fixtures("1861") if p.stem == "29683")
    g = game_until(log, 192)  # (its first merger round starts: RO of Player 2 to act)
    assert g.round.is_merger() and g.round.current_entity.id == "RO"
    p2 = _player(g, "Player 2")
    listed = next(a for a in available(g, p2) if a["type"] == "program_merger_pass")
    assert "RO" in listed["corporations_by_round"]["MR"]
    g.process(_merger_pass(p2, ["RO"], ["disable_others"]))
    assert g.actions[-1]["auto_actions"][0]["entity"] == "RO"
    assert g.round.current_entity.id != "RO"
    _replays_alike(g)
