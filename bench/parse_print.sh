#!/usr/bin/env bash
# Parse+verify+print benchmark: npuc-opt on a large HIVM module in custom
# syntax vs. mlir-opt on the same module in generic form. The question it
# answers: what does our text rewriting layer cost on top of MLIR itself?
#
# usage: bench/parse_print.sh [--ops N] [--runs R] [--keep DIR]
# env:   NPUC_OPT (default build-bench/bin/npuc-opt), MLIR_OPT
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
npuc_opt=${NPUC_OPT:-$root/build-bench/bin/npuc-opt}
mlir_opt=${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}
ops=100000 runs=3 keep=
# Targets (issue 20): npuc-opt may cost at most this much more.
max_time_ratio=1.2 max_rss_ratio=2

while (($#)); do
  case $1 in
    --ops) ops=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done
for t in "$npuc_opt" "$mlir_opt"; do
  [[ -x $t ]] || { echo "not executable: $t (build it or set NPUC_OPT/MLIR_OPT)" >&2; exit 2; }
done

if [[ -n $keep ]]; then work=$keep; mkdir -p "$work"
else work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; fi
custom=$work/bench.custom.mlir generic=$work/bench.generic.mlir

# One func.func whose body repeats a 14-op group until N ops are emitted.
# Every result feeds a later op (%cur, %s and %i carry across groups), so
# nothing is dead and the verifier sees real use-def chains.
awk -v n="$ops" 'BEGIN {
  T = "tensor<16x16xf32>"; R = "tensor<1x16xf32>"
  print "func.func @bench(%arg0: " T ", %arg1: " T ", %arg2: f32, %arg3: index) -> (" T ", f32, index) {"
  print "  %c1 = arith.constant 1 : index"
  print "  %cst = arith.constant 1.000000e+00 : f32"
  cur = "%arg1"; s = "%arg2"; i = "%arg3"; k = 0; emitted = 2
  while (emitted < n) {
    e = "%e" k; r = "%r" k; p = "%v" k "_"
    line[0]  = "  " e " = tensor.empty() : " T
    line[1]  = "  " p "ld = hivm.hir.load ins(%arg0 : " T ") outs(" e " : " T ") -> " T
    line[2]  = "  " p "add = hivm.hir.vadd ins(" p "ld, " cur " : " T ", " T ") outs(" e " : " T ") -> " T
    line[3]  = "  " p "mul = hivm.hir.vmul ins(" p "add, " s " : " T ", f32) outs(" e " : " T ") -> " T
    line[4]  = "  " p "exp = hivm.hir.vexp ins(" p "mul : " T ") outs(" e " : " T ") -> " T
    line[5]  = "  " r " = tensor.empty() : " R
    line[6]  = "  " p "red = hivm.hir.vreduce <sum> ins(" p "exp : " T ") outs(" r " : " R ") reduce_dims = [0] -> " R
    line[7]  = "  " p "bc = hivm.hir.vbrc ins(" p "red : " R ") outs(" e " : " T ") broadcast_dims = [0] -> " T
    line[8]  = "  " p "s = arith.addf " s ", %cst : f32"
    line[9]  = "  " p "sm = arith.mulf " p "s, " p "s : f32"
    line[10] = "  " p "i = arith.addi " i ", %c1 : index"
    line[11] = "  " p "sb = hivm.hir.vbrc ins(" p "sm : f32) outs(" e " : " T ") -> " T
    line[12] = "  " p "mx = hivm.hir.vmul ins(" p "bc, " p "sb : " T ", " T ") outs(" e " : " T ") -> " T
    line[13] = "  " p "st = hivm.hir.store ins(" p "mx : " T ") outs(" p "sb : " T ") -> " T
    for (j = 0; j < 14 && emitted < n; j++) { print line[j]; emitted++ }
    if (j < 14) break           # partial last group: keep the old carriers
    cur = p "st"; s = p "sm"; i = p "i"; k++
  }
  print "  return " cur ", " s ", " i " : " T ", f32, index"
  print "}"
}' > "$custom"

# The generic form comes from npuc-opt itself, so both tools read the same IR.
"$npuc_opt" --mlir-print-op-generic "$custom" > "$generic"
# Sanity: the custom run must print our ops back in custom syntax (else the
# comparison would skip the work we want to measure).
"$npuc_opt" "$custom" > "$work/out.mlir"
if grep -q '"hivm\.' "$work/out.mlir" || ! grep -q 'hivm.hir.vadd ins(' "$work/out.mlir"; then
  echo "npuc-opt did not print custom syntax; see $work/out.mlir" >&2; exit 1
fi
"$mlir_opt" --allow-unregistered-dialect "$generic" > /dev/null

# measure CMD... -> "seconds kilobytes cpu-seconds" of one run, output
# discarded. CPU time (user + system) is the steadier figure on a loaded
# machine; wall time is the target's.
if [[ -x /usr/bin/time ]]; then
  measure() {
    /usr/bin/time -f '%e %M %U %S' -o "$work/time.txt" "$@" > /dev/null
    awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$work/time.txt"
  }
else
  # No GNU time: the children's peak RSS from getrusage, wall time from
  # a monotonic clock around the child.
  measure() {
    python3 - "$@" <<'EOF'
import resource, subprocess, sys, time
t = time.monotonic()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{time.monotonic() - t:.2f} {u.ru_maxrss} {u.ru_utime + u.ru_stime:.2f}")
EOF
  }
fi

# best_of TOOL ARGS...: best (min) wall time, worst (max) peak RSS, best
# CPU time.
best_of() {
  local best_t= worst_m=0 best_c= t m c
  for ((r = 0; r < runs; r++)); do
    read -r t m c < <(measure "$@")
    if [[ -z $best_t ]] || awk -v a="$t" -v b="$best_t" 'BEGIN{exit !(a < b)}'; then best_t=$t; fi
    if [[ -z $best_c ]] || awk -v a="$c" -v b="$best_c" 'BEGIN{exit !(a < b)}'; then best_c=$c; fi
    ((m > worst_m)) && worst_m=$m
  done
  echo "$best_t $worst_m $best_c"
}

echo "module: $ops ops ($(wc -c < "$custom") bytes custom, $(wc -c < "$generic") bytes generic), best of $runs"
read -r nt nm nc < <(best_of "$npuc_opt" "$custom")
read -r mt mm mc < <(best_of "$mlir_opt" --allow-unregistered-dialect "$generic")

awk -v nt="$nt" -v nm="$nm" -v mt="$mt" -v mm="$mm" -v nc="$nc" -v mc="$mc" \
    -v tmax="$max_time_ratio" -v mmax="$max_rss_ratio" 'BEGIN {
  tr = (mt > 0) ? nt / mt : 0; mr = nm / mm
  printf "%-10s %14s %14s %8s %8s  %s\n", "", "npuc-opt", "mlir-opt", "ratio", "target", "result"
  printf "%-10s %13.2fs %13.2fs %8.2f %8s  %s\n", "wall", nt, mt, tr, "<= " tmax, (tr <= tmax) ? "PASS" : "MISS"
  printf "%-10s %13.2fs %13.2fs %8.2f\n", "cpu", nc, mc, (mc > 0) ? nc / mc : 0
  printf "%-10s %11.1f MB %11.1f MB %8.2f %8s  %s\n", "peak RSS", nm / 1024, mm / 1024, mr, "<= " mmax, (mr <= mmax) ? "PASS" : "MISS"
}'
