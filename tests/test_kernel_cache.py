"""numba's cache never hands out a kernel compiled from other sources (workbench._kernel_cache).

The end-to-end tests work on a copy of the package in a temporary folder, run each step in a new
Python process that imports that copy (no dev.py anywhere), and edit the copy's sources between
the processes, as a researcher edits ``core/observe.py`` between two notebook sessions.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numba
import pytest
from numba.core import caching

import workbench
from workbench import _kernel_cache as kc

PACKAGE = Path(workbench.__file__).resolve().parent


def _copy_package(dest: Path, with_cache: bool = False) -> Path:
    """The package's sources (and, if asked, its in-tree numba cache) under ``dest``."""
    skip = () if with_cache else ("*.nbi", "*.nbc")
    shutil.copytree(
        PACKAGE,
        dest / "workbench",
        ignore=shutil.ignore_patterns("*.pyc", *skip),
        copy_function=shutil.copy2,
    )
    return dest / "workbench"


def _child(root: Path, code: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``code`` in a new interpreter that imports the package copy under ``root``."""
    full = dict(os.environ if env is None else env)
    full.pop("PYTHONPATH", None)
    prelude = f"import sys; sys.path.insert(0, {str(root)!r})\n"
    return subprocess.run(
        [sys.executable, "-c", prelude + code],
        capture_output=True,
        text=True,
        env=full,
        cwd=str(root),
        timeout=900,
    )


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


# ----------------------------------------------------------------------------- the mechanism


def test_every_cached_kernel_of_the_package_is_stamped_with_the_sources():
    """Each cached dispatcher of every kernel module goes through the package's locator (so none
    was created before ``install`` ran), and its stamp carries the current fingerprint."""
    import importlib

    checked = 0
    for path in PACKAGE.rglob("*.py"):
        if "cache=True" not in path.read_text():
            continue
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        name = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        module = importlib.import_module(name)
        for obj in vars(module).values():
            cache = getattr(obj, "_cache", None)
            if isinstance(obj, numba.core.dispatcher.Dispatcher) and not isinstance(
                cache, caching.NullCache
            ):
                if obj.py_func.__module__ != name:
                    continue
                assert isinstance(cache._impl.locator, kc.SourcesStampedLocator), obj
                stamp = cache._cache_file._source_stamp
                assert stamp[1] == "workbench kernel sources " + kc.sources_fingerprint()
                checked += 1
    assert checked > 100


def _module_level(tree: ast.Module):
    """The statements run at import (imports inside functions run only when those are called,
    and a kernel never calls a Python function)."""
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, (ast.If, ast.Try, ast.With)):
            todo += [
                n for field in ("body", "orelse", "finalbody") for n in getattr(node, field, [])
            ]
            todo += [n for h in getattr(node, "handlers", []) for n in h.body]


def test_no_kernel_imports_the_parts_left_out_of_the_fingerprint():
    """KERNEL_FREE may only name parts that neither define kernels nor are imported (at module
    level) by a module that does: an edit there cannot change compiled code."""
    free = [PACKAGE / name for name in kc.KERNEL_FREE]
    assert all(p.exists() for p in free)
    kernel_modules = []
    for path in PACKAGE.rglob("*.py"):
        uses_numba = any(
            (isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] == "numba")
            or (isinstance(n, ast.Import) and any(a.name.split(".")[0] == "numba" for a in n.names))
            for n in ast.walk(ast.parse(path.read_text()))
        )
        if any(path == p or p in path.parents for p in free):
            assert not uses_numba, f"{path} uses numba but is left out of the fingerprint"
        elif uses_numba:
            kernel_modules.append(path)
    # what the kernel modules import (resolved relative imports), transitively
    seen, todo = set(), list(kernel_modules)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        package = path.parent if path.name != "__init__.py" else path.parent
        for node in _module_level(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package
                for _ in range(node.level - 1):
                    base = base.parent
                parts = (node.module or "").split(".") if node.module else []
                target = base.joinpath(*parts)
                names = [target / a.name for a in node.names] + [target]
                for t in names:
                    for cand in (t.with_suffix(".py"), t / "__init__.py"):
                        if cand.is_file():
                            todo.append(cand)
    leaked = [p for p in seen if any(p == f or f in p.parents for f in free)]
    assert not leaked, f"kernel modules import parts left out of the fingerprint: {leaked}"


def test_fingerprint_follows_kernel_sources_only(tmp_path):
    pkg = _copy_package(tmp_path)
    before = kc.sources_fingerprint(pkg)
    assert before == kc.sources_fingerprint(PACKAGE)  # paths are relative: a copy is the same
    kc._fingerprints.clear()
    for path in (pkg / "learners" / "hoeffding.py", pkg / "viz" / "__init__.py"):
        with open(path, "a") as fh:
            fh.write("# a learner's Python layer, a drawing helper\n")
    assert kc.sources_fingerprint(pkg) == before
    kc._fingerprints.clear()
    _edit(pkg / "core" / "params.py", "import numpy as np", "import numpy as np  # edited")
    assert kc.sources_fingerprint(pkg) != before
    kc._fingerprints.clear()


def test_the_check_costs_milliseconds():
    """The fingerprint is read and hashed once per process; its cost is a small part of a start."""
    times = []
    for _ in range(5):
        kc._fingerprints.clear()
        t0 = time.perf_counter()
        kc.sources_fingerprint()
        times.append(time.perf_counter() - t0)
    assert sorted(times)[2] < 0.05  # median; about 3 ms on a 2-core machine under load


def test_locator_takes_numbas_place_for_the_kernel(tmp_path, monkeypatch):
    """NUMBA_CACHE_DIR first, then ``__pycache__``, then numba's user-wide folder when the
    package folder is read-only; another package's functions are left to numba."""
    from numba.core import config

    steps = str(PACKAGE / "core" / "steps.py")

    def py_func():  # any function: numba takes only its line number from it
        pass

    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "numba_cache"))
    loc = kc.SourcesStampedLocator.from_function(py_func, steps)
    assert loc.get_cache_path() == str(
        tmp_path / "numba_cache" / kc._numba_subpath(PACKAGE / "core")
    )
    assert loc.get_source_stamp()[1].endswith(kc.sources_fingerprint())
    monkeypatch.setattr(config, "CACHE_DIR", "")
    loc = kc.SourcesStampedLocator.from_function(py_func, steps)
    assert loc.get_cache_path() == str(PACKAGE / "core" / "__pycache__")

    in_tree = kc._cache_impl()._locator_classes[2]
    assert in_tree.__name__.lstrip("_") == "InTreeCacheLocator"

    def read_only(self):
        raise PermissionError("read-only")

    monkeypatch.setattr(in_tree, "ensure_cache_path", read_only)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    loc = kc.SourcesStampedLocator.from_function(py_func, steps)
    assert Path(loc.get_cache_path()).parent == kc._user_wide_root()
    assert kc.SourcesStampedLocator.from_function(py_func, str(tmp_path / "other.py")) is None


