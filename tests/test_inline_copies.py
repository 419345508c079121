"""numba's inliner copies a callee's scope once per copied IR (workbench._inline_copies).

The copy must be what one deep-copy memo for the whole IR would give (every block of a copy sees
one copy of the scope, never the original), a scope copied anywhere else must be copied as
before, and a kernel compiled with it must be the same machine code as without it.
"""

from __future__ import annotations

import copy
import struct
import sys
from collections import defaultdict

import numpy as np
import pytest
from numba import njit
from numba.core import ir
from numba.core.compiler import run_frontend
from numba.extending import overload

import workbench  # noqa: F401  (installs the copy)
from workbench import _inline_copies as ic


# a callee with many blocks and variables, inlined twice into another inlined step, as the
# engine's steps nest
@njit(inline="always")
def _clip_sum(a, lo, hi):
    total = 0.0
    for k in range(a.shape[0]):
        v = a[k]
        if v < lo:
            v = lo
        elif v > hi:
            v = hi
        if np.isnan(v):
            continue
        total += v
    return total


@njit(inline="always")
def _two_sums(a, b):
    s = _clip_sum(a, -1.0, 1.0)
    t = _clip_sum(b, 0.0, 2.0)
    if s > t:
        return s - t
    return t - s


def _outer(a, b):
    out = 0.0
    for r in range(3):
        out += _two_sums(a, b) * (r + 1)
    return out


def _shift(x):
    """A function numba inlines through its typed path (an overload), whose IR it keeps and
    copies afresh at every call site."""


@overload(_shift, inline="always")
def _shift_impl(x):
    def impl(x):
        y = x * 2.0
        if y > 1.0:
            y -= 1.0
        return y

    return impl


@njit
def _two_sites(x):
    return _shift(x) + _shift(x + 1.0)


def _reference(a, b):
    def clip_sum(x, lo, hi):
        return float(np.nansum(np.clip(x, lo, hi)))

    return 6.0 * abs(clip_sum(a, -1.0, 1.0) - clip_sum(b, 0.0, 2.0))


def _code_sections(cres) -> dict:
    """The machine code of a compiled function: its object's code sections, by name (symbol
    names differ between two compiles of one function; the code does not)."""
    elf = cres.library.serialize_using_object_code()[2][0]
    assert elf[:4] == b"\x7fELF"
    shoff = struct.unpack_from("<Q", elf, 0x28)[0]
    entsize, count, names_at = struct.unpack_from("<HHH", elf, 0x3A)
    heads = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * entsize) for i in range(count)]
    base = heads[names_at][4]
    found = {}
    for h in heads:
        name = elf[base + h[0] : elf.index(b"\0", base + h[0])].decode()
        if name in (".text", ".ltext") or name.startswith((".text.", ".ltext.")):
            found[name] = elf[h[4] : h[4] + h[5]]
    assert found, "no code section found"
    return found


@pytest.fixture
def spy(monkeypatch):
    """Record, for every scope copied inside a run of numba's ``copy_ir``, which copy it got."""
    seen = defaultdict(set)  # (id of copy_ir's new IR, id of the original) -> ids of its copies
    alive = []  # the new IRs and copies, held so that their ids are not reused during the test
    real = ir.Scope.__deepcopy__

    def recording(self, memo):
        new = real(self, memo)
        assert new is not self
        target = ic._copy_ir_target(sys._getframe(1))
        if target is not None:
            alive.extend((target, new))
            seen[(id(target), id(self))].add(id(new))
        return new

    monkeypatch.setattr(ir.Scope, "__deepcopy__", recording)
    return seen


def test_installed_by_the_package():
    assert ic.applicable()
    assert ic.install()
    assert vars(ir.Scope)["__deepcopy__"] is ic._scope_deepcopy


# numba warns about a variable of the overload's inlined copy with or without the copy here
@pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaIRAssumptionWarning")
def test_one_copy_of_a_scope_per_copied_ir(spy):
    a = np.array([0.5, 3.0, -2.0, np.nan, 0.25])
    b = np.array([1.5, -1.0, 4.0, 0.0])
    f = njit(_outer)
    assert f(a, b) == pytest.approx(_reference(a, b), rel=1e-15)
    assert _two_sites(0.25) == 0.5 + 1.5
    assert spy, "numba's copy_ir copied no scope: the inliner has changed"
    # every block of one copy of the IR got the same copy of the scope (per block, the generic
    # deep copy would have made one each)
    assert all(len(copies) == 1 for copies in spy.values())
    # and each copy of an IR got a copy of its own: the overload's kept IR is copied at each of
    # its two call sites, and the inliner renames the variables of the copy it inlines
    by_original = defaultdict(list)
    for (_run, original), copies in spy.items():
        by_original[original].extend(copies)
    assert any(len(c) > 1 for c in by_original.values())
    assert all(len(c) == len(set(c)) for c in by_original.values())


def test_a_scope_copied_elsewhere_is_copied_as_before():
    func_ir = run_frontend(_reference)
    blocks = list(func_ir.blocks.values())
    scope = blocks[0].scope
    one = copy.deepcopy(blocks[0])
    two = copy.deepcopy(blocks[0])
    assert one.scope is not scope and two.scope is not scope and one.scope is not two.scope
    assert one.scope.localvars._con.keys() == scope.localvars._con.keys()
    # a copy is its own: defining a variable in it leaves the original and the other copy alone
    one.scope.define("only_in_one", scope.loc)
    assert "only_in_one" not in scope.localvars
    assert "only_in_one" not in two.scope.localvars
    # the variables of a copied block point at its copy of the scope
    names = {v.name for stmt in one.body for v in stmt.list_vars()}
    assert names
    for stmt in one.body:
        for v in stmt.list_vars():
            assert v.scope is one.scope


def test_same_machine_code_with_and_without():
    a = np.linspace(-3.0, 3.0, 11)
    b = np.linspace(0.0, 1.0, 7)
    with_copy = njit(_outer)
    expected = with_copy(a, b)
    code_with = _code_sections(with_copy.overloads[with_copy.signatures[0]])
    ic.uninstall()
    try:
        assert "__deepcopy__" not in vars(ir.Scope)
        without = njit(_outer)
        assert without(a, b) == expected
        code_without = _code_sections(without.overloads[without.signatures[0]])
    finally:
        assert ic.install()
    assert code_with == code_without
