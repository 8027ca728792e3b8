// The size threshold comes from the target description: with 1 KiB DDR
// banks it is 1 KiB x 16 tiles, so the 64 KiB constant is large. A target
// file that cannot be read fails the pass at the module.
// RUN: printf 'chip:\n  ddr_bank_bytes: 1024\n' > %t.yaml
// RUN: npuc-opt %s --tx8-move-constant=target-config=%t.yaml | FileCheck %s
// RUN: npuc-opt %s --tx8-move-constant | FileCheck %s --check-prefix=BUILTIN
// RUN: printf 'chip:\n  ddr_bank_bytes: -4\n' > %t.bad.yaml
// RUN: not npuc-opt %s --tx8-move-constant=target-config=%t.bad.yaml 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not npuc-opt %s --tx8-move-constant=target-config=%t.missing.yaml 2>&1 | FileCheck %s --check-prefix=MISSING
// CHECK: tx8be.const_container = [dense<3.000000e+00> : tensor<128x128xf32>, dense<1.000000e+00> : tensor<32xf16>]
// BUILTIN: tx8be.const_container = [dense<1.000000e+00> : tensor<32xf16>, dense<3.000000e+00> : tensor<128x128xf32>]
// BAD: {{.*}}.bad.yaml:2:{{[0-9]+}}: error: tx8-move-constant: bad target description: 'chip.ddr_bank_bytes' must be a positive integer
// BAD: note: tx8-move-constant read the target description
// BAD-NOT: func.func
// MISSING: error: tx8-move-constant: bad target description: {{.*}}missing.yaml: cannot read
module {
  func.func @main(%x: tensor<64x32xf16>) -> (tensor<64x32xf16>, tensor<128x128xf32>) {
    %b = tx8be.constant {value = dense<1.0> : tensor<32xf16>} : tensor<32xf16>
    %w = tx8be.constant {value = dense<3.0> : tensor<128x128xf32>} : tensor<128x128xf32>
    %0 = tx8be.add %x, %b : tensor<64x32xf16>, tensor<32xf16> -> tensor<64x32xf16>
    %1 = tx8be.relu %w : tensor<128x128xf32> -> tensor<128x128xf32>
    return %0, %1 : tensor<64x32xf16>, tensor<128x128xf32>
  }
}
