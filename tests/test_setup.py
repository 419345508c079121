"""The set-up files agree with each other: pyproject.toml, environment.yml, README, CI."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# pip name -> conda-forge name where they differ
CONDA_NAME = {"graphviz": "python-graphviz"}


def _name(req: str) -> str:
    return re.split(r"[<>=!~\[ ;]", req.strip(), maxsplit=1)[0].lower()


def _spec(req: str) -> str:
    return req.strip()[len(_name(req)) :].strip()


def test_environment_yml_matches_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {_name(r): _spec(r) for r in project["dependencies"]}
    wanted.update({_name(r): _spec(r) for r in project["optional-dependencies"]["dev"]})
    lines = (ROOT / "environment.yml").read_text().splitlines()
    conda = {}
    for line in lines:
        m = re.match(r"\s+-\s+([A-Za-z0-9_.\-]+)\s*([<>=!~][^#\s]*)?", line)
        if m:
            conda[m.group(1).lower()] = (m.group(2) or "").strip()
    for name, spec in wanted.items():
        cname = CONDA_NAME.get(name, name)
        assert cname in conda, f"{cname} (from pyproject) is missing in environment.yml"
        assert conda[cname] == spec, (
            f"{cname}: pyproject says {spec!r}, environment.yml {conda[cname]!r}"
        )
    assert "graphviz" in conda, "environment.yml must bring Graphviz's dot binary"
    assert any(re.match(r"\s+-\s+-e \.$", ln) for ln in lines), "the package itself via pip"
    assert re.search(r"python=3\.11", "\n".join(lines))


def test_readme_opens_with_the_two_commands_and_ci_runs_the_test_one():
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```(?:bash|sh)?\n(.*?)```", readme, re.S)
    first = [ln.split("#")[0].strip() for ln in blocks[0].splitlines() if ln.strip()]
    assert first == ["python3 dev.py lab", "python3 dev.py test"], first
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python3 dev.py test" in ci


def _load_dev():
    import importlib.util

    spec = importlib.util.spec_from_file_location("dev_script", ROOT / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # defines functions only: nothing runs on import
    return module


def test_lab_command_starts_jupyterlab_as_root_too(monkeypatch):
    """JupyterLab refuses to run as root unless told; `dev.py lab` must work on a root box."""
    dev = _load_dev()
    calls = []
    for step in ("ensure_venv", "ensure_graphviz", "precompile"):
        monkeypatch.setattr(dev, step, lambda *a, **k: None)
    monkeypatch.setattr(dev.subprocess, "call", lambda cmd, **k: calls.append(cmd) or 0)
    monkeypatch.chdir(ROOT)
    for uid, extra in ((0, ["--allow-root"]), (1000, [])):
        monkeypatch.setattr(dev.os, "geteuid", lambda uid=uid: uid)
        calls.clear()
        assert dev.cmd_lab(["--no-browser"]) == 0
        cmd = calls[0]
        # rooted at the repository (a notebook's link to ../docs opens), opened on notebooks/
        assert cmd[1:4] == [
            "lab",
            f"--ServerApp.root_dir={ROOT}",
            "--LabApp.default_url=/lab/tree/notebooks",
        ]
        assert cmd[4:] == extra + ["--no-browser"]


def test_clean_command_removes_numba_cache_files_and_nothing_else(tmp_path, monkeypatch, capsys):
    """`dev.py clean` deletes numba's cache (*.nbi, *.nbc) of the workbench's kernels, wherever
    numba keeps them (``__pycache__``, NUMBA_CACHE_DIR, numba's user-wide folder), says how many
    files it removed, and leaves sources, bytecode and other packages' kernels alone."""
    dev = _load_dev()
    kc = dev.kernel_cache_module()
    root, cache, xdg = tmp_path / "repo", tmp_path / "numba_cache", tmp_path / "xdg"
    monkeypatch.setenv("XDG_CACHE_HOME", str(xdg))
    core = root / "workbench" / "core"
    stale = [
        core / "__pycache__" / "engine.run_stream-12.py311.nbi",
        core / "__pycache__" / "engine.run_stream-12.py311.1.nbc",
        root / "workbench" / "__pycache__" / "_rng.seed_state-44.py311.nbi",
        cache / kc._numba_subpath(core) / "split.attempt-7.py311.nbc",
        kc._user_wide_root() / kc._numba_subpath(core) / "split.attempt-7.py311.nbi",
    ]
    kept = [
        core / "engine.py",
        core / "__pycache__" / "engine.cpython-311.pyc",
        root / "tests" / "__pycache__" / "kernel.nbi",  # outside workbench/
        cache / "otherpkg_0123abcd" / "theirs.py311.nbc",  # another package's kernels
    ]
    for path in stale + kept:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x")
    assert xdg in stale[-1].parents  # numba's own rule for its user-wide folder
    assert dev.clean_numba_cache(root, str(cache)) == 5
    assert not any(p.exists() for p in stale) and all(p.exists() for p in kept)
    assert dev.clean_numba_cache(root, str(cache)) == 0

    # the command: ROOT and NUMBA_CACHE_DIR from the environment, and a count in its message
    for path in stale[:2]:
        path.write_bytes(b"x")
    monkeypatch.setattr(dev, "ROOT", root)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    assert dev.cmd_clean([]) == 0
    assert "removed 2 numba cache files" in capsys.readouterr().out
    assert not any(p.exists() for p in stale[:2])
    assert "clean" in dev.COMMANDS and "dev.py clean" in dev.__doc__


def test_set_up_leaves_the_staleness_check_to_the_package(monkeypatch):
    """lab, test and book precompile through ``python -m workbench.precompile`` and nothing else:
    the package itself recompiles kernels whose sources changed (tests/test_kernel_cache.py),
    so the set-up keeps no hash of its own and deletes nothing."""
    dev = _load_dev()
    calls = []
    monkeypatch.setattr(dev, "run", lambda cmd, **k: calls.append([str(c) for c in cmd]))
    dev.precompile()
    assert calls == [[str(dev.PY), "-m", "workbench.precompile"]]
    assert not hasattr(dev, "drop_stale_kernels") and not hasattr(dev, "kernel_sources_hash")


def test_test_command_lints_before_pytest_and_stops_on_lint_errors(monkeypatch):
    """`dev.py test` runs `ruff check .` first; a lint error fails the command before pytest."""
    dev = _load_dev()
    steps = ("ensure_venv", "ensure_graphviz", "ensure_chromium", "ensure_java", "precompile")
    for step in steps:
        monkeypatch.setattr(dev, step, lambda *a, **k: None)
    monkeypatch.chdir(ROOT)
    for ruff_rc in (0, 1):
        calls = []

        def call(cmd, ruff_rc=ruff_rc, calls=calls, **k):
            calls.append([Path(cmd[0]).name, *cmd[1:]])
            return ruff_rc if Path(cmd[0]).name.startswith("ruff") else 0

        monkeypatch.setattr(dev.subprocess, "call", call)
        rc = dev.cmd_test(["-q"])
        assert calls[0][:3] == ["ruff", "check", "."]
        if ruff_rc:
            assert rc == 1 and len(calls) == 1  # pytest never started
        else:
            assert rc == 0 and calls[-1][1:] == ["-m", "pytest", "-q"]
            assert any(c[:3] == ["ruff", "format", "--check"] for c in calls) == dev.FORMAT_CHECK


def test_ruff_is_configured_and_in_the_dev_extra():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "ruff" in {_name(r) for r in pyproject["project"]["optional-dependencies"]["dev"]}
    ruff = pyproject["tool"]["ruff"]
    assert ruff["line-length"] == 100 and ruff["target-version"] == "py311"
    assert {"E", "F", "W", "B"} <= set(ruff["lint"]["select"])
    assert ruff["format"]["quote-style"] == "double"


def _dev():
    import importlib.util

    spec = importlib.util.spec_from_file_location("_workbench_dev", ROOT / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_lab_set_up_turns_the_news_pop_up_off(tmp_path):
    """`dev.py lab` writes JupyterLab's overrides.json: no news pop-up, no update check; the
    settings exist in the installed JupyterLab's schema (a misspelt key would be ignored)."""
    import json
    import sys

    dev = _dev()
    settings = tmp_path / "share" / "jupyter" / "lab" / "settings"
    settings.mkdir(parents=True)
    (settings / "overrides.json").write_text(json.dumps({"@x/y:z": {"a": 1}}))
    path = dev.write_lab_settings(tmp_path)
    assert path == settings / "overrides.json"
    written = json.loads(path.read_text())
    assert written["@x/y:z"] == {"a": 1}  # the user's own overrides stay
    notification = written["@jupyterlab/apputils-extension:notification"]
    assert notification["fetchNews"] == "false" and notification["checkForUpdates"] is False
    schema_file = (
        Path(sys.prefix)
        / "share/jupyter/lab/schemas/@jupyterlab/apputils-extension/notification.json"
    )
    schema = json.loads(schema_file.read_text())["properties"]
    assert {"fetchNews", "checkForUpdates"} <= set(schema)
    assert "false" in [choice["const"] for choice in schema["fetchNews"]["oneOf"]]
    # and dev.py lab writes it before starting JupyterLab
    source = (ROOT / "dev.py").read_text()
    lab = source[source.index("def cmd_lab") :]
    assert lab.index("write_lab_settings()") < lab.index('"lab"')


def test_lab_set_up_keeps_widget_messages_on_the_kernels_main_thread(tmp_path):
    """JupyterLab 4.6 sends widget messages to a kernel subshell by default, which ipykernel 7
    runs in a thread of its own beside the cell being run: two threads drawing with matplotlib
    at once ("ValueError ... ParseException" in 01's schedule widget).  The set-up turns it off,
    with a value the installed JupyterLab's schema knows (the browser test sees the thread)."""
    import json
    import sys

    written = json.loads(_dev().write_lab_settings(tmp_path).read_text())
    kernels = written["@jupyterlab/apputils-extension:kernels-settings"]
    assert kernels == {"commsOverSubshells": "disabled"}
    schema_file = (
        Path(sys.prefix)
        / "share/jupyter/lab/schemas/@jupyterlab/apputils-extension/kernels-settings.json"
    )
    schema = json.loads(schema_file.read_text())["properties"]["commsOverSubshells"]
    assert "disabled" in [choice["const"] for choice in schema["oneOf"]]


def test_test_command_brings_river_capymoa_and_java_when_it_can(tmp_path, monkeypatch):
    """`dev.py test` installs the bench extra (River, CapyMOA) as optional and Java with
    apt-get (as `dev.py bench` does); where pip cannot install the extra it installs the rest,
    and the tests that need them are skipped with the reason (tests/test_interop.py)."""
    dev = _load_dev()
    calls = []
    monkeypatch.setattr(dev, "ensure_venv", lambda *a, **k: calls.append(("venv", a, k)))
    monkeypatch.setattr(dev, "ensure_java", lambda: calls.append(("java",)))
    for step in ("ensure_graphviz", "ensure_chromium", "precompile"):
        monkeypatch.setattr(dev, step, lambda *a, **k: None)
    monkeypatch.setattr(dev, "lint", lambda: 0)
    monkeypatch.setattr(dev.subprocess, "call", lambda *a, **k: 0)
    monkeypatch.chdir(ROOT)
    assert dev.cmd_test([]) == 0
    assert ("venv", ("dev",), {"optional": "bench"}) in calls and ("java",) in calls
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]["bench"]
    assert {_name(r) for r in extras} == {"river", "capymoa"}

    # the optional install fails (no registry): the required extras are installed all the same
    monkeypatch.undo()
    dev = _load_dev()
    py = tmp_path / "bin" / "python"
    py.parent.mkdir()
    py.write_text("")
    monkeypatch.setattr(dev, "VENV", tmp_path)
    monkeypatch.setattr(dev, "PY", py)
    runs = []

    def run(cmd, **k):
        runs.append(str(cmd[-1]))
        if str(cmd[-1]).endswith("[dev,bench]"):
            raise dev.subprocess.CalledProcessError(1, cmd)

    monkeypatch.setattr(dev, "run", run)
    dev.ensure_venv("dev", optional="bench")
    assert runs[-2:] == [f"{dev.ROOT}[dev,bench]", f"{dev.ROOT}[dev]"]
    assert (tmp_path / ".setup-stamp").exists()
    runs.clear()
    dev.ensure_venv("dev", optional="bench")  # stamped: not again until pyproject.toml changes
    assert runs == []
