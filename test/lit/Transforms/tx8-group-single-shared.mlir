// tx8-group-single with a channel_norm several ops read (merged by
// tx8-layout-align-opt's RedundantChannelNormErase, or a graph input
// several ops read converted): every reader that loads it gets its own
// copy inside its group, as a single reader does; readers that read DDR
// (reshape, the return) keep the original; one the producer's group takes
// (before its store) stays shared.
// RUN: npuc-opt %s --split-input-file --tx8-group-single | FileCheck %s

// Two batchnorms share the Cx conversion of their four vectors, and the
// second one and the add the NCx conversion of the graph input %y.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x4x16xf32>, %[[Y:[^:]*]]: tensor<2x4x16xf32>, %[[S:[^:]*]]: tensor<16xf32>, %[[O:[^:]*]]: tensor<16xf32>, %[[M:[^:]*]]: tensor<16xf32>, %[[V:[^:]*]]: tensor<16xf32>)
// CHECK-NEXT: %[[G0:.*]] = tx8be.group(%[[X]], %[[S]], %[[O]], %[[M]], %[[V]]) {{.*}}group_id = 0 : si32
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<2x4x16xf32>, %[[A1:.*]]: tensor<16xf32>, %[[A2:.*]]: tensor<16xf32>, %[[A3:.*]]: tensor<16xf32>, %[[A4:.*]]: tensor<16xf32>):
// CHECK-NEXT: %[[NX:.*]] = tx8be.channel_norm %[[A0]] to <NCx>
// CHECK-NEXT: %[[NS:.*]] = tx8be.channel_norm %[[A1]] to <Cx>
// CHECK-NEXT: %[[NO:.*]] = tx8be.channel_norm %[[A2]] to <Cx>
// CHECK-NEXT: %[[NM:.*]] = tx8be.channel_norm %[[A3]] to <Cx>
// CHECK-NEXT: %[[NV:.*]] = tx8be.channel_norm %[[A4]] to <Cx>
// CHECK-NEXT: %[[B0:.*]] = tx8be.batchnorm_inference %[[NX]], %[[NS]], %[[NO]], %[[NM]], %[[NV]]
// CHECK-NEXT: tx8be.return %[[B0]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[G1:.*]] = tx8be.group(%[[Y]], %[[S]], %[[O]], %[[M]], %[[V]]) {{.*}}group_id = 1 : si32
// CHECK-NEXT: ^bb0(%[[A5:.*]]: tensor<2x4x16xf32>, %[[A6:.*]]: tensor<16xf32>, %[[A7:.*]]: tensor<16xf32>, %[[A8:.*]]: tensor<16xf32>, %[[A9:.*]]: tensor<16xf32>):
// CHECK-NEXT: %[[NY:.*]] = tx8be.channel_norm %[[A5]] to <NCx>
// CHECK-NEXT: %[[NS1:.*]] = tx8be.channel_norm %[[A6]] to <Cx>
// CHECK-NEXT: %[[NO1:.*]] = tx8be.channel_norm %[[A7]] to <Cx>
// CHECK-NEXT: %[[NM1:.*]] = tx8be.channel_norm %[[A8]] to <Cx>
// CHECK-NEXT: %[[NV1:.*]] = tx8be.channel_norm %[[A9]] to <Cx>
// CHECK-NEXT: %[[B1:.*]] = tx8be.batchnorm_inference %[[NY]], %[[NS1]], %[[NO1]], %[[NM1]], %[[NV1]]
// CHECK-NEXT: tx8be.return %[[B1]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[G2:.*]] = tx8be.group(%[[G0]], %[[G1]]) {{.*}}group_id = 2 : si32
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.add
// CHECK-NEXT: tx8be.return
// CHECK-NEXT: }
// CHECK-NEXT: %[[G3:.*]] = tx8be.group(%[[Y]], %[[G2]]) {{.*}}group_id = 3 : si32
// CHECK-NEXT: ^bb0(%[[A10:.*]]: tensor<2x4x16xf32>, %[[A11:.*]]: tensor<2x4x16xf32>):
// CHECK-NEXT: %[[NY2:.*]] = tx8be.channel_norm %[[A10]] to <NCx>
// CHECK-NEXT: %[[AD:.*]] = tx8be.add %[[A11]], %[[NY2]]
// CHECK-NEXT: tx8be.return %[[AD]]
// CHECK-NEXT: }
// CHECK-NEXT: return %[[G3]]
// No shared channel_norm is left at the top level.
// CHECK-NOT: tx8be.channel_norm
module {
  func.func @main(%x: tensor<2x4x16xf32>, %y: tensor<2x4x16xf32>, %s: tensor<16xf32>, %o: tensor<16xf32>, %m: tensor<16xf32>, %v: tensor<16xf32>) -> tensor<2x4x16xf32> {
    %nx = tx8be.channel_norm %x to <NCx> : tensor<2x4x16xf32> -> tensor<2x4x16xf32>
    %ns = tx8be.channel_norm %s to <Cx> : tensor<16xf32> -> tensor<16xf32>
    %no = tx8be.channel_norm %o to <Cx> : tensor<16xf32> -> tensor<16xf32>
    %nm = tx8be.channel_norm %m to <Cx> : tensor<16xf32> -> tensor<16xf32>
    %nv = tx8be.channel_norm %v to <Cx> : tensor<16xf32> -> tensor<16xf32>
    %0 = tx8be.batchnorm_inference %nx, %ns, %no, %nm, %nv : tensor<2x4x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<2x4x16xf32>
    %ny = tx8be.channel_norm %y to <NCx> : tensor<2x4x16xf32> -> tensor<2x4x16xf32>
    %1 = tx8be.batchnorm_inference %ny, %ns, %no, %nm, %nv : tensor<2x4x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32> -> tensor<2x4x16xf32>
    %2 = tx8be.add %0, %1 : tensor<2x4x16xf32>, tensor<2x4x16xf32> -> tensor<2x4x16xf32>
    %3 = tx8be.add %2, %ny : tensor<2x4x16xf32>, tensor<2x4x16xf32> -> tensor<2x4x16xf32>
    return %3 : tensor<2x4x16xf32>
  }
}

