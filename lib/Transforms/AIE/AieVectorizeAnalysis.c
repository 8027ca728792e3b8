/* aie-vectorize, before any rewrite: what the function reads and computes,
 * whether the AIE1 schemes can take it, and the operand-level rewrites
 * (reassociation, fma formation, column fusion) decided on the original
 * ops. */
#include "AieVectorizeInternal.h"
#include "npuc/Checked.h"
#include "npuc/IR.h"

#include <mlir-c/AffineExpr.h>
#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  aie_state *s;
  size_t cap_reads, cap_nodes;
  bool oom;
  uint32_t writes; /* ops seen so far that may write memory */
} collector;

static MlirWalkResult collect_op(MlirOperation op, void *user);
static bool is_compute_op(MlirOperation op);
static bool may_write(MlirOperation op);
static MlirOperation innermost_loop(MlirOperation op);
static bool read_is_splat(MlirOperation read);
static bool has_single_use(MlirValue v);

bool aie_collect(aie_state *s) {
  collector c = {s, 0, 0, false, 0};
  mlirOperationWalk(s->func, collect_op, &c, MlirWalkPreOrder);
  if (c.oom)
    return false;
  for (size_t i = 0; i < s->num_reads; i++)
    if (!npuc_ptr_map_put(&s->read_of, s->reads[i].op.ptr, i))
      return false;
  for (size_t i = 0; i < s->num_nodes; i++)
    if (!npuc_ptr_map_put(&s->node_of, s->nodes[i].op.ptr, i))
      return false;
  return true;
}

static bool grow(void **array, size_t *cap, size_t count, size_t size) {
  if (count < *cap)
    return true;
  size_t n = *cap ? 2 * *cap : 16;
  void *p = realloc(*array, n * size);
  if (!p)
    return false;
  *array = p;
  *cap = n;
  return true;
}

static MlirWalkResult collect_op(MlirOperation op, void *user) {
  collector *c = user;
  aie_state *s = c->s;
  if (npuc_op_is(op, "vector.transfer_read")) {
    if (!grow((void **)&s->reads, &c->cap_reads, s->num_reads,
              sizeof *s->reads)) {
      c->oom = true;
      return MlirWalkResultInterrupt;
    }
    MlirType vt = mlirValueGetType(mlirOperationGetResult(op, 0));
    aie_read *r = &s->reads[s->num_reads++];
    memset(r, 0, sizeof *r);
    r->op = op;
    r->epoch = c->writes;
    r->loop = innermost_loop(op);
    r->splat = read_is_splat(op);
    r->lanes = mlirShapedTypeGetDimSize(vt, 0);
    MlirType et = mlirShapedTypeGetElementType(vt);
    r->elem_bits = mlirTypeIsAInteger(et) ? mlirIntegerTypeGetWidth(et)
                   : mlirTypeIsAF32(et)   ? 32
                   : mlirTypeIsAF16(et)   ? 16
                                          : 0;
  } else if (is_compute_op(op)) {
    if (!grow((void **)&s->nodes, &c->cap_nodes, s->num_nodes,
              sizeof *s->nodes)) {
      c->oom = true;
      return MlirWalkResultInterrupt;
    }
    MlirType vt = mlirValueGetType(mlirOperationGetResult(op, 0));
    MlirType et = mlirShapedTypeGetElementType(vt);
    aie_node *n = &s->nodes[s->num_nodes++];
    memset(n, 0, sizeof *n);
    n->op = op;
    n->rep = SIZE_MAX;
    n->kind = (npuc_op_is(op, "arith.muli") || npuc_op_is(op, "arith.mulf"))
                  ? AIE_MUL
              : (npuc_op_is(op, "arith.addi") || npuc_op_is(op, "arith.addf"))
                  ? AIE_ADD
                  : AIE_SUB;
    n->is_float = mlirTypeIsAFloat(et);
    n->elem_bits = mlirTypeIsAInteger(et) ? mlirIntegerTypeGetWidth(et)
                   : mlirTypeIsAF32(et)   ? 32
                                          : 0;
    n->lanes = mlirShapedTypeGetDimSize(vt, 0);
  } else if (may_write(op)) {
    c->writes++;
  }
  return MlirWalkResultAdvance;
}

