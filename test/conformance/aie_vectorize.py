#!/usr/bin/env python3
"""Conformance of aie-vectorize against mlir-aie's own tests.

Every file of ../shared/conformance/mlir-aie/ is run, in place, with each
of its RUN lines: `aie-opt` becomes npuc-opt, and aie-opt's global flags
`-aieml=...` and `-unaligned-loads-check=...` become options of the
--aie-vectorize pass (npuc has no global pass flags). The pipe into
FileCheck (with its -check-prefix) is kept and runs under pipefail, as lit
runs it. A file passes when all its RUN lines pass. Files marked
`// XFAIL: *` count as expected failures. A file whose RUN lines have no
FileCheck but which has CHECK lines is checked against them anyway (its
line says so); with neither, RUN lines only have to exit 0 ("no-check").
CHECK lines that still show the old `aievec.srs %x {shift = N : i8}`
syntax are read as today's `aievec.srs %x, %shift : acc, i32, out`.

Output: one line per file (pass / FAIL / XFAIL / XPASS / no-check /
differs), then the totals. aie_vectorize_expected.txt lists the files that
must pass, and as `differs NAME` the known anchor miscompiles whose CHECK
lines must not match (reported "differs" when they do not, "FAIL" when
they do). `differs-placement NAME` also requires the output to hold the
same aievec ops as the CHECK lines (names of SSA values aside), only some
placed elsewhere. With --strict the exit code is 1 when a listed file
breaks.

usage: aie_vectorize.py [--strict] [-v] [NPUC_OPT [DIR]]
"""
import argparse
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FILECHECK = "/usr/lib/llvm-22/bin/FileCheck"
GLOBAL_FLAGS = ("aieml", "unaligned-loads-check")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("npuc_opt", nargs="?", default=os.environ.get(
        "NPUC_OPT", os.path.join(ROOT, "build", "bin", "npuc-opt")))
    ap.add_argument("dir", nargs="?", default=os.path.join(
        ROOT, "..", "shared", "conformance", "mlir-aie"))
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("-v", action="store_true",
                    help="print the first FileCheck error of each failure")
    args = ap.parse_args()
    files = sorted(glob.glob(os.path.join(args.dir, "*.mlir")))
    if not files:
        print("no inputs under %s" % args.dir)
        return 1
    expected, differs, placement = read_expected(
        os.path.join(HERE, "aie_vectorize_expected.txt"))
    counts = {}
    broken = []
    for path in files:
        name = os.path.basename(path)
        status, detail, note = run_file(args.npuc_opt, path)
        if name in differs or name in placement:
            status = "differs" if status == "FAIL" else "FAIL"
            if status == "differs" and name in placement:
                same, why = same_aievec_ops(args.npuc_opt, path)
                status = "differs" if same else "FAIL"
                note += ("; " if note else "") + why
                detail = detail if same else why
            if status == "FAIL":
                broken.append(name)
        counts[status] = counts.get(status, 0) + 1
        print("%-8s %s%s" % (status, name, "  (%s)" % note if note else ""))
        if args.v and detail and status in ("FAIL", "XFAIL"):
            print("         " + detail)
        if name in expected and status != "pass":
            broken.append(name)
    print("%d files: %s" % (len(files), ", ".join(
        "%d %s" % (n, s) for s, n in sorted(counts.items()))))
    if broken:
        print("expected to pass but did not: " + " ".join(broken))
    return 1 if args.strict and broken else 0


def read_expected(path):
    names, differs, placement = set(), set(), set()
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.split("#")[0].strip()
                if line.startswith("differs-placement "):
                    placement.add(line.split()[1])
                elif line.startswith("differs "):
                    differs.add(line.split()[1])
                elif line:
                    names.add(line)
    return names, differs, placement


def run_lines(text):
    """RUN lines, with backslash continuations joined."""
    out, cur = [], None
    for line in text.splitlines():
        m = re.match(r"^\s*//\s*RUN:\s?(.*)$", line)
        if not m:
            continue
        part = m.group(1).rstrip()
        cur = part if cur is None else cur + " " + part
        if cur.endswith("\\"):
            cur = cur[:-1]
            continue
        out.append(cur)
        cur = None
    return out


