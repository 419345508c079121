"""workbench.viz: DOT export, static rendering, fast mode, the stepper and its controls."""

import asyncio
import math
import pickle
import re

import numpy as np
import pytest

from workbench import evaluate, streams, viz
from workbench.learners import HoeffdingTree
from workbench.viz.render import INSTALL_HINT

SMALL = {"delta": (1e-9, 0.1, "log"), "tau": (0.0, 0.2)}  # controls, grace period fixed
NODE = re.compile(r'^\s*n(\d+) \[label="([^"]*)", class="([^"]*)"(.*)\];$', re.M)
EDGE = re.compile(r'^\s*n(\d+) -> n(\d+) \[label="([^"]*)"(.*)\];$', re.M)


def _nodes(dot):
    return {
        int(m.group(1)): (m.group(2), m.group(3).split(), m.group(4)) for m in NODE.finditer(dot)
    }


def _edges(dot):
    return [(int(a), int(b), label, rest) for a, b, label, rest in EDGE.findall(dot)]


def _same(a, b):
    return a == b or (math.isnan(a) and math.isnan(b))


def _state(model):
    return pickle.dumps(model.tree)


@pytest.fixture(scope="module")
def sea():
    return streams.sea(n=6_000, seed=1)


@pytest.fixture(scope="module")
def grown(sea):
    X, y = sea
    return HoeffdingTree(3, 2, grace_period=50, delta=1e-2).partial_fit(X, y)


def make_ht(**p):
    return HoeffdingTree(3, 2, **p)


# ----------------------------------------------------------------------------- DOT
def _weight(v: float) -> str:
    """A weight as the labels print it: whole numbers with thousands separators, fractions
    (children start from the parent's estimated branch counts) with 4 significant digits."""
    if v == int(v):
        return f"{int(v):,}"
    return f"{v:,.4g}" if v < 1e4 else f"{v:,.0f}"


def test_dot_labels_tests_counts_and_leaves(grown):
    T = grown.tree
    dot = viz.to_dot(grown)
    assert dot == grown.to_dot()
    nodes = _nodes(dot)
    assert set(nodes) == set(np.flatnonzero(T.kind >= 0))
    assert len(_edges(dot)) == grown.n_nodes - 1
    for u, (label, css, _) in nodes.items():
        lines = label.split("\\n")
        if T.kind[u] == 0:
            counts = T.class_counts[u]
            c0, c1, n = float(counts[0]), float(counts[1]), float(counts.sum())
            k = int(np.argmax(counts))
            assert lines == [
                f"leaf {u} · n={_weight(n)}",
                f"[{_weight(c0)} | {_weight(c1)}]",
                f"→ {k} ({counts[k] / n:.0%})",
            ]
            assert "wbleaf" in css
        else:
            name = grown.feature_names_[T.feature[u]]
            # VFDT's inner nodes stop counting when they split: the label says so, with the
            # count the node had then
            assert T.stats_slot[u] < 0
            assert lines == [
                f"{name} ≤ {T.threshold[u]:.4g}",
                f"n={_weight(float(T.class_counts[u].sum()))} at split",
            ]
    for a, b, label, _ in _edges(dot):
        thr = f"{T.threshold[a]:.4g}"
        assert label == (f"≤ {thr}" if T.children[a, 0] == b else f"> {thr}")


def test_dot_highlights_the_path_and_the_leaf(grown, sea):
    X, _ = sea
    x = X[17]
    ex = grown.explain_one(x)
    dot = viz.to_dot(grown, highlight=x)
    assert dot == viz.to_dot(grown, highlight=ex)  # an Explanation works too
    on_path = {u for u, (_, css, _) in _nodes(dot).items() if "wbpath" in css}
    assert on_path == {s["node"] for s in ex.path} | {ex.leaf}
    reached = [u for u, (_, css, _) in _nodes(dot).items() if "wbreached" in css]
    assert reached == [ex.leaf]
    red = {(a, b) for a, b, _, rest in _edges(dot) if "#d62728" in rest}
    assert red == {(s["node"], int(grown.tree.children[s["node"], s["branch"]])) for s in ex.path}


def test_dot_marks_recent_splits_only(grown):
    T = grown.tree
    now = grown.n_seen
    inner = np.flatnonzero(T.kind > 0)
    latest = int(T.t_split[inner].max())
    window = now - latest + 1  # just wide enough for the latest split
    dot = viz.to_dot(grown, recent=window)
    marked = {u for u, (label, css, _) in _nodes(dot).items() if "wbrecent" in css}
    expected = {int(u) for u in inner if now - T.t_split[u] < window}
    assert marked == expected and len(expected) >= 1
    for u in marked:
        assert f"split at t={int(T.t_split[u]):,}" in _nodes(dot)[u][0]
        assert "peripheries=2" in _nodes(dot)[u][2]
    assert not any("wbrecent" in css for _, css, _ in _nodes(viz.to_dot(grown)).values())


def test_large_tree_collapses_but_keeps_the_highlighted_path():
    X, y = streams.sea(n=60_000, seed=5)
    big = HoeffdingTree(3, 2, grace_period=20, delta=0.1, tau=0.1).partial_fit(X, y)
    assert big.n_nodes >= 300
    T = big.tree
    # the deepest leaf: its path must stay expanded
    leaves = np.flatnonzero(T.kind == 0)
    deep = int(leaves[np.argmax(T.depth[leaves])])
    x = next(X[i] for i in range(X.shape[0]) if big.explain_one(X[i]).leaf == deep)
    dot = viz.to_dot(big, max_nodes=60, highlight=x)
    nodes = _nodes(dot)
    assert len(nodes) <= 60 + 2 * big.depth
    assert deep in nodes and "wbreached" in nodes[deep][1]
    collapsed = {u: label for u, (label, css, _) in nodes.items() if "wbcollapsed" in css}
    assert collapsed
    shown_leaves = sum(1 for u in nodes if T.kind[u] == 0)
    hidden = sum(
        int(re.search(r"\+ (\d+) leaves below", lab).group(1)) for lab in collapsed.values()
    )
    assert shown_leaves + hidden == big.n_leaves
    # every drawn node's parent is drawn and not collapsed
    for u in nodes:
        p = int(T.parent[u])
        assert p < 0 or (p in nodes and p not in collapsed)
    # max_depth cuts at a fixed level
    dot2 = viz.to_dot(big, max_depth=2)
    assert max(T.depth[u] for u in _nodes(dot2)) == 2