/* Stores and calls: a read after one may see other data than a read of
 * the same place before it (those the forwarding could not resolve). */
static bool may_write(MlirOperation op) {
  return npuc_op_is(op, "vector.transfer_write") ||
         npuc_op_is(op, "affine.store") || npuc_op_is(op, "memref.store") ||
         npuc_op_is(op, "func.call");
}

/* Vector arith ops the schemes turn into AIE ops. */
static bool is_compute_op(MlirOperation op) {
  static const char *const names[] = {"arith.muli", "arith.mulf", "arith.addi",
                                      "arith.addf", "arith.subi", "arith.subf"};
  bool known = false;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    known |= npuc_op_is(op, names[i]);
  return known && mlirOperationGetNumResults(op) == 1 &&
         mlirTypeIsAVector(mlirValueGetType(mlirOperationGetResult(op, 0))) &&
         mlirShapedTypeGetRank(
             mlirValueGetType(mlirOperationGetResult(op, 0))) == 1;
}

static MlirOperation innermost_loop(MlirOperation op) {
  for (MlirOperation p = mlirOperationGetParentOperation(op);
       !mlirOperationIsNull(p); p = mlirOperationGetParentOperation(p)) {
    if (npuc_op_is(p, "affine.for"))
      return p;
    if (npuc_op_is(p, "func.func"))
      break;
  }
  return (MlirOperation){NULL};
}

/* A read whose permutation map yields a constant broadcasts one element. */
static bool read_is_splat(MlirOperation read) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      read, mlirStringRefCreateFromCString("permutation_map"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAAffineMap(a))
    return false;
  MlirAffineMap map = mlirAffineMapAttrGetValue(a);
  return mlirAffineMapGetNumResults(map) == 1 &&
         mlirAffineExprIsAConstant(mlirAffineMapGetResult(map, 0));
}

static bool has_single_use(MlirValue v) {
  MlirOpOperand u = mlirValueGetFirstUse(v);
  return !mlirOpOperandIsNull(u) &&
         mlirOpOperandIsNull(mlirOpOperandGetNextUse(u));
}

/* ---- The unaligned-load check ---------------------------------------- */

static bool row_sizes_aligned(const aie_read *r);
static int64_t loop_step(MlirOperation loop);
static bool inner_loops_aligned(const aie_read *r);

/* AIE loads are aligned, as mlir-aie's check has it: a row whose size is
 * not a multiple of the lanes puts the next row's vectors off the
 * alignment, and so does a loop that moves the read's innermost index by
 * a step, or from or to a bound, that is not a whole number of vectors
 * (a loop from d to d + 4 reads 8 lanes where 4 were meant). Splat reads
 * are not checked: their one element is picked from the aligned vector
 * around it, wherever it is (mlir-aie refuses a step of 4 there too; npuc
 * runs such kernels equal on the emulator, aie1-vectorize-hoisted-read). */
bool aie_check_alignment(aie_state *s) {
  bool aligned = true;
  for (size_t i = 0; i < s->num_reads; i++) {
    aie_read *r = &s->reads[i];
    MlirType mt = mlirValueGetType(mlirOperationGetOperand(r->op, 0));
    if (!mlirTypeIsAMemRef(mt) || r->lanes <= 0)
      continue;
    if (!r->splat && !(row_sizes_aligned(r) && inner_loops_aligned(r)))
      aligned = false;
  }
  if (!aligned)
    npuc_pass_warning(s->func,
                      "Cannot apply aie-vectorize to func.func because "
                      "alignment check has failed.");
  return aligned;
}

/* Every dimension after the first must hold a whole number of vectors. */
static bool row_sizes_aligned(const aie_read *r) {
  MlirType mt = mlirValueGetType(mlirOperationGetOperand(r->op, 0));
  for (intptr_t d = 1; d < mlirShapedTypeGetRank(mt); d++) {
    int64_t size = mlirShapedTypeGetDimSize(mt, d);
    if (mlirShapedTypeIsDynamicSize(size) || size % r->lanes == 0)
      continue;
    npuc_pass_warning(r->op,
                      "vector.transfer_read's shape size of index %ld "
                      "is not divisible by number of vector lanes.",
                      (long)d);
    return false;
  }
  return true;
}

