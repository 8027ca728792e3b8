// Upstream passes that ask every op for its dialect crash on ops MLIR does
// not know (every op of npuc's dialects): one-shot-bufferize with a
// dialect-filter (bishengir's own bufferization test uses that form),
// math-extend-to-supported-types and xegpu-vector-linearize. npuc refuses them with an error at the
// first such op, before they run.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics \
// RUN:   --one-shot-bufferize=dialect-filter=hivm -o %t.1
// RUN: npuc-opt %s --split-input-file --verify-diagnostics \
// RUN:   '--one-shot-bufferize=allow-unknown-ops dialect-filter=tensor,func' -o %t.2
// RUN: npuc-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(one-shot-bufferize{dialect-filter=hivm})' -o %t.3
// RUN: npuc-opt %s --split-input-file --verify-diagnostics \
// RUN:   --math-extend-to-supported-types -o %t.4
// RUN: npuc-opt %s --split-input-file --verify-diagnostics \
// RUN:   --xegpu-vector-linearize -o %t.6
// Without a filter the pass runs and reports what it cannot bufferize.
// RUN: not npuc-opt %s --split-input-file --one-shot-bufferize -o %t.5 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOFILTER
// RUN: not test -e %t.5
// NOFILTER: upstream-guards-dialect.mlir:[[# @LINE + 6]]:8: error: op was not bufferized
// NOFILTER-NOT: cannot run on

func.func @vexp(%a: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  // expected-error@+1 {{cannot run on 'hivm.hir.vexp':}}
  %0 = hivm.hir.vexp ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// On memrefs as well: the filter asks every op.
func.func @on_memref(%a: memref<16xf32>, %b: memref<16xf32>) {
  // expected-error@+1 {{dialect}}
  hivm.hir.vexp ins(%a : memref<16xf32>) outs(%b : memref<16xf32>)
  return
}
