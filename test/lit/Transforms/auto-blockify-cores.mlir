// The physical block count: VECTOR_CORE_COUNT for AIV kernels,
// CUBE_CORE_COUNT for AIC and mix kernels (and the vector half of a mix
// kernel), the function's hivm.func_core_type before the module's
// hivm.module_core_type; the physical-block-num option wins over all.
// RUN: npuc-opt %s --split-input-file -auto-blockify-parallel-loop | FileCheck %s
// RUN: npuc-opt %s --split-input-file -auto-blockify-parallel-loop=physical-block-num=7 \
// RUN:   | FileCheck %s --check-prefix=OPT
// RUN: npuc-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(auto-blockify-parallel-loop{physical-block-num=7 mode=ceildiv})' \
// RUN:   | FileCheck %s --check-prefix=OPT-CEIL

// CHECK-LABEL: func.func @aic
// CHECK-SAME: npuc.physical_block_num = 20 : i64
// CHECK: %[[P:.*]] = arith.constant 20 : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %arg1 step %[[P]] : i32
// OPT-LABEL: func.func @aic
// OPT-SAME: npuc.physical_block_num = 7 : i64
// OPT: %[[P:.*]] = arith.constant 7 : i32
// OPT: scf.for %{{.*}} = %{{.*}} to %arg1 step %[[P]] : i32
// OPT-CEIL-LABEL: func.func @aic
// OPT-CEIL: %[[P:.*]] = arith.constant 7 : i32
// OPT-CEIL: arith.ceildivsi %arg1, %[[P]] : i32
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<#dlti.dl_entry<"AI_CORE_COUNT", 20 : i32>, #dlti.dl_entry<"CUBE_CORE_COUNT", 20 : i32>, #dlti.dl_entry<"VECTOR_CORE_COUNT", 40 : i32>>>} {
  func.func @aic(%out: memref<64xi32>, %n: i32) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
}

// -----

// CHECK-LABEL: func.func @aiv
// CHECK-SAME: npuc.physical_block_num = 40 : i64
// CHECK: arith.constant 40 : i32
// OPT-LABEL: func.func @aiv
// OPT-SAME: npuc.physical_block_num = 7 : i64
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<#dlti.dl_entry<"AI_CORE_COUNT", 20 : i32>, #dlti.dl_entry<"CUBE_CORE_COUNT", 20 : i32>, #dlti.dl_entry<"VECTOR_CORE_COUNT", 40 : i32>>>} {
  func.func @aiv(%out: memref<64xi32>, %n: i32) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
}

// -----

// The module's core type when the function has none.
// CHECK-LABEL: func.func @module_aic
// CHECK-SAME: npuc.physical_block_num = 20 : i64
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<#dlti.dl_entry<"CUBE_CORE_COUNT", 20 : i32>, #dlti.dl_entry<"VECTOR_CORE_COUNT", 40 : i32>>>, hivm.module_core_type = #hivm.module_core_type<AIC>} {
  func.func @module_aic(%out: memref<64xi32>, %n: i32) attributes {hacc.entry} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
}

// -----

// The function's core type before the module's.
// CHECK-LABEL: func.func @func_wins
// CHECK-SAME: npuc.physical_block_num = 40 : i64
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<#dlti.dl_entry<"CUBE_CORE_COUNT", 20 : i32>, #dlti.dl_entry<"VECTOR_CORE_COUNT", 40 : i32>>>, hivm.module_core_type = #hivm.module_core_type<AIC>} {
  func.func @func_wins(%out: memref<64xi32>, %n: i32) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
}

// -----

// Mix kernels count blocks in cube cores: one cube core and its vector
// cores form a block, also for the vector half (hivm.part_of_mix).
// CHECK-LABEL: func.func @mix
// CHECK-SAME: npuc.physical_block_num = 24 : i64
// CHECK-LABEL: func.func @mix_vector_half
// CHECK-SAME: npuc.physical_block_num = 24 : i64
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<#dlti.dl_entry<"CUBE_CORE_COUNT", 24 : i32>, #dlti.dl_entry<"VECTOR_CORE_COUNT", 48 : i32>>>, hivm.module_core_type = #hivm.module_core_type<MIX>} {
  func.func @mix(%out: memref<64xi32>, %n: i32) attributes {hacc.entry} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
  func.func @mix_vector_half(%out: memref<64xi32>, %n: i32) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIV>, hivm.part_of_mix} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
}

// -----

// The modern DLTI form, and a spec on an enclosing module.
// CHECK-LABEL: func.func @modern_spec
// CHECK-SAME: npuc.physical_block_num = 32 : i64
// CHECK: arith.constant 32 : i32
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" = #dlti.target_device_spec<"CUBE_CORE_COUNT" = 16 : i32, "VECTOR_CORE_COUNT" = 32 : i32>>} {
  module @inner attributes {hivm.module_core_type = #hivm.module_core_type<AIV>} {
    func.func @modern_spec(%out: memref<64xi32>, %n: i32) attributes {hacc.entry} {
      annotation.mark %n {logical_block_num} : i32
      %b = hivm.hir.get_block_idx -> i64
      %i = arith.index_cast %b : i64 to index
      %v = arith.trunci %b : i64 to i32
      memref.store %v, %out[%i] : memref<64xi32>
      return
    }
  }
}
