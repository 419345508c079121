"""Numbers compared in a sentence print in the order they have (workbench._numbers)."""

import math

from hypothesis import given, strategies as st

from workbench._numbers import compared, fmt_num

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


def _order(a, b):
    return (a > b) - (a < b)


@given(finite, finite)
def test_printed_comparison_agrees_with_the_real_one(a, b):
    sa, sb = compared(a, b)
    assert _order(float(sa), float(sb)) == _order(a, b)
    assert not sa.startswith("-0") or float(sa) != 0


@given(st.floats(min_value=0.01, max_value=1.0), st.floats(min_value=1e-9, max_value=1e-3))
def test_close_numbers_get_the_digits_that_separate_them(eps, rel):
    margin = eps * (1 + rel)
    sm, se = compared(margin, eps)
    assert float(sm) > float(se)


def test_the_issue_example_prints_in_order():
    # the stepper's sentence said "beats the second best by 0.142, less than epsilon = 0.1419"
    sm, se = compared(0.14186, 0.14189)
    assert (sm, se) == ("0.14186", "0.14189")
    assert compared(0.1420, 0.1419) == ("0.1420", "0.1419")


def test_negative_zero_prints_as_zero():
    assert fmt_num(-0.0) == "0" and fmt_num(-1e-20, 4) == "-1e-20"
    assert fmt_num(-0.00001, 1) == "-1e-05"
    assert compared(-0.0, 0.0) == ("0", "0")
    assert fmt_num(math.inf) == "inf" and fmt_num(math.nan) == "nan"
