#!/usr/bin/env python3
"""Parse/print figures of npuc-opt over AscendNPU-IR's whole test suite.

Every `// -----` case of every .mlir file under DIR whose RUN lines do not
use -verify-diagnostics is fed to npuc-opt alone (as conformance.py does:
split like --split-input-file, padded to keep line numbers). A case passes
when it parses, verifies and prints, and the printout reprints identically
(a fixed point). Printed: cases and passes, all and non-Triton (no `tt.`
op), then the failures by cause, taken from the first error:

  unknown-op      an op name of our dialects the tables lack (listed by name)
  enum-clause     custom syntax of our ops not read: an enum value, a clause
  other-dialect   an op of a dialect npuc does not describe (hfusion, tt, ...)
  older-upstream  an upstream op or form MLIR 22 no longer has
  mlir22-verify   an upstream op MLIR 22's verifier rejects
  roundtrip       parsed but the printout is not a fixed point
  other           anything else (listed by message)

With --expected FILE, exits 1 when a figure of FILE (`name value` lines)
is higher than measured: the floor CI keeps. --update rewrites FILE.
See README.md in this directory.
"""
import argparse
import collections
import concurrent.futures
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from conformance import split_cases, run_opt  # noqa: E402

RUN_DIAG = re.compile(r"^\s*//\s*RUN:.*-verify-diagnostics", re.M)
# Triton: a case that names anything of `tt.` (its ops or its attributes).
TRITON = re.compile(r"\btt\.")
OUR_DIALECTS = ("hivm", "annotation", "hacc", "scope", "memref_ext")
# Ops and forms older MLIR has and MLIR 22 dropped or renamed.
OLDER_UPSTREAM = re.compile(
    r"linalg\.elemwise_(?:binary|unary)|linalg\.(?:batch_)?matmul_transpose"
    r"|bufferization\.to_memref|vector\.(?:extractelement|insertelement|splat)"
    r"|memref\.dma_(?:start|wait)|linalg\.matmul_unsigned")
UNKNOWN_OUR_OP = re.compile(r"unknown op '([\w.$]+)' in dialect")
# What our reader leaves unread: a clause MLIR then takes for an op name
# ("custom op 'temp_buffer' is unknown"), an enum value or a missing type.
LEFT_CLAUSE = re.compile(r"custom op '(\w+)'")
OUR_FORM = re.compile(r"is not a valid (\w+) of '([\w.]+)'|'([\w.]+)' has \d+ "
                      r"operands? in '\w+' but \d+ types?|custom syntax of '([\w.$]+)'")
QUOTED_NAME = re.compile(r"'([\w$]+)\.([\w.$]+)'")


def classify(message):
    """(cause, detail) of a failing case from its first error line."""
    if message.startswith("roundtrip"):
        return "roundtrip", ""
    m = UNKNOWN_OUR_OP.search(message)
    if m:
        return "unknown-op", m.group(1)
    m = OUR_FORM.search(message)
    if m:
        if m.group(1):
            return "enum-clause", f"{m.group(2)} {m.group(1)}"
        return "enum-clause", m.group(3) or m.group(4)
    m = LEFT_CLAUSE.search(message)
    if m:
        return "enum-clause", "clause " + m.group(1)
    if "in attribute dictionary" in message:
        return "enum-clause", "clause value read too far"
    m = OLDER_UPSTREAM.search(message)
    if m:
        return "older-upstream", m.group(0)
    for m in QUOTED_NAME.finditer(message):
        dialect = m.group(1)
        if dialect in OUR_DIALECTS:
            continue
        if dialect in ("builtin", "func", "arith", "scf", "memref", "tensor",
                       "linalg", "vector", "math", "bufferization", "affine",
                       "cf", "llvm", "gpu", "index", "complex"):
            if "unknown" in message or "unregistered" in message:
                return "older-upstream", m.group(0).strip("'")
            return "mlir22-verify", m.group(0).strip("'")
        return "other-dialect", dialect
    return "other", re.sub(r"^.*?error: ", "", message)[:90]


def case_passes(npuc_opt, chunk, first_line):
    """'' when the case parses and round-trips, else its first error."""
    rc, out, err = run_opt(npuc_opt, "\n" * (first_line - 1) + chunk)
    if rc != 0:
        lines = err.splitlines()
        return next((l for l in lines if "error:" in l),
                    lines[0] if lines else "no message")
    rc2, out2, _ = run_opt(npuc_opt, out)
    if rc2 != 0 or out2 != out:
        return "roundtrip: printout is not a fixed point"
    return ""


