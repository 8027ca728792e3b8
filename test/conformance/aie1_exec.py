#!/usr/bin/env python3
"""Runs the scalar kernels of ../shared/conformance/mlir-aie/ through
`npuc-compile --target=aie1-cmodel` with the options of each file's RUN line
(virtual-vector-size, shift, zero-offset, dup-factor, unaligned-loads-check),
builds the output and runs it: the vectorized kernel on the AIE1 emulator
against the scalar loop nest, on the same random inputs.

The files are read in place; each `// -----` case is compiled on its own
from a temporary copy. Verdicts per case:
  equal         every buffer equal (exact; f32 exact too)
  MISMATCH      the host found differences (first one shown); with
                shift != 0 the reference is the fixed-point one
  aie-ml        aieml=true and the kernel uses an AIE-ML op the emulator
                does not model (named); the others run (`aieml: true`)
  not compiled  npuc-compile refused (first error shown): e.g.
                aie-vectorize refused the function (no scheme)

  known         MISMATCH in a file of KNOWN_MISMATCHES below (not a failure)

With --cc each compiled case also runs `make kernel_cc`: the same host
running kernel.cc, the C++ aie-translate --aievec-to-cpp writes, built by
g++ over lib/Runtime/aie1/aie_intrinsics.h. Its verdict follows as
`cc: <verdict>`, and the summary counts it separately.

usage: aie1_exec.py [--strict] [--cc] [BUILD_DIR [CONFORMANCE_DIR]]
Exit 0 unless --strict and a case is MISMATCH or failed to build/run.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cmodel import split_cases  # noqa: E402


def run_options(text):
    """The configuration keys of the first RUN line, and whether it is AIE-ML."""
    run = next((l for l in text.splitlines() if "RUN:" in l), "")
    cfg = {}
    m = re.search(r"virtual-vector-size=(\d+)", run)
    if m:
        cfg["virtual-vector-size"] = m.group(1)
    m = re.search(r'--aie-vectorize(?:="([^"]*)")?', run)
    opts = m.group(1) or "" if m else ""
    for key in ("shift", "zero-offset", "dup-factor"):
        k = re.search(r"\b%s=(\d+)" % key, opts)
        if k:
            cfg[key] = k.group(1)
    if re.search(r"unaligned-loads-check=false", run):
        cfg["unaligned-loads-check"] = "false"
    # The `_unbounded` kernels read two rows past their memrefs (their
    # loops run to A's dimensions): room for that in the host's slack.
    cfg["slack"] = "4096"
    aieml = bool(re.search(r"aieml=true", run))
    if aieml:
        cfg["aieml"] = "true"
    return cfg, aieml


def first_line(text, pattern):
    for line in text.splitlines():
        if re.search(pattern, line):
            return line.strip()
    return text.strip().splitlines()[0] if text.strip() else ""


def run_binary(out, target):
    p = subprocess.run(["make", "-s", "-C", out, target], capture_output=True,
                       text=True)
    if p.returncode != 0:
        return "build failed", first_line(p.stderr, r"error")
    p = subprocess.run([os.path.join(out, target)], capture_output=True,
                       text=True, timeout=600)
    if p.returncode == 0:
        return "equal", first_line(p.stdout, r"^OK")
    if p.returncode == 1:
        return "MISMATCH", first_line(p.stdout, r"DIFFER")
    return "run failed", first_line(p.stderr, r"error")


def run_case(build, tmp, name, text, cfg, cc=False):
    src = os.path.join(tmp, name + ".mlir")
    with open(src, "w") as f:
        f.write(text)
    conf = os.path.join(tmp, name + ".yaml")
    with open(conf, "w") as f:
        f.write("".join("%s: %s\n" % kv for kv in cfg.items()) or "{}\n")
    out = os.path.join(tmp, name)
    p = subprocess.run([os.path.join(build, "bin", "npuc-compile"),
                        "--target=aie1-cmodel", "--target-config=" + conf,
                        "-o", out, src], capture_output=True, text=True)
    if p.returncode != 0:
        return "not compiled", first_line(p.stderr, r"error:"), None
    verdict, detail = run_binary(out, "kernel")
    return verdict, detail, run_binary(out, "kernel_cc") if cc else None


# Files whose vectorized form is known to differ from the scalar program,
# with the reason; a MISMATCH there is reported as `known`.
KNOWN_MISMATCHES = {
    # conv2d_uj_i16 was here until aie-vectorize stopped pairing the odd
    # filter tap with an element it could not prove zero; conv2d_uij_i8
    # until it stopped starting both 8-bit paired accumulators from
    # ups(C[c..c+15]) (lane 4p+h holds pixel 2p+h; aie1-lane-semantics.md
    # 7.3): it now adds C after the post-processing, in pixel order.
}

# Input properties a file's vectorization assumes, beyond its RUN line:
# the 8-bit scheme reads each filter tap as a pair of equal bytes, 3 taps
# per 16-byte filter row (aie1-lane-semantics.md 7.3, the layout mlir-aie's
# i8 unit test builds).
INPUT_LAYOUTS = {
    "conv2d_uij_i8.mlir": {"filter-period": "16", "filter-used": "6",
                           "filter-dup": "2"},
    "conv2d_uij_i8_noinit.mlir": {"filter-period": "16", "filter-used": "6",
                                  "filter-dup": "2"},
    # AIE-ML: legacyshuffle mode 0 puts the even bytes of each 16-byte row
    # at 8 lanes of which mul_conv's N = 8 taps read all: bytes 6..15 of a
    # row must be 0 (the odd bytes are never read; dup keeps them equal).
    "conv2d_uij_i8_noinit_aie-ml.mlir": {"filter-period": "16",
                                         "filter-used": "6",
                                         "filter-dup": "2"},
    "conv2d_i8_after_polygeist.mlir": {"filter-period": "16",
                                       "filter-used": "6", "filter-dup": "2"},
}


def main(argv):
    strict = "--strict" in argv
    cc = "--cc" in argv
    args = [a for a in argv if a not in ("--strict", "--cc")]
    build = os.path.abspath(args[0] if args else os.path.join(ROOT, "build"))
    cdir = args[1] if len(args) > 1 else os.path.join(ROOT, "..", "shared",
                                                      "conformance", "mlir-aie")
    counts, cc_counts, bad = {}, {}, 0
    with tempfile.TemporaryDirectory() as tmp:
        for fname in sorted(os.listdir(cdir)):
            if not fname.endswith(".mlir"):
                continue
            path = os.path.join(cdir, fname)
            cfg, aieml = run_options(open(path).read())
            cfg.update(INPUT_LAYOUTS.get(fname, {}))
            for n, (line, text) in enumerate(split_cases(path)):
                label = "%s:%d" % (fname, line)
                verdict, detail, cc_result = run_case(build, tmp, "case%d_%s" % (
                    n, fname.replace(".", "_")), text, cfg, cc)
                if aieml and verdict == "not compiled" and \
                        "is not emulated" in detail:
                    verdict, detail = "aie-ml", detail.split("error: ")[-1]
                if verdict == "MISMATCH" and fname in KNOWN_MISMATCHES:
                    verdict = "known"
                counts[verdict] = counts.get(verdict, 0) + 1
                bad += verdict in ("MISMATCH", "build failed", "run failed")
                print("%-14s %-44s %s" % (verdict, label, detail))
                if cc_result:
                    cc_counts[cc_result[0]] = cc_counts.get(cc_result[0], 0) + 1
                    bad += cc_result[0] != "equal"
                    print("  cc: %-10s %s" % cc_result)
    print("\n" + ", ".join("%s: %d" % kv for kv in sorted(counts.items())))
    if cc:
        print("kernel.cc: " + ", ".join("%s: %d" % kv
                                        for kv in sorted(cc_counts.items())))
    return 1 if strict and bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
