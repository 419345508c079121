"""workbench.sweep: grids and cells, the serial, local-process and Dask backends, results files,
resuming, and faults (a worker killed mid-sweep, a file cut short, a damaged or foreign file, a
cell that raises)."""

import io
import json
import logging
import os
import pickle
import signal
import warnings

import numpy as np
import pandas as pd
import pytest

from workbench import evaluate, learners, streams, sweep
from workbench.sweep import schema, storage
from workbench.sweep.cells import Cell, canonical, expand

VOLATILE = list(schema.VOLATILE)

SMALL = {"sea": {"n": 3_000}}


# ----------------------------------------------------------------------------- helpers
# Workers import these by name ("test_sweep:..."): spawned processes get pytest's sys.path.
class SuicidalTree(learners.HoeffdingTree):
    """A Hoeffding tree whose process dies (SIGKILL) the first time it is built with a marker
    file that does not exist yet; afterwards it is an ordinary Hoeffding tree."""

    def __init__(self, n_features, n_classes, *, marker, **kwargs):
        if not os.path.exists(marker):
            with open(marker, "w") as fh:
                fh.write(str(os.getpid()))
                fh.flush()
                os.fsync(fh.fileno())
            os.kill(os.getpid(), signal.SIGKILL)
        self.marker = marker
        super().__init__(n_features, n_classes, **kwargs)


class DoomedTree(learners.HoeffdingTree):
    """Kills its process every time, and counts its victims in a file."""

    def __init__(self, n_features, n_classes, *, tally, **kwargs):
        with open(tally, "a") as fh:
            fh.write("x")
            fh.flush()
            os.fsync(fh.fileno())
        os.kill(os.getpid(), signal.SIGKILL)


CALLS = []


def counted_accuracy(result, model):
    """A metric that counts how often cells are computed (in this process: backend='serial')."""
    CALLS.append(1)
    return result.accuracy


def leaves_per_kilo(result, model):
    return 1000.0 * model.n_leaves / result.n


def seeded_draws(seed, n=5, fail_on=None):
    """A function of a seed for sweep.apply: a few draws of numpy's generator, and the pid."""
    if seed == fail_on:
        raise ArithmeticError(f"seed {seed} is refused")
    x = np.random.default_rng(seed).random(n)
    return {"mean": float(x.mean()), "first": float(x[0]), "pid": os.getpid()}


def _same_results(a: pd.DataFrame, b: pd.DataFrame):
    cols = [c for c in a.columns if c not in VOLATILE]
    pd.testing.assert_frame_equal(a[cols].reset_index(drop=True), b[cols].reset_index(drop=True))


def _data_lines(path):
    return path.read_bytes().split(b"\n")[1:-1]


# ----------------------------------------------------------------------------- grids and cells
def test_grid_forms_expand_to_the_expected_cells():
    cells = expand(
        "HoeffdingTree",
        {"grace_period": [50, 100], "delta": [1e-7, 1e-5, 1e-3], "criterion": "gini"},
        SMALL,
        seeds=[1, 2],
    )
    assert len(cells) == 2 * 3 * 2
    assert [c.params["grace_period"] for c in cells[:6]] == [50] * 6
    assert {c.params["criterion"] for c in cells} == {"gini"}
    assert [c.seed for c in cells[:4]] == [1, 2, 1, 2]
    assert len({c.cell_id for c in cells}) == len(cells)

    listed = expand(
        ["HoeffdingTree"], [{"delta": 1e-7}, {"delta": 1e-3, "tau": 0.1}], "sea", seeds=[3]
    )
    assert [c.params for c in listed] == [{"delta": 1e-7}, {"delta": 1e-3, "tau": 0.1}]

    per = expand(
        {"CTree": {"delta": [0.1, 0.2]}, "HoeffdingTree": {"delta": [1e-7]}},
        None,
        [("sea", {"n": 500}), ("rand_cbt", {"n": 500, "seed": [4, 5, 6]})],
        seeds=[1],
    )
    assert [c.learner for c in per].count("CTree") == 2 * (1 + 3)
    assert [c.learner for c in per].count("HoeffdingTree") == 1 * (1 + 3)
    same = expand(
        ["CTree", learners.HoeffdingTree],
        {learners.HoeffdingTree: {"delta": [1e-7]}, "CTree": {"delta": [0.1, 0.2]}},
        [("sea", {"n": 500}), ("rand_cbt", {"n": 500, "seed": [4, 5, 6]})],
        seeds=[1],
    )
    assert sorted(c.cell_id for c in per) == sorted(c.cell_id for c in same)

    data = expand("HoeffdingTree", None, ["electricity", "sea"], seeds=[1, 2])
    assert [(c.stream, c.seed) for c in data] == [("electricity", None), ("sea", 1), ("sea", 2)]


