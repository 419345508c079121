"""Shared helpers of the benchmark scripts: where results go, what machine ran them, the MOA runner.

Nothing here is part of the ``workbench`` package: the benchmarks compare it with River and MOA
(through CapyMOA's bundled ``moa.jar``), which only the ``bench`` extra installs.

MOA is run in two ways, both with the whole loop inside Java:

* in process, through CapyMOA's JVM (JPype): the identical stream is written to an ARFF file, read
  into memory by Java (Weka's ARFF reader, converted to MOA instances), checked value by value
  against the numpy arrays on a sample of rows, then ``moa.evaluation.EfficientEvaluationLoops
  .PrequentialEvaluation`` runs test-then-train over every instance in one Java call, with a
  ``BasicClassificationPerformanceEvaluator`` (cumulative accuracy, no window).  That one call is
  timed with ``time.perf_counter`` around it: no JVM start-up, no ARFF parsing, no Python per
  instance.
* as MOA's own command line, ``java -cp moa.jar moa.DoTask "EvaluatePrequential ..."`` reading the
  same ARFF file: a cross-check that the in-process run gives the same accuracy, and the command a
  reader can paste to reproduce MOA's figure without Python.  Its "evaluation time (cpu seconds)"
  includes parsing the ARFF file and a cold JIT, so it is recorded but not used for the ratios.
"""

from __future__ import annotations

import csv
import datetime as _dt
import hashlib
import importlib.metadata
import importlib.util
import itertools
import json
import os
import platform
import shlex
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
RESULTS = BENCH_DIR / "results"
TMP = RESULTS / "tmp"  # git-ignored: ARFF files, MOA dump files, scratch caches


def ensure_repo_on_path() -> None:
    """Let the scripts run from a checkout even when the package is not pip-installed."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


def precompile() -> float:
    """Compile (or load from the cache) the workbench's kernels with ``python -m
    workbench.precompile`` before anything is timed; returns its seconds.  What the cache
    lacks it compiles under a fixed hash seed, so a run of the same sources times the same
    machine code; a kernel compiled by the timing process at its first call would be one draw
    among several layouts, whose speed differed by up to 4% (``workbench.precompile``'s
    docstring).  Kernels already in the cache are kept: after compiling by other means, empty
    ``workbench/**/__pycache__`` first."""
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "workbench.precompile"],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - t0


# --------------------------------------------------------------------------------------------
# The machine and the software
# --------------------------------------------------------------------------------------------


def utc_now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def loadavg() -> str:
    """The 1, 5 and 15 minute load averages: how busy the machine was around a measurement."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "n/a"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def mem_total_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 2**20, 1)
    except OSError:
        pass
    return None


def rss_mib() -> float:
    """Resident set size of this process (VmRSS in /proc/self/status), MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024.0
    raise RuntimeError("VmRSS not found in /proc/self/status")


def _version(dist: str) -> str | None:
    """Installed version of a distribution, read from its metadata (nothing is imported: importing
    capymoa would start a JVM)."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def java_version(java: str = "java") -> str | None:
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    lines = (out.stderr or out.stdout).strip().splitlines()
    return " / ".join(lines[:2]) if lines else None


def machine_info(with_java: bool = True) -> dict:
    """Where and with what a measurement was made: CPU, cores, memory, load, versions."""
    info = {
        "date": utc_now(),
        "cpu": cpu_model(),
        "nproc": os.cpu_count(),
        "mem_total_gib": mem_total_gib(),
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "numpy": _version("numpy"),
        "numba": _version("numba"),
        "river": _version("river"),
        "capymoa": _version("capymoa"),
        "loadavg_start": loadavg(),
    }
    try:
        out = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--", "workbench"],
            capture_output=True,
            text=True,
            timeout=30,
        ).stdout.strip()
        info["git"] = out.stdout.strip() + (
            " (workbench/ has uncommitted changes)" if dirty else ""
        )
    except (OSError, subprocess.TimeoutExpired):
        info["git"] = None
    if with_java:
        info["java"] = java_version()
        jar = moa_jar()
        if jar is not None:
            info["moa_jar"] = moa_jar_version(jar)
    return info


