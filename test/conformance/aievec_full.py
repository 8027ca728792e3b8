#!/usr/bin/env python3
"""How much of mlir-aie's whole aievec test suite does npuc-opt read?

../shared/conformance/full/mlir-aie/MANIFEST.tsv lists, as part `b`, the 127
files of mlir-aie (three commits) whose IR or CHECK lines hold aievec or
aievec_aie1 ops. For each file this script splits the input at `// -----`
(as --split-input-file does) and, for every case that expects no error,
  1. runs npuc-opt on it (parse, verify, print),
  2. runs npuc-opt again on what it printed, and
  3. compares the two printings (a round trip is stable when they agree).
A file round-trips when each of its error-free cases does. Files mlir-aie
marks `// XFAIL: *` that fail here are counted apart. Errors that name
an unknown aievec op are gathered into the list of op names npuc lacks.

The cases of test/dialect that expect errors (`expected-error @+N` / `@-N`
/ on the line) are checked apart, wording aside (elsewhere the expected
errors come from conversion passes, and the case must round-trip): npuc-opt must report an error at each
expected line and none elsewhere; the dialect/AIEVec/invalid.mlir row counts
the cases where it does. Error wording differs from mlir-aie's on purpose
(docs/aievec.md); test/lit has our own wording under --verify-diagnostics.

usage: aievec_full.py [--list] [--strict] [NPUC_OPT [DIR]]
  NPUC_OPT  default $NPUC_OPT, else build/bin/npuc-opt
  DIR       default ../shared/conformance/full/mlir-aie beside the repository
  --list    print every failing file with its first error
  --strict  exit 1 unless every file round-trips
"""
import argparse
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

SPLIT_RE = re.compile(r"^// -----\s*$", re.M)
EXPECT_RE = re.compile(
    r"expected-(error|warning|remark|note)\s*(@[+-]?\d+|@above|@below)?\s*"
    r"\{\{")
UNKNOWN_RE = re.compile(r"unknown (?:op|operation) '?(aievec(?:_aie1)?\.\w+)")
XFAIL_RE = re.compile(r"^//\s*XFAIL:\s*\*\s*$", re.M)
DIAG_LINE_RE = re.compile(r"^[^:\n]*:(\d+):\d+: error:", re.M)
# The dialect tests whose CHECK lines FileCheck reads, with the npuc-opt
# options that stand for their RUN line's.
FILECHECKED = {
    "head-3ca0193c/test/dialect/AIEVec/roundtrip.mlir": [],
    "head-3ca0193c/test/dialect/AIEVec/AIE1/roundtrip.mlir": [],
    "head-3ca0193c/test/dialect/AIEVec/fold-ops.mlir":
        ["--aievec-canonicalize"],
}
DIALECT_FILES = ["head-3ca0193c/test/dialect/AIEVec/roundtrip.mlir",
                 "head-3ca0193c/test/dialect/AIEVec/invalid.mlir",
                 "head-3ca0193c/test/dialect/AIEVec/AIE1/roundtrip.mlir",
                 "head-3ca0193c/test/dialect/AIEVec/fold-ops.mlir"]


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("npuc_opt", nargs="?", default=os.environ.get(
        "NPUC_OPT", os.path.join(root, "build", "bin", "npuc-opt")))
    ap.add_argument("dir", nargs="?", default=os.path.join(
        root, "..", "shared", "conformance", "full", "mlir-aie"))
    ap.add_argument("--filecheck", default=os.environ.get(
        "FILECHECK", "FileCheck-22"))
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--strict", action="store_true")
    args = ap.parse_args()
    files = manifest_files(args.dir)
    if not files:
        print("no part-b files in %s/MANIFEST.tsv" % args.dir)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        with concurrent.futures.ThreadPoolExecutor(2) as ex:
            results = list(ex.map(
                lambda it: check_file(args.npuc_opt, args.dir, it[1], tmp,
                                      it[0]), enumerate(files)))
    rc = report(files, results, args)
    filecheck_rows(args)
    return rc


def filecheck_rows(args):
    """The dialect tests run as their RUN lines say, through FileCheck."""
    with tempfile.TemporaryDirectory() as tmp:
        for rel, opts in FILECHECKED.items():
            path = os.path.join(args.dir, rel)
            out = os.path.join(tmp, "out.mlir")
            p = subprocess.run([args.npuc_opt, path, "--split-input-file"] +
                               opts + ["-o", out], capture_output=True,
                               text=True)
            ok = p.returncode == 0
            if ok:
                fc = subprocess.run([args.filecheck, path, "--input-file",
                                     out], capture_output=True, text=True)
                ok = fc.returncode == 0
            print("FileCheck %s%s: %s" % (
                rel.split("/test/", 1)[1], "".join(" " + o for o in opts),
                "pass" if ok else "FAIL"))


def manifest_files(base):
    path = os.path.join(base, "MANIFEST.tsv")
    if not os.path.exists(path):
        return []
    out = []
    with open(path) as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) >= 3 and cols[0] == "b":
                out.append(cols[2])
    return out


def split_cases(text):
    """Cases as (first line number, text), like --split-input-file."""
    cases, line = [], 1
    pos = 0
    for m in SPLIT_RE.finditer(text):
        chunk = text[pos:m.start()]
        cases.append((line, chunk))
        line += chunk.count("\n") + 1
        pos = m.end() + 1
    cases.append((line, text[pos:]))
    return cases


def expected_error_lines(chunk):
    """Line numbers (1-based, in the chunk) where an error is expected."""
    lines = chunk.split("\n")
    out = []
    for i, ln in enumerate(lines, 1):
        for m in EXPECT_RE.finditer(ln):
            if m.group(1) != "error":
                continue
            at = m.group(2)
            if not at:
                out.append(i)
            elif at in ("@above", "@below"):
                out.append(i - 1 if at == "@above" else i + 1)
            else:
                out.append(i + int(at[1:]))
    return out


