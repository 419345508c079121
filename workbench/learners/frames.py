"""pandas DataFrames in: columns matched by name, categorical and string columns as nominal
features, ``pd.NA`` as a missing value.

The learners take numpy arrays or DataFrames.  A DataFrame whose column names are all strings
gives the model ``feature_names_in_`` at its first fit; later frames are matched to those names
(any column order; a missing or an extra name is an error that lists them).  A column of dtype
``category``, ``object`` or ``string`` becomes a nominal feature: its categories (a categorical's
own, or the sorted distinct values of the first frame) are kept in ``categories_`` and the values
are coded 0..V-1.  A value not among them is missing (NaN) when predicting, and an error when
learning.  pandas is imported only when a DataFrame is passed.
"""

from __future__ import annotations

import numpy as np


def is_frame(X) -> bool:
    return hasattr(X, "columns") and hasattr(X, "dtypes") and hasattr(X, "iloc")


def _is_nominal_dtype(dtype) -> bool:
    import pandas as pd

    return (
        isinstance(dtype, pd.CategoricalDtype)
        or pd.api.types.is_object_dtype(dtype)
        or pd.api.types.is_string_dtype(dtype)
    )


def frame_columns(X):
    """(column names or None, {column: categories}) of a DataFrame about to be fitted on."""
    if not is_frame(X):
        return None, {}
    import pandas as pd

    names = [c for c in X.columns]
    names = names if all(isinstance(c, str) for c in names) else None
    categories = {}
    for j, (col, dtype) in enumerate(zip(X.columns, X.dtypes)):
        if not _is_nominal_dtype(dtype):
            continue
        if isinstance(dtype, pd.CategoricalDtype):
            cats = list(dtype.categories)
        else:
            values = X[col].dropna().unique().tolist()
            try:
                cats = sorted(values)
            except TypeError:
                cats = sorted(values, key=str)
        categories[j] = cats
    return names, categories


def frame_to_matrix(X, model, *, name: str = "X", learning: bool = False):
    """A DataFrame as a float64 matrix in the model's column order (anything else unchanged)."""
    if not is_frame(X):
        return X
    import pandas as pd

    names = getattr(model, "feature_names_in_", None)
    if names is not None:
        cols = list(X.columns)
        missing = [c for c in names if c not in cols]
        extra = [c for c in cols if c not in set(names)]
        if missing or extra:
            raise ValueError(
                f"the columns of {name} do not match the features the model was "
                f"fitted on: missing {missing}, unexpected {extra}"
            )
        X = X[list(names)]
    out = np.empty(X.shape, dtype=np.float64)
    categories = getattr(model, "categories_", {}) or {}
    for j, col in enumerate(X.columns):
        s = X[col]
        if j in categories:
            cats = categories[j]
            # pandas codes the whole column at once: -1 for a missing or an unknown value (an
            # Index lookup: building a Categorical from unknown values is deprecated in pandas)
            codes = pd.Index(cats).get_indexer(s.astype(object)).astype(np.float64)
            missing = s.isna().to_numpy()
            unseen = (codes == -1.0) & ~missing
            if unseen.any():
                i = int(np.argmax(unseen))
                if learning:
                    raise ValueError(
                        f"column {col!r} of {name} holds {s.iloc[i]!r}, not one of "
                        f"the categories the model was fitted with: {cats}"
                    )
            codes[codes == -1.0] = np.nan  # an unseen category predicts like a missing value
            out[:, j] = codes
        else:
            try:
                out[:, j] = s.to_numpy(dtype=np.float64, na_value=np.nan)
            except (TypeError, ValueError) as exc:
                raise ValueError(
                    f"column {col!r} of {name} must be numeric or categorical ({exc})"
                ) from None
    return out