def test_nominal_tests_use_category_names():
    X, y, info = streams.random_tree(n=8_000, seed=2, return_info=True)
    model = HoeffdingTree(
        X.shape[1],
        info.n_classes,
        nominal_features=info.nominal_features,
        grace_period=50,
        delta=1e-3,
    ).partial_fit(X, y)
    T = model.tree
    multi = [u for u in np.flatnonzero(T.kind == 2)]
    assert multi, "the random tree stream should give a nominal multiway split"
    names = {j: [f"v{c}" for c in range(card)] for j, card in info.nominal_features.items()}
    dot = viz.to_dot(model, category_names=names)
    u = int(multi[0])
    labels = {b: label for a, b, label, _ in _edges(dot) if a == u}
    for branch in range(int(T.n_children[u])):
        assert labels[int(T.children[u, branch])] == f"= v{branch}"


def test_node_counts_match_routing_one_by_one(grown, sea):
    X, _ = sea
    sample = X[:400]
    T = grown.tree
    counts = viz.node_counts(grown, sample)
    brute = np.zeros_like(counts)
    times = np.arange(1, 401) * 13  # pretend rows were learned at these times
    brute_t = np.zeros_like(counts)
    for i, x in enumerate(sample):
        ex = grown.explain_one(x)
        for u in [s["node"] for s in ex.path] + [ex.leaf]:
            brute[u] += 1
            brute_t[u] += times[i] > T.t_created[u]
    assert np.array_equal(counts, brute)
    assert counts[grown.root] == 400
    assert np.array_equal(viz.node_counts(grown, sample, times), brute_t)
    with pytest.raises(ValueError, match="one entry per row"):
        viz.node_counts(grown, sample, times[:5])


def test_dot_bad_input(grown):
    with pytest.raises(ValueError, match="class_names"):
        viz.to_dot(grown, class_names=["a"])
    with pytest.raises(ValueError, match="max_nodes"):
        viz.to_dot(grown, max_nodes=0)
    with pytest.raises(ValueError, match="recent"):
        viz.to_dot(grown, recent=-1)
    with pytest.raises(ValueError, match="max_depth"):
        viz.to_dot(grown, max_depth=1.5)
    with pytest.raises(ValueError, match="node_counts"):
        viz.to_dot(grown, node_counts=np.zeros(2))
    with pytest.raises(ValueError, match="feature_names"):
        viz.to_dot(grown, feature_names=["a"])
    with pytest.raises(ValueError, match="workbench learner"):
        viz.to_dot(object())


def test_dot_escapes_quotes_in_names(grown):
    dot = viz.to_dot(
        grown, feature_names=['a"b', "c\\d", "e"], class_names=['no"', "yes"], title='say "hi"'
    )
    assert 'a\\"b' in dot and 'say \\"hi\\"' in dot
    assert _nodes(dot)  # still parses: every label is one quoted string


# ----------------------------------------------------------------------------- rendering
def _need_dot():
    if not viz.has_dot():
        if __import__("os").environ.get("CI", "").lower() == "true":
            pytest.fail("Graphviz's dot should be installed in CI (dev.py test installs it)")
        pytest.skip("Graphviz's dot is not installed")


@pytest.mark.parametrize("suffix,magic", [("svg", b"<?xml"), ("png", b"\x89PNG"), ("pdf", b"%PDF")])
def test_render_writes_files(grown, tmp_path, suffix, magic):
    _need_dot()
    path = viz.render(grown, tmp_path / f"tree.{suffix}", max_nodes=20, title="SEA")
    data = path.read_bytes()
    assert data.startswith(magic) and len(data) > 500
    if suffix == "svg":
        drawn = len(_nodes(viz.to_dot(grown, max_nodes=20)))
        assert data.decode().count('class="node') == drawn


