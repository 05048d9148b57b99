"""Where the money went: on every shared log, the money flows explain every change of cash,
after the set-up and after every action; `trackage ledger` prints them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, require_fixtures

from trackage.core.journal import MONEY_CATEGORIES
from trackage.core.log import load_log
from trackage.story import unexplained_actions
from trackage.titles import TITLES

CASES = [f for title in sorted(TITLES) for f in require_fixtures(title)]


def _id(p):
    return f"{p.parent.name}/{p.stem}" if isinstance(p, Path) else "absent"


@pytest.mark.parametrize("path", CASES, ids=[_id(p) for p in CASES])
def test_every_change_of_cash_is_explained(path):
    n, bad = unexplained_actions(load_log(path))
    assert n > 0
    assert bad == [], f"{len(bad)} of {n} actions unexplained, first: {bad[:3]}"


def test_ledger_command_prints_flows_as_json_and_a_table():
    src = FIXTURES / "1825" / "1825_game_end_bank.json"
    if not src.exists():
        pytest.skip(f"NO FIXTURES: {src} is absent")
    r = subprocess.run([sys.executable, "-m", "trackage", "ledger", str(src), "--json", "--at", "40"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    flows = json.loads(r.stdout)
    assert flows and all(set(f) == {"action", "round", "payer", "receiver", "amount", "category"} for f in flows)
    assert all(f["amount"] > 0 and f["category"] in MONEY_CATEGORIES for f in flows)
    assert all(f["action"] <= 40 for f in flows)
    start = [f for f in flows if f["action"] == 0]
    assert start and all((f["payer"] == "bank" and f["category"] in ("starting_cash", "company_purchase"))
                         or f["receiver"] == "bank" for f in start)
    data = load_log(src)
    ids = {p["id"] for p in data["players"]}
    assert {f["receiver"] for f in start if f["category"] == "starting_cash"} == ids
    r = subprocess.run([sys.executable, "-m", "trackage", "ledger", str(src), "--by", "round"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "starting cash" in r.stdout and "£" in r.stdout and "SR 1" in r.stdout


def test_ledger_of_a_bad_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    r = subprocess.run([sys.executable, "-m", "trackage", "ledger", str(bad)], capture_output=True, text=True)
    assert r.returncode == 2 and "error" in r.stderr and "Traceback" not in r.stderr


def test_money_moves_only_through_pay():
    """``spend`` moves cash without saying why: only ``pay`` (which records the reason) calls it."""
    import re

    root = Path(__file__).resolve().parent.parent / "trackage"
    callers = [f"{p.relative_to(root)}:{i}" for p in sorted(root.rglob("*.py"))
               for i, line in enumerate(p.read_text().splitlines(), 1)
               if re.search(r"(?<![\w.])spend\(", line) and not line.lstrip().startswith("def spend")]
    assert callers == ["core/money.py:" + str(next(
        i for i, line in enumerate((root / "core" / "money.py").read_text().splitlines(), 1)
        if "    spend(payer, receiver, amount" in line))]


def test_the_money_picture_sums_each_pair_of_holder_classes():
    from trackage.web.charts import flow_chart

    rows = [{"from": "players", "to": "bank", "category": "share_purchase", "amount": 300},
            {"from": "players", "to": "bank", "category": "company_purchase", "amount": 45},
            {"from": "bank", "to": "companies", "category": "float_capital", "amount": 1000},
            {"from": "companies", "to": "companies", "category": "train_purchase", "amount": 80}]
    svg = flow_chart(rows, lambda n: f"£{n}")
    assert svg.count('class="flow"') == 2  # a company paying a company is no arrow between classes
    assert "£345" in svg and "£1000" in svg and "£80" not in svg
    assert 'data-node="minors"' not in svg  # only the classes that moved money are drawn
