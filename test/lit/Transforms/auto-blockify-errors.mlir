// Errors: a device entry that reads the block index without a
// logical_block_num mark, a physical count that can neither be read from
// the target spec nor given, a bad auto_blockify_size.
// Each fails the pass (and npuc-opt).
// RUN: npuc-opt %s --split-input-file --verify-diagnostics -auto-blockify-parallel-loop -o %t.out
// RUN: not npuc-opt %s --split-input-file -auto-blockify-parallel-loop 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FAIL
// FAIL-COUNT-9: error:
// FAIL-NOT: error:
// FAIL-NOT: func.func

module attributes {hivm.module_core_type = #hivm.module_core_type<AIV>} {
  // expected-error@+1 {{logical block number not found: mark it with annotation.mark %n {logical_block_num}}}
  func.func @no_mark(%out: memref<64xi32>) attributes {hacc.entry} {
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
}

// -----

// A mark with some other attribute is not the count.
module attributes {hivm.module_core_type = #hivm.module_core_type<AIV>} {
  // expected-error@+1 {{logical block number not found}}
  func.func @other_mark(%out: memref<64xi32>, %n: i32) attributes {hacc.entry} {
    annotation.mark %n {block_num} : i32
    scf.execute_region {
      %b = hivm.hir.get_block_idx -> i64
      %i = arith.index_cast %b : i64 to index
      %v = arith.trunci %b : i64 to i32
      memref.store %v, %out[%i] : memref<64xi32>
      scf.yield
    }
    return
  }
}

// -----

// No core type anywhere: nothing says which cores to count.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<#dlti.dl_entry<"CUBE_CORE_COUNT", 20 : i32>, #dlti.dl_entry<"VECTOR_CORE_COUNT", 40 : i32>>>} {
  // expected-error@+1 {{physical block number cannot be inferred: @no_core_type has no hivm.func_core_type and its module no hivm.module_core_type; pass physical-block-num=N}}
  func.func @no_core_type(%out: memref<64xi32>, %n: i32) attributes {hacc.entry} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
}

// -----

// A core type the spec has no count for.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<#dlti.dl_entry<"VECTOR_CORE_COUNT", 40 : i32>>>} {
  // expected-error@+1 {{physical block number cannot be inferred: the target spec has no positive CUBE_CORE_COUNT for @aic_without_count; pass physical-block-num=N}}
  func.func @aic_without_count(%out: memref<64xi32>, %n: i32) attributes {hacc.entry, hivm.func_core_type = #hivm.func_core_type<AIC>} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
}

// -----

// No spec at all.
module attributes {hivm.module_core_type = #hivm.module_core_type<AIV>} {
  // expected-error@+1 {{physical block number cannot be inferred: the target spec has no positive VECTOR_CORE_COUNT}}
  func.func @no_spec(%out: memref<64xi32>, %n: i32) attributes {hacc.entry} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
}

// -----

// A zero count in the spec is no count.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<#dlti.dl_entry<"VECTOR_CORE_COUNT", 0 : i32>>>, hivm.module_core_type = #hivm.module_core_type<AIV>} {
  // expected-error@+1 {{physical block number cannot be inferred: the target spec has no positive VECTOR_CORE_COUNT}}
  func.func @zero_count(%out: memref<64xi32>, %n: i32) attributes {hacc.entry} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
}

// -----

module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<#dlti.dl_entry<"VECTOR_CORE_COUNT", 40 : i32>>>, hivm.module_core_type = #hivm.module_core_type<AIV>} {
  // expected-error@+1 {{auto_blockify_size must be a positive integer}}
  func.func @zero_size(%out: memref<64xi32>, %n: i32) attributes {hacc.entry, auto_blockify_size = 0 : i64} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
  // expected-error@+1 {{auto_blockify_size must be a positive integer}}
  func.func @string_size(%out: memref<64xi32>, %n: i32) attributes {hacc.entry, auto_blockify_size = "4"} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
}

// -----

// The loop steps by physical * size in the count's type.
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"NPU" : #hacc.target_device_spec<#dlti.dl_entry<"VECTOR_CORE_COUNT", 40 : i32>>>, hivm.module_core_type = #hivm.module_core_type<AIV>} {
  // expected-error@+1 {{40 physical blocks of 4 logical blocks each do not fit the type of the logical block number}}
  func.func @too_wide(%out: memref<64xi32>, %n: i8) attributes {hacc.entry, auto_blockify_size = 4 : i64} {
    annotation.mark %n {logical_block_num} : i8
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
}
