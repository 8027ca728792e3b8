/* The sub-block loop as hivm-bind-sub-block leaves it (bishengir's form,
 * docs/passes/hivm-bind-sub-block.md, "The loop it leaves"). While the
 * patterns run, the offsets of the halves are `arith.muli %i, half` of
 * hivm.hir.get_sub_block_idx read in front of the loop (values from
 * outside the body keep MLIR's dominance queries cheap). Once the rewrite
 * is done, they become what bishengir prints and hivm-map-for-to-sub-block
 * binds:
 *
 *   - each offset is `affine.apply affine_map<()[s0] -> (s0 * half)>()[%iv]`
 *     at the top of the loop body, %iv the loop's induction variable;
 *   - other reads of the sub-block index (the guards of leaves kept whole)
 *     read %iv, and the index read in front of the loop goes;
 *   - the constants of the body are where MLIR's folder keeps them, as the
 *     greedy driver of bishengir's pass leaves them: at the top of the
 *     function, one per value and type, the loop's bounds (0, 1, 2) first
 *     and each other constant put in front of those met before it.
 *
 * Requires: the loop and offsets npuc_sub_block_tile_leaf made; leaves
 * the loop {map_for_to_forall, mapping = [#hivm.sub_block<x>]} in place. */
#include "SubBlock.h"
#include "npuc/BuildOps.h"
#include "npuc/OpList.h"
#include "npuc/PtrSet.h"

#include <mlir-c/AffineExpr.h>
#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

static void offsets_of_iv(npuc_sub_block_offsets *o, MlirBlock body,
                          MlirValue iv);
static void erase_if_unused(MlirValue v);
static void hoist_constants(MlirOperation loop);

void npuc_sub_block_loop_form(npuc_sub_block_offsets *o) {
  MlirOperation loop = o->top;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  MlirValue iv = mlirBlockGetArgument(body, 0);
  offsets_of_iv(o, body, iv);
  erase_if_unused(mlirOperationGetResult(o->read, 0));
  hoist_constants(loop);
}

static void index_reads_of_iv(npuc_sub_block_offsets *o, MlirValue index,
                              MlirValue *applies, npuc_builder *b,
                              MlirValue iv);

/* `affine.apply ()[s0] -> (s0 * half)` of %iv in place of each offset, at
 * the top of the body, in the order the halves were first cut; the muli
 * and its constant go. The offsets and the index are found again from the
 * get_sub_block_idx: the bubble-up's greedy driver erases those of them
 * that no slice reads any more (they are registered and pure); the
 * unregistered read itself stays. Other reads of the index (the guards of
 * leaves kept whole, inside the loop) read %iv. */
static void offsets_of_iv(npuc_sub_block_offsets *o, MlirBlock body,
                          MlirValue iv) {
  MlirValue applies[16] = {{NULL}};
  npuc_builder b = {body,
                    mlirBlockGetFirstOperation(body),
                    mlirOperationGetLocation(o->top),
                    {NULL}};
  MlirValue id = mlirOperationGetResult(o->read, 0);
  for (MlirOpOperand u = mlirValueGetFirstUse(id); !mlirOpOperandIsNull(u);) {
    MlirOperation cast = mlirOpOperandGetOwner(u);
    u = mlirOpOperandGetNextUse(u);
    if (!npuc_op_is(cast, "arith.index_cast"))
      continue;
    MlirValue index = mlirOperationGetResult(cast, 0);
    index_reads_of_iv(o, index, applies, &b, iv);
    mlirValueReplaceAllUsesOfWith(index, iv);
    mlirOperationDestroy(cast);
  }
}

static MlirValue apply_of_iv(npuc_builder *b, MlirValue iv, int64_t half);

/* The offsets `arith.muli %index, %c<half>` among the readers of `index`
 * become applies[k] (made on first need) for half[k]. */
