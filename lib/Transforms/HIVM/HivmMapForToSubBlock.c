/* hivm-map-for-to-sub-block: the binding step of 1:2 sub-block tiling
 * alone. A 2-iteration loop marked {map_for_to_forall, mapping =
 * [#hivm.sub_block<x>]} stands for the two vector sub-blocks that run the
 * same AIV function; each sub-block executes one iteration, so the loop is
 * replaced by its body with the induction variable read from
 * hivm.hir.get_sub_block_idx. Also provides the scf.if guard that keeps an
 * op to sub-block 0 (the 1:1 fallback). */
#include "npuc/BuildOps.h"
#include "SubBlock.h"
#include "npuc/IR.h"
#include "npuc/OpList.h"
#include "npuc/Pass.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

NPUC_PASS_DEFINE(npuc_pass_hivm_map_for_to_sub_block,
                 "hivm-map-for-to-sub-block",
                 "Replace the sub-block loop {map_for_to_forall, mapping = "
                 "[#hivm.sub_block<x>]} by hivm.hir.get_sub_block_idx",
                 "func.func", map_for_to_sub_block, );

static bool map_for_to_sub_block(MlirOperation func,
                                 const npuc_pass_options *opts,
                                 const npuc_pass_context *ctx) {
  (void)opts;
  (void)ctx;
  return npuc_map_sub_block_loops(func);
}

static bool is_sub_block_loop(MlirOperation op);
static bool bind_loop(MlirOperation loop);
static bool fewer_ops_around(MlirOperation loop, MlirBlock body);
static void move_body_out(MlirOperation loop, MlirBlock body);
static void take_place_of_parent(MlirOperation loop, MlirBlock body);
static void move_ops_before(MlirOperation first, MlirOperation end,
                            MlirOperation before);

static unsigned sub_block_loop(MlirOperation op, void *user) {
  (void)user;
  if (!is_sub_block_loop(op))
    return NPUC_OP_PASS;
  /* a sub-block loop inside one is an error */
  return NPUC_OP_KEEP | NPUC_OP_SKIP_REGIONS;
}

bool npuc_map_sub_block_loops(MlirOperation root) {
  npuc_op_list l = {0};
  npuc_op_list_collect(root, MlirWalkPreOrder, sub_block_loop, NULL, &l);
  bool ok = true;
  for (size_t i = 0; ok && i < l.count; i++)
    ok = bind_loop(l.ops[i]);
  npuc_op_list_free(&l);
  return ok;
}

static bool has_attr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString(name)));
}

/* Is `op` an scf.for marked as the sub-block loop? */
static bool is_sub_block_loop(MlirOperation op) {
  if (!npuc_op_is(op, "scf.for") || !has_attr(op, SUB_BLOCK_LOOP_MARK))
    return false;
  MlirAttribute m = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("mapping"));
  MlirAttribute want =
      mlirAttributeParseGet(mlirOperationGetContext(op),
                            mlirStringRefCreateFromCString(SUB_BLOCK_MAPPING));
  return !mlirAttributeIsNull(m) && mlirAttributeEqual(m, want);
}

static bool bind_loop(MlirOperation loop) {
  int64_t lb, ub, step;
  if (mlirOperationGetNumResults(loop) != 0) {
    npuc_pass_error(loop, "sub-block loop must not have results");
    return false;
  }
  if (!npuc_constant_int(mlirOperationGetOperand(loop, 0), &lb) ||
      !npuc_constant_int(mlirOperationGetOperand(loop, 1), &ub) ||
      !npuc_constant_int(mlirOperationGetOperand(loop, 2), &step) || lb != 0 ||
      ub != 2 || step != 1) {
    npuc_pass_error(loop, "sub-block loop must run from 0 to 2 step 1 (one "
                          "iteration per vector sub-block)");
    return false;
  }
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  MlirValue iv = mlirBlockGetArgument(body, 0);
  if (!mlirOpOperandIsNull(mlirValueGetFirstUse(iv))) {
    MlirContext ctx = mlirOperationGetContext(loop);
    npuc_builder b = npuc_builder_before(loop);
    MlirType i64 = mlirIntegerTypeGet(ctx, 64);
    MlirValue id =
        mlirOperationGetResult(npuc_build_op(&b, "hivm.hir.get_sub_block_idx",
                                             0, NULL, 1, &i64, 0, NULL),
                               0);
    mlirValueReplaceAllUsesOfWith(
        iv, npuc_build_int_cast(&b, id, mlirIndexTypeGet(ctx)));
  }
  MlirValue bounds[3] = {mlirOperationGetOperand(loop, 0),
                         mlirOperationGetOperand(loop, 1),
                         mlirOperationGetOperand(loop, 2)};
  if (fewer_ops_around(loop, body)) {
    take_place_of_parent(loop, body);
  } else {
    move_body_out(loop, body);
    mlirOperationDestroy(loop);
  }
  for (int i = 0; i < 3; i++) /* constants made for the loop alone */
    if (mlirOpOperandIsNull(mlirValueGetFirstUse(bounds[i])))
      mlirOperationDestroy(mlirOpResultGetOwner(bounds[i]));
  return true;
}

