#!/usr/bin/env bash
# Benchmarks of --target=ascend-cmodel, printing ratios (not a timed test):
#  1. the emitted C for a 4M-element f32 vadd against a plain C loop doing
#     the same work, compiled with the same flags (target <= 1.5);
#  2. npuc-compile time per op on kernels of 12.5k..100k ops: it should
#     stay flat (linear compile time; target: largest/smallest <= 1.5).
# usage: bench/cmodel.sh [BUILD_DIR]   (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=${NPUC_CFLAGS:--O2}

# ---- 1. vadd --------------------------------------------------------------
n=4194304
cat > "$work/vadd.mlir" <<MLIR
func.func @vadd(%a: memref<${n}xf32>, %b: memref<${n}xf32>, %c: memref<${n}xf32>) attributes {hacc.entry} {
  hivm.hir.vadd ins(%a, %b : memref<${n}xf32>, memref<${n}xf32>) outs(%c : memref<${n}xf32>)
  return
}
MLIR
cat > "$work/spec.yaml" <<YAML
args:
  - {buffer: f32, shape: [$n], init: random}
  - {buffer: f32, shape: [$n], init: random}
  - {buffer: f32, shape: [$n], init: zeros}
YAML
cat > "$work/plain.c" <<C
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
/* The same work as the kernel: c = a + b over $n floats. */
__attribute__((noinline)) static void add(float *c, const float *a, const float *b, long n) {
  for (long i = 0; i < n; ++i)
    c[i] = a[i] + b[i];
}
int main(void) {
  long n = $n;
  float *a = malloc(n * 4), *b = malloc(n * 4), *c = calloc(n, 4);
  for (long i = 0; i < n; ++i) { a[i] = (float)i; b[i] = 1.0f; }
  double best = 1e9;
  for (int r = 0; r < 5; ++r) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    add(c, a, b, n);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    if (s < best) best = s;
  }
  printf("%.6f %g\n", best, c[n - 1]);
  return 0;
}
C
cc -std=c11 -D_POSIX_C_SOURCE=200809L $flags "$work/plain.c" -o "$work/plain"
plain=$("$work/plain" | cut -d' ' -f1)
kernel=1e9
for r in 1 2 3 4 5; do
  NPUC_CFLAGS="$flags" "$build/bin/npuc-run" "$work/vadd.mlir" --spec "$work/spec.yaml" \
    -o "$work/out" > "$work/summary.txt"
  s=$(awk '/^kernel_seconds/ {print $2}' "$work/summary.txt")
  kernel=$(python3 -c "print(min($kernel, $s))")
done
python3 - "$kernel" "$plain" <<'PY'
import sys
k, p = map(float, sys.argv[1:])
r = k / p
print("4M f32 vadd: emitted C %.2f ms, plain C loop %.2f ms, ratio %.2f "
      "(target <= 1.5: %s)" % (k * 1e3, p * 1e3, r, "PASS" if r <= 1.5 else "MISS"))
PY

# ---- 2. compile time ---------------------------------------------------------
gen() { # N ops: a chain of elementwise ops on one tensor
  python3 - "$1" <<'PY'
import sys
n = int(sys.argv[1]) // 2
print("func.func @chain(%a: memref<64xf32>, %out: memref<64xf32>) attributes {hacc.entry} {")
print("  %buf = memref.alloc() : memref<64xf32>")
print("  hivm.hir.load ins(%a : memref<64xf32>) outs(%buf : memref<64xf32>)")
print("  %v0 = bufferization.to_tensor %buf restrict writable : memref<64xf32> to tensor<64xf32>")
for i in range(n):
    op = ("vadd", "vmul", "vsub", "vmax")[i % 4]
    print("  %%e%d = tensor.empty() : tensor<64xf32>" % i)
    print("  %%v%d = hivm.hir.%s ins(%%v%d, %%v0 : tensor<64xf32>, tensor<64xf32>) "
          "outs(%%e%d : tensor<64xf32>) -> tensor<64xf32>" % (i + 1, op, i, i))
print("  hivm.hir.store ins(%%v%d : tensor<64xf32>) outs(%%out : memref<64xf32>)" % n)
print("  return")
print("}")
PY
}
echo "npuc-compile --target=ascend-cmodel, time per op:"
per_op=()
for ops in 12500 25000 50000 100000; do
  gen $ops > "$work/chain.mlir"
  start=$(date +%s.%N)
  "$build/bin/npuc-compile" --target=ascend-cmodel -o "$work/chain" "$work/chain.mlir"
  end=$(date +%s.%N)
  us=$(python3 -c "print(($end - $start) * 1e6 / $ops)")
  per_op+=("$us")
  printf "  %6d ops: %.2f us/op\n" "$ops" "$us"
done
python3 - "${per_op[@]}" <<'PY'
import sys
v = list(map(float, sys.argv[1:]))
r = max(v) / min(v)
print("largest/smallest time per op: %.2f (linear if <= 1.5: %s)" % (r, "PASS" if r <= 1.5 else "MISS"))
PY
