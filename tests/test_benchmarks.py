"""The benchmark scripts' own judgements: a run whose MOA timing is off is not judged, and
the profiler credits each sample to the right place."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import bench_hoeffding as H  # noqa: E402


def _results(per_row: dict) -> dict:
    """Results as the benchmarks save them: MOA's learner alone per stream-and-seed key."""
    n = 100_000
    return {
        key: {"moa": {"n": n, "learner_alone": {"cpu_seconds": t * n, "seconds": t * n}}}
        for key, t in per_row.items()
    }


def test_moa_runs_off_for_a_whole_stream_are_not_judged():
    # RandomTree's first seed as on 2026-11-28 10:10 UTC (0.58 s against 0.19 s): flagged,
    # at its factor to the median of the stream's three seeds; its other seeds and the other
    # streams (seeds 1.6x apart, as different seeds of one stream can be) are not
    runs = {
        "random_tree#1": 5.84e-6,
        "random_tree#2": 1.86e-6,
        "random_tree#3": 1.94e-6,
        "sea#1": 3.0e-7,
        "sea#2": 3.1e-7,
        "sea#3": 4.8e-7,
    }
    flagged = H.moa_unsteady(_results(runs))
    assert list(flagged) == ["random_tree#1"]
    assert abs(flagged["random_tree#1"] - 5.84 / 1.94) < 1e-9
    # a run far faster than its stream's other seeds is not judged either
    fast = H.moa_unsteady(_results({**runs, "sea#3": 1.2e-7}))
    assert set(fast) == {"random_tree#1", "sea#3"}
    # two seeds cannot tell which one is off, a single one has no reference: nothing flagged
    assert (
        H.moa_unsteady(_results({"agrawal#1": 1e-6, "agrawal#2": 5e-6, "electricity": 1e-6})) == {}
    )
    # the report shows such a run's ratio and says why it is not judged
    assert H.verdict_unknown("x" + H.NOT_JUDGED) == "not judged"
    assert H.verdict_unknown("x: not measured yet") == "not measured"


def test_profile_credits_reference_counts_by_name():
    # a kernel at 0x10000 with two functions, numba's NRT_incref and NRT_decref elsewhere in
    # anonymous memory 16 bytes apart, as numba lays them out
    import profile_kernel as P

    base, syms = 0x10000, [(0x0, "run_stream"), (0x400, "leaf_decision")]
    nrt = {"NRT_incref": 0x90000, "NRT_decref": 0x90010}
    jit = "/tmp/perf-123.map"

    def where(ip, dso=jit):
        return P.credit(ip, dso, base, syms, nrt)

    assert where(base + 0x10) == "kernel: run_stream"
    assert where(base + 0x400) == "kernel: leaf_decision"
    assert where(0x90005) == "JIT: NRT_incref"
    assert where(0x90010) == "JIT: NRT_decref"
    assert where(0x90010 + 0x1C) == "JIT: NRT_decref"  # its jump to the destructor
    assert where(0x90040) == "JIT, other module (a user's function, tally, screen of X, ...)"
    assert where(0x7000, "/usr/lib/x86_64-linux-gnu/libm.so.6") == "libm.so.6"


def test_ours_timed_in_processes_of_its_own_in_turn():
    # two timing processes: the runs alternate between them, each a fresh model learning the
    # same stream to the same accuracy as a run in this process, and a learner's failure there
    # comes back as an error that says where it happened
    import os

    import _common as C
    from workbench import streams

    X, y, info = streams.sea(3_000, seed=1, return_info=True)
    local_one, local_meta = H.prepare_ours(X, y, info)
    here = local_one()
    with C.OursProcesses(2, "bench_hoeffding") as pool:
        one, meta = pool.prepare(X, y, info)
        runs = [one() for _ in range(3)]
        assert [r["process"] for r in runs] == [0, 1, 0]
        assert {r["accuracy"] for r in runs} == {here["accuracy"]}
        assert {r["n_leaves"] for r in runs} == {here["n_leaves"]}
        assert meta["constructor"] == local_meta["constructor"]
        assert meta["processes"] == 2 and len(meta["warmup_seconds_by_process"]) == 2
        # each process made one untimed full pass after its short warm-up call
        assert local_meta["first_pass_cpu_seconds"] > 0
        assert all(t > 0 for t in meta["first_pass_cpu_seconds_by_process"])
        # the next learner starts one process further on
        one_efdt, _ = pool.prepare(X, y, info, "EFDT")
        assert one_efdt()["process"] == 1
        try:
            pool.prepare(X, y, info, "NoSuchLearner")
        except RuntimeError as exc:
            assert "timing process 0" in str(exc) and "NoSuchLearner" in str(exc)
        else:
            raise AssertionError("a learner that does not exist was prepared")
        # and the processes go on answering in step after it
        again, _ = pool.prepare(X, y, info)
        assert again()["accuracy"] == here["accuracy"]
        pids = [p.pid for p in pool._procs]
        assert len(set(pids)) == 2 and os.getpid() not in pids
    assert not any(p.is_alive() for p in pool._procs)