# ------------------------------------------------------------------------------- end to end


LEARN = """
from workbench import learners, streams
X, y = streams.sea(400, seed=1)
model = learners.HoeffdingTree(grace_period=50).fit(X, y)
print("PRED", model.predict(X[:40]).tolist())
"""


def test_an_edited_step_is_compiled_not_loaded_from_the_old_cache(tmp_path):
    """The issue's test: run a learner from a copy of the package, then edit ``core/observe.py``
    so that the learning kernel can no longer compile; the next process, with no dev.py, must
    fail to compile it (the old kernel would have run).  Undoing the edit brings the cached
    kernel back without compiling."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}  # __pycache__
    pkg = _copy_package(tmp_path, with_cache=True)
    first = _child(tmp_path, LEARN, env)
    assert first.returncode == 0, first.stderr[-3000:]
    steps = pkg / "core" / "observe.py"
    original = steps.read_text()
    _edit(
        steps,
        "def welford_update(g_w, g_mean, g_m2, s, j, c, xj):\n",
        "def welford_update(g_w, g_mean, g_m2, s, j, c, xj):\n    no_such_name_in_a_step\n",
    )
    edited = _child(tmp_path, LEARN, env)
    assert edited.returncode != 0 and "no_such_name_in_a_step" in edited.stderr, (
        "the edited step was not compiled: an old kernel ran\n"
        + edited.stdout
        + edited.stderr[-2000:]
    )
    steps.write_text(original)
    again = _child(tmp_path, LEARN, env)
    assert again.returncode == 0 and again.stdout == first.stdout


STATS = """
import json
from workbench import bounds
f = bounds.hoeffding_nb
f(100.0, 0.01, 1.0)
print("STATS " + json.dumps([sum(f.stats.cache_hits.values()), sum(f.stats.cache_misses.values()), f.stats.cache_path]))
"""


@pytest.mark.parametrize("where", ["NUMBA_CACHE_DIR", "read-only package"])
def test_the_check_holds_wherever_numba_keeps_the_cache(where, tmp_path, monkeypatch):
    """A kernel (in bounds/) is loaded from the cache while the sources are unchanged and compiled
    again after an edit in another file (core/observe.py); with NUMBA_CACHE_DIR set, and with a
    package folder numba cannot write to (it falls back to its user-wide folder)."""
    pkg = _copy_package(tmp_path / "site")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    code_prefix = ""
    if where == "NUMBA_CACHE_DIR":
        env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba_cache")
        expected_root = tmp_path / "numba_cache"
    else:  # root may write anywhere: make numba's in-tree locator find the folder read-only
        env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
        monkeypatch.setenv("XDG_CACHE_HOME", env["XDG_CACHE_HOME"])  # for cache_files below
        expected_root = tmp_path / "xdg" / "numba"
        code_prefix = (
            "from numba.core import caching\n"
            "cls = getattr(caching, 'InTreeCacheLocator', None) or caching._InTreeCacheLocator\n"
            "def read_only(self): raise PermissionError('read-only')\n"
            "cls.ensure_cache_path = read_only\n"
        )

    def stats():
        proc = _child(tmp_path / "site", code_prefix + STATS, env)
        assert proc.returncode == 0, proc.stderr[-3000:]
        line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("STATS "))
        return json.loads(line[6:])

    hits, misses, path = stats()
    assert (hits, misses) == (0, 1) and Path(path).parent == expected_root
    assert not list((pkg / "bounds").glob("__pycache__/*.nbi"))
    assert stats()[:2] == [1, 0]  # unchanged sources: loaded
    _edit(pkg / "core" / "observe.py", "import math\n", "import math  # an edit\n")
    assert stats()[:2] == [0, 1]  # compiled afresh
    assert stats()[:2] == [1, 0]
    # dev.py clean finds them there
    found = kc.cache_files(pkg, env.get("NUMBA_CACHE_DIR"))
    assert found and all(expected_root in f.parents for f in found)
    assert {f.suffix for f in found} == {".nbi", ".nbc"}
