"""Input checks at the boundary between Python and the kernels.

Everything that could crash a kernel or silently corrupt a model is caught here with a
``ValueError`` that names the problem: non-numeric data, a wrong number of columns, infinities,
labels that are not integers in ``range(n_classes)``, nominal codes outside their declared range
(when learning), and empty input.  NaN is a missing value and passes.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
from numba import njit


def as_matrix(
    X, n_features: int, *, name: str = "X", allow_empty: bool = False, nominal=None
) -> np.ndarray:
    """X as a C-contiguous float64 [n, n_features] array (a single row becomes [1, d]).
    With ``nominal`` ({column: number of codes}, when learning) its nominal columns must hold
    codes as :func:`check_nominal_codes` says; the one pass that screens X for infinities
    screens them too (:func:`values_suspect`)."""
    if isinstance(X, np.ndarray) and X.dtype.kind in "SUV":
        raise ValueError(
            f"{name} must be numeric; got an array of dtype {X.dtype} (encode "
            "nominal values as integer codes, e.g. with workbench.streams, or pass "
            "a DataFrame with categorical columns)"
        )
    if is_sparse(X):
        raise TypeError(
            f"{name} is a sparse matrix, and sparse input is not supported: the "
            "trees read dense rows (convert it with X.toarray())"
        )
    try:
        raw = np.asarray(X)
    except (TypeError, ValueError):
        raw = None
    if raw is not None and raw.dtype.kind == "c":
        raise ValueError(
            f"Complex data not supported: {name} holds complex numbers; the features must be real"
        )
    try:
        arr = np.asarray(X if raw is None else raw, dtype=np.float64)
    except TypeError as exc:
        raise TypeError(f"{name} must be a numeric array ({exc})") from None
    except ValueError as exc:
        raise ValueError(f"{name} must be a numeric array ({exc})") from None
    if arr.ndim == 1:
        raise ValueError(one_d_message(name, arr))
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D [n_samples, n_features]; got {arr.ndim}-D")
    if arr.shape[1] != n_features:
        raise ValueError(
            f"{name} has {arr.shape[1]} features, but the model is expecting "
            f"{n_features} features as input"
        )
    if arr.shape[0] == 0 and not allow_empty:
        raise ValueError(f"{name} is empty: a stream of length zero cannot be learned from")
    arr = writable(np.ascontiguousarray(arr))
    # a few rows (learn_one, predict_one): NumPy's checks cost less than calling the screen
    large = arr.size >= SCREEN_MIN_VALUES
    if not large or values_suspect(arr, nominal or {}):
        if np.isinf(arr).any():
            rows, cols = np.nonzero(np.isinf(arr))
            raise ValueError(
                f"{name} contains infinity (first at row {rows[0]}, column {cols[0]}); "
                "use NaN for a missing value"
            )
        check_nominal_codes(arr, nominal or {}, name=name, screened=large)
    return arr


#: from how many values on :func:`as_matrix` screens X in one compiled pass: below it, calling
#: the screen (a few microseconds) costs more than NumPy's checks (a row of SEA learned with
#: ``learn_one`` took 24 us with the screen, 18.5 us without)
SCREEN_MIN_VALUES = 8192


def writable(arr: np.ndarray) -> np.ndarray:
    """``arr``, or a copy of it if it is read-only (a memory map, a view of a frozen array).
    numba compiles a separate variant of every kernel for read-only arrays, and that variant is
    not in the cache the set-up fills: a read-only X would cost a minute of compiling (UFFT's
    forest kernel: 85 s) for a copy that costs microseconds per thousand rows."""
    return arr if arr.flags.writeable else arr.copy()


def one_d_message(name: str, arr) -> str:
    """What to say when a 1-D array is given where rows of features are expected."""
    return (
        f"{name} must be 2-D [n_samples, n_features]; got a 1-D array of {len(arr)} values. "
        f"Reshape your data: {name}.reshape(-1, 1) if it holds one feature, "
        f"{name}.reshape(1, -1) if it is one instance (or use learn_one / predict_one)"
    )


def is_sparse(X) -> bool:
    """A SciPy sparse matrix or array (without importing SciPy when it is not loaded)."""
    import sys

    sparse = sys.modules.get("scipy.sparse")
    return sparse is not None and sparse.issparse(X)


def as_labels(y, n_classes: int, n_rows: int, *, name: str = "y") -> np.ndarray:
    """y as int64 [n] with every label in range(n_classes)."""
    if isinstance(y, np.ndarray) and y.dtype.kind in "SUV":
        raise ValueError(
            f"{name} must hold integer class labels; got an array of dtype "
            f"{y.dtype} (encode classes as 0..n_classes-1)"
        )
    if (
        isinstance(y, np.ndarray)
        and y.dtype.kind in "iu"
        and y.ndim == 1
        and y.shape[0] == n_rows > 0
    ):
        # integer labels (the usual case): only the range needs checking
        lo, hi = int(y.min()), int(y.max())
        if 0 <= lo and hi < n_classes:
            return writable(np.ascontiguousarray(y, dtype=np.int64))
    try:
        arr = np.asarray(y, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must hold integer class labels ({exc})") from None
    if arr.shape[0] != n_rows:
        raise ValueError(f"{name} has {arr.shape[0]} labels but X has {n_rows} rows")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty: a stream of length zero cannot be learned from")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or infinity; every instance needs a label")
    as_int = arr.astype(np.int64)
    if (as_int != arr).any():
        i = int(np.argmax(as_int != arr))
        raise ValueError(f"{name} must hold integer class labels; {name}[{i}] = {arr[i]}")
    bad = (as_int < 0) | (as_int >= n_classes)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(
            f"label {as_int[i]} at {name}[{i}] is outside range(n_classes) = range({n_classes})"
        )
    return as_int


def check_nominal_codes(
    X: np.ndarray, nominal: dict[int, int], *, name: str = "X", screened: bool = False
) -> None:
    """Nominal columns must hold integer codes in [0, n_values) (or NaN) when learning.

    One compiled pass over the rows (:func:`nominal_code_faults`) finds, per nominal column,
    the first value that is not a whole number and the first whole number outside its codes;
    the error names the first column with a fault, a value that is not a whole number before
    one out of range.  (Column by column in NumPy this took 8 ms per 200,000 rows of
    RandomTree's five nominal columns, more than a fifth of learning them: each column's pass
    read every cache line of the row-major X.)  A screen runs first
    (:func:`values_suspect`), and that pass only where it finds a suspect block
    (``screened``: the caller's screen found one)."""
    if not nominal or X.shape[0] == 0:
        return
    if not screened and X.flags.c_contiguous and not values_suspect(X, nominal):
        return
    cols = np.fromiter(nominal.keys(), np.int64, len(nominal))
    cards = np.fromiter(nominal.values(), np.float64, len(nominal))
    faults = nominal_code_faults(X, cols, cards)
    for q, (col, card) in enumerate(nominal.items()):
        if faults[0, q] >= 0:
            raise ValueError(
                f"nominal column {col} of {name} holds {float(X[faults[0, q], col])}, "
                "which is not an integer code (nominal values are codes 0, 1, 2, "
                "...)"
            )
        if faults[1, q] >= 0:
            raise ValueError(
                f"nominal column {col} of {name} holds {int(X[faults[1, q], col])}, outside "
                f"its declared codes 0..{card - 1} (declare more values in "
                "nominal_features, e.g. {col: n_values})"
            )


def values_suspect(X: np.ndarray, nominal: dict[int, int]) -> bool:
    """Whether the C-contiguous X may hold an infinity, or a value in a nominal column
    (``nominal``, {column: number of codes}) that is not one of its codes (NaN is no fault): a
    screen, without a false negative, that reads X once in the order it lies in memory
    (:func:`_screen`, which the compiler vectorises), so that the exact checks (``np.isinf``,
    0.2-0.4 ms per 100,000 rows of nine columns; :func:`nominal_code_faults`, a gather per
    value: 1 ms per 100,000 rows of five nominal columns) run only where there is a fault."""
    d = X.shape[1]
    card = np.full(d, np.inf)
    for col, n_values in nominal.items():
        card[col] = n_values
    return _screen(X.reshape(-1), np.tile(card, max(1, 512 // d))) >= 0


@njit(cache=True)
def _screen(flat, card_block):
    """The first block of ``card_block.shape[0]`` values of ``flat`` (the rows of X, one after
    another) with an infinity or a value that is not a code of its column, or -1.
    ``card_block`` gives every position of a block its column's number of codes (inf: a
    numeric column, where only an infinity is a fault); NaN is never a fault.  Each block is
    screened without a branch per value."""
    size = card_block.shape[0]
    for b in range((flat.shape[0] + size - 1) // size):
        seg = flat[b * size : (b + 1) * size]
        bad = 0
        for f in range(seg.shape[0]):
            x = seg[f]
            c = card_block[f]
            code = (x >= 0.0) & (x < c) & (x == np.floor(x))
            infinite = (x == np.inf) | (x == -np.inf)
            bad += np.int64(infinite | (not (code | (c == np.inf) | (x != x))))
        if bad:
            return b
    return -1


@njit(cache=True)
def nominal_code_faults(X, cols, cards):
    """[2, m] rows of X: for nominal column ``cols[q]`` (``cards[q]`` codes), the first row whose
    value is not a whole number (row 0 of the result) and the first whose whole value lies
    outside [0, cards[q]) (row 1); -1 where there is none.  NaN (missing) is no fault."""
    m = cols.shape[0]
    out = np.full((2, m), -1, np.int64)
    for i in range(X.shape[0]):
        for q in range(m):
            x = X[i, cols[q]]
            if x == x:
                if x != math.floor(x):
                    if out[0, q] < 0:
                        out[0, q] = i
                elif (x < 0.0 or x >= cards[q]) and out[1, q] < 0:
                    out[1, q] = i
    return out


def normalise_nominal(nominal_features, n_features: int, default_values: int) -> dict[int, int]:
    """``nominal_features`` as {column: number of values}.

    Accepts a mapping {column: n_values} or a sequence of columns (each then declared with
    ``default_values`` values).
    """
    if nominal_features is None:
        return {}
    if isinstance(nominal_features, dict):
        items = list(nominal_features.items())
    else:
        try:
            items = [(c, default_values) for c in nominal_features]
        except TypeError:
            raise ValueError(
                "nominal_features must be a sequence of column indices or a "
                "mapping {column: number of values}"
            ) from None
    out: dict[int, int] = {}
    for col, card in items:
        if not isinstance(col, numbers.Integral) or not 0 <= int(col) < n_features:
            raise ValueError(
                f"nominal_features names column {col!r}, not a column index in 0..{n_features - 1}"
            )
        if not isinstance(card, numbers.Integral) or int(card) < 1:
            raise ValueError(
                f"nominal column {col} must declare a positive whole number of values; got {card!r}"
            )
        out[int(col)] = int(card)
    return dict(sorted(out.items()))


def check_positive_int(value, name: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}")
    return int(value)


def check_positive_real(value, name: str) -> float:
    """A finite number > 0 (not a bool)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not value > 0
        or not math.isfinite(value)
    ):
        raise ValueError(f"{name} must be a positive number; got {value!r}")
    return value


def check_probability(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0.0 < value < 1.0:
        raise ValueError(f"{name} must be a number in the open interval (0, 1); got {value!r}")
    return float(value)


def check_choice(value, name: str, choices) -> str:
    if value not in choices:
        raise ValueError(f"{name} must be one of {sorted(choices)}; got {value!r}")
    return value
