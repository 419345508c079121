"""numba's inliner copies a callee's scope once per copied IR while a workbench function
compiles, and only then (workbench._inline_copies).

The copy must be what one deep-copy memo for the whole IR would give (every block of a copy sees
one copy of the scope, never the original), a scope copied anywhere else must be copied as
before, a kernel compiled with it must be the same machine code as without it, and anyone
else's function must compile exactly as with numba alone: no copy of ours runs while it
compiles, and its machine code is that of a process that never imported the workbench.
"""

from __future__ import annotations

import copy
import hashlib
import struct
import subprocess
import sys
import types
from collections import defaultdict

import numpy as np
import pytest
from numba import njit
from numba.core import ir
from numba.core.compiler import run_frontend
from numba.extending import overload

import workbench  # noqa: F401  (installs the listener)
from workbench import _inline_copies as ic

# a callee with many blocks and variables, inlined twice into another inlined step, as the
# engine's steps nest; compiled once as a workbench module's functions, once as a user's
SOURCE = """
import numpy as np
from numba import njit
from numba.extending import overload


@njit(inline="always")
def clip_sum(a, lo, hi):
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
def two_sums(a, b):
    s = clip_sum(a, -1.0, 1.0)
    t = clip_sum(b, 0.0, 2.0)
    if s > t:
        return s - t
    return t - s


def outer(a, b):
    out = 0.0
    for r in range(3):
        out += two_sums(a, b) * (r + 1)
    return out


# inlined through numba's typed path (an overload), which keeps its IR and copies it afresh
# at every call site
def shift(x):
    pass


@overload(shift, inline="always")
def _shift_impl(x):
    def impl(x):
        y = x * 2.0
        if y > 1.0:
            y -= 1.0
        return y

    return impl


@njit
def two_sites(x):
    return shift(x) + shift(x + 1.0)
"""


def _module(name: str) -> types.ModuleType:
    """SOURCE as a module named ``name`` (its functions' ``__module__``)."""
    module = types.ModuleType(name)
    exec(compile(SOURCE, f"<{name}>", "exec"), module.__dict__)
    return module


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


def _compiled_code(module) -> dict:
    a = np.linspace(-3.0, 3.0, 11)
    b = np.linspace(0.0, 1.0, 7)
    f = njit(module.outer)
    assert f(a, b) == pytest.approx(_reference(a, b), rel=1e-15)
    return _code_sections(f.overloads[f.signatures[0]])


@pytest.fixture
def spy(monkeypatch):
    """Record, for every scope our copy serves inside a run of numba's ``copy_ir``, which copy
    it got (the listener puts whatever ``ic._scope_deepcopy`` names on ``Scope``)."""
    seen = defaultdict(set)  # (id of copy_ir's new IR, id of the original) -> ids of its copies
    alive = []  # the new IRs and copies, held so that their ids are not reused during the test
    real = ic._scope_deepcopy

    def recording(self, memo):
        new = real(self, memo)
        assert new is not self
        target = ic._copy_ir_target(sys._getframe(1))
        if target is not None:
            alive.extend((target, new))
            seen[(id(target), id(self))].add(id(new))
        return new

    monkeypatch.setattr(ic, "_scope_deepcopy", recording)
    return seen


def test_installed_by_the_package_and_off_at_rest():
    assert ic.applicable() and ic.installed() and ic.install()
    # no compile in progress: numba's Scope is numba's own
    assert "__deepcopy__" not in vars(ir.Scope)
    assert ic.is_workbench_function(workbench.lazy_submodules)
    assert not ic.is_workbench_function(_reference)
    assert not ic.is_workbench_function(types.SimpleNamespace(__module__="workbenchmark.x"))


def _probe(record: list, tag: str):
    """A function numba inlines through an overload: its typing runs while the function that
    calls it compiles, and records whether our copy is on ``Scope`` then."""

    def probe(x):
        pass

    @overload(probe, inline="always")
    def _impl(x):
        record.append((tag, vars(ir.Scope).get("__deepcopy__") is ic._scope_deepcopy))

        def impl(x):
            return x + 1.0

        return impl

    return probe