def machine_lines(info: dict) -> list[str]:
    """The machine description as Markdown bullet lines."""
    lines = [
        f"- Measured: {info['date']}, git {info.get('git') or 'n/a'}",
        f"- Machine: {info['cpu']}, {info['nproc']} cores (nproc), {info.get('mem_total_gib')} GiB, "
        f"{info['os']}; load average (1/5/15 min) {info.get('loadavg_start')} at start, "
        f"{info.get('loadavg_end', 'n/a')} at end",
        f"- Software: Python {info['python']}, numpy {info['numpy']}, numba {info['numba']}, "
        f"River {info.get('river') or 'not installed'}, CapyMOA {info.get('capymoa') or 'not installed'}, "
        f"moa.jar {info.get('moa_jar') or 'n/a'}, Java {info.get('java') or 'n/a'}",
    ]
    return lines


# --------------------------------------------------------------------------------------------
# Writing results
# --------------------------------------------------------------------------------------------


def markdown_table(headers: list[str], rows: list[list[str]]) -> str:
    out = ["| " + " | ".join(headers) + " |", "| " + " | ".join("---" for _ in headers) + " |"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out)


def write_results(
    stem: str, markdown: str, data: dict, directory: Path = RESULTS
) -> tuple[Path, Path]:
    """Write ``<stem>.md`` and ``<stem>.json`` under ``directory``; return both paths."""
    directory.mkdir(parents=True, exist_ok=True)
    md_path, json_path = directory / f"{stem}.md", directory / f"{stem}.json"
    md_path.write_text(markdown.rstrip() + "\n")
    json_path.write_text(json.dumps(data, indent=2, default=_json_default) + "\n")
    return md_path, json_path


def _json_default(obj):
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (np.floating,)):
        return float(obj)
    if isinstance(obj, Path):
        return str(obj)
    return str(obj)