static bool loop_aligned(const aie_read *r, MlirOperation loop);

/* The affine.for loops whose induction variable is the read's innermost
 * index, directly or as an operand of the affine.apply computing it. */
static bool inner_loops_aligned(const aie_read *r) {
  intptr_t n = mlirOperationGetNumOperands(r->op);
  MlirType mt = mlirValueGetType(mlirOperationGetOperand(r->op, 0));
  intptr_t rank = mlirShapedTypeGetRank(mt);
  if (rank < 1 || n < 1 + rank)
    return true;
  MlirValue inner = mlirOperationGetOperand(r->op, rank);
  MlirValue ivs[8];
  intptr_t num_ivs = 0;
  if (mlirValueIsAOpResult(inner) &&
      npuc_op_is(mlirOpResultGetOwner(inner), "affine.apply")) {
    MlirOperation apply = mlirOpResultGetOwner(inner);
    MlirAttribute a = mlirOperationGetAttributeByName(
        apply, mlirStringRefCreateFromCString("map"));
    if (mlirAttributeIsNull(a) || !mlirAttributeIsAAffineMap(a))
      return true;
    MlirAffineMap map = mlirAffineMapAttrGetValue(a);
    MlirAffineExpr e = mlirAffineMapGetResult(map, 0);
    /* Only the dimensions the index is a function of. */
    for (intptr_t k = 0; k < mlirAffineMapGetNumDims(map) && num_ivs < 8; k++)
      if (mlirAffineExprIsFunctionOfDim(e, k))
        ivs[num_ivs++] = mlirOperationGetOperand(apply, k);
  } else {
    ivs[num_ivs++] = inner;
  }
  for (intptr_t k = 0; k < num_ivs; k++) {
    if (!mlirValueIsABlockArgument(ivs[k]))
      continue;
    MlirOperation owner =
        mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(ivs[k]));
    if (npuc_op_is(owner, "affine.for") && !loop_aligned(r, owner))
      return false;
  }
  return true;
}

static bool bound_offsets_aligned(MlirOperation loop, const char *map_name,
                                  int64_t lanes);

/* The loop's step and the constant offsets of its bound maps are whole
 * numbers of vectors; mlir-aie's messages. */
static bool loop_aligned(const aie_read *r, MlirOperation loop) {
  const char *what = NULL;
  int64_t step = loop_step(loop);
  if (step <= 0 || step % r->lanes != 0)
    what = "Loop step";
  else if (!bound_offsets_aligned(loop, "lowerBoundMap", r->lanes))
    what = "Loop lower bound's affine map offset";
  else if (!bound_offsets_aligned(loop, "upperBoundMap", r->lanes))
    what = "Loop upper bound's affine map offset";
  if (!what)
    return true;
  npuc_pass_warning(r->op,
                    "%s of inner index of vector.transfer_read is not "
                    "divisible by number of vector lanes.",
                    what);
  return false;
}

static int64_t offset_residue(MlirAffineExpr e, int64_t lanes);

static bool bound_offsets_aligned(MlirOperation loop, const char *map_name,
                                  int64_t lanes) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      loop, mlirStringRefCreateFromCString(map_name));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAAffineMap(a))
    return true;
  MlirAffineMap map = mlirAffineMapAttrGetValue(a);
  for (intptr_t i = 0; i < mlirAffineMapGetNumResults(map); i++)
    if (offset_residue(mlirAffineMapGetResult(map, i), lanes) != 0)
      return false;
  return true;
}

/* The constant term of a bound that moves with an outer loop (4 in
 * d0 + 4, 0 in d0 * 8), modulo the lanes: each term is reduced first, so
 * no sum overflows. A constant bound has no offset: mlir-aie checks only
 * the maps that have one (a loop to 126 on 8 lanes passes, as there). */
