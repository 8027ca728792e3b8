#!/usr/bin/env bash
# auto-blockify-parallel-loop cost: the pass on a kernel whose body has N
# ops (default 10000) against npuc-opt's parse+print of the same file. The
# pass moves every op once and rewrites each use of the block index once,
# so it should cost a small fraction of reading and writing the text.
#
# usage: bench/auto_blockify.sh [--ops N] [--runs R] [--keep DIR]
# env:   NPUC_OPT (default build/bin/npuc-opt)
# Prints the best-of-R times and `ratio pass/parse+print` (target < 0.05),
# where the pass time is what --mlir-timing reports: it includes MLIR's
# verifier, which runs after every pass and alone costs about 4% of
# parse+print here; so the script also times a pass that changes nothing
# and prints the pass's own share beyond it. It measures; it does not gate.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
npuc_opt=${NPUC_OPT:-$root/build/bin/npuc-opt}
ops=10000 runs=7 keep=
max_ratio=0.05

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
kernel=$work/blockify.mlir

# One device entry: the logical count from three grid arguments, its mark,
# get_block_idx, then groups of 8 ops (tile offset from the block index,
# subview, vadd, vmul, store, scalar arithmetic) until the body has N ops.
# Every group reads the block index, so every group is rewritten.
awk -v n="$ops" 'BEGIN {
  T = "tensor<16xf32>"; M = "memref<16xf32, strided<[1], offset: ?>>"
  print "module attributes {hivm.module_core_type = #hivm.module_core_type<AIV>} {"
  print "func.func @bench(%in: " T ", %out: memref<?xf32>, %a: i32, %b: i32, %c: i32) attributes {hacc.entry} {"
  print "  %c16 = arith.constant 16 : index"
  print "  %ab = arith.muli %a, %b : i32"
  print "  %n = arith.muli %ab, %c : i32"
  print "  annotation.mark %n {logical_block_num} : i32"
  print "  %bid = hivm.hir.get_block_idx -> i64"
  print "  %bi = arith.index_cast %bid : i64 to index"
  print "  %e = tensor.empty() : " T
  cur = "%in"; emitted = 8; k = 0
  while (emitted < n) {
    p = "%g" k "_"
    line[0] = "  " p "k = arith.constant " k " : index"
    line[1] = "  " p "o = arith.addi %bi, " p "k : index"
    line[2] = "  " p "off = arith.muli " p "o, %c16 : index"
    line[3] = "  " p "sv = memref.subview %out[" p "off] [16] [1] : memref<?xf32> to " M
    line[4] = "  " p "add = hivm.hir.vadd ins(" cur ", %in : " T ", " T ") outs(%e : " T ") -> " T
    line[5] = "  " p "mul = hivm.hir.vmul ins(" p "add, %in : " T ", " T ") outs(%e : " T ") -> " T
    line[6] = "  hivm.hir.store ins(" p "mul : " T ") outs(" p "sv : " M ")"
    line[7] = "  " p "x = arith.trunci %bid : i64 to i32"
    for (j = 0; j < 8 && emitted < n; j++) { print line[j]; emitted++ }
    if (j == 8) cur = p "mul"
    k++
  }
  print "  return"
  print "}"
  print "}"
}' > "$kernel"

"$npuc_opt" "$kernel" -auto-blockify-parallel-loop=physical-block-num=8 -o "$work/out.mlir"
grep -q 'autoblockify.subloop' "$work/out.mlir" ||
  { echo "the pass did not blockify the benchmark kernel" >&2; exit 1; }

now() { date +%s.%N; }
# The time --mlir-timing gives pass P (it includes MLIR's verifier, which
# the pass manager runs after every pass).
# usage: pass_time NAME FLAG...
pass_time() {
  local name=$1
  shift
  "$npuc_opt" "$kernel" "$@" --mlir-timing 2>&1 >/dev/null |
    awk -v name="$name" '$NF == name { print $1; exit }'
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "inf" || b < a) ? b : a }'; }
best_parse=inf best_pass=inf best_base=inf
for ((r = 0; r < runs; r++)); do
  t0=$(now)
  "$npuc_opt" "$kernel" >/dev/null
  t1=$(now)
  best_parse=$(min "$best_parse" "$(awk -v x="$t0" -v y="$t1" 'BEGIN { print y - x }')")
  best_pass=$(min "$best_pass" "$(pass_time auto-blockify-parallel-loop \
    -auto-blockify-parallel-loop=physical-block-num=8)")
  # A pass that walks every op and changes nothing: what the verifier and a
  # walk cost by themselves, for comparison.
  best_base=$(min "$best_base" "$(pass_time npuc-strip-annotations \
    --npuc-strip-annotations=keep=logical_block_num)")
done

printf 'kernel: %d ops in the body (%d bytes), best of %d\n' "$ops" "$(wc -c < "$kernel")" "$runs"
printf 'npuc-opt parse+print         %8.4fs\n' "$best_parse"
printf 'auto-blockify-parallel-loop  %8.4fs  (--mlir-timing: with the verifier run after it)\n' "$best_pass"
printf 'no-op pass, for comparison   %8.4fs  (npuc-strip-annotations keeping every mark)\n' "$best_base"
awk -v p="$best_pass" -v b="$best_base" -v t="$best_parse" -v m="$max_ratio" 'BEGIN {
  r = p / t
  printf "ratio pass/parse+print       %8.4f   target < %s  %s\n", r, m, (r < m ? "PASS" : "MISS")
  printf "ratio beyond the no-op pass  %8.4f   (the pass'"'"'s own work)\n", (p - b) / t
}'
