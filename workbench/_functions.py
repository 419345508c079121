"""A user's own numba function inside the workbench's kernels: bounds, criteria, query rules.

The kernels are compiled once, for every function: they receive a user function as the address
of its compiled code and call it through numba's first-class function type.  So

* a user function costs one compilation of itself (a fraction of a second), never a new
  compilation of the tree's loop, and the loop stays in numba's on-disk cache across processes
  (a kernel specialised on a dispatcher object would be typed by that object's identity: numba
  could not find it in the cache in the next process and would compile it again each time);
* the built-in bounds, criteria and strategies compile the same single variant as before: a user
  function is one more policy value (a bound code with an address, a criterion given as its
  address, a strategy code), tested where the policy is read, never a flag in the per-instance
  loop.

The address is that of numba's own calling convention (what numba itself calls when a jitted
function is passed as a first-class function), so an exception raised inside the user function
travels up through the kernel and reaches Python as an exception, not as a crash.

An address lives in the float64 policy vectors (``Config.params``, a strategy's ``params``):
user-space addresses are below 2**48 on every 64-bit platform numba supports, and a float64
holds every integer below 2**53 exactly (checked when the address is stored).  It is valid in
this process only: a pickled learner keeps a *reference* to its function (module and qualified
name) and looks the address up again when it is unpickled.

Nothing here is compiled at import time.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import math
import numbers
import pickle
import weakref

import numpy as np

from numba import njit, types
from numba.core import cgutils
from numba.core.dispatcher import Dispatcher
from numba.core.errors import NumbaError
from numba.extending import intrinsic

_C1D = types.Array(types.float64, 1, "C")
_U1D = types.Array(types.uint64, 1, "C")

#: (n, delta, value_range, n_classes) -> epsilon
BOUND_SIG = types.float64(types.float64, types.float64, types.float64, types.int64)
#: (n, delta, value_range, n_classes, depth, t, n_features) -> epsilon: a bound that also reads
#: where the leaf is and how far the stream has come (000's C-Tree schedule, eq. (7) and (10))
SCHEDULE_SIG = types.float64(
    types.float64,
    types.float64,
    types.float64,
    types.int64,
    types.int64,
    types.int64,
    types.int64,
)
#: (n, delta, value_range, n_classes, stats) -> epsilon: a data-dependent bound, ``stats`` the
#: leaf's class weights and its two best candidates' tables (workbench.bounds.leaf_stats)
STATS_BOUND_SIG = types.float64(types.float64, types.float64, types.float64, types.int64, _C1D)
#: (g_best, g_second, g_null, epsilon, tau, n, looks, depth) -> 0 wait, 1 split on the best
#: candidate (its margin decides), 2 split on the best candidate (a tie)
SPLIT_RULE_SIG = types.int64(
    types.float64,
    types.float64,
    types.float64,
    types.float64,
    types.float64,
    types.float64,
    types.int64,
    types.int64,
)
#: (n, g_best, g_second, epsilon, tau, grace_period, looks) -> the weight (or count) a leaf
#: waits before its next split attempt
GRACE_SIG = types.float64(
    types.float64,
    types.float64,
    types.float64,
    types.float64,
    types.float64,
    types.float64,
    types.int64,
)
#: (class counts of a node) -> impurity
IMPURITY_SIG = types.float64(_C1D)
#: (class counts, probabilities, budget, queried, seen, rng, params, state) -> ask?
RULE_SIG = types.boolean(_C1D, _C1D, types.float64, types.float64, types.float64, _U1D, _C1D, _C1D)

#: what each kind of function takes, in words (for error messages)
EXPECTED = {
    BOUND_SIG: "(n: float, delta: float, value_range: float, n_classes: int) -> epsilon: float",
    SCHEDULE_SIG: "(n: float, delta: float, value_range: float, n_classes: int, depth: int, "
    "t: int, n_features: int) -> epsilon: float",
    STATS_BOUND_SIG: "(n: float, delta: float, value_range: float, n_classes: int, "
    "stats: float64[:]) -> epsilon: float",
    SPLIT_RULE_SIG: "(g_best: float, g_second: float, g_null: float, epsilon: float, tau: float, "
    "n: float, looks: int, depth: int) -> 0 (wait), 1 (split: margin) or 2 (split: tie): int",
    GRACE_SIG: "(n: float, g_best: float, g_second: float, epsilon: float, tau: float, "
    "grace_period: float, looks: int) -> wait: float (> 0)",
    IMPURITY_SIG: "(counts: float64[:] of the node's class weights) -> impurity: float",
    RULE_SIG: "(counts: float64[:], proba: float64[:], budget: float, queried: float, "
    "seen: float, rng: uint64[:], params: float64[:], state: float64[:]) -> ask: bool",
}

_MAX_EXACT = 2**53


def _caller(sig):
    """An intrinsic ``f(address)`` that makes the first-class function of ``sig`` compiled at
    ``address`` (numba's calling convention), to be called like any jitted function."""
    fnty = types.FunctionType(sig)

    @intrinsic
    def at(typingctx, address):
        def codegen(context, builder, signature, args):
            fn = cgutils.create_struct_proxy(fnty)(context, builder)
            ptr = builder.inttoptr(args[0], context.get_value_type(types.voidptr))
            null = context.get_constant_null(types.voidptr)
            fn.c_addr = null
            fn.py_addr = null
            fn.jit_addr = ptr
            return fn._getvalue()

        return fnty(types.int64), codegen

    return at


bound_at = _caller(BOUND_SIG)
schedule_at = _caller(SCHEDULE_SIG)
stats_bound_at = _caller(STATS_BOUND_SIG)
split_rule_at = _caller(SPLIT_RULE_SIG)
grace_at = _caller(GRACE_SIG)
impurity_at = _caller(IMPURITY_SIG)
rule_at = _caller(RULE_SIG)


class UserFunctionError(ValueError):
    """A user function (bound, criterion, query rule) that cannot be used, or that failed."""


def display_name(fn) -> str:
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)


