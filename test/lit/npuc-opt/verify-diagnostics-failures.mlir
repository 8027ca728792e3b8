// Mismatches are reported at the right lines and fail the run: an
// expectation that is not met, a diagnostic nobody expected, and one with
// the right text but another severity.
// RUN: not npuc-opt --verify-diagnostics --split-input-file %s 2>&1 \
// RUN:   | FileCheck %s

module {
  // CHECK: verify-diagnostics-failures.mlir:[[@LINE+1]]:6: error: expected error "this is never produced" was not produced
  // expected-error@+1 {{this is never produced}}
  func.func @quiet() {
    return
  }
}

// -----

module {
  func.func @surprise(%x: i32) -> i64 {
    // CHECK: verify-diagnostics-failures.mlir:[[@LINE+1]]:{{[0-9]+}}: error: unexpected error: use of value '%x' expects different type
    %y = arith.addi %x, %x : i64
    return %y : i64
  }
}

// -----

module {
  // expected-note@+1 {{prior use here}}
  func.func @severity(%x: i32) -> i64 {
    // CHECK: verify-diagnostics-failures.mlir:[[@LINE+1]]:8: error: 'error' diagnostic emitted when expecting a 'warning'
    // expected-warning@+1 {{expects different type}}
    %y = arith.addi %x, %x : i64
    return %y : i64
  }
}

// -----

module {
  // expected-note@+1 {{prior use here}}
  func.func @wrong_line(%x: i32) -> i64 {
    // CHECK: verify-diagnostics-failures.mlir:[[@LINE+2]]:{{[0-9]+}}: error: unexpected error: use of value '%x'
    // CHECK: verify-diagnostics-failures.mlir:[[@LINE+2]]:8: error: expected error "expects different type" was not produced
    %y = arith.addi %x, %x : i64
    // expected-error@+1 {{expects different type}}
    return %y : i64
  }
}
