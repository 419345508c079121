"""The tree engine: flat node arrays, routing, sufficient statistics, split search, leaf
predictors, and the numba kernels that learn and predict over whole arrays.

One concept per module:

``state``          the tree's arrays (struct of arrays) and their growth
``params``         the policy vector: the numbers and codes that make a learner
``routing``        a row's way from the root to its leaf
``observers``      what a leaf's Gaussian and nominal statistics estimate
``observe``        learning a row into them (the one Welford update)
``criteria``       split criteria (impurities, their merit and range)
``epsilon``        a leaf's epsilon: the bound dispatch, a user's bound, the range R
``search``         every feature's best candidate split, its screen, MOA's merit sums
``rules``          the split rules' quantities and thresholds
``decide``         a leaf's split decision
``reevaluate``     HATT's re-evaluation of inner nodes
``edits``          allocating, splitting, replacing, killing, resetting
``leaf_predict``   the leaf predictors (MC, Laplace, NB, adaptive NB)
``naive_bayes``    naive Bayes's arithmetic and shortcuts
``active_steps``   the ACTIVE protocol's steps (labels within a budget, Frugal, DDM)
``forest_steps``   UFFT's steps (inner nodes' naive Bayes and DDM, prune and refill)
``steps``          the loop's bookkeeping steps (due for a split attempt, leaf samples)
``_inline``        how the steps are written into the loop (``inline``, ``release``)
``engine``         the per-instance loop ``run_stream`` and the batch kernels around it
``forest``         UFFT's forest kernel; ``stored`` BOCT's stored-instance kernels
``analytic``       UFFT's analytical cut point; ``memory`` UFFT's short-term memory
``validate``       input checks; ``dot`` DOT export
"""