def test_cell_identity_is_stable_and_depends_on_everything_that_matters():
    a = Cell("HoeffdingTree", {"delta": 1e-7}, "sea", {"n": 1000}, 1)
    assert a.cell_id == Cell("HoeffdingTree", {"delta": 1e-7}, "sea", {"n": 1000}, 1).cell_id
    assert (
        a.cell_id
        == Cell(
            "HoeffdingTree", {"delta": np.float64(1e-7)}, "sea", {"n": np.int64(1000)}, 1
        ).cell_id
    )
    assert len(a.cell_id) == 20 and int(a.cell_id, 16) >= 0
    others = [
        Cell("HoeffdingTree", {"delta": 1e-6}, "sea", {"n": 1000}, 1),
        Cell("CTree", {"delta": 1e-7}, "sea", {"n": 1000}, 1),
        Cell("HoeffdingTree", {"delta": 1e-7}, "sea", {"n": 1001}, 1),
        Cell("HoeffdingTree", {"delta": 1e-7}, "led", {"n": 1000}, 1),
        Cell("HoeffdingTree", {"delta": 1e-7}, "sea", {"n": 1000}, 2),
        Cell(
            "HoeffdingTree",
            {"delta": 1e-7},
            "sea",
            {"n": 1000},
            1,
            metrics=(("accuracy", "accuracy"),),
        ),
        Cell("HoeffdingTree", {"delta": 1e-7}, "sea", {"n": 1000}, 1, curve_points=10),
    ]
    assert len({a.cell_id, *(o.cell_id for o in others)}) == 1 + len(others)


def test_a_cell_is_a_small_description_not_data():
    cell = expand("HoeffdingTree", None, {"random_tree": {"n": 500_000}}, seeds=[7])[0]
    assert len(pickle.dumps(cell)) < 2_000
    assert cell.learner == "HoeffdingTree" and cell.stream == "random_tree" and cell.seed == 7
    assert cell.describe().startswith("HoeffdingTree{} on random_tree")


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(learners="NoSuchTree", streams=SMALL), "unknown learner 'NoSuchTree'"),
        (dict(learners="HoeffdingTree", streams="nosuchstream"), "unknown stream 'nosuchstream'"),
        (dict(learners="HoeffdingTree", grid={"deltaa": [1]}, streams=SMALL), "deltaa"),
        (
            dict(learners="HoeffdingTree", grid={"n_features": [3]}, streams=SMALL),
            "n_features comes from each stream",
        ),
        (dict(learners="HoeffdingTree", grid={"delta": []}, streams=SMALL), "empty list"),
        (
            dict(learners="HoeffdingTree", grid=[{"delta": 1e-7}, {"delta": 1e-7}], streams=SMALL),
            "same cell twice",
        ),
        (
            dict(learners="HoeffdingTree", grid={"HoeffdingTree": {}, "delta": [1]}, streams=SMALL),
            "mixes learner names",
        ),
        (dict(learners="HoeffdingTree", streams={"sea": {"nn": 5}}), "stream 'sea'"),
        (dict(learners="HoeffdingTree", streams={"sea": {"return_info": True}}), "return_info"),
        (dict(learners="HoeffdingTree", streams=SMALL, seeds=[None]), "seeds must be non-negative"),
        (dict(learners="HoeffdingTree", streams=SMALL, seeds=[-1]), "seeds must be non-negative"),
        (dict(learners="HoeffdingTree", streams={"electricity": {"seed": 3}}), "takes no seed"),
        (dict(learners="HoeffdingTree", streams=SMALL, metrics=["acuracy"]), "unknown metric"),
        (
            dict(learners="HoeffdingTree", streams=SMALL, metrics=[lambda r, m: 1.0]),
            "not importable by name",
        ),
        (
            dict(learners="HoeffdingTree", streams=SMALL, metrics=["accuracy", "accuracy"]),
            "listed twice",
        ),
        (dict(learners="HoeffdingTree", streams=SMALL, metrics={"seed": "accuracy"}), "clash"),
        (dict(learners="HoeffdingTree", streams=SMALL, protocol="half"), "protocol must be"),
        (
            dict(learners="HoeffdingTree", streams=SMALL, evaluate_kwargs={"budget": 0.5}),
            "protocol='active'",
        ),
        (
            dict(learners="HoeffdingTree", streams=SMALL, evaluate_kwargs={"speed": 2}),
            "evaluate_kwargs",
        ),
        (dict(learners="HoeffdingTree", streams=SMALL, curve_points=-1), "curve_points"),
        (dict(learners="HoeffdingTree", streams=SMALL, results="out.txt"), r"\.csv"),
        (dict(learners="HoeffdingTree", streams=SMALL, backend="gpu"), "backend must be"),
        (dict(learners="HoeffdingTree", streams=SMALL, processes=0), "processes"),
        (dict(learners="HoeffdingTree", streams=SMALL, backend="dask"), "needs client"),
        (
            dict(
                learners="HoeffdingTree",
                streams=SMALL,
                backend="serial",
                address="tcp://127.0.0.1:1",
            ),
            "contradicts",
        ),
        (dict(learners="HoeffdingTree", streams=None), "streams is required"),
        (dict(learners="HoeffdingTree", streams=SMALL, max_attempts=0), "max_attempts"),
        (dict(learners="HoeffdingTree", streams=SMALL, chunk_seconds=0), "chunk_seconds"),
        (dict(learners=[], streams=SMALL), "learners must be .*; got an empty list"),
        (dict(learners=["HoeffdingTree", learners.HoeffdingTree], streams=SMALL), "listed twice"),
    ],
)
def test_bad_input_gives_a_clear_value_error(kwargs, match, tmp_path):
    with pytest.raises(ValueError, match=match):
        sweep.run(**kwargs, progress=False)


