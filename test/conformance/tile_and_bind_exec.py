#!/usr/bin/env python3
"""Execution check of hivm-bind-sub-block on the AscendNPU-IR cases in
tile-and-bind-splits/: every case the pass tiles must compute, with two
sub-blocks, exactly what the original computes with one.

For each case: `npuc-opt --hivm-bind-sub-block --hivm-map-for-to-sub-block`
(the options of the anchor's RUN line: none; the pass leaves the sub-block
loop, as bishengir's does, and the second pass binds it, as npuc-compile's
pipeline does: the C model must not run both iterations on each sub-block). A case is *tiled* when the output holds ops the pass halved
({tiled_op}; a kernel whose halves are equal, e.g. constants scattered to
absolute offsets, need not read the sub-block index) and guards nothing to sub-block 0 (no `limit_sub_block_id0`); *fallback*
when it guards (the 1:1 form, also checked: two sub-blocks of it must equal
one of the original); else *untouched* (no AIV function of a mix kernel).
The function run is the first AIV function of a mix kernel, entry or not:
npuc-run emits the function its spec names alone (`kernel:`), so the cube
half's ops (mmadL1, fixpipe, nd2nz) need not be supported. Both forms are
compiled for the C model as they are (npuc-run runs no pipeline; the spec
comes from npuc-compile --kernel=NAME with
--enable-auto-bind-sub-block=false); a case the C model cannot compile is
*unsupported*, with the first error's op. The others run
with `npuc-run --compare ORIGINAL TILED` on random inputs made from the
kernel's argument list (as cmodel.py does: static shapes, dynamic sizes
2^21 elements, integer scalars 1, float scalars 0.5; then, for a kernel
with integer scalars, again with those 3: more blocks of a grid, offsets
that are not 0; a case is equal when both rounds are), the original with one
sub-block and the tiled form with two (spec `sub_blocks: [1, 2]`), under
NPUC_CHECK_BOUNDS=1; outputs must be identical bit for bit. When the
original itself reads past those inputs, the dynamic sizes grow by the
power of two the reported overhang needs, up to 8x; beyond, or on any
other error of the original, the case is unsupported with that error. When the
original writes none of its buffers (it only computes tensors, which are
passed by value, or its stores are empty), equal outputs prove nothing:
such a case is counted as "no output to compare".

Prints the counts (tiled / fallback / untouched; compared, equal, differ,
unsupported with reasons, errors) and lists every case that is not equal.
Exit 1 when a compared case differs or a run fails, 0 otherwise.

usage: tile_and_bind_exec.py [-v] [BUILD_DIR [CASES_DIR]]
"""
import collections
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cmodel import spec_from_description, split_cases  # noqa: E402

TIMEOUT = 300


def main(argv):
    verbose = "-v" in argv
    rest = [a for a in argv if a != "-v"]
    build = os.path.abspath(rest[0] if rest else os.path.join(ROOT, "build"))
    cases_dir = rest[1] if len(rest) > 1 else os.path.join(
        ROOT, "..", "shared", "conformance", "ascendnpu-ir", "tile-and-bind-splits")
    if not os.path.isdir(cases_dir):
        print("tile-and-bind execution: %s not found, nothing to run" % cases_dir)
        return 0
    counts, unsupported, listed = collections.Counter(), collections.Counter(), []
    files = sorted((f for f in os.listdir(cases_dir) if f.endswith(".mlir")),
                   key=lambda f: [int(t) if t.isdigit() else t
                                  for t in re.split(r"(\d+)", f)])
    for name in files:
        for first_line, text in split_cases(os.path.join(cases_dir, name)):
            if not text.strip():
                continue
            counts["cases"] += 1
            where = "%s:%d" % (name, first_line)
            with tempfile.TemporaryDirectory() as work:
                form, outcome, detail = check_case(build, text, work)
            counts[form] += 1
            counts[(form, outcome)] += 1
            if outcome == "unsupported":
                unsupported[detail] += 1
            if outcome not in ("equal", "untouched", "unsupported") or verbose:
                listed.append("%s  %s %s%s" % (where, form, outcome,
                                               ": " + detail if detail else ""))
    report(counts, unsupported, listed)
    bad = sum(counts[(f, o)] for f in ("tiled", "fallback")
              for o in ("differ", "error"))
    return 1 if bad else 0


