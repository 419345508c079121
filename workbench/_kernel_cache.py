"""numba's on-disk cache of compiled kernels, kept in step with the sources they were built from.

numba stamps each cached kernel with a hash of the file that defines it, and nothing else.  A
kernel such as ``core.engine.run_stream`` is compiled together with the steps it inlines
(``core/observe.py``, ``core/leaf_predict.py``, ...), the jitted functions it calls
(``core/decide.py``, ``bounds/``, ...) and the constants it reads (``core/params.py``): after an
edit to any of those, numba would load the machine code of the old version without a word.

:func:`install` (run by ``import workbench``) adds a fingerprint of the package's kernel sources to
the stamp of every cached workbench kernel, so numba itself finds an entry compiled from other
sources stale, compiles afresh and overwrites it.  Nothing is deleted and nothing else changes:
the cache stays where numba puts it (``__pycache__`` beside the sources; ``$NUMBA_CACHE_DIR`` when
that is set; numba's user-wide cache folder when the package folder is read-only, as in some
installs), and kernels of other packages are untouched.  A process keeps the fingerprint of the
sources it imported, so a notebook kernel started before an edit still writes entries stamped
with the old sources, which the next process, started after it, does not load.

The fingerprint is a SHA-256 of the contents of every ``.py`` file of the package outside
:data:`KERNEL_FREE` (the parts no kernel imports; ``tests/test_kernel_cache.py`` checks that),
about 65 files and 0.75 MB, hashed once per process: a few milliseconds (measured in
``tests/test_kernel_cache.py``).  The contents, not the files' sizes and modification times: a
checkout, ``cp -p`` or an unpacked archive can bring back other contents under a time stamp that
was already seen, and an edit inside the timestamp resolution of a file system keeps it.

This module uses only the standard library at import; ``dev.py clean`` loads it by path to find
the cache files (:func:`cache_files`) without the package's dependencies.
"""

from __future__ import annotations

import hashlib
import os
import sys
import warnings
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent

#: top-level modules and sub-packages of ``workbench`` that no numba kernel imports: editing
#: them does not make a compiled kernel stale, so they are left out of the fingerprint (a notebook
#: helper or a learner's Python layer can change without three minutes of recompilation)
KERNEL_FREE = (
    "book.py",
    "precompile.py",
    "exercises",
    "experiments",
    "interop",
    "learners",
    "streams",
    "sweep",
    "viz",
)

#: numba's cache files: an index per function (.nbi) and its compiled code (.nbc)
CACHE_SUFFIXES = (".nbi", ".nbc")

_fingerprints: dict[str, str] = {}
_installed = False


def kernel_sources(package_dir: Path = PACKAGE_DIR) -> list[Path]:
    """The ``.py`` files of the package whose contents compiled kernels depend on, sorted."""
    package_dir = Path(package_dir)
    found = []

    def walk(folder: str, top: bool) -> None:
        with os.scandir(folder) as entries:
            for entry in entries:
                name = entry.name
                if top and name in KERNEL_FREE:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    if name != "__pycache__" and not name.startswith("."):
                        walk(entry.path, False)
                elif name.endswith(".py"):
                    found.append(Path(entry.path))

    walk(str(package_dir), True)
    return sorted(found)


def sources_fingerprint(package_dir: Path = PACKAGE_DIR) -> str:
    """SHA-256 of the kernel sources' paths (relative to the package) and contents."""
    key = str(package_dir)
    if key not in _fingerprints:
        h = hashlib.sha256()
        for path in kernel_sources(package_dir):
            data = path.read_bytes()
            rel = path.relative_to(package_dir).as_posix().encode()
            h.update(b"%d:%s%d:" % (len(rel), rel, len(data)))
            h.update(data)
        _fingerprints[key] = h.hexdigest()
    return _fingerprints[key]


def _in_package(py_file: str) -> bool:
    path = os.path.realpath(py_file)
    return path.startswith(str(PACKAGE_DIR) + os.sep)


