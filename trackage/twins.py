"""Compiled twins: the engine's own modules built by Cython, used in place of their source.

A twin is an extension module made from one source file as it is (no annotations read, no
source of its own), kept beside the source under a name the ordinary import never looks for
(``round.twin.cpython-311-x86_64-linux-gnu.so`` beside ``round.py``). The manifest
(``trackage/twins.json``) lists each twin with the SHA-256 of the source it was built from;
:class:`TwinFinder`, put first among the import finders by :func:`install` (the package's
``__init__``), loads a twin only while its source is still that file: an edited module runs as
source until the twins are built again. ``TRACKAGE_PURE=1`` runs every module as source.

``trackage twins build`` builds them (Cython and a C compiler: ``pip install -e '.[fast]'``),
``trackage twins status`` says which modules run compiled, ``trackage twins clean`` removes them.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

#: the package's folder (the twins and the manifest live inside it)
ROOT = Path(__file__).resolve().parent
MANIFEST = ROOT / "twins.json"
#: a twin's file name after its module's name: this interpreter's extension suffix, behind
#: ".twin" (a name no ordinary finder matches)
SUFFIX = ".twin" + str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")
#: the packages whose modules are compiled, and single modules besides
PACKAGES = ("trackage.core", "trackage.titles", "trackage.router")
MODULES = ("trackage.replay",)
#: Cython's reading of the source: as Python (annotations not taken as C types), with
#: functions that introspect and bind like Python's
DIRECTIVES = {"language_level": 3, "binding": True, "annotation_typing": False, "infer_types": False,
              "always_allow_keywords": True}
#: the C compiler's flags after the interpreter's own: optimised, no debug information
CFLAGS = "-O2 -g0"
#: the switch that runs every module as source
PURE_ENV = "TRACKAGE_PURE"


def source_of(module: str, root: Path = ROOT) -> Path:
    """The source file of ``module``, a module of the package in folder ``root``."""
    parts = module.split(".")
    if parts[0] != root.name:
        raise ValueError(f"{module} is not a module of {root.name}")
    return root.joinpath(*parts[1:]).with_suffix(".py")


def twin_of(module: str, root: Path = ROOT) -> Path:
    src = source_of(module, root)
    return src.with_name(src.stem + SUFFIX)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def candidates() -> list[str]:
    """The modules a build compiles: every module of :data:`PACKAGES` but the packages' own
    ``__init__`` files, and :data:`MODULES`, in name order."""
    found = set(MODULES)
    for package in PACKAGES:
        folder = source_of(package + ".__init__").parent
        for path in folder.rglob("*.py"):
            if path.name == "__init__.py" or "__pycache__" in path.parts:
                continue
            rel = path.relative_to(ROOT).with_suffix("")
            found.add(".".join(("trackage", *rel.parts)))
    return sorted(found)


def read_manifest(path: Path = MANIFEST) -> dict[str, str] | None:
    """The manifest's twins (module → its source's SHA-256) when it was written for this
    interpreter's extension suffix; None otherwise."""
    data = _manifest_data(path)
    return None if data is None else {str(k): str(v) for k, v in data["modules"].items()}


def read_stats(path: Path = MANIFEST) -> dict[str, tuple[int, int]]:
    """The sources' size and modification time (ns) when their twins were built: a source
    found so is taken as unchanged without reading it (as Python's own cached bytecode is)."""
    data = _manifest_data(path)
    stats = data.get("stats") if data is not None else None
    if not isinstance(stats, dict):
        return {}
    return {str(k): (int(v[0]), int(v[1])) for k, v in stats.items() if isinstance(v, list) and len(v) == 2}


def _manifest_data(path: Path) -> dict | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("suffix") != SUFFIX or not isinstance(data.get("modules"), dict):
        return None
    return data


def _stat_of(src: Path) -> tuple[int, int]:
    st = src.stat()
    return st.st_size, st.st_mtime_ns


def unchanged(src: Path, want: str, seen: tuple[int, int] | None = None) -> bool:
    """Whether source ``src`` is the file whose SHA-256 is ``want``: by its size and time when
    they are ``seen`` (those at the build), else by its content."""
    if seen is not None and _stat_of(src) == seen:
        return True
    return digest(src.read_bytes()) == want


def twin_current(module: str, want: str, seen: tuple[int, int] | None = None, root: Path = ROOT) -> bool:
    """Whether ``module``'s twin is there and its source is still the one it was built from
    (the one question of the finder, the status and the build)."""
    try:
        return twin_of(module, root).is_file() and unchanged(source_of(module, root), want, seen)
    except OSError:
        return False


class TwinFinder(importlib.abc.MetaPathFinder):
    """Finds a module's twin while the module's source is the one it was built from
    (``twins``: module → its source's SHA-256; ``root``: the package's folder)."""

    def __init__(self, twins: dict[str, str], root: Path = ROOT,
                 stats: dict[str, tuple[int, int]] | None = None) -> None:
        self.twins = twins
        self.root = root
        self.stats = stats or {}

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        want = self.twins.get(fullname)
        if want is None:
            return None
        if not twin_current(fullname, want, self.stats.get(fullname), self.root):
            return None
        twin = twin_of(fullname, self.root)
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(twin))
        return importlib.util.spec_from_file_location(fullname, twin, loader=loader)


def pure() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def install() -> TwinFinder | None:
    """Put the twins' finder first among the import finders (once), unless running pure or
    no manifest was built for this interpreter."""
    for finder in sys.meta_path:
        if isinstance(finder, TwinFinder):
            return finder
    if pure():
        return None
    twins = read_manifest()
    if not twins:
        return None
    finder = TwinFinder(twins, stats=read_stats())
    sys.meta_path.insert(0, finder)
    return finder


