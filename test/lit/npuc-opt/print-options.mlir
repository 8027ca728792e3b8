// The printing and instrumentation options of mlir-opt.
// RUN: npuc-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: npuc-opt %s -mlir-print-op-generic=true | FileCheck %s --check-prefix=GENERIC
// RUN: npuc-opt %s --mlir-print-op-generic=false | FileCheck %s --check-prefix=CUSTOM
// RUN: npuc-opt %s --mlir-print-debuginfo | FileCheck %s --check-prefix=DEBUG
// RUN: npuc-opt %s | FileCheck %s --check-prefix=CUSTOM
// RUN: npuc-opt %s --allow-unregistered-dialect | FileCheck %s --check-prefix=CUSTOM
// RUN: npuc-opt %s -cse --npuc-strip-annotations --mlir-print-ir-after-all \
// RUN:   -o %t 2>&1 | FileCheck %s --check-prefix=AFTER
// RUN: npuc-opt %s -cse --mlir-timing -o %t 2>&1 | FileCheck %s --check-prefix=TIME

module {
  func.func @f(%x: i32) -> i32 {
    return %x : i32
  }
}

// GENERIC: "func.func"() <{function_type = (i32) -> i32, sym_name = "f"}>
// GENERIC: "func.return"(%arg0) : (i32) -> ()
// CUSTOM: func.func @f(%arg0: i32) -> i32 {
// CUSTOM-NOT: loc(
// DEBUG: loc("{{.*}}print-options.mlir":{{[0-9]+}}:{{[0-9]+}})
// AFTER: IR Dump After CSE (cse)
// AFTER: func.func @f
// AFTER: IR Dump After npuc-strip-annotations (npuc-strip-annotations)
// AFTER: func.func @f
// TIME: Execution time report
// TIME: CSE
// TIME: Total
// TIME: Reading and printing time report
// TIME: {{^    [0-9.]+ \( *[0-9.]+%\)  Parser$}}
// TIME: {{^    [0-9.]+ \( *[0-9.]+%\)  Output$}}
// TIME: {{^    [0-9.]+ \(100.0%\)  Total$}}
