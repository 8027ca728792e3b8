/* Dimension analyzer of 1:2 sub-block tiling (hivm-bind-sub-block): picks
 * the axis along which every store-like leaf of an AIV function is cut in
 * two halves, one per vector sub-block.
 *
 * Every dimension of every shaped value is a node; ops that carry a
 * dimension from one value to another (elementwise ops, broadcasts outside
 * their broadcast dims, reductions outside their reduced dims, expand and
 * collapse through the outermost non-unit dim of each group, transposes
 * through their permutation, slices, loads/stores, casts, loop and if
 * results, iter_args and yields) join the nodes in a union-find. A class is
 * then one logical axis of the kernel. The chosen class must hold a static,
 * even, not reduced dim of the leaves it tiles whose half keeps DMA rows
 * 32-byte aligned; among those the class tiling the most leaves wins, then
 * the one found on the outermost dim. Leaves that do not hold the chosen
 * class stay whole (only sub-block 0 runs them).
 *
 * A class holding two different dims of one value (a broadcast joined two
 * axes) is reported: tiling still works, but bubbling must not rely on
 * exactness (strict mode goes off). One walk plus near-constant union-find
 * steps per dim: linear in the size of the function. */
#ifndef NPUC_DIMENSIONANALYZER_H
#define NPUC_DIMENSIONANALYZER_H

#include "npuc/OpList.h"
#include "npuc/OpTable.h"
#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct {
  MlirOperation op; /* the store-like op */
  MlirValue value;  /* what it stores (its `src`) */
  int dim;          /* the dim of `value` to halve; -1: leave it whole */
  /* The length the two halves share: the dim's size, or for a window the
   * size of the sliced dim. A window store writes `tensor.extract_slice
   * %x[offs][sizes]` (unit strides, %x statically shaped) into
   * `memref.subview %d[offs2][sizes]` of the same sizes: when its own dim
   * cannot be halved (dynamic, odd), %x is, and each sub-block stores the
   * part of the window inside its half of %x (at the matching place of
   * %d). */
  int64_t extent;
  bool window;
  MlirOperation slice, view; /* the window's ops (null: not a window) */
} npuc_dim_leaf;

/* A tightly coupled buffer (`annotation.mark %alloc {hivm.tightly_coupled_
 * buffer = #hivm.tightly_coupled_buffer<id>}`, the UB buffer the cube's
 * fixpipe writes) with a dim in the chosen axis: the cube side halves it
 * too (SubBlockCube.c). */
typedef struct {
  MlirOperation mark;
  int64_t id;
  int dim; /* the dim of the marked buffer in the chosen axis */
} npuc_dim_tcb;

typedef struct {
  npuc_dim_leaf *leaves; /* store-like ops in walk order (malloc'd) */
  size_t num_leaves;
  size_t num_tiled; /* leaves with dim >= 0 */
  /* The chosen axis joins two dims of one value through a broadcast: the
   * op defining that value (the function when it is a block argument). */
  bool broadcast_across;
  MlirOperation broadcast_at;
  /* The memref each load-like op reads (its first `src` operand, when a
   * memref), in walk order (malloc'd): tiling checks that no halved store
   * writes memory a load reads, without a walk of its own. */
  MlirValue *loads;
  size_t num_loads;
  /* Every op of the function in walk order (pre-order), as analyzed: a
   * caller looking for ops before it changes the IR needs no walk. */
  npuc_op_list ops;
  /* The tightly coupled buffers cut along the chosen axis (malloc'd). */
  npuc_dim_tcb *tcbs;
  size_t num_tcbs;
  /* When no axis was found (num_tiled == 0 with leaves): why, and the op
   * it is about. */
  const char *reason; /* points into reason_buf */
  MlirOperation culprit;
  char reason_buf[160];
} npuc_dim_result;

/* Analyzes `func`. Store-like ops are the hivm ops with the store-like
 * trait in `reg`. Returns false only when out of memory. */
bool npuc_dim_analyze(MlirOperation func, const npuc_op_registry *reg,
                      npuc_dim_result *out);
void npuc_dim_result_free(npuc_dim_result *r);

/* The id of a tightly coupled buffer's mark (`annotation.mark
 * {hivm.tightly_coupled_buffer = #hivm.tightly_coupled_buffer<id>}`), or
 * -1 for any other op. */
int64_t npuc_dim_tcb_id(MlirOperation op);

/* Is `t` a memref in UB ("#hivm.address_space<ub>")? */
bool npuc_dim_ub_memref(MlirType t);
/* Is the hacc.target around `op` of the Ascend910_95 or Ascend950 series
 * (fixpipes with dual destinations; bishengir's register-based targets
 * with Ascend310B if `or_310b`)? */
bool npuc_dim_target_950(MlirOperation op, bool or_310b);

/* The operand index of the stored value of a store-like op (its first
 * `src` operand), or -1. */
intptr_t npuc_dim_stored_operand(const npuc_op_registry *reg, MlirOperation op);

#endif
