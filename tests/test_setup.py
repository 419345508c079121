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
    return req.strip()[len(_name(req)):].strip()


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
        assert conda[cname] == spec, f"{cname}: pyproject says {spec!r}, environment.yml " \
                                     f"{conda[cname]!r}"
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
    spec.loader.exec_module(module)          # defines functions only: nothing runs on import
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
        assert cmd[1:3] == ["lab", str(ROOT / "notebooks")]
        assert cmd[3:] == extra + ["--no-browser"]
