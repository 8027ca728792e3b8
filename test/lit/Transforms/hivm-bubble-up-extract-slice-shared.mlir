// Values that several ops of a chain read whole share one marked slice: a
// function argument gets it at the top of the function, the tensor of a
// local buffer right after its to_tensor. Otherwise each reader gets its own.
// RUN: npuc-opt %s --split-input-file --hivm-bubble-up-extract-slice | FileCheck %s
// RUN: npuc-opt %s --split-input-file --hivm-bind-sub-block=emit-remarks=true 2>&1 | FileCheck %s --check-prefix=BIND

// Both readers of %b take the one slice of it, before everything else.
// CHECK-LABEL: func.func @arg_read_twice(
// CHECK-SAME:    %[[A:[^:]*]]: tensor<64x64xf32>, %[[B:[^:]*]]: tensor<64x64xf32>, %[[O:[^:]*]]: index)
// CHECK-NEXT:    %[[SB:.*]] = tensor.extract_slice %[[B]][%[[O]], 0] [32, 64] [1, 1] {to_be_bubbled_slice}
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<32x64xf32>
// CHECK-NEXT:    %[[SA:.*]] = tensor.extract_slice %[[A]][%[[O]], 0] [32, 64] [1, 1] {to_be_bubbled_slice}
// CHECK-NEXT:    %[[V0:.*]] = hivm.hir.vadd ins(%[[SA]], %[[SB]] : {{.*}}) outs(%[[E]] : tensor<32x64xf32>)
// CHECK-NEXT:    %[[V1:.*]] = hivm.hir.vexp ins(%[[V0]] : {{.*}}) outs(%[[E]] : tensor<32x64xf32>)
// CHECK-NEXT:    hivm.hir.vmax ins(%[[V1]], %[[SB]] : {{.*}}) outs(%[[E]] : tensor<32x64xf32>)
// CHECK-NOT:     tensor.extract_slice
func.func @arg_read_twice(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %o: index) -> tensor<32x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %0 = hivm.hir.vadd ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = hivm.hir.vexp ins(%0 : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = hivm.hir.vmax ins(%1, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = tensor.extract_slice %2[%o, 0] [32, 64] [1, 1] {to_be_bubbled_slice} : tensor<64x64xf32> to tensor<32x64xf32>
  return %s : tensor<32x64xf32>
}

// -----
// Fallback: the offset is computed in the function, after the place of a
// shared slice, so each reader of %b gets its own slice.
// CHECK-LABEL: func.func @offset_in_body(
// CHECK-SAME:    %[[A:[^:]*]]: tensor<64x64xf32>, %[[B:[^:]*]]: tensor<64x64xf32>, %[[O:[^:]*]]: index)
// CHECK:         %[[P:.*]] = arith.addi %[[O]], %{{.*}} : index
// CHECK:         %[[SB0:.*]] = tensor.extract_slice %[[B]][%[[P]], 0] [32, 64] [1, 1] {to_be_bubbled_slice}
// CHECK-NEXT:    %[[V0:.*]] = hivm.hir.vadd ins(%{{.*}}, %[[SB0]] : {{.*}})
// CHECK-NEXT:    %[[SB1:.*]] = tensor.extract_slice %[[B]][%[[P]], 0] [32, 64] [1, 1] {to_be_bubbled_slice}
// CHECK-NEXT:    hivm.hir.vmax ins(%[[V0]], %[[SB1]] : {{.*}})
func.func @offset_in_body(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %o: index) -> tensor<32x64xf32> {
  %c1 = arith.constant 1 : index
  %p = arith.addi %o, %c1 : index
  %e = tensor.empty() : tensor<64x64xf32>
  %0 = hivm.hir.vadd ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = hivm.hir.vmax ins(%0, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = tensor.extract_slice %2[%p, 0] [32, 64] [1, 1] {to_be_bubbled_slice} : tensor<64x64xf32> to tensor<32x64xf32>
  return %s : tensor<32x64xf32>
}

// -----
// A buffer's tensor read by two ops: their shared slice narrows the buffer
// once the last of them is bubbled (in the same sweep).
// CHECK-LABEL: func.func @buffer_read_twice(
// CHECK-SAME:    %[[SRC:[^:]*]]: memref<64x64xf32>, %[[A:[^:]*]]: tensor<64x64xf32>, %[[O:[^:]*]]: index)
// CHECK-NEXT:    %[[BUF:.*]] = memref.alloc() : memref<32x64xf32>
// CHECK-NEXT:    %[[V:.*]] = memref.subview %[[SRC]][%[[O]], 0] [32, 64] [1, 1]
// CHECK-NEXT:    hivm.hir.load ins(%[[V]] : {{.*}}) outs(%[[BUF]] : memref<32x64xf32>)
// CHECK-NEXT:    %[[T:.*]] = bufferization.to_tensor %[[BUF]] restrict writable : memref<32x64xf32>
// CHECK-NOT:     tensor.extract_slice %[[T]]
// CHECK:         hivm.hir.vadd ins(%{{.*}}, %[[T]] : {{.*}})
// CHECK:         hivm.hir.vmax ins(%{{.*}}, %[[T]] : {{.*}})
func.func @buffer_read_twice(%src: memref<64x64xf32>, %a: tensor<64x64xf32>, %o: index) -> tensor<32x64xf32> {
  %alloc = memref.alloc() : memref<64x64xf32>
  hivm.hir.load ins(%src : memref<64x64xf32>) outs(%alloc : memref<64x64xf32>)
  %t = bufferization.to_tensor %alloc restrict writable : memref<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %0 = hivm.hir.vadd ins(%a, %t : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = hivm.hir.vexp ins(%0 : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = hivm.hir.vmax ins(%1, %t : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %s = tensor.extract_slice %2[%o, 0] [32, 64] [1, 1] {to_be_bubbled_slice} : tensor<64x64xf32> to tensor<32x64xf32>
  return %s : tensor<32x64xf32>
}

// -----
// hivm-bind-sub-block: the tensor of %ux is also marked whole, so it stays
// whole on each sub-block; its two readers take one slice of it, right after
// the to_tensor.
// BIND:         remark: hivm-bind-sub-block: 'bufferization.to_tensor' stays whole on each sub-block
// BIND-LABEL:   func.func @whole_buffer(
// BIND:           %[[T:.*]] = bufferization.to_tensor %{{.*}} restrict writable : memref<64x64xf32> to tensor<64x64xf32>
// BIND-NEXT:      %[[S:.*]] = tensor.extract_slice %[[T]][%{{.*}}, 0] [32, 64] [1, 1] {to_be_bubbled_slice}
// BIND-NEXT:      annotation.mark %[[T]] : tensor<64x64xf32>
// BIND-NOT:       tensor.extract_slice %[[T]]
// BIND:           hivm.hir.vadd ins(%{{.*}}, %[[S]] : {{.*}})
// BIND:           hivm.hir.vmax ins(%{{.*}}, %[[S]] : {{.*}})
func.func @whole_buffer(%x: memref<64x64xf32>, %a: memref<64x64xf32>, %out: memref<64x64xf32>) attributes {hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
  %ux = memref.alloc() : memref<64x64xf32>
  hivm.hir.load ins(%x : memref<64x64xf32>) outs(%ux : memref<64x64xf32>)
  %t = bufferization.to_tensor %ux restrict writable : memref<64x64xf32> to tensor<64x64xf32>
  annotation.mark %t : tensor<64x64xf32>
  %ua = memref.alloc() : memref<64x64xf32>
  hivm.hir.load ins(%a : memref<64x64xf32>) outs(%ua : memref<64x64xf32>)
  %ta = bufferization.to_tensor %ua restrict writable : memref<64x64xf32> to tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  %0 = hivm.hir.vadd ins(%ta, %t : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %1 = hivm.hir.vexp ins(%0 : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = hivm.hir.vmax ins(%1, %t : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  hivm.hir.store ins(%2 : tensor<64x64xf32>) outs(%out : memref<64x64xf32>)
  return
}
