"""The shape check's words (trackage.core.schema): each misfit of the corpus is reported with
its field path, pydantic's message and the input shown, whether checked alone (live play) or
with a whole log's actions at once (``suspects``, a log import); the fitting ones pass both."""

from __future__ import annotations

import random
from typing import Any

import pytest

from trackage.core import schema
from trackage.core.errors import ActionFormatError

R = {"train": "2-0", "connections": [["A1", "A3"]], "hexes": ["A1", "A3"], "revenue": 30}
MISFITS: list[tuple[Any, str]] = [
    (["not", "a", "dict"],
     'an action is a JSON object'),
    (7,
     'an action is a JSON object'),
    (None,
     'an action is a JSON object'),
    ({"entity": "P1"},
     "field 'type': a string is required"),
    ({"type": 5, "entity": "P1"},
     "field 'type': a string is required"),
    ({"type": ["pass"], "entity": "P1"},
     "field 'type': a string is required"),
    ({"type": "teleport", "entity": "P1"},
     "unknown action type 'teleport'"),
    ({"type": "pass"},
     "field 'entity': Field required (got dict)"),
    ({"type": "pass", "entity": 1.5},
     "field 'entity.int': Input should be a valid integer (got 1.5)"),
    ({"type": "pass", "entity": True},
     "field 'entity.int': Input should be a valid integer (got True)"),
    ({"type": "pass", "entity": "P1", "colour": "red"},
     "field 'colour': Extra inputs are not permitted (got 'red')"),
    ({"type": "pass", "entity": "P1", "entity_type": "bank"},
     "field 'entity_type': Input should be 'player', 'corporation', 'minor' or 'company' (got 'bank')"),
    ({"type": "pass", "entity": "P1", "id": "7"},
     "field 'id': Input should be a valid integer (got '7')"),
    ({"type": "pass", "entity": "P1", "id": 7.0},
     "field 'id': Input should be a valid integer (got 7.0)"),
    ({"type": "pass", "entity": "P1", "skip": 1},
     "field 'skip': Input should be a valid boolean (got 1)"),
    ({"type": "pass", "entity": "P1", "created_at": "now"},
     "field 'created_at.int': Input should be a valid integer (got 'now')"),
    ({"type": "pass", "entity": "P1", "auto_actions": {"type": "pass"}},
     "field 'auto_actions': Input should be a valid list (got dict)"),
    ({"type": "pass", "entity": "P1", "auto_actions": [5]},
     "field 'auto_actions.0': Input should be a valid dictionary (got 5)"),
    ({"type": "pass", "entity": "P1", "auto_actions": [{"type": "pass"}]},
     "auto action 'pass': field 'entity': Field required (got dict)"),
    ({"type": "pass", "entity": "P1", "auto_actions": [{"type": "bid", "entity": "P1", "price": "5"}]},
     "auto action 'bid': field 'price': Input should be a valid integer (got '5')"),
    ({"type": "pass", "entity": "P1", "auto_actions": [{"type": "warp", "entity": "P1"}]},
     "auto action 'warp': unknown action type 'warp'"),
    ({"type": "pass", "entity": "P1", "auto_actions": [{"entity": "P1"}]},
     "auto action None: field 'type': a string is required"),
    ({"type": "pass", "entity": "P1", "auto_actions": [{"type": "pass", "entity": "P1",
                                                        "auto_actions": [{"type": "pass", "entity": 2.5}]}]},
     "auto action 'pass': auto action 'pass': field 'entity.int': Input should be a valid integer (got 2.5)"),
    ({"type": "bid", "entity": "P1", "price": "100"},
     "field 'price': Input should be a valid integer (got '100')"),
    ({"type": "bid", "entity": "P1", "price": 100.0},
     "field 'price': Input should be a valid integer (got 100.0)"),
    ({"type": "bid", "entity": "P1", "price": True},
     "field 'price': Input should be a valid integer (got True)"),
    ({"type": "bid", "entity": "P1", "price": 10**12},
     "field 'price': Input should be less than or equal to 1000000000 (got 1000000000000)"),
    ({"type": "bid", "entity": "P1", "price": -10**12},
     "field 'price': Input should be greater than or equal to -1000000000 (got -1000000000000)"),
    ({"type": "bid", "entity": "P1", "price": 10**40},
     "field 'price': Input should be less than or equal to 1000000000 (got 10000000000000000000000000000000000000000)"),
    ({"type": "bid", "entity": "P1", "price": float("inf")},
     "field 'price': Input should be a valid integer (got inf)"),
    ({"type": "bid", "entity": "P1", "price": float("nan")},
     "field 'price': Input should be a valid integer (got nan)"),
    ({"type": "bid", "entity": "P1"},
     "field 'price': Field required (got dict)"),
    ({"type": "bid", "entity": "P1", "price": 5, "company": ""},
     "field 'company': String should have at least 1 character (got '')"),
    ({"type": "bid", "entity": "P1", "price": 5, "company": "x" * 65},
     "field 'company': String should have at most 64 characters (got '" + "x" * 59 + ")"),
    ({"type": "bid", "entity": "P1", "price": 5, "company": 3},
     "field 'company': Input should be a valid string (got 3)"),
    ({"type": "message", "entity": "P1", "message": "y" * 2001},
     "field 'message': String should have at most 2000 characters (got '" + "y" * 59 + ")"),
    ({"type": "message", "entity": "P1", "message": None},
     "field 'message': Input should be a valid string (got None)"),
    ({"type": "par", "entity": "P1", "corporation": "PRR"},
     "field 'share_price': Field required (got dict)"),
    ({"type": "buy_shares", "entity": "P1", "shares": [], "percent": 10},
     "field 'shares': List should have at least 1 item after validation, not 0 (got list)"),
    ({"type": "buy_shares", "entity": "P1", "shares": ["PRR_1"] * 31, "percent": 10},
     "field 'shares': List should have at most 30 items after validation, not 31 (got list)"),
    ({"type": "buy_shares", "entity": "P1", "shares": "PRR_1", "percent": 10},
     "field 'shares': Input should be a valid list (got 'PRR_1')"),
    ({"type": "buy_shares", "entity": "P1", "shares": ["PRR_1", 2], "percent": 10},
     "field 'shares.1': Input should be a valid string (got 2)"),
    ({"type": "buy_shares", "entity": "P1", "shares": ["PRR_1"], "percent": 10, "share_price": False},
     "field 'share_price': Input should be a valid integer (got False)"),
    ({"type": "sell_shares", "entity": "P1", "shares": ["PRR_1"], "percent": "10"},
     "field 'percent': Input should be a valid integer (got '10')"),
    ({"type": "choose", "entity": "P1", "choice": 1.5},
     "field 'choice.str': Input should be a valid string (got 1.5)"),
    ({"type": "choose", "entity": "P1", "choice": {1: "a"}},
     "field 'choice.str': Input should be a valid string (got dict)"),
    ({"type": "choose", "entity": "P1", "choice": ["a"]},
     "field 'choice.str': Input should be a valid string (got list)"),
    ({"type": "lay_tile", "entity": "PRR", "hex": "A1", "tile": "7-0", "rotation": 6},
     "field 'rotation': Input should be less than or equal to 5 (got 6)"),
    ({"type": "lay_tile", "entity": "PRR", "hex": "A1", "tile": "7-0", "rotation": -1},
     "field 'rotation': Input should be greater than or equal to 0 (got -1)"),
    ({"type": "lay_tile", "entity": "PRR", "hex": "A1", "tile": "7-0", "rotation": "1"},
     "field 'rotation': Input should be a valid integer (got '1')"),
    ({"type": "lay_tile", "entity": "PRR", "hex": "A1", "tile": "7-0", "rotation": 1, "combo_entities": "x"},
     "field 'combo_entities': Input should be a valid list (got 'x')"),
    ({"type": "place_token", "entity": "PRR", "city": "A1-0-0", "slot": "0"},
     "field 'slot': Input should be a valid integer (got '0')"),
    ({"type": "remove_token", "entity": "PRR", "city": "A1-0-0"},
     "field 'slot': Field required (got dict)"),
    ({"type": "dividend", "entity": "PRR", "kind": "all"},
     "field 'kind': Input should be 'payout', 'withhold' or 'half' (got 'all')"),
    ({"type": "dividend", "entity": "PRR", "kind": "payout", "amount": 1.0},
     "field 'amount': Input should be a valid integer (got 1.0)"),
    ({"type": "run_routes", "entity": "PRR", "routes": "none"},
     "field 'routes': Input should be a valid list (got 'none')"),
    ({"type": "run_routes", "entity": "PRR", "routes": [5]},
     "field 'routes.0': Input should be a valid dictionary or instance of Route (got 5)"),
    ({"type": "run_routes", "entity": "PRR", "routes": [R] * 31},
     "field 'routes': List should have at most 30 items after validation, not 31 (got list)"),
    ({"type": "run_routes", "entity": "PRR", "routes": [dict(R, train="")]},
     "field 'routes.0.train': String should have at least 1 character (got '')"),
    ({"type": "run_routes", "entity": "PRR", "routes": [dict(R, connections=[["A1"]] * 61)]},
     "field 'routes.0.connections': List should have at most 60 items after validation, not 61 (got list)"),
    ({"type": "run_routes", "entity": "PRR", "routes": [dict(R, connections=[[1, 2]])]},
     "field 'routes.0.connections.0.0': Input should be a valid string (got 1)"),
    ({"type": "run_routes", "entity": "PRR", "routes": [dict(R, connections="A1")]},
     "field 'routes.0.connections': Input should be a valid list (got 'A1')"),
    ({"type": "run_routes", "entity": "PRR", "routes": [dict(R, revenue="30")]},
     "field 'routes.0.revenue': Input should be a valid integer (got '30')"),
    ({"type": "run_routes", "entity": "PRR", "routes": [dict(R, revenue=30.0)]},
     "field 'routes.0.revenue': Input should be a valid integer (got 30.0)"),
    ({"type": "run_routes", "entity": "PRR", "routes": [dict(R, colour="red")]},
     "field 'routes.0.colour': Extra inputs are not permitted (got 'red')"),
    ({"type": "run_routes", "entity": "PRR", "routes": [{"train": "2-0"}]},
     "field 'routes.0.connections': Field required (got dict)"),
    ({"type": "run_routes", "entity": "PRR", "routes": [R, dict(R, halts=True)]},
     "field 'routes.1.halts': Input should be a valid integer (got True)"),
    ({"type": "run_routes", "entity": "PRR", "routes": [R], "extra_revenue": 10**10},
     "field 'extra_revenue': Input should be less than or equal to 1000000000 (got 10000000000)"),
    ({"type": "buy_train", "entity": "PRR", "train": "2-0", "price": 80, "slots": [0, "1"]},
     "field 'slots.1': Input should be a valid integer (got '1')"),
    ({"type": "buy_train", "entity": "PRR", "train": "2-0", "price": 80, "extra_due": "yes"},
     "field 'extra_due': Input should be a valid boolean (got 'yes')"),
    ({"type": "buy_train", "entity": "PRR", "train": "2-0", "price": 80, "warranties": 1.0},
     "field 'warranties': Input should be a valid integer (got 1.0)"),
    ({"type": "special_buy", "entity": "PRR", "description": 3},
     "field 'description': Input should be a valid string (got 3)"),
    ({"type": "payoff_player_debt_partial", "entity": "P1", "amount": "all"},
     "field 'amount': Input should be a valid integer (got 'all')"),
]
FITTING: list[dict[str, Any]] = [
    {"type": "pass", "entity": "P1"},
    {"type": "program_share_pass", "entity": "P1", "anything": [1.5]},
    {"type": "pass", "entity": "P1", "id": 3, "created_at": 1.5, "user": 9, "skip": False,
     "auto_actions": [{"type": "program_disable", "entity": "P1", "x": 1}, {"type": "pass", "entity": 2}]},
    {"type": "run_routes", "entity": "PRR", "routes": [R, dict(R, halts=1, subsidy=3, nodes=["a"])],
     "extra_revenue": 5},
    {"type": "choose", "entity": "P1", "choice": {"a": [1.5]}},
    {"type": "bid", "entity": 3, "price": 10**9},
]


