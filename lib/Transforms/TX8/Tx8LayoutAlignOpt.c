/* tx8-layout-align-opt: the seed's LayoutAlignOptPass, two greedy rewrite
 * patterns (MLIR's C API: mlirOpRewritePatternCreate and the greedy
 * driver) that remove channel_norms tx8-layout-align-to-npu made:
 *   RedundantChannelNormErase  channel_norms of one value to one layout
 *     in one block are one conversion: the first in the block stays and
 *     takes the others' users;
 *   ConstChannelNormErase  a tx8be.constant of rank <= 1 whose only user
 *     is a channel_norm is laid out that way from the start: its dev_info
 *     takes the channel_norm's layout and the channel_norm goes.
 * Merging first can leave a constant with one user, which the driver then
 * revisits (erasing an op queues its operands' producers). Constants of
 * higher rank are tx8-const-norm's, after they become load_const.
 * docs/passes/tx8-layout-align-opt.md. */
#include "Tx8LayoutSupport.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"
#include "npuc/Rewrite.h"
#include "npuc/Alloc.h"

#include <stdlib.h>
#include <string.h>

TX8L_PASS(npuc_pass_tx8_layout_align_opt, "tx8-layout-align-opt",
          "Erase redundant tx8be.channel_norm (ConstChannelNormErase, "
          "RedundantChannelNormErase)",
          align_opt);

static bool check_dev_infos(MlirOperation func);
static MlirLogicalResult redundant_channel_norm_erase(MlirRewritePattern p,
                                                      MlirOperation op,
                                                      MlirPatternRewriter rw,
                                                      void *user);
static MlirLogicalResult const_channel_norm_erase(MlirRewritePattern p,
                                                  MlirOperation op,
                                                  MlirPatternRewriter rw,
                                                  void *user);

static void
add_pattern(MlirRewritePatternSet set, MlirContext ctx, const char *root,
            MlirLogicalResult (*fn)(MlirRewritePattern, MlirOperation,
                                    MlirPatternRewriter, void *)) {
  MlirRewritePatternCallbacks cb = {NULL, NULL, fn};
  mlirRewritePatternSetAdd(
      set, mlirOpRewritePatternCreate(mlirStringRefCreateFromCString(root), 1,
                                      ctx, cb, NULL, 0, NULL));
}

static bool align_opt(MlirOperation func, const npuc_pass_options *opts,
                      const npuc_pass_context *ctx) {
  (void)opts;
  (void)ctx;
  /* The patterns rewrite dev_info; one they cannot read is an error
   * before anything changes. */
  if (!check_dev_infos(func))
    return false;
  MlirContext mctx = mlirOperationGetContext(func);
  MlirRewritePatternSet set = mlirRewritePatternSetCreate(mctx);
  add_pattern(set, mctx, "tx8be.channel_norm", redundant_channel_norm_erase);
  add_pattern(set, mctx, "tx8be.constant", const_channel_norm_erase);
  /* One sweep: every op a rewrite touches goes back on the worklist, so
   * the sweep finishes the job; a second would only rescan the function.
   * Nothing else may change: no folding, no constant CSE. */
  npuc_apply_patterns_greedily(
      func, set,
      &(npuc_greedy_options){.max_iterations = 1, .no_folding = true});
  return true;
}

static MlirWalkResult check_one(MlirOperation op, void *user) {
  bool is_cn = npuc_op_is(op, "tx8be.channel_norm");
  if (!is_cn && !npuc_op_is(op, "tx8be.constant"))
    return MlirWalkResultAdvance;
  npuc_tx8_dev_attr dev;
  npuc_tx8_layout_mode mode;
  if (npuc_tx8_op_dev_attr(op, &dev) == NPUC_TX8_ATTR_MALFORMED) {
    *(bool *)user = false; /* the reader reported it at the op */
  } else if (is_cn && !tx8l_channel_norm_target(op, &mode)) {
    npuc_pass_error(op, "channel_norm without a valid "
                        "layout");
    *(bool *)user = false;
  }
  return MlirWalkResultAdvance;
}

