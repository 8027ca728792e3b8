// npuc-strip-annotations erases annotation.mark ops, at any depth, unless
// all their attributes are named in keep=.
// RUN: npuc-opt %s --split-input-file --npuc-strip-annotations \
// RUN:   | FileCheck %s --check-prefix=ALL
// RUN: npuc-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(npuc-strip-annotations)' \
// RUN:   | FileCheck %s --check-prefix=ALL
// RUN: npuc-opt %s --split-input-file --npuc-strip-annotations=keep=foo,bar \
// RUN:   | FileCheck %s --check-prefix=KEEP
// RUN: npuc-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(npuc-strip-annotations{keep=foo,bar})' \
// RUN:   | FileCheck %s --check-prefix=KEEP
// RUN: npuc-opt %s --split-input-file '--npuc-strip-annotations=keep="bar"' \
// RUN:   | FileCheck %s --check-prefix=BAR
// RUN: npuc-opt %s --split-input-file | FileCheck %s --check-prefix=NOPASS

module {
  func.func @marks(%x: i32, %m: memref<16xf32>) -> i32 {
    "annotation.mark"(%x) {foo} : (i32) -> ()
    "annotation.mark"(%x) {bar = 2 : i64, foo} : (i32) -> ()
    "annotation.mark"(%x) {baz, foo} : (i32) -> ()
    "annotation.mark"(%m) : (memref<16xf32>) -> ()
    scf.execute_region {
      "annotation.mark"(%m) {bar = 1 : i64} : (memref<16xf32>) -> ()
      scf.yield
    }
    "other.mark"(%x) {foo} : (i32) -> ()
    return %x : i32
  }
}

// ALL-LABEL: func.func @marks
// ALL-NOT: annotation.mark
// ALL: scf.execute_region
// ALL-NOT: annotation.mark
// ALL: other.mark
// ALL-NOT: annotation.mark
// ALL: return

// Kept: marks whose attributes are all in keep; a mark without attributes
// carries nothing to keep.
// KEEP-LABEL: func.func @marks
// KEEP-NEXT: annotation.mark{{.*}} {foo}
// KEEP-NEXT: annotation.mark{{.*}} {bar = 2 : i64, foo}
// KEEP-NEXT: scf.execute_region
// KEEP-NEXT: annotation.mark{{.*}} {bar = 1 : i64}
// KEEP-NEXT: scf.yield
// KEEP-NEXT: }
// KEEP-NEXT: other.mark

// BAR-LABEL: func.func @marks
// BAR-NEXT: scf.execute_region
// BAR-NEXT: annotation.mark{{.*}} {bar = 1 : i64}
// BAR-NEXT: scf.yield

// NOPASS-LABEL: func.func @marks
// NOPASS-COUNT-4: annotation.mark
// NOPASS: scf.execute_region
// NOPASS-NEXT: annotation.mark

// -----

// Nested modules are walked too.
module {
  module @inner {
    func.func @g(%x: i32) {
      "annotation.mark"(%x) {foo} : (i32) -> ()
      return
    }
  }
}

// ALL-LABEL: module @inner
// ALL-NOT: annotation.mark
// ALL: return
// KEEP-LABEL: module @inner
// KEEP: annotation.mark{{.*}} {foo}
// BAR-LABEL: module @inner
// BAR-NOT: annotation.mark
// BAR: return
