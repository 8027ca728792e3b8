/* Shared pieces of hivm-bind-sub-block and hivm-map-for-to-sub-block. */
#ifndef NPUC_TRANSFORMS_SUBBLOCK_H
#define NPUC_TRANSFORMS_SUBBLOCK_H

#include <mlir-c/IR.h>
#include <stdbool.h>

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

#endif