def test_canonical_describes_data_and_refuses_what_it_cannot_name():
    assert canonical({"a": (1, 2), 3: np.int64(4)}) == {"a": [1, 2], "3": 4}
    with pytest.raises(ValueError, match="cannot describe"):
        canonical({"x": object()})


def test_active_protocol_is_refused_when_evaluate_has_no_strategy(monkeypatch):
    def full_only(model, X, y, *, n_points=500, window=1000, keep_predictions=True):
        raise AssertionError("never called")

    monkeypatch.setattr(evaluate, "prequential", full_only)
    with pytest.raises(ValueError, match="does not accept a label-query strategy"):
        sweep.run(
            "HoeffdingTree",
            None,
            SMALL,
            protocol="active",
            evaluate_kwargs={"strategy": "x", "budget": 0.3},
            progress=False,
        )


def test_active_protocol_passes_the_strategy_through():
    import inspect

    if "strategy" not in inspect.signature(evaluate.prequential).parameters:
        pytest.skip("workbench.evaluate has no ACTIVE protocol yet (refusal tested above)")
    from workbench import active

    with pytest.raises(ValueError, match="needs a label-query strategy"):
        sweep.run("HoeffdingTree", None, SMALL, protocol="active", progress=False)
    strategy = active.Random(seed=3)
    kw = dict(
        protocol="active",
        evaluate_kwargs={"strategy": strategy, "budget": 0.25},
        metrics=["accuracy", "query_rate"],
        backend="serial",
        progress=False,
    )
    df = sweep.run("HoeffdingTree", None, SMALL, seeds=[1, 2], **kw)
    assert (df.error == "").all()
    assert (df.labels_used < df.n).all() and df.query_rate.between(0.15, 0.3).all()
    # each cell starts from the strategy's initial state: the same sweep again is identical
    _same_results(df, sweep.run("HoeffdingTree", None, SMALL, seeds=[1, 2], **kw))
    X, y = streams.sea(n=3_000, seed=2)
    direct = evaluate.prequential(
        learners.HoeffdingTree(3, 2), X, y, strategy=active.Random(seed=3), budget=0.25
    )
    assert df.labels_used[1] == direct.labels_used and df.accuracy[1] == direct.accuracy


