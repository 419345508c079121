"""Hoeffding tree (VFDT) of Domingos and Hulten (2000), as MOA and River implement it."""

from __future__ import annotations

from .base import BaseTree


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
    naive Bayes (``"nba"``, the default of MOA and River).  Defaults are MOA's and River's.

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
