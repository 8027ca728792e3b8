// tx8-const-norm's weights-cx (on by default; opt_ddr, docs/tx8.md
// "Weights in DDR"): what a gemm reads only as its weight (operand 1, not
// transpose_b), directly or through a channel_norm to Cx, lies in DDR in
// Cx. A graph input gets the argument attribute tx8be.ddr_layout = "Cx";
// a constant's entry becomes its Cx image (rank 1, padding included:
// [2, 66] f32 is a 64-channel block and 2 channels padded to 4, two rows
// each, the batch padded to 256 bytes: 192 elements). Anything else read
// as a weight and something more (%both), transposed (%wt), an a operand
// (entry 1) or a constant of another reader stays compact.
// RUN: npuc-opt %s --tx8-const-norm | FileCheck %s
// RUN: npuc-opt %s --tx8-const-norm=weights-cx=false | FileCheck %s --check-prefix=OFF
// RUN: npuc-opt %s --tx8-const-norm | npuc-opt --tx8-const-norm | FileCheck %s

// The image: row 0's channels 0..63 (1.0, 2.0, ...), then row 1's, then
// the two rows' channels 64, 65 padded to 4 (65.0, 66.0, 0, 0).
// CHECK-LABEL: module attributes {tx8be.const_container = [
// CHECK-SAME: dense<1.000000e+00> : tensor<3x2xf32>,
// CHECK-SAME: dense<"0x0000803F00000040{{[0-9A-F]*}}00007C42000080420000824200008442000000000000000000008242000084420000000000000000{{0*}}"> : tensor<192xf32>]}
// CHECK: func.func @main(%arg0: tensor<3x2xf32>, %arg1: tensor<2x66xf32> {tx8be.ddr_layout = "Cx"}, %arg2: tensor<2x66xf32>, %arg3: tensor<66x2xf32>, %arg4: tensor<2x66xf32> {tx8be.ddr_layout = "Cx"})
// CHECK: %[[W:.*]] = tx8be.load_const[1] {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = Cx{{.*}}>} : tensor<2x66xf32>
// CHECK: tx8be.gemm %{{.*}}, %[[W]], %{{.*}}
// CHECK: tx8be.load_const[0] {dev_info = #tx8be.dev_attr<{{.*}}mem_layout = Cx{{.*}}>} : tensor<3x2xf32>

// OFF-LABEL: module attributes {tx8be.const_container = [
// OFF-SAME: tensor<3x2xf32>,
// OFF-SAME: tensor<2x66xf32>]}
// OFF-NOT: tx8be.ddr_layout
module attributes {tx8be.const_container = [dense<1.0> : tensor<3x2xf32>, dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0, 64.0, 65.0, 66.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0, 40.0, 41.0, 42.0, 43.0, 44.0, 45.0, 46.0, 47.0, 48.0, 49.0, 50.0, 51.0, 52.0, 53.0, 54.0, 55.0, 56.0, 57.0, 58.0, 59.0, 60.0, 61.0, 62.0, 63.0, 64.0, 65.0, 66.0]]> : tensor<2x66xf32>]} {
  func.func @main(%x: tensor<3x2xf32>, %w: tensor<2x66xf32>, %both: tensor<2x66xf32>, %wt: tensor<66x2xf32>, %direct: tensor<2x66xf32>) -> (tensor<3x66xf32>, tensor<3x66xf32>, tensor<3x66xf32>, tensor<2x66xf32>, tensor<3x66xf32>, tensor<3x66xf32>, tensor<3x66xf32>) {
    %none = tx8be.none : none
    %wn = tx8be.channel_norm %w to <Cx> : tensor<2x66xf32> -> tensor<2x66xf32>
    %0 = tx8be.gemm %x, %wn, %none : tensor<3x2xf32>, tensor<2x66xf32>, none -> tensor<3x66xf32>
    %bn = tx8be.channel_norm %both to <Cx> : tensor<2x66xf32> -> tensor<2x66xf32>
    %1 = tx8be.gemm %x, %bn, %none : tensor<3x2xf32>, tensor<2x66xf32>, none -> tensor<3x66xf32>
    %2 = tx8be.relu %both : tensor<2x66xf32> -> tensor<2x66xf32>
    %3 = tx8be.gemm %x, %wt, %none transpose_b : tensor<3x2xf32>, tensor<66x2xf32>, none -> tensor<3x66xf32>
    %4 = tx8be.gemm %x, %direct, %none : tensor<3x2xf32>, tensor<2x66xf32>, none -> tensor<3x66xf32>
    %c = tx8be.load_const[1] : tensor<2x66xf32>
    %cn = tx8be.channel_norm %c to <Cx> : tensor<2x66xf32> -> tensor<2x66xf32>
    %5 = tx8be.gemm %x, %cn, %none : tensor<3x2xf32>, tensor<2x66xf32>, none -> tensor<3x66xf32>
    %a = tx8be.load_const[0] : tensor<3x2xf32>
    %an = tx8be.channel_norm %a to <Cx> : tensor<3x2xf32> -> tensor<3x2xf32>
    %6 = tx8be.gemm %an, %direct, %none : tensor<3x2xf32>, tensor<2x66xf32>, none -> tensor<3x66xf32>
    return %0, %1, %3, %2, %4, %5, %6 : tensor<3x66xf32>, tensor<3x66xf32>, tensor<3x66xf32>, tensor<2x66xf32>, tensor<3x66xf32>, tensor<3x66xf32>, tensor<3x66xf32>
  }
}
