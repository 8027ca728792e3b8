// RUN: npuc-opt %s -o %t && FileCheck %s < %t
// RUN: npuc-opt %t | diff -u %t -
// Forms the reader accepts that the printer writes another way: enums in
// their full form inside clauses, clauses in another order than the
// table's. Each prints in the table's form.

// CHECK-LABEL: func.func @full_form_enums
func.func @full_form_enums(%src: memref<4x8xf16>, %dst: memref<4x8xf16>, %v: f16, %i: memref<4x8xi32>, %b: memref<4x8xi1>) {
  // CHECK: hivm.hir.load ins(%{{.*}} : memref<4x8xf16>) outs(%{{.*}} : memref<4x8xf16>) pad_mode = <PadValue> pad_value = %{{.*}} : f16
  hivm.hir.load ins(%src : memref<4x8xf16>) outs(%dst : memref<4x8xf16>) pad_mode = #hivm.padmode<PadValue> pad_value = %v : f16
  // CHECK: hivm.hir.vcmp ins({{.*}}) outs(%{{.*}} : memref<4x8xi1>) compare_mode = <lt>
  hivm.hir.vcmp ins(%src, %dst : memref<4x8xf16>, memref<4x8xf16>) outs(%b : memref<4x8xi1>) compare_mode = #hivm.compare_mode<lt>
  // The table's order is cast, then round_mode.
  // CHECK: hivm.hir.vcast ins(%{{.*}} : memref<4x8xf16>) outs(%{{.*}} : memref<4x8xi32>) cast = <cast_unsigned> round_mode = <trunc>
  hivm.hir.vcast ins(%src : memref<4x8xf16>) outs(%i : memref<4x8xi32>) round_mode = #hivm.round_mode<trunc> cast = <cast_unsigned>
  return
}

// CHECK-LABEL: func.func @clause_order
func.func @clause_order(%src: memref<16xf32>, %dst: memref<16xf32>, %v: f32, %n: index) {
  // CHECK: hivm.hir.load ins({{.*}}) outs({{.*}}) pad_mode = <PadValue> pad_value = %{{.*}} : f32 left_padding_num = %{{.*}} : index init_out_buffer = true
  hivm.hir.load ins(%src : memref<16xf32>) outs(%dst : memref<16xf32>) pad_mode = <PadValue> pad_value = %v : f32 init_out_buffer = true left_padding_num = %n : index
  return
}


// sync_block as bishengir writes it (the mode in full form, the clauses
// without spaces around `=`), and npuc's earlier `<mode> flag = N`.
// CHECK-LABEL: func.func @sync_block_forms
func.func @sync_block_forms(%ffts: i64) {
  // CHECK: hivm.hir.sync_block[<ALL>, 1 : i16] ffts_base_addr = %{{.*}} tcube_pipe = <PIPE_FIX> tvector_pipe = <PIPE_MTE3>
  hivm.hir.sync_block[#hivm.sync_block_mode<ALL>, 1 : i16]
            ffts_base_addr = %ffts
            tcube_pipe=#hivm.pipe<PIPE_FIX>
            tvector_pipe=#hivm.pipe<PIPE_MTE3>
  // CHECK: hivm.hir.sync_block[<ALL_CUBE>] flag = 3
  hivm.hir.sync_block <ALL_CUBE> flag = 3
  return
}