# ----------------------------------------------------------------------------- what a cell measures
def test_rows_hold_what_the_protocol_measures():
    df = sweep.run(
        ["HoeffdingTree", "CTree"],
        None,
        [("sea", {"n": 4_000}), "electricity"],
        ["accuracy", "kappa", "f_measure_0", ("recall", 1), leaves_per_kilo, "n_leaves"],
        seeds=[5],
        backend="serial",
        progress=False,
        curve_points=20,
    )
    assert len(df) == 4 and (df.error == "").all()
    assert list(df.columns[: len(schema.HEAD)]) == schema.HEAD
    X, y, info = streams.electricity(return_info=True)
    model = learners.HoeffdingTree(n_features=info.n_features, n_classes=info.n_classes)
    res = evaluate.prequential(model, X, y)
    row = df[(df.learner == "HoeffdingTree") & (df.stream == "electricity")].iloc[0]
    assert pd.isna(row.seed) and row.n == len(y) == row.labels_used
    assert row.accuracy == res.accuracy and row.kappa == res.kappa
    assert row.f_measure_0 == res.f_measure(0) and row.recall_1 == res.recall(1)
    assert row.n_leaves == model.n_leaves and row.depth == model.depth
    assert row.leaves_per_kilo == pytest.approx(1000 * model.n_leaves / len(y))
    assert 0 < row.seconds <= row.cell_seconds and 0 < row.cpu_seconds
    assert len(row.curve) == len(row.curve_t) == 20
    assert row.curve_t[-1] == res.t[-1] and row.curve[-1] == pytest.approx(res.curve[-1], abs=1e-6)
    assert json.loads(row.params) == {} and row.protocol == "full"


def test_a_cell_that_raises_records_its_error_and_the_sweep_goes_on(tmp_path):
    df = sweep.run(
        "HoeffdingTree",
        {"delta": [1e-7, 2.0, 1e-3]},
        SMALL,
        seeds=[1, 2],
        results=tmp_path / "r.csv",
        backend="serial",
        progress=False,
    )
    bad = df[df.delta == 2.0]
    assert len(bad) == 2 and bad.error.str.startswith("ValueError: delta must be").all()
    assert bad.accuracy.isna().all() and bad.n_leaves.isna().all()
    good = df[df.delta != 2.0]
    assert (good.error == "").all() and good.accuracy.between(0.6, 1).all()
    assert len(_data_lines(tmp_path / "r.csv")) == 6

    CALLS.clear()
    kw = dict(
        metrics=[counted_accuracy], results=tmp_path / "c.csv", backend="serial", progress=False
    )
    sweep.run("HoeffdingTree", {"delta": [1e-7, 2.0]}, SMALL, **kw)
    assert len(CALLS) == 1  # the failing cell never reaches a metric
    again = sweep.run("HoeffdingTree", {"delta": [1e-7, 2.0]}, SMALL, **kw)
    assert len(CALLS) == 1 and len(again) == 2  # failed cell ran again, finished one did not
    assert len(_data_lines(tmp_path / "c.csv")) == 3
    sweep.run("HoeffdingTree", {"delta": [1e-7, 2.0]}, SMALL, **kw, rerun_errors=False)
    assert len(_data_lines(tmp_path / "c.csv")) == 3


# ----------------------------------------------------------------------------- backends
GRID = {"grace_period": [100, 300], "delta": [1e-7, 2.0]}  # delta 2.0: error cells
STREAMS = [("sea", {"n": 5_000}), ("random_tree", {"n": 4_000}), "electricity"]


@pytest.fixture(scope="module")
def serial_results():
    return sweep.run(
        "HoeffdingTree",
        GRID,
        STREAMS,
        ["accuracy", "kappa"],
        seeds=[1, 2],
        backend="serial",
        progress=False,
    )


@pytest.fixture(scope="module")
def local_results(tmp_path_factory):
    path = tmp_path_factory.mktemp("local") / "r.parquet"
    df = sweep.run(
        "HoeffdingTree",
        GRID,
        STREAMS,
        ["accuracy", "kappa"],
        seeds=[1, 2],
        processes=2,
        results=path,
        progress=False,
    )
    return df, path


