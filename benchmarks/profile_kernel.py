"""Where the loop's time goes: ``perf`` samples of one stream, credited to the kernel's functions.

    python benchmarks/profile_kernel.py rt_nominal4 [--learner EFDT] [--leaf nba] [--repeat 100]
    python benchmarks/profile_kernel.py sea --query conftree_copy   # a user's query rule

``perf`` cannot name numba's machine code: it sits in anonymous memory.  This script runs the
stream's test-then-train loop ``--repeat`` times under ``perf record`` (a child process), and
the child writes the loop kernel's address and machine code.  numba's cache holds the same code
as an ELF object inside a ``.nbc`` file; the one whose code matches gives the symbol table
(``nm``), and with the address every sample inside the kernel is credited to its function
(steps numba wrote into the loop count as ``run_stream``).  numba's reference counts
(``NRT_incref``, ``NRT_decref``) sit in a JIT module of their own; the child writes their
addresses, and their samples are shown by name.  Samples elsewhere are credited to their library
(``libm`` is mostly ``log``; ``libpython`` is the set-up outside the loop and the process's
start-up, so take ``--repeat`` large enough for the loop to dominate).
Needs ``perf`` (Debian: linux-perf) and binutils (``nm``, ``objcopy``).  Output: a table, and
with ``--annotate`` the 20 hottest 256-byte blocks of the kernel, disassembled with
``objdump``.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import ctypes
import glob
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CODE_BYTES = 1 << 19  # the kernel and what numba put after it in the same module
# NRT_incref and NRT_decref: a few instructions each (decref's tail jumps to the destructor)
NRT_BYTES = {"NRT_incref": 16, "NRT_decref": 32}


def child(args) -> None:
    import bench_hoeffding as B  # (main put this folder on the path)

    from workbench import evaluate, learners
    from workbench.core import engine

    X, y, info = B.load_stream(args.stream, B.FULL_N[args.stream], args.seed)

    def model():
        return getattr(learners, args.learner)(
            n_features=X.shape[1],
            n_classes=B.n_classes_of(info, y),
            leaf_prediction=args.leaf,
            nominal_features=B.nominal_of(info),
        )

    def active_setting():
        # the ACTIVE setting at budget 0.3 with 000's ConfTree rule, built in or a user's copy
        # (the copy bench_custom.py times: tests/test_custom.py's conftree_copy)
        if args.query is None:
            return {}
        from workbench import active

        if args.query == "conftree":
            return dict(strategy=active.ConfTree(seed=1), budget=0.3)
        sys.path.insert(0, str(ROOT / "tests"))
        from test_custom import conftree_copy

        return dict(strategy=active.Custom(conftree_copy, seed=1), budget=0.3)

    evaluate.prequential(model(), X[:2000], y[:2000], **active_setting())
    t0 = time.thread_time()
    for _ in range(args.repeat):
        evaluate.prequential(model(), X, y, **active_setting())
    per_row = (time.thread_time() - t0) / args.repeat / len(y)
    kernels = []
    for cres in engine.run_stream.overloads.values():
        addr = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
        kernels.append(addr)
    # the last signature compiled or loaded is the one the loop ran (one per learner and stream)
    addr = kernels[-1]
    Path(args.workdir, "code.bin").write_bytes(ctypes.string_at(addr, CODE_BYTES))
    # numba's reference counts live in a JIT module of their own: their entry points
    from numba.core.runtime import nrt

    nrt_at = {n: nrt.rtsys.library.get_pointer_to_function(n) for n in ("NRT_incref", "NRT_decref")}
    Path(args.workdir, "child.json").write_text(
        json.dumps({"addr": addr, "ns_per_row": per_row * 1e9, "nrt": nrt_at})
    )


def elf_of(nbc: str) -> bytes | None:
    data = Path(nbc).read_bytes()
    i = data.find(b"\x7fELF")
    if i < 0:
        return None
    e = data[i:]
    shoff = struct.unpack_from("<Q", e, 0x28)[0]
    shentsize, shnum = struct.unpack_from("<HH", e, 0x3A)
    return e[: shoff + shentsize * shnum]


def matching_object(workdir: str) -> str:
    """The cached object whose code section matches the running kernel (relocations aside)."""
    code = Path(workdir, "code.bin").read_bytes()
    best = (-1.0, "")
    for nbc in glob.glob(str(ROOT / "workbench/core/__pycache__/engine.run_stream*.nbc")):
        elf = elf_of(nbc)
        if elf is None:
            continue
        obj, text = Path(workdir, "k.o"), Path(workdir, "k.bin")
        obj.write_bytes(elf)
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.ltext", obj, text], check=True)
        t = text.read_bytes()[:20000]
        same = sum(a == b for a, b in zip(t, code)) / max(len(t), 1)
        if same > best[0]:
            best = (same, nbc)
    Path(workdir, "k.o").write_bytes(elf_of(best[1]))
    return best[1]


def symbols(obj: Path) -> list[tuple[int, str]]:
    out = subprocess.run(["nm", str(obj)], capture_output=True, text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in "TtWw":
            m = re.search(r"\d+([a-z_]+)B\d", p[2])
            syms.append((int(p[0], 16), m.group(1) if m else p[2][:40]))
    return sorted(syms)


def credit(ip: int, dso: str, base: int, syms: list[tuple[int, str]], nrt: dict) -> str:
    """Where a sample at address ``ip`` (in ``dso``, as ``perf script`` names it) goes: the
    kernel's function (``syms``, offsets from the kernel's address ``base``, sorted), numba's
    reference counts (``nrt``: their addresses by name), another JIT module, or a library."""
    off = ip - base
    if 0 <= off < CODE_BYTES:
        at = bisect.bisect_right(syms, off, key=lambda sym: sym[0])
        return "kernel: " + syms[max(at - 1, 0)][1]
    for name, at in nrt.items():
        if 0 <= ip - at < NRT_BYTES[name]:
            return "JIT: " + name
    if "perf-" in dso:  # perf's name for anonymous executable memory: numba's other modules
        return "JIT, other module (a user's function, tally, screen of X, ...)"
    return Path(dso).name


def report(args, workdir: str) -> None:
    info = json.loads(Path(workdir, "child.json").read_text())
    base = info["addr"]
    nbc = matching_object(workdir)
    syms = symbols(Path(workdir, "k.o"))
    script = subprocess.run(
        ["perf", "script", "-i", str(Path(workdir, "perf.data")), "-F", "ip,dso"],
        capture_output=True,
        text=True,
    ).stdout
    where, blocks, total = collections.Counter(), collections.Counter(), 0
    for line in script.splitlines():
        p = line.split()
        try:
            ip = int(p[0], 16)
        except (IndexError, ValueError):
            continue
        total += 1
        dso = p[1].strip("()") if len(p) > 1 else "?"
        where[credit(ip, dso, base, syms, info.get("nrt", {}))] += 1
        if 0 <= ip - base < CODE_BYTES:
            blocks[(ip - base) // 256 * 256] += 1
    print(
        f"{args.learner} on {args.stream} (seed {args.seed})"
        + ("" if args.query is None else f", query rule {args.query} at budget 0.3")
        + f", {args.repeat} runs: "
        f"{info['ns_per_row']:.0f} ns per row (CPU); {total} samples; object {Path(nbc).name}"
    )
    for name, n in where.most_common(args.top):
        print(f"{100 * n / total:6.1f}%  {name}")
    if args.annotate:
        subprocess.run(
            f"objcopy -O binary --only-section=.ltext {workdir}/k.o {workdir}/k.bin && "
            f"objdump -D -b binary -mi386:x86-64 {workdir}/k.bin > {workdir}/k.dis",
            shell=True,
            check=True,
        )
        print("\nhottest blocks of the kernel (offset: share of all samples):")
        for off, n in blocks.most_common(20):
            print(f"  0x{off:06x}: {100 * n / total:5.1f}%")
        print(f"disassembly: {workdir}/k.dis")


def main(argv=None) -> int:
    sys.path.insert(0, str(HERE))
    import bench_hoeffding as B

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("stream", choices=sorted(B.FULL_N), help="a stream of bench_hoeffding")
    p.add_argument("--learner", default="HoeffdingTree", choices=["HoeffdingTree", "EFDT"])
    p.add_argument("--leaf", default="nba", choices=["mc", "nb", "nba"])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeat", type=int, default=100)
    p.add_argument("--top", type=int, default=20)
    p.add_argument(
        "--query",
        choices=["conftree", "conftree_copy"],
        default=None,
        help="the ACTIVE setting at budget 0.3 with 000's ConfTree rule, built in or a user's "
        "copy (active.Custom): where a user's query rule's cost goes",
    )
    p.add_argument("--annotate", action="store_true")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--workdir", default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        child(args)
        return 0
    workdir = args.workdir or tempfile.mkdtemp(prefix="profile_kernel_")
    Path(workdir).mkdir(parents=True, exist_ok=True)
    user = list(argv if argv is not None else sys.argv[1:])
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    me = [sys.executable, str(Path(__file__).resolve())]
    # compile the kernel (or load it from numba's cache) outside the profile
    subprocess.run(
        [*me, *user, "--repeat", "1", "--child", "--workdir", workdir], check=True, env=env
    )
    subprocess.run(
        [
            "perf",
            "record",
            "-q",
            "-F",
            "5000",
            "-o",
            f"{workdir}/perf.data",
            *me,
            *user,
            "--child",
            "--workdir",
            workdir,
        ],
        check=True,
        env=env,
    )
    report(args, workdir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
