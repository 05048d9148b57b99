"""scripts/speed-targets on a tiny sample (one 1893 game of 20 decisions, the 1893 shared log):
the JSON has one row per target with its figures per title; timings are not checked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "speed-targets"
LOG = ROOT.parent / "shared" / "fixtures" / "1893" / "1893_game_end_bank.json"


def test_quick_json_has_every_target(tmp_path: Path) -> None:
    assert LOG.exists(), f"shared log missing: {LOG}"
    ref = tmp_path / "ref.jsonl"
    ref.write_text(json.dumps({"file": str(LOG), "seconds_median_inprocess": 1.0}) + "\n")
    out_json = tmp_path / "targets.json"
    out = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--titles", "1893", "--seeds", "1",
                          "--decisions", "20", "--copy-repeat", "1", "--replay-repeat", "1", "--router-every", "50",
                          "--skip", "web", "--reference-times", str(ref), "--json", str(out_json)],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out_json.read_text())
    assert {"load_start", "load_end", "seconds", "sizes", "targets"} <= set(report)
    rows = {t["key"]: t for t in report["targets"]}
    assert set(rows) == {"live_decisions_per_s", "apply_undo_ms", "copy_process_ms", "legal_actions_ms",
                         "copy_ms", "replay_ratio", "router_states_s"}
    for t in rows.values():
        assert {"target", "measured", "shown", "met"} <= set(t)
        assert t["met"] in (True, False, None)
    assert set(rows["live_decisions_per_s"]["measured"]["1893"]) == {"games", "decisions", "median", "worst"}
    assert set(rows["apply_undo_ms"]["measured"]["1893"]) == {"positions", "process", "undo", "apply_undo"}
    assert set(rows["apply_undo_ms"]["measured"]["1893"]["apply_undo"]) == {"p50_ms", "p99_ms"}
    assert set(rows["copy_process_ms"]["measured"]["1893"]) == {"positions", "copy", "copy_process",
                                                                "copy_and_process"}
    assert {"p50_ms", "p99_ms", "max_ms"} <= set(rows["legal_actions_ms"]["measured"]["1893"])
    assert set(rows["copy_ms"]["measured"]) == {"1893/1893_game_end_bank"}
    assert set(rows["replay_ratio"]["measured"]) == {"1893/1893_game_end_bank.json"}
    assert {"states", "p50_s", "p99_s", "max_s"} == set(rows["router_states_s"]["measured"]["all"])
    # the markdown table: a header and one row per target
    table = [line for line in out.stdout.splitlines() if line.startswith("|")]
    assert table[0] == "| target | measured | met |" and len(table) == 2 + len(rows)
