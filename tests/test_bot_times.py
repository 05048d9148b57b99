"""scripts/bot-times on a tiny sample (30 decisions of one 1893 game): one row per bot level
with positive, ordered figures, as JSON lines and as a markdown table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "bot-times"
ARGS = ["--titles", "1893", "--match", "rule,random,random,random:1", "--max-decisions", "30"]


def _run(*extra: str) -> str:
    out = subprocess.run([sys.executable, str(SCRIPT), *ARGS, *extra], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_rows_per_level_with_positive_ordered_times() -> None:
    rows = [json.loads(line) for line in _run("--json").splitlines()]
    assert [(r["title"], r["level"]) for r in rows] == [("1893", "random"), ("1893", "rule")]
    assert sum(r["decisions"] for r in rows) == 30
    for r in rows:
        assert r["decisions"] > 0
        assert 0 < r["p50_ms"] <= r["p99_ms"] <= r["max_ms"]


def test_markdown_table_shape() -> None:
    lines = _run().splitlines()
    assert [c.strip() for c in lines[0].strip("|").split("|")] == [
        "title", "level", "decisions", "p50 ms", "p99 ms", "max ms"]
    assert lines[1].startswith("|---")
    body = [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]
    assert [(c[0], c[1]) for c in body] == [("1893", "random"), ("1893", "rule")]
    for c in body:
        assert int(c[2]) > 0 and all(float(x) > 0 for x in c[3:])
