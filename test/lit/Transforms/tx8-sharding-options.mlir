// tx8-sharding's options are checked before anything is searched: a
// search budget below 1 and a negative SPM size are errors, located at the
// module, and nothing is written.
// RUN: not npuc-opt %s --tx8-sharding=search-budget=0 -o %t.out 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not npuc-opt %s --tx8-sharding=spm-bytes=-1 -o %t.out2 2>&1 | FileCheck %s --check-prefix=SPM
// RUN: not npuc-opt %s --tx8-sharding=search-budget=many -o %t.out3 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: not ls %t.out %t.out2 %t.out3
// BUDGET: tx8-sharding-options.mlir:[[@LINE+4]]:1: error: tx8-sharding: search-budget must be at least 1, not 0
// SPM: tx8-sharding-options.mlir:[[@LINE+3]]:1: error: tx8-sharding: spm-bytes must be 0 (the target's) or positive, not -1
// TEXT: search-budget
// TEXT-SAME: many
module {
func.func @relu(%x: tensor<64x64xf16>) -> tensor<64x64xf16> {
  %0 = tx8be.group(%x) : (tensor<64x64xf16>) -> (tensor<64x64xf16>) {
  ^bb0(%a0: tensor<64x64xf16>):
    %1 = tx8be.load_var %a0 : tensor<64x64xf16> -> tensor<64x64xf16>
    %2 = tx8be.relu %1 : tensor<64x64xf16> -> tensor<64x64xf16>
    %3 = tx8be.store_var %2 : tensor<64x64xf16> -> tensor<64x64xf16>
    tx8be.return %3 : tensor<64x64xf16>
  }
  return %0 : tensor<64x64xf16>
}
}
