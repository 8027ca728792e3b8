/* aie-vectorize: scalar replacement of the output vector of a reduction
 * loop (after lower-affine, on scf.for).
 *
 * A reduction over k (gemm) or over the filter rows (conv2d_uj order)
 * reads C[i][j] at the top of each iteration (upd, then ups to the
 * accumulator) and writes it back at the bottom (srs, transfer_write).
 * LICM must not hoist that read alone (mlir-aie does, and keeps only the
 * last iteration). Carrying the value through the loop is correct: read
 * once before the loop, pass the stored vector as an iter_arg, write once
 * after it.
 *
 * What is carried is the stored vector (the srs result), not the
 * accumulator: ups(srs(acc, 0)) equals acc only when acc fits the element
 * width, or, with saturation off, modulo 2^width; the saturation and
 * rounding mode live in a control register the program never sets
 * (aie1-lane-semantics.md §3.2), so the pair is never provably exact here
 * and the ups stays in the loop. It is not a load.
 *
 * Conditions, for a loop L and its body block B:
 *  - an aievec.upd U in B (whole vector: no source vector, index 0,
 *    offset 0, at most one load wide: 256 bits, 512 on AIE-ML) of memref M,
 * indices defined outside L;
 *  - a transfer_write W later in B of U's vector type to M at the same
 *    index values, no mask;
 *  - U and W are the only users of M inside L, M is a block argument or
 *    an allocation, every memref used in L is too (a view may alias M;
 *    distinct plain memrefs are taken not to alias, as the store
 *    forwarding assumes), and L holds no call.
 * One walk per loop; each loop's body is scanned a constant number of
 * times. */
#include "AieVectorizeInternal.h"
#include "npuc/IR.h"
#include "npuc/OpList.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

typedef struct {
  MlirOperation upd, write;
} accum_pair;

static unsigned scf_loop(MlirOperation op, void *user);
static bool find_pair(MlirOperation loop, int64_t load_bits, accum_pair *p);
static void carry(MlirOperation loop, accum_pair p);

bool aie_carry_accumulators(MlirOperation func, int64_t load_bits) {
  npuc_op_list l = {0};
  npuc_op_list_collect(func, MlirWalkPostOrder, scf_loop, NULL, &l);
  for (size_t i = 0; i < l.count; i++) {
    accum_pair p;
    if (find_pair(l.ops[i], load_bits, &p))
      carry(l.ops[i], p);
  }
  npuc_op_list_free(&l);
  return true;
}

static unsigned scf_loop(MlirOperation op, void *user) {
  (void)user;
  return npuc_op_is(op, "scf.for") ? NPUC_OP_KEEP : NPUC_OP_PASS;
}

/* ---- conditions -------------------------------------------------------- */

static bool whole_upd(MlirOperation op, MlirOperation loop, int64_t load_bits);
static bool writes_same(MlirOperation write, MlirOperation upd);
static bool loop_keeps_memref_private(MlirOperation loop, accum_pair p);

static bool find_pair(MlirOperation loop, int64_t load_bits, accum_pair *p) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  for (MlirOperation u = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(u); u = mlirOperationGetNextInBlock(u)) {
    if (!whole_upd(u, loop, load_bits))
      continue;
    for (MlirOperation w = mlirOperationGetNextInBlock(u);
         !mlirOperationIsNull(w); w = mlirOperationGetNextInBlock(w))
      if (writes_same(w, u)) {
        *p = (accum_pair){u, w};
        return loop_keeps_memref_private(loop, *p);
      }
    /* LICM has hoisted invariant loads of memrefs the loop does not
     * write: the first one left decides (one scan of the body). */
    return false;
  }
  return false;
}

static bool defined_outside(MlirValue v, MlirOperation loop) {
  MlirOperation owner =
      mlirValueIsAOpResult(v)
          ? mlirOpResultGetOwner(v)
          : mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
  for (MlirOperation p = owner; !mlirOperationIsNull(p);
       p = mlirOperationGetParentOperation(p))
    if (mlirOperationEqual(p, loop))
      return false;
  return true;
}

static int64_t int_attr(MlirOperation op, const char *name) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a)
             ? mlirIntegerAttrGetValueInt(a)
             : -1;
}

/* Bits of a 1-D vector of integers or floats (0 when unknown). */
static int64_t vector_bits(MlirType vt) {
  MlirType e = mlirShapedTypeGetElementType(vt);
  int64_t eb = mlirTypeIsAInteger(e) ? mlirIntegerTypeGetWidth(e)
               : mlirTypeIsAF32(e)   ? 32
               : mlirTypeIsAF16(e) || mlirTypeIsABF16(e) ? 16
                                                         : 1024;
  return mlirShapedTypeGetRank(vt) == 1 ? eb * mlirShapedTypeGetDimSize(vt, 0)
                                        : 1024;
}

