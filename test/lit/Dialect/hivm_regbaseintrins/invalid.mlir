// RUN: npuc-opt %s --split-input-file --verify-diagnostics -o %t
// hivm_regbaseintrins' attributes and the launch's kernel symbol.

// expected-error @+1 {{unknown attribute '#hivm_regbaseintrins.simt_thing'}}
func.func @unknown() attributes {x = #hivm_regbaseintrins.simt_thing<1>} {
  return
}

// -----
// expected-error @+1 {{attribute '#hivm_regbaseintrins.simt_callable' takes no parameters}}
func.func @callable() attributes {x = #hivm_regbaseintrins.simt_callable<1>} {
  return
}

// -----
func.func @launch_string(%a: i64) {
  // expected-error @+1 {{attribute 'kernel' of 'hivm_regbaseintrins.intrins.launch_func' must be a symbol (@name)}}
  "hivm_regbaseintrins.intrins.launch_func"(%a, %a, %a) {kernel = "k"} : (i64, i64, i64) -> ()
  return
}

// -----
// The block sizes are i64: MLIR reports an i32 at the use.
func.func @launch_i32(%a: i32) {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%a' expects different type than prior uses: 'i64' vs 'i32'}}
  hivm_regbaseintrins.intrins.launch_func @k threads in (%a, %a, %a)
  return
}
