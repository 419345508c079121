"""Hoeffding tree (VFDT) of Domingos and Hulten (2000), as MOA and River implement it."""

from __future__ import annotations

from ..core.validate import check_choice
from .base import BaseTree

#: ``reference``: MOA's ``trees.HoeffdingTree``, or the VFDT of 004's own code (the
#: repository github.com/chaitanya-m/kdd2018 that 004 cites, its baseline in Figures 1-14)
REFERENCES = {
    "moa": dict(grace_clock="weight", range="moa", merits="current", used_nominal=False),
    # VFDT.java of 004's code: attempts every grace_period instances counted one by one; the
    # rule compares running sums of merits, divided by a count that grows by one per candidate
    # (the null split included, about d + 1 per attempt); a best merit below 1e-10 never
    # splits; R from the leaf's class vector when it was made; no nominal attribute twice on a
    # path
    "kdd2018": dict(
        grace_clock="count",
        range="created",
        merits="moa",
        null_sum="raw",
        attempts="per_candidate",
        used_nominal=True,
    ),
}


class HoeffdingTree(BaseTree):
    """Very Fast Decision Tree: split a leaf once the Hoeffding bound separates its two best
    candidate splits.

    Every ``grace_period`` instances a leaf with n instances computes the merit G of the best
    split of each feature.  With R the range of G (log2 K bits for information gain, 1 for Gini)
    and the Hoeffding bound (paper 004 eq. (1); 000 eq. (1); 003 eq. (7))

    .. math:: \\epsilon = \\sqrt{R^2 \\ln(1/\\delta) / (2n)},

    the leaf splits on the best feature when ``G(best) - G(second) > epsilon`` or when
    ``epsilon < tau`` (the two are too close to matter).  Numeric features are summarised per
    class by a Gaussian with ``n_split_points`` candidate cut points; nominal features split
    multiway.  Leaves predict by majority class (``"mc"``), naive Bayes (``"nb"``) or adaptive
    naive Bayes (``"nba"``, the default of MOA and River).  Defaults are MOA's and River's,
    and so are the details (``reference="moa"``): an attempt when the leaf's weight grew by
    ``grace_period`` since its last one; R = log2 of the length of the leaf's class-count vector
    (log2 K once every class has reached it); MOA's order of the candidates (ties go to the
    later feature; a nominal feature's candidate is the multiway split or, where its merit is
    higher, MOA's binary test ``x == v``).

    ``reference="kdd2018"`` is the VFDT of 004's own code (the baseline of 004's figures): the
    leaf compares running sums of its candidates' merits divided by a count that grows by one
    per candidate (the null split included), so its margins are about 1 / (d + 1) of MOA's, and
    it splits on them, or on a tie (``epsilon < tau``), only when the best merit reaches 1e-10.

    Parameters
    ----------
    n_features, n_classes : sizes of the stream (labels are ``0..n_classes-1``).
    grace_period : instances a leaf sees between split attempts (n_min), default 200.
    delta : the bound holds with probability 1 - delta, default 1e-7.
    tau : tie threshold, default 0.05.
    criterion : ``"info_gain"`` or ``"gini"`` (also ``"entropy"``, ``"kearns_mansour"``,
        ``"error"``), or a user's numba function of a node's class weights (a float64 array)
        returning its impurity; the split search scores each candidate as the node's impurity
        minus the branches' weighted impurities, as for the built-in criteria.
    criterion_range : the range R of a user criterion's gain (required with one): the
        ``value_range`` the bound gets (1 for Gini, log2 K for entropy in bits).
    bound : ``"hoeffding"`` (above) or ``"mcdiarmid"`` (000 eq. 2), or a user's numba function
        ``(n, delta, value_range, n_classes) -> epsilon``, or of seven arguments
        ``(n, delta, value_range, n_classes, depth, t, n_features)`` (the leaf's depth, the
        instances learned, the number of features: 000's schedules).  It is called at every
        split attempt inside the compiled loop; ``workbench.montecarlo.check_bound`` tests it.
        With ``delta=None`` it gets ``1/t``.  A learner pickles it by reference (module and
        name), so it must be importable.
    bound_label : the name explanations and the stepper give a user bound's epsilon (default:
        the function's ``__name__``).
    leaf_prediction : ``"mc"``, ``"nb"`` or ``"nba"``.
    nominal_features : columns holding nominal codes, as ``{column: n_values}`` (or a list of
        columns, each then allowed 64 values).
    n_split_points : candidate cut points per numeric feature, default 10.
    min_branch_fraction : a split must send more than this fraction of the weight down at least
        two branches (MOA's default 0.01).
    max_depth : leaves at this depth stop splitting (None: no limit).
    memory_limit_mb : the tree stops growing (and leaves stop collecting statistics) rather than
        exceed this many megabytes (None: no limit).
    nb_threshold : naive Bayes only at leaves with at least this weight.
    reference : ``"moa"`` (default) or ``"kdd2018"``, see above.

    Examples
    --------
    >>> from workbench import learners, streams, evaluate
    >>> X, y = streams.sea(n=20_000, seed=1)
    >>> model = learners.HoeffdingTree(n_features=3, n_classes=2)
    >>> res = evaluate.prequential(model, X, y)
    >>> round(res.accuracy, 2) > 0.8
    True
    >>> model.n_leaves > 1
    True

    A bound of one's own (here Hoeffding's, written out: the same tree, bit for bit):

    >>> import math
    >>> from numba import njit
    >>> @njit
    ... def my_hoeffding(n, delta, value_range, n_classes):
    ...     return value_range * math.sqrt(math.log(1.0 / delta) / (2.0 * n))
    >>> mine = learners.HoeffdingTree(n_features=3, n_classes=2, bound=my_hoeffding)
    >>> bool((evaluate.prequential(mine, X, y).predictions == res.predictions).all())
    True
    >>> mine.explain_one(X[0]).bound_name
    'my_hoeffding'
    """

    _extra_params = dict(reference="moa")

    def _validated(self, n_features, n_classes, categories=None):
        p = super()._validated(n_features, n_classes, categories)
        p.reference = check_choice(self.reference, "reference", REFERENCES)
        for name, value in REFERENCES[p.reference].items():
            setattr(p, name, value)
        return p
