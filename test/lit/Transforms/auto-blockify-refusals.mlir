// Blocks must be independent to run one after another on one core. The
// pass leaves a function unchanged, with a warning at the op that ties its
// blocks together, when the body synchronises blocks (table trait
// block-dependent), stores or updates atomically, or reads the block count;
// also for shapes it does not rewrite. With nothing to gain, or when the
// function is already blockified, a remark.
// RUN: npuc-opt %s --split-input-file --verify-diagnostics \
// RUN:   -auto-blockify-parallel-loop="physical-block-num=4 emit-remarks=true" | FileCheck %s
// CHECK-NOT: autoblockify.subloop
// CHECK-NOT: npuc.physical_block_num = 4

module {
  func.func @barrier(%out: memref<64xi32>, %n: i32) attributes {hacc.entry} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    // expected-warning@+1 {{cannot blockify @barrier: hivm.hir.sync_block synchronises with other blocks or shares a lock with them; the function is left unchanged}}
    hivm.hir.sync_block flag = 3
    return
  }
}
// CHECK-LABEL: func.func @barrier
// CHECK-NEXT: annotation.mark
// CHECK-NEXT: hivm.hir.get_block_idx

// -----

// Cross-core flags, also nested in a loop.
module {
  func.func @cross_core_flag(%out: memref<64xi32>, %n: i32) attributes {hacc.entry} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    scf.for %k = %c0 to %c2 step %c1 {
      // expected-warning@+1 {{cannot blockify @cross_core_flag: hivm.hir.sync_block_wait synchronises with other blocks}}
      hivm.hir.sync_block_wait[<VECTOR>, <PIPE_MTE1>, <PIPE_MTE3>] flag = 6
      %i = arith.index_cast %b : i64 to index
      %v = arith.trunci %b : i64 to i32
      memref.store %v, %out[%i] : memref<64xi32>
    }
    return
  }
}

// -----

module {
  func.func @lock(%out: memref<64xi32>, %n: i32) attributes {hacc.entry} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    // expected-warning@+1 {{cannot blockify @lock: hivm.hir.create_sync_block_lock synchronises with other blocks or shares a lock with them}}
    %l = hivm.hir.create_sync_block_lock : memref<1xi64>
    hivm.hir.sync_block_lock lock_var(%l : memref<1xi64>)
    %i = arith.index_cast %b : i64 to index
    %v = arith.trunci %b : i64 to i32
    memref.store %v, %out[%i] : memref<64xi32>
    hivm.hir.sync_block_unlock lock_var(%l : memref<1xi64>)
    return
  }
}

// -----

module {
  func.func @atomic_store(%src: memref<16xf32>, %out: memref<16xf32>, %n: i32) attributes {hacc.entry} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    // expected-warning@+1 {{cannot blockify @atomic_store: hivm.hir.store is an atomic store, which combines the results of blocks; the function is left unchanged}}
    hivm.hir.store ins(%src : memref<16xf32>) outs(%out : memref<16xf32>) atomic = <add>
    return
  }
}

// -----

module {
  func.func @atomic_rmw(%out: memref<16xf32>, %n: i32) attributes {hacc.entry} {
    %one = arith.constant 1.0 : f32
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b : i64 to index
    // expected-warning@+1 {{cannot blockify @atomic_rmw: memref.atomic_rmw is an atomic update, which combines the results of blocks}}
    %old = memref.atomic_rmw addf %one, %out[%i] : (f32, memref<16xf32>) -> f32
    return
  }
}

// -----

module {
  func.func @block_count(%out: memref<64xi64>, %n: i32) attributes {hacc.entry} {
    annotation.mark %n {logical_block_num} : i32
    %b = hivm.hir.get_block_idx -> i64
    // expected-warning@+1 {{cannot blockify @block_count: hivm.hir.get_block_num reads the launched block count, which blockifying changes}}
    %nb = hivm.hir.get_block_num -> i64
    %i = arith.index_cast %b : i64 to index
    memref.store %nb, %out[%i] : memref<64xi64>
    return
  }
}

// -----

// A count computed from the block index cannot be hoisted out of the loop.
module {
  func.func @count_from_index(%out: memref<64xi32>, %n: i32) attributes {hacc.entry} {
    %b = hivm.hir.get_block_idx -> i64
    %v = arith.trunci %b : i64 to i32
    %m = arith.addi %v, %n : i32
    // expected-warning@+1 {{cannot blockify @count_from_index: the logical block number depends on the block index; the function is left unchanged}}
    annotation.mark %m {logical_block_num} : i32
    %i = arith.index_cast %b : i64 to index
    memref.store %v, %out[%i] : memref<64xi32>
    return
  }
}

