"""The tree engine: flat node arrays, routing, sufficient statistics, split search, leaf
predictors, and the numba kernels that learn and predict over whole arrays.

Modules (one concept each): ``state`` (the arrays), ``params`` (the policy vector),
``criteria`` (split criteria), ``observers`` (Gaussian and nominal statistics), ``leaf`` (leaf
predictors), ``routing``, ``split`` (split search, decision, structural edits), ``engine`` (batch
kernels), ``validate`` (input checks), ``dot`` (DOT export).
"""
