"""The package type-checks under the project's mypy settings (``[tool.mypy]`` in
pyproject.toml: ``check_untyped_defs``, unused ignores and redundant casts reported):
the README's test command runs mypy, so a finding fails CI."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _mypy() -> list[str]:
    try:
        import mypy  # noqa: F401 - only whether it is there
    except ImportError:
        exe = shutil.which("mypy")
        if exe is None:
            pytest.skip("mypy is not installed (it is in the test extras)")
        return [exe]
    return [sys.executable, "-m", "mypy"]


def test_package_is_clean():
    out = subprocess.run([*_mypy(), "--config-file", "pyproject.toml", "trackage"], cwd=ROOT,
                         capture_output=True, text=True)
    findings = [line for line in out.stdout.splitlines() if ": error: " in line]
    assert out.returncode == 0 and not findings, (
        f"mypy exit {out.returncode}, {len(findings)} findings:\n" + "\n".join(findings[:50])
        + f"\n{out.stdout[-1500:]}{out.stderr[-1500:]}")
