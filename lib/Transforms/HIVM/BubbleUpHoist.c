/* Dominance for the bubble-up patterns, and moving the side-effect-free
 * ops defining a slice's dynamic parts before the op that needs them. */
#include "BubbleUpInternal.h"

static bool is_before(MlirOperation a, MlirOperation b, MlirBlock block);

bool bub_dominates(MlirValue v, MlirOperation op) {
  if (mlirValueIsABlockArgument(v)) {
    MlirBlock owner = mlirBlockArgumentGetOwner(v);
    for (MlirOperation cur = op; !mlirOperationIsNull(cur);
         cur = mlirOperationGetParentOperation(cur))
      if (mlirBlockEqual(mlirOperationGetBlock(cur), owner))
        return true;
    return false;
  }
  MlirOperation def = mlirOpResultGetOwner(v);
  MlirBlock block = mlirOperationGetBlock(def);
  for (MlirOperation cur = op; !mlirOperationIsNull(cur);
       cur = mlirOperationGetParentOperation(cur))
    if (mlirBlockEqual(mlirOperationGetBlock(cur), block))
      return !mlirOperationEqual(def, cur) && is_before(def, cur, block);
  return false;
}

/* Is `a` before `b` in `block`? Index arithmetic that slices use is mostly
 * computed near the top of its block (sub-block offsets are): a short walk
 * from the block's start answers that without MLIR's op order, which every
 * op a pattern moves invalidates, and which then costs a renumbering of
 * the whole block at the next query. */
static bool is_before(MlirOperation a, MlirOperation b, MlirBlock block) {
  MlirOperation k = mlirBlockGetFirstOperation(block);
  for (int n = 0; n < 64 && !mlirOperationIsNull(k);
       n++, k = mlirOperationGetNextInBlock(k)) {
    if (mlirOperationEqual(k, a))
      return true;
    if (mlirOperationEqual(k, b))
      return false;
  }
  return mlirOperationIsBeforeInBlock(a, b);
}

static bool hoistable(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return mlirOperationGetNumRegions(op) == 0 &&
         ((n.length > 6 && memcmp(n.data, "arith.", 6) == 0) ||
          npuc_op_is(op, "affine.apply"));
}

/* With `dry`, only says whether the move is possible. */
static bool hoist(bub_rw *r, MlirValue v, MlirOperation op, int depth,
                  bool dry) {
  if (bub_dominates(v, op))
    return true;
  if (depth > 8 || !mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!hoistable(def) ||
      !mlirBlockEqual(mlirOperationGetBlock(def), mlirOperationGetBlock(op)))
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(def); i++)
    if (!hoist(r, mlirOperationGetOperand(def, i), op, depth + 1, dry))
      return false;
  if (!dry)
    mlirRewriterBaseMoveOpBefore(r->rw, def, op);
  return true;
}

bool bub_slice_hoist(bub_rw *r, MlirOperation op) {
  /* Usually they dominate already: then there is nothing to move. */
  MlirValue dyn[2 * BUB_MAX_RANK];
  int n = 0;
  for (int d = 0; d < r->s.rank; d++) {
    if (!mlirValueIsNull(r->s.off[d].v) && !bub_dominates(r->s.off[d].v, op))
      dyn[n++] = r->s.off[d].v;
    if (!mlirValueIsNull(r->s.size[d].v) && !bub_dominates(r->s.size[d].v, op))
      dyn[n++] = r->s.size[d].v;
  }
  for (int pass = 0; pass < 2; pass++) /* check everything, then move */
    for (int i = 0; i < n; i++)
      if (!hoist(r, dyn[i], op, 0, pass == 0))
        return false;
  return true;
}
