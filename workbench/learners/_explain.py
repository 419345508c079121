"""Why a tree predicts what it predicts, and why a leaf has or has not split: the text of
``explain_one`` (:class:`Explanation`), which the stepper and the notebooks show.

The numbers come from the kernels (:func:`workbench.core.decide.explain_split`,
:func:`workbench.core.reevaluate.explain_reevaluation`): the same quantity and threshold the
loop's rule compared, so no rule is restated here; this module only puts them into words.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .. import _functions as fx
from .._numbers import compared
from ..core import decide as dc
from ..core import reevaluate as rv
from ..core import state as st
from ..core.params import (
    GRACE_CLOCKS,
    MERIT_ESTIMATES,
    P_GRACE_CLOCK,
    P_MARGIN_FACTOR,
    P_MERITS,
    P_REEVAL,
    P_REEVAL_CLOCK,
    P_SPLIT_RULE,
    REEVAL_CLOCKS,
)
from ..core.rules import RULE_LABELS

#: where each split bound's epsilon comes from, as explanations and charts name it
_BOUND_NAMES = {
    "hoeffding": "Hoeffding",
    "mcdiarmid": "McDiarmid",
    "ctree": "C-Tree eq. (7)",  # De Rosa & Cesa-Bianchi, Theorem 4
    "ctree_practical": "C-Tree eq. (10)",  # De Rosa & Cesa-Bianchi, the experiments' radius
}


def _instances_to_go(period: float, since: float) -> int:
    """Instances until a count that grows by one per instance, now ``since``, reaches
    ``period``: at least one (the test runs after an instance is learned).  The count may be a
    sum of weights that holds fractions, so rounding can leave it a hair below a whole number
    (199.99999999999997 needs one more instance, not 2.3e-13 of one)."""
    return max(1, math.ceil(period - since - 1e-9))


def reeval_sentence(r: dict) -> str:
    """One sentence on an inner node's re-evaluation (``Explanation.path[i]["reeval"]``)."""
    q, thr = r["quantity"], r["threshold"]
    qs, ts = compared(q, thr, 3)
    if r["best"] == r["current"]:
        why = f"the best attribute is still {r['current']}, so the split is kept"
    elif r["outcome"] == "kept":
        why = (
            f"G(best) - G(current) = {qs} does not exceed epsilon = {ts}, so {r['current']} is kept"
        )
    else:
        tie = " (a tie: epsilon < tau and the gap above tau / 2)" if not q > thr else ""
        what = (
            "the subtree would be killed"
            if r["outcome"] == "killed"
            else (f"the node would split on {r['best']} instead, with new leaves")
        )
        why = f"G(best) - G(current) = {qs} > epsilon = {ts}{tie}: {what}"
    g = r.get("merit_label", "G")
    return (
        f"re-evaluation: current split {r['current']} ({g} = {r['g_current']:.4g}), best "
        f"now {r['best']} ({g} = {r['g_best']:.4g}); {why}; next re-evaluation {r['next']}."
    )


