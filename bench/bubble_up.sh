#!/usr/bin/env bash
# hivm-bubble-up-extract-slice cost: one marked slice at the end of a chain
# of N elementwise ops (default 5000), which it bubbles through every op to
# the function's arguments, against npuc-opt's parse+print of the same file.
# Every op of the chain is rewritten once (shrunk in place, with a new slice
# of its other operand and a new empty init), so the pass is linear when its
# time per op stays flat as N grows; the script prints that too.
#
# usage: bench/bubble_up.sh [--ops N] [--runs R] [--keep DIR]
# env:   NPUC_OPT (default build/bin/npuc-opt)
# Prints the best-of-R times, `ratio pass/parse+print` (target < 0.10; the
# pass time is what --mlir-timing reports, which includes the verifier MLIR
# runs after every pass) and the pass time per op at N/4, N/2, N and 2N.
# It measures; it does not gate.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
npuc_opt=${NPUC_OPT:-$root/build/bin/npuc-opt}
ops=5000 runs=5 keep=
max_ratio=0.10

while (($#)); do
  case $1 in
    --ops) ops=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done
[[ -x $npuc_opt ]] || { echo "not executable: $npuc_opt (build it or set NPUC_OPT)" >&2; exit 2; }

if [[ -n $keep ]]; then work=$keep; mkdir -p "$work"
else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi

# shellcheck source=bench/chain-lib.sh
source "$root/bench/chain-lib.sh"

chain=$work/chain.mlir
gen_chain "$ops" "$chain"
"$npuc_opt" "$chain" --hivm-bubble-up-extract-slice -o "$work/out.mlir"
# Bubbled through: every op is on 32 rows, the slice sits on an argument.
grep -q "hivm.hir.vmax ins(.*tensor<32x64xf32>" "$work/out.mlir" &&
  grep -q "tensor.extract_slice %arg1\[%arg3, 0\] \[32, 64\]" "$work/out.mlir" ||
  { echo "the pass did not bubble the benchmark chain" >&2; exit 1; }

parse=$(best_parse "$chain")
pass=$(best_pass "$chain" hivm-bubble-up-extract-slice)

printf 'chain: %d ops (%d bytes), best of %d\n' "$ops" "$(wc -c < "$chain")" "$runs"
printf 'npuc-opt parse+print          %8.4fs\n' "$parse"
printf 'hivm-bubble-up-extract-slice  %8.4fs  (--mlir-timing: with the verifier run after it)\n' "$pass"
awk -v p="$pass" -v t="$parse" -v m="$max_ratio" 'BEGIN {
  r = p / t
  printf "ratio pass/parse+print        %8.4f   target < %s  %s\n", r, m, (r < m ? "PASS" : "MISS")
}'
echo "pass time per op (linear when flat):"
for n in $((ops / 4)) $((ops / 2)) "$ops" $((ops * 2)); do
  f=$work/chain$n.mlir
  gen_chain "$n" "$f"
  t=$(best_pass "$f" hivm-bubble-up-extract-slice)
  awk -v n="$n" -v t="$t" 'BEGIN { printf "  %7d ops  %8.4fs  %6.2f us/op\n", n, t, t / n * 1e6 }'
done