def read_json(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def fmt_rate(x: float | None) -> str:
    return "—" if x is None else f"{x:,.0f}"


def fmt_pct(x: float | None) -> str:
    return "—" if x is None else f"{100.0 * x:.2f}%"


def fmt_ratio(x: float | None) -> str:
    return "—" if x is None else f"{x:.1f}x"


# --------------------------------------------------------------------------------------------
# ARFF: the identical stream for MOA
# --------------------------------------------------------------------------------------------


def write_arff(path: Path, X: np.ndarray, y: np.ndarray, info) -> str:
    """Write ``(X, y)`` as ARFF; return which writer was used.

    Uses ``workbench.streams.write_arff`` when the package has it.  Whatever writes the file, the
    MOA runner reads it back in Java and compares values with ``X`` and ``y`` before timing.
    """
    try:
        from workbench import streams

        writer = getattr(streams, "write_arff", None)
    except ImportError:
        writer = None
    if writer is not None:
        writer(path, X, y, info=info)
        return "workbench.streams.write_arff"
    _fallback_write_arff(path, X, y, info)
    return "benchmarks._common._fallback_write_arff (workbench.streams.write_arff not available)"


def _fallback_write_arff(path: Path, X: np.ndarray, y: np.ndarray, info) -> None:
    """FALLBACK ONLY, used while ``workbench.streams.write_arff`` does not exist.

    Numeric values are written with 17 significant digits (``%.17g``), which Java's
    ``Double.parseDouble`` turns back into the same double; nominal columns and the class are
    written as their integer codes, declared ``{0,1,...}`` so that MOA's value index equals the code.
    NaN becomes ARFF's missing value ``?``.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.int64)
    n, d = X.shape
    nominal = dict(getattr(info, "nominal_features", {}) or {})
    names = list(getattr(info, "feature_names", None) or [f"x{j}" for j in range(d)])
    n_classes = int(getattr(info, "n_classes", 0) or (int(y.max()) + 1))
    lines = ["@relation " + str(getattr(info, "name", "stream")), ""]
    for j in range(d):
        name = _arff_name(names[j])
        if j in nominal:
            values = ",".join(str(v) for v in range(int(nominal[j])))
            lines.append(f"@attribute {name} {{{values}}}")
        else:
            lines.append(f"@attribute {name} numeric")
    lines.append("@attribute class {" + ",".join(str(k) for k in range(n_classes)) + "}")
    lines += ["", "@data", ""]
    cols = []
    for j in range(d):
        col = X[:, j]
        if j in nominal:
            txt = np.where(
                np.isnan(col), "?", np.char.mod("%d", np.nan_to_num(col).astype(np.int64))
            )
        else:
            txt = np.where(np.isnan(col), "?", np.char.mod("%.17g", col))
        cols.append(txt.astype(object))
    cols.append(np.char.mod("%d", y).astype(object))
    with open(path, "w") as f:
        f.write("\n".join(lines))
        rows = zip(*cols)
        for _ in range(0, n, 50_000):
            chunk = [",".join(r) for _, r in zip(range(50_000), rows)]
            f.write("\n".join(chunk) + "\n")


def _arff_name(name: str) -> str:
    name = str(name)
    if any(c in name for c in " ,{}%'\"\t"):
        return "'" + name.replace("'", "\\'") + "'"
    return name


# --------------------------------------------------------------------------------------------
# MOA
# --------------------------------------------------------------------------------------------


def moa_jar() -> Path | None:
    """The moa.jar that CapyMOA bundles (or ``$CAPYMOA_MOA_JAR``), found without starting a JVM."""
    if os.environ.get("CAPYMOA_MOA_JAR"):
        jar = Path(os.environ["CAPYMOA_MOA_JAR"])
        return jar if jar.exists() else None
    spec = importlib.util.find_spec("capymoa")
    if spec is None or not spec.submodule_search_locations:
        return None
    jar = Path(list(spec.submodule_search_locations)[0]) / "jar" / "moa.jar"
    return jar if jar.exists() else None


def moa_jar_version(jar: Path) -> str:
    """Maven version inside the jar plus the first 12 hex digits of its SHA-256."""
    version = "?"
    try:
        with zipfile.ZipFile(jar) as z:
            props = z.read("META-INF/maven/nz.ac.waikato.cms.moa/moa/pom.properties").decode()
        for line in props.splitlines():
            if line.startswith("version="):
                version = line.split("=", 1)[1].strip()
    except (OSError, KeyError, zipfile.BadZipFile):
        pass
    h = hashlib.sha256()
    with open(jar, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return f"{version} (sha256 {h.hexdigest()[:12]})"


def moa_hoeffding_cli(
    grace_period=200, delta=1e-7, tau=0.05, n_split_points=10, learner="trees.HoeffdingTree"
) -> str:
    """MOA's HoeffdingTree with every parameter the benchmark fixes spelt out.

    Information gain, adaptive naive Bayes leaves (NBAdaptive, nb threshold 0), Gaussian numeric
    observer with 10 split points, multiway nominal splits (no -b), pre-pruning on (no -p), poor
    attributes kept (no -r).  ``-m`` raises the memory cap to the largest int, and River's cap is
    raised the same way, so that neither deactivates leaves on a long stream (at the benchmark's
    default sizes no cap is reached anyway: MOA and River check every million instances).
    ``learner`` may be another tree with these options (``"trees.EFDT -R 2000"``).
    """
    return (
        f"{learner} -g {grace_period} -c {delta!r} -t {tau!r} "
        f"-s InfoGainSplitCriterion -l NBAdaptive -q 0 "
        f"-n (GaussianNumericAttributeClassObserver -n {n_split_points}) "
        f"-d NominalAttributeClassObserver -m 2147483647"
    )


class MoaRunner:
    """MOA inside this process, through CapyMOA's JVM; the learning loop runs inside Java."""

    def __init__(self):
        # CapyMOA would create ./data for its data sets if asked; keep it in the scratch folder.
        os.environ.setdefault("CAPYMOA_DATASETS_DIR", str(TMP / "capymoa_data"))
        TMP.mkdir(parents=True, exist_ok=True)
        import capymoa  # noqa: F401  (starts the JVM with moa.jar on the class path)
        import jpype

        self.jpype = jpype
        from java.lang import System  # type: ignore[import-not-found]

        self._System = System
        self.java_version = (
            f"{System.getProperty('java.version')} ({System.getProperty('java.vm.name')})"
        )

    def load_arff(
        self, path: Path, X: np.ndarray, y: np.ndarray, n_check: int = 2000, seed: int = 0
    ):
        """Read the whole ARFF file into Java memory; check it against ``(X, y)``; return instances."""
        from java.io import BufferedReader, FileReader  # type: ignore[import-not-found]
        from weka.core import Instances as WekaInstances  # type: ignore[import-not-found]
        from com.yahoo.labs.samoa.instances import WekaToSamoaInstanceConverter  # type: ignore

        reader = BufferedReader(FileReader(str(path)))
        try:
            weka = WekaInstances(reader)
        finally:
            reader.close()
        weka.setClassIndex(weka.numAttributes() - 1)
        inst = WekaToSamoaInstanceConverter().samoaInstances(weka)
        inst.setClassIndex(inst.numAttributes() - 1)
        del weka
        n, d = X.shape
        if inst.numInstances() != n or inst.numAttributes() != d + 1:
            raise RuntimeError(
                f"ARFF read back by MOA has {inst.numInstances()} rows and "
                f"{inst.numAttributes()} attributes, expected {n} and {d + 1}"
            )
        rng = np.random.default_rng(seed)
        rows = np.unique(np.concatenate([[0, n - 1], rng.integers(0, n, size=min(n_check, n))]))
        for i in rows:
            row = inst.instance(int(i))
            got = np.array([row.value(j) for j in range(d)], dtype=np.float64)
            want = X[i]
            same = (got == want) | (np.isnan(want) & np.isnan(got))
            if not same.all() or int(row.classValue()) != int(y[i]):
                raise RuntimeError(
                    f"row {i}: MOA read {got.tolist()} / {row.classValue()} but the "
                    f"stream holds {want.tolist()} / {y[i]}"
                )
        return inst

    def prequential(self, instances, learner_cli: str) -> dict:
        """Fresh learner, test-then-train over all instances inside one Java call, timed around it."""
        from moa.classifiers import Classifier  # type: ignore[import-not-found]
        from moa.evaluation import (  # type: ignore[import-not-found]
            BasicClassificationPerformanceEvaluator,
            EfficientEvaluationLoops,
        )
        from moa.options import ClassOption  # type: ignore[import-not-found]
        from moa.streams import CachedInstancesStream  # type: ignore[import-not-found]

        stream = CachedInstancesStream(instances)
        learner = ClassOption.cliStringToObject(learner_cli, Classifier, None)
        learner.setModelContext(stream.getHeader())
        learner.prepareForUse()
        evaluator = BasicClassificationPerformanceEvaluator()
        evaluator.prepareForUse()
        # JPype runs the Java method on this OS thread, so thread_time() is its CPU time (the
        # JVM's JIT-compiler and garbage-collector threads are not in it; they are in the wall time).
        c0, t0 = time.thread_time(), time.perf_counter()
        EfficientEvaluationLoops.PrequentialEvaluation(
            stream, learner, evaluator, None, -1, 1000, False, False
        )
        seconds, cpu = time.perf_counter() - t0, time.thread_time() - c0
        n_seen = int(evaluator.getTotalWeightObserved())
        out = {
            "seconds": seconds,
            "cpu_seconds": cpu,
            "accuracy": float(evaluator.getFractionCorrectlyClassified()),
            "n": n_seen,
        }
        out.update(self._tree_size(learner))
        return out

    def _tree_size(self, learner) -> dict:
        # getModelMeasurements() also asks for the model's byte size, which prints a complaint
        # about a missing -javaagent on System.err: silence Java's stderr for that call.
        from java.io import ByteArrayOutputStream, PrintStream  # type: ignore[import-not-found]

        err = self._System.err
        self._System.setErr(PrintStream(ByteArrayOutputStream()))
        try:
            values = {str(m.getName()): float(m.getValue()) for m in learner.getModelMeasurements()}
        finally:
            self._System.setErr(err)
        return {
            "n_leaves": int(values.get("tree size (leaves)", -1)),
            "depth": int(values.get("tree depth", -1)),
        }


class OursProcesses:
    """Our timed runs spread over ``n`` processes of their own, taken in turn (run r of a
    learner in process (r + k) mod n, k counting the learners prepared so far).

    On the benchmark machine a process sometimes runs the same kernel 20-50% slower for its
    whole life (``benchmarks/README.md``, "A slow mode of whole processes"; the speed goes with
    where the process's copy of the machine code lands in physical memory, "the slow mode goes
    with a copy of the code"): all the runs of one process share its draw, so one benchmark
    process in that mode made every one of our figures slow (2026-11-28, 18:31 UTC: the 2-class
    nominal RandomTree at 11.2-11.9 ms, against 9.1-9.6 in the run before and in three of four
    fresh processes after it).  The median of runs made in several processes is not moved by
    one slow process.  The processes are spawned, not forked, so each loads the kernels from
    numba's cache into pages of its own; each prepares the learner as ``module.prepare_ours``
    does in this process (a fresh model per run, a warm-up call and an untimed full pass of its
    own) and times its runs the same way.  They do nothing between the runs they are asked
    for."""

    def __init__(self, n: int, module: str):
        import multiprocessing as mp

        ctx = mp.get_context("spawn")
        self.n = n
        self._module = module
        self._prepared = 0
        self._conns = []
        self._procs = []
        for _ in range(n):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_ours_worker, args=(child,), daemon=True)
            proc.start()
            child.close()
            self._conns.append(parent)
            self._procs.append(proc)

    def _answer(self, i: int):
        """Process i's answer: ("ok", value), or ("error", what went wrong there)."""
        try:
            return self._conns[i].recv()
        except EOFError:
            return "error", "the process died"

    @staticmethod
    def _value(i: int, answer: tuple):
        status, value = answer
        if status == "error":
            raise RuntimeError(f"in the timing process {i} of ours:\n{value}")
        return value

    def _ask(self, i: int, message: tuple):
        self._conns[i].send(message)
        return self._value(i, self._answer(i))

    def prepare(self, X, y, info, *args, **kwargs):
        """``prepare_ours(X, y, info, *args, **kwargs)`` in every process: returns (one, meta)
        as it does, ``one`` timing a run in the next process in turn, and meta of the first
        process (with every process's warm-up seconds and untimed first pass)."""
        key = self._prepared
        self._prepared += 1
        for conn in self._conns:
            conn.send(("prepare", self._module, key, X, y, info, args, kwargs))
        answers = [self._answer(i) for i in range(self.n)]  # every answer, so none is left unread
        metas = [self._value(i, answer) for i, answer in enumerate(answers)]
        meta = dict(metas[0])
        meta["processes"] = self.n
        meta["warmup_seconds_by_process"] = [m.get("warmup_seconds") for m in metas]
        if "first_pass_cpu_seconds" in meta:
            meta["first_pass_cpu_seconds_by_process"] = [
                m.get("first_pass_cpu_seconds") for m in metas
            ]
        turns = itertools.count(key)

        def one() -> dict:
            i = next(turns) % self.n
            return dict(self._ask(i, ("run", key)), process=i)

        return one, meta

    def close(self) -> None:
        for conn, proc in zip(self._conns, self._procs):
            try:
                conn.send(("stop",))
            except (BrokenPipeError, OSError):
                pass
            proc.join(timeout=10)
            if proc.is_alive():
                proc.kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _ours_worker(conn) -> None:
    """A timing process of :class:`OursProcesses`: prepares and runs what it is sent."""
    import importlib
    import traceback

    ensure_repo_on_path()
    ones = {}
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message[0] == "stop":
            return
        try:
            if message[0] == "prepare":
                _, module, key, X, y, info, args, kwargs = message
                for old in [k for k in ones if k <= key - 4]:
                    del ones[old]  # (a stream's learners are prepared together: keep the last few)
                one, meta = importlib.import_module(module).prepare_ours(
                    X, y, info, *args, **kwargs
                )
                ones[key] = one
                conn.send(("ok", meta))
            else:
                conn.send(("ok", ones[message[1]]()))
        except Exception:
            conn.send(("error", traceback.format_exc()))


