// Every expected diagnostic is produced, where the designators say: the run
// succeeds (exit 0) and reports nothing.
// RUN: npuc-opt --verify-diagnostics --split-input-file %s 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error
// CHECK: module

module {
  // expected-note@+1 {{prior use here}}
  func.func @offset(%x: i32) -> i64 {
    // expected-error@+1 {{use of value '%x' expects different type than prior uses}}
    %y = arith.addi %x, %x : i64
    return %y : i64
  }
}

// -----

module {
  // expected-note@below {{prior use here}}
  %0 = "test.source"() : () -> i32
  %1 = arith.addi %0, %0 : i64 // expected-error {{expects different type}}
}

// -----

// @above is the last line without a designator, @below the next one.
module {
  func.func @above(%x: i32) -> i64 {
    // expected-error@below {{'i64' vs 'i32'}}
    // expected-note@above {{prior use here}}
    %y = arith.addi %x, %x : i64
    return %y : i64
  }
}

// -----

module {
  // expected-note@+1 {{prior use here}}
  func.func @minus(%x: i32) -> i64 {
    %y = arith.addi %x, %x : i64


    // expected-error@-3 {{prior uses}}
    return %y : i64
  }
}

// -----

module {
  // expected-note@+1 {{prior use here}}
  func.func @regex(%x: i32) -> i64 {
    // expected-error-re@+1 {{use of value '%{{[a-z]+}}' expects {{.*}} 'i{{[0-9]+}}' vs 'i32'}}
    %y = arith.addi %x, %x : i64
    return %y : i64
  }
}

// -----

// A chunk without expectations and without diagnostics is fine, and its
// output is printed.
module {
  func.func @clean() {
    return
  }
}