def n_parameters(fn) -> int | None:
    """How many positional parameters the Python function behind ``fn`` declares (None if it
    cannot be told)."""
    code = getattr(getattr(fn, "py_func", fn), "__code__", None)
    if code is not None and not code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS):
        return code.co_argcount + code.co_kwonlyargcount
    try:
        return len(inspect.signature(getattr(fn, "py_func", fn)).parameters)
    except (TypeError, ValueError):
        return None


#: function -> {signature: its checked compile result}: a learner's set-up looks them up again
#: at every fit, which would otherwise cost as much as a short stream
_CHECKED = weakref.WeakKeyDictionary()


def compile_for(fn, sig, role: str):
    """``fn`` compiled for ``sig``, checked: a numba ``@njit`` function that compiles for the
    argument types and returns the type ``sig`` says.  Raises :class:`UserFunctionError` naming
    ``fn``, its role and what was expected."""
    done = _CHECKED.get(fn, {}) if isinstance(fn, Dispatcher) else {}
    if sig in done:
        return done[sig]
    want = EXPECTED[sig]
    name = display_name(fn)
    if not isinstance(fn, Dispatcher):
        kind = "a Python function" if callable(fn) else f"a {type(fn).__name__}"
        raise UserFunctionError(
            f"{role} {name} is {kind}, not a numba-jitted function: decorate it with "
            f"@numba.njit; it must take {want}"
        )
    n_args = n_parameters(fn)
    if n_args is not None and n_args != len(sig.args):
        raise UserFunctionError(
            f"{role} {name} takes {n_args} argument(s); a {role} takes {len(sig.args)}: {want}"
        )
    try:
        fn.compile(tuple(sig.args))  # the argument types only: the return type is checked below
        cres = fn.overloads[tuple(sig.args)]
    except (NumbaError, TypeError, KeyError, RuntimeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if "compilation disabled" in first or not fn._can_compile:
            own = ", ".join(str(s) for s in fn.signatures) or "its own"
            raise UserFunctionError(
                f"{role} {name} was compiled for the signature(s) it declares ({own}) and numba "
                f"compiles it for no other; a {role} is called with {want}: declare it with "
                "@numba.njit and no signature (or with exactly these types)"
            ) from None
        raise UserFunctionError(
            f"{role} {name} does not compile for the arguments it is given, {want} (numba: {first})"
        ) from None
    got = types.unliteral(cres.signature.return_type)
    if got == types.none:
        raise UserFunctionError(
            f"{role} {name} never returns a value (every path of it raises an exception or "
            f"returns nothing); a {role} must return {sig.return_type}: {want}"
        )
    # the machine types must agree (a literal True returns as a bool does; an int never as a
    # float): the kernel reads the result as sig's type, with no conversion
    ctx = fn.targetctx
    if ctx.get_value_type(cres.signature.return_type) != ctx.get_value_type(sig.return_type):
        raise UserFunctionError(
            f"{role} {name} returns {got}; a {role} must return {sig.return_type}: {want}"
            + (" (write 1.0 rather than 1)" if sig.return_type == types.float64 else "")
        )
    _CHECKED.setdefault(fn, {})[sig] = cres
    return cres


def address(fn, sig, role: str) -> float:
    """The address of ``fn``'s compiled code for ``sig`` (checked by :func:`compile_for`), as the
    float64 the policy vectors hold."""
    cres = compile_for(fn, sig, role)
    addr = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
    if not 0 < addr < _MAX_EXACT:  # pragma: no cover - no 64-bit platform maps code there
        raise UserFunctionError(f"{role} {display_name(fn)}: address {addr:#x} out of range")
    return float(addr)


def check_value(fn, role: str, args, value, rule: str) -> float:
    """One call of ``fn`` from Python, at set-up: its value must satisfy ``rule`` ("eps": a
    number >= 0, inf allowed; "finite": a finite number; "verdict": 0, 1 or 2; "wait": a number
    > 0, inf allowed).  Raises :class:`UserFunctionError`
    naming the function, the arguments and what was expected."""
    if isinstance(value, BaseException):
        raise UserFunctionError(
            f"{role} {display_name(fn)} raised {type(value).__name__}: {value} at ({_shown(args)})"
        ) from value
    if rule == "verdict":
        if isinstance(value, (bool, np.bool_)) or value not in (0, 1, 2):
            raise UserFunctionError(
                f"{role} {display_name(fn)} returned {value!r} at ({_shown(args)}); a split rule "
                "must return 0 (wait), 1 (split: its margin decides) or 2 (split: a tie)"
            )
        return int(value)
    if not isinstance(value, (numbers.Real, np.floating, np.integer)) or isinstance(
        value, (bool, np.bool_)
    ):
        raise UserFunctionError(
            f"{role} {display_name(fn)} returned {value!r} (a {type(value).__name__}) at "
            f"({_shown(args)}); a {role} returns one number"
        )
    v = float(value)
    if rule == "wait" and not v > 0.0:
        raise UserFunctionError(
            f"{role} {display_name(fn)} returned {v!r} at ({_shown(args)}); a grace schedule "
            "must return the weight to wait, a number > 0 (inf: no attempt again)"
        )
    if rule == "eps" and not v >= 0.0:
        raise UserFunctionError(
            f"{role} {display_name(fn)} returned {v!r} at ({_shown(args)}); an epsilon must be "
            "a number >= 0 (inf is allowed: the bound never lets the leaf split on its margin)"
        )
    if rule == "finite" and not math.isfinite(v):
        raise UserFunctionError(
            f"{role} {display_name(fn)} returned {v!r} at ({_shown(args)}); an impurity must "
            "be a finite number"
        )
    return v


def call(fn, *args):
    """``fn(*args)``, or the exception it raised."""
    try:
        return fn(*args)
    except Exception as exc:  # handed to check_value, which names it
        return exc


#: the kernels' own checks of what a user function returned: the message's first argument ->
#: (role, where, the arguments' names, what was expected); the kernel raises the message with
#: the value and the arguments (workbench.core.epsilon, .criteria, .decide, .engine)
_KERNEL_CHECKS = {
    "workbench: a user bound returned": (
        "bound",
        "at a leaf's split test",
        ("n", "delta", "value_range", "n_classes"),
        "an epsilon must be a number >= 0",
    ),
    "workbench: a user criterion returned": (
        "criterion",
        "in the split search",
        ("counts",),
        "an impurity must be a finite number",
    ),
    "workbench: a user split rule returned": (
        "split rule",
        "at a leaf's split test",
        ("g_best", "g_second", "g_null", "epsilon", "tau", "n", "looks", "depth"),
        "a split rule must return 0 (wait), 1 (split: margin) or 2 (split: tie)",
    ),
    "workbench: a user grace schedule returned": (
        "grace schedule",
        "after a leaf's split attempt",
        ("n", "g_best", "g_second", "epsilon", "tau", "grace_period", "looks"),
        "a wait must be a number > 0 (inf: no attempt again)",
    ),
}


def kernel_failure(exc: BaseException, functions: dict) -> UserFunctionError:
    """The error to raise when a kernel that called user functions (``{role: function}``)
    stopped with ``exc``: it names the function, the value it returned and the arguments it had
    (or, when the exception came from inside user code and several took part, all of them) and
    says that the model is not usable."""
    args = getattr(exc, "args", ())
    head = args[0] if args and isinstance(args[0], str) else str(exc)
    tail = (
        "; the model learned only part of the rows and cannot be used: fix the function and "
        "fit again"
    )
    for prefix, (role, where, names, expected) in _KERNEL_CHECKS.items():
        if head.startswith(prefix) and role in functions:
            values = args[1:]
            what = f"returned {_short(values[0])}" if values else head[len("workbench: a ") :]
            if values and names:
                at = ", ".join(f"{n}={_short(v)}" for n, v in zip(names, values[1:]))
                what += f" ({at})"
            return UserFunctionError(
                f"{role} {display_name(functions[role])} {what} inside the tree ({where}); "
                f"{expected}{tail}"
            )
    text = str(exc)
    named = ", ".join(f"{role} {display_name(f)}" for role, f in functions.items())
    who = named if len(functions) == 1 else f"one of this run's user functions ({named})"
    return UserFunctionError(
        f"{who} raised {type(exc).__name__}: {text} inside the tree's kernel{tail}"
    )


def _shown(args) -> str:
    return ", ".join(_short(a) for a in args)


def _short(a) -> str:
    if getattr(a, "ndim", 0) > 0:
        return (
            "[" + ", ".join(f"{v:g}" for v in a.ravel().tolist()) + "]" if a.size <= 8 else "array"
        )
    return f"{float(a):g}" if isinstance(a, (float, np.floating)) else repr(a)


# ------------------------------------------------------------------------------------ pickling
def _digest_into(h, obj, seen: set) -> None:
    """Feed what ``obj`` computes into the hash ``h``: a function's code (bytecode, constants,
    names, nested code), the values of the globals and closure cells it reads that numba
    freezes at compile time (numbers, strings, tuples of them), and, recursively, the Python and
    numba functions it calls."""
    fn = getattr(obj, "py_func", obj)
    if id(fn) in seen:
        return
    seen.add(id(fn))
    code = getattr(fn, "__code__", None)
    if code is None:
        h.update(repr(type(fn)).encode())
        return
    h.update(b"fn:" + fn.__qualname__.encode())

    def feed_code(c):
        h.update(c.co_code)
        h.update(repr(c.co_names).encode())
        h.update(repr(c.co_varnames).encode())
        for const in c.co_consts:
            if inspect.iscode(const):
                feed_code(const)
            else:
                h.update(repr(const).encode())

    feed_code(code)
    values = []
    g = getattr(fn, "__globals__", {})
    for name in code.co_names:
        if name in g:
            values.append((name, g[name]))
    for name, cell in zip(code.co_freevars, getattr(fn, "__closure__", None) or ()):
        try:
            values.append((name, cell.cell_contents))
        except ValueError:  # an empty cell
            values.append((name, None))
    for name, value in values:
        if isinstance(value, (Dispatcher,)) or inspect.isfunction(value):
            h.update(b"call:" + name.encode())
            _digest_into(h, value, seen)
        elif isinstance(value, (int, float, complex, str, bytes, bool, tuple, type(None))):
            h.update(f"{name}={value!r}".encode())
        elif isinstance(value, np.ndarray):
            h.update(name.encode() + value.tobytes())


def code_digest(fn) -> str:
    """A short hash of what ``fn`` computes (:func:`_digest_into`): it changes when the code of
    the function, or of a function it calls, or a constant it reads, changes."""
    h = hashlib.sha256()
    _digest_into(h, fn, set())
    return h.hexdigest()[:16]


def identity(fn) -> str:
    """A user function's identity, as sweeps record it: ``module.qualname#digest``."""
    module = getattr(fn, "__module__", None) or "?"
    return f"{module}.{display_name(fn)}#{code_digest(fn)}"


class FunctionReference:
    """What a pickle keeps of a user function: its module, qualified name and the digest of its
    code (:func:`code_digest`).  Unpickling imports the module, looks the name up and checks
    that the function found there computes what the pickled one did (see :func:`reference`,
    :func:`resolve`)."""

    __slots__ = ("module", "qualname", "digest")

    def __init__(self, module: str, qualname: str, digest: str | None = None):
        self.module = module
        self.qualname = qualname
        self.digest = digest

    def __reduce__(self):
        return (FunctionReference, (self.module, self.qualname, self.digest))

    def __repr__(self) -> str:
        return f"FunctionReference({self.module}.{self.qualname}#{self.digest})"


def _lookup(module: str, qualname: str):
    obj = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def reference(fn, role: str) -> FunctionReference:
    """A pickle-able reference to ``fn``, which must be importable: ``module.qualname`` must
    name this very function.  Raises :class:`pickle.PicklingError` otherwise."""
    module = getattr(fn, "__module__", None)
    qualname = getattr(fn, "__qualname__", None)
    name = display_name(fn)
    why = None
    if not module or not qualname:
        why = "it has no module or name"
    elif "<locals>" in qualname or "<lambda>" in qualname:
        why = "it is defined inside a function"
    else:
        try:
            found = _lookup(module, qualname)
        except (ImportError, AttributeError):
            found = None
        if found is not fn:
            why = f"{module}.{qualname} does not name it (it was redefined or deleted)"
    if why is not None:
        raise pickle.PicklingError(
            f"cannot pickle the learner's {role} {name}: a user function is pickled by "
            f"reference to an importable function (module and name), and {why}; define it "
            "at the top level of a module (or of the notebook) and keep that name"
        )
    return FunctionReference(module, qualname, code_digest(fn))


def resolve(ref, role: str):
    """The function a :class:`FunctionReference` names (anything else is returned as it is)."""
    if not isinstance(ref, FunctionReference):
        return ref
    try:
        fn = _lookup(ref.module, ref.qualname)
    except (ImportError, AttributeError):
        raise pickle.UnpicklingError(
            f"this learner's {role} is {ref.module}.{ref.qualname}, which cannot be imported "
            "here: import or define it (same module, same name) before unpickling"
        ) from None
    found = code_digest(fn)
    if ref.digest is not None and found != ref.digest:
        raise pickle.UnpicklingError(
            f"this learner's {role} is {ref.module}.{ref.qualname}, but the function of that "
            f"name here computes something else (its code, or a function or constant it uses, "
            f"differs: digest {found}, pickled with {ref.digest}); define the function the "
            "learner was pickled with, under that name, before unpickling"
        )
    return fn


def is_user_function(value) -> bool:
    """A value a learner parameter holds that is a function, not one of the built-in names."""
    return callable(value) and not isinstance(value, (str, type))


@njit(cache=True)
def _noop():  # pragma: no cover - keeps numba's cache directory for this module in place
    return 0
