#!/usr/bin/env python3
"""Mutation fuzzing of npuc-compile (every target), target configs and
npuc-run specs.

mutate_passes.py covers the HIVM passes and fuzz_syntax.c the syntax
engine; this covers the drivers and what they read besides the IR. Each
round takes one of:
  - a lit or example input of a target, mutated as mutate_passes.py mutates
    (a line deleted, swapped or duplicated, a dimension changed), through
    `npuc-compile --target=T`;
  - the target's configuration (the TX8 target description, an aie1-cmodel
    config), a YAML value replaced by a hostile one (0, -1, 2^63 - 1, 1e15,
    text, nothing), a line deleted or duplicated, an alias added, through
    `npuc-compile --target=T --target-config=...` on an unmutated input;
  - the example npuc-run spec, mutated as a config, through `npuc-run`.
Tools come from an AddressSanitizer + UBSan build. A diagnostic and exit 1
are fine; a crash, a sanitizer report, an "internal error", a timeout, or
an output directory left behind by a failed run is a finding: the mutant
is saved and the script exits 1.

usage: fuzz/mutate_compile.py [--bin DIR] [--mutants N] [--seconds T]
                              [--seed S] [--out DIR]
       fuzz/mutate_compile.py [--bin DIR] --repro FINDING_DIR...
Deterministic for a given seed and inputs (--seconds stops early, after the
round that passes T seconds). A finding is saved with the command that
found it (`command`, one argument a line, files by their name in the
directory); --repro runs saved findings again (fuzz/crashes/compile/*,
`make fuzz-compile` does) and fails if one still is a finding.
"""
import argparse
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutate_passes import finding, mutate  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOSTILE = ["0", "-1", "9223372036854775807", "-9223372036854775808",
           "1e15", "16.7", "abc", "", "[]", "{}", "2147483648"]
NUMBER = re.compile(r"(?<=[:\[, ])(-?\d+(\.\d+)?)(?=[\],} ]|$)")
AIE1_CONFIG = ("virtual-vector-size: 8\nshift: 0\nzero-offset: 0\n"
               "dup-factor: 2\nunaligned-loads-check: true\n")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def inputs():
    """(target, text, config) triples; config is the text to mutate."""
    tx8_config = read(os.path.join(ROOT, "lib", "TX8", "tx8_target.yaml"))
    out = []
    for path in sorted(glob.glob(os.path.join(
            ROOT, "test", "lit", "Target", "Inputs", "tx8-*.mlir"))):
        out.append(("tx8", read(path), tx8_config))
    for path in sorted(glob.glob(os.path.join(
            ROOT, "test", "lit", "Target", "Inputs", "aie1", "scalar_*.mlir"))):
        out.append(("aie1-cmodel", read(path), AIE1_CONFIG))
    example = os.path.join(ROOT, "examples", "hivm", "add_kernel.mlir")
    out.append(("ascend-cmodel", read(example), None))
    return out


def mutate_yaml(rng, text):
    """A hostile value, an alias bomb, or mutate_passes' line mutations."""
    kind = rng.randrange(3)
    if kind == 2:
        return mutate(rng, text)
    if kind == 1:
        return text + ("\nbomb: &a [x, x]\nbomb2: &b [*a, *a, *a, *a]\n"
                       "bomb3: [*b, *b, *b, *b]\n")
    lines = text.split("\n")
    numbered = [i for i, line in enumerate(lines) if NUMBER.search(line)]
    if numbered:
        i = rng.choice(numbered)
        m = rng.choice(list(NUMBER.finditer(lines[i])))
        lines[i] = (lines[i][:m.start()] + rng.choice(HOSTILE) +
                    lines[i][m.end():])
    return "\n".join(lines)


def run(cmd, out_dir):
    """A finding's description, or None."""
    shutil.rmtree(out_dir, ignore_errors=True)
    # A mutated spec may hand the kernel sizes its buffers do not have: the
    # user's kernel then reads out of bounds, which npuc-run's bounds mode
    # reports as a located error (the run's sanitizers would abort it).
    env = dict(os.environ, NPUC_CHECK_BOUNDS="1")
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                           env=env)
    except subprocess.TimeoutExpired:
        return "timeout (120 s)"
    if finding(r):
        return r.stderr[-2000:]
    if r.returncode != 0 and os.path.exists(out_dir):
        return "failed (exit %d) but left %s" % (r.returncode, out_dir)
    return None


