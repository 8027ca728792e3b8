/* aie-vectorize's clean-up, as mlir-aie does it: canonicalize and cse,
 * loop-invariant code motion, lower-affine. Upstream LICM hoists only ops
 * MLIR knows to be pure, and our aievec ops are unregistered (unknown
 * effects), so this file runs MLIR's LICM algorithm itself with a list of
 * ops known to be pure: aievec ops (mlir-aie declares them Pure, upd
 * included) and the upstream index/arith ops around them. One deliberate
 * difference from mlir-aie: an upd (a load) stays in a loop that writes
 * its memref, where mlir-aie hoists it and loses all but the last update
 * (its conv2d_uj tests); AieVectorizeAccum.c then carries it through the
 * loop where that is safe. */
#include "AieVectorizeInternal.h"
#include "npuc/IR.h"
#include "npuc/OpList.h"

#include <stdlib.h>
#include <string.h>

static bool hoist_invariants(MlirOperation module);

bool aie_post_canonicalize(MlirOperation func, bool aieml) {
  return npuc_run_upstream(func, "canonicalize,cse") &&
         hoist_invariants(func) && npuc_run_upstream(func, "lower-affine") &&
         aie_carry_accumulators(func, aieml ? 512 : 256);
}

/* ---- LICM ------------------------------------------------------------- */

static unsigned loop_op(MlirOperation op, void *user);
static void hoist_from(MlirOperation loop);

/* Inner loops first (post-order), so invariants climb out level by level,
 * as MLIR's pass does. */
static bool hoist_invariants(MlirOperation module) {
  npuc_op_list l = {0};
  npuc_op_list_collect(module, MlirWalkPostOrder, loop_op, NULL, &l);
  for (size_t i = 0; i < l.count; i++)
    hoist_from(l.ops[i]);
  npuc_op_list_free(&l);
  return true;
}

static unsigned loop_op(MlirOperation op, void *user) {
  (void)user;
  return npuc_op_is(op, "affine.for") || npuc_op_is(op, "scf.for")
             ? NPUC_OP_KEEP
             : NPUC_OP_PASS;
}

/* Ops without memory effects that are safe to execute speculatively. */
static bool is_pure(MlirOperation op) {
  static const char *const unsafe_arith[] = {
      "arith.divsi",     "arith.divui",     "arith.remsi",     "arith.remui",
      "arith.ceildivsi", "arith.ceildivui", "arith.floordivsi"};
  if (mlirOperationGetNumRegions(op) != 0)
    return false;
  if (aie_op_in_dialect(op, "aievec") || aie_op_in_dialect(op, "aievec_aie1"))
    return true;
  if (aie_op_in_dialect(op, "arith")) {
    for (size_t i = 0; i < sizeof unsafe_arith / sizeof unsafe_arith[0]; i++)
      if (npuc_op_is(op, unsafe_arith[i]))
        return false;
    return true;
  }
  return npuc_op_is(op, "affine.apply") || npuc_op_is(op, "ub.poison") ||
         npuc_op_is(op, "vector.broadcast") || npuc_op_is(op, "vector.splat");
}

static bool inside(MlirOperation op, MlirOperation loop) {
  for (MlirOperation p = op; !mlirOperationIsNull(p);
       p = mlirOperationGetParentOperation(p))
    if (mlirOperationEqual(p, loop))
      return true;
  return false;
}

static bool defined_outside(MlirValue v, MlirOperation loop) {
  if (mlirValueIsAOpResult(v))
    return !inside(mlirOpResultGetOwner(v), loop);
  MlirOperation owner =
      mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
  return !inside(owner, loop);
}

static bool invariant(MlirOperation op, MlirOperation loop) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (!defined_outside(mlirOperationGetOperand(op, i), loop))
      return false;
  return true;
}

/* The memrefs a loop writes (or all of them, for an op of unknown
 * effects such as a call). */
typedef struct {
  npuc_ptr_map written;
  bool everything;
} loop_writes;

static MlirWalkResult note_write(MlirOperation op, void *user) {
  loop_writes *w = user;
  static const char *const stores[] = {"vector.transfer_write", "affine.store",
                                       "memref.store", "vector.store",
                                       "affine.vector_store"};
  for (size_t i = 0; i < sizeof stores / sizeof stores[0]; i++)
    if (npuc_op_is(op, stores[i]) && mlirOperationGetNumOperands(op) > 1) {
      if (!npuc_ptr_map_put(&w->written, mlirOperationGetOperand(op, 1).ptr, 1))
        w->everything = true;
      return MlirWalkResultAdvance;
    }
  if (npuc_op_is(op, "func.call") || npuc_op_is(op, "func.call_indirect"))
    w->everything = true;
  return MlirWalkResultAdvance;
}

/* May `op` move out of a loop with these writes? Loads must not pass a
 * store to their memref. */
static bool load_unaffected(MlirOperation op, const loop_writes *w) {
  if (!npuc_op_is(op, "aievec.upd"))
    return true;
  return !w->everything &&
         aie_index_of(&w->written, mlirOperationGetOperand(op, 0).ptr) ==
             SIZE_MAX;
}

/* MLIR's moveLoopInvariantCode: a FIFO of the body's ops; a hoisted op
 * puts its users in the body back on the queue. */
static void hoist_from(MlirOperation loop) {
  loop_writes w = {{0}, false};
  mlirOperationWalk(loop, note_write, &w, MlirWalkPreOrder);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  size_t cap = 64, head = 0, tail = 0;
  MlirOperation *queue = malloc(cap * sizeof *queue);
  if (!queue) {
    npuc_ptr_map_free(&w.written);
    return;
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (tail == cap) {
      MlirOperation *n = realloc(queue, 2 * cap * sizeof *n);
      if (!n)
        break;
      queue = n;
      cap *= 2;
    }
    queue[tail++] = op;
  }
  while (head < tail) {
    MlirOperation op = queue[head++];
    if (!mlirBlockEqual(mlirOperationGetBlock(op), body) || !is_pure(op) ||
        !invariant(op, loop) || !load_unaffected(op, &w))
      continue;
    mlirOperationMoveBefore(op, loop);
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
      for (MlirOpOperand u =
               mlirValueGetFirstUse(mlirOperationGetResult(op, r));
           !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
        MlirOperation user = mlirOpOperandGetOwner(u);
        if (!mlirBlockEqual(mlirOperationGetBlock(user), body))
          continue;
        if (tail == cap) {
          MlirOperation *n = realloc(queue, 2 * cap * sizeof *n);
          if (!n) {
            free(queue);
            npuc_ptr_map_free(&w.written);
            return;
          }
          queue = n;
          cap *= 2;
        }
        queue[tail++] = user;
      }
  }
  free(queue);
  npuc_ptr_map_free(&w.written);
}