def test_render_without_dot_says_how_to_install(grown, tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_DOT", str(tmp_path / "no-such-dot"))
    assert not viz.has_dot()
    with pytest.raises(viz.GraphvizNotFoundError) as err:
        viz.render(grown, tmp_path / "tree.svg")
    assert str(err.value) == INSTALL_HINT
    assert "apt-get install graphviz" in INSTALL_HINT and "brew install graphviz" in INSTALL_HINT
    assert not (tmp_path / "tree.svg").exists()


def test_render_rejects_unknown_formats(grown, tmp_path):
    with pytest.raises(ValueError, match="svg, png, pdf"):
        viz.render(grown, tmp_path / "tree.jpg")
    with pytest.raises(ValueError, match="svg, png, pdf"):
        viz.render(grown, tmp_path / "tree")
    with pytest.raises(ValueError, match="options apply to a model"):
        viz.render("digraph { a }", tmp_path / "x.svg", max_nodes=3)


def test_show_draws_the_dot_source_in_a_widget(grown, sea):
    X, _ = sea
    box = viz.show(grown, highlight=X[0], max_nodes=20)
    tree = box.children[-1]
    assert tree.dot_source == viz.to_dot(grown, highlight=X[0], max_nodes=20)
    assert "wb-tree" in tree._dom_classes


# ----------------------------------------------------------------------------- fast mode
def test_fast_mode_reads_the_environment(monkeypatch):
    monkeypatch.setenv("WORKBENCH_FAST", "1")
    assert viz.fast_mode() and viz.size(1000, 10) == 10
    monkeypatch.setenv("WORKBENCH_FAST", "0")
    assert not viz.fast_mode() and viz.size(1000, 10) == 1000
    monkeypatch.delenv("WORKBENCH_FAST")
    assert not viz.fast_mode()


# ----------------------------------------------------------------------------- the stepper
def test_single_steps_are_test_then_train(sea):
    X, y = sea
    s = viz.TreeStepper(lambda **p: HoeffdingTree(3, 2, grace_period=50, **p), X, y, params=SMALL)
    for _ in range(400):
        s.step()
    ref = HoeffdingTree(3, 2, grace_period=50)
    res = evaluate.prequential(ref, X[:400], y[:400])
    assert s.t == 400
    assert np.array_equal(s.pred[:400], res.predictions)
    assert _state(s.model) == _state(ref)
    assert s.accuracy == pytest.approx(res.accuracy)
    assert np.all(s.pred[400:] == -1)


def test_step_k_equals_k_single_steps(sea):
    X, y = sea
    a = viz.TreeStepper(make_ht, X, y, params={"grace_period": (10, 500)})
    b = viz.TreeStepper(make_ht, X, y, params={"grace_period": (10, 500)})
    a.set_params(grace_period=40)
    b.set_params(grace_period=40)
    for _ in range(700):
        a.step()
    b.step(300).step(400)
    assert a.t == b.t == 700
    assert np.array_equal(a.pred, b.pred)
    assert _state(a.model) == _state(b.model)
    # the counts shown in the drawing agree between the incremental and the batch way
    size = a.model.tree.kind.shape[0]
    used = a.model.tree.kind >= 0
    assert np.array_equal(a._counts[:size][used], b._counts[:size][used])
    assert a._counts[a.model.root] == 700


def test_parameter_change_replays_to_the_same_position(sea):
    X, y = sea
    s = viz.TreeStepper(make_ht, X, y)
    assert set(s.specs) == set(viz.DEFAULT_PARAMS)
    s.step(2_000)
    s.set_params(delta=1e-2, criterion="gini")
    assert s.t == 2_000 and s.model.delta == 1e-2 and s.model.criterion == "gini"
    ref = HoeffdingTree(3, 2, delta=1e-2, criterion="gini")
    res = evaluate.prequential(ref, X[:2_000], y[:2_000])
    assert _state(s.model) == _state(ref)
    assert np.array_equal(s.pred[:2_000], res.predictions)
    with pytest.raises(ValueError, match="unknown parameter"):
        s.set_params(c=2.0)
    with pytest.raises(ValueError):
        s.set_params(delta=5.0)  # the learner refuses it: nothing changes
    assert s.params["delta"] == 1e-2 and s.t == 2_000


def test_reset_and_run_to(sea):
    X, y = sea
    s = viz.TreeStepper(make_ht, X, y).step(1_000)
    s.reset()
    assert s.t == 0 and s.model.n_seen == 0 and np.all(s.pred == -1)
    s.run_to(500)
    assert s.t == 500
    s.run_to(200)  # backwards: replays from the start
    assert s.t == 200 and s.model.n_seen == 200
    s.run_to(s.n)
    assert s.done
    s.step(10)  # at the end: nothing happens
    assert s.t == s.n
    with pytest.raises(ValueError):
        s.run_to(s.n + 1)


def _hoeffding_eps(n, delta=1e-7, R=1.0):
    return math.sqrt(R * R * math.log(1 / delta) / (2 * n))


def test_split_trace_shows_the_tie_crossing_at_the_root():
    X, y = streams.sea(n=4_000, seed=1)
    s = viz.TreeStepper(make_ht, X, y)
    s.run_to(3_399)
    assert s.model.n_leaves == 1
    s.step()  # the instance that splits the root (tie rule)
    assert s.model.n_leaves == 2
    trace = s.focus_trace()
    assert trace.leaf == s.model.root and trace.split_t == 3_400
    assert trace.crossing == "tie"
    assert trace.t[-1] == 3_399 and trace.will_split[-1]
    assert trace.threshold[-1] < 0.05 < _hoeffding_eps(3_200)
    # every point is the Hoeffding epsilon of the root at that time (weight = instances)
    finite = [(t, eps) for t, eps in zip(trace.t, trace.threshold) if math.isfinite(eps)]
    assert len(finite) >= len(trace.t) - 2  # only the first, pure instants have none
    for t, eps in finite:
        assert eps == pytest.approx(_hoeffding_eps(t), rel=1e-9)
    # the rule was first met when epsilon fell below tau, at n = 3,224 (between two samples)
    i = trace.t.index(trace.first_ready)
    assert trace.t[i - 1] < math.ceil(math.log(1e7) / (2 * 0.05**2)) <= trace.first_ready
    svg = s.split_svg()
    assert 'data-split="3400"' in svg and 'data-crossed="tie"' in svg
    assert "wb-split-marker" in svg and "wb-quantity" in svg and "wb-tau" in svg
    assert "split at t=3,400" in s.split_caption()


def test_split_trace_shows_the_margin_crossing_on_electricity():
    X, y, info = streams.electricity(return_info=True)
    X, y = X[:1_000], y[:1_000]
    s = viz.TreeStepper(lambda **p: HoeffdingTree(6, 2, **p), X, y)
    s.step(150)
    for _ in range(50):
        s.step()
    trace = s.focus_trace()
    assert trace.split_t == 200 and trace.crossing == "margin"
    assert trace.quantity[-1] > trace.threshold[-1]
    assert trace.first_ready < 200
    assert 'data-crossed="margin"' in s.split_svg()


def test_trace_points_are_the_leaf_state_at_their_time(sea):
    X, y = sea
    s = viz.TreeStepper(lambda **p: HoeffdingTree(3, 2, grace_period=50, **p), X, y, params=SMALL)
    s.set_params(delta=1e-2)
    s.step(3_000)
    trace = s.focus_trace()
    leaf = trace.leaf
    assert len(trace.t) >= 3
    for i in (0, len(trace.t) // 2, len(trace.t) - 1):
        t = trace.t[i]
        ref = HoeffdingTree(3, 2, grace_period=50, delta=1e-2).partial_fit(X[:t], y[:t])
        ex = ref.explain_one(X[t - 1])  # the instance learned last reached the leaf
        assert ex.leaf == leaf
        assert _same(ex.quantity, trace.quantity[i]) and _same(ex.threshold, trace.threshold[i])
    # single steps extend the trace of the leaf they reach with that leaf's state
    s2 = viz.TreeStepper(lambda **p: HoeffdingTree(3, 2, grace_period=50, **p), X, y, params=SMALL)
    s2.set_params(delta=1e-2)
    s2.step(3_000)
    checked = 0
    for _ in range(60):
        s2.step()
        leaf = s2._focus[0]
        if s2.model.tree.kind[leaf] != 0:
            continue  # this instance split its leaf
        tr = s2.focus_trace()
        ref = HoeffdingTree(3, 2, grace_period=50, delta=1e-2).partial_fit(X[: s2.t], y[: s2.t])
        ex = ref.explain_one(X[s2.t - 1])
        assert ex.leaf == leaf and tr.t[-1] == s2.t
        assert _same(tr.quantity[-1], ex.quantity) and _same(tr.threshold[-1], ex.threshold)
        checked += 1
    assert checked >= 50


def test_panel_text_and_accuracy_chart(sea):
    X, y = sea
    s = viz.TreeStepper(make_ht, X, y, class_names=["no", "yes"])
    assert "no instance yet" in s.instance_html()
    s.step(299).step()
    html = s.instance_html()
    right = int((s.pred[:300] == y[:300]).sum())
    assert f"({right} of 300 right)" in html and f"{right / 300:.1%}" in html
    assert f"true label <b>{['no', 'yes'][y[299]]}</b>" in html
    assert "wb-query" not in html  # no strategy: no query line
    svg = s.accuracy_svg()
    assert 'data-t="300"' in svg and "wb-acc-line" in svg and "wb-query-line" not in svg


class EveryOther:
    """A trivial active-learning strategy: query the label of every other instance."""

    def __init__(self):
        self.calls = 0

    def query(self, model, x):
        self.calls += 1
        return self.calls % 2 == 1


class EveryOtherWithRun(EveryOther):
    """The same, with the slice method a numba-backed strategy would provide."""

    runs = 0

    def run(self, model, X, y):
        EveryOtherWithRun.runs += 1
        pred = np.empty(X.shape[0], np.int64)
        queried = np.zeros(X.shape[0], bool)
        for i in range(X.shape[0]):
            pred[i] = model.predict_one(X[i])
            queried[i] = self.query(model, X[i])
            if queried[i]:
                model.learn_one(X[i], y[i])
        return pred, queried


@pytest.mark.parametrize("strategy_cls", [EveryOther, EveryOtherWithRun])
def test_active_learning_strategy(sea, strategy_cls):
    X, y = sea
    s = viz.TreeStepper(
        lambda **p: HoeffdingTree(3, 2, grace_period=50, **p),
        X,
        y,
        params=SMALL,
        strategy=strategy_cls(),
    )
    runs0 = EveryOtherWithRun.runs
    for _ in range(101):
        s.step()
    html = s.instance_html()
    assert "label queried" in html and "query rate" in html
    s.step()
    assert "label not queried" in s.instance_html()
    s.step(898)
    if strategy_cls is EveryOtherWithRun:
        assert EveryOtherWithRun.runs == runs0 + 1
    assert s.t == 1_000
    assert np.array_equal(s.queried[:1_000], np.arange(1_000) % 2 == 0)
    assert s.query_rate == 0.5 and s.model.n_seen == 500
    ref = HoeffdingTree(3, 2, grace_period=50).partial_fit(X[:1_000:2], y[:1_000:2])
    assert _state(s.model) == _state(ref)
    assert "wb-query-line" in s.accuracy_svg()
    assert "50.0%" in s.instance_html()
    # a replay starts the strategy afresh: the same instances are queried
    s.set_params(delta=1e-3)
    assert np.array_equal(s.queried[:1_000], np.arange(1_000) % 2 == 0)
    assert s.model.n_seen == 500
    # the split chart maps model time (labels learned) to stream time
    trace = s.focus_trace()
    assert all(0 <= t <= 1_000 for t in trace.t)


def test_side_by_side_stays_in_step(sea):
    X, y = sea
    a = viz.TreeStepper(make_ht, X, y, title="info gain")
    b = viz.TreeStepper(
        lambda **p: HoeffdingTree(3, 2, criterion="gini", **p),
        X,
        y,
        params={"delta": (1e-9, 0.1, "log")},
    )
    a.step(10)  # compare lines them up first
    pair = viz.side_by_side(a, b)
    assert a.t == b.t == 10
    pair.step(1).step(489)
    assert a.t == b.t == 500
    for st, crit in ((a, "info_gain"), (b, "gini")):
        ref = HoeffdingTree(3, 2, criterion=crit)
        res = evaluate.prequential(ref, X[:500], y[:500])
        assert np.array_equal(st.pred[:500], res.predictions)
    b.set_params(delta=1e-2)  # one replays; both stay at 500
    assert a.t == b.t == 500
    box = pair.widget
    assert "wb-compare" in box._dom_classes
    pair.controls.step1.click()
    assert a.t == b.t == 501
    pair.reset()
    assert a.t == b.t == 0
    assert isinstance(viz.TreeStepper.compare([a, b]), viz.Compare)
    X2, y2 = streams.sea(n=6_000, seed=2)
    with pytest.raises(ValueError, match="same stream"):
        viz.side_by_side(a, viz.TreeStepper(make_ht, X2, y2))
    with pytest.raises(ValueError, match="at least two"):
        viz.side_by_side(a)


def test_widget_controls_drive_the_stepper(sea):
    X, y = sea
    s = viz.TreeStepper(make_ht, X, y, k=50)
    panel = s.widget
    assert "wb-stepper" in panel._dom_classes
    c = s._controls
    c.step1.click()
    assert s.t == 1 and s._ui["tree"].dot_source == s.dot()
    c.stepk.click()
    assert s.t == 51
    c.k_box.value = 10
    assert c.stepk.description == "step 10"
    c.stepk.click()
    assert s.t == 61
    s._ui["params"]["criterion"].value = "gini"
    assert s.model.criterion == "gini" and s.t == 61
    s._ui["params"]["grace_period"].value = 30
    assert s.model.grace_period == 30 and isinstance(s.params["grace_period"], int)
    assert 'data-t="61"' in s._ui["acc"].value
    assert "accuracy so far" in s._ui["instance"].value
    c.reset_button.click()
    assert s.t == 0 and s.params["criterion"] == "gini"
    # play: a coroutine on the event loop, k instances per tick at the chosen speed
    c.speed.value = "1,000 / s"
    ticks = asyncio.run(c.play(ticks=3))
    assert ticks == 3 and s.t == 300 and not c.play_button.value
    c.play_button.value = True  # no running event loop here: it switches itself off
    assert not c.play_button.value


def test_stepper_bad_input(sea):
    X, y = sea
    with pytest.raises(ValueError, match="make_learner"):
        viz.TreeStepper(42, X, y)
    with pytest.raises(ValueError, match="not a workbench learner"):
        viz.TreeStepper(lambda **p: object(), X, y, params={})
    with pytest.raises(ValueError, match="does not accept"):
        viz.TreeStepper(lambda: HoeffdingTree(3, 2), X, y, params={"delta": (1e-9, 0.1, "log")})
    with pytest.raises(ValueError, match="k must be"):
        viz.TreeStepper(make_ht, X, y, k=0)
    with pytest.raises(ValueError, match="k must be"):
        viz.TreeStepper(make_ht, X, y).step(1.5)
    for spec in [(1,), (1.0, 0.5), (0.0, 1.0, "log"), ("a", "b"), (0, 1, -2), "x", []]:
        with pytest.raises(ValueError, match="parameter 'delta'"):
            viz.TreeStepper(make_ht, X, y, params={"delta": spec})
    with pytest.raises(ValueError, match="query"):
        viz.TreeStepper(make_ht, X, y, strategy=object())
    with pytest.raises(ValueError):
        viz.TreeStepper(make_ht, X, y[:-1])
    with pytest.raises(ValueError):
        viz.TreeStepper(make_ht, X[:, :2], y)
    with pytest.raises(ValueError):
        viz.TreeStepper(make_ht, X[:0], y[:0])
    with pytest.raises(ValueError, match="feature_names"):
        viz.TreeStepper(make_ht, X, y, feature_names=["a"])
    with pytest.raises(ValueError, match="class_names"):
        viz.TreeStepper(make_ht, X, y, class_names=["a", "b", "c"])
    bad_y = y.copy()
    bad_y[3] = 7
    with pytest.raises(ValueError):
        viz.TreeStepper(make_ht, X, bad_y)


def test_a_learner_instance_works_as_the_factory(sea):
    X, y = sea
    template = HoeffdingTree(3, 2, grace_period=77, feature_names=["a", "b", "c"])
    s = viz.TreeStepper(template, X, y, params={"tau": (0.0, 0.2)})
    s.step(200)
    assert s.model.grace_period == 77 and s.model is not template and template.n_seen == 0
    assert "a" in s.feature_names and s.params == {"tau": 0.05}


def test_single_and_long_steps_learn_the_stream_in_order():
    """A single step and a 10,000-instance step learn exactly those instances, test-then-train,
    as one prequential pass over the same prefix would.  (The timing targets, one step under
    100 ms and 10,000 under 1 s, are measured by benchmarks/bench_stepper.py.)"""
    X, y, info = streams.electricity(return_info=True)

    def make(**p):
        return HoeffdingTree(6, 2, feature_names=info.feature_names, **p)

    s = viz.TreeStepper(make, X, y)
    _ = s.widget  # the drawing is part of every step
    s.step()
    s.step(100)
    s.step(10_000)
    for _ in range(40):
        s.step()
    n = 1 + 100 + 10_000 + 40
    assert s.t == n and s.model.n_seen == n
    assert set(s.timings) == {"learn_ms", "draw_ms", "step_ms"}
    ref = make()
    res = evaluate.prequential(ref, X[:n], y[:n])
    assert ref.n_leaves == s.model.n_leaves and ref.depth == s.model.depth
    assert s.accuracy == pytest.approx(res.accuracy)


def test_split_caption_dates_the_stretch_that_led_to_the_split_gini_electricity():
    """The tour's Gini tree on Electricity: the margin beats epsilon early (t ~ 60-160), falls
    back below it before the tests at t = 200, 400, 600, and beats it for good only shortly before
    the split at t = 800.  The caption and the orange dot date the last stretch, not the first
    moment (which the caption used to give: "rose above Hoeffding epsilon at t=62")."""
    X, y, info = streams.electricity(return_info=True)
    X, y = X[:1_000], y[:1_000]
    s = viz.TreeStepper(lambda **p: HoeffdingTree(6, 2, **p), X, y, k=100)
    s.set_params(criterion="gini")
    s.run_to(800)
    trace = s.focus_trace()
    assert trace.leaf == s.model.root and trace.split_t == 800 and trace.crossing == "margin"
    grace = s.params["grace_period"]
    # the leaf's tests before the split found the rule not met (else it would have split then)
    for test_t in range(grace, 800, grace):
        m = HoeffdingTree(6, 2, criterion="gini").partial_fit(X[:test_t], y[:test_t])
        ex = m.explain_one(X[0])  # the root after its test at n = test_t: what the test saw
        assert m.n_leaves == 1 and ex.n == test_t
        assert not ex.quantity > ex.threshold and not ex.epsilon < ex.tau
    assert 0 <= trace.first_ready < grace  # it met the rule long before, briefly
    since = trace.ready_since
    assert 800 - grace < since < 800
    i = trace.t.index(since)
    assert all(trace.will_split[i:]) and not trace.will_split[i - 1]
    assert (
        trace.quantity[i] > trace.threshold[i] and trace.quantity[i - 1] <= trace.threshold[i - 1]
    )
    caption = s.split_caption()
    assert f"at t={since:,} (orange dot)" in caption
    assert f"at t={trace.first_ready:,} (orange dot)" not in caption
    assert f"from t={trace.first_ready:,}" in caption  # the earlier stretch is named as such
    svg = s.split_svg()
    assert "wb-ready-marker" in svg


def test_widgets_carry_a_picture_of_their_state_for_pages_without_a_kernel(sea, grown):
    """The book shows text/html where JupyterLab shows the widget: the tree as SVG at its natural
    size (laid out by dot), and for the stepper its charts and caption as they were."""
    X, y = sea
    s = viz.TreeStepper(make_ht, X, y, params=SMALL)
    s.run_to(3_400)
    bundle = s._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    html = bundle["text/html"]
    assert "wb-acc-chart" in html and "wb-split-svg" in html and "split at t=3,400" in html
    assert 'data-t="3400"' in html or "data-t='3400'" in html
    tree = viz.show(grown)._repr_mimebundle_()["text/html"]
    pair = viz.side_by_side(
        viz.TreeStepper(make_ht, X, y, params=SMALL), viz.TreeStepper(make_ht, X, y, params=SMALL)
    )
    pair.step(100)
    both = pair._repr_mimebundle_()["text/html"]
    assert both.count("wb-stepper-snapshot") == 2
    if viz.has_dot():
        assert html.count("<svg") >= 3 and "<svg" in tree
        # natural size: the drawing is not squeezed into the column (CSS max-width: none)
        assert "max-width: none" in tree
        n_leaves = grown.n_leaves
        assert tree.count('<g id="node') >= n_leaves
    else:
        assert "DOT source" in tree


def test_fractional_counts_are_explained_where_they_show():
    """A leaf made by a numeric split starts from its parent's Gaussian estimate of the class
    counts on its side, so n has decimals; the panel says why, and only then."""
    X, y, info = streams.electricity(return_info=True)
    s = viz.TreeStepper(lambda **p: HoeffdingTree(6, 2, **p), X[:1_000], y[:1_000])
    s.run_to(150)
    assert s.model.n_leaves == 1 and "wb-fractional" not in s.instance_html()  # n = 150
    s.run_to(260)
    ex = s.last.explanation
    assert s.model.n_leaves > 1 and ex.n != round(ex.n)
    assert "wb-fractional" in s.instance_html()
    # the leaf's weight is its parent's estimate for its side (made at the split, t = 200)
    # plus one per instance it learned since: the estimate is the fractional part
    assert int(s.model.tree.t_split[s.model.root]) == 200
    since = int((s.model.apply(X[200:260]) == ex.leaf).sum())
    start = ex.n - since
    assert 0 < start < 200 and start != round(start)


def test_a_pure_leaf_says_why_its_split_chart_is_empty(sea):
    X, y = sea
    y = y.copy()
    y[:300] = 0  # the root sees one class only for its first 300 instances
    stepper = viz.TreeStepper(lambda **p: HoeffdingTree(3, 2, **p), X, y, k=50)
    stepper.step(50)
    svg, caption = stepper.split_svg(), stepper.split_caption()
    assert 'data-pure="1"' in svg and "Leaf 0 is pure: its 50 instances are all 0" in svg
    assert "none is scored" in svg and "polyline" not in svg
    # each line fits the chart (11 px text, about 6 px a character, 330 px of plot)
    assert all(len(line) <= 55 for line in re.findall(r"<tspan[^>]*>([^<]*)</tspan>", svg))
    assert "is pure" in caption
    stepper.step(300)  # the other class arrived: the chart draws the rule's lines again
    svg = stepper.split_svg()
    assert "data-pure" not in svg and "polyline" in svg


def test_the_forest_stepper_keeps_its_labels_short_and_opens_fitted():
    from workbench import learners
    from workbench.viz.stepper.forest import ForestStepper
    from workbench.viz.view import VIEWS

    X, y = streams.sea(6_000, seed=1, concepts=(0, 3))
    stepper = ForestStepper(learners.UFFT(n_classes=2, grace_period=100), X, y).step(3_000)
    nodes = _nodes(stepper.dot())
    inner = [(label, rest) for label, css, rest in nodes.values() if "wbinner" in css]
    assert inner
    for label, rest in inner:
        # the state in the label, the numbers in the tooltip
        assert max(len(line) for line in label.split("\\n")) <= 32, label
        assert re.search(r"DDM: (in control|warning since|warming up|no data)", label)
        assert 'tooltip="DDM NB error p=' in rest or "warming up" in label
    full = _nodes(stepper.model.to_dot(0, ddm_levels="full"))
    assert any("DDM NB error p=" in label for label, _, _ in full.values())
    with pytest.raises(ValueError, match="ddm_levels"):
        stepper.model.to_dot(0, ddm_levels="long")
    panel = stepper.widget()
    views = panel.children[2]
    holder = panel.children[-2]
    drawing = holder.children[0]
    assert views.value == "fit" and "wb-fit" in holder._dom_classes
    assert "Fit:" in panel.children[3].value
    views.value = "full size"
    assert "wb-fit" not in holder._dom_classes and "scrolls sideways" in panel.children[3].value
    views.value = "zoom"
    assert drawing.enable_zoom
    views.value = "fit"
    assert "wb-fit" in holder._dom_classes and not drawing.enable_zoom
    # the picture for pages without a kernel is fitted too
    bundle = panel._repr_mimebundle_()
    bundle = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "wb-tree-static wb-fit" in bundle["text/html"]
    assert set(VIEWS) == {"fit", "full size", "zoom"}
    with pytest.raises(ValueError, match="view"):
        stepper.widget(view="huge")


def test_tree_drawings_share_one_graphviz_module_per_page(grown):
    """graphviz-anywidget's bundle sets window.$ to a new jQuery each time it is evaluated, and
    anywidget evaluates a widget's module once per widget: the drawings wrap it so that it is
    evaluated once per page (the browser test counts the console errors this caused)."""
    from workbench.viz.view import tree_widget

    a, b = tree_widget(grown.to_dot()), tree_widget("digraph { a -> b }")
    assert a._esm == b._esm and "globalThis[KEY]" in a._esm
    assert a._esm.startswith("const SOURCE = ") and "export default" in a._esm


def test_side_by_side_columns_fit_their_trees_and_a_lone_panel_scrolls(sea):
    """In a column of a side-by-side view a wide tree is shrunk to the column (its root in
    view: it was cut at the column's edge, root and all); a stepper's own panel keeps
    Graphviz's size and scrolls sideways.  The switch changes either."""
    X, y = sea
    a = viz.TreeStepper(lambda **p: HoeffdingTree(3, 2, **p), X, y, k=500)
    b = viz.TreeStepper(lambda **p: HoeffdingTree(3, 2, **{**p, "criterion": "gini"}), X, y, k=500)
    pair = viz.side_by_side(a, b)
    pair.step(3_000)
    pair.widget  # noqa: B018 (builds the panels)
    for s in (a, b):
        assert s._ui["view"].value == "fit" and "wb-fit" in s._ui["holder"]._dom_classes
    assert pair.picture_html().count("wb-tree-static wb-fit") == 2
    alone = viz.TreeStepper(lambda **p: HoeffdingTree(3, 2, **p), X, y, k=500)
    alone.widget  # noqa: B018
    assert alone._ui["view"].value == "full size"
    assert "wb-fit" not in alone._ui["holder"]._dom_classes
    assert "scrolls sideways" in alone.widget.children[3].children[0].children[0].children[1].value
    alone._ui["view"].value = "fit"
    assert "wb-fit" in alone._ui["holder"]._dom_classes


# ------------------------------------------------------------ in front of a class (issue 58)
def _tour_pairs():
    from itertools import combinations

    from workbench.experiments import tour

    streaming = [name for name in tour.NOTEBOOK if name != "BOCT"]  # the menu's learners
    return [(a, b, s) for a, b in combinations(streaming, 2) for s in ("Electricity", "SEA")]


@pytest.mark.parametrize("a, b, stream", _tour_pairs(), ids=lambda v: str(v)[:14])
def test_every_pair_of_the_tours_menu_steps(a, b, stream):
    """The tour's "Step any pair": every two learners of its menu, on every stream it offers,
    step 1 and step k together (UFFT's forest explanation included), stand at the same t, draw
    their trees and charts, and picture their state for the book."""
    from workbench.experiments import tour

    pair = tour.pair(a, b, stream)
    box = pair.widget
    c = pair.controls
    c.step1.click()
    c.stepk.click()
    c.step1.click()
    assert c.error.value == "", c.error.value
    assert [s.t for s in pair.steppers] == [502, 502]
    assert "data-t='502'" in c.position.value and "apart" not in c.position.value
    for s in pair.steppers:
        assert s._ui["tree"].dot_source.startswith("digraph")
        assert "instance 502" in s._ui["instance"].value and "wb-acc-line" in s._ui["acc"].value
    assert "wb-compare" in box._dom_classes
    picture = pair._repr_mimebundle_()["text/html"]
    assert picture.count("wb-stepper-snapshot") == 2 and "<h4" not in picture


def test_a_forest_steps_through_the_tree_stepper():
    """UFFT (a pairwise forest: explain_one gives a ForestExplanation, apply a leaf per tree)
    in the TreeStepper: single steps, jumps, node counts, its drawing with DDM notes, and a
    split chart that says why it has no trace instead of failing."""
    from workbench import learners

    X, y = streams.sea(4_000, seed=3)
    s = viz.TreeStepper(lambda **p: learners.UFFT(3, 2, **p), X, y, params={})
    for _ in range(3):
        s.step()
    s.step(1_500).step()
    assert s.t == 1_504 and s.lens.forest and s.lens.n_leaves == s.model.n_leaves
    html = s.instance_html()
    assert "instance 1,504" in html and "reached <b>leaf" in html
    counts, root = s._counts, s.lens.root
    # every row since the root was made (a drift prunes and remakes it) passed through it
    assert counts[root] == s.t - int(s.model.tree.t_created[root]) > 0
    assert "data-untraced" in s.split_svg() and "forest" in s.split_svg()
    assert "wb-split-caption" in s.split_caption()
    assert 'class="wbnode' in s.dot() or "class=" in s.dot()
    s.run_to(200)
    assert s.t == 200
    with pytest.raises(ValueError, match="tree must be below 1"):
        viz.TreeStepper(lambda **p: learners.UFFT(3, 2, **p), X, y, params={}, tree=1)


def test_an_error_in_a_widget_callback_shows_in_the_widget(sea, monkeypatch):
    X, y = sea
    a = viz.TreeStepper(make_ht, X, y, params=SMALL, title="left")
    b = viz.TreeStepper(make_ht, X, y, params=SMALL, title="right")
    pair = viz.side_by_side(a, b, k=50)
    assert pair.widget is not None  # the panels exist: clicks redraw them
    c = pair.controls

    def broken(k=1):
        raise RuntimeError("the learner broke")

    monkeypatch.setattr(b, "step", broken)
    c.stepk.click()  # a click never raises: the error is shown under the buttons
    assert "wb-error" in c.error.value and "RuntimeError: the learner broke" in c.error.value
    assert "step k failed" in c.error.value and "traceback" in c.error.value
    assert "stand apart" in c.error.value and "left at t = 50" in c.error.value
    assert "apart: 50, 0" in c.position.value  # the header says where each stands
    monkeypatch.undo()
    c.go_to(50)  # a call that works clears the message
    c.step1.click()
    assert c.error.value == "" and a.t == b.t == 51
    # a parameter the learner refuses: the message in the panel's status line
    a._ui["params"]["delta"].value = 10.0**-3
    monkeypatch.setattr(a, "set_params", lambda **p: 1 / 0)
    a._ui["params"]["tau"].value = 0.1
    assert "ZeroDivisionError" in a._ui["status"].value


def test_go_to_t_jumps_forward_and_back(sea):
    X, y = sea
    s = viz.TreeStepper(make_ht, X, y, params=SMALL)
    assert s.widget is not None
    c = s._controls
    c.goto.value = 3_400  # Enter in the box
    assert s.t == 3_400 and "split at t=3,400" in s._ui["caption"].value
    c.goto.value = 120
    assert s.t == 120
    c.go_to(10_000_000)  # beyond the stream: its end
    assert s.t == s.n and "(end)" in c.position.value and c.goto.value == s.n
    c.reset_button.click()
    c.step1.click()
    assert c.goto.value == 1  # the box shows where the stepper stands
    c._syncing = True  # a value typed but not entered: the button takes it
    c.goto.value = 120
    c._syncing = False
    assert s.t == 1
    c.go_button.click()
    assert s.t == 120


def _polyline_points(svg: str, css: str) -> np.ndarray:
    m = re.search(rf'<polyline[^>]*class="{css}"[^>]*points="([^"]*)"', svg) or re.search(
        rf'<polyline[^>]*points="([^"]*)"[^>]*class="{css}"', svg
    )
    assert m, css
    return np.array([[float(v) for v in p.split(",")] for p in m.group(1).split()])


def test_the_accuracy_chart_holds_its_window_line():
    """Electricity at t = 2,100-2,600: the last-500 line dips below the cumulative curve's
    range; the chart's y range takes it in (it was clipped below the plot)."""
    from workbench.experiments import tour

    pair = tour.pair("Hoeffding tree (VFDT)", "EFDT (HATT)", "Electricity")
    for t in (2_100, 2_400, 2_600):
        pair.controls.go_to(t)
        for s in pair.steppers:
            svg = s.accuracy_svg()
            clip = re.search(
                r'<clipPath[^>]*><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" '
                r'height="([\d.]+)"',
                svg,
            )
            left, top, width, height = (float(v) for v in clip.groups())
            # past the first instances (where any running accuracy swings from 0 to 1)
            settled = left + width * (max(10, t // 50) - 1) / (t - 1)
            for css in ("wb-acc-line", "wb-acc-window"):
                pts = _polyline_points(svg, css)
                pts = pts[pts[:, 0] >= settled]
                assert pts[:, 1].min() >= top - 0.5, (t, css)
                assert pts[:, 1].max() <= top + height + 0.5, (t, css, pts[:, 1].max())


def test_pictures_have_titles_not_headings_and_fit_keeps_text_readable(sea):
    """The book's pictures of a stepper: the title is bold text (an <h4> took the book's heading
    style and showed as a giant heading); in "fit" a wide tree is shrunk to the column only
    down to FIT_MIN_SCALE of its size."""
    from workbench.viz.snapshot import tree_picture
    from workbench.viz.style import FIT_MIN_SCALE

    X, y = sea
    s = viz.TreeStepper(make_ht, X, y, params=SMALL, title="SEA")
    s.run_to(3_400)
    html = s.picture_html(layout="tall")
    assert "<h4" not in html and "<div class='wb-title'>SEA</div>" in html
    if viz.has_dot():
        big = HoeffdingTree(3, 2, grace_period=20, delta=0.1, tau=0.2).partial_fit(*sea)
        assert big.n_leaves >= 15
        picture = tree_picture(big.to_dot(), fit=True)
        width = float(re.search(r'<svg[^>]*width="([\d.]+)pt"', picture).group(1)) * 4 / 3
        shown = float(re.search(r"min-width:(\d+)px", picture).group(1))
        assert shown == pytest.approx(FIT_MIN_SCALE * width, abs=1)
        assert "min-width" not in tree_picture(big.to_dot(), fit=False)


def test_no_import_circle_in_viz_and_the_exercises():
    """Dependencies point one way: no circle among the modules of workbench.viz,
    workbench.exercises and workbench.book, counting the imports inside functions (an import
    inside a function that reaches back up is still a dependency that points up)."""
    import ast
    from pathlib import Path

    root = Path(viz.__file__).resolve().parents[1]
    files = [*sorted((root / "viz").rglob("*.py")), *sorted((root / "exercises").rglob("*.py"))]
    files.append(root / "book.py")

    def name_of(path):
        parts = path.relative_to(root.parent).with_suffix("").parts
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    names = {name_of(f): f for f in files}
    graph = {}
    for name, path in names.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            targets = []
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")
                if node.level:
                    base = base[: len(base) - node.level + 1]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                targets = [mod] + [f"{mod}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            deps |= {t for t in targets if t in names and t != name}
        graph[name] = deps
    seen, stack, circles = {}, [], []

    def visit(u):
        seen[u] = "open"
        stack.append(u)
        for v in sorted(graph[u]):
            if seen.get(v) == "open":
                circles.append(stack[stack.index(v) :] + [v])
            elif v not in seen:
                visit(v)
        stack.pop()
        seen[u] = "done"

    for u in sorted(graph):
        if u not in seen:
            visit(u)
    assert not circles, circles