@pytest.mark.parametrize(("action", "message"), MISFITS)
def test_a_misfit_is_named_alike_alone_and_in_a_log(action: Any, message: str) -> None:
    assert schema.problem(action) == message
    assert schema.suspects([*FITTING, action, *FITTING]) == {len(FITTING)}
    if isinstance(action, dict) and isinstance(action.get("type"), str):
        warnings: list[str] = []
        note = schema.check(action, loading=True, warnings=warnings)
        assert note == f"action {action.get('id')}: {message} (accepted from a log)" and warnings == [note]
    with pytest.raises(ActionFormatError) as refused:
        schema.check(action, loading=False)
    assert refused.value.message == message and refused.value.rule == "malformed-action"


def test_fitting_actions_pass_alone_and_in_a_log() -> None:
    for action in FITTING:
        assert schema.problem(action) is None, action
        assert schema.check(action, loading=False) is None
    assert schema.suspects(FITTING * 3) == set()
    assert schema.suspects([]) == set()


def _by_models(action: Any) -> str | None:
    """The check with the action types' models alone (what the fast validators stand in for)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return schema.problem(action)
    model = schema.SCHEMAS.get(action["type"])
    if model is None:
        return schema.problem(action)
    p = schema._model_problem(action, model)
    if p is None:
        for sub in action.get("auto_actions") or []:
            q = _by_models(sub)
            if q is not None:
                return f"auto action {sub.get('type') if isinstance(sub, dict) else sub!r}: {q}"
    return p


_ODD: list[Any] = [None, True, False, 0, -1, 1.0, 2**70, float("inf"), "", "x" * 70, "A1", [], ["A1"], [1],
                   [["A1", 2]], {}, {"a": 1}, [R], [dict(R, hexes=[3])], [{"type": "pass"}],
                   [{"type": "pass", "entity": "P1"}], list(range(31))]


def test_mutated_actions_agree_with_the_models() -> None:
    rng = random.Random(44)
    bases = [a for a, _ in MISFITS if isinstance(a, dict)] + FITTING
    keys = sorted({k for m in schema.SCHEMAS.values() for k in m.model_fields} | {"colour"})
    batch: list[Any] = []
    for _ in range(3000):
        action = dict(rng.choice(bases))
        for _ in range(rng.randint(1, 3)):
            k = rng.choice(keys if rng.random() < 0.5 else list(action) or keys)
            if rng.random() < 0.15:
                action.pop(k, None)
            else:
                action[k] = rng.choice(_ODD)
        if rng.random() < 0.3:
            action["type"] = rng.choice(sorted(schema.SCHEMAS))
        batch.append(action)
        assert schema.problem(action) == _by_models(action), action
    flagged = schema.suspects(batch)
    assert {i for i, a in enumerate(batch) if _by_models(a) is not None} <= flagged