/* A plain load of a whole vector (lane semantics §2.1, case 2). */
static bool whole_upd(MlirOperation op, MlirOperation loop, int64_t load_bits) {
  if (!npuc_op_is(op, "aievec.upd"))
    return false;
  MlirType mt = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType vt = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeIsAMemRef(mt) || !mlirTypeIsAVector(vt) ||
      mlirOperationGetNumOperands(op) != 1 + mlirShapedTypeGetRank(mt) ||
      int_attr(op, "index") != 0 || int_attr(op, "offset") != 0 ||
      vector_bits(vt) > load_bits)
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (!defined_outside(mlirOperationGetOperand(op, i), loop))
      return false;
  return true;
}

static bool writes_same(MlirOperation write, MlirOperation upd) {
  if (!npuc_op_is(write, "vector.transfer_write"))
    return false;
  intptr_t n = mlirOperationGetNumOperands(upd); /* memref + indices */
  if (mlirOperationGetNumOperands(write) != 1 + n ||
      !mlirTypeEqual(mlirValueGetType(mlirOperationGetOperand(write, 0)),
                     mlirValueGetType(mlirOperationGetResult(upd, 0))))
    return false;
  for (intptr_t k = 0; k < n; k++)
    if (!mlirValueEqual(mlirOperationGetOperand(write, 1 + k),
                        mlirOperationGetOperand(upd, k)))
      return false;
  return true;
}

typedef struct {
  accum_pair pair;
  MlirValue memref;
  bool ok;
} privacy_check;

static MlirWalkResult check_access(MlirOperation op, void *user) {
  privacy_check *c = user;
  if (npuc_op_is(op, "func.call") || npuc_op_is(op, "func.call_indirect")) {
    c->ok = false;
    return MlirWalkResultInterrupt;
  }
  bool ours = mlirOperationEqual(op, c->pair.upd) ||
              mlirOperationEqual(op, c->pair.write);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirTypeIsAMemRef(mlirValueGetType(v)))
      continue;
    if (!aie_plain_memref(v) || (!ours && mlirValueEqual(v, c->memref))) {
      c->ok = false;
      return MlirWalkResultInterrupt;
    }
  }
  return MlirWalkResultAdvance;
}

/* Nothing in the loop but U and W can see M. */
static bool loop_keeps_memref_private(MlirOperation loop, accum_pair p) {
  privacy_check c = {p, mlirOperationGetOperand(p.upd, 0), true};
  if (!aie_plain_memref(c.memref))
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op) && c.ok; op = mlirOperationGetNextInBlock(op))
    mlirOperationWalk(op, check_access, &c, MlirWalkPreOrder);
  return c.ok;
}

/* ---- rewrite ------------------------------------------------------------ */

/* L becomes: U; L'(iter_args: ..., acc = U) { ... yield ..., stored };
 * W(L'.last). scf.for's results cannot grow in place, so L' is a new op
 * that takes L's body. */
static void carry(MlirOperation loop, accum_pair p) {
  MlirLocation loc = mlirOperationGetLocation(loop);
  MlirValue loaded = mlirOperationGetResult(p.upd, 0);
  MlirType vt = mlirValueGetType(loaded);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));

  mlirOperationMoveBefore(p.upd, loop);
  MlirValue acc = mlirBlockAddArgument(body, vt, loc);
  mlirValueReplaceAllUsesOfWith(loaded, acc);

  MlirOperation yield = mlirBlockGetTerminator(body);
  intptr_t ny = mlirOperationGetNumOperands(yield);
  MlirValue yields[ny + 1];
  for (intptr_t i = 0; i < ny; i++)
    yields[i] = mlirOperationGetOperand(yield, i);
  yields[ny] = mlirOperationGetOperand(p.write, 0);
  mlirOperationSetOperands(yield, ny + 1, yields);

  intptr_t no = mlirOperationGetNumOperands(loop);
  MlirValue operands[no + 1];
  for (intptr_t i = 0; i < no; i++)
    operands[i] = mlirOperationGetOperand(loop, i);
  operands[no] = loaded;
  intptr_t nr = mlirOperationGetNumResults(loop);
  MlirType results[nr + 1];
  for (intptr_t i = 0; i < nr; i++)
    results[i] = mlirValueGetType(mlirOperationGetResult(loop, i));
  results[nr] = vt;

  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.for"), loc);
  mlirOperationStateAddOperands(&st, no + 1, operands);
  mlirOperationStateAddResults(&st, nr + 1, results);
  MlirRegion region = mlirRegionCreate();
  mlirRegionTakeBody(region, mlirOperationGetRegion(loop, 0));
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation carried = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(loop), loop,
                                      carried);

  for (intptr_t i = 0; i < nr; i++)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(loop, i),
                                  mlirOperationGetResult(carried, i));
  mlirOperationDestroy(loop);
  mlirOperationMoveAfter(p.write, carried);
  mlirOperationSetOperand(p.write, 0, mlirOperationGetResult(carried, nr));
}