def test_local_processes_give_the_serial_results_cell_for_cell(serial_results, local_results):
    df, path = local_results
    assert len(df) == 4 * 5 and (df.error != "").sum() == 2 * 5
    _same_results(serial_results, df)
    assert not df.worker.str.contains(f":{os.getpid()}$").any()  # ran in other processes
    # (pandas 3 turns a string index back into a 'str' column: compare the values as objects)
    reloaded = sweep.load(path).set_index("cell_id").loc[df.cell_id].reset_index()
    _same_results(df, reloaded.astype({"cell_id": object}))


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.CRITICAL,
    ) as lc:
        with distributed.Client(lc) as client:
            yield lc, client


def test_dask_local_cluster_gives_the_local_results_cell_for_cell(local_results, cluster, tmp_path):
    lc, client = cluster
    local, _ = local_results
    df = sweep.run(
        "HoeffdingTree",
        GRID,
        STREAMS,
        ["accuracy", "kappa"],
        seeds=[1, 2],
        client=client,
        results=tmp_path / "d.csv",
        progress=False,
    )
    _same_results(local, df)
    workers = {f":{pid}" for pid in client.run(os.getpid).values()}
    assert {w[w.index(":") :] for w in df.worker} <= workers  # ran on the cluster
    by_address = sweep.run(
        "HoeffdingTree",
        GRID,
        STREAMS[:1],
        ["accuracy", "kappa"],
        seeds=[1],
        address=lc.scheduler_address,
        progress=False,
    )
    _same_results(local[:1], by_address[:1])
    assert not client.status == "closed"  # our client is not closed by run()


def test_apply_runs_a_function_of_a_seed_on_every_backend(cluster):
    """sweep.apply: the same rows in this process, in local workers and on Dask, one per
    (keyword set, seed), each equal to a direct call."""
    lc, client = cluster
    kw = [{"n": 5}, {"n": 50}]
    serial = sweep.apply(seeded_draws, [3, 1, 2], kw, backend="serial", progress=False)
    local = sweep.apply("test_sweep:seeded_draws", [3, 1, 2], kw, processes=2, progress=False)
    on_dask = sweep.apply(seeded_draws, [3, 1, 2], kw, client=client, progress=False)
    assert list(serial.seed) == [3, 1, 2, 3, 1, 2]
    for k in serial.kwargs:
        assert json.loads(k) in kw
    want = [seeded_draws(s, **json.loads(k))["mean"] for k, s in zip(serial.kwargs, serial.seed)]
    for df in (serial, local, on_dask):
        assert list(df["mean"]) == want and (df.error == "").all()
    assert set(serial.pid) == {os.getpid()}
    assert os.getpid() not in set(local.pid) and os.getpid() not in set(on_dask.pid)
    assert set(on_dask.pid) <= set(client.run(os.getpid).values())
    # workbench.claims runs a paper's seeds the same way: one row per seed, parts merged
    from workbench import claims

    per_seed = claims.run_seeds(seeded_draws, [3, 1], {"n": 5}, client=client, progress=False)
    assert list(per_seed.seed) == [3, 1]
    assert list(per_seed["mean"]) == [seeded_draws(s, n=5)["mean"] for s in (3, 1)]


def test_apply_reports_a_failing_call_and_refuses_bad_input():
    with pytest.raises(RuntimeError, match="1 of 3 calls failed; the first, seed 2: Arith"):
        sweep.apply(seeded_draws, [1, 2, 3], {"fail_on": 2}, backend="serial", progress=False)
    df = sweep.apply(
        seeded_draws, [1, 2], {"fail_on": 2}, backend="serial", progress=False, errors="keep"
    )
    assert df.error.iloc[0] == "" and df.error.iloc[1].startswith("ArithmeticError: seed 2")
    for kwargs, match in [
        (dict(function=lambda seed: {}, seeds=[1]), "not importable"),
        (dict(function="test_sweep.seeded_draws", seeds=[1]), "module:function"),
        (dict(function=leaves_per_kilo, seeds=[1]), "seed="),
        (dict(function=seeded_draws, seeds=[-1]), "non-negative"),
        (dict(function=seeded_draws, seeds=[1, 1]), "same cell twice"),
        (dict(function=seeded_draws, seeds=[1], kwargs={"seed": 2}), "must not hold seed"),
        (dict(function=seeded_draws, seeds=[1], kwargs={"m": 2}), "unexpected keyword"),
        (dict(function=seeded_draws, seeds=[1], errors="ignore"), "errors must be"),
    ]:
        with pytest.raises(ValueError, match=match):
            sweep.apply(**kwargs, backend="serial", progress=False)