def moa_cli_command(arff: Path, learner_cli: str, n: int, dump: Path, jar: Path) -> list[str]:
    task = (
        f"EvaluatePrequential -l ({learner_cli}) -s (ArffFileStream -f {arff} -c -1) "
        f"-e BasicClassificationPerformanceEvaluator -i {n} -f {n} -d {dump}"
    )
    return ["java", "-Xss10M", "-cp", str(jar), "moa.DoTask", task]


def moa_cli_prequential(arff: Path, learner_cli: str, n: int, jar: Path, tag: str) -> dict:
    """MOA's own command line on the ARFF file: accuracy and MOA's reported evaluation CPU time."""
    dump = TMP / f"moa_dump_{tag}.csv"
    TMP.mkdir(parents=True, exist_ok=True)  # git-ignored, so absent in a fresh clone
    dump.unlink(missing_ok=True)
    cmd = moa_cli_command(arff, learner_cli, n, dump, jar)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    wall = time.perf_counter() - t0
    if proc.returncode != 0 or not dump.exists():
        raise RuntimeError(f"MOA command failed ({proc.returncode}): {proc.stderr[-2000:]}")
    with open(dump) as f:
        rows = list(csv.DictReader(f))
    last = rows[-1]
    return {
        "command": " ".join(shlex.quote(c) for c in cmd),
        "accuracy": float(last["classifications correct (percent)"]) / 100.0,
        "n": int(float(last["classified instances"])),
        "cpu_seconds": float(last["evaluation time (cpu seconds)"]),
        "process_wall_seconds": wall,
        "n_leaves": int(float(last.get("tree size (leaves)", -1))),
        "depth": int(float(last.get("tree depth", -1))),
    }


