"""Conformance of npuc-opt on upstream AscendNPU-IR test inputs.

Every `// -----` case of every .mlir file under a directory is checked for:
  parse      npuc-opt accepts the case on its own (parse + verify + print);
  roundtrip  its output parses again and prints identically (a fixed point);
  custom     no op of our dialects is left in generic form ("hivm.hir.x"().
See run.sh for the command line; the README in this directory for details.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

MARKER = "// -----"
OUR_GENERIC_OP = re.compile(r'"(?:hivm|annotation|scope|memref_ext)\.[\w.$]+"\(')


def split_cases(text):
    """Yields (chunk, first_line, last_line) exactly as npuc-opt's
    --split-input-file splits (mlir-opt's rule): at every marker wherever it
    is on a line, except near misses followed by one more '-'."""
    start, pos, line, chunk_line = 0, 0, 1, 1
    while True:
        at = text.find(MARKER, pos)
        if at < 0:
            break
        after = at + len(MARKER)
        line += text.count("\n", pos, at)
        if after < len(text) and text[after] == "-":  # near miss: skip it
            while after < len(text) and text[after] == "-":
                after += 1
            pos = after
            continue
        yield text[start:at], chunk_line, line
        start = pos = after
        chunk_line = line
    yield text[start:], chunk_line, line + text.count("\n", pos)


def first_content_line(chunk, first_line):
    """The line a reader would jump to: the first one that is not blank."""
    for i, l in enumerate(chunk.split("\n")):
        if l.strip():
            return first_line + i
    return first_line


def run_opt(npuc_opt, text):
    p = subprocess.run([npuc_opt, "-"], input=text.encode(),
                       capture_output=True, timeout=120)
    return p.returncode, p.stdout.decode(errors="replace"), \
        p.stderr.decode(errors="replace")


def first_error(stderr, display):
    lines = stderr.splitlines()
    pick = next((l for l in lines if "error:" in l), lines[0] if lines else "")
    return pick.replace("<stdin>", display)


def check_case(npuc_opt, display, chunk, first_line):
    """Returns (parsed, roundtripped, custom, message)."""
    # Padding newlines keep every line number that of the original file.
    rc, out, err = run_opt(npuc_opt, "\n" * (first_line - 1) + chunk)
    if rc != 0:
        return False, False, False, "parse: " + first_error(err, display)
    custom = OUR_GENERIC_OP.search(out)
    rc2, out2, err2 = run_opt(npuc_opt, out)
    if rc2 != 0:
        msg = "roundtrip: output does not parse: " + first_error(err2, "<output>")
        return True, False, not custom, msg
    if out2 != out:
        a, b = out.splitlines(), out2.splitlines()
        i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]),
                 min(len(a), len(b)))
        got = b[i].strip() if i < len(b) else "<end>"
        return True, False, not custom, \
            f"roundtrip: printout line {i + 1} changes on reprint: {got}"
    if custom:
        return True, True, False, \
            f"custom: op left in generic form: {custom.group(0)[:-1]}"
    return True, True, True, ""


def load_xfail(path):
    """`path-suffix:line  reason` per line; '#' starts a comment."""
    entries = []
    if path and os.path.exists(path):
        for raw in open(path, encoding="utf-8"):
            raw = raw.split("#", 1)[0].strip()
            if not raw:
                continue
            where, _, reason = raw.partition(" ")
            suffix, _, line = where.rpartition(":")
            entries.append([suffix, int(line), reason.strip(), False])
    return entries


def xfail_for(entries, rel, first_line, last_line):
    # An entry names any line of the case (say, the line of its error).
    for e in entries:
        if ("/" + rel).endswith("/" + e[0].lstrip("/")) and \
                first_line <= e[1] <= last_line:
            e[3] = True
            return e
    return None


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("npuc_opt", nargs="?", default=os.environ.get(
        "NPUC_OPT", os.path.join(root, "build", "bin", "npuc-opt")))
    ap.add_argument("dir", nargs="?", default=os.path.join(
        root, "..", "shared", "conformance", "ascendnpu-ir"))
    ap.add_argument("--strict", action="store_true",
                    help="exit 1 if a case fails that xfail.txt does not list")
    ap.add_argument("--xfail", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "xfail.txt"))
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    if not os.access(args.npuc_opt, os.X_OK):
        sys.exit(f"npuc-opt not found: {args.npuc_opt} (build it, or pass "
                 "its path as first argument or in NPUC_OPT)")
    if not os.path.isdir(args.dir):
        sys.exit(f"no conformance directory: {args.dir}")
    base = os.path.normpath(args.dir)
    files = sorted(os.path.relpath(os.path.join(d, f), base)
                   for d, _, fs in os.walk(base) for f in fs
                   if f.endswith(".mlir"))
    xfails = load_xfail(args.xfail)

    cases = []  # (rel, case_line, first_line, last_line, future)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for rel in files:
            text = open(os.path.join(base, rel), encoding="utf-8").read()
            for chunk, first, last in split_cases(text):
                fut = pool.submit(check_case, args.npuc_opt, rel, chunk, first)
                cases.append((rel, first_content_line(chunk, first), first,
                              last, fut))

    totals = [0, 0, 0, 0]
    failures, unexpected = [], 0
    width = max(map(len, files), default=10)
    for rel in files:
        mine = [c for c in cases if c[0] == rel]
        counts = [len(mine), 0, 0, 0]
        for _, line, first, last, fut in mine:
            try:
                result = fut.result()
            except subprocess.TimeoutExpired:
                result = (False, False, False, "timeout")
            for k in range(3):
                counts[k + 1] += result[k]
            if result[3]:
                x = xfail_for(xfails, rel, first, last)
                unexpected += x is None
                failures.append((rel, line, result[3], x))
        totals = [t + c for t, c in zip(totals, counts)]
        print(f"{rel:<{width}}  cases {counts[0]:3}  parsed {counts[1]:3}  "
              f"round-tripped {counts[2]:3}  custom {counts[3]:3}")
    print(f"{'TOTAL':<{width}}  cases {totals[0]:3}  parsed {totals[1]:3}  "
          f"round-tripped {totals[2]:3}  custom {totals[3]:3}")
    if failures:
        print(f"\nfailing cases ({len(failures)}, {unexpected} not in xfail):")
        for rel, line, msg, x in failures:
            tag = f"XFAIL ({x[2]})" if x else "FAIL"
            print(f"  {rel}:{line}: {tag}: {msg}")
    stale = [e for e in xfails if not e[3]]
    for e in stale:
        print(f"note: xfail entry {e[0]}:{e[1]} matched no failing case")
    # The last line keeps the plain "N passed, N failed" form CI reads;
    # expected failures are counted on the line before, not as failures.
    print(f"\n{len(failures) - unexpected} expected failures (xfail.txt) "
          "not counted below")
    print(f"conformance: {totals[0] - len(failures)} passed, "
          f"{unexpected} failed")
    return 1 if args.strict and unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
