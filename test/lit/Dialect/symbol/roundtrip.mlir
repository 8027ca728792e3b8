// RUN: npuc-opt %s -o %t && grep -v "^//" %s | diff -u - %t
// RUN: npuc-opt --mlir-print-op-generic %s -o %t.generic && FileCheck %s --check-prefix=GENERIC < %t.generic
// Symbolic sizes: two named symbols, one an expression of the other, bound
// to the dynamic sizes of a tensor.
// GENERIC: "symbol.symbolic_int"() {max_val = 1024 : i64, min_val = 1 : i64, symbol_name = @N} : () -> index
// GENERIC: "symbol.symbolic_int"(%0) {int_expressions = #map, max_val = 2048 : i64, min_val = 2 : i64, symbol_name = @M} : (index) -> index
// GENERIC: "symbol.bind_symbolic_shape"(%arg0, %0, %1) {shape_expressions = #map1} : (tensor<?x16x?xf16>, index, index) -> ()
#map = affine_map<()[s0] -> (s0 * 2)>
#map1 = affine_map<()[s0, s1] -> (s0, 16, s1)>
module {
  func.func @shapes(%arg0: tensor<?x16x?xf16>) {
    %0 = symbol.symbolic_int @N {max_val = 1024 : i64, min_val = 1 : i64} : index
    %1 = symbol.symbolic_int @M[%0], #map {max_val = 2048 : i64, min_val = 2 : i64} : index
    symbol.bind_symbolic_shape %arg0, [%0, %1], #map1 : tensor<?x16x?xf16>
    return
  }
}