def moa_cli_trace(
    arff: Path, learner_cli: str, n: int, jar: Path, tag: str, every: int = 10_000
) -> dict:
    """MOA's own command line on the ARFF file, instance by instance: the class MOA predicts for
    every row (``EvaluatePrequential -o``, the argmax of its votes, ties to the lowest class) and,
    every ``every`` rows, its accuracy so far and the tree's leaves and depth.  Both of those are
    counted by walking the tree (``findLearningNodes``, ``subtreeDepth``), unlike MOA's "tree size
    (nodes)", a counter that EFDT never decreases when it replaces a subtree."""
    dump = TMP / f"moa_trace_{tag}.csv"
    pred_file = TMP / f"moa_trace_{tag}.pred"
    TMP.mkdir(parents=True, exist_ok=True)
    for f in (dump, pred_file):
        f.unlink(missing_ok=True)
    task = (
        f"EvaluatePrequential -l ({learner_cli}) -s (ArffFileStream -f {arff} -c -1) "
        f"-e BasicClassificationPerformanceEvaluator -i {n} -f {every} -d {dump} -o {pred_file}"
    )
    cmd = ["java", "-Xss10M", "-cp", str(jar), "moa.DoTask", task]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    if proc.returncode != 0 or not dump.exists() or not pred_file.exists():
        raise RuntimeError(f"MOA command failed ({proc.returncode}): {proc.stderr[-2000:]}")
    pred = np.loadtxt(pred_file, delimiter=",", dtype=np.int64, ndmin=2)[:, 0]
    with open(dump) as f:
        rows = list(csv.DictReader(f))
    return {
        "command": " ".join(shlex.quote(c) for c in cmd),
        "pred": pred,
        "t": np.array([int(float(r["classified instances"])) for r in rows]),
        "accuracy": np.array([float(r["classifications correct (percent)"]) / 100 for r in rows]),
        "n_leaves": np.array([int(float(r.get("tree size (leaves)", -1))) for r in rows]),
        "depth": np.array([int(float(r.get("tree depth", -1))) for r in rows]),
    }