/* Does the loop's block hold fewer other ops than its body, and is it the
 * only block of its region (no branch names it)? Then the body's block
 * takes its place, and only the ops around the loop move: in
 * hivm-bind-sub-block, a few constants around a body of the whole
 * function. Counts in step, so costs the smaller of the two. */
static bool fewer_ops_around(MlirOperation loop, MlirBlock body) {
  MlirBlock parent = mlirOperationGetBlock(loop);
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(parent)) ||
      !mlirBlockEqual(mlirRegionGetFirstBlock(mlirBlockGetParentRegion(parent)),
                      parent))
    return false;
  MlirOperation in = mlirBlockGetFirstOperation(body);
  MlirOperation out = mlirBlockGetFirstOperation(parent);
  while (!mlirOperationIsNull(in) && !mlirOperationIsNull(out)) {
    in = mlirOperationGetNextInBlock(in);
    out = mlirOperationGetNextInBlock(out);
  }
  return mlirOperationIsNull(out) && !mlirOperationIsNull(in);
}

/* The body's ops go in front of the loop, one by one. */
static void move_body_out(MlirOperation loop, MlirBlock body) {
  move_ops_before(mlirBlockGetFirstOperation(body),
                  mlirBlockGetTerminator(body), loop);
}

/* Moves the ops from `first` up to `end` (excluded), in order, in front of
 * `before`. */
static void move_ops_before(MlirOperation first, MlirOperation end,
                            MlirOperation before) {
  for (MlirOperation op = first; !mlirOperationEqual(op, end);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationMoveBefore(op, before);
    op = next;
  }
}

/* The ops before the loop go to the front of its body, those after it
 * to the end (instead of the yield), the block's arguments too; then the
 * body's block replaces the loop's, which goes with the loop. */
static void take_place_of_parent(MlirOperation loop, MlirBlock body) {
  MlirBlock parent = mlirOperationGetBlock(loop);
  MlirRegion region = mlirBlockGetParentRegion(parent);
  move_ops_before(mlirBlockGetFirstOperation(parent), loop,
                  mlirBlockGetFirstOperation(body));
  mlirOperationDestroy(mlirBlockGetTerminator(body)); /* the yield */
  for (MlirOperation op = mlirOperationGetNextInBlock(loop);
       !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(body, op);
    op = next;
  }
  mlirBlockEraseArgument(body, 0); /* the induction variable, now unused */
  npuc_move_block_arguments(parent, body);
  MlirRegion held = mlirRegionCreate();
  mlirRegionTakeBody(held, mlirOperationGetRegion(loop, 0));
  mlirRegionTakeBody(region, held); /* destroys `parent`, and the loop */
  mlirRegionDestroy(held);
}

/* ---- the 1:1 guard --------------------------------------------------------
 */

/* How many ops at the top of the function a guard looks through for a
 * zero to reuse: the constants the folder would have put there. */
#define LEADING_CONSTANTS 64

static bool is_index_zero(MlirOperation op) {
  if (!npuc_op_is(op, "arith.constant") ||
      mlirOperationGetNumResults(op) != 1 ||
      !mlirTypeIsAIndex(mlirValueGetType(mlirOperationGetResult(op, 0))))
    return false;
  MlirAttribute v = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("value"));
  return !mlirAttributeIsNull(v) && mlirAttributeIsAInteger(v) &&
         mlirIntegerAttrGetValueInt(v) == 0;
}