static int64_t offset_residue(MlirAffineExpr e, int64_t lanes) {
  int64_t residue = 0;
  for (int depth = 0; depth < 64 && mlirAffineExprIsAAdd(e); depth++) {
    MlirAffineExpr rhs = mlirAffineBinaryOpExprGetRHS(e);
    if (mlirAffineExprIsAConstant(rhs))
      residue += mlirAffineConstantExprGetValue(rhs) % lanes;
    e = mlirAffineBinaryOpExprGetLHS(e);
  }
  return residue % lanes;
}

/* ---- Reassociation and fma formation ---------------------------------- */

static bool is_splat_read(const aie_state *s, MlirValue v) {
  size_t r = aie_read_of_value(s, v);
  return r != SIZE_MAX && s->reads[r].splat;
}

static bool is_fusable_mul(const aie_state *s, MlirValue v, MlirOperation at) {
  size_t n = aie_node_of_value(s, v);
  return n != SIZE_MAX && s->nodes[n].kind == AIE_MUL &&
         mlirValueIsAOpResult(v) && has_single_use(v) &&
         mlirBlockEqual(mlirOperationGetBlock(mlirOpResultGetOwner(v)),
                        mlirOperationGetBlock(at));
}

static void swap_operands(MlirOperation op) {
  MlirValue a = mlirOperationGetOperand(op, 0);
  MlirValue b = mlirOperationGetOperand(op, 1);
  mlirOperationSetOperand(op, 0, b);
  mlirOperationSetOperand(op, 1, a);
}

/* Puts the streaming (non-splat) operand of a mul on the left, where the
 * AIE multiply reads its wider X operand, and the product of an add on
 * the right, where fma formation looks for it. */
void aie_reassociate(aie_state *s) {
  for (size_t i = 0; i < s->num_nodes; i++) {
    aie_node *n = &s->nodes[i];
    MlirValue a = mlirOperationGetOperand(n->op, 0);
    MlirValue b = mlirOperationGetOperand(n->op, 1);
    if (n->kind == AIE_MUL && is_splat_read(s, a) && !is_splat_read(s, b))
      swap_operands(n->op);
    else if (n->kind == AIE_ADD && is_fusable_mul(s, a, n->op) &&
             !is_fusable_mul(s, b, n->op))
      swap_operands(n->op);
  }
}

/* add(acc, mul(x, z)) -> fma(x, z, acc); sub(acc, mul) -> fma with fmsub.
 * The mul becomes part of the fma node. */
void aie_fuse_fma(aie_state *s) {
  for (size_t i = 0; i < s->num_nodes; i++) {
    aie_node *n = &s->nodes[i];
    n->x = mlirOperationGetOperand(n->op, 0);
    n->z = mlirOperationGetOperand(n->op, 1);
  }
  for (size_t i = 0; i < s->num_nodes; i++) {
    aie_node *n = &s->nodes[i];
    if (n->kind != AIE_ADD && n->kind != AIE_SUB)
      continue;
    MlirValue prod = mlirOperationGetOperand(n->op, 1);
    if (!is_fusable_mul(s, prod, n->op))
      continue;
    aie_node *m = &s->nodes[aie_node_of_value(s, prod)];
    if (m->dead || m->elem_bits != n->elem_bits || m->lanes != n->lanes)
      continue;
    n->fmsub = n->kind == AIE_SUB;
    n->kind = AIE_FMA;
    n->mul = m->op;
    n->acc = mlirOperationGetOperand(n->op, 0);
    n->x = m->x;
    n->z = m->z;
    m->dead = true;
  }
}

/* ---- What the AIE1 schemes support ------------------------------------ */

static void refuse(aie_state *s, MlirOperation at, const char *why) {
  npuc_pass_remark(at,
                   "%s; the function is left as the "
                   "super-vectorizer produced it",
                   why);
  (void)s;
}

static int64_t loop_step(MlirOperation loop) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      loop, mlirStringRefCreateFromCString("step"));
  return mlirAttributeIsAInteger(a) ? mlirIntegerAttrGetValueInt(a) : 0;
}

/* The affine.for whose induction variable moves the read by one element
 * per unit step (the vectorized loop), or null. */
