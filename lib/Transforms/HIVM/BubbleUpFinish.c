/* How a bubble-up rewrite ends: the producer rebuilt (in place or anew),
 * the slice replaced; why a pattern refused a slice, and the to_tensors
 * deferred within a sweep. */
#include "BubbleUpInternal.h"

#include <mlir-c/BuiltinTypes.h>

/* The replacement of a reused slice: its former users take `v`. */
static void redirect_old_uses(bub_rw *r, MlirValue v) {
  for (int i = 0; i < r->nold_uses; i++) {
    MlirOperation user = r->old_uses[i].owner;
    mlirRewriterBaseStartOpModification(r->rw, user);
    mlirOperationSetOperand(user, r->old_uses[i].index, v);
    mlirRewriterBaseFinalizeOpModification(r->rw, user);
  }
}

void bub_replace(bub_rw *r, MlirValue v) {
  MlirType want = r->slice_type;
  if (!mlirTypeEqual(mlirValueGetType(v), want)) {
    MlirOperationState st =
        mlirOperationStateGet(bub_str("tensor.cast"), r->loc);
    mlirOperationStateAddOperands(&st, 1, &v);
    mlirOperationStateAddResults(&st, 1, &want);
    v = mlirOperationGetResult(bub_create(r, &st), 0);
  }
  if (r->reused)
    redirect_old_uses(r, v);
  else
    mlirRewriterBaseReplaceOpWithValues(r->rw, r->slice_op, 1, &v);
  if (!mlirOperationIsNull(r->producer) && npuc_op_results_unused(r->producer))
    mlirRewriterBaseEraseOp(r->rw, r->producer);
  r->bc->num_rewrites++;
}

void bub_rebuild(bub_rw *r, intptr_t nopnds, const MlirValue *opnds,
                 intptr_t nres, const MlirType *res, intptr_t nset,
                 const MlirNamedAttribute *set, const char *const *drop) {
  if (!r->in_place) {
    MlirOperation op =
        bub_clone_op(r, r->producer, nopnds, opnds, nres, res, nset, set, drop);
    r->bc->num_copies++;
    bub_replace(r, mlirOperationGetResult(op, r->result_index));
    return;
  }
  /* The slice was the producer's only user: shrink the producer itself. */
  MlirOperation p = r->producer;
  bub_shrink_in_place(r, p, nopnds, opnds, nres, res, nset, set, drop);
  MlirValue v = mlirOperationGetResult(p, r->result_index);
  r->producer = (MlirOperation){NULL};
  bub_replace(r, v);
}

/* Sets the operands of `op` to `opnds`, touching only those that change:
 * each set moves a use between use lists, and an op of an elementwise run
 * keeps reading the op above it. */
static void set_changed_operands(MlirOperation op, intptr_t n,
                                 const MlirValue *opnds) {
  if (mlirOperationGetNumOperands(op) != n) {
    mlirOperationSetOperands(op, n, opnds);
    return;
  }
  for (intptr_t i = 0; i < n; i++)
    if (!mlirValueEqual(mlirOperationGetOperand(op, i), opnds[i]))
      mlirOperationSetOperand(op, i, opnds[i]);
}

void bub_shrink_in_place(bub_rw *r, MlirOperation op, intptr_t nopnds,
                         const MlirValue *opnds, intptr_t nres,
                         const MlirType *res, intptr_t nset,
                         const MlirNamedAttribute *set,
                         const char *const *drop) {
  mlirRewriterBaseStartOpModification(r->rw, op);
  set_changed_operands(op, nopnds, opnds);
  for (intptr_t i = 0; i < nres; i++)
    mlirValueSetType(mlirOperationGetResult(op, i), res[i]);
  for (const char *const *d = drop; d && *d; d++)
    mlirOperationRemoveDiscardableAttributeByName(op, bub_str(*d));
  for (intptr_t i = 0; i < nset; i++)
    mlirOperationSetDiscardableAttributeByName(
        op, mlirIdentifierStr(set[i].name), set[i].attribute);
  mlirRewriterBaseFinalizeOpModification(r->rw, op);
}

bool bub_prepare_in_place(bub_rw *r) {
  MlirOperation p = r->producer;
  if (mlirOperationGetNumRegions(p) != 0)
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(p); i++) {
    MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(p, i));
    if (mlirOpOperandIsNull(u))
      continue;
    if (i != r->result_index ||
        !mlirOperationEqual(mlirOpOperandGetOwner(u), r->slice_op) ||
        !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u)))
      return false;
  }
  if (!bub_slice_hoist(r, p))
    return false;
  r->in_place = true;
  mlirRewriterBaseSetInsertionPointBefore(r->rw, p);
  return true;
}

static size_t reason_slot(void *slice) {
  uintptr_t h = (uintptr_t)slice;
  h ^= h >> 17;
  h *= 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 24) % 256;
}

bool bub_refuse(bub_rw *r, const char *why) {
  size_t i = reason_slot(r->slice_op.ptr);
  r->bc->reasons[i].slice = r->slice_op.ptr;
  r->bc->reasons[i].producer = r->producer.ptr;
  r->bc->reasons[i].why = why;
  return false;
}

static size_t defer_slot(npuc_bubble_ctx *bc, MlirOperation producer) {
  return reason_slot(producer.ptr) %
         (sizeof bc->deferred / sizeof bc->deferred[0]);
}

void bub_defer(npuc_bubble_ctx *bc, MlirOperation producer) {
  if (!bc->defer)
    return;
  const void **slot = &bc->deferred[defer_slot(bc, producer)];
  if (*slot == producer.ptr)
    return;
  if (*slot)
    bc->defer_lost = true;
  else
    bc->ndeferred++;
  *slot = producer.ptr;
}

static void undefer(npuc_bubble_ctx *bc, MlirOperation producer) {
  const void **slot = &bc->deferred[defer_slot(bc, producer)];
  if (*slot == producer.ptr) {
    *slot = NULL;
    bc->ndeferred--;
  }
}

bool bub_any_deferred(npuc_bubble_ctx *bc) {
  return bc->ndeferred > 0 || bc->defer_lost;
}

void bub_wake_shared(bub_rw *r) {
  for (int i = 0; i < r->nshared; i++) {
    MlirOperation k = r->shared[i];
    MlirValue src = mlirOperationGetOperand(k, 0);
    MlirOpOperand u = mlirValueGetFirstUse(src);
    if (mlirOpOperandIsNull(u) ||
        !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u)))
      continue;
    undefer(r->bc, mlirOpResultGetOwner(src));
    /* A modification notice puts it back on the worklist. */
    mlirRewriterBaseStartOpModification(r->rw, k);
    mlirRewriterBaseFinalizeOpModification(r->rw, k);
  }
  r->nshared = 0;
}

bool bub_deferred(npuc_bubble_ctx *bc, MlirOperation producer) {
  return bc->defer && bc->deferred[defer_slot(bc, producer)] == producer.ptr;
}

const char *bub_reason(npuc_bubble_ctx *bc, MlirOperation slice,
                       MlirOperation producer) {
  size_t i = reason_slot(slice.ptr);
  if (bc->reasons[i].slice == slice.ptr &&
      bc->reasons[i].producer == producer.ptr)
    return bc->reasons[i].why;
  return NULL;
}
