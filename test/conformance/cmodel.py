#!/usr/bin/env python3
"""Runs every AscendNPU-IR conformance case that has a device entry through
--target=ascend-cmodel: compile, build, and run on synthesized inputs.

Each `// -----` case holding a `hacc.entry` function is compiled with
npuc-compile; an unsupported op must be reported as a located error with no
output written. Compiled cases are built with their Makefile and run once
under NPUC_CHECK_BOUNDS=1 on inputs made from the kernel's own argument list
(`./kernel --describe`): buffers of their static shape (dynamic sizes get
2^21 elements, 2^23 for i8 workspaces), filled with small random values; integer scalars 1 (so Triton grid
arguments give one logical block), float scalars 0.5.

Reports per category and per unsupported op, and lists every failure.
Exit 0 unless --strict and a case fails in a way that is not a clean,
located "unsupported op" error (or "unsupported mix kernel": halves of a
mix kernel taking different arguments, which the C model cannot launch).

usage: cmodel.py [--strict] [BUILD_DIR [CONFORMANCE_DIR]]
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def split_cases(path):
    """(first line, text) per `// -----` chunk, as --split-input-file does."""
    cases, start, lines = [], 1, []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if line.rstrip("\n") == "// -----":
                cases.append((start, "".join(lines)))
                start, lines = n + 1, []
            else:
                lines.append(line)
    cases.append((start, "".join(lines)))
    return cases


def spec_from_description(desc):
    """A npuc-run spec for the first kernel described by --describe."""
    args, kernel = [], None
    for line in desc.splitlines():
        words = line.split()
        if words[0] == "kernel":
            if kernel is not None:
                break
            kernel = words[1]
        elif words[0] == "arg":
            kind, dtype = words[2], words[3]
            if kind == "scalar":
                value = "0.5" if dtype.startswith(("f", "bf")) else "1"
                args.append("  - {scalar: %s, value: %s}" % (dtype, value))
            else:
                # Byte buffers are workspaces, indexed by block: make them roomy.
                dynamic = 1 << 23 if dtype == "i8" else 1 << 21
                shape = [int(s) if int(s) >= 0 else dynamic for s in words[5:]]
                args.append("  - {buffer: %s, shape: %s, init: random, range: [0, 2]}"
                            % (dtype, shape))
    return "kernel: %s\nseed: 1\nargs:\n%s\n" % (kernel, "\n".join(args))


def run_case(build, text, work):
    """Returns (category, detail)."""
    src = os.path.join(work, "case.mlir")
    out = os.path.join(work, "out")
    with open(src, "w") as f:
        f.write(text)
    r = subprocess.run([os.path.join(build, "bin", "npuc-compile"),
                        "--target=ascend-cmodel", "-o", out, src],
                       capture_output=True, text=True)
    if r.returncode != 0:
        # The first error (passes may print remarks before it).
        lines = r.stderr.strip().splitlines() or ["(no message)"]
        first = next((l for l in lines if "error:" in l), lines[0])
        m = re.search(r"case\.mlir:\d+:\d+: error: unsupported op (\S+)", first)
        arg = re.search(r"case\.mlir:\d+:\d+: error: argument \d+ of .* has a type", first)
        mix = re.search(r"case\.mlir:\d+:\d+: error: unsupported mix kernel", first)
        if os.path.exists(out):
            return "bad", "output written despite an error: " + first
        if m:
            return "unsupported", m.group(1)
        if arg:
            return "unsupported", "(argument type, e.g. !llvm.ptr)"
        if mix:
            return "unsupported", "(mix halves, different arguments)"
        return "compile-error", first
    r = subprocess.run(["make", "-s", "-C", out], capture_output=True, text=True)
    if r.returncode != 0:
        return "bad", "generated C does not build: " + r.stderr.strip()[:200]
    desc = subprocess.run([os.path.join(out, "kernel"), "--describe"],
                          capture_output=True, text=True).stdout
    spec = os.path.join(work, "spec.yaml")
    with open(spec, "w") as f:
        f.write(spec_from_description(desc))
    env = dict(os.environ, NPUC_CHECK_BOUNDS="1")
    r = subprocess.run([os.path.join(build, "bin", "npuc-run"), src, "--spec", spec,
                        "-o", os.path.join(work, "run")],
                       capture_output=True, text=True, env=env, timeout=120)
    if r.returncode != 0:
        lines = r.stderr.strip().splitlines() or ["(no message)"]
        return "run-error", next((l for l in lines if "error:" in l), lines[0])
    return "ran", ""


def main(argv):
    strict = "--strict" in argv
    rest = [a for a in argv if a != "--strict"]
    build = os.path.abspath(rest[0] if rest else os.path.join(ROOT, "build"))
    conf = rest[1] if len(rest) > 1 else os.path.join(ROOT, "..", "shared",
                                                      "conformance", "ascendnpu-ir")
    if not os.path.isdir(conf):
        print("cmodel conformance: %s not found, nothing to run" % conf)
        return 0
    counts, unsupported, failures = collections.Counter(), collections.Counter(), []
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(conf)
                   for f in fs if f.endswith(".mlir"))
    for path in files:
        for first_line, text in split_cases(path):
            counts["cases"] += 1
            if "hacc.entry" not in text:
                continue
            counts["device entries"] += 1
            with tempfile.TemporaryDirectory() as work:
                category, detail = run_case(build, text, work)
            counts[category] += 1
            where = "%s:%d" % (os.path.relpath(path, conf), first_line)
            if category == "unsupported":
                unsupported[detail] += 1
            elif category != "ran":
                failures.append("%s  %s: %s" % (where, category, detail))
    print("cases %d, with a device entry %d: ran %d, unsupported op %d, "
          "compile error %d, run error %d, bad %d"
          % (counts["cases"], counts["device entries"], counts["ran"],
             counts["unsupported"], counts["compile-error"], counts["run-error"],
             counts["bad"]))
    for op, n in unsupported.most_common():
        print("  unsupported %-28s %d case%s" % (op, n, "" if n == 1 else "s"))
    for f in failures:
        print("  " + f)
    hard = counts["bad"] + counts["compile-error"]
    return 1 if strict and hard else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