// -----

// A chain of shared channel_norms: both are copied for each reader, the
// inner one for each copy of the outer. The conversion of an op's result
// that other ops also read is copied too (it cannot go with the producer,
// whose group must yield the unconverted value as well).
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:[^:]*]]: tensor<4x8xf16>)
// CHECK-NEXT: %[[G0:.*]] = tx8be.group(%[[X]]) {{.*}}group_id = 0 : si32
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<4x8xf16>):
// CHECK-NEXT: %[[C0:.*]] = tx8be.channel_norm %[[A0]] to <Cx>
// CHECK-NEXT: %[[T0:.*]] = tx8be.channel_norm %[[C0]] to <Tensor>
// CHECK-NEXT: %[[R:.*]] = tx8be.relu %[[T0]]
// CHECK-NEXT: tx8be.return %[[R]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[G1:.*]] = tx8be.group(%[[X]]) {{.*}}group_id = 1 : si32
// CHECK-NEXT: ^bb0(%[[A1:.*]]: tensor<4x8xf16>):
// CHECK-NEXT: %[[C1:.*]] = tx8be.channel_norm %[[A1]] to <Cx>
// CHECK-NEXT: %[[T1:.*]] = tx8be.channel_norm %[[C1]] to <Tensor>
// CHECK-NEXT: %[[E:.*]] = tx8be.exp %[[T1]]
// CHECK-NEXT: tx8be.return %[[E]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[G2:.*]] = tx8be.group(%[[G1]]) {{.*}}group_id = 2 : si32
// CHECK-NEXT: ^bb0(%[[A2:.*]]: tensor<4x8xf16>):
// CHECK-NEXT: %[[N2:.*]] = tx8be.channel_norm %[[A2]] to <Cx>
// CHECK-NEXT: tx8be.abs %[[N2]]
// CHECK: %[[G3:.*]] = tx8be.group(%[[G1]]) {{.*}}group_id = 3 : si32
// CHECK-NEXT: ^bb0(%[[A3:.*]]: tensor<4x8xf16>):
// CHECK-NEXT: %[[N3:.*]] = tx8be.channel_norm %[[A3]] to <Cx>
// CHECK-NEXT: tx8be.sqrt %[[N3]]
// CHECK: return %[[G0]], %[[G1]], %[[G2]], %[[G3]]
// CHECK-NOT: tx8be.channel_norm
module {
  func.func @main(%x: tensor<4x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>) {
    %c = tx8be.channel_norm %x to <Cx> : tensor<4x8xf16> -> tensor<4x8xf16>
    %t = tx8be.channel_norm %c to <Tensor> : tensor<4x8xf16> -> tensor<4x8xf16>
    %0 = tx8be.relu %t : tensor<4x8xf16> -> tensor<4x8xf16>
    %1 = tx8be.exp %t : tensor<4x8xf16> -> tensor<4x8xf16>
    %n = tx8be.channel_norm %1 to <Cx> : tensor<4x8xf16> -> tensor<4x8xf16>
    %2 = tx8be.abs %n : tensor<4x8xf16> -> tensor<4x8xf16>
    %3 = tx8be.sqrt %n : tensor<4x8xf16> -> tensor<4x8xf16>
    return %0, %1, %2, %3 : tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>, tensor<4x8xf16>
  }
}

