#!/usr/bin/env bash
# hivm-bind-sub-block cost: the AIV function of a mix kernel that loads two
# 64x64 inputs from GM, runs a chain of N elementwise ops (default 5000) and
# stores the result. The pass picks the row axis, cuts the store in halves
# and bubbles the slice through every op of the chain to the loads, then
# binds the sub-block index. Against npuc-opt's parse+print of the same
# file; beside it, hivm-bubble-up-extract-slice alone on the same chain
# (bench/bubble_up.sh's input), so the part of the bubble-up in the pass
# shows. Prints the pass time per op at N/4, N/2, N and 2N too (linear when
# flat).
#
# usage: bench/bind_sub_block.sh [--ops N] [--runs R] [--keep DIR]
# env:   NPUC_OPT (default build/bin/npuc-opt)
# Prints best-of-R times and `ratio pass/parse+print` (target < 0.10; pass
# times are what --mlir-timing reports, verifier included), against the
# whole npuc-opt run on the file, against it less npuc-opt's start-up (its
# run on an empty module), and against the Parser and Output times
# npuc-opt's --mlir-timing reports ("in-tool"). It measures; it does not
# gate.
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
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done
[[ -x $npuc_opt ]] || { echo "not executable: $npuc_opt (build it or set NPUC_OPT)" >&2; exit 2; }
[[ $("$npuc_opt" --help 2>/dev/null) == *--hivm-bind-sub-block* ]] ||
  { echo "$npuc_opt has no --hivm-bind-sub-block" >&2; exit 2; }

if [[ -n $keep ]]; then work=$keep; mkdir -p "$work"
else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi

# shellcheck source=bench/chain-lib.sh
source "$root/bench/chain-lib.sh"

# The kernel: the chain of bench/bubble_up.sh (vadd with %b, vexp, vmul by
# %s, vmax with %b on tensor<64x64xf32>, one shared empty init) between two
# loads and a store.
# usage: gen_kernel N FILE
gen_kernel() {
  awk -v n="$1" "$chain_awk"'BEGIN {
    T = "tensor<64x64xf32>"; M = "memref<64x64xf32>"
    print "func.func @chain(%x: " M ", %y: " M ", %s: f32, %out: " M ") attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {"
    print "  %ux = memref.alloc() : " M
    print "  hivm.hir.load ins(%x : " M ") outs(%ux : " M ")"
    print "  %a = bufferization.to_tensor %ux restrict writable : " M " to " T
    print "  %uy = memref.alloc() : " M
    print "  hivm.hir.load ins(%y : " M ") outs(%uy : " M ")"
    print "  %b = bufferization.to_tensor %uy restrict writable : " M " to " T
    print "  %e = tensor.empty() : " T
    cur = chain(n, T)
    print "  hivm.hir.store ins(" cur " : " T ") outs(%out : " M ")"
    print "  return"
    print "}"
  }' > "$2"
}

# usage: row NAME TIME PARSE START IO
# Three ratios: against the whole run of npuc-opt on the file, against
# that run less npuc-opt's start-up (START: the run on an empty module),
# and against reading and printing as npuc-opt times them itself (IO).
row() {
  awk -v n="$1" -v p="$2" -v t="$3" -v s="$4" -v io="$5" -v m="$max_ratio" 'BEGIN {
    r = p / t; q = p / (t - s); x = p / io
    printf "  %-30s %8.4fs  parse+print %8.4fs  ratio %6.4f  %s  without start-up %6.4f  %s  in-tool %6.4f  %s\n",
           n, p, t, r, (r < m ? "PASS" : "MISS"), q, (q < m ? "PASS" : "MISS"),
           x, (x < m ? "PASS" : "MISS")
  }'
}

kernel=$work/kernel.mlir chain=$work/chain.mlir
gen_kernel "$ops" "$kernel"
gen_chain "$ops" "$chain"
"$npuc_opt" "$kernel" --hivm-bind-sub-block -o "$work/tiled.mlir" 2>"$work/remarks"
# Tiled: the store and every op of the chain are on 32 rows in the
# sub-block loop the pass leaves, nothing guarded.
grep -q "mapping = \[#hivm.sub_block<x>\]" "$work/tiled.mlir" &&
  grep -q "hivm.hir.vmax ins(.*tensor<32x64xf32>" "$work/tiled.mlir" &&
  grep -q "hivm.hir.store ins(.*tensor<32x64xf32>.*{tiled_op}" "$work/tiled.mlir" &&
  ! grep -q "limit_sub_block_id0" "$work/tiled.mlir" ||
  { echo "the pass did not tile the benchmark kernel" >&2; cat "$work/remarks" >&2; exit 1; }

echo 'module {}' > "$work/empty.mlir"
start=$(best_parse "$work/empty.mlir")
printf 'chain: %d ops, best of %d; pass time from --mlir-timing (verifier included)\n' "$ops" "$runs"
printf 'npuc-opt start-up (an empty module): %.4fs\n' "$start"
row hivm-bind-sub-block "$(best_pass "$kernel" hivm-bind-sub-block)" \
  "$(best_parse "$kernel")" "$start" "$(best_io "$kernel")"
row hivm-bubble-up-extract-slice "$(best_pass "$chain" hivm-bubble-up-extract-slice)" \
  "$(best_parse "$chain")" "$start" "$(best_io "$chain")"
echo "target: ratio < $max_ratio"
echo "hivm-bind-sub-block time per op (linear when flat):"
for n in $((ops / 4)) $((ops / 2)) "$ops" $((ops * 2)); do
  f=$work/kernel$n.mlir
  gen_kernel "$n" "$f"
  t=$(best_pass "$f" hivm-bind-sub-block)
  awk -v n="$n" -v t="$t" 'BEGIN { printf "  %7d ops  %8.4fs  %6.2f us/op\n", n, t, t / n * 1e6 }'
done
