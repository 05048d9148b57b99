"""The game page's cards, auctions, trains, phases and rules in effect, per title: a new game
and a finished shared log (replayed), and one imported log's page as HTML."""

from __future__ import annotations

import json
import re

import pytest

from trackage.replay import replay_file
from trackage.titles import new_game
from trackage.web import auctions, cards, roster

from .webkit import fixture

SEATS = {"1822": 3, "1825": 3, "1858": 4, "1858India": 4, "1861": 3, "1867": 3, "1893": 3}

# a finished shared log per title
FINISHED = {"1822": "discard_trains_after_sr_export.json", "1825": "1825_game_end_bank.json",
            "1858": "1858_game_end_bank.json", "1858India": "hotseat_qs_b.json",
            "1861": "bank_breaks_then_final_phase.json", "1867": "21268.json", "1893": "1893_game_end_bank.json"}


def check_common(game) -> None:
    """What holds of every game: the roster adds up to the title's trains, one current phase,
    amounts in the title's money, players' certificates against the limit."""
    money = game.CURRENCY.replace("%s", "")
    roster_rows = roster.trains(game)
    assert roster_rows and sum(t["total"] for t in roster_rows) >= len(game.depot.trains)
    for t in roster_rows:
        assert t["left"] + t["market"] + t["owned"] + t["gone"] == t["total"], t
        assert min(t["left"], t["market"], t["owned"], t["gone"]) >= 0, t
        assert money in t["price"]
    for spec in game.data["trains"]:
        n = spec.get("num", 1)
        row = next((t for t in roster_rows if t["name"].split("/")[0] == spec["name"]), None)
        if isinstance(n, int) and n > 0:
            assert row is not None and row["total"] == n, (spec["name"], row)
    phases = roster.phases(game)
    assert sum(p["current"] for p in phases) == 1 and phases[game.phase.index]["current"]
    c = cards.cards(game)
    assert [p["name"] for p in c["players"]] == [p.name for p in game.seats]
    for p in c["players"]:
        assert p["cash"].replace(money, "").lstrip("-").isdigit() and money in p["value"]
        assert p["cert_limit"] == game.cert_limit(game.index.player(p["id"])) and p["certs"] >= 0
    assert sum(p["priority"] for p in c["players"]) <= 1
    for co in c["companies"]:
        assert money in co["cash"] and 0 <= co["tokens_left"] <= co["tokens"] and 0 <= co["ipo"] <= 100
    privates = {p["sym"] for p in c["privates"]}
    if game.TITLE == "1822":
        assert all(s.startswith("P") for s in privates)
    if game.TITLE == "1893":
        assert privates <= {"FdSD", "EVA", "HdSK"}
    if game.TITLE in ("1867", "1861"):
        assert "3" not in privates
    r = roster.rules(game)
    assert r["cert_limit"] == game.cert_limit() and r["end"]


@pytest.mark.parametrize("title", sorted(SEATS))
def test_new_game_cards(title):
    game = new_game(title, [(i + 1, f"Player {i + 1}") for i in range(SEATS[title])], [], 7, 1)
    check_common(game)
    c = cards.cards(game)
    assert all(p["certs"] <= p["cert_limit"] for p in c["players"])
    assert all(t["left"] == t["total"] or t["left"] == 0 for t in roster.trains(game))
    assert roster.phases(game)[0]["current"]
    r = roster.rules(game, [])
    assert r["end_reason"] is None and not r["bank_broken"]
    found = auctions.auctions(game)
    if title == "1822":  # the bid boxes: minors, concessions, privates, no bid yet
        syms = [a["sym"][0] for a in found]
        assert {"M", "C", "P"} <= set(syms) and all(a["high"] is None and a["min"] for a in found)
        assert not {p["sym"] for p in c["privates"]} & {"M1", "C1"} and len(c["privates"]) == 18
    elif title in ("1867", "1861"):  # the privates one at a time, cheapest first
        assert len(found) == 1 and found[0]["kind"] == "auction" and len(found[0]["bidders"]) == 3
        assert found[0]["in_turn"] == "Player 1"
    elif title == "1893":  # the draft of the starting package at fixed prices
        assert found and all(a["kind"] == "draft" and a["min"].endswith("M") for a in found)
        assert len(c["privates"]) == 3
    if title == "1825":  # no options: the title's default unit, said so
        assert [(o["name"], o["implied"]) for o in r["options"]] == [("Unit 2", True)]


def test_an_auction_with_a_bid_shows_the_leader_and_the_next_bid():
    game = new_game("1867", [(1, "Ann"), (2, "Bob"), (3, "Cy")], [], 7, 1)
    first = next(a for a in game.legal_actions() if a["type"] == "bid")
    game.process({"type": "bid", "entity": first["entity"], "entity_type": "player", "company": first["company"],
                  "price": first["price_range"][0] if "price_range" in first else first["price"]})
    (item,) = auctions.auctions(game)
    assert item["leader"] == "Ann" and item["high"] and item["in_turn"] == "Bob"
    assert int(item["min"].strip("$")) > int(item["high"].strip("$"))


@pytest.mark.parametrize("title", sorted(FINISHED))
def test_finished_log_cards(title):
    out = replay_file(fixture(title, FINISHED[title]))
    game = out.game
    assert out.error is None and game.finished
    check_common(game)
    r = roster.rules(game)
    assert r["end_reason"] and "_" not in r["end_reason"]
    if game.bank.broken:
        assert r["bank"] == "broken"
    assert not auctions.auctions(game)
    assert any(t["owned"] for t in roster.trains(game))


def test_imported_page_shows_cards_trains_phases_rules(client):
    data = json.loads(fixture("1822", FINISHED["1822"]).read_text())
    r = client.post("/api/games/import", json=data)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    html = client.get(f"/games/{gid}").text
    for part in ("player-cards", "company-cards", "train-roster", "phases", "game-end", "cert-limit"):
        assert f'id="{part}"' in html
    assert "game over: the bank has broken" in html and 'id="bank">broken<' in html
    assert len(re.findall(r'class="current-phase"', html)) == 1
    assert not re.search(r'data-private="[MC]\d', html) and "£" in html
    past = client.get(f"/games/{gid}?action=3").text
    assert 'id="auction-table"' in past and "(bid box)" in past


def _amount(text: str) -> int:
    return int(re.sub(r"[^0-9]", "", text))


@pytest.mark.parametrize("title", ["1822", "1858", "1858India", "1861", "1867", "1893"])
def test_auctions_along_a_shared_log(title):
    """At every action of a shared log: the auctions read without error; where a bid leads,
    the next bid is above it and the leader is a player still in."""
    from trackage.core.log import filter_actions, load_log
    from trackage.replay import game_from_log

    data = load_log(fixture(title, FINISHED[title]))
    game = game_from_log(data)
    kinds: set[str] = set()
    led = 0

    def trace(g, _action):
        nonlocal led
        for item in auctions.auctions(g):
            kinds.add(item["kind"])
            if item["leader"]:
                led += 1
                assert _amount(item["min"]) > _amount(item["high"]), item
                assert item["leader"] in item["bidders"] and item["leader"] in {p.name for p in g.seats}
        assert sum(p["current"] for p in roster.phases(g)) == 1

    game.load(filter_actions(data["actions"]), trace=trace)
    assert kinds == {"1822": {"bid box"}, "1893": {"draft", "auction"}}.get(title, {"auction"})
    assert led or title == "1893"