def moa_generated_stream(generator: str, n: int, seed: int):
    """``n`` instances of one of MOA's own generators (``generators.HyperplaneGenerator``,
    ``generators.AgrawalGenerator``, ...; instance seed ``-i seed``), written by MOA's
    ``WriteStreamToARFFFile`` and read back with ``workbench.streams.read_arff``: the nominal
    attributes are declared as MOA declares them (Agrawal's elevel, car and zipcode).  Cached
    under results/tmp."""
    from workbench import streams

    TMP.mkdir(parents=True, exist_ok=True)
    path = TMP / f"gen_{generator.rsplit('.', 1)[-1]}_n{n}_seed{seed}.arff"
    if not path.exists():
        task = f"WriteStreamToARFFFile -s ({generator} -i {seed}) -f {path} -m {n}"
        cmd = ["java", "-cp", str(moa_jar()), "moa.DoTask", task]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if proc.returncode != 0 or not path.exists():
            path.unlink(missing_ok=True)
            raise RuntimeError(f"MOA could not write {generator}: {proc.stderr[-2000:]}")
    return streams.read_arff(path, return_info=True)


def parity_trace(make_model, X, y, arff: Path, learner_cli: str, tag: str, every: int = 10_000):
    """Ours and MOA's own command line on the same rows, instance by instance: the rows whose
    predicted class differs, both accuracies (MOA's from its predictions), and the leaves of
    both trees at every ``every`` rows (ours counted after learning each block of ``every``
    rows, MOA's walked by ``moa_cli_trace``).  ``make_model()`` gives a fresh learner."""
    from workbench import evaluate

    moa = moa_cli_trace(arff, learner_cli, len(y), moa_jar(), tag, every)
    model = make_model()
    pred, leaves = [], []
    for a in range(0, len(y), every):
        res = evaluate.prequential(model, X[a : a + every], y[a : a + every])
        pred.append(res.predictions)
        if a + every <= len(y):
            leaves.append(int(model.n_leaves))
    pred = np.concatenate(pred)
    m = min(len(leaves), len(moa["n_leaves"]))
    same = [int(a == b) for a, b in zip(leaves[:m], moa["n_leaves"][:m].tolist())]
    return {
        "command": moa["command"],
        "moa_accuracy": float(np.mean(moa["pred"] == y)),
        "ours_accuracy": float(np.mean(pred == y)),
        "rows_differ": int(np.sum(pred != moa["pred"])),
        "first_differ": int(np.argmax(pred != moa["pred"])) if np.any(pred != moa["pred"]) else -1,
        "checkpoints": [every * (i + 1) for i in range(m)],
        "leaves_ours": leaves[:m],
        "leaves_moa": moa["n_leaves"][:m].tolist(),
        "sizes_equal": int(sum(same)),
        "n_checkpoints": m,
    }


