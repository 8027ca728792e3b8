// RUN: npuc-opt %s --split-input-file --verify-diagnostics -o %t
// Errors of the ascend_dpx table.

func.func @bad_cast_kind(%arg0: i32) {
  // expected-error @+1 {{'int_to_fp' is not a valid kind of 'ascend_dpx.cast'}}
  %0 = ascend_dpx.cast %arg0 kind <int_to_fp> : i32 to f32
  return
}

// -----

func.func @missing_types(%arg0: i32) {
  %0 = ascend_dpx.umulhi %arg0, %arg0
  // expected-error @+1 {{expected ':' in custom syntax of 'ascend_dpx.umulhi', found 'return'}}
  return
}

// -----

// stripped-type: the address space's `<` must close.
llvm.func @unterminated_stripped_type(%arg0: !llvm.ptr<1>, %arg1: vector<1xi32>) {
  // expected-error @+1 {{unterminated '<' in the type of 'ptr' of 'ascend_dpx.store'}}
  ascend_dpx.store %arg0, %arg1 : <1, vector<1xi32>
  llvm.return
}
