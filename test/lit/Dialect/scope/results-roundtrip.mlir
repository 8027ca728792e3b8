// scope.scope writes its results as a function type does, as bishengir
// prints them: `() -> ()` with none, `() -> T` with one, `() -> (T, U)`
// with more; each prints back to itself.
// RUN: npuc-opt %s | FileCheck %s
// RUN: npuc-opt %s | npuc-opt | FileCheck %s

// CHECK-LABEL: func.func @results
func.func @results(%a: i32) -> (i32, i32) {
  // CHECK: %{{.*}}:2 = scope.scope : () -> (i32, i32) {
  %0:2 = scope.scope : () -> (i32, i32) {
    scope.return %a, %a : i32, i32
  }
  // CHECK: %{{.*}} = scope.scope : () -> i32 {
  %1 = scope.scope : () -> i32 {
    scope.return %a : i32
  }
  // CHECK: scope.scope : () -> () {
  scope.scope : () -> () {
    scope.return
  }
  return %0#0, %1 : i32, i32
}