def report(counts, unsupported, listed):
    print("tile-and-bind execution: %d cases: %d tiled, %d fallback (1:1), "
          "%d untouched, %d pass errors" % (
              counts["cases"], counts["tiled"], counts["fallback"],
              counts["untouched"], counts["pass-error"]))
    for form in ("tiled", "fallback"):
        compared = counts[(form, "equal")] + counts[(form, "differ")]
        print("  %-8s compared %d: equal %d, differ %d; no output to compare %d; "
              "unsupported by the C model %d; run errors %d" % (
                  form, compared, counts[(form, "equal")], counts[(form, "differ")],
                  counts[(form, "no-output")], counts[(form, "unsupported")],
                  counts[(form, "error")]))
    for why, n in unsupported.most_common():
        print("  unsupported: %-40s %d case%s" % (why, n, "" if n == 1 else "s"))
    for line in listed:
        print("  " + line)


def code_of(text):
    """The text without its comment lines (the anchor's CHECK lines)."""
    return "\n".join(ln for ln in text.splitlines()
                     if not ln.lstrip().startswith("//"))


def check_case(build, text, work):
    """Returns (form, outcome, detail)."""
    orig = os.path.join(work, "orig.mlir")
    tiled = os.path.join(work, "tiled.mlir")
    with open(orig, "w") as f:
        f.write(text)
    r = run([tool(build, "npuc-opt"), orig, "--hivm-bind-sub-block",
             "--hivm-map-for-to-sub-block", "-o", tiled])
    if r.returncode != 0:
        return "pass-error", "error", first_error(r.stderr)
    with open(tiled) as f:
        out = f.read()
    if "limit_sub_block_id0" in out:
        form = "fallback"
    elif "tiled_op" in out and "tiled_op" not in code_of(text):
        form = "tiled"
    else:
        return "untouched", "untouched", ""
    kernel = aiv_function(out)
    if kernel is None:
        return form, "unsupported", "no AIV function"
    spec, why = make_spec(build, orig, kernel, work)
    if spec is None:
        return form, "unsupported", why
    # Integer scalars 1 (one logical block of a grid), then, if the kernel
    # takes any, 3 (more blocks, offsets that are not 0): a case is equal
    # only when both rounds are.
    with open(spec) as f:
        base = f.read()
    for value in INT_SCALARS:
        text = re.sub(r"(\{scalar: (?:i\d+|index), value: )1\}",
                      lambda m: m.group(1) + value + "}", base)
        if value != INT_SCALARS[0] and text == base:
            break
        with open(spec, "w") as f:
            f.write(text)
        if os.path.exists(spec + ".base"):
            os.remove(spec + ".base")
        outcome, detail = run_round(build, orig, tiled, spec, work)
        if outcome != "equal":
            if value != INT_SCALARS[0]:
                detail = "integer scalars %s: %s" % (value, detail)
            return form, outcome, detail
    return form, "equal", ""


INT_SCALARS = ("1", "3")


def run_round(build, orig, tiled, spec, work):
    """One comparison on the spec's inputs: (outcome, detail)."""
    r, scale = compare(build, orig, tiled, spec, work), 1
    # The original itself reads past the inputs: make the dynamic sizes
    # larger, as much as the reported overhang asks for, up to MAX_SCALE
    # times the first size. Other errors of the original are final.
    while r is not None and r.returncode != 0 and "orig.mlir" in first_error(r.stderr):
        grow = growth_needed(first_error(r.stderr))
        if grow is None or scale * grow > MAX_SCALE:
            return "unsupported", "the original fails on the inputs made: " + \
                strip_path(first_error(r.stderr))
        scale *= grow
        scale_spec(spec, scale)
        r = compare(build, orig, tiled, spec, work)
    if r is None:
        return "error", "timed out after %ds" % TIMEOUT
    if r.returncode == 0 and "outputs identical" in r.stdout:
        if not writes_an_output(os.path.join(work, "run")):
            return "no-output", "the original writes none of its buffers"
        return "equal", ""
    if r.returncode == 1 and "differ" in r.stdout:
        return "differ", first_difference(r.stdout)
    message = first_error(r.stderr)
    m = re.search(r"error: unsupported op (\S+)", message)
    if m:
        return "unsupported", "tiled form: unsupported op " + m.group(1)
    return "error", message