// -----

// Readers in DDR keep the original: the reshape (need_load 0) reads it
// from a group of its own, the relu gets a copy. A conversion that is its
// producer's only reader goes into the producer's group, after it, and
// stays shared: converted once, before the store, read by both from DDR.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x4x8xf16>)
// CHECK-NEXT: %[[G0:.*]] = tx8be.group(%[[X]]) {{.*}}group_id = 0 : si32
// CHECK-NEXT: ^bb0(%[[A0:.*]]: tensor<2x4x8xf16>):
// CHECK-NEXT: tx8be.channel_norm %[[A0]] to <Tensor>
// CHECK-NEXT: tx8be.return
// CHECK-NEXT: }
// CHECK-NEXT: %[[G1:.*]] = tx8be.group(%[[G0]]) {{.*}}group_id = 1 : si32, group_tag = 2 : i32}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tx8be.reshape
// CHECK: %[[G2:.*]] = tx8be.group(%[[X]]) {{.*}}group_id = 2 : si32
// CHECK-NEXT: ^bb0(%[[A2:.*]]: tensor<2x4x8xf16>):
// CHECK-NEXT: %[[N2:.*]] = tx8be.channel_norm %[[A2]] to <Tensor>
// CHECK-NEXT: tx8be.relu %[[N2]]
// CHECK: %[[G3:.*]] = tx8be.group(%[[X]]) {{.*}}group_id = 3 : si32
// CHECK-NEXT: ^bb0(%[[A3:.*]]: tensor<2x4x8xf16>):
// CHECK-NEXT: %[[E:.*]] = tx8be.exp %[[A3]]
// CHECK-NEXT: %[[NE:.*]] = tx8be.channel_norm %[[E]] to <Tensor>
// CHECK-NEXT: tx8be.return %[[NE]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[G4:.*]] = tx8be.group(%[[G3]]) {{.*}}group_id = 4 : si32
// CHECK-NEXT: ^bb0(%[[A4:.*]]: tensor<2x4x8xf16>):
// CHECK-NEXT: tx8be.abs %[[A4]]
// CHECK: %[[G5:.*]] = tx8be.group(%[[G3]]) {{.*}}group_id = 5 : si32
// CHECK-NEXT: ^bb0(%[[A5:.*]]: tensor<2x4x8xf16>):
// CHECK-NEXT: tx8be.sqrt %[[A5]]
// CHECK: return %[[G1]], %[[G2]], %[[G4]], %[[G5]]
module {
  func.func @main(%x: tensor<2x4x8xf16>) -> (tensor<8x8xf16>, tensor<2x4x8xf16>, tensor<2x4x8xf16>, tensor<2x4x8xf16>) {
    %n = tx8be.channel_norm %x to <Tensor> : tensor<2x4x8xf16> -> tensor<2x4x8xf16>
    %0 = tx8be.reshape %n : tensor<2x4x8xf16> -> tensor<8x8xf16>
    %1 = tx8be.relu %n : tensor<2x4x8xf16> -> tensor<2x4x8xf16>
    %2 = tx8be.exp %x : tensor<2x4x8xf16> -> tensor<2x4x8xf16>
    %e = tx8be.channel_norm %2 to <Tensor> : tensor<2x4x8xf16> -> tensor<2x4x8xf16>
    %3 = tx8be.abs %e : tensor<2x4x8xf16> -> tensor<2x4x8xf16>
    %4 = tx8be.sqrt %e : tensor<2x4x8xf16> -> tensor<2x4x8xf16>
    return %0, %1, %3, %4 : tensor<8x8xf16>, tensor<2x4x8xf16>, tensor<2x4x8xf16>, tensor<2x4x8xf16>
  }
}