def one_round(rng, args, cases, work):
    target, text, config = rng.choice(cases)
    kind = rng.randrange(3)
    src = os.path.join(work, "input.mlir")
    cfg = os.path.join(work, "config.yaml")
    out_dir = os.path.join(work, "out")
    files = {src: text}
    compile_cmd = [os.path.join(args.bin, "npuc-compile"),
                   "--target=" + target, "-o", out_dir, src]
    if kind == 0 or (kind == 1 and config is None):
        files[src] = mutate(rng, text)
        cmd = compile_cmd
    elif kind == 1:
        files[cfg] = mutate_yaml(rng, config)
        cmd = compile_cmd + ["--target-config=" + cfg]
    else:
        files[src] = read(os.path.join(ROOT, "examples", "hivm",
                                       "add_kernel.mlir"))
        files[cfg] = mutate_yaml(rng, read(os.path.join(
            ROOT, "examples", "hivm", "add_kernel.yaml")))
        cmd = [os.path.join(args.bin, "npuc-run"), src, "--spec", cfg,
               "-o", out_dir]
    for path, body in files.items():
        with open(path, "w", encoding="utf-8") as f:
            f.write(body)
    return cmd, files, run(cmd, out_dir)


def save_finding(saved, cmd, files, work):
    """The mutant's files and its command, paths made relative to `work`."""
    os.makedirs(saved, exist_ok=True)
    for path in files:
        shutil.copy(path, saved)
    with open(os.path.join(saved, "command"), "w", encoding="utf-8") as f:
        for arg in cmd:
            arg = arg.replace(work + os.sep, "")
            if os.path.isabs(arg) and os.path.dirname(arg) != work:
                arg = os.path.basename(arg)  # a tool of --bin
            f.write(arg + "\n")


def repro(args, dirs):
    """Runs each saved finding again: 1 if one still is a finding."""
    failed = 0
    for d in dirs:
        with open(os.path.join(d, "command"), encoding="utf-8") as f:
            saved = f.read().split("\n")[:-1]
        with tempfile.TemporaryDirectory() as work:
            for name in os.listdir(d):
                if name != "command":
                    shutil.copy(os.path.join(d, name), work)
            cmd = [os.path.join(args.bin, saved[0])]
            for arg in saved[1:]:
                head, eq, tail = arg.rpartition("=")
                name = tail if eq else arg
                if name in os.listdir(work) or name == "out":
                    name = os.path.join(work, name)
                cmd.append(head + eq + name if eq else name)
            why = run(cmd, os.path.join(work, "out"))
        status = "FAIL" if why else "ok"
        print("%s: %s" % (status, d))
        if why:
            print(why)
            failed += 1
    print("mutate_compile --repro: %d of %d still fail" % (failed, len(dirs)))
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build-asan", "bin"))
    ap.add_argument("--mutants", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=0,
                    help="stop after this many seconds (0: no limit)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(ROOT, "build-asan",
                                                  "mutants-compile"))
    ap.add_argument("--repro", nargs="*", metavar="FINDING_DIR")
    args = ap.parse_args()
    for tool in ("npuc-compile", "npuc-run"):
        if not os.access(os.path.join(args.bin, tool), os.X_OK):
            print("mutate_compile: not executable: %s/%s" % (args.bin, tool),
                  file=sys.stderr)
            return 2
    if args.repro is not None:
        return repro(args, args.repro)
    cases = inputs()
    os.makedirs(args.out, exist_ok=True)
    work = os.path.join(args.out, "current")
    os.makedirs(work, exist_ok=True)
    rng = random.Random(args.seed)
    findings = rounds = 0
    start = time.monotonic()
    for n in range(args.mutants):
        if args.seconds and time.monotonic() - start > args.seconds:
            break
        rounds += 1
        cmd, files, why = one_round(rng, args, cases, work)
        if why is None:
            continue
        findings += 1
        saved = os.path.join(args.out, "finding-%d" % findings)
        save_finding(saved, cmd, files, work)
        print("mutant %d: %s\n  saved in %s\n%s" % (n, " ".join(cmd), saved,
                                                   why))
    print("mutate_compile: %d mutants in %.0f s, %d findings (seed %d)" %
          (rounds, time.monotonic() - start, findings, args.seed))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