static void index_reads_of_iv(npuc_sub_block_offsets *o, MlirValue index,
                              MlirValue *applies, npuc_builder *b,
                              MlirValue iv) {
  for (MlirOpOperand u = mlirValueGetFirstUse(index);
       !mlirOpOperandIsNull(u);) {
    MlirOperation mul = mlirOpOperandGetOwner(u);
    u = mlirOpOperandGetNextUse(u);
    int64_t half;
    if (!npuc_op_is(mul, "arith.muli") ||
        !mlirValueEqual(mlirOperationGetOperand(mul, 0), index) ||
        !npuc_constant_int(mlirOperationGetOperand(mul, 1), &half))
      continue;
    int k = 0;
    while (k < o->count && o->half[k] != half)
      k++;
    if (k == o->count || k >= 16)
      continue; /* not an offset of tiling: read as %iv * half below */
    /* the earlier halves first, as they were cut */
    for (int m = 0; m <= k; m++)
      if (mlirValueIsNull(applies[m]))
        applies[m] = apply_of_iv(b, iv, o->half[m]);
    MlirValue c = mlirOperationGetOperand(mul, 1);
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(mul, 0), applies[k]);
    mlirOperationDestroy(mul);
    erase_if_unused(c);
  }
}

static MlirValue apply_of_iv(npuc_builder *b, MlirValue iv, int64_t half) {
  MlirContext ctx = mlirValueGetContext(iv);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirAffineExpr e = mlirAffineMulExprGet(mlirAffineSymbolExprGet(ctx, 0),
                                          mlirAffineConstantExprGet(ctx, half));
  MlirAffineMap map = mlirAffineMapGet(ctx, 0, 1, 1, &e);
  MlirNamedAttribute attr = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("map")),
      mlirAffineMapAttrGet(map));
  return mlirOperationGetResult(
      npuc_build_op(b, "affine.apply", 1, &iv, 1, &index, 1, &attr), 0);
}

static void erase_if_unused(MlirValue v) {
  if (mlirValueIsAOpResult(v) && mlirOpOperandIsNull(mlirValueGetFirstUse(v)))
    mlirOperationDestroy(mlirOpResultGetOwner(v));
}

/* ---- constants where the folder keeps them ---------------------------------
 */

static bool is_constant(MlirOperation op) {
  return npuc_op_is(op, "arith.constant") &&
         mlirOperationGetNumResults(op) == 1;
}

/* Regions a constant may leave: those of registered ops but functions and
 * modules (isolated from above), and of scope.scope (ours, not isolated).
 * Unregistered ops of unknown kind might be isolated: left alone. */
static unsigned body_constant(MlirOperation op, void *user) {
  MlirContext ctx = {user};
  unsigned keep = is_constant(op) ? NPUC_OP_KEEP : NPUC_OP_PASS;
  if (mlirOperationGetNumRegions(op) == 0)
    return keep;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  bool opaque = npuc_op_is(op, "func.func") ||
                npuc_op_is(op, "builtin.module") ||
                (!mlirContextIsRegisteredOperation(ctx, name) &&
                 !npuc_op_is(op, "scope.scope"));
  return keep | (opaque ? NPUC_OP_SKIP_REGIONS : 0);
}

/* The key of a constant: its value attribute (uniqued, and typed: equal
 * keys are equal values of equal types). */
static const void *constant_key(MlirOperation op) {
  return mlirOperationGetAttributeByName(
             op, mlirStringRefCreateFromCString("value"))
      .ptr;
}

/* As MLIR's OperationFolder does when the greedy driver meets the
 * constants: those already at the top of the function's block stay, a
 * constant equal to one met before is replaced by it, any other is moved
 * to the very top. The function's block holds only the loop's bounds and
 * the loop then. */
static void hoist_constants(MlirOperation loop) {
  MlirBlock top = mlirOperationGetBlock(loop);
  npuc_ptr_map known = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(top); is_constant(op);
       op = mlirOperationGetNextInBlock(op))
    if (!npuc_ptr_map_put(&known, constant_key(op), (uintptr_t)op.ptr))
      break; /* out of memory: only less tidy */
  npuc_op_list l = {0};
  npuc_op_list_collect(loop, MlirWalkPreOrder, body_constant,
                       mlirOperationGetContext(loop).ptr, &l);
  for (size_t i = 0; i < l.count; i++) {
    MlirOperation op = l.ops[i];
    uintptr_t seen;
    const void *key = constant_key(op);
    if (key && npuc_ptr_map_get(&known, key, &seen)) {
      mlirValueReplaceAllUsesOfWith(
          mlirOperationGetResult(op, 0),
          mlirOperationGetResult((MlirOperation){(void *)seen}, 0));
      mlirOperationDestroy(op);
      continue;
    }
    mlirOperationMoveBefore(op, mlirBlockGetFirstOperation(top));
    if (key)
      npuc_ptr_map_put(&known, key, (uintptr_t)op.ptr);
  }
  npuc_op_list_free(&l);
  npuc_ptr_map_free(&known);
}