def test_on_exactly_while_a_workbench_function_compiles():
    """A workbench kernel typing a user's function, and a user's function typing a workbench
    one: each compile gets its own module's copy, nested or not."""
    record = []
    user = {
        "__name__": "users_notebook",
        "njit": njit,
        "probe_user": _probe(record, "user"),
        "probe_user_after": _probe(record, "user, after its workbench callee"),
    }
    wb = {
        "__name__": "workbench._inline_probe",
        "njit": njit,
        "probe_wb": _probe(record, "workbench"),
        "probe_wb_after": _probe(record, "workbench, after its user callee"),
    }
    exec("@njit\ndef user_leaf(x):\n    return probe_user(x)\n", user)
    exec("@njit\ndef wb_leaf(x):\n    return probe_wb(x)\n", wb)
    wb["user_leaf"], user["wb_leaf"] = user["user_leaf"], wb["wb_leaf"]
    exec("@njit\ndef wb_calls_user(x):\n    return probe_wb_after(user_leaf(x))\n", wb)
    exec("@njit\ndef user_calls_wb(x):\n    return probe_user_after(wb_leaf(x))\n", user)
    assert wb["wb_calls_user"](1.0) == 3.0  # compiles it, and user_leaf inside its compile
    assert user["user_calls_wb"](1.0) == 3.0  # compiles it, and wb_leaf inside its compile
    seen = defaultdict(set)
    for tag, on in record:
        seen[tag].add(on)
    assert seen == {
        "user": {False},  # a user's function typed by a workbench kernel: numba's own copy
        "workbench, after its user callee": {True},  # back in the workbench function's compile
        "workbench": {True},  # a workbench function typed by a user's: ours, for its compile
        "user, after its workbench callee": {False},  # and numba's again for the user's
    }, record
    assert "__deepcopy__" not in vars(ir.Scope)  # off again after every compile


# numba warns about a variable of the overload's inlined copy with or without the copy here
@pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaIRAssumptionWarning")
def test_one_copy_of_a_scope_per_copied_ir_in_workbench_compiles(spy):
    a = np.array([0.5, 3.0, -2.0, np.nan, 0.25])
    b = np.array([1.5, -1.0, 4.0, 0.0])
    module = _module("workbench._inline_probe_a")
    f = njit(module.outer)
    assert f(a, b) == pytest.approx(_reference(a, b), rel=1e-15)
    assert module.two_sites(0.25) == 0.5 + 1.5
    assert spy, "our copy served no scope: the inliner (or the listener) has changed"
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


@pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaIRAssumptionWarning")
def test_a_users_function_never_meets_our_copy(spy):
    a = np.array([0.5, 3.0, -2.0, np.nan, 0.25])
    b = np.array([1.5, -1.0, 4.0, 0.0])
    module = _module("users_notebook_b")
    f = njit(module.outer)
    assert f(a, b) == pytest.approx(_reference(a, b), rel=1e-15)
    assert module.two_sites(0.25) == 0.5 + 1.5
    assert not spy  # numba's own deep copy made every copy


def test_a_scope_copied_elsewhere_is_copied_as_before():
    func_ir = run_frontend(_reference)
    blocks = list(func_ir.blocks.values())
    scope = blocks[0].scope
    ic._put(True)  # as during a workbench compile, but outside copy_ir
    try:
        one = copy.deepcopy(blocks[0])
        two = copy.deepcopy(blocks[0])
    finally:
        ic._put(False)
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
    code_with = _compiled_code(_module("workbench._inline_probe_c"))
    ic.uninstall()
    try:
        assert not ic.installed()
        code_without = _compiled_code(_module("workbench._inline_probe_d"))
    finally:
        assert ic.install()
    assert code_with == code_without


def test_a_users_function_compiles_as_in_a_process_without_the_workbench():
    """The same user's function compiled in two fresh processes, one that imported the
    workbench first and one that never did: the same machine code, and numba's Scope as
    numba made it."""
    import inspect

    script = "\n".join(
        [
            "import hashlib, struct, sys, types",
            "import numpy as np",
            "from numba import njit",
            "from numba.core import ir",
            "if sys.argv[1] == 'with':",
            "    import workbench",
            "    from workbench.learners import HoeffdingTree  # a workbench user's usual import",
            f"SOURCE = {SOURCE!r}",
            inspect.getsource(_code_sections),
            "module = types.ModuleType('users_notebook')",
            "exec(compile(SOURCE, '<users_notebook>', 'exec'), module.__dict__)",
            "f = njit(module.outer)",
            "f(np.linspace(-3.0, 3.0, 11), np.linspace(0.0, 1.0, 7))",
            "module.two_sites(0.25)",
            "code = _code_sections(f.overloads[f.signatures[0]])",
            "g = module.two_sites",
            "code.update({'two_sites' + k: v for k, v in",
            "             _code_sections(g.overloads[g.signatures[0]]).items()})",
            "digest = hashlib.sha256(b''.join(code[k] for k in sorted(code))).hexdigest()",
            "print(digest, '__deepcopy__' in vars(ir.Scope), 'workbench' in sys.modules)",
        ]
    )
    out = {}
    for mode in ("with", "without"):
        run = subprocess.run(
            [sys.executable, "-c", script, mode], capture_output=True, text=True, timeout=300
        )
        assert run.returncode == 0, run.stderr
        out[mode] = run.stdout.split()
    assert out["with"][2] == "True" and out["without"][2] == "False"
    assert out["with"][1] == out["without"][1] == "False"
    assert out["with"][0] == out["without"][0]
    assert len(hashlib.sha256(b"").hexdigest()) == len(out["with"][0])