@dataclass
class Status:
    """What each module runs as: ``compiled`` (its twin matches its source), ``stale`` (its
    source changed since the build: it runs as source), ``missing`` (no twin built)."""

    compiled: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def status() -> Status:
    twins = read_manifest() or {}
    stats = read_stats()
    out = Status()
    for module in candidates():
        want = twins.get(module)
        if want is None or not twin_of(module).is_file():
            out.missing.append(module)
        elif twin_current(module, want, stats.get(module)):
            out.compiled.append(module)
        else:
            out.stale.append(module)
    return out


class BuildError(Exception):
    """The twins could not be built (no Cython, no C compiler, a module Cython refuses)."""


# the build, run by a fresh interpreter in a scratch folder holding copies of the sources
_BUILD_SCRIPT = """
import json, sys
from Cython.Build import cythonize
from setuptools import setup
jobs, directives, modules = int(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3:]
setup(ext_modules=cythonize(modules, compiler_directives=directives, nthreads=jobs, quiet=True),
      script_args=["-q", "build_ext", "--inplace", "-j", str(jobs)])
"""


@dataclass
class BuildReport:
    built: list[str]
    seconds: float


def build(modules: Sequence[str] | None = None, jobs: int = 2, force: bool = False) -> BuildReport:
    """Build the twins of ``modules`` (default :func:`candidates`) whose twin is missing or
    stale (all of them with ``force``) and write the manifest; twins of modules no longer
    built are removed. Raises :class:`BuildError` with the compiler's words when the build
    fails, or when the package's folder cannot be written (the modules left run as source)."""
    try:
        return _build(modules, jobs, force)
    except OSError as e:
        raise BuildError(f"cannot write the twins beside the sources ({e}): the engine runs as source") from e


def _build(modules: Sequence[str] | None, jobs: int, force: bool) -> BuildReport:
    import shutil
    import subprocess
    import tempfile
    import time
    if importlib.util.find_spec("Cython") is None:
        raise BuildError("Cython is not installed (pip install -e '.[fast]'): the engine runs as source")
    wanted = list(candidates() if modules is None else modules)
    old = read_manifest() or {}
    kept = {} if force else {m: h for m, h in old.items() if m in wanted and twin_current(m, h)}
    mods = [m for m in wanted if m not in kept]
    started = time.perf_counter()
    if not mods:
        _write_manifest(kept)
        return BuildReport(built=[], seconds=0.0)
    with tempfile.TemporaryDirectory(prefix="trackage-twins-") as tmp:
        scratch = Path(tmp)
        hashes: dict[str, str] = {}
        # each module's source as a path from the package's parent (the scratch folder's layout)
        rel = {m: source_of(m).relative_to(ROOT.parent) for m in mods}
        for module in mods:
            data = source_of(module).read_bytes()
            hashes[module] = digest(data)
            dst = scratch / rel[module]
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_bytes(data)
            # the packages above it (Cython names the module after them)
            for parent in rel[module].parents:
                if parent == Path("."):
                    continue
                init = scratch / parent / "__init__.py"
                if not init.exists():
                    init.parent.mkdir(parents=True, exist_ok=True)
                    init.write_text("")
        env = dict(os.environ)
        env["CFLAGS"] = (env.get("CFLAGS", "") + " " + CFLAGS).strip()
        files = [str(rel[m]) for m in mods]
        run = subprocess.run([sys.executable, "-c", _BUILD_SCRIPT, str(jobs), json.dumps(DIRECTIVES), *files],
                             cwd=scratch, env=env, capture_output=True, text=True, check=False)
        if run.returncode != 0:
            words = (run.stderr or run.stdout).strip().splitlines()
            raise BuildError("the build failed:\n" + "\n".join(words[-25:]))
        suffix = str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")
        made = {m: scratch / rel[m].with_suffix(suffix) for m in mods}
        for module in mods:
            if not made[module].is_file():
                raise BuildError(f"the build made no extension for {module}")
        # the twins being replaced unnamed while they are (a twin is used only while named)
        _write_manifest(kept)
        for module in mods:
            shutil.copyfile(made[module], twin_of(module).with_suffix(".tmp"))
            os.replace(twin_of(module).with_suffix(".tmp"), twin_of(module))
        for module in old:
            if module not in hashes and module not in kept:
                twin_of(module).unlink(missing_ok=True)
        _write_manifest({**kept, **hashes})
    return BuildReport(built=mods, seconds=time.perf_counter() - started)


def _write_manifest(twins: dict[str, str]) -> None:
    # (each source's size and time now, for :func:`unchanged`: a source whose content is not
    # the one hashed gets none, and is read at every import until built again)
    stats: dict[str, list[int]] = {}
    for module, want in twins.items():
        src = source_of(module)
        seen = _stat_of(src)
        if digest(src.read_bytes()) == want:
            stats[module] = list(seen)
    tmp = MANIFEST.with_suffix(".json.tmp")
    tmp.write_text(json.dumps({"suffix": SUFFIX, "modules": dict(sorted(twins.items())),
                               "stats": dict(sorted(stats.items()))}, indent=1) + "\n")
    os.replace(tmp, MANIFEST)


def clean() -> int:
    """Remove the manifest and every twin; the number of twins removed."""
    n = 0
    for path in ROOT.rglob("*" + SUFFIX):
        path.unlink()
        n += 1
    MANIFEST.unlink(missing_ok=True)
    return n
