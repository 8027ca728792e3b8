#!/usr/bin/env bash
# tx8-group-pattern cost: the pass (default pattern set) on a tx8be graph of
# N ops (default 10000) against npuc-opt's parse+print of the same file, in
# the same run. The graph repeats a 10-op block with branches (a residual
# read three ops later, a value read twice): gemm, bias add, relu, exp, mul
# by the block's input, sub, tanh, gemm, log, add; the default set groups
# most of each block, so the DFS, the cycle search and the SPM estimate
# all run. Target: well under 150 us per op (issue 17). It measures; it
# does not gate.
#
# usage: bench/tx8_group_pattern.sh [--ops N] [--runs R] [--keep DIR]
# env:   NPUC_OPT (default build/bin/npuc-opt)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
npuc_opt=${NPUC_OPT:-$root/build/bin/npuc-opt}
ops=10000 runs=5 keep=

while (($#)); do
  case $1 in
    --ops) ops=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done
[[ -x $npuc_opt ]] || { echo "not executable: $npuc_opt (build it or set NPUC_OPT)" >&2; exit 2; }

if [[ -n $keep ]]; then work=$keep; mkdir -p "$work"
else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
graph=$work/graph.mlir

awk -v n="$ops" 'BEGIN {
  T = "tensor<64x64xf16>"; V = "tensor<64xf16>"
  print "func.func @bench(%x: " T ", %w: " T ", %b: " V ") -> " T " {"
  print "  %none = tx8be.none : none"
  cur = "%x"; emitted = 1; k = 0
  while (emitted < n) {
    p = "%b" k "_"
    l[0] = p "g = tx8be.gemm " cur ", %w, %none : " T ", " T ", none -> " T
    l[1] = p "a = tx8be.add " p "g, %b : " T ", " V " -> " T
    l[2] = p "r = tx8be.relu " p "a : " T " -> " T
    l[3] = p "e = tx8be.exp " p "r : " T " -> " T
    l[4] = p "m = tx8be.mul " p "e, " cur " : " T ", " T " -> " T
    l[5] = p "s = tx8be.sub " p "m, " p "r : " T ", " T " -> " T
    l[6] = p "t = tx8be.tanh " p "s : " T " -> " T
    l[7] = p "h = tx8be.gemm " p "t, %w, %none : " T ", " T ", none -> " T
    l[8] = p "l = tx8be.log " p "h : " T " -> " T
    l[9] = p "c = tx8be.add " p "l, " p "m : " T ", " T " -> " T
    for (j = 0; j < 10 && emitted < n; j++) { print "  " l[j]; emitted++; last = substr(l[j], 1, index(l[j], " ") - 1) }
    cur = last; k++
  }
  print "  return " cur " : " T
  print "}"
}' > "$graph"

"$npuc_opt" "$graph" --tx8-group-pattern -o "$work/out.mlir"
groups=$(grep -c 'tx8be.group(' "$work/out.mlir" || true)
((groups > 0)) || { echo "the pass grouped nothing in the benchmark graph" >&2; exit 1; }

now() { date +%s.%N; }
# The time --mlir-timing gives the pass (it includes MLIR's verifier).
pass_time() {
  "$npuc_opt" "$graph" --tx8-group-pattern --mlir-timing -o "$work/timed.mlir" 2>&1 |
    awk '$NF == "tx8-group-pattern" { print $1; exit }'
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "inf" || b < a) ? b : a }'; }
best_parse=inf best_pass=inf
for ((r = 0; r < runs; r++)); do
  t0=$(now)
  "$npuc_opt" "$graph" -o "$work/printed.mlir"
  t1=$(now)
  best_parse=$(min "$best_parse" "$(awk -v x="$t0" -v y="$t1" 'BEGIN { print y - x }')")
  best_pass=$(min "$best_pass" "$(pass_time)")
done

printf 'graph: %d ops, %d groups made, best of %d\n' "$ops" "$groups" "$runs"
printf 'npuc-opt parse+print   %8.4fs  %7.2f us/op\n' "$best_parse" "$(awk -v t="$best_parse" -v n="$ops" 'BEGIN { print t / n * 1e6 }')"
printf 'tx8-group-pattern      %8.4fs  %7.2f us/op  (target < 150 us/op)\n' "$best_pass" "$(awk -v t="$best_pass" -v n="$ops" 'BEGIN { print t / n * 1e6 }')"