@dataclass
class Explanation:
    """Why a tree predicts what it predicts for one instance (see ``explain_one``)."""

    path: list = field(default_factory=list)
    leaf: int = -1
    class_counts: np.ndarray | None = None
    proba: np.ndarray | None = None
    prediction: int = -1
    predictor: str = ""
    candidates: list = field(default_factory=list)
    best: dict | None = None
    second: dict | None = None
    epsilon: float = math.inf
    n: float = 0.0
    since_last_test: float = 0.0
    grace_period: float = 0.0
    #: ``grace_period`` is the leaf's wait from a grace schedule (``grace_schedule=``)
    scheduled: bool = False
    tau: float = 0.0
    active: bool = True
    reason: str = ""
    #: the quantity that decides the split at this leaf and the level it must exceed, with
    #: labels, so that a plot can show any learner's rule (VFDT: G(best) - G(second) vs epsilon)
    quantity: float = math.nan
    threshold: float = math.nan
    quantity_label: str = ""
    threshold_label: str = ""
    will_split: bool = False
    #: the bound epsilon comes from ("Hoeffding", "McDiarmid", "C-Tree eq. (7)", "C-Tree eq. (10)":
    #: the equations of De Rosa & Cesa-Bianchi's C-Tree paper)
    bound_name: str = "Hoeffding"
    #: the split rule that decides (``workbench.core.rules``), e.g. "best vs second best"
    rule: str = ""
    #: the name of a user's split rule (``split_rule=``) where it decides instead; the quantity
    #: and threshold are then the built-in rule's, shown beside its verdict
    split_rule: str = ""

    def __str__(self) -> str:
        lines = []
        for step in self.path:
            lines.append(
                f"node {step['node']} (depth {step['depth']}, n={step['n']:g} "
                f"{'so far' if step.get('reeval') else 'at split'}): "
                f"{step['test']} -> {step['outcome']}"
            )
            r = step.get("reeval")
            if r:
                lines.append("  " + reeval_sentence(r))
        counts = ", ".join(f"{c:g}" for c in self.class_counts)
        proba = ", ".join(f"{p:.3f}" for p in self.proba)
        lines.append(
            f"leaf {self.leaf}: class counts [{counts}], {self.predictor} predicts "
            f"class {self.prediction} with probabilities [{proba}]"
        )
        for tag, cand in (("best", self.best), ("second best", self.second)):
            if cand is not None:
                lines.append(f"  {tag} split: {cand['test']}, gain {cand['merit']:.5f}")
        if self.best is not None and self.best["merit"] < 0 and self.path:
            effect = (
                "so the margin between two candidates is unaffected"
                if self.rule in ("", "best vs second best")
                else f"which moves every candidate against the {self.rule.split(' vs ')[1]}, "
                "whose gain is 0: the leaf waits until its own instances outweigh the estimate"
            )
            lines.append(
                "  (gains below 0: this leaf's class counts start from the estimate its "
                "parent's split made for it, as in MOA, while the split statistics count "
                "only the instances it has seen since; the estimate shifts every "
                f"candidate's gain by the same amount, {effect})"
            )
        if math.isfinite(self.epsilon):
            lines.append(f"  epsilon ({self.bound_name}) = {self.epsilon:.5f} at n = {self.n:g}")
        lines.append(f"  {self.reason}")
        return "\n".join(lines)

    def _repr_pretty_(self, p, cycle):  # IPython
        p.text(str(self))


