"""Programmed actions (trackage.core.programs): a share pass and a purchase made for a
player while others act, stopped with the site's reasons, exported and replayed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import require_fixtures
from helpers import fingerprint, players, refused

from trackage.core.programs import available, is_mismatch
from trackage.export import game_to_log
from trackage.replay import game_from_log, replay_file
from trackage.titles import TITLES, new_game


def _prog(player, atype, **kw):
    return {"type": atype, "entity": player.id, "entity_type": "player", **kw}


def _until_par():
    """A 3-player 1825 game in its first stock round, at the first turn that may par."""
    g = new_game("1825", players(3))
    while not any(a["type"] == "par" for a in g.legal_actions()):
        acts = g.legal_actions()
        g.process(next((a for a in acts if a["type"] == "buy_company"), None)
                  or next(a for a in acts if a["type"] == "pass"))
    return g


def _pass(g):
    g.process(next(a for a in g.legal_actions() if a["type"] == "pass"))


def _replayed(g):
    log = json.loads(json.dumps(game_to_log(g)))
    h = game_from_log(log)
    h.load(log["actions"])
    return log, h


def test_share_pass_passes_for_the_player_then_stops_on_a_par():
    g = _until_par()
    parrer = g.current_entity()
    away = next(p for p in g.players if p is not parrer)
    g.process(next(a for a in g.legal_actions() if a["type"] == "par"))
    g.process(_prog(away, "program_share_pass", unconditional=False, indefinite=False))
    # the others act; each time the turn comes to the away player, the engine passes for them
    passed = []
    for _ in range(3):
        if g.current_entity() is away:
            break
        _pass(g)
        passed += [a for a in g.actions[-1].get("auto_actions") or [] if a["entity"] == away.id]
    assert passed and all(a["type"] == "pass" for a in passed)
    log, h = _replayed(g)
    assert any(a.get("auto_actions") for a in log["actions"])
    assert json.dumps(h.state(), sort_keys=True, default=str) == json.dumps(g.state(), sort_keys=True, default=str)


def test_a_par_by_another_player_disables_a_conditional_share_pass():
    g = _until_par()
    first = g.current_entity()
    g.process(next(a for a in g.legal_actions() if a["type"] == "par"))
    # the next player programs a share pass, the one after pars: at the away player's turn the program stops
    away = g.current_entity()
    g.process(_prog(away, "program_share_pass", unconditional=False, indefinite=False))
    made = g.actions[-1].get("auto_actions") or []
    assert [a["type"] for a in made][:1] == ["pass"]
    other = g.current_entity()
    assert other not in (away,)
    par = next((a for a in g.legal_actions() if a["type"] == "par"), None)
    if par is None:
        return  # nothing left to par for the third player in this set-up
    g.process(par)
    while g.current_entity() is not away and g.round.is_stock() and g.current_entity() is not None:
        if g.actions[-1].get("auto_actions"):
            break
        _pass(g)
    autos = [a for act in g.actions for a in act.get("auto_actions") or [] if a["type"] == "program_disable"]
    assert autos and autos[-1]["entity"] == away.id and "parred" in autos[-1]["reason"]
    assert not g.programs["enabled"][str(away.id)]
    assert first is not away


def test_buy_shares_buys_until_the_count_then_stops():
    g = _until_par()
    g.process(next(a for a in g.legal_actions() if a["type"] == "par"))
    corp = next(c for c in g.corporations if c.share_price is not None)
    buyer = g.current_entity()
    g.process(_prog(buyer, "program_buy_shares", corporation=corp.id, until_condition=2,
                    from_market=False, auto_pass_after=False))
    for _ in range(12):
        if not g.round.is_stock() or not g.programs["enabled"].get(str(buyer.id)):
            break
        if g.current_entity() is buyer:
            break
        _pass(g)
    bought = [a for act in g.actions for a in act.get("auto_actions") or []
              if a["type"] == "buy_shares" and a["entity"] == buyer.id]
    stops = [a for act in g.actions for a in act.get("auto_actions") or []
             if a["type"] == "program_disable" and a["entity"] == buyer.id]
    assert bought
    assert buyer.num_shares_of(corp) <= 2
    if buyer.num_shares_of(corp) == 2:
        assert stops and "end condition met" in stops[-1]["reason"]
    _, h = _replayed(g)
    assert json.dumps(h.state(), sort_keys=True, default=str) == json.dumps(g.state(), sort_keys=True, default=str)


def test_refused_programs_leave_the_game_as_it_was():
    g = _until_par()
    p = g.current_entity()
    corp = next(c for c in g.corporations if c.share_price is None)
    before = fingerprint(g)
    refused(g, _prog(p, "program_buy_shares", corporation=corp.id, until_condition=2),
            rule="program-corporation-not-parred")
    refused(g, _prog(p, "program_buy_shares", corporation=corp.id, until_condition=0), rule="program-until")
    refused(g, _prog(p, "program_auction_bid", bid_target=10), rule="program-not-available")
    refused(g, {"type": "program_share_pass", "entity": corp.id, "entity_type": "corporation"},
            rule="program-by-player")
    assert fingerprint(g) == before


SHARED_LOGS = [f for title in sorted(TITLES) for f in require_fixtures(title)]


@pytest.mark.parametrize("path", SHARED_LOGS, ids=[f"{p.parent.name}/{p.stem}" if isinstance(p, Path) else "absent"
                                                   for p in SHARED_LOGS])
def test_logged_auto_actions_are_what_the_programs_make(path):
    """Every shared log's auto actions made while programs ran are what ours make there
    (types, fields and the disabling reasons' text); see scripts/programcheck."""
    out = replay_file(path, check_programs=True)
    assert out.error is None
    assert [w for w in out.warnings if is_mismatch(w)] == []


def test_available_programs_in_the_sites_shapes_and_the_gate_accepts_exactly_them():
    g = _until_par()
    g.process(next(a for a in g.legal_actions() if a["type"] == "par"))
    corp = next(c for c in g.corporations if c.share_price is not None)
    p = next(pl for pl in g.players if pl is not g.current_entity() and not pl.num_shares_of(corp))
    listed = available(g, p)
    passes = [a for a in listed if a["type"] == "program_share_pass"]
    assert {(a["unconditional"], a["indefinite"]) for a in passes} == {(False, False), (True, False), (False, True),
                                                                      (True, True)}
    buys = [a for a in listed if a["type"] == "program_buy_shares"]
    assert {a["corporation"] for a in buys} == {corp.id}
    assert {(a["until_condition"] == "float", a["from_market"]) for a in buys} == {(True, False), (False, False)}
    ipo = next(a for a in buys if a["until_condition"] != "float")
    assert ipo["until_range"][0] == p.num_shares_of(corp) + 1
    assert not [a for a in listed if a["type"] == "program_disable"]  # nothing to disable yet
    assert not [a for a in g.legal_actions() if a["type"].startswith("program_")]  # no moves
    before = fingerprint(g)
    refused(g, _prog(p, "program_disable", reason="user"), rule="program-not-listed")
    refused(g, _prog(p, "program_buy_shares", corporation=corp.id, until_condition=ipo["until_range"][1] + 1),
            rule="program-not-listed")
    refused(g, _prog(p, "program_share_pass", unconditional=1), rule="program-fields")  # the rules' word first
    refused(g, _prog(p, "program_buy_shares", corporation=corp.id, until_condition=1, from_market=True),
            rule="program-not-listed")  # nothing in the market
    assert fingerprint(g) == before
    g.process(_prog(p, "program_buy_shares", corporation=corp.id, until_condition=ipo["until_range"][1],
                    from_market=False, auto_pass_after=True))
    assert g.programs["enabled"][str(p.id)][-1]["until_condition"] == ipo["until_range"][1]
    off = next(a for a in available(g, p) if a["type"] == "program_disable")
    assert off["original_type"] == "program_buy_shares"
    g.process(_prog(p, "program_disable", reason="user"))
    assert not g.programs["enabled"][str(p.id)]
    assert available(g, g.corporations[0]) == []
