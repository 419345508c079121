"""The engine's results do not move by accident.

``tests/reference/engine_outputs.npz`` holds the predictions, leaf-count curves and class
probabilities of HoeffdingTree (two policies), CTree (both bounds) and CorrHTree on the four
benchmark streams, and of every label-query strategy with DDM resets on Electricity, recorded by
``tests/reference/make_engine_reference.py`` at git c8ea069 (before the engine was reshaped into
named steps, issue 10).  Every case must reproduce them exactly.

Recorded changes since then (each made on purpose, with the reference regenerated if it moved):
- issue 10, a leaf whose only valid candidate is one attribute splits at its first test, as in
  MOA (its rival is the null split, merit -inf under the minimum branch fraction).  None of the
  stored outputs moved: every stream here has at least two attributes, and where only one of
  them had a valid split, the other's merit of -inf already gave a margin of +inf.  Only
  one-attribute streams move (``test_engine.py::test_a_single_attribute_splits_at_its_first_test``).
"""

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "reference"))
import make_engine_reference as ref  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def stored():
    with np.load(ref.OUT, allow_pickle=False) as f:
        return {k: f[k] for k in f.files}


@pytest.fixture(scope="module")
def fresh():
    return ref.run_all()


def test_same_cases(stored, fresh):
    assert sorted(stored) == sorted(fresh)


@pytest.mark.parametrize("kind", ["pred", "leaves", "proba", "queried", "counters"])
def test_outputs_identical(stored, fresh, kind):
    names = [k for k in stored if k.endswith("/" + kind)]
    assert names, kind
    moved = []
    for k in names:
        a, b = stored[k], fresh[k]
        if a.shape != b.shape or not np.array_equal(a, b):
            where = (
                "shape"
                if a.shape != b.shape
                else f"first difference at {np.argwhere(a != b)[0].tolist()}"
            )
            moved.append(f"{k}: {where}")
    assert not moved, "results moved:\n" + "\n".join(moved)
