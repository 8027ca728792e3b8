// tx8-move-constant reads dense_resource values (npuc-import's weights,
// kept in the file's resource section) into dense container entries: f32
// and f16 blobs, and a blob with a quoted name. import-compile.test in
// test/lit/onnx runs a graph compiled this way.
// RUN: npuc-opt %s --tx8-move-constant | FileCheck %s

// CHECK: tx8be.const_container = [dense<[1.000000e+00, 2.000000e+00, -1.000000e+00, 5.000000e-01]> : tensor<4xf32>, dense<{{\[\[}}1.000000e+00, -2.000000e+00], [6.550400e+04, 0.000000e+00]]> : tensor<2x2xf16>, dense<[0, 1, -1, 127]> : tensor<4xi8>]
// CHECK-NOT: dense_resource
// CHECK: tx8be.load_const[0]
// CHECK: tx8be.load_const[1]
// CHECK: tx8be.load_const[2]
module {
  func.func @main(%x: tensor<4xf32>, %h: tensor<2x2xf16>, %i: tensor<4xi8>) -> (tensor<4xf32>, tensor<2x2xf16>, tensor<4xi8>) {
    %w = tx8be.constant {value = dense_resource<w_f32> : tensor<4xf32>} : tensor<4xf32>
    %0 = tx8be.add %x, %w : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
    %v = tx8be.constant {value = dense_resource<"half weights"> : tensor<2x2xf16>} : tensor<2x2xf16>
    %1 = tx8be.mul %h, %v : tensor<2x2xf16>, tensor<2x2xf16> -> tensor<2x2xf16>
    %q = tx8be.constant {value = dense_resource<w_i8> : tensor<4xi8>} : tensor<4xi8>
    %2 = tx8be.add %i, %q : tensor<4xi8>, tensor<4xi8> -> tensor<4xi8>
    return %0, %1, %2 : tensor<4xf32>, tensor<2x2xf16>, tensor<4xi8>
  }
}

{-#
  dialect_resources: {
    builtin: {
      w_f32: "0x040000000000803F00000040000080BF0000003F",
      "half weights": "0x02000000003C00C0FF7B0000",
      w_i8: "0x010000000001FF7F"
    }
  }
#-}