def parity_row(label: str, p: dict | None) -> list[str]:
    """One row of the parity table from :func:`parity_trace`'s result."""
    if not isinstance(p, dict) or "error" in p:
        why = p.get("error", "not run") if isinstance(p, dict) else "not run"
        return [label, "—", "—", "—", "—", f"error: {why}"[:80]]
    dpp = 100 * (p["ours_accuracy"] - p["moa_accuracy"])
    return [
        label,
        f"{100 * p['ours_accuracy']:.3f}%",
        f"{100 * p['moa_accuracy']:.3f}%",
        f"{dpp:+.3f}",
        f"{p['rows_differ']:,}" + (f" (first {p['first_differ']:,})" if p["rows_differ"] else ""),
        f"{p['sizes_equal']} of {p['n_checkpoints']}"
        + (
            ""
            if p["sizes_equal"] == p["n_checkpoints"]
            else f" (ours {p['leaves_ours'][-1]}, MOA {p['leaves_moa'][-1]} at the last)"
        ),
    ]


PARITY_HEADERS = [
    "stream, seed",
    "acc ours",
    "acc MOA (its own command line)",
    "ours − MOA (pp)",
    "rows predicted differently",
    "leaves equal at the 10k checkpoints",
]


def parity_checks(label: str, p: dict | None, everywhere: float, identical: float) -> list:
    """(what, ok) targets: accuracy within ``identical`` pp of MOA where the trees are the same
    size at every checkpoint, within ``everywhere`` pp on every stream."""
    if not isinstance(p, dict) or "error" in p:
        return [(f"{label}: accuracy vs MOA (not measured)", None)]
    dpp = abs(100 * (p["ours_accuracy"] - p["moa_accuracy"]))
    same = p["sizes_equal"] == p["n_checkpoints"]
    limit = identical if same else everywhere
    kind = "trees the same size throughout" if same else "trees differ"
    return [(f"{label}: |acc − MOA| {dpp:.3f} pp <= {limit:g} ({kind})", dpp <= limit)]


# --------------------------------------------------------------------------------------------
# benchmarks/README.md: the latest results between markers
# --------------------------------------------------------------------------------------------

README = BENCH_DIR / "README.md"


def update_readme_block(
    name: str, markdown: str, readme: Path = README, demote: bool = True
) -> bool:
    """Replace the text between ``<!-- name:begin -->`` and ``<!-- name:end -->`` in the README.

    Headings of the result file are dropped three levels so they sit under the README's own
    "### ..." sections.
    Returns False (and changes nothing) when the markers are missing.
    """
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    try:
        text = readme.read_text()
    except OSError:
        return False
    if begin not in text or end not in text:
        return False
    body = "\n".join(
        ("###" + line) if demote and line.startswith("#") else line
        for line in markdown.strip().splitlines()
    )
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    readme.write_text(f"{head}{begin}\n{body}\n{end}{tail}")
    return True