class SourcesStampedLocator:
    """A numba cache locator for the package's kernels: numba's own choice of place (the first
    of its locators that accepts the function), with the package fingerprint in the stamp."""

    def __init__(self, inner, fingerprint: str):
        self._inner = inner
        self._fingerprint = fingerprint

    @classmethod
    def from_function(cls, py_func, py_file):
        if not _in_package(py_file):
            return None  # another package's function: numba's own locators handle it
        for other in _cache_impl()._locator_classes:
            if other is cls:
                continue
            inner = other.from_function(py_func, py_file)
            if inner is not None:
                return cls(inner, sources_fingerprint())
        return None

    def get_source_stamp(self):
        return (self._inner.get_source_stamp(), "workbench kernel sources " + self._fingerprint)

    def __getattr__(self, name):  # cache path, disambiguator, the file, ...: numba's own
        return getattr(self._inner, name)


def _cache_impl():
    from numba.core import caching

    return getattr(caching, "CacheImpl", None) or caching._CacheImpl  # older numba


def install() -> bool:
    """Make numba stamp the package's cached kernels with :func:`sources_fingerprint`.

    Runs before any kernel module is imported (``workbench/__init__.py``); idempotent.  Returns
    False, with a warning, when this numba offers no place for it (its locator list was replaced
    through ``NUMBA_CACHE_LOCATOR_CLASSES``, or its caching internals changed)."""
    global _installed
    if _installed:
        return True
    from numba.core import config

    try:
        locators = _cache_impl()._locator_classes
    except AttributeError:
        locators = None
    if getattr(config, "CACHE_LOCATOR_CLASSES", "") or not isinstance(locators, list):
        warnings.warn(
            "workbench: numba's cache locators are replaced (NUMBA_CACHE_LOCATOR_CLASSES) or "
            "unknown to this version; cached kernels are not checked against the sources they "
            "were compiled from: after editing the package, run `python3 dev.py clean`",
            RuntimeWarning,
            stacklevel=2,
        )
        return False
    if SourcesStampedLocator not in locators:
        locators.insert(0, SourcesStampedLocator)
    _installed = True
    return True


# ------------------------------------------------------------------------------ finding the files


def _numba_subpath(folder: Path) -> str:
    """The sub-folder numba gives a source folder's kernels inside a cache root (its rule: the
    folder's name and the SHA-1 of its absolute path)."""
    path = os.path.abspath(folder)
    return f"{os.path.basename(path)}_{hashlib.sha1(path.encode()).hexdigest()}"


def _user_wide_root() -> Path:
    """numba's user-wide cache folder (used when the package folder is not writable)."""
    try:
        from numba.misc.appdirs import AppDirs

        return Path(AppDirs(appname="numba", appauthor=False).user_cache_dir)
    except ImportError:  # dev.py without the environment: the same rule for the usual systems
        if sys.platform == "darwin":
            return Path("~/Library/Caches/numba").expanduser()
        if os.name == "nt":
            return Path(os.environ.get("LOCALAPPDATA", "~")).expanduser() / "numba" / "Cache"
        return Path(os.environ.get("XDG_CACHE_HOME") or "~/.cache").expanduser() / "numba"


def cache_dirs(package_dir: Path = PACKAGE_DIR, numba_cache_dir: str | None = None) -> list[Path]:
    """Every folder where numba may keep the package's kernels: ``__pycache__`` beside each
    source folder, their places under ``numba_cache_dir`` (``$NUMBA_CACHE_DIR``) and under
    numba's user-wide cache folder."""
    package_dir = Path(package_dir)
    folders = [package_dir]
    for parent, names, _ in os.walk(package_dir):
        names[:] = sorted(n for n in names if n != "__pycache__" and not n.startswith("."))
        folders += [Path(parent) / n for n in names]
    roots = [Path(numba_cache_dir)] if numba_cache_dir else []
    roots.append(_user_wide_root())
    dirs = [f / "__pycache__" for f in folders]
    dirs += [root / _numba_subpath(f) for root in roots for f in folders]
    return dirs


def cache_files(package_dir: Path = PACKAGE_DIR, numba_cache_dir: str | None = None) -> list[Path]:
    """numba's cache files (``*.nbi``, ``*.nbc``) of the package's kernels, wherever they are."""
    files = []
    for d in cache_dirs(package_dir, numba_cache_dir):
        if d.is_dir():
            files += [p for p in d.iterdir() if p.suffix in CACHE_SUFFIXES and p.is_file()]
    return files


def clean(package_dir: Path = PACKAGE_DIR, numba_cache_dir: str | None = None) -> int:
    """Delete :func:`cache_files`; return how many were removed (kernels recompile on next use)."""
    removed = 0
    for path in cache_files(package_dir, numba_cache_dir):
        path.unlink(missing_ok=True)
        removed += 1
    return removed