static MlirOperation vectorized_loop(MlirOperation read) {
  MlirOperation none = {NULL};
  MlirType mt = mlirValueGetType(mlirOperationGetOperand(read, 0));
  intptr_t rank = mlirShapedTypeGetRank(mt);
  if (rank < 1 || rank > 16 || mlirOperationGetNumOperands(read) < 1 + rank)
    return none;
  MlirValue idx[16];
  for (intptr_t k = 0; k < rank; k++)
    idx[k] = mlirOperationGetOperand(read, 1 + k);
  npuc_linear_access la;
  if (!npuc_linearize_access(mt, idx, (size_t)rank, &la))
    return none;
  MlirOperation loop = none;
  for (size_t t = 0; t < la.num_terms; t++) {
    MlirValue atom = la.terms[t].atom;
    if (!atom.ptr || la.terms[t].dim != -1 || la.terms[t].coeff != 1 ||
        !mlirValueIsABlockArgument(atom))
      continue;
    MlirOperation owner =
        mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(atom));
    if (npuc_op_is(owner, "affine.for"))
      loop = owner;
  }
  npuc_linear_access_free(&la);
  return loop;
}

static bool scheme_supports(const aie_state *s, const aie_node *n) {
  bool mul_like = n->kind == AIE_MUL || n->kind == AIE_FMA;
  /* AIE-ML: the conv multiplies (mul_conv / fma_conv) and the
   * element-wise ones (mul_elem / mac_elem). */
  if (s->aieml)
    return aie_ml_elementwise(n) || (mul_like && !n->is_float && !n->fmsub &&
                                     ((n->elem_bits == 16 && n->lanes == 16) ||
                                      (n->elem_bits == 8 && n->lanes == 32)));
  if (n->is_float)
    return n->elem_bits == 32 && n->lanes == 8;
  switch (n->elem_bits) {
  case 32: return n->lanes == 8 || (!mul_like && n->lanes == 16);
  case 16: return n->lanes == 16 || (!mul_like && n->lanes == 32);
  case 8: return mul_like && n->lanes == 16;
  default: return false;
  }
}

/* The 8-bit pair's accumulators cannot start from an initial value in
 * pixel order, so generate_mul_8 starts the chain with mul, which cannot
 * subtract. */
static bool subtracts_from_initial_value_8(const aie_state *s,
                                           const aie_node *n) {
  if (n->dead || n->elem_bits != 8 || n->kind != AIE_FMA || !n->fmsub)
    return false;
  size_t d = aie_live_node_of_value(s, n->acc);
  return d == SIZE_MAX ||
         (s->nodes[d].kind != AIE_MUL && s->nodes[d].kind != AIE_FMA);
}

/* A 1-D vector read of a memref, without a mask. */
static bool read_is_plain(const aie_read *r) {
  MlirType vt = mlirValueGetType(mlirOperationGetResult(r->op, 0));
  MlirType mt = mlirValueGetType(mlirOperationGetOperand(r->op, 0));
  if (!mlirTypeIsAMemRef(mt) || mlirShapedTypeGetRank(vt) != 1)
    return false;
  /* source, one index per dimension, padding: a mask would be one more. */
  return mlirOperationGetNumOperands(r->op) == 2 + mlirShapedTypeGetRank(mt);
}

/* Constants in a read's indices stay within the memref's element count
 * (2^31 for a dynamic one): a larger one cannot address the memref, and
 * the reuse analysis would overflow turning it into bits. The index is
 * seen through arith.constant, affine.apply and arith.addi/subi/muli, two
 * levels deep, as npuc_linearize_access sees through them. */
static bool index_in_range(MlirValue v, int64_t limit, int depth);

static bool indices_in_range(const aie_read *r) {
  MlirType mt = mlirValueGetType(mlirOperationGetOperand(r->op, 0));
  int64_t limit = (int64_t)1 << 31, count = 1;
  intptr_t rank = mlirShapedTypeGetRank(mt);
  bool known = mlirShapedTypeHasStaticShape(mt);
  for (intptr_t d = 0; known && d < rank; d++)
    known = npuc_checked_mul(count, mlirShapedTypeGetDimSize(mt, d), &count);
  if (known && count < limit)
    limit = count;
  for (intptr_t k = 1; k <= rank; k++)
    if (!index_in_range(mlirOperationGetOperand(r->op, k), limit, 0))
      return false;
  return true;
}