// -----

// Also through the region of an op the count depends on.
module {
  func.func @count_from_index_in_region(%out: memref<64xi32>, %n: i32) attributes {hacc.entry} {
    %m = scf.execute_region -> i32 {
      %b = hivm.hir.get_block_idx -> i64
      %v = arith.trunci %b : i64 to i32
      %s = arith.addi %v, %n : i32
      scf.yield %s : i32
    }
    // expected-warning@+1 {{the logical block number depends on the block index}}
    annotation.mark %m {logical_block_num} : i32
    %b2 = hivm.hir.get_block_idx -> i64
    %i = arith.index_cast %b2 : i64 to index
    memref.store %n, %out[%i] : memref<64xi32>
    return
  }
}

// -----

// expected-warning@+1 {{cannot blockify @branches: the body has more than one block}}
func.func @branches(%out: memref<64xi32>, %n: i32) attributes {hacc.entry} {
  annotation.mark %n {logical_block_num} : i32
  %b = hivm.hir.get_block_idx -> i64
  cf.br ^bb1
^bb1:
  %i = arith.index_cast %b : i64 to index
  %v = arith.trunci %b : i64 to i32
  memref.store %v, %out[%i] : memref<64xi32>
  return
}

// -----

func.func @returns_value(%n: i32) -> i64 attributes {hacc.entry} {
  annotation.mark %n {logical_block_num} : i32
  %b = hivm.hir.get_block_idx -> i64
  // expected-warning@+1 {{cannot blockify @returns_value: the body must end in a func.return without operands}}
  return %b : i64
}

// -----

func.func @count_in_region(%out: memref<64xi32>, %n: i32) attributes {hacc.entry} {
  scf.execute_region {
    %m = arith.addi %n, %n : i32
    // expected-warning@+1 {{cannot blockify @count_in_region: the logical block number is computed inside a region, not in the function body}}
    annotation.mark %m {logical_block_num} : i32
    scf.yield
  }
  %b = hivm.hir.get_block_idx -> i64
  %i = arith.index_cast %b : i64 to index
  %v = arith.trunci %b : i64 to i32
  memref.store %v, %out[%i] : memref<64xi32>
  return
}

// -----

func.func @float_count(%out: memref<64xi32>, %f: f32) attributes {hacc.entry} {
  // expected-warning@+1 {{cannot blockify @float_count: the logical block number is not an integer}}
  annotation.mark %f {logical_block_num} : f32
  %b = hivm.hir.get_block_idx -> i64
  %i = arith.index_cast %b : i64 to index
  %v = arith.trunci %b : i64 to i32
  memref.store %v, %out[%i] : memref<64xi32>
  return
}

// -----

// A constant count no larger than the physical one: every logical block
// has a core already.
func.func @small_constant(%out: memref<64xi32>) attributes {hacc.entry} {
  %n = arith.constant 4 : i32
  // expected-remark@+1 {{@small_constant left unchanged: its 4 logical blocks fit on 4 physical blocks, nothing to gain}}
  annotation.mark %n {logical_block_num} : i32
  %b = hivm.hir.get_block_idx -> i64
  %i = arith.index_cast %b : i64 to index
  %v = arith.trunci %b : i64 to i32
  memref.store %v, %out[%i] : memref<64xi32>
  return
}

// -----

// Running the pass again would loop over the loop.
// expected-remark@+1 {{@again is already blockified (npuc.physical_block_num)}}
func.func @again(%out: memref<64xi32>, %n: i32) attributes {hacc.entry, npuc.physical_block_num = 8 : i64} {
  annotation.mark %n {logical_block_num} : i32
  %b = hivm.hir.get_block_idx -> i64
  %c8 = arith.constant 8 : i32
  %lb = arith.trunci %b : i64 to i32
  scf.for %iv = %lb to %n step %c8 : i32 {
    %x = arith.extsi %iv : i32 to i64
    %i = arith.index_cast %x : i64 to index
    memref.store %iv, %out[%i] : memref<64xi32>
  } {autoblockify.subloop}
  return
}
// CHECK-LABEL: func.func @again
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK: return