def collect_cases(base, only=None):
    files = sorted(os.path.relpath(os.path.join(d, f), base)
                   for d, _, fs in os.walk(base) for f in fs
                   if f.endswith(".mlir"))
    for rel in files:
        text = open(os.path.join(base, rel), encoding="utf-8").read()
        if RUN_DIAG.search(text):
            continue
        for chunk, first, _ in split_cases(text):
            if chunk.strip() and (only is None or (rel, first) in only):
                yield rel, first, chunk


def failing_cases(log):
    """The (file, line) of every failing case a -v run listed."""
    only = set()
    for raw in open(log, encoding="utf-8"):
        m = re.match(r"(\S+\.mlir):(\d+): ", raw)
        if m:
            only.add((m.group(1), int(m.group(2))))
    return only


def measure(args):
    only = failing_cases(args.rerun) if args.rerun else None
    cases = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for rel, first, chunk in collect_cases(os.path.normpath(args.dir),
                                               only):
            triton = bool(TRITON.search(chunk))
            fut = pool.submit(case_passes, args.npuc_opt, chunk, first)
            cases.append((rel, first, triton, fut))
    figures = collections.Counter()
    causes = collections.Counter()
    details = collections.defaultdict(collections.Counter)
    failures = []
    for rel, first, triton, fut in cases:
        try:
            msg = fut.result()
        except Exception as e:  # a time-out is a failure, not a crash
            msg = f"npuc-opt did not finish: {e.__class__.__name__}"
        figures["cases"] += 1
        figures["non_triton_cases"] += not triton
        if not msg:
            figures["passed"] += 1
            figures["non_triton_passed"] += not triton
            continue
        cause, detail = classify(msg)
        causes[cause] += 1
        if detail:
            details[cause][detail] += 1
        failures.append((rel, first, cause, msg))
    return figures, causes, details, failures


def pct(a, b):
    return f"{100.0 * a / b:.1f}%" if b else "-"


def report(figures, causes, details, failures, verbose):
    f = figures
    print(f"cases (no -verify-diagnostics): {f['cases']}, passed "
          f"{f['passed']} ({pct(f['passed'], f['cases'])})")
    print(f"non-Triton cases: {f['non_triton_cases']}, passed "
          f"{f['non_triton_passed']} "
          f"({pct(f['non_triton_passed'], f['non_triton_cases'])})")
    print("failures by cause:")
    for cause, n in causes.most_common():
        print(f"  {cause:<15} {n:5}")
        top = details[cause].most_common(None if verbose else 12)
        for name, k in top:
            print(f"      {k:5}  {name}")
        rest = len(details[cause]) - len(top)
        if rest > 0:
            print(f"      ... and {rest} more (-v lists them)")
    if verbose:
        for rel, first, cause, msg in failures:
            print(f"{rel}:{first}: {cause}: {msg}")


def check_floor(path, figures, update):
    keys = ("cases", "passed", "non_triton_cases", "non_triton_passed")
    if update:
        with open(path, "w", encoding="utf-8") as out:
            out.write("# Floor of test/conformance/full_suite.py: "
                      "`make conformance` fails below it.\n")
            for k in keys:
                out.write(f"{k} {figures[k]}\n")
        return 0
    worse = 0
    for raw in open(path, encoding="utf-8"):
        raw = raw.split("#", 1)[0].split()
        if len(raw) == 2 and raw[0].endswith("passed") and \
                figures[raw[0]] < int(raw[1]):
            print(f"full-suite: {raw[0]} dropped: {figures[raw[0]]} < "
                  f"{raw[1]} ({path})")
            worse = 1
    if not worse:
        print(f"full-suite: figures at or above the floor ({path})")
    return worse


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("npuc_opt", nargs="?", default=os.environ.get(
        "NPUC_OPT", os.path.join(root, "build", "bin", "npuc-opt")))
    ap.add_argument("dir", nargs="?", default=os.path.join(
        root, "..", "shared", "conformance", "full", "ascendnpu-ir"))
    ap.add_argument("--expected", help="floor file (name value per line)")
    ap.add_argument("--update", action="store_true",
                    help="write the measured figures to --expected")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--rerun", metavar="LOG",
                    help="only the cases a -v run listed as failing "
                    "(quick checks while working; the floor needs a full run)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="every failing case and every name")
    args = ap.parse_args()
    if not os.access(args.npuc_opt, os.X_OK):
        sys.exit(f"npuc-opt not found: {args.npuc_opt}")
    if not os.path.isdir(args.dir):
        sys.exit(f"no conformance directory: {args.dir}")
    figures, causes, details, failures = measure(args)
    report(figures, causes, details, failures, args.verbose)
    if args.expected and not args.rerun:
        return check_floor(args.expected, figures, args.update)
    return 0


if __name__ == "__main__":
    sys.exit(main())
