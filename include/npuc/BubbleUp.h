/* Bubble-up of extract slices: moves every `tensor.extract_slice` marked
 * `{to_be_bubbled_slice}` above the op that produces its source, so that op
 * computes only the slice. The rewritten producer takes marked slices of its
 * own operands, so bubbling continues upward until it reaches a stop point:
 * a block argument, `tensor.empty` (replaced by a smaller empty) or a load
 * (whose memory source is narrowed with `memref.subview`).
 *
 * One greedy rewrite pattern per op kind, written with MLIR's C
 * rewrite-pattern API (mlir-c/Rewrite.h); all of them are rooted at the
 * marked `tensor.extract_slice` and check the kind of its producer. Adding an
 * op kind is adding one pattern to the table in BubbleUpPatterns.c.
 *
 * The pass `hivm-bubble-up-extract-slice` runs them alone; sub-block tiling
 * reuses them through npuc_bubble_up_slices (or its own pattern set through
 * npuc_bubble_populate_patterns). docs/passes/hivm-bubble-up-extract-slice.md
 * describes every pattern. */
#ifndef NPUC_BUBBLEUP_H
#define NPUC_BUBBLEUP_H

#include "npuc/OpTable.h"
#include <mlir-c/IR.h>
#include <mlir-c/Rewrite.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The unit attribute that marks the slices to bubble. */
#define NPUC_BUBBLE_MARK "to_be_bubbled_slice"

typedef struct {
  /* Refuse every rewrite that is not exact from what the IR states: slices
   * of collapsed dimensions whose offsets are not provably aligned, and
   * insert_slice windows that only partly overlap the inserted region (they
   * need run-time clamping). Buffer-size hints then use the always-safe
   * bound (see sub_blocks). */
  bool strict;
  /* A dynamic size that bubbling gives a formerly static buffer is assumed
   * to be a tile of a split into this many sub-blocks: its
   * `buffer_size_in_byte` hint uses ceil(dim / sub_blocks). 1 (and strict)
   * give the whole dimension, which always holds. */
  int64_t sub_blocks;
  /* The caller made marked slices under the root: npuc_bubble_up_slices
   * does not walk it to find one first (without one it leaves the IR
   * alone, folds included). */
  bool marked;
  /* Slices of the tensor of a tightly coupled buffer (a `memref.alloc`
   * marked `hivm.tightly_coupled_buffer`, which the cube side fills or
   * reads) narrow the buffer along their one cut dim d and add
   * `{hivm.tiling_dim = d : index, tiledAlloc}` to its mark. Only where the
   * slice is a sub-block's half: the cube side then writes or reads each
   * half in its sub-block's buffer (fixpipe dual destination). Without it
   * the buffer is narrowed as any other (its marks copied) when only its
   * cast has marks or none, and the slice stays below the to_tensor when
   * the alloc read through a cast has marks. */
  bool narrow_coupled;
} npuc_bubble_options;

typedef struct {
  size_t num_rewrites; /* successful pattern applications */
  size_t num_stuck;    /* marked slices that could not move further */
  /* Rewrites that built the producer anew beside it, as it had other
   * users: readers of one value that take equal slices of it each get
   * such a copy, which compute equal values. */
  size_t num_copies;
  /* The first stuck slice (null op when none), the op it stopped at (null
   * op for a leftover loop placeholder) and, when a pattern refused it, why
   * (a static string; NULL when no pattern applies to that op kind). */
  MlirOperation first_stuck;
  MlirOperation blocker;
  const char *reason;
} npuc_bubble_report;

/* Pattern state shared by the patterns of one run (options, op table,
 * refusal reasons). Must outlive the pattern set it populates. */
typedef struct npuc_bubble_ctx npuc_bubble_ctx;

npuc_bubble_ctx *npuc_bubble_ctx_create(MlirContext ctx,
                                        const npuc_op_registry *reg,
                                        const npuc_bubble_options *opts);
void npuc_bubble_ctx_destroy(npuc_bubble_ctx *bc);

/* The patterns, in the order they are tried. */
size_t npuc_bubble_num_patterns(void);
/* "elementwise", "broadcast", "reduce", "scf.for", ... */
const char *npuc_bubble_pattern_name(size_t i);
/* One line: which producers the pattern handles. */
const char *npuc_bubble_pattern_summary(size_t i);

/* Adds the patterns named in `only` (NULL-terminated; NULL for all) to
 * `set`. Returns false for an unknown name. */
bool npuc_bubble_populate_patterns(npuc_bubble_ctx *bc,
                                   MlirRewritePatternSet set,
                                   const char *const *only);

/* Runs every pattern greedily on the regions of `root` (a function or a
 * module), then checks that each marked slice reached a stop point. Returns
 * true when all did. Emits no diagnostics: the report says what stopped.
 * On false the IR is partly rewritten and may hold `npuc.bubble_unslice`
 * placeholders that nothing can lower (a loop whose body needs the whole
 * carried value; see the pass docs): a caller that wants to fall back must
 * bubble a clone and keep the original on failure. */
bool npuc_bubble_up_slices(MlirOperation root, const npuc_op_registry *reg,
                           const npuc_bubble_options *opts,
                           npuc_bubble_report *report);

/* Is the bubble-up of a marked slice of each of `values` certain to end
 * well, before any is made? True when each slice (full rank, unit strides,
 * along any one dim) will climb, rewritten by patterns that promise to
 * succeed, up to block arguments, `tensor.empty` and
 * `bufferization.to_tensor` results, whose patterns then take it further
 * or leave it there, and every slice made on the way verifies.
 * Conservative: an op whose pattern makes no promise (today only the
 * elementwise one does), or a tensor with a dim of size 0, gives false.
 * For IR that verifies, as passes assume (an op's operands fit the
 * operand groups of its table entry). Linear in the ops
 * reached. Other marked slices under the same root are the caller's to
 * rule out. For callers that would otherwise keep a copy of the IR to
 * restore when the bubble-up fails. */
bool npuc_bubble_certain(MlirContext ctx, const npuc_op_registry *reg,
                         const MlirValue *values, size_t n);

/* Collects the report of a finished greedy run over `root` (used by
 * npuc_bubble_up_slices; for callers with their own pattern sets). Erases
 * the loop placeholders nothing uses any more. */
void npuc_bubble_check(npuc_bubble_ctx *bc, MlirOperation root,
                       npuc_bubble_report *report);

/* Is `op` a tensor.extract_slice marked to be bubbled? */
bool npuc_bubble_is_marked(MlirOperation op);

#endif