static bool check_dev_infos(MlirOperation func) {
  bool ok = true;
  mlirOperationWalk(func, check_one, &ok, MlirWalkPreOrder);
  return ok;
}

/* ---- RedundantChannelNormErase
 * ------------------------------------------------------ */

static bool same_conversion(MlirOperation a, MlirOperation b) {
  npuc_tx8_layout_mode ma, mb;
  return npuc_op_is(b, "tx8be.channel_norm") &&
         mlirBlockEqual(mlirOperationGetBlock(a), mlirOperationGetBlock(b)) &&
         tx8l_channel_norm_target(a, &ma) && tx8l_channel_norm_target(b, &mb) &&
         ma == mb;
}

/* All channel_norms converting op's input the same way, op among them;
 * the first in the block dominates the others' users, so it keeps them.
 * One application merges the whole set, so each value's users are scanned
 * once, not once per channel_norm. */
static MlirLogicalResult redundant_channel_norm_erase(MlirRewritePattern p,
                                                      MlirOperation op,
                                                      MlirPatternRewriter rw,
                                                      void *user) {
  (void)p, (void)user;
  MlirValue in = mlirOperationGetOperand(op, 0);
  size_t n = 0, cap = 8;
  MlirOperation *same = npuc_xmalloc(cap * sizeof *same);
  MlirOperation first = op;
  for (MlirOpOperand u = mlirValueGetFirstUse(in); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation other = mlirOpOperandGetOwner(u);
    if (mlirOperationEqual(other, op) || !same_conversion(op, other))
      continue;
    if (n == cap)
      same = npuc_xrealloc(same, (cap *= 2) * sizeof *same);
    same[n++] = other;
    if (mlirOperationIsBeforeInBlock(other, first))
      first = other;
  }
  if (n > 0) {
    same[n++] = op; /* op is in the set too; `first` is skipped below */
    MlirRewriterBase base = mlirPatternRewriterAsBase(rw);
    MlirValue keep = mlirOperationGetResult(first, 0);
    for (size_t i = 0; i < n; ++i) {
      if (mlirOperationEqual(same[i], first))
        continue;
      mlirRewriterBaseReplaceAllUsesWith(
          base, mlirOperationGetResult(same[i], 0), keep);
      mlirRewriterBaseEraseOp(base, same[i]);
    }
  }
  free(same);
  return n > 0 ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

/* ---- ConstChannelNormErase
 * ------------------------------------------------------------ */

/* The seed's condition: rank <= 1 and a channel_norm as the only user. */
static MlirLogicalResult const_channel_norm_erase(MlirRewritePattern p,
                                                  MlirOperation op,
                                                  MlirPatternRewriter rw,
                                                  void *user) {
  (void)p, (void)user;
  MlirValue c = mlirOperationGetResult(op, 0);
  int rank = tx8l_rank(mlirValueGetType(c));
  MlirOpOperand use = mlirValueGetFirstUse(c);
  if (rank < 0 || rank > 1 || mlirOpOperandIsNull(use) ||
      !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
    return mlirLogicalResultFailure();
  MlirOperation cn = mlirOpOperandGetOwner(use);
  npuc_tx8_layout_mode target;
  if (!npuc_op_is(cn, "tx8be.channel_norm") ||
      !tx8l_channel_norm_target(cn, &target))
    return mlirLogicalResultFailure();
  MlirRewriterBase base = mlirPatternRewriterAsBase(rw);
  mlirRewriterBaseStartOpModification(base, op);
  tx8l_set_mem_layout(op, target); /* checked readable before the driver */
  mlirRewriterBaseFinalizeOpModification(base, op);
  mlirRewriterBaseReplaceAllUsesWith(base, mlirOperationGetResult(cn, 0), c);
  mlirRewriterBaseEraseOp(base, cn);
  return mlirLogicalResultSuccess();
}