static bool expr_in_range(MlirAffineExpr e, int64_t limit, int depth) {
  if (mlirAffineExprIsAConstant(e)) {
    int64_t c = mlirAffineConstantExprGetValue(e);
    return c >= -limit && c <= limit;
  }
  if (!mlirAffineExprIsABinary(e))
    return true;
  return depth < 32 &&
         expr_in_range(mlirAffineBinaryOpExprGetLHS(e), limit, depth + 1) &&
         expr_in_range(mlirAffineBinaryOpExprGetRHS(e), limit, depth + 1);
}

static bool index_in_range(MlirValue v, int64_t limit, int depth) {
  if (!mlirValueIsAOpResult(v) || depth > 2)
    return true;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (npuc_op_is(def, "arith.constant")) {
    MlirAttribute a = mlirOperationGetAttributeByName(
        def, mlirStringRefCreateFromCString("value"));
    int64_t c = mlirAttributeIsAInteger(a) ? mlirIntegerAttrGetValueInt(a) : 0;
    return c >= -limit && c <= limit;
  }
  bool apply = npuc_op_is(def, "affine.apply");
  if (apply) {
    MlirAttribute a = mlirOperationGetAttributeByName(
        def, mlirStringRefCreateFromCString("map"));
    MlirAffineMap map = mlirAffineMapAttrGetValue(a);
    for (intptr_t i = 0; i < mlirAffineMapGetNumResults(map); i++)
      if (!expr_in_range(mlirAffineMapGetResult(map, i), limit, 0))
        return false;
  }
  if (!apply && !npuc_op_is(def, "arith.addi") &&
      !npuc_op_is(def, "arith.subi") && !npuc_op_is(def, "arith.muli"))
    return true;
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(def); k++)
    if (!index_in_range(mlirOperationGetOperand(def, k), limit, depth + 1))
      return false;
  return true;
}

/* Operands seen through a cast must have the node's width (AIE1 has no
 * widening multiply of narrow data; aieml narrows nodes first). */
static bool operands_match_width(const aie_state *s, const aie_node *n,
                                 MlirOperation *culprit) {
  MlirValue ops[3] = {n->x, n->z, n->acc};
  for (int k = 0; k < 3; k++) {
    if (!ops[k].ptr)
      continue;
    size_t r = aie_read_of_value(s, ops[k]);
    if (r != SIZE_MAX && s->reads[r].elem_bits != n->elem_bits) {
      *culprit = s->reads[r].op;
      return false;
    }
  }
  return true;
}

bool aie_check_supported(aie_state *s) {
  char why[160];
  for (size_t i = 0; i < s->num_nodes; i++) {
    aie_node *n = &s->nodes[i];
    if (n->dead || scheme_supports(s, n))
      continue;
    snprintf(why, sizeof why,
             "no %s scheme for %s on %lld lanes of %lld-bit %s",
             s->aieml ? "AIE-ML" : "AIE1",
             n->kind == AIE_FMA   ? "a multiply-accumulate"
             : n->kind == AIE_MUL ? "a multiply"
                                  : "an add/sub",
             (long long)n->lanes, (long long)n->elem_bits,
             n->is_float ? "floats" : "integers");
    refuse(s, n->op, why);
    return false;
  }
  for (size_t i = 0; i < s->num_nodes; i++) {
    MlirOperation culprit;
    if (!s->nodes[i].dead && !operands_match_width(s, &s->nodes[i], &culprit)) {
      refuse(s, s->nodes[i].op,
             s->aieml ? "an operand is extended from another width"
                      : "an operand is extended from another width (the "
                        "AIE1 schemes multiply at the data's width; aieml "
                        "narrows such multiplies)");
      return false;
    }
  }
  for (size_t i = 0; i < s->num_nodes; i++) {
    if (subtracts_from_initial_value_8(s, &s->nodes[i])) {
      refuse(s, s->nodes[i].op,
             "an 8-bit multiply-subtract from an initial value (the "
             "8-bit chain starts with mul and adds its initial value after "
             "the srs; there is no negating mul)");
      return false;
    }
  }
  for (size_t i = 0; i < s->num_reads; i++) {
    aie_read *r = &s->reads[i];
    if (r->elem_bits == 0 || r->lanes <= 0) {
      refuse(s, r->op, "unsupported element type of a vector read");
      return false;
    }
    if (!read_is_plain(r)) {
      refuse(s, r->op, "only unmasked 1-D reads of memrefs become AIE loads");
      return false;
    }
    if (!indices_in_range(r)) {
      refuse(s, r->op,
             "an index holds a constant beyond the memref's extent (an "
             "access no AIE load makes; its bit offset would overflow)");
      return false;
    }
    if (mlirOperationIsNull(r->loop) || r->splat)
      continue;
    /* The vectorized loop must step by whole vectors. */
    MlirOperation loop = vectorized_loop(r->op);
    int64_t step = mlirOperationIsNull(loop) ? r->lanes : loop_step(loop);
    if (step != r->lanes) {
      snprintf(why, sizeof why,
               "the vectorized loop steps by %lld, not by the %lld lanes "
               "of its reads",
               (long long)step, (long long)r->lanes);
      refuse(s, r->op, why);
      return false;
    }
  }
  return true;
}

