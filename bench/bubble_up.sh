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

# One function: a chain cycling vadd(x, %b), vexp(x), vmul(x, %s),
# vmax(x, %b) on tensor<64x64xf32>, all writing the shared empty %e, then a
# marked slice of the last result (its first 32 rows at %o).
# usage: gen N FILE
gen() {
  awk -v n="$1" 'BEGIN {
    T = "tensor<64x64xf32>"
    print "func.func @chain(%a: " T ", %b: " T ", %s: f32, %o: index) -> tensor<32x64xf32> {"
    print "  %e = tensor.empty() : " T
    cur = "%a"
    for (i = 0; i < n; i++) {
      k = i % 4; v = "%v" i
      if (k == 0) l = "hivm.hir.vadd ins(" cur ", %b : " T ", " T ")"
      else if (k == 1) l = "hivm.hir.vexp ins(" cur " : " T ")"
      else if (k == 2) l = "hivm.hir.vmul ins(" cur ", %s : " T ", f32)"
      else l = "hivm.hir.vmax ins(" cur ", %b : " T ", " T ")"
      print "  " v " = " l " outs(%e : " T ") -> " T
      cur = v
    }
    print "  %r = tensor.extract_slice " cur "[%o, 0] [32, 64] [1, 1] {to_be_bubbled_slice} : " T " to tensor<32x64xf32>"
    print "  return %r : tensor<32x64xf32>"
    print "}"
  }' > "$2"
}

now() { date +%s.%N; }
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "inf" || b < a) ? b : a }'; }
pass_time() {
  "$npuc_opt" "$1" --hivm-bubble-up-extract-slice --mlir-timing -o /dev/null 2>&1 |
    awk '$NF == "hivm-bubble-up-extract-slice" { print $1; exit }'
}
# usage: best_pass FILE -> best-of-R pass time
best_pass() {
  local b=inf
  for ((r = 0; r < runs; r++)); do b=$(min "$b" "$(pass_time "$1")"); done
  echo "$b"
}

chain=$work/chain.mlir
gen "$ops" "$chain"
"$npuc_opt" "$chain" --hivm-bubble-up-extract-slice -o "$work/out.mlir"
# Bubbled through: every op is on 32 rows, the slice sits on an argument.
grep -q "hivm.hir.vmax ins(.*tensor<32x64xf32>" "$work/out.mlir" &&
  grep -q "tensor.extract_slice %arg1\[%arg3, 0\] \[32, 64\]" "$work/out.mlir" ||
  { echo "the pass did not bubble the benchmark chain" >&2; exit 1; }

best_parse=inf
for ((r = 0; r < runs; r++)); do
  t0=$(now)
  "$npuc_opt" "$chain" -o /dev/null
  t1=$(now)
  best_parse=$(min "$best_parse" "$(awk -v x="$t0" -v y="$t1" 'BEGIN { print y - x }')")
done
pass=$(best_pass "$chain")

printf 'chain: %d ops (%d bytes), best of %d\n' "$ops" "$(wc -c < "$chain")" "$runs"
printf 'npuc-opt parse+print          %8.4fs\n' "$best_parse"
printf 'hivm-bubble-up-extract-slice  %8.4fs  (--mlir-timing: with the verifier run after it)\n' "$pass"
awk -v p="$pass" -v t="$best_parse" -v m="$max_ratio" 'BEGIN {
  r = p / t
  printf "ratio pass/parse+print        %8.4f   target < %s  %s\n", r, m, (r < m ? "PASS" : "MISS")
}'
echo "pass time per op (linear when flat):"
for n in $((ops / 4)) $((ops / 2)) "$ops" $((ops * 2)); do
  f=$work/chain$n.mlir
  gen "$n" "$f"
  t=$(best_pass "$f")
  awk -v n="$n" -v t="$t" 'BEGIN { printf "  %7d ops  %8.4fs  %6.2f us/op\n", n, t, t / n * 1e6 }'
done