def test_dask_worker_killed_mid_sweep_every_cell_once(cluster, tmp_path):
    lc, client = cluster
    marker = tmp_path / "killed"
    path = tmp_path / "k.csv"
    pids = set(client.run(os.getpid).values())
    grids = {
        "HoeffdingTree": {"grace_period": [100, 200, 300]},
        SuicidalTree: {"grace_period": [200], "marker": [str(marker)]},
        "CTree": {"delta": [0.1]},
    }  # cells still to come after the kill
    df = sweep.run(grids, None, SMALL, seeds=[1, 2, 3], client=client, results=path, progress=False)
    assert marker.exists() and int(marker.read_text()) in pids  # a worker process did die
    assert len(df) == 15 and (df.error == "").all()
    ids = [line.split(b",", 1)[0] for line in _data_lines(path)]
    assert sorted(ids) == sorted(x.encode() for x in df.cell_id)  # each cell written once
    suicidal = df[df.learner.str.endswith("SuicidalTree")].reset_index(drop=True)
    plain = df[(df.learner == "HoeffdingTree") & (df.grace_period == 200)].reset_index(drop=True)
    assert list(suicidal.accuracy) == list(plain.accuracy)  # the retried cell computed right


def test_local_worker_killed_mid_sweep_every_cell_once(tmp_path):
    marker = tmp_path / "killed"
    path = tmp_path / "k.csv"
    grids = {
        "HoeffdingTree": {"grace_period": [100, 200, 300]},
        SuicidalTree: {"grace_period": [200], "marker": [str(marker)]},
        "CTree": {"delta": [0.1]},
    }  # cells still to come after the kill
    df = sweep.run(grids, None, SMALL, seeds=[1, 2, 3], processes=2, results=path, progress=False)
    assert marker.exists() and int(marker.read_text()) != os.getpid()
    assert len(df) == 15 and (df.error == "").all()
    ids = [line.split(b",", 1)[0] for line in _data_lines(path)]
    assert sorted(ids) == sorted(x.encode() for x in df.cell_id)
    suicidal = df[df.learner.str.endswith("SuicidalTree")].reset_index(drop=True)
    plain = df[(df.learner == "HoeffdingTree") & (df.grace_period == 200)].reset_index(drop=True)
    assert list(suicidal.accuracy) == list(plain.accuracy)


def test_a_cell_that_always_kills_its_worker_is_recorded_as_an_error(tmp_path):
    tally = tmp_path / "tally"
    grids = {"HoeffdingTree": {"grace_period": [100, 200]}, DoomedTree: {"tally": [str(tally)]}}
    df = sweep.run(grids, None, SMALL, seeds=[1], processes=1, max_attempts=2, progress=False)
    doomed = df[df.learner.str.endswith("DoomedTree")]
    assert len(doomed) == 1 and doomed.error.iloc[0].startswith("WorkerDied")
    assert len(tally.read_text()) == 1 + 2  # once among others, then twice alone
    assert (df[df.learner == "HoeffdingTree"].error == "").all()


def test_workers_do_not_import_the_callers_script(tmp_path):
    """Without the usual ``if __name__ == "__main__":`` guard, a script must still run its
    sweep once: spawned workers are started without the script."""
    import subprocess
    import sys

    script = tmp_path / "unguarded.py"
    script.write_text(
        "from workbench import sweep\n"
        "print('script body runs', flush=True)\n"
        "df = sweep.run('HoeffdingTree', None, {'sea': {'n': 500}},\n"
        "               seeds=[1, 2, 3], processes=2, progress=False)\n"
        "print('cells', len(df), int((df.error == '').sum()))\n"
    )
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.splitlines() == ["script body runs", "cells 3 3"]


SLEEPY = """
import os, time
from pathlib import Path

def sleep_and_tell(seed, folder):
    Path(folder, f"{os.getpid()}.pid").write_text(str(seed))
    time.sleep(120)
    return {"slept": 1}
"""

PARENT = """
import sys
from workbench import sweep
sweep.apply("sleepy_cells:sleep_and_tell", seeds=[1, 2], kwargs={"folder": sys.argv[1]},
            processes=2, progress=False)
"""


