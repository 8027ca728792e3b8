/* Shared pieces of hivm-bind-sub-block and hivm-map-for-to-sub-block. */
#ifndef NPUC_TRANSFORMS_SUBBLOCK_H
#define NPUC_TRANSFORMS_SUBBLOCK_H

#include "npuc/BuildOps.h"
#include "npuc/DimensionAnalyzer.h"
#include "npuc/OpTable.h"
#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stdint.h>

/* The marks of the loop that stands for the sub-blocks. */
#define SUB_BLOCK_LOOP_MARK "map_for_to_forall"
#define SUB_BLOCK_MAPPING "[#hivm.sub_block<x>]"
/* The guard of an op only sub-block 0 runs. */
#define SUB_BLOCK_GUARD_MARK "limit_sub_block_id0"

/* Replaces every `scf.for 0 to N step 1 {map_for_to_forall, mapping =
 * [#hivm.sub_block<x>]}` under `root` by its body, reading the index from
 * hivm.hir.get_sub_block_idx. A marked loop of another shape (results,
 * bounds other than 0..2 step 1) is an error at its location. */
bool npuc_map_sub_block_loops(MlirOperation root);

/* Wraps `op` in `scf.if (%sub_block == 0) {...} {limit_sub_block_id0}`;
 * when the op has results (destination-style tensor results), the else
 * branch yields its `inits` (one per result). `sub_block` is an index
 * value, or null to read hivm.hir.get_sub_block_idx just before `op`. */
void npuc_guard_sub_block0(MlirOperation op, MlirValue sub_block,
                           const MlirValue *inits);

/* The offsets %i * half, one per half size, made in front of `top` (the
 * sub-block loop) from the sub-block index `sub_block`: leaves cut along
 * the same axis share them, so the bubble-up patterns see equal windows
 * (an insert_slice of one half read back by another leaf composes
 * exactly). */
typedef struct {
  MlirValue sub_block;
  MlirOperation top;
  /* The hivm.hir.get_sub_block_idx `sub_block` is cast from: unregistered,
   * so the greedy driver of the bubble-up never erases it (it may erase
   * the cast and offsets once nothing reads them). */
  MlirOperation read;
  int count;
  int64_t half[16];
  MlirValue offset[16];
  /* Marked tensor slices the leaves got (npuc_sub_block_tile_leaf counts
   * them): without one there is nothing for the bubble-up patterns. */
  int tensor_slices;
} npuc_sub_block_offsets;

/* Leaves the sub-block loop `o->top` in bishengir's form once the
 * patterns are done (SubBlockLoop.c): the offsets become affine.apply of
 * its induction variable at the top of its body, the sub-block index read
 * in front of it goes, the constants of the body move to the top of the
 * function, one per value. */
void npuc_sub_block_loop_form(npuc_sub_block_offsets *o);

/* Merges the ops of our tables that compute equal values and nothing else
 * (SubBlockMerge.c): the copies the bubble-up makes of an op read by
 * several ops that all take the same half. */
void npuc_sub_block_merge_equal(MlirOperation func,
                                const npuc_op_registry *reg);

/* Cuts the leaf to its sub-block's half (SubBlockTile.c). */
void npuc_sub_block_tile_leaf(const npuc_dim_leaf *l,
                              npuc_sub_block_offsets *offsets,
                              const npuc_op_registry *reg);
/* The inits the results of a destination-style op mirror, one per result. */
void npuc_sub_block_inits(MlirOperation op, const npuc_op_registry *reg,
                          MlirValue *inits);
/* Does the leaf address its destination through offsets it carries (an
 * indirect store)? Its destination then stays whole: the offsets are
 * absolute, so each sub-block scatters its half of the values into all of
 * it. */
bool npuc_sub_block_scatters(MlirOperation op);
/* Is `t` shaped like the stored value type `vt` (dim d may be dynamic in
 * both: a window)? */
bool npuc_sub_block_like_value(MlirType t, MlirType vt, int d);

/* `tensor.insert_slice %half into %whole[.., offset at dim, ..]`, made by
 * `b`. */
MlirValue npuc_sub_block_insert_half(npuc_builder *b, MlirValue half,
                                     MlirValue whole, MlirValue offset,
                                     int dim);

/* A tightly coupled buffer an AIV function cut along `dim` (its mark has
 * `hivm.tightly_coupled_buffer<id>`). */
typedef struct {
  MlirOperation aiv;
  int64_t id;
  int dim;
} npuc_sub_block_tcb;

/* The cube side (SubBlockCube.c): in the AIC functions `aics`, the
 * fixpipes writing the tightly coupled buffers of `tcbs` get the dual
 * destination, and the buffers are halved there and in the AIV functions.
 * 1: done, 0: nothing to do, -1: a fixpipe cannot take the split (nothing
 * changed; bishengir then restores every AIV function and falls back). */
int npuc_sub_block_split_cube(const MlirOperation *aics, size_t num_aics,
                              const npuc_sub_block_tcb *tcbs, size_t n);

#endif
