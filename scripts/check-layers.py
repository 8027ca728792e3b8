#!/usr/bin/env python3
"""Checks that npuc's layers depend downward only (docs/architecture.md).

  check-layers.py SOURCE_DIR BUILD_DIR

From the sources: no `#include "../..."`, and no MLIR or compiler header in
a runtime (lib/Runtime, lib/Common). From the object files of BUILD_DIR
(nm): every call from one layer goes to a function defined in the same
layer or one below it, never above; nothing in the compiler calls into a
runtime library. Prints each violation and exits 1 if there is any.
"""
import os
import re
import subprocess
import sys

# Lower numbers are lower layers. A layer may call its own and any lower
# layer's functions. Syntax sits below IR: IR parses and prints through it.
LAYERS = [
    ("lib/Support", 0, "Support"),
    ("lib/Common", 0, "Common"),
    ("lib/Dialect", 1, "Dialect"),
    ("lib/Syntax", 2, "Syntax"),
    ("lib/Onnx", 2, "ONNX reader and importer"),
    ("lib/IR", 3, "IR"),
    ("lib/Pass", 4, "Pass"),
    ("lib/TX8", 5, "TX8 op model"),
    ("lib/Transforms", 6, "Transforms"),
    ("lib/Target", 7, "Target"),
    ("lib/Run", 8, "Run"),
    ("tools", 9, "tools"),
    ("lib/Runtime", 100, "Runtime"),  # called only by itself
]

# Runtimes build without MLIR and the compiler: they may include only these.
RUNTIME_HEADERS = re.compile(
    r'npuc/(HivmRuntime|Tx8Runtime|Aie1Runtime|KernelPrelude|'
    r'Aie1KernelPrelude|Tx8Layout|Tx8DdrCost|Tx8NocCost|Tx8Program|Tx8Ops|Dtype|HivmElementwise|Common|'
    r'Checked)[\w.]*"')


def layer_of(path):
    for prefix, rank, name in LAYERS:
        if path == prefix or path.startswith(prefix + "/"):
            return rank, name
    return None


def check_includes(src, errors):
    for top in ("lib", "tools", "include"):
        for dirpath, _, files in os.walk(os.path.join(src, top)):
            for f in files:
                if not f.endswith((".c", ".h", ".inc", ".def")):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, src)
                runtime = rel.startswith(("lib/Runtime/", "lib/Common/"))
                with open(path, errors="replace") as fh:
                    for n, line in enumerate(fh, 1):
                        m = re.match(r'\s*#\s*include\s+([<"].*[>"])', line)
                        if not m:
                            continue
                        inc = m.group(1)
                        if inc.startswith('"../'):
                            errors.append(f"{rel}:{n}: includes {inc} (no \"../\": "
                                          "use a header of include/npuc or one beside it)")
                        if runtime and (inc.startswith("<mlir") or
                                        inc.startswith("<llvm") or
                                        (inc.startswith('"npuc/') and
                                         not RUNTIME_HEADERS.match(inc[1:]))):
                            errors.append(f"{rel}:{n}: a runtime includes {inc}")


def objects(build):
    for dirpath, _, files in os.walk(build):
        if "CMakeFiles" not in dirpath:
            continue
        for f in files:
            if f.endswith(".c.o"):
                yield os.path.join(dirpath, f)


def source_of(obj, src):
    """build/lib/CMakeFiles/npuc.dir/Transforms/X.c.o -> lib/Transforms/X.c"""
    m = re.search(r"CMakeFiles/[^/]+\.dir/(.*)\.o$", obj)
    if not m:
        return None
    rel = m.group(1)
    head = os.path.relpath(os.path.dirname(obj.split("/CMakeFiles/")[0] + "/x"),
                           BUILD)
    cand = os.path.normpath(os.path.join(head, rel))
    if os.path.exists(os.path.join(src, cand)):
        return cand
    return None


def check_calls(src, build, errors):
    defined = {}  # symbol -> source path
    used = []     # (source path, symbol)
    for obj in objects(build):
        rel = source_of(obj, src)
        if rel is None or layer_of(rel) is None:
            continue  # tests, fuzzers, generated tables
        out = subprocess.run(["nm", obj], capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDRB":
                defined.setdefault(parts[2], rel)
            elif len(parts) == 2 and parts[0] == "U":
                used.append((rel, parts[1]))
    seen = set()
    for user, sym in used:
        definer = defined.get(sym)
        if definer is None:
            continue  # libc, MLIR
        (ru, nu), (rd, nd) = layer_of(user), layer_of(definer)
        upward = rd > ru if rd != 100 else ru != 100
        if upward and (user, sym) not in seen:
            seen.add((user, sym))
            errors.append(f"{user}: calls {sym}, defined in {definer} "
                          f"({nd} is above {nu})" if rd != 100 else
                          f"{user}: calls {sym}, defined in the runtime "
                          f"{definer} (the compiler must not link a runtime)")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    SRC, BUILD = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    errs = []
    check_includes(SRC, errs)
    check_calls(SRC, BUILD, errs)
    for e in errs:
        print(e)
    print(f"check-layers: {len(errs)} violation(s)")
    sys.exit(1 if errs else 0)