/* `arith.constant 0 : index` at the top of the function's entry block,
 * where MLIR's folder keeps constants (and where bishengir's output has
 * the guards' zero): the one among the leading constants there, else a
 * new one. Outside a function, in front of `op`. */
static MlirValue function_zero(MlirOperation op, npuc_builder *b) {
  MlirOperation func = mlirOperationGetParentOperation(op);
  while (!mlirOperationIsNull(func) && !npuc_op_is(func, "func.func"))
    func = mlirOperationGetParentOperation(func);
  MlirType index = mlirIndexTypeGet(mlirOperationGetContext(op));
  if (mlirOperationIsNull(func))
    return npuc_build_int_constant(b, index, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirOperation first = mlirBlockGetFirstOperation(entry);
  MlirOperation c = first;
  for (int i = 0; i < LEADING_CONSTANTS && !mlirOperationIsNull(c) &&
                  npuc_op_is(c, "arith.constant");
       i++, c = mlirOperationGetNextInBlock(c))
    if (is_index_zero(c))
      return mlirOperationGetResult(c, 0);
  npuc_builder top = {entry, first, b->loc, {NULL}};
  return npuc_build_int_constant(&top, index, 0);
}

void npuc_guard_sub_block0(MlirOperation op, MlirValue sub_block,
                           const MlirValue *inits) {
  MlirContext ctx = mlirOperationGetContext(op);
  npuc_builder b = npuc_builder_before(op);
  MlirType index = mlirIndexTypeGet(ctx);
  if (mlirValueIsNull(sub_block)) {
    MlirType i64 = mlirIntegerTypeGet(ctx, 64);
    MlirValue id =
        mlirOperationGetResult(npuc_build_op(&b, "hivm.hir.get_sub_block_idx",
                                             0, NULL, 1, &i64, 0, NULL),
                               0);
    sub_block = npuc_build_int_cast(&b, id, index);
  }
  MlirValue zero = function_zero(op, &b);
  MlirValue cond = npuc_build_cmpi(&b, NPUC_CMPI_EQ, sub_block, zero);
  intptr_t n = mlirOperationGetNumResults(op);
  MlirType types[16];
  MlirValue results[16];
  for (intptr_t i = 0; i < n && i < 16; i++) {
    results[i] = mlirOperationGetResult(op, i);
    types[i] = mlirValueGetType(results[i]);
  }
  MlirOperation guard;
  if (n == 0) {
    guard = npuc_build_if(&b, cond);
    MlirBlock then = mlirRegionGetFirstBlock(mlirOperationGetRegion(guard, 0));
    mlirOperationMoveBefore(op, mlirBlockGetTerminator(then));
  } else {
    guard = npuc_build_if_else(&b, cond, n, types);
    for (intptr_t i = 0; i < n; i++) /* before the op lands in the branch */
      mlirValueReplaceAllUsesOfWith(results[i],
                                    mlirOperationGetResult(guard, i));
    MlirBlock then = mlirRegionGetFirstBlock(mlirOperationGetRegion(guard, 0));
    MlirBlock other = mlirRegionGetFirstBlock(mlirOperationGetRegion(guard, 1));
    mlirBlockAppendOwnedOperation(then, mlirOperationClone(op));
    MlirOperation moved = mlirBlockGetFirstOperation(then);
    npuc_builder tb = {then, {NULL}, b.loc, {NULL}};
    MlirValue yielded[16];
    for (intptr_t i = 0; i < n; i++)
      yielded[i] = mlirOperationGetResult(moved, i);
    npuc_build_op(&tb, "scf.yield", n, yielded, 0, NULL, 0, NULL);
    npuc_builder eb = {other, {NULL}, b.loc, {NULL}};
    npuc_build_op(&eb, "scf.yield", n, inits, 0, NULL, 0, NULL);
    mlirOperationDestroy(op);
  }
  mlirOperationSetDiscardableAttributeByName(
      guard, mlirStringRefCreateFromCString(SUB_BLOCK_GUARD_MARK),
      mlirUnitAttrGet(ctx));
}
