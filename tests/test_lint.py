"""The package and its tests are clean under the project's ruff rules (``[tool.ruff]`` in
pyproject.toml): the README's test command runs the linter, so a finding fails CI."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _ruff() -> list[str]:
    exe = shutil.which("ruff")
    if exe:
        return [exe]
    pytest.importorskip("ruff", reason="ruff is not installed (it is in the test extras)")
    return [sys.executable, "-m", "ruff"]


def test_ruff_finds_nothing():
    out = subprocess.run([*_ruff(), "check", "--no-cache", "trackage", "tests", "scripts"], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, f"ruff findings:\n{out.stdout[-4000:]}{out.stderr[-1000:]}"