/* ---- Column fusion (16-bit) ------------------------------------------- */

static bool read_distance(const aie_state *s, MlirValue a, MlirValue b,
                          int64_t *dist);
static void absorb_read(aie_state *s, MlirValue v, MlirOperation user);

/* The 16-bit multiply sums two columns per lane: fma(x1, z1, fma(x0, z0,
 * acc)) where x1 reads one element past x0 (same array and base) and z1
 * some elements past z0 becomes one op with a second column (zstep = the
 * z distance). Pairs form greedily along each accumulation chain. */
static bool can_extend(const aie_state *s, aie_node *def, aie_node *n,
                       int64_t *dx, int64_t *dz);

void aie_fuse_columns(aie_state *s) {
  for (size_t i = 0; i < s->num_nodes; i++) {
    aie_node *n = &s->nodes[i];
    n->cols = 1;
    n->last_x = n->x;
    n->last_z = n->z;
  }
  for (size_t i = 0; i < s->num_nodes; i++) {
    aie_node *n = &s->nodes[i];
    if (n->dead || n->kind != AIE_FMA || n->is_float ||
        (n->elem_bits != 16 && n->elem_bits != 8) ||
        (s->aieml && aie_ml_elementwise(n))) /* one column per lane */
      continue;
    size_t d = aie_live_node_of_value(s, n->acc);
    if (d == SIZE_MAX)
      continue;
    aie_node *def = &s->nodes[d];
    int64_t dx, dz;
    if (def->dead || (def->kind != AIE_MUL && def->kind != AIE_FMA) ||
        def->elem_bits != n->elem_bits || def->lanes != n->lanes ||
        def->fmsub != n->fmsub || !has_single_use(n->acc) ||
        !mlirBlockEqual(mlirOperationGetBlock(def->op),
                        mlirOperationGetBlock(n->op)) ||
        !can_extend(s, def, n, &dx, &dz))
      continue;
    def->fused = true;
    def->col_offset_x = (int32_t)dx;
    def->col_offset_z = (int32_t)dz;
    def->cols++;
    def->last_x = n->x;
    def->last_z = n->z;
    n->dead = true;
    n->rep = d;
    absorb_read(s, n->x, n->mul);
    absorb_read(s, n->z, n->mul);
  }
}

/* 16-bit: two columns, x one element on, z 1..15 on. 8-bit: up to eight
 * columns, x (the image) one element on each, z (the filter) a constant
 * distance on each. */
static bool can_extend(const aie_state *s, aie_node *def, aie_node *n,
                       int64_t *dx, int64_t *dz) {
  int max_cols = def->elem_bits == 8 ? 8 : s->aieml ? 4 : 2;
  if (def->cols >= max_cols || !read_distance(s, def->last_x, n->x, dx) ||
      *dx != 1 || !read_distance(s, def->last_z, n->z, dz) || *dz < 1 ||
      *dz > 15)
    return false;
  return def->cols == 1 || *dz == def->col_offset_z;
}

