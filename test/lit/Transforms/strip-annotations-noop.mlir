// Without annotation.mark ops the pass changes nothing.
// RUN: npuc-opt %s -o %t.plain
// RUN: npuc-opt %s --npuc-strip-annotations -o %t.stripped
// RUN: npuc-opt %s --npuc-strip-annotations=keep=foo -o %t.kept
// RUN: diff %t.plain %t.stripped
// RUN: diff %t.plain %t.kept
// RUN: FileCheck %s < %t.stripped

module {
  func.func @plain(%x: i32) -> i32 {
    "other.mark"(%x) {foo} : (i32) -> ()
    %c1 = arith.constant 1 : i32
    %y = arith.addi %x, %c1 : i32
    return %y : i32
  }
}

// CHECK-LABEL: func.func @plain
// CHECK-NEXT: other.mark
// CHECK-NEXT: arith.constant 1
// CHECK-NEXT: arith.addi
// CHECK-NEXT: return
