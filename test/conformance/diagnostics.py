#!/usr/bin/env python3
"""Diagnostics conformance on AscendNPU-IR's --verify-diagnostics tests.

For every file of DIR (default ../shared/conformance/full/ascendnpu-ir
beside the repository) whose RUN line has -verify-diagnostics, each case
(split at `// -----` when the RUN line splits) is fed alone to npuc-opt
with --verify-diagnostics and the RUN line's pass options, padded with
newlines so that lines keep their numbers. Per case:

  pass      npuc-opt exits 0: exactly the expected diagnostics, by text;
  expected  the case's expected-error/warning/remark/note annotations
            (@+N, @-N, @above, @below; @unknown counts as expected but
            never at a line);
  at line   expected ones npuc produced with that severity at that line,
            whatever the text (an expectation npuc-opt does not report as
            "not produced", or one at whose line an unexpected diagnostic
            of its severity was reported);
  accepted  cases with an expected-error where npuc produced no error at
            all: IR the anchor rejects and npuc accepts.

Each case is put in a group by its RUN line: `verifier` (no pass: the
diagnostics come from parsing and verification), `pass` (passes npuc-opt
implements) or `no-pass-impl` (a pass npuc-opt does not have: those cases
run without the RUN line's options, so they only measure reading and
verification, and their expected diagnostics, a pass's, count as not
produced). Expected
diagnostics are also counted for `ours`: those whose target line holds an
op or attribute of hivm/annotation/hacc/scope/memref_ext.

Output: one line per file with expectations or failures, then totals per
group. --min PCT exits 1 when the `ours` verifier figure (at line / expected)
is below PCT. Python 3 standard library only.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from conformance import split_cases  # noqa: E402

EXPECT = re.compile(
    r"expected-(error|warning|remark|note)(-re)?\s*"
    r"(?:@(\+\d+|-\d+|above|below|unknown))?\s*\{\{")
REPORT = re.compile(r"^<stdin>:(\d+):\d+: error: (.*)$")
UNEXPECTED = re.compile(r"^unexpected (error|warning|remark|note): ")
NOT_PRODUCED = re.compile(r'^expected (error|warning|remark|note) "')
WRONG_SEV = re.compile(r"^'(\w+)' diagnostic emitted when expecting a '(\w+)'")
OURS = re.compile(r"\b(hivm|annotation|hacc|scope|memref_ext)\.")
DROPPED = {"%s", "-split-input-file", "--split-input-file",
           "-verify-diagnostics", "--verify-diagnostics",
           "-allow-unregistered-dialect", "--allow-unregistered-dialect"}


def run_options(text):
    """The pass options of the first RUN line with -verify-diagnostics, and
    whether it splits; None when no RUN line has it."""
    runs, cur = [], ""
    for line in text.splitlines():
        m = re.match(r"\s*//\s*RUN:\s?(.*)", line)
        if not m:
            continue
        cur += m.group(1).rstrip()
        if cur.endswith("\\"):
            cur = cur[:-1] + " "
            continue
        runs.append(cur)
        cur = ""
    for run in runs:
        cmd = run.split("|")[0]
        if "verify-diagnostics" not in cmd:
            continue
        try:
            words = shlex.split(cmd)
        except ValueError:
            words = cmd.split()
        opts = [w for w in words[1:] if w not in DROPPED]
        return opts, "split-input-file" in cmd
    return None


def expectations(chunk, first_line):
    """[(severity, target line or None, comment line)] as mlir-opt reads
    them: @below binds to the next line without a designator, @above to the
    last one."""
    out, below, last_plain = [], [], None
    for i, line in enumerate(chunk.split("\n")):
        lineno = first_line + i
        found = list(EXPECT.finditer(line))
        if not found:
            for sev, src in below:
                out.append((sev, lineno, src))
            below, last_plain = [], lineno
            continue
        for m in found:
            sev, off = m.group(1), m.group(3)
            if off is None:
                out.append((sev, lineno, lineno))
            elif off == "below":
                below.append((sev, lineno))
            elif off == "above":
                out.append((sev, last_plain, lineno))
            elif off == "unknown":
                out.append((sev, None, lineno))
            else:
                out.append((sev, lineno + int(off), lineno))
    return out


def pass_group(npuc_opt, opts, cache):
    if not opts:
        return "verifier"
    key = tuple(opts)
    if key not in cache:
        p = subprocess.run([npuc_opt] + opts + ["-"], input=b"module {}\n",
                           capture_output=True, timeout=60)
        cache[key] = "pass" if p.returncode == 0 else "no-pass-impl"
    return cache[key]


def check_case(npuc_opt, opts, chunk, first_line):
    exp = expectations(chunk, first_line)
    text = "\n" * (first_line - 1) + chunk
    try:
        p = subprocess.run([npuc_opt, "--verify-diagnostics"] + opts + ["-"],
                           input=text.encode(), capture_output=True,
                           timeout=120)
        rc, err = p.returncode, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        rc, err = "timeout", ""
    unexpected, missed = set(), set()
    for line in err.splitlines():
        m = REPORT.match(line)
        if not m:
            continue
        at, msg = int(m.group(1)), m.group(2)
        u = UNEXPECTED.match(msg)
        if u:
            unexpected.add((u.group(1), at))
            continue
        n = NOT_PRODUCED.match(msg) or WRONG_SEV.match(msg)
        if n:
            missed.add((n.group(n.lastindex), at))
    lines = text.split("\n")
    res = {"cases": 1, "pass": int(rc == 0), "crash": 0, "expected": 0,
           "at_line": 0, "accepted": 0, "ours": 0, "ours_at_line": 0}
    if rc not in (0, 1):
        res["crash"] = 1
    errors_expected = any(sev == "error" for sev, _, _ in exp)
    produced_error = any(sev == "error" for sev, _ in unexpected)
    for sev, target, src in exp:
        hit = target is not None and (
            (sev, src) not in missed or (sev, target) in unexpected)
        if sev == "error" and (sev, src) not in missed:
            produced_error = True
        ours = target is not None and 0 < target <= len(lines) and \
            OURS.search(lines[target - 1]) is not None
        res["expected"] += 1
        res["at_line"] += int(hit)
        res["ours"] += int(ours)
        res["ours_at_line"] += int(ours and hit)
    if errors_expected and not produced_error and rc != "timeout":
        res["accepted"] = 1
    return res


def add(total, res):
    for k, v in res.items():
        total[k] = total.get(k, 0) + v


def pct(a, b):
    return f"{100.0 * a / b:5.1f}%" if b else "    -"


def row(name, t):
    return (f"{name:<78} cases {t['cases']:4} pass {t['pass']:4} "
            f"({pct(t['pass'], t['cases'])})  expected {t['expected']:3} "
            f"at line {t['at_line']:3} ({pct(t['at_line'], t['expected'])})  "
            f"ours {t['ours_at_line']}/{t['ours']}  "
            f"accepted {t['accepted']}  crash {t['crash']}")


def files_of(root):
    for d, _, names in sorted(os.walk(root)):
        for n in sorted(names):
            if n.endswith(".mlir"):
                yield os.path.join(d, n)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("npuc_opt", nargs="?", default=os.environ.get(
        "NPUC_OPT", os.path.join(repo, "build/bin/npuc-opt")))
    ap.add_argument("dir", nargs="?", default=os.path.join(
        repo, "..", "shared/conformance/full/ascendnpu-ir"))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--min", type=float, default=None)
    ap.add_argument("-v", action="store_true",
                    help="print every file, not only those with figures")
    args = ap.parse_args()
    cache, work = {}, []
    for path in files_of(args.dir):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        ro = run_options(text)
        if ro is None:
            continue
        opts, split = ro
        group = pass_group(args.npuc_opt, opts, cache)
        chunks = split_cases(text) if split else [(text, 1, 0)]
        rel = os.path.relpath(path, args.dir)
        run_opts = opts if group != "no-pass-impl" else []
        for chunk, first, _ in chunks:
            work.append((rel, group, run_opts, chunk, first))
    per_file, groups, total = {}, {}, {}
    with concurrent.futures.ThreadPoolExecutor(args.j) as ex:
        futs = [ex.submit(check_case, args.npuc_opt, o, c, f)
                for _, _, o, c, f in work]
        for (rel, group, _, _, _), fut in zip(work, futs):
            res = fut.result()
            if group == "no-pass-impl":
                res["at_line"] = res["ours_at_line"] = 0
            add(per_file.setdefault((rel, group), {}), res)
            add(groups.setdefault(group, {}), res)
            add(total, res)
    for (rel, group), t in sorted(per_file.items()):
        if args.v or t["expected"] or group != "no-pass-impl":
            print(row(f"{rel} [{group}]", t))
    print()
    for group in ("verifier", "pass", "no-pass-impl"):
        if group in groups:
            print(row(f"TOTAL {group}", groups[group]))
    print(row(f"TOTAL ({len(per_file)} files)", total))
    v = groups.get("verifier", {})
    if args.min is not None and v.get("ours"):
        got = 100.0 * v["ours_at_line"] / v["ours"]
        if got < args.min:
            print(f"diagnostics: ours {got:.1f}% < {args.min}%")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