def _gone(pid: int) -> bool:
    psutil = pytest.importorskip("psutil")
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE  # nobody reaps it here
    except psutil.NoSuchProcess:
        return True


def test_workers_and_resource_tracker_end_when_the_parent_is_killed(tmp_path):
    """A sweep's parent killed with SIGKILL (no clean-up can run in it) left its two workers
    (about 230 MB each) and multiprocessing's resource tracker running for ever."""
    import subprocess
    import sys
    import time

    psutil = pytest.importorskip("psutil")
    (tmp_path / "sleepy_cells.py").write_text(SLEEPY)
    (tmp_path / "parent.py").write_text(PARENT)
    folder = tmp_path / "pids"
    folder.mkdir()
    parent = subprocess.Popen([sys.executable, "parent.py", str(folder)], cwd=tmp_path)
    try:
        deadline = time.monotonic() + 240
        while len(list(folder.glob("*.pid"))) < 2:
            assert parent.poll() is None, "the sweep ended before its cells started"
            assert time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.2)
        workers = [int(f.stem) for f in folder.glob("*.pid")]
        children = psutil.Process(parent.pid).children()
        tracker = [c.pid for c in children if "resource_tracker" in " ".join(c.cmdline())]
        assert set(workers) <= {c.pid for c in children} and len(tracker) == 1
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 20
        while not all(_gone(pid) for pid in workers + tracker):
            assert time.monotonic() < deadline, [(pid, _gone(pid)) for pid in workers + tracker]
            time.sleep(0.2)
    finally:
        if parent.poll() is None:
            parent.kill()
        for pid in [int(f.stem) for f in folder.glob("*.pid")]:
            if not _gone(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_dask_cluster_without_workers_is_an_error_after_a_stated_time(monkeypatch):
    """With every worker gone, sweep.run waited silently (still after 120 s)."""
    import time

    distributed = pytest.importorskip("distributed")
    monkeypatch.setenv("WORKBENCH_DASK_NO_WORKER_TIMEOUT", "2")
    with distributed.LocalCluster(
        n_workers=0, processes=False, dashboard_address=":0", silence_logs=logging.CRITICAL
    ) as lc:
        with distributed.Client(lc) as client:
            start = time.monotonic()
            with pytest.raises(RuntimeError, match="has had no worker for 2 s, so the sweep's"):
                sweep.run("HoeffdingTree", None, SMALL, seeds=[1], client=client, progress=False)
            assert time.monotonic() - start < 30


# ----------------------------------------------------------------------------- resuming
def test_a_csv_cut_short_resumes_without_recomputing_finished_cells(tmp_path):
    path = tmp_path / "r.csv"
    kw = dict(
        learners="HoeffdingTree",
        grid={"grace_period": [100, 200]},
        streams=SMALL,
        metrics=[counted_accuracy],
        seeds=[1, 2, 3],
        results=path,
        backend="serial",
        progress=False,
    )
    CALLS.clear()
    full = sweep.run(**kw)
    assert len(CALLS) == 6
    data = path.read_bytes()
    lines = data.split(b"\n")
    keep = b"\n".join(lines[:4]) + b"\n" + lines[4][: len(lines[4]) // 2]  # header + 3 + half
    path.write_bytes(keep)
    CALLS.clear()
    with pytest.warns(UserWarning, match="line 5 was cut short"):
        resumed = sweep.run(**kw)
    assert len(CALLS) == 3  # only the three lost cells ran again
    _same_results(full, resumed)
    new = path.read_bytes()
    assert new.startswith(b"\n".join(lines[:4]) + b"\n")  # finished lines kept byte for byte
    assert len(_data_lines(path)) == 6
    CALLS.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pd.testing.assert_frame_equal(resumed, sweep.run(**kw))
    assert CALLS == []  # a finished sweep computes nothing
    _same_results(resumed, sweep.load(path))

    path.write_bytes(b"cell_id,lea")  # even the header cut short
    CALLS.clear()
    sweep.run(**kw)
    assert len(CALLS) == 6


def test_a_damaged_or_foreign_csv_is_an_error_and_left_alone(tmp_path):
    path = tmp_path / "r.csv"
    kw = dict(
        learners="HoeffdingTree",
        streams=SMALL,
        seeds=[1, 2, 3],
        results=path,
        backend="serial",
        progress=False,
    )
    sweep.run(**kw)
    data = path.read_bytes()
    damaged = data.replace(b"HoeffdingTree", b"HoeffdingTreX", 1)
    path.write_bytes(damaged)
    with pytest.raises(ValueError, match="line 2: the checksum does not match"):
        sweep.run(**kw)
    assert path.read_bytes() == damaged

    path.write_bytes(data)
    with pytest.raises(ValueError, match="measured the metrics"):
        sweep.run(**{**kw, "metrics": ["accuracy"]})
    assert path.read_bytes() == data

    other_version = tmp_path / "old.csv"
    other_version.write_text("cell_id,learner,accuracy,crc\n")
    with pytest.raises(ValueError, match="not the ones this version of workbench.sweep writes"):
        sweep.run(**{**kw, "results": other_version})
    assert other_version.read_text() == "cell_id,learner,accuracy,crc\n"

    foreign = tmp_path / "theirs.csv"
    foreign.write_text("a,b,c\n1,2,3\n")
    with pytest.raises(ValueError, match="not a workbench sweep results file"):
        sweep.run(**{**kw, "results": foreign})
    assert foreign.read_text() == "a,b,c\n1,2,3\n"
    with pytest.raises(ValueError, match="not a workbench sweep results file"):
        sweep.load(foreign)


def test_parquet_folder_resumes_and_rejects_damage(tmp_path):
    path = tmp_path / "r.parquet"
    kw = dict(
        learners="HoeffdingTree",
        streams=SMALL,
        metrics=[counted_accuracy],
        results=path,
        backend="serial",
        progress=False,
    )
    CALLS.clear()
    first = sweep.run(**kw, seeds=[1, 2])
    (path / ".tmp-part-00000000000000000001-1-1.parquet").write_bytes(b"PAR1 half a part")
    both = sweep.run(**kw, seeds=[1, 2, 3, 4])
    assert len(CALLS) == 4  # 2, then only the 2 new cells
    _same_results(first, both[:2])
    parts = sorted(os.listdir(path))
    assert parts[0] == ".lock" and len(parts) == 2  # merged into one part, temp part gone
    assert len(pd.read_parquet(path)) == 4
    part = path / parts[1]
    part.write_bytes(part.read_bytes()[:100])
    with pytest.raises(ValueError, match="cannot be read"):
        sweep.run(**kw, seeds=[1])
    (tmp_path / "x.parquet").mkdir()
    (tmp_path / "x.parquet" / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="did not write"):
        sweep.run(**{**kw, "results": tmp_path / "x.parquet"}, seeds=[1])
    (tmp_path / "y.parquet").write_text("a file")
    with pytest.raises(ValueError, match="is a file"):
        sweep.run(**{**kw, "results": tmp_path / "y.parquet"}, seeds=[1])


def test_a_results_file_in_use_by_another_sweep_is_refused(tmp_path):
    cols = schema.columns(["accuracy"])
    store = storage.open_results(tmp_path / "r.csv", cols)
    try:
        with pytest.raises(ValueError, match="another sweep that is still running"):
            storage.open_results(tmp_path / "r.csv", cols)
    finally:
        store.close()
    storage.open_results(tmp_path / "r.csv", cols).close()


# ----------------------------------------------------------------------------- progress
def test_progress_bar_counts_cells_rate_and_errors(tmp_path):
    out = io.StringIO()
    sweep.run(
        "HoeffdingTree",
        {"delta": [1e-7, 2.0]},
        SMALL,
        seeds=[1, 2],
        backend="serial",
        results=tmp_path / "p.csv",
        progress={"file": out, "mininterval": 0},
    )
    text = out.getvalue()
    assert "4/4" in text and "cell/s" in text and "errors=2" in text
    out = io.StringIO()
    sweep.run(
        "HoeffdingTree",
        {"delta": [1e-7, 2.0]},
        SMALL,
        seeds=[1, 2, 3],
        backend="serial",
        results=tmp_path / "p.csv",
        rerun_errors=False,
        progress={"file": out, "mininterval": 0},
    )
    text = out.getvalue()
    assert text.startswith("\rsweep:  67%") and "4/6" in text  # resumed: starts at 4
    assert "6/6" in text and "errors=3" in text
