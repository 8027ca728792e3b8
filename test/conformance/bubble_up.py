"""Conformance of hivm-bubble-up-extract-slice on the AscendNPU-IR cases.

Each bubble-up-splits/s_N.mlir holds one case: a RUN line naming the pass
and its options, the input, and CHECK lines showing bishengir-opt's output.
For each case this runs npuc-opt with the RUN line's options (without
-verify-diagnostics: the cases expect no diagnostics, and a failing case
prints nothing either way) and reports:

  filecheck  FileCheck of npuc-opt's output against the case's CHECK lines;
  decision   whether npuc-opt bubbled the case like bishengir did. bishengir
             bubbled it when the CHECK lines describe output; it failed the
             case when they are only CHECK-NOT (its output for the function
             is empty). npuc-opt bubbled it when it exits 0 and no slice
             marked {to_be_bubbled_slice} is left on an op's result (only
             block arguments are stop points that keep a marked slice).

See bubble_up.sh for the command line.
"""
import argparse
import os
import re
import subprocess
import sys

MARK = "to_be_bubbled_slice"
RUN_LINE = re.compile(r"//\s*RUN:\s*(.*)")
CHECK_LINE = re.compile(r"//\s*CHECK(-[A-Z]+)?:")
MARKED_SLICE = re.compile(
    r"(%[\w.$#-]+)\s*=\s*tensor\.extract_slice\s+(%[\w.$#-]+)[^\n]*\{[^}\n]*"
    + MARK)
DEF = re.compile(r"^\s*(%[\w.$-]+)(?::\d+)?(?:\s*,\s*%[\w.$-]+)*\s*=\s*"
                 r"(\"?[\w.]+\"?)", re.M)


def case_number(name):
    m = re.match(r"s_(\d+)\.mlir$", name)
    return int(m.group(1)) if m else None


def run_options(text):
    """The options of the RUN line between `%s` and the pipe, without
    -verify-diagnostics."""
    for line in text.splitlines():
        m = RUN_LINE.search(line)
        if not m:
            continue
        cmd = m.group(1).split("|")[0].split()
        opts = [t for t in cmd[1:] if t != "%s"]
        return [t for t in opts if t.lstrip("-") != "verify-diagnostics"]
    return ["--hivm-bubble-up-extract-slice"]


def expected_bubbled(text):
    """True when the CHECK lines show output, false when they are only
    CHECK-NOT (bishengir printed nothing for the case)."""
    kinds = [m.group(1) or "" for m in map(CHECK_LINE.search,
                                           text.splitlines()) if m]
    return any(k != "-NOT" for k in kinds)


def stuck_slices(output):
    """Marked slices left on an op's result: (slice, producer op name)."""
    producers = {}
    for m in DEF.finditer(output):
        producers[m.group(1)] = m.group(2).strip('"')
    left = []
    for m in MARKED_SLICE.finditer(output):
        src = m.group(2).split("#")[0]
        if re.fullmatch(r"%arg\d+", src):
            continue  # a block argument: a stop point
        left.append((m.group(1), producers.get(src, "?")))
    return left


def first_error(stderr, path):
    lines = [l for l in stderr.splitlines() if "error:" in l]
    line = lines[0] if lines else (stderr.splitlines() or ["(no message)"])[0]
    return line.replace(path + ":", os.path.basename(path) + ":")


def filecheck(filecheck_bin, path, output):
    p = subprocess.run([filecheck_bin, path, "--allow-empty",
                        "--dump-input=never"], input=output.encode(),
                       capture_output=True, timeout=120)
    msg = p.stderr.decode(errors="replace")
    first = next((l for l in msg.splitlines() if "error:" in l), "")
    return p.returncode == 0, first.replace(path + ":", "")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser()
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("-v", action="store_true", dest="verbose")
    ap.add_argument("npuc_opt", nargs="?",
                    default=os.environ.get(
                        "NPUC_OPT", os.path.join(root, "build/bin/npuc-opt")))
    ap.add_argument("dir", nargs="?", default=os.path.join(
        os.path.dirname(root), "shared/conformance/ascendnpu-ir",
        "bubble-up-splits"))
    ap.add_argument("--filecheck", default=os.environ.get(
        "FILECHECK", "/usr/lib/llvm-22/bin/FileCheck"))
    args = ap.parse_args()
    for tool in (args.npuc_opt, args.filecheck):
        if not os.access(tool, os.X_OK):
            print("bubble_up: not executable: %s" % tool, file=sys.stderr)
            return 2
    if not os.path.isdir(args.dir):
        print("bubble_up: no such directory: %s" % args.dir, file=sys.stderr)
        return 2
    names = sorted((n for n in os.listdir(args.dir)
                    if case_number(n) is not None), key=case_number)
    if not names:
        print("bubble_up: no s_N.mlir cases in %s" % args.dir, file=sys.stderr)
        return 2

    fc_pass = agree = 0
    disagreements, fc_failures = [], []
    for name in names:
        path = os.path.join(args.dir, name)
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        p = subprocess.run([args.npuc_opt, path] + run_options(text),
                           capture_output=True, timeout=120)
        out = p.stdout.decode(errors="replace")
        err = p.stderr.decode(errors="replace")
        if p.returncode != 0 and "error:" not in err:
            # The pass fails without a word, as bishengir's: ask it why.
            loud = [o + "=emit-remarks=true"
                    if o.lstrip("-") == "hivm-bubble-up-extract-slice" else o
                    for o in run_options(text)]
            err = subprocess.run([args.npuc_opt, path] + loud,
                                 capture_output=True, timeout=120
                                 ).stderr.decode(errors="replace")
        fc_ok, fc_msg = filecheck(args.filecheck, path, out)
        want = expected_bubbled(text)
        if p.returncode != 0:
            got, why = False, "npuc-opt failed: " + first_error(err, path)
        else:
            left = stuck_slices(out)
            got = not left
            why = ("%s stays on the result of %s" % left[0]) if left else \
                "npuc-opt bubbled every marked slice"
        same = want == got
        fc_pass += fc_ok
        agree += same
        print("%-11s filecheck %-4s decision %-8s (%s)" % (
            name, "PASS" if fc_ok else "FAIL", "agree" if same else "DISAGREE",
            "bubbled" if got else "not bubbled"))
        if not same:
            disagreements.append("%s: bishengir %s; %s" % (
                name, "bubbles it" if want else
                "fails it (its CHECK lines are only CHECK-NOT)", why))
        if not fc_ok:
            fc_failures.append("%s: %s" % (
                name, fc_msg if fc_ok is False and fc_msg else why))

    n = len(names)
    print("TOTAL %d cases: FileCheck %d passed, %d failed; decisions agree "
          "on %d of %d (%.1f%%)" % (n, fc_pass, n - fc_pass, agree, n,
                                    100.0 * agree / n))
    if disagreements:
        print("disagreements:")
        for d in disagreements:
            print("  " + d)
    if fc_failures and args.verbose:
        print("FileCheck failures:")
        for d in fc_failures:
            print("  " + d)
    print("bubble_up conformance: %d passed, %d failed (FileCheck); "
          "%.1f%% decision agreement" % (fc_pass, n - fc_pass,
                                         100.0 * agree / n))
    if args.strict and (fc_pass != n or agree != n):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
