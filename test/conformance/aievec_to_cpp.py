#!/usr/bin/env python3
"""Conformance of npuc-translate --aievec-to-cpp on mlir-aie's translation
tests (test/Targets/AIEVecToCpp at the last commit with aie-vectorize, in
../shared/conformance/full/mlir-aie, read in place): each RUN line runs with
npuc-translate for aie-translate, npuc-opt for aie-opt and FileCheck-22 for
FileCheck. One verdict per file (PASS / FAIL with the first error line),
then the count.

usage: aievec_to_cpp.py [--strict] [-v] [BUILD_DIR [TEST_DIR]]
  --strict  exit 1 unless every file passes
  -v        print the failing command's stderr
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TESTS = os.path.join(ROOT, "..", "shared", "conformance", "full", "mlir-aie",
                     "last-vectorize-e659071c", "test", "Targets", "AIEVecToCpp")


def run_lines(path):
    """The file's RUN commands, continuation lines joined."""
    cmds, cur = [], ""
    for line in open(path):
        m = re.search(r"RUN:\s?(.*)$", line)
        if not m:
            continue
        part = m.group(1).rstrip()
        if part.endswith("\\"):
            cur += part[:-1] + " "
            continue
        cmds.append(cur + part)
        cur = ""
    return cmds


def substitute(cmd, build, path, tmp):
    tools = {"aie-translate": os.path.join(build, "bin", "npuc-translate"),
             "aie-opt": os.path.join(build, "bin", "npuc-opt"),
             "FileCheck": "FileCheck-22"}
    for name, tool in tools.items():
        cmd = re.sub(r"(?<![\w-])%s(?![\w-])" % re.escape(name), tool, cmd)
    return cmd.replace("%s", path).replace("%t", os.path.join(tmp, "out"))


def main(argv):
    strict = "--strict" in argv
    verbose = "-v" in argv
    args = [a for a in argv if a not in ("--strict", "-v")]
    build = os.path.abspath(args[0] if args else os.path.join(ROOT, "build"))
    tdir = args[1] if len(args) > 1 else TESTS
    passed = total = 0
    for fname in sorted(os.listdir(tdir)):
        if not fname.endswith(".mlir"):
            continue
        path = os.path.join(tdir, fname)
        total += 1
        verdict, detail = "PASS", ""
        with tempfile.TemporaryDirectory() as tmp:
            for cmd in run_lines(path):
                # RUN lines without an input read an empty stdin, as lit's.
                p = subprocess.run(["bash", "-o", "pipefail", "-c",
                                    substitute(cmd, build, path, tmp)],
                                   capture_output=True, text=True,
                                   stdin=subprocess.DEVNULL, timeout=300)
                if p.returncode != 0:
                    verdict = "FAIL"
                    lines = [l for l in p.stderr.splitlines() if "error" in l]
                    detail = (lines or p.stderr.splitlines() or [""])[0]
                    if verbose:
                        print(p.stderr)
                    break
        passed += verdict == "PASS"
        print("%-5s %-32s %s" % (verdict, fname, detail[:160]))
    print("\n%d of %d AIEVecToCpp files pass" % (passed, total))
    return 1 if strict and passed != total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