/* Element distance from read a to read b when both read the same array
 * with the same base (and both are splats or neither). */
static bool read_distance(const aie_state *s, MlirValue a, MlirValue b,
                          int64_t *dist) {
  size_t ra = aie_read_of_value(s, a), rb = aie_read_of_value(s, b);
  if (ra == SIZE_MAX || rb == SIZE_MAX ||
      s->reads[ra].splat != s->reads[rb].splat)
    return false;
  MlirOperation oa = s->reads[ra].op, ob = s->reads[rb].op;
  MlirValue ma = mlirOperationGetOperand(oa, 0);
  if (!mlirValueEqual(ma, mlirOperationGetOperand(ob, 0)))
    return false;
  MlirType mt = mlirValueGetType(ma);
  intptr_t rank = mlirShapedTypeGetRank(mt);
  if (rank < 1 || rank > 16)
    return false;
  MlirValue ia[16], ib[16];
  for (intptr_t k = 0; k < rank; k++) {
    ia[k] = mlirOperationGetOperand(oa, 1 + k);
    ib[k] = mlirOperationGetOperand(ob, 1 + k);
  }
  npuc_linear_access la, lb;
  if (!npuc_linearize_access(mt, ia, (size_t)rank, &la))
    return false;
  if (!npuc_linearize_access(mt, ib, (size_t)rank, &lb)) {
    npuc_linear_access_free(&la);
    return false;
  }
  bool same = la.num_terms == lb.num_terms;
  for (size_t t = 0; same && t < la.num_terms; t++)
    same = mlirValueEqual(la.terms[t].atom, lb.terms[t].atom) &&
           la.terms[t].dim == lb.terms[t].dim &&
           la.terms[t].coeff == lb.terms[t].coeff;
  *dist = lb.offset - la.offset;
  npuc_linear_access_free(&la);
  npuc_linear_access_free(&lb);
  return same;
}

/* A read only the absorbed multiply used needs no load of its own. */
static void absorb_read(aie_state *s, MlirValue v, MlirOperation user) {
  size_t r = aie_read_of_value(s, v);
  MlirValue res;
  if (r == SIZE_MAX)
    return;
  res = mlirOperationGetResult(s->reads[r].op, 0);
  MlirOpOperand u = mlirValueGetFirstUse(res);
  if (!mlirOpOperandIsNull(u) &&
      mlirOpOperandIsNull(mlirOpOperandGetNextUse(u)) &&
      mlirOperationEqual(mlirOpOperandGetOwner(u), user))
    s->reads[r].absorbed = true;
}

/* ---- AIE-ML: narrow multiplies --------------------------------------- */

/* Polygeist writes i16 convolutions as i32 arithmetic on sign-extended
 * reads; the AIE-ML conv multiplies take the narrow data and accumulate
 * wide anyway, so such a node is computed at the reads' width. */
void aie_narrow(aie_state *s) {
  for (size_t i = 0; i < s->num_nodes; i++) {
    aie_node *n = &s->nodes[i];
    if (n->dead || (n->kind != AIE_MUL && n->kind != AIE_FMA))
      continue;
    size_t rx = aie_read_of_value(s, n->x), rz = aie_read_of_value(s, n->z);
    if (rx == SIZE_MAX || rz == SIZE_MAX ||
        s->reads[rx].elem_bits != s->reads[rz].elem_bits ||
        s->reads[rx].elem_bits >= n->elem_bits || !mlirValueIsAOpResult(n->x) ||
        !npuc_op_is(mlirOpResultGetOwner(n->x), "arith.extsi"))
      continue;
    n->elem_bits = s->reads[rx].elem_bits;
    n->narrowed = true;
  }
  /* An fma's accumulator chain narrows with it. */
  for (size_t i = 0; i < s->num_nodes; i++) {
    aie_node *n = &s->nodes[i];
    if (n->dead || n->kind != AIE_FMA || n->narrowed)
      continue;
    size_t d = aie_node_of_value(s, n->acc);
    if (d != SIZE_MAX && s->nodes[d].narrowed) {
      n->elem_bits = s->nodes[d].elem_bits;
      n->narrowed = true;
    }
  }
}