def compare(build, orig, tiled, spec, work):
    """npuc-run --compare under NPUC_CHECK_BOUNDS=1; None on timeout."""
    env = dict(os.environ, NPUC_CHECK_BOUNDS="1")
    try:
        return run([tool(build, "npuc-run"), "--compare", orig, tiled, "--spec",
                    spec, "-o", os.path.join(work, "run")], env=env,
                   timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None


def writes_an_output(run_dir):
    """True when some buffer the original left (run/a) differs from its
    input (run/in): else equal outputs prove nothing (a function that only
    computes tensors, which the C model passes by value, writes nothing)."""
    for name in os.listdir(os.path.join(run_dir, "in")):
        with open(os.path.join(run_dir, "in", name), "rb") as f:
            before = f.read()
        with open(os.path.join(run_dir, "a", name), "rb") as f:
            if f.read() != before:
                return True
    return False


MAX_SCALE = 8
DYNAMIC_SIZES = (1 << 21, 1 << 23)  # what cmodel.py gives ? dims (i8: 2^23)


def growth_needed(message):
    """How many times larger the dynamic sizes must be for the overhang an
    error reports ("view reaches element N of a buffer of M elements", or
    "index N out of bounds for dimension D of size M"), as a power of two;
    None for any other error."""
    m = (re.search(r"reaches element (\d+) of a buffer of (\d+) elements", message)
         or re.search(r"index (\d+) out of bounds for dimension \d+ of size (\d+)",
                      message))
    if not m:
        return None
    need, have, grow = int(m.group(1)) + 1, int(m.group(2)), 2
    if have == 0:
        return None  # a view starting past its storage: no size to scale
    while have * grow < need:
        grow *= 2
    return grow


def scale_spec(spec, scale):
    """Writes the spec with every dynamic size `scale` times the first one
    (the base spec is kept beside it)."""
    base = spec + ".base"
    if not os.path.exists(base):
        os.rename(spec, base)
    with open(base) as f:
        text = f.read()
    sizes = "|".join(str(n) for n in DYNAMIC_SIZES)
    text = re.sub(r"\b(%s)\b" % sizes, lambda m: str(int(m.group(1)) * scale), text)
    with open(spec, "w") as f:
        f.write(text)


def strip_path(message):
    """An error without the temporary directory of the case."""
    return re.sub(r"\S*/orig\.mlir", "orig.mlir", message)


def make_spec(build, orig, kernel, work):
    """A spec for `kernel` of the original, or (None, why it cannot run)."""
    out = os.path.join(work, "orig-c")
    r = run([tool(build, "npuc-compile"), "--target=ascend-cmodel",
             "--enable-auto-bind-sub-block=false", "--kernel=" + kernel,
             "-o", out, orig])
    if r.returncode != 0:
        message = first_error(r.stderr)
        m = re.search(r"error: unsupported op (\S+)", message)
        if m:
            return None, "unsupported op " + m.group(1)
        if re.search(r"error: argument \d+ of .* has a type", message):
            return None, "argument type"
        return None, "does not compile: " + message
    r = run(["make", "-s", "-C", out])
    if r.returncode != 0:
        return None, "generated C does not build"
    desc = run([os.path.join(out, "kernel"), "--describe"]).stdout
    chosen = describe_kernel(desc, kernel)
    if not chosen:
        return None, "kernel %s not in the emitted module" % kernel
    spec = spec_from_description(chosen).replace(
        "seed: 1\n", "seed: 1\nsub_blocks: [1, 2]\n")
    path = os.path.join(work, "spec.yaml")
    with open(path, "w") as f:
        f.write(spec)
    return path, ""


def describe_kernel(desc, kernel):
    """The --describe lines of one kernel."""
    lines, keep = [], False
    for line in desc.splitlines():
        if line.startswith("kernel "):
            keep = line.split()[1] == kernel
        if keep:
            lines.append(line)
    return "\n".join(lines)


def aiv_function(text):
    """The name of the first function of the vector half of a mix kernel
    (the functions hivm-bind-sub-block works on), entry or not: npuc-run
    runs the function its spec names alone."""
    for m in re.finditer(r"func\.func @([\w$.]+)\((.*)", text):
        header = m.group(2)
        if "hivm.part_of_mix" in header and "func_core_type<AIV>" in header:
            return m.group(1)
    return None


def first_difference(stdout):
    for line in stdout.splitlines():
        if "differ" in line:
            return line.strip()
    return "outputs differ"


def first_line(text):
    return (text.strip().splitlines() or ["(no message)"])[0]


def first_error(text):
    """The first error line (remarks come before it), else the first line."""
    for line in text.splitlines():
        if "error:" in line:
            return line.strip()
    return first_line(text)


def tool(build, name):
    return os.path.join(build, "bin", name)


def run(cmd, env=None, timeout=TIMEOUT):
    return subprocess.run(cmd, capture_output=True, text=True, env=env,
                          timeout=timeout)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
