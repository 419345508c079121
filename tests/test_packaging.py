"""The package as someone without dev.py gets it: ``pip install .`` into a fresh virtual
environment (dependencies from the package registry), then the README's first example.

The distribution has a name of its own (``workbench`` on PyPI is an unrelated package); the
import name stays ``workbench``.  Everything the package and the notebooks read at run time
ships in it: the data sets and the stored claims runs (every tracked file of ``workbench/`` that
is not Python).  The example runs from a folder outside the checkout, so that it imports the
installed package, with an empty numba cache: its first use compiles the kernels it needs, and
the test prints how long that took.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
import tomllib
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DIST = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["name"]


def first_example() -> str:
    """The README's first Python code block."""
    readme = (ROOT / "README.md").read_text()
    return re.findall(r"```python\n(.*?)```", readme, re.S)[0]


def test_the_distribution_has_a_name_of_its_own_and_the_readme_says_so():
    assert DIST == "streaming-trees-workbench"
    readme = (ROOT / "README.md").read_text()
    assert DIST in readme and "pip install ." in readme
    # the README says that the import name is shared with an unrelated PyPI package
    assert re.search(r"import name `workbench`.*unrelated", readme, re.S)


def test_the_first_example_is_short_and_runs_on_shipped_data():
    code = first_example()
    assert len(code.strip().splitlines()) <= 12
    assert "streams.electricity" in code and "print(" in code
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)  # here, with the checkout's package
    assert 0.7 < namespace["res"].accuracy < 0.9


def _tracked_data() -> list[str]:
    out = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "workbench"], capture_output=True, text=True
    )
    if out.returncode != 0:
        pytest.skip("not a git checkout: the tracked files cannot be listed")
    return sorted(p for p in out.stdout.split() if not p.endswith(".py"))


@pytest.mark.slow
def test_pip_install_into_a_fresh_environment_runs_the_first_example(tmp_path):
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    t0 = time.perf_counter()
    pip = subprocess.run(
        [py, "-m", "pip", "install", "-q", "--disable-pip-version-check", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    installed_in = time.perf_counter() - t0
    if pip.returncode != 0 and re.search(
        r"(NewConnectionError|Could not find a version|No matching distribution)", pip.stderr
    ):
        pytest.skip(f"the package registry is not reachable: {pip.stderr.strip()[-300:]}")
    assert pip.returncode == 0, pip.stderr[-3000:]
    # its name, and every data file the package and the notebooks read
    probe = subprocess.run(
        [
            py,
            "-c",
            "import importlib.metadata as m, pathlib, workbench; "
            f"print(m.version({DIST!r})); print(pathlib.Path(workbench.__file__).parent)",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
    )
    assert probe.returncode == 0, probe.stderr
    version, where = probe.stdout.split()
    site = Path(where)
    assert site.parent.name == "site-packages" and version == "0.1.0"
    missing = [p for p in _tracked_data() if not (site.parent / p).is_file()]
    assert not missing, f"not in the installed package: {missing}"
    # the README's first example, outside the checkout, its kernels compiled afresh
    script = tmp_path / "first_example.py"
    script.write_text(first_example())
    t0 = time.perf_counter()
    run = subprocess.run(
        [py, str(script)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=1800,
        env={"PATH": str(env_dir / "bin"), "HOME": str(tmp_path), "NUMBA_CACHE_DIR": ""},
    )
    first_use = time.perf_counter() - t0
    assert run.returncode == 0, run.stderr[-3000:]
    # the same numbers as the checkout's package gives (bit for bit: the same code)
    namespace: dict = {}
    exec(compile(first_example(), "README.md", "exec"), namespace)
    res, model = namespace["res"], namespace["model"]
    assert f"{res.accuracy:.4f}" in run.stdout and f"{model.n_leaves} leaves" in run.stdout
    print(
        f"\npip install . took {installed_in:.0f} s; the first example's first use "
        f"(compiling its kernels) took {first_use:.0f} s of wall time",
        file=sys.stderr,
    )
