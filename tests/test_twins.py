"""The compiled twins (trackage/twins.py): a twin is used only while its source is the one it
was built from; TRACKAGE_PURE runs everything as source; and a replay run compiled equals
the same replay run as source."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import fixture_files

from trackage import twins
from trackage.core.state import full_state
from trackage.replay import replay_file


def _package(tmp_path: Path, source: str) -> tuple[Path, str]:
    root = tmp_path / "pkgx"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "sub" / "__init__.py").write_text("")
    (root / "sub" / "mod.py").write_text(source)
    return root, "pkgx.sub.mod"


def test_a_twin_is_found_only_while_its_source_is_unchanged(tmp_path: Path) -> None:
    root, name = _package(tmp_path, "X = 1\n")
    twin = twins.twin_of(name, root)
    twin.write_bytes(b"not loaded here: only found")
    finder = twins.TwinFinder({name: twins.digest(b"X = 1\n")}, root)
    spec = finder.find_spec(name)
    assert spec is not None and spec.origin == str(twin)
    assert spec.loader is not None and type(spec.loader).__name__ == "ExtensionFileLoader"
    # the source edited after the build: the ordinary import (None here) takes it as source
    twins.source_of(name, root).write_text("X = 2\n")
    assert finder.find_spec(name) is None
    # a module the manifest does not name, and a twin gone missing
    assert finder.find_spec("pkgx.sub") is None
    twins.source_of(name, root).write_text("X = 1\n")
    twin.unlink()
    assert finder.find_spec(name) is None


def test_a_twin_file_is_never_found_by_the_ordinary_import(tmp_path: Path) -> None:
    root, name = _package(tmp_path, "X = 1\n")
    twins.twin_of(name, root).write_bytes(b"\0")
    out = subprocess.run([sys.executable, "-c", "import pkgx.sub.mod as m; print(m.__file__, m.X)"],
                         cwd=tmp_path, capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert out.stdout.split() == [str(twins.source_of(name, root)), "1"]


def test_a_manifest_for_another_interpreter_names_nothing(tmp_path: Path) -> None:
    path = tmp_path / "twins.json"
    path.write_text(json.dumps({"suffix": ".twin.cpython-299-x.so", "modules": {"trackage.core.round": "0" * 64}}))
    assert twins.read_manifest(path) is None
    path.write_text(json.dumps({"suffix": twins.SUFFIX, "modules": {"trackage.core.round": "0" * 64}}))
    assert twins.read_manifest(path) == {"trackage.core.round": "0" * 64}
    path.write_text("{not json")
    assert twins.read_manifest(path) is None


def test_candidates_are_the_engine_modules() -> None:
    found = twins.candidates()
    assert "trackage.core.round" in found and "trackage.titles.t1867.game" in found and "trackage.replay" in found
    assert not any(m.endswith("__init__") or m.startswith(("trackage.web", "trackage.cli")) for m in found)
    for m in found:
        assert twins.source_of(m).is_file(), m


def _where(env: dict[str, str]) -> str:
    code = "import trackage.core.round as m; print(m.__file__)"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env=env, cwd=Path(twins.ROOT).parent).stdout.strip()


def test_pure_runs_every_module_as_source() -> None:
    assert _where({**os.environ, twins.PURE_ENV: "1"}).endswith("round.py")


def test_built_twins_are_used() -> None:
    st = twins.status()
    if not st.compiled or twins.pure():
        pytest.skip("no compiled twins built here (trackage twins build), or TRACKAGE_PURE set: "
                    "the engine runs as source")
    env = {k: v for k, v in os.environ.items() if k != twins.PURE_ENV}
    if "trackage.core.round" in st.compiled:
        assert _where(env).endswith("round" + twins.SUFFIX)
    for name in st.compiled:
        mod = sys.modules.get(name)
        if mod is not None:  # imported by this process: from its twin
            assert str(mod.__file__).endswith(twins.SUFFIX), name


def _outcome(path: Path) -> str:
    out = replay_file(path)
    game = out.game
    assert game is not None
    return json.dumps({"result": out.result, "applied": out.applied, "error": str(out.error),
                       "state": full_state(game),
                       "events": [repr(e) for e in game.journal.events()]}, sort_keys=True, default=str)


def test_compiled_and_source_replays_agree() -> None:
    if not twins.status().compiled or twins.pure():
        pytest.skip("no compiled twins built here (trackage twins build), or TRACKAGE_PURE set: nothing to compare")
    files = fixture_files("1867")[1:2] + fixture_files("1893")[:1]
    if not files:
        pytest.skip("the shared fixtures are absent (../shared/fixtures or TRACKAGE_FIXTURES)")
    code = ("import sys; sys.path.insert(0, 'tests'); from pathlib import Path; "
            "from test_twins import _outcome; "
            "print('\\n'.join(_outcome(Path(f)) for f in sys.argv[1:]))")
    pure = subprocess.run([sys.executable, "-c", code, *map(str, files)], capture_output=True, text=True,
                          check=True, env={**os.environ, twins.PURE_ENV: "1"}, cwd=Path(twins.ROOT).parent)
    assert pure.stdout.splitlines() == [_outcome(f) for f in files]


def test_a_source_is_judged_by_its_size_and_time_then_by_its_content(tmp_path: Path) -> None:
    src = tmp_path / "mod.py"
    src.write_text("X = 1\n")
    want = twins.digest(b"X = 1\n")
    st = src.stat()
    seen = (st.st_size, st.st_mtime_ns)
    assert twins.unchanged(src, want, seen) and twins.unchanged(src, want)
    # touched, the same content: read, and found the same
    os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    assert twins.unchanged(src, want, seen)
    # edited: another size and time, another content
    src.write_text("X = 22\n")
    assert not twins.unchanged(src, want, seen) and not twins.unchanged(src, want)