class Explaining:
    """``explain_one`` and the words around it, for :class:`~workbench.learners.BaseTree`
    (it reads the learner's tree, policy and names)."""

    def _bound_name(self) -> str:
        """The name explanations and charts give the bound's epsilon."""
        if self._p.bound in ("user", "user_schedule", "user_stats"):
            return self.bound_label or getattr(self.bound, "__name__", "user bound")
        return _BOUND_NAMES[self._p.bound]

    def describe_test(self, node: int, branch: int | None = None) -> str:
        """Human-readable test of an inner node (and of one of its branches)."""
        T = self._state
        f = int(T.feature[node])
        name = self.feature_names_[f]
        kind = int(T.kind[node])
        if kind == st.NUMERIC:
            thr = float(T.threshold[node])
            if branch is None:
                return f"{name} <= {thr:.6g}"
            return f"{name} <= {thr:.6g}" if branch == 0 else f"{name} > {thr:.6g}"
        if kind == st.NOMINAL_BINARY:
            v = int(T.threshold[node])
            if branch is None:
                return f"{name} == {v}"
            return f"{name} == {v}" if branch == 0 else f"{name} != {v}"
        if branch is None:
            return f"{name} (multiway, {int(T.n_children[node])} branches)"
        return f"{name} == {branch}"

    def _split_report(self, leaf: int):
        T, C = self._state, self._config
        d = self.n_features_in_
        merits, cuts = np.empty(d), np.empty(d)
        post = np.empty((max(T.children.shape[1], 2), self.n_classes_))
        outcome, b1, b2, eps, q, thr, _g1, _g2 = dc.explain_split(T, C, leaf, merits, cuts, post)
        return int(outcome), int(b1), int(b2), float(eps), float(q), float(thr), merits, cuts

    def _reeval_report(self, node: int) -> dict | None:
        """At an inner node of a re-evaluating learner (EFDT): what a re-evaluation now would
        compare and decide (the tree is not changed), and when the next one is due."""
        T, C = self._state, self._config
        period = float(C.params[P_REEVAL])
        if period <= 0 or T.stats_slot[node] < 0 or T.kind[node] <= 0:
            return None
        d = self.n_features_in_
        merits, cuts = np.empty(d), np.empty(d)
        post = np.empty((max(T.children.shape[1], 2), self.n_classes_))
        outcome, best, eps, q, thr, g_best, g_cur = rv.explain_reevaluation(
            T, C, node, merits, cuts, post
        )
        if C.params[P_REEVAL_CLOCK] == REEVAL_CLOCKS["tree"]:
            t = int(T.meta[st.M_T])
            nxt = (t // int(period) + 1) * int(period) + 1  # the instance whose t - 1 is a multiple
            due = f"at the tree's instance {nxt:,} (every {period:g})"
        else:
            w = float(T.class_counts[node].sum())
            due = f"after {_instances_to_go(period, w - float(T.last_eval[node])):,} more instances here"
        verdict = {rv.REEVAL_KEEP: "kept", rv.REEVAL_KILL: "killed", rv.REEVAL_REPLACE: "replaced"}
        return {
            "current": self.feature_names_[int(T.feature[node])],
            "best": "null split" if best < 0 else self.feature_names_[int(best)],
            "g_best": float(g_best),
            "g_current": float(g_cur),
            "quantity": float(q),
            "threshold": float(thr),
            "epsilon": float(eps),
            "outcome": verdict[int(outcome)],
            "next": due,
            "merit_label": "mean G" if C.params[P_MERITS] == MERIT_ESTIMATES["moa"] else "G",
        }

    def _candidate(self, j: int, merits, cuts) -> dict:
        name = self.feature_names_[j]
        if j in self.nominal_features_ and not np.isnan(cuts[j]):
            test = f"{name} == {int(cuts[j])}"
        elif j in self.nominal_features_:
            test = f"{name} (multiway)"
        else:
            test = f"{name} <= {cuts[j]:.6g}"
        return {
            "feature": j,
            "name": name,
            "merit": float(merits[j]),
            "threshold": float(cuts[j]),
            "test": test,
        }

    def explain_one(self, x) -> Explanation:
        """The path of x with each node's test and counts, and at the leaf the best and
        second-best candidate splits, their gains, the Hoeffding epsilon, and one sentence on
        why the leaf has or has not split yet."""
        X = self._row(x)
        T = self._state
        ex, node = self._explain_path(X)
        for step in ex.path:
            step["reeval"] = self._reeval_report(step["node"])
        ex.prediction = int(np.argmax(ex.proba))
        ex.predictor = self._predictor_used(node)
        ex.grace_period = float(self._p.grace_period)
        counting = self._config.params[P_GRACE_CLOCK] == GRACE_CLOCKS["count"]
        # a grace schedule's answer replaces the grace period once it has spoken at this leaf:
        # the weight it waits, or (counting) the count of instances it waits for
        ex.scheduled = getattr(self, "grace_schedule", None) is not None and T.wait[node] >= 0
        if ex.scheduled:
            ex.grace_period = float(T.wait[node])
            learned = float(T.n_learned[node]) if counting else ex.n - float(T.last_eval[node])
            ex.since_last_test = learned
        elif counting:
            # MOA's EFDT counts instances: the attempts come at multiples of the grace period
            ex.since_last_test = float(int(T.n_learned[node]) % int(ex.grace_period))
        else:
            ex.since_last_test = ex.n - float(T.last_eval[node])
        ex.tau = self._p.tau
        ex.active = bool(T.active[node])
        outcome, b1, b2, eps, q, thr, merits, cuts = self._split_report(node)
        ex.epsilon = eps
        ex.quantity, ex.threshold = q, thr
        order = [j for j in np.argsort(-merits, kind="stable") if np.isfinite(merits[j])]
        ex.candidates = [self._candidate(int(j), merits, cuts) for j in order]
        ex.best = self._candidate(b1, merits, cuts) if b1 >= 0 and np.isfinite(merits[b1]) else None
        ex.second = (
            self._candidate(b2, merits, cuts) if b2 >= 0 and np.isfinite(merits[b2]) else None
        )
        self._decision_quantity(ex, outcome)
        ex.reason = self._reason(ex, outcome)
        return ex

    def _explain_path(self, X) -> tuple[Explanation, int]:
        """An Explanation of the one row X with its path filled in (each inner node's test,
        counts and the branch taken) and its leaf's counts, probabilities and weight; returns
        it and the leaf."""
        from ..core.routing import walk  # jitted; imported here to keep start-up light

        T = self._state
        ex = Explanation()
        path = np.full(self.depth + 2, -1, np.int64)
        node, length, _forked = walk(T, X, 0, False, path)
        for i in range(length - 1):
            u, child = int(path[i]), int(path[i + 1])
            b = int(np.flatnonzero(T.children[u] == child)[0])
            ex.path.append(
                {
                    "node": u,
                    "depth": int(T.depth[u]),
                    "n": float(T.class_counts[u].sum()),
                    "counts": T.class_counts[u].copy(),
                    "test": self.describe_test(u),
                    "outcome": self.describe_test(u, b),
                    "branch": b,
                }
            )
        ex.leaf = int(node)
        ex.class_counts = T.class_counts[node].copy()
        ex.proba = self.predict_proba(X)[0]
        ex.n = float(ex.class_counts.sum())
        return ex, int(node)

    def _decision_quantity(self, ex: Explanation, outcome: int) -> None:
        """Labels of the quantity and threshold the kernel's rule returned (``ex.quantity``,
        ``ex.threshold``), from the rule table of ``workbench.core.rules``."""
        rule = RULE_LABELS[int(self._config.params[P_SPLIT_RULE])]
        ex.rule = rule[0]
        if getattr(self._p, "split_rule", None) == "user":
            ex.split_rule = fx.display_name(self.split_rule)
        ex.quantity_label = rule[1]
        f = float(self._config.params[P_MARGIN_FACTOR]) if rule[0] == "best vs second best" else 1.0
        ex.bound_name = self._bound_name()
        ex.threshold_label = (
            f"{ex.bound_name} epsilon" if f == 1 else f"{f:g} x {ex.bound_name} epsilon"
        )
        ex.will_split = outcome in (dc.SPLIT_MARGIN, dc.SPLIT_TIE)

    def _predictor_used(self, leaf: int) -> str:
        T = self._state
        if self._p.leaf_prediction == "mc":
            return "majority class"
        if self._p.leaf_prediction == "nb":
            return "naive Bayes"
        return (
            "naive Bayes (adaptive: it has been right more often)"
            if T.mc_correct[leaf] <= T.nb_correct[leaf]
            else "majority class (adaptive: it has been right more often)"
        )

    def _user_rule_reason(self, ex: Explanation, outcome: int, wait: int) -> str:
        """The reason when a user's split rule decides (``split_rule=``): its verdict, with the
        merits and epsilon it was given."""
        name = fx.display_name(self.split_rule)
        second = ex.second["merit"] if ex.second is not None else -math.inf
        given = (
            f"G(best) = {ex.best['merit']:.4g} ({ex.best['test']}), G(second) = {second:.4g}, "
            f"epsilon = {ex.epsilon:.4g}, tau = {ex.tau:g}"
        )
        more = f"{wait:,} more instance{'s' if wait != 1 else ''}"
        if outcome in (dc.SPLIT_MARGIN, dc.SPLIT_TIE):
            how = "its margin" if outcome == dc.SPLIT_MARGIN else "a tie"
            return (
                f"Ready to split on {ex.best['test']}: the split rule {name} says split "
                f"({how}) at {given}; it will split at the next test, after {more}."
            )
        return f"Not split yet: the split rule {name} says wait at {given}; the next test runs after {more}."

    def _reason(self, ex: Explanation, outcome: int) -> str:
        if not ex.active:
            return (
                "This leaf no longer splits: it was deactivated (depth limit or memory "
                "guard), so it only counts classes."
            )
        if not math.isfinite(ex.grace_period):
            return (
                "This leaf is not tested again: the grace schedule returned inf at its last "
                "attempt, so it only counts classes."
            )
        wait = _instances_to_go(ex.grace_period, ex.since_last_test)
        period = "the grace schedule's wait" if ex.scheduled else "grace period"
        when = (
            f"the next split test runs after {wait:,} more instance{'s' if wait != 1 else ''} "
            f"({period} {ex.grace_period:g})"
        )
        if ex.n == 0:
            return f"This leaf has seen no instance yet; {when}."
        if outcome == dc.NO_SPLIT_PURE:
            return (
                f"Not split: every instance here has the same class, so no split can help; {when}."
            )
        if outcome == dc.NO_SPLIT_NO_CANDIDATE:
            return (
                f"Not split: no candidate split separates the instances seen so far (every "
                f"candidate leaves almost all weight on one side); {when}."
            )
        if outcome == dc.NO_SPLIT_DEPTH:
            return f"Not split: the leaf is at the maximum depth {self._p.max_depth}."
        if outcome == dc.NO_SPLIT_USED:
            return (
                f"Not split: the rule picks {ex.best['test']}, but that nominal attribute is "
                f"tested above this leaf, and MOA's EFDT never splits on it again below; {when}."
            )
        if getattr(self._p, "split_rule", None) == "user":
            return self._user_rule_reason(ex, outcome, wait)
        # the kernel's rule: quantity > threshold = f x epsilon, or epsilon < tau
        q, f = ex.quantity, ex.threshold / ex.epsilon if ex.epsilon > 0 else 1.0
        level = "epsilon" if f == 1 else f"{f:g} x epsilon"
        reference = RULE_LABELS[int(self._config.params[P_SPLIT_RULE])][2]
        if reference == "second best" and ex.second is None:
            reference = "null split"
            lone = (
                " (it is the only candidate; its rival is the null split, not splitting, "
                "whose merit under the minimum branch fraction is -inf, as in MOA)"
            )
        else:
            lone = ""
        q_txt, thr_txt = compared(q, ex.threshold, 4)
        if outcome in (dc.SPLIT_MARGIN, dc.SPLIT_TIE):
            eps_txt, tau_txt = compared(ex.epsilon, ex.tau, 4)
            why = (
                f"{ex.quantity_label} = {q_txt} exceeds {level} = {thr_txt}{lone}"
                if outcome == dc.SPLIT_MARGIN
                else f"epsilon {eps_txt} is below the tie threshold tau = {tau_txt}"
            )
            return (
                f"Ready to split on {ex.best['test']}: {why}; it will split at the next "
                f"test, after {wait:,} more instance{'s' if wait != 1 else ''}."
            )
        # NO_SPLIT_BOUND
        lead = (
            f"the two best splits ({ex.best['test']} and {ex.second['test']}) have the same gain"
            if ex.second is not None and reference == "second best" and q <= 1e-12
            else f"the best split ({ex.best['test']}) beats the {reference} by {q_txt}"
            if q >= 0
            else f"the best split ({ex.best['test']}) falls short of the {reference} by "
            f"{compared(-q, -ex.threshold, 4)[0]}"
        )
        text = (
            f"Not split yet: {lead}, not more than {level} = {thr_txt}, and epsilon "
            f"is still above tau = {ex.tau:g}; the next test runs after {wait:,} more "
            f"instance{'s' if wait != 1 else ''}"
        )
        if self._p.bound == "hoeffding":  # eps = R sqrt(ln(1/delta) / (2n)) can be inverted
            k = ex.epsilon**2 * ex.n  # R^2 ln(1/delta) / 2, with this leaf's range R
            need = k / self._p.tau**2 if self._p.tau > 0 else math.inf
            if q > 0:
                need = min(need, k * f * f / q**2)
            if math.isfinite(need):
                text += (
                    f"; if the gains stay as they are, the leaf splits once it has seen "
                    f"about {math.ceil(need):,} instances (it has {ex.n:,.6g})"
                )
            else:
                text += "; with tau = 0 and tied gains it will not split until the gains differ"
        return text + "."
