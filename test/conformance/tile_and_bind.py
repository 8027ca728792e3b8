"""Conformance of hivm-bind-sub-block on the AscendNPU-IR cases.

Each tile-and-bind-splits/split_N.mlir holds one case: a RUN line naming
the pass and its options, the input, and CHECK lines showing bishengir-opt's
output. The decision compared is, per case:

  tiled     some store runs on half the data in each sub-block;
  fallback  no store is split, some store runs on sub-block 0 only (1:1);
  untouched the pass leaves the AIV function alone.

bishengir's decision is read from the CHECK lines: tiled when a positive
CHECK line shows `map_for_to_forall`, `{tiled_op}` or `to_be_bubbled_slice`;
fallback when one shows `limit_sub_block_id0`, or an `scf.if` after
`get_sub_block_idx`; otherwise untouched. A few cases check only the AIC side
(or show the split only through shapes); ANCHOR_BY_READING gives their
decision as read from the case's comments and output, with the reason.

npuc-opt's decision is read from its output: tiled when an op carries
{tiled_op} (npuc binds the loop right away, so `map_for_to_forall` is gone),
fallback when `limit_sub_block_id0` is there without it, else untouched.
npuc-opt runs with the RUN line's options, without -verify-diagnostics (the
remarks differ in wording; the decision is what is compared).

Each disagreement is printed with its reason from KNOWN_DIFFERENCES; one
that is not there is UNEXPLAINED and fails the script, as does agreement
below --min.
"""
import argparse
import os
import re
import subprocess
import sys

RUN_LINE = re.compile(r"//\s*RUN:\s*(.*)")
CHECK = re.compile(r"//\s*CHECK(-[A-Z]+)?:(.*)")
TILED = re.compile(r"map_for_to_forall|tiled_op|to_be_bubbled_slice")

# Cases whose CHECK lines do not show the AIV side's decision.
ANCHOR_BY_READING = {
    "split_3.mlir": ("tiled", "only a CHECK-NOT on one operand; the AIV "
                     "stores 16x16xf32 sums, split on dim 0 (the bias row "
                     "broadcast along it stays whole)"),
    "split_34.mlir": ("tiled", "checks the AIC fixpipe's ROW_SPLIT, which "
                      "bishengir emits when the AIV side is split on rows"),
    "split_35.mlir": ("tiled", "checks the AIC fixpipe's COLUMN_SPLIT; the "
                      "comment says the analyzer picks tiling_dim = 2"),
    "split_6.mlir": ("tiled", "the CHECK lines show the 144-row buffer "
                     "loaded and cast as 72 rows"),
    "split_28.mlir": ("tiled", "the CHECK lines show the 16x64 indirect "
                      "store as 8x64"),
    "split_29.mlir": ("tiled", "the CHECK lines show the 16x16 reduction "
                      "as 16x8, no limit_sub_block_id0"),
}


# Where npuc decides otherwise on purpose, by the AIV function's name: the
# reason (docs/passes/hivm-bind-sub-block.md, "Differences from
# bishengir"). A disagreement not listed here is reported as unexplained.
KNOWN_DIFFERENCES = {
    "unstructure_store": "a one-element window stored in an unrolled loop: "
    "npuc cuts the window on its source's half, bishengir falls back",
    "dynamic_shape_insert_slice": "tensor.insert_slice of a dynamically "
    "sized source: npuc bubbles through it with run-time clamps, "
    "bishengir falls back",
    "prepare_wy_repr_fwd_kernel_chunk64_mix_aiv": "reductions along an "
    "axis a broadcast joined with another (both turn strict mode off): npuc "
    "splits, bishengir falls back on this kernel",
}

AIV_FUNC = re.compile(r"func\.func @(\w+)\(.*hivm\.func_core_type<AIV>")


def known_difference(text):
    for m in AIV_FUNC.finditer(text):
        if m.group(1) in KNOWN_DIFFERENCES:
            return KNOWN_DIFFERENCES[m.group(1)]
    return None


