"""The tree engine: flat node arrays, routing, sufficient statistics, split search, leaf
predictors, and the numba kernels that learn and predict over whole arrays.

Modules (one concept each): ``state`` (the arrays), ``params`` (the policy vector),
``criteria`` (split criteria), ``observers`` (Gaussian and nominal statistics), ``rules`` (split
rules), ``routing``, ``split`` (split search, decision, re-evaluation, structural edits),
``steps`` (the steps of the per-instance loop: leaf predictors, learning, queries, drift),
``engine`` (the batch kernels and the edits callable from Python), ``validate`` (input checks),
``dot`` (DOT export), ``custom`` (a user's own bound: ``bound=my_bound``).
"""
