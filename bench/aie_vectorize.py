#!/usr/bin/env python3
"""Vector loads per output vector: aie-vectorize against a naive
vectorization (one load per read) and against mlir-aie's own output.

For each AIE1 file of ../shared/conformance/mlir-aie (read in place), and
the AIE-ML gemm64_i32_unroll16 (mac_elem with broadcasts), the first RUN
line's pipeline is run twice through npuc-opt: with the super-vectorizer
alone (naive: every vector.transfer_read is a load) and with
--aie-vectorize (every aievec.upd is a load). Loads are counted in the
innermost loop, where the output vector is written, per output vector
(distinct place a transfer_write writes: the naive gemm writes C once per
unrolled step); the loads LICM hoisted out of it are amortized and not
counted. The anchor's
count is taken the same way from the file's CHECK lines (the first
function). Reuse must be at least the anchor's: ours <= anchor.

Then linearity: a generated kernel with N reads (rows i+k of A times
B[k], k < N) for N = 250..2000, user CPU time (best of 3) of three
pipelines: the super-vectorizer alone (base), base + upstream
canonicalize,cse (what aie-vectorize runs first, as mlir-aie does), and
base + aie-vectorize. "own" = the third minus the second, per read: our
analysis, rewrite and clean-up; it should stay flat.

usage: bench/aie_vectorize.py [NPUC_OPT [DIR]]
It measures; it does not gate.
"""
import glob
import os
import re
import shlex
import subprocess
import sys
import resource
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "conformance"))
import aie_vectorize as conf  # noqa: E402  (RUN-line translation)


def innermost_counts(lines, load_op):
    """(loads, writes) after the last loop header of the first function."""
    func_seen = 0
    body = []
    for line in lines:
        if "func.func" in line:
            func_seen += 1
            if func_seen > 1:
                break
        body.append(line)
    last = max((i for i, l in enumerate(body) if re.search(
        r"\b(scf|affine)\.for\b", l)), default=-1)
    tail = body[last + 1:]
    loads = sum(1 for l in tail if load_op in l)
    # Output vectors: distinct places written (an unrolled reduction writes
    # one place once per step before forwarding).
    writes = len({m.group(1) for m in (re.search(
        r"vector\.transfer_write\s+[^,]+,\s+([^:]*)", l)
        for l in tail) if m})
    return loads, writes


def main():
    npuc_opt = sys.argv[1] if len(sys.argv) > 1 else os.environ.get(
        "NPUC_OPT", os.path.join(ROOT, "build", "bin", "npuc-opt"))
    directory = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        ROOT, "..", "shared", "conformance", "mlir-aie")
    print("%-36s %7s %7s %7s" % ("file", "naive", "ours", "anchor"))
    worse = 0
    for path in sorted(glob.glob(os.path.join(directory, "*.mlir"))):
        text = open(path, encoding="utf-8").read()
        # AIE1 files with FileCheck; and gemm64_i32_unroll16 (AIE-ML, its
        # CHECK lines unused by its RUN line), the element-wise scheme.
        element_wise = "FileCheck" not in text and conf.CHECK_LINE.search(text)
        runs = [r for r in conf.run_lines(text) if ("FileCheck %s" in r
                and "aieml" not in r or element_wise) and "ALIGNMENT" not in r]
        if not runs or re.search(r"XFAIL", text):
            continue
        cmd = conf.translate(runs[0].split("|")[0], npuc_opt, path)
        argv = shlex.split(cmd)
        naive_argv = [a for a in argv if not a.startswith("--aie-vectorize")]
        out = subprocess.run(argv, capture_output=True, text=True).stdout
        naive = subprocess.run(naive_argv, capture_output=True,
                               text=True).stdout
        checks = [re.sub(r"^\s*//\s*CHECK(-\w+)?:", "", l)
                  for l in text.splitlines() if re.match(r"^\s*//\s*CHECK", l)]
        n_loads, n_writes = innermost_counts(naive.splitlines(),
                                             "vector.transfer_read")
        o_loads, o_writes = innermost_counts(out.splitlines(), "aievec.upd")
        a_loads, a_writes = innermost_counts(checks, "aievec.upd")
        def per(l, w):
            return "%.1f" % (l / w) if w else "-"
        if a_writes and o_writes and o_loads / o_writes > a_loads / a_writes:
            worse += 1
        print("%-36s %7s %7s %7s" % (os.path.basename(path),
                                     per(n_loads, n_writes),
                                     per(o_loads, o_writes),
                                     per(a_loads, a_writes)))
    print("files with more loads than the anchor: %d" % worse)
    linearity(npuc_opt)
    return 0


def kernel(n):
    rows = n + 8
    lines = ["func.func @taps(%%A: memref<%dx64xi32>, %%B: memref<%dxi32>, "
             "%%C: memref<8x64xi32>) {" % (rows, n),
             "  affine.for %i = 0 to 8 {", "    affine.for %j = 0 to 64 {",
             "      %c = affine.load %C[%i, %j] : memref<8x64xi32>"]
    acc = "%c"
    for k in range(n):
        lines += ["      %%a%d = affine.load %%A[%%i + %d, %%j] : memref<%dx64xi32>"
                  % (k, k, rows),
                  "      %%b%d = affine.load %%B[%d] : memref<%dxi32>" % (k, k, n),
                  "      %%p%d = arith.muli %%a%d, %%b%d : i32" % (k, k, k),
                  "      %%s%d = arith.addi %s, %%p%d : i32" % (k, acc, k)]
        acc = "%%s%d" % k
    lines += ["      affine.store %s, %%C[%%i, %%j] : memref<8x64xi32>" % acc,
              "    }", "  }", "  return", "}"]
    return "\n".join(lines) + "\n"


def best_time(argv, runs=3):
    """Best user CPU time of the child (the machine is shared)."""
    best = None
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
        subprocess.run(argv, capture_output=True, check=True)
        t = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
        best = t if best is None or t < best else best
    return best


def linearity(npuc_opt):
    print("\nreads   base  +canon,cse  +aie-vectorize   own/read")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (250, 500, 1000, 2000):
            path = os.path.join(tmp, "k%d.mlir" % n)
            with open(path, "w") as f:
                f.write(kernel(n))
            base = [npuc_opt, path, "-o", os.devnull,
                    "-affine-super-vectorize=virtual-vector-size=8"]
            t0 = best_time(base)
            t1 = best_time(base + ["--canonicalize", "--cse"])
            t2 = best_time(base + ["--aie-vectorize"])
            reads = 2 * n + 1
            print("%5d %6.2f %11.2f %15.2f %8.1f us" % (
                reads, t0, t1, t2, (t2 - t1) / reads * 1e6))


if __name__ == "__main__":
    sys.exit(main())