def case_number(name):
    m = re.match(r"split_(\d+)\.mlir$", name)
    return int(m.group(1)) if m else None


def run_options(text):
    for line in text.splitlines():
        m = RUN_LINE.search(line)
        if not m:
            continue
        cmd = m.group(1).split("|")[0].split()
        opts = [t for t in cmd[1:] if t != "%s"]
        return [t.replace("'", "") for t in opts
                if t.lstrip("-") != "verify-diagnostics"]
    return ["--hivm-bind-sub-block"]


def anchor_decision(name, text):
    if name in ANCHOR_BY_READING:
        return ANCHOR_BY_READING[name][0]
    positive = [m.group(2) for m in map(CHECK.search, text.splitlines())
                if m and m.group(1) != "-NOT"]
    if any(TILED.search(p) for p in positive):
        return "tiled"
    seen_idx = False
    for p in positive:
        if "limit_sub_block_id0" in p:
            return "fallback"
        seen_idx = seen_idx or "get_sub_block_idx" in p
        if seen_idx and "scf.if" in p:
            return "fallback"
    return "untouched"


def npuc_decision(output):
    if "tiled_op" in output:
        return "tiled"
    if "limit_sub_block_id0" in output:
        return "fallback"
    return "untouched"


def remark(stderr):
    for line in stderr.splitlines():
        if "remark:" in line and "falling back" in line:
            return line.split("1:1 (stores on sub-block 0 only): ", 1)[-1]
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    return ""


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser()
    ap.add_argument("--min", type=float, default=90.0)
    ap.add_argument("npuc_opt", nargs="?", default=os.environ.get(
        "NPUC_OPT", os.path.join(root, "build/bin/npuc-opt")))
    ap.add_argument("dir", nargs="?", default=os.path.join(
        os.path.dirname(root), "shared/conformance/ascendnpu-ir",
        "tile-and-bind-splits"))
    args = ap.parse_args()
    if not os.access(args.npuc_opt, os.X_OK):
        print("tile_and_bind: not executable: %s" % args.npuc_opt,
              file=sys.stderr)
        return 2
    if not os.path.isdir(args.dir):
        print("tile_and_bind: no such directory: %s" % args.dir,
              file=sys.stderr)
        return 2
    names = sorted((n for n in os.listdir(args.dir)
                    if case_number(n) is not None), key=case_number)
    if not names:
        print("tile_and_bind: no split_N.mlir cases in %s" % args.dir,
              file=sys.stderr)
        return 2

    agree = unexplained = 0
    disagreements = []
    for name in names:
        path = os.path.join(args.dir, name)
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        p = subprocess.run([args.npuc_opt, path] + run_options(text),
                           capture_output=True, timeout=120)
        out = p.stdout.decode(errors="replace")
        err = p.stderr.decode(errors="replace")
        want = anchor_decision(name, text)
        got = npuc_decision(out) if p.returncode == 0 else "error"
        same = want == got
        agree += same
        why = remark(err)
        print("%-14s anchor %-9s npuc %-9s %s%s" % (
            name, want, got, "agree" if same else "DISAGREE",
            (" (" + why + ")") if why else ""))
        if not same:
            known = known_difference(text)
            unexplained += known is None
            disagreements.append("%s: bishengir %s, npuc %s: %s" % (
                name, want, got, known or
                "UNEXPLAINED" + ((" (npuc: " + why + ")") if why else "")))

    n = len(names)
    pct = 100.0 * agree / n
    if disagreements:
        print("disagreements:")
        for d in disagreements:
            print("  " + d)
    print("tile_and_bind conformance: decisions agree on %d of %d (%.1f%%, "
          "target %.0f%%); %d disagreement(s) unexplained" %
          (agree, n, pct, args.min, unexplained))
    return 0 if pct >= args.min and unexplained == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