def translate(run, npuc_opt, path):
    """The RUN line as a bash command for npuc-opt."""
    stages = run.split("|")
    tokens = shlex.split(stages[0])
    if not tokens or tokens[0] != "aie-opt":
        return None
    extra = []
    kept = []
    for tok in tokens[1:]:
        m = re.match(r"^--?(%s)=(.*)$" % "|".join(GLOBAL_FLAGS), tok)
        if m:
            extra.append("%s=%s" % (m.group(1), m.group(2)))
        else:
            kept.append(tok)
    if extra:
        for i, tok in enumerate(kept):
            m = re.match(r"^--?aie-vectorize(?:=(.*))?$", tok)
            if m:
                opts = (m.group(1) or "").strip("{}").split()
                kept[i] = "--aie-vectorize=" + " ".join(opts + extra)
                break
    redirect = ""
    if kept and kept[-1] == "2>&1":
        kept.pop()
        redirect = " 2>&1"
    cmd = " ".join(shlex.quote(t.replace("%s", path)) for t in
                   [npuc_opt] + kept) + redirect
    for stage in stages[1:]:
        stage = stage.strip().replace("%s", shlex.quote(path))
        if stage.startswith("FileCheck"):
            stage = FILECHECK + stage[len("FileCheck"):]
        cmd += " | " + stage
    return cmd


CHECK_LINE = re.compile(r"^\s*//\s*CHECK(?:-[A-Z]+)?:", re.M)
OLD_SRS = re.compile(
    r"aievec\.srs (%[\w.]+) \{shift = \d+ : i8\} : (vector<[^>]*>), "
    r"(vector<[^>]*>)")


def current_syntax(text):
    """CHECK lines with the old srs form read as today's."""
    return OLD_SRS.sub(r"aievec.srs \1, %{{[a-z0-9_]+}} : \2, i32, \3", text)


def run_file(npuc_opt, path):
    """(status, first error, note about how the file was checked)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    xfail = re.search(r"^\s*//\s*XFAIL:\s*\*", text, re.M) is not None
    runs = run_lines(text)
    checked = any("FileCheck" in r for r in runs)
    note = ""
    check_file = None
    if not checked and CHECK_LINE.search(text):
        # Its CHECK lines say what the anchor prints: check them anyway.
        checked, note = True, "CHECK lines checked; its RUN line has none"
        check_file = tempfile.NamedTemporaryFile(
            "w", suffix=".mlir", delete=False)
        check_file.write(current_syntax(text))
        check_file.close()
    detail = ""
    ok = bool(runs)
    for run in runs:
        cmd = translate(run, npuc_opt, path)
        if cmd is None:
            ok, detail = False, "cannot translate: " + run
            break
        if check_file:
            cmd += " | %s %s" % (FILECHECK, shlex.quote(check_file.name))
        p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd],
                           capture_output=True, text=True)
        if p.returncode != 0:
            ok = False
            errs = [l for l in p.stderr.splitlines() if "error:" in l]
            detail = errs[0] if errs else p.stderr.strip()[:200]
            break
    if check_file:
        os.unlink(check_file.name)
    if xfail:
        return ("XPASS" if ok else "XFAIL"), detail, note
    if not checked:
        return ("no-check" if ok else "FAIL"), detail, note
    return ("pass" if ok else "FAIL"), detail, note


def aievec_ops(text):
    """The aievec op lines of `text` as a sorted list, SSA value names
    (but function arguments and induction variables) replaced by %_. A
    loop-carried value (iter_args) is an SSA value: aie-vectorize carries
    the output vector of a reduction loop where mlir-aie hoists its read."""
    carried = set(re.findall(r"(%arg\d+)\s*=", " ".join(
        re.findall(r"iter_args\(([^)]*)\)", text))))
    ops = []
    for line in text.splitlines():
        for name in carried:
            line = re.sub(re.escape(name) + r"\b", "%_", line)
        line = re.sub(r"^\s*//\s*CHECK(?:-[A-Z]+)?:", "", line)
        if "aievec" not in line or line.lstrip().startswith("//"):
            continue
        line = re.sub(r"%(?!arg\d)[\w.]+", "%_", line)
        line = re.sub(r"%\{\{[^}]*\}\}", "%_", line)
        ops.append(" ".join(line.split()))
    return sorted(ops)


def same_aievec_ops(npuc_opt, path):
    """Does the first RUN line's output hold the aievec ops of the CHECK
    lines, as a multiset?"""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    cmd = translate(run_lines(text)[0].split("|")[0], npuc_opt, path)
    p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True)
    want = aievec_ops("\n".join(
        l for l in current_syntax(text).splitlines() if CHECK_LINE.match(l)))
    got = aievec_ops(p.stdout)
    if want == got:
        return True, "same %d aievec ops, placed differently" % len(want)
    missing = [o for o in want if o not in got]
    extra = [o for o in got if o not in want]
    return False, "aievec ops differ: %d missing (%s), %d extra (%s)" % (
        len(missing), missing[:1], len(extra), extra[:1])


if __name__ == "__main__":
    sys.exit(main())
