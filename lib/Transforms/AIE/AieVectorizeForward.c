/* aie-vectorize: store-to-load forwarding and dead-store removal of vector
 * transfers, before the reuse analysis (mlir-aie runs upstream's
 * transferOpflowOpt at the same point; C has no entry to it).
 *
 * An unrolled reduction reads C[i][j], adds a product and writes it back,
 * once per unrolled step. Without forwarding every step reads C again
 * while the reuse analysis would merge those reads into one load taken
 * before the writes, which is wrong; with it the steps chain through the
 * written value (one fma chain) and only the last write stays.
 *
 * Within one block, in order:
 *  - a transfer_read of exactly what the last transfer_write wrote (same
 *    memref value, same index values, same vector type and permutation
 *    map, no masks) takes the written vector;
 *  - a transfer_write to exactly where the last one wrote, with no read
 *    of that memref in between, makes the last one dead.
 * Any other write, any op with regions and any op not known to be free of
 * memory effects forgets the last write. Distinct memref values are taken
 * not to alias unless one is a view (only block arguments and allocations
 * qualify), as upstream's transfer flow optimization assumes; the reads
 * are taken to be in bounds, as the upd loads they become are. One pass
 * over each block: linear in the number of ops. */
#include "AieVectorizeInternal.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

typedef struct {
  MlirOperation write; /* the last transfer_write, or null */
  bool read_since;     /* its memref was read since (it is not dead) */
} last_write;

static void forward_block(MlirBlock block);

void aie_forward_stores(MlirOperation func) {
  MlirRegion body = mlirOperationGetRegion(func, 0);
  for (MlirBlock b = mlirRegionGetFirstBlock(body); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b))
    forward_block(b);
}

static bool is_transfer(MlirOperation op);
static bool same_place(MlirOperation write, MlirOperation other);
static bool effect_free(MlirOperation op);
static void forward_nested(MlirOperation op);

static void forward_block(MlirBlock block) {
  last_write last = {{NULL}, false};
  MlirOperation op = mlirBlockGetFirstOperation(block);
  while (!mlirOperationIsNull(op)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (npuc_op_is(op, "vector.transfer_read") && is_transfer(op)) {
      if (last.write.ptr && same_place(last.write, op)) {
        mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0),
                                      mlirOperationGetOperand(last.write, 0));
        mlirOperationDestroy(op);
      } else if (last.write.ptr &&
                 mlirValueEqual(mlirOperationGetOperand(op, 0),
                                mlirOperationGetOperand(last.write, 1))) {
        last.read_since = true;
      } else if (!aie_plain_memref(mlirOperationGetOperand(op, 0))) {
        last.write.ptr = NULL; /* a view may alias the written memref */
      }
    } else if (npuc_op_is(op, "vector.transfer_write") && is_transfer(op)) {
      if (last.write.ptr && !last.read_since && same_place(last.write, op))
        mlirOperationDestroy(last.write);
      bool known = aie_plain_memref(mlirOperationGetOperand(op, 1));
      last = (last_write){known ? op : (MlirOperation){NULL}, false};
    } else if (mlirOperationGetNumRegions(op) > 0) {
      forward_nested(op);
      last.write.ptr = NULL;
    } else if (!effect_free(op)) {
      last.write.ptr = NULL;
    }
    op = next;
  }
}

/* Loop bodies and other nested blocks are blocks of their own. */
static void forward_nested(MlirOperation op) {
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); r++)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
      forward_block(b);
}

/* A 1-D transfer of a memref without a mask: memref, one index per
 * dimension (and the read's padding). */
static bool is_transfer(MlirOperation op) {
  bool read = npuc_op_is(op, "vector.transfer_read");
  MlirValue memref = mlirOperationGetOperand(op, read ? 0 : 1);
  MlirType mt = mlirValueGetType(memref);
  if (!mlirTypeIsAMemRef(mt))
    return false;
  intptr_t expected = 2 + mlirShapedTypeGetRank(mt);
  return mlirOperationGetNumOperands(op) == expected;
}

static bool same_attr(MlirOperation a, MlirOperation b, const char *name) {
  MlirStringRef n = mlirStringRefCreateFromCString(name);
  MlirAttribute x = mlirOperationGetAttributeByName(a, n);
  MlirAttribute y = mlirOperationGetAttributeByName(b, n);
  if (mlirAttributeIsNull(x) || mlirAttributeIsNull(y))
    return mlirAttributeIsNull(x) && mlirAttributeIsNull(y);
  return mlirAttributeEqual(x, y);
}

/* Does `other` (a read or write) access exactly what `write` wrote? */
static bool same_place(MlirOperation write, MlirOperation other) {
  bool read = npuc_op_is(other, "vector.transfer_read");
  intptr_t base = read ? 0 : 1;
  MlirValue vec = read ? mlirOperationGetResult(other, 0)
                       : mlirOperationGetOperand(other, 0);
  if (!mlirTypeEqual(mlirValueGetType(vec),
                     mlirValueGetType(mlirOperationGetOperand(write, 0))) ||
      !same_attr(write, other, "permutation_map"))
    return false;
  MlirValue memref = mlirOperationGetOperand(write, 1);
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(memref));
  for (intptr_t k = 0; k <= rank; k++)
    if (!mlirValueEqual(mlirOperationGetOperand(write, 1 + k),
                        mlirOperationGetOperand(other, base + k)))
      return false;
  return true;
}

/* Block arguments and fresh allocations: no view of another memref. */
bool aie_plain_memref(MlirValue memref) {
  if (mlirValueIsABlockArgument(memref))
    return true;
  MlirOperation def = mlirOpResultGetOwner(memref);
  return npuc_op_is(def, "memref.alloc") || npuc_op_is(def, "memref.alloca");
}

/* Ops between the transfers of a super-vectorized body that touch no
 * memory. */
static bool effect_free(MlirOperation op) {
  static const char *const names[] = {"affine.apply", "ub.poison",
                                      "vector.broadcast", "vector.splat",
                                      "arith.constant"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (npuc_op_is(op, names[i]))
      return true;
  /* arith ops touch no memory (a division by zero is undefined
   * behaviour, not a memory effect). */
  return aie_op_in_dialect(op, "arith");
}