def run(npuc_opt, path, out):
    try:
        p = subprocess.run([npuc_opt, path, "-o", out], capture_output=True,
                           text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return 124, "timeout"
    return p.returncode, p.stderr


def check_case(npuc_opt, tmp, tag, chunk):
    """('ok'|'parse'|'print'|'unstable', message, unknown op names)."""
    src = os.path.join(tmp, tag + ".mlir")
    out1 = os.path.join(tmp, tag + ".1.mlir")
    out2 = os.path.join(tmp, tag + ".2.mlir")
    with open(src, "w") as f:
        f.write(chunk)
    rc, err = run(npuc_opt, src, out1)
    if rc != 0:
        return "parse", first_error(err), set(UNKNOWN_RE.findall(err))
    rc, err = run(npuc_opt, out1, out2)
    if rc != 0:
        return "print", first_error(err), set(UNKNOWN_RE.findall(err))
    with open(out1) as a, open(out2) as b:
        if a.read() != b.read():
            return "unstable", "second printing differs from the first", set()
    return "ok", "", set()


def check_error_case(npuc_opt, tmp, tag, chunk):
    """True when npuc-opt reports errors exactly at the expected lines."""
    src = os.path.join(tmp, tag + ".mlir")
    with open(src, "w") as f:
        f.write(chunk)
    rc, err = run(npuc_opt, src, os.path.join(tmp, tag + ".out.mlir"))
    want = set(expected_error_lines(chunk))
    # An op npuc does not know is no verifier error of the op.
    known = "\n".join(ln for ln in err.splitlines()
                      if not UNKNOWN_RE.search(ln))
    got = set(int(m) for m in DIAG_LINE_RE.findall(known))
    return rc != 0 and want == got, "want errors at %s, got %s: %s" % (
        sorted(want), sorted(got), first_error(err))


def check_file(npuc_opt, base, rel, tmp, idx):
    res = {"cases": 0, "ok": 0, "err_cases": 0, "err_ok": 0, "unknown": set(),
           "first": "", "missing": False, "xfail": False}
    path = os.path.join(base, rel)
    if not os.path.exists(path):
        res["missing"] = True
        res["first"] = "not in the shared copy"
        return res
    with open(path, errors="replace") as f:
        text = f.read()
    res["xfail"] = XFAIL_RE.search(text) is not None
    for n, (line, chunk) in enumerate(split_cases(text)):
        tag = "f%d_c%d" % (idx, n)
        # Outside test/dialect the expected errors come from the file's
        # conversion passes, not the verifier: those ops must read fine.
        if "/test/dialect/" in rel and expected_error_lines(chunk):
            res["err_cases"] += 1
            ok, msg = check_error_case(npuc_opt, tmp, tag, chunk)
            res["err_ok"] += ok
            if not ok and not res["first"]:
                res["first"] = "case at line %d: %s" % (line, msg)
            continue
        res["cases"] += 1
        status, msg, unknown = check_case(npuc_opt, tmp, tag, chunk)
        res["unknown"] |= unknown
        if status == "ok":
            res["ok"] += 1
        elif not res["first"]:
            res["first"] = "case at line %d: %s: %s" % (line, status, msg)
    return res


def first_error(err):
    for ln in err.splitlines():
        if "error" in ln:
            return ln.strip()[:300]
    return err.strip()[:300]


def report(files, results, args):
    roundtrip = sum(1 for r in results if r["cases"] and r["ok"] == r["cases"])
    missing = sum(1 for r in results if r["missing"])
    no_cases = sum(1 for r in results if not r["cases"] and not r["missing"])
    unknown = collections.Counter()
    for r in results:
        unknown.update(r["unknown"])
    print("part-b files: %d (%d missing from the shared copy)" % (
        len(files), missing))
    print("round-trip (every error-free case): %d of %d" % (
        roundtrip, len(files)))
    if no_cases:
        print("files with only error cases: %d" % no_cases)
    # A file passes when its error-free cases round-trip and its error
    # cases report at their lines; files mlir-aie itself marks XFAIL and
    # files absent from the shared copy are counted apart.
    passing = sum(1 for r in results if not r["missing"] and
                  r["ok"] == r["cases"] and r["err_ok"] == r["err_cases"])
    xfail = [rel for rel, r in zip(files, results) if r["xfail"] and
             not (r["ok"] == r["cases"] and r["err_ok"] == r["err_cases"])]
    print("passing (round-trip, errors at their lines): %d of %d; "
          "XFAIL upstream: %d; not in the shared copy: %d" % (
              passing, len(files), len(xfail), missing))
    print("unknown aievec op names: %d%s" % (len(unknown), (
        " (" + ", ".join("%s in %d files" % kv for kv in
                         unknown.most_common()) + ")") if unknown else ""))
    by_rel = dict(zip(files, results))
    for rel in DIALECT_FILES:
        r = by_rel.get(rel)
        if r is None:
            continue
        print("%s: %d of %d cases round-trip, %d of %d error cases at "
              "their lines" % (rel.split("/test/", 1)[1], r["ok"], r["cases"],
                               r["err_ok"], r["err_cases"]))
    if args.list:
        for rel, r in zip(files, results):
            if r["first"]:
                print("FAIL %s: %s" % (rel, r["first"]))
    all_ok = passing == len(files) - len(xfail) - missing
    return 0 if all_ok or not args.strict else 1


if __name__ == "__main__":
    sys.exit(main())
