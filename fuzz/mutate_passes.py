#!/usr/bin/env python3
"""Mutation fuzzing of the HIVM sub-block passes.

The libFuzzer harness (fuzz_syntax.c) covers the syntax engine; this covers
what runs after it. Each mutant is a conformance case (or a case of the
passes' lit tests) with one small change that keeps most of it parseable:
a line deleted, two lines swapped, a dim size changed to an odd or unit
one, a unit dim added to a tensor type, a line duplicated. Each mutant goes
through npuc-opt (an AddressSanitizer + UBSan build) with
hivm-bind-sub-block and with hivm-bubble-up-extract-slice. A diagnostic and
a non-zero exit are fine; a crash, a sanitizer report, an "internal error"
or a timeout is a finding: the mutant is saved and the script exits 1.

usage: fuzz/mutate_passes.py [--npuc-opt PATH] [--mutants N] [--seed S]
                             [--out DIR] [--conformance DIR]
Deterministic for a given seed and inputs.
"""
import argparse
import glob
import os
import random
import re
import subprocess
import sys

PASSES = [
    ["--hivm-bind-sub-block=all-vector-kernels=true"],
    ["--hivm-bind-sub-block=strict-mode=true"],
    ["--hivm-bubble-up-extract-slice"],
]
SPLIT = "// -----"
DIM = re.compile(r"(?<=[<x])(\d+)(?=x)")


def cases(conformance, root):
    out = []
    for pattern in ("tile-and-bind-splits/*.mlir", "bubble-up-splits/*.mlir"):
        for path in sorted(glob.glob(os.path.join(conformance, pattern))):
            with open(path, encoding="utf-8") as f:
                out.append(f.read())
    lit = os.path.join(root, "test", "lit", "Transforms")
    for path in sorted(glob.glob(os.path.join(lit, "hivm-b*.mlir"))):
        with open(path, encoding="utf-8") as f:
            out.extend(c for c in f.read().split(SPLIT + "\n") if c.strip())
    return out


def mutate(rng, text):
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    kind = rng.randrange(5)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 2:
        dims = list(DIM.finditer(lines[i]))
        if dims:
            m = rng.choice(dims)
            new = rng.choice(["1", "3", "0", str(int(m.group(1)) + 1)])
            lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]
    elif kind == 3:
        lines[i] = lines[i].replace("tensor<", "tensor<1x", 1)
    else:
        lines.insert(i, lines[i])
    return "\n".join(lines)


def finding(result):
    # "internal error": a pass met what it had ruled out (hivm-bind-sub-block
    # skipping its copy for a bubble-up it was certain of), a bug even
    # though the tool exits cleanly.
    return (result.returncode < 0 or result.returncode >= 128 or
            "Sanitizer" in result.stderr or "runtime error" in result.stderr
            or "internal error" in result.stderr)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--npuc-opt",
                    default=os.path.join(root, "build-asan", "bin", "npuc-opt"))
    ap.add_argument("--mutants", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    ap.add_argument("--conformance", default=os.path.join(
        root, "..", "shared", "conformance", "ascendnpu-ir"))
    args = ap.parse_args()
    if not os.access(args.npuc_opt, os.X_OK):
        print("mutate_passes: not executable: %s" % args.npuc_opt,
              file=sys.stderr)
        return 2
    inputs = cases(args.conformance, root)
    if not inputs:
        print("mutate_passes: no inputs", file=sys.stderr)
        return 2
    out = args.out or os.path.join(root, "build-asan", "mutants")
    os.makedirs(out, exist_ok=True)
    rng = random.Random(args.seed)
    current = os.path.join(out, "current.mlir")
    runs = findings = 0
    for n in range(args.mutants):
        text = mutate(rng, rng.choice(inputs))
        with open(current, "w", encoding="utf-8") as f:
            f.write(text)
        for passes in PASSES:
            runs += 1
            try:
                r = subprocess.run([args.npuc_opt, current] + passes +
                                   ["-o", os.devnull], capture_output=True,
                                   text=True, timeout=60)
                bad = finding(r)
                why = r.stderr[-2000:]
            except subprocess.TimeoutExpired:
                bad, why = True, "timeout (60 s)"
            if bad:
                findings += 1
                saved = os.path.join(out, "finding-%d.mlir" % findings)
                with open(saved, "w", encoding="utf-8") as f:
                    f.write(text)
                print("mutant %d, %s: %s\n%s" % (n, " ".join(passes), saved,
                                                  why))
    print("mutate_passes: %d mutants, %d runs, %d findings (seed %d)" %
          (args.mutants, runs, findings, args.seed))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
