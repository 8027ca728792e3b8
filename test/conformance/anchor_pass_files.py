#!/usr/bin/env python3
"""The anchor's own test files of the passes npuc implements, run as lit would.

Every .mlir under DIR (default ../shared/conformance/full/ascendnpu-ir beside
the repository; read in place, never copied) whose RUN lines name
bishengir-opt with a pass npuc-opt lists in its --help is run with those RUN
lines, bishengir-opt replaced by npuc-opt and FileCheck by LLVM 22's, under
`set -o pipefail` as lit does:

  whole     the file as it stands, every RUN line;
  per case  each `// -----` case alone (split as --split-input-file does),
            padded with newlines so that its lines keep their numbers, with
            the CHECK and expected-* lines it holds (FileCheck with
            --allow-empty; without its FileCheck when it holds no CHECK
            line). A case passes when all the RUN lines pass on it.

A failing case listed in the data file (--expected, default
anchor_pass_files.txt beside this script) as a documented decision
difference is counted apart; every other failing case is printed. The
data file holds, one a line (`#` starts a comment):

  floor FILE CASES WHOLE   at least CASES cases of FILE (a path suffix)
                           pass, and the whole file passes if WHOLE is 1
  KIND FILE:LINE REASON    the case of FILE holding LINE fails, for REASON
                           (the pass's docs/passes page says more); KIND:
    differ   npuc decides otherwise on purpose (or MLIR 22 rejects the
             input)
    form     the same decision, written otherwise (bishengir keeps the
             sub-block loop for a later pass, npuc binds it at once)
    missing  bishengir does something npuc does not do yet

Exit 1 when a figure is below its floor, 2 on bad usage. A `differ` entry
whose case passes, or that matches no case, is reported as stale.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from aievec_to_cpp import run_lines  # noqa: E402
from conformance import split_cases  # noqa: E402

PASS_FLAG = re.compile(r"^  --([a-z0-9-]+)\s")
TIMEOUT = 120
KINDS = ("differ", "form", "missing")


def pass_flags(npuc_opt):
    """The pass flags npuc-opt's --help lists under NPUC PASSES."""
    p = subprocess.run([npuc_opt, "--help"], capture_output=True, text=True)
    text = p.stdout + p.stderr
    at = text.find("NPUC PASSES")
    return {m.group(1) for m in map(PASS_FLAG.match, text[at:].splitlines())
            if m}


def uses_our_pass(cmds, flags):
    for cmd in cmds:
        words = shlex.split(cmd.split("|")[0])
        if "bishengir-opt" not in words:
            continue
        for w in words:
            name = w.lstrip("-").split("=", 1)[0]
            if w.startswith("-") and name in flags:
                return True
    return False


def shell_command(cmd, npuc_opt, filecheck, path):
    cmd = re.sub(r"\bbishengir-opt\b", shlex.quote(npuc_opt), cmd)
    cmd = re.sub(r"\bFileCheck\b", shlex.quote(filecheck), cmd)
    return cmd.replace("%s", shlex.quote(path))


def check_prefixes(cmd):
    """The FileCheck prefixes of a RUN command (CHECK unless it names some)."""
    m = re.search(r"--?check-prefix(?:es)?[= ]([\w,-]+)", cmd)
    return m.group(1).split(",") if m else ["CHECK"]


def has_checks(text, prefixes):
    return any(re.search(r"//.*\b%s(-[A-Z]+)?:" % re.escape(p), text)
               for p in prefixes)


