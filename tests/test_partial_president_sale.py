"""A sale of part of the president's certificate that cannot give the rest back: when the
presidency passes, the part not sold returns to the seller from the pool after the swap; with
no share of the company left there the reference fails, so the sale is no legal action here
(``ShareMarket.change_given_back``). The position comes from a bot tournament game (the
reference fails on the refused action: NoMethodError in its share pool's handle_partial)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trackage.core.errors import GameError
from trackage.core.state import full_state
from trackage.replay import game_from_log

CASE = Path(__file__).parent / "cases" / "1825_partial_president_sale.json"


def test_a_partial_sale_with_nothing_to_give_back_is_not_listed_and_refused() -> None:
    data = json.loads(CASE.read_text())
    game = game_from_log(data)
    game.load(data["actions"], strict=False)
    refused = data["refused"]
    sells = [a for a in game.legal_actions() if a["type"] == "sell_shares"]
    key = (refused["shares"], refused["percent"])
    assert key not in [(a["shares"], a["percent"]) for a in sells]
    # the same certificate sold whole, and with the other shares, stays legal and goes through
    whole = [a for a in sells if "GWR_0" in a["shares"]]
    assert {(tuple(a["shares"]), a["percent"]) for a in whole} >= {(("GWR_0",), 20), (("GWR_3", "GWR_6", "GWR_0"), 30)}
    for a in whole:
        copy = game.copy()
        copy.process(dict(a))
    before = full_state(game)
    with pytest.raises(GameError) as e:
        game.process({k: v for k, v in refused.items() if k != "id"})
    assert e.value.rule == "illegal-sale", e.value
    assert full_state(game) == before