def run_file(cmds, path, npuc_opt, filecheck, text=None):
    """'' when every RUN line passes on path, else the first error line.
    A case (text given) with no CHECK lines of a command's prefixes only
    has to run: its FileCheck is left out (lit would not see the case
    alone)."""
    for cmd in cmds:
        if text is not None and "FileCheck" in cmd and not has_checks(
                text, check_prefixes(cmd)):
            cmd = cmd.rsplit("|", 1)[0] + "> " + shlex.quote(path + ".out")
        elif text is not None:
            # The output of a case whose pass failed is empty, which its
            # CHECK-NOT lines accept (in the whole file, others' output
            # is there).
            cmd = re.sub(r"\bFileCheck\b", "FileCheck --allow-empty", cmd)
        sh = "set -o pipefail; " + shell_command(cmd, npuc_opt, filecheck,
                                                  path)
        try:
            p = subprocess.run(["bash", "-c", sh], capture_output=True,
                               timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return "timed out"
        if p.returncode != 0:
            err = p.stderr.decode(errors="replace").splitlines()
            first = [ln for ln in err if "error:" in ln] or err or ["failed"]
            return first[0].strip()[:200]
    return ""


def read_expected(path):
    floors, differs = {}, []
    if not path or not os.path.exists(path):
        return floors, differs
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split(None, 2)
            if words[0] == "floor" and len(words) == 3:
                cases, whole = words[2].split()
                floors[words[1]] = (int(cases), whole == "1")
            elif words[0] in KINDS and len(words) == 3:
                fname, _, at = words[1].rpartition(":")
                differs.append([fname, int(at), words[2], False, words[0]])
            else:
                print("%s:%d: cannot read: %s" % (path, n, line),
                      file=sys.stderr)
                sys.exit(2)
    return floors, differs


def suffix_match(rel, suffix):
    return rel == suffix or rel.endswith("/" + suffix)


def find_files(root, flags):
    found = []
    for d, _, names in os.walk(root):
        for name in sorted(names):
            if not name.endswith(".mlir"):
                continue
            path = os.path.join(d, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            cmds = run_lines(path)
            if cmds and uses_our_pass(cmds, flags):
                found.append((os.path.relpath(path, root), path, text, cmds))
    return sorted(found)


def check_file(rel, path, text, cmds, args, differs, tmp):
    """Runs one file whole and per case; returns its figures and failures."""
    whole_err = run_file(cmds, path, args.npuc_opt, args.filecheck)
    passed, total, failures = 0, 0, []
    differing = dict.fromkeys(KINDS, 0)
    cases = list(split_cases(text))
    for i, (chunk, first, last) in enumerate(cases):
        if not chunk.strip():
            continue
        # A marker line ends one case and starts the next: it is the next's.
        end = last + 1 if i == len(cases) - 1 else last
        total += 1
        case = os.path.join(tmp, "case.mlir")
        with open(case, "w", encoding="utf-8") as f:
            f.write("\n" * (first - 1) + chunk)
        err = run_file(cmds, case, args.npuc_opt, args.filecheck, chunk)
        err = err.replace(case, rel)
        if not err:
            passed += 1
        why = [d for d in differs if suffix_match(rel, d[0])
               and first <= d[1] < end]
        for d in why:
            d[3] = True
            if not err:
                failures.append("%s:%d: STALE difference (the case passes)"
                                % (rel, d[1]))
        if err and why:
            differing[why[0][4]] += 1
        elif err:
            failures.append("%s:%d: FAIL: %s" % (rel, first, err))
    return whole_err, passed, total, differing, failures


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--expected", default=os.path.join(
        here, "anchor_pass_files.txt"))
    ap.add_argument("--filecheck", default="/usr/lib/llvm-22/bin/FileCheck")
    ap.add_argument("npuc_opt", nargs="?", default=os.environ.get(
        "NPUC_OPT", os.path.join(root, "build/bin/npuc-opt")))
    ap.add_argument("dir", nargs="?", default=os.path.join(
        os.path.dirname(root), "shared/conformance/full/ascendnpu-ir"))
    args = ap.parse_args()
    args.npuc_opt = os.path.abspath(args.npuc_opt)
    for need, what in ((args.npuc_opt, "npuc-opt"),
                       (args.filecheck, "FileCheck")):
        if not os.access(need, os.X_OK):
            print("anchor_pass_files: %s not executable: %s" % (what, need),
                  file=sys.stderr)
            return 2
    if not os.path.isdir(args.dir):
        print("anchor_pass_files: no such directory: %s" % args.dir,
              file=sys.stderr)
        return 2
    floors, differs = read_expected(args.expected)
    files = find_files(args.dir, pass_flags(args.npuc_opt))
    return report(files, args, floors, differs)


def report(files, args, floors, differs):
    low, failures, sums = [], [], [0, 0, 0, 0, 0]
    kinds = dict.fromkeys(KINDS, 0)
    with tempfile.TemporaryDirectory(prefix="anchor_pass_") as tmp:
        for rel, path, text, cmds in files:
            whole_err, passed, total, differing, fails = check_file(
                rel, path, text, cmds, args, differs, tmp)
            failures += fails
            whole = not whole_err
            documented = sum(differing.values())
            for k in KINDS:
                kinds[k] += differing[k]
            print("%-62s cases %3d/%-3d %s  whole %s" % (
                rel, passed, total, " ".join(
                    "%s %2d" % (k, differing[k]) for k in KINDS),
                "pass" if whole else "FAIL"))
            for key, (floor, want_whole) in floors.items():
                if suffix_match(rel, key) and (
                        passed < floor or (want_whole and not whole)):
                    low.append("%s: %d cases (floor %d), whole %s" % (
                        rel, passed, floor, "pass" if whole else "FAIL"))
            sums = [a + b for a, b in zip(sums, (
                passed, total, documented, whole, passed + documented == total))]
    failures += ["%s:%d: STALE difference (no such case)" % (d[0], d[1])
                 for d in differs if not d[3]]
    for f in failures:
        print(f)
    print("anchor pass files: %d files, %d whole files pass, %d pass but "
          "for documented differences; cases %d of %d pass, %d documented "
          "(%s)" % (len(files), sums[3], sums[4], sums[0], sums[1], sums[2],
                    ", ".join("%s %d" % (k, kinds[k]) for k in KINDS)))
    for ln in low:
        print("BELOW FLOOR: " + ln)
    return 1 if low or not files else 0


if __name__ == "__main__":
    sys.exit(main())
