/* check-static-bounds: an access that provably leaves a static memref is an
 * error at the access (issue 15). The C a target emits for it reads or
 * writes outside the buffer: the AIE1 emulator and the reference loops of
 * --target=aie1-cmodel, the Ascend C model, an AIE vector load. MLIR's own
 * verifiers do not look at index values; its test pass
 * `-test-memref-bound-check` does, and its wording is kept here.
 *
 * Looks at affine.load/affine.store and memref.load/memref.store on memrefs
 * of static shape, and at the first element of vector.transfer_read/write
 * (MLIR pads a transfer past the end, but the transfer's first element is
 * the access the super-vectorizer made it from, and an AIE vector load has
 * no padding). An index is understood when it is a linear form over the
 * induction variables of affine.for / scf.for loops with constant bounds
 * (constants, loop IVs, affine maps and arith add/sub/mul by a constant):
 * the loops iterate a box, so the form's smallest and largest values over
 * it are exact, and a value outside 0..extent-1 is reached by some
 * iteration. Anything else (a function argument, a load, a div/mod, a
 * dynamic bound) is not understood and passes. An access under a condition
 * (scf.if, affine.if, any op other than these loops between it and the
 * function) may never run, so it passes too. All sums and products are
 * checked (npuc/Checked.h): a form that overflows int64 passes, as unknown.
 *
 * Requires nothing; changes nothing. Used as a pass and, through
 * npuc_check_static_bounds, by aie-vectorize on its input. */
#include "npuc/BuildOps.h"
#include "npuc/Checked.h"
#include "npuc/Pass.h"
#include "npuc/StaticBounds.h"

#include <mlir-c/AffineExpr.h>
#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdbool.h>
#include <string.h>

static bool check_static_bounds(MlirOperation root,
                                const npuc_pass_options *opts,
                                const npuc_pass_context *ctx);

NPUC_PASS_DEFINE(npuc_pass_check_static_bounds, "check-static-bounds",
                 "Report affine/memref loads and stores that provably access "
                 "outside a static memref",
                 "builtin.module", check_static_bounds);

static bool check_static_bounds(MlirOperation root,
                                const npuc_pass_options *opts,
                                const npuc_pass_context *ctx) {
  (void)opts, (void)ctx;
  return npuc_check_static_bounds(root);
}

/* A linear form: c0 + sum coef[k] * iv[k], over at most MAX_TERMS distinct
 * loop IVs, each with its (non-empty) range lo..hi. */
enum { MAX_TERMS = 8, MAX_DEPTH = 24 };
typedef struct {
  int64_t c0;
  int n;
  MlirValue iv[MAX_TERMS];
  int64_t coef[MAX_TERMS], lo[MAX_TERMS], hi[MAX_TERMS];
} linear;

typedef struct {
  bool ok; /* no access found outside */
} walk_state;

static MlirWalkResult visit(MlirOperation op, void *user);

bool npuc_check_static_bounds(MlirOperation root) {
  walk_state st = {true};
  mlirOperationWalk(root, visit, &st, MlirWalkPreOrder);
  return st.ok;
}

static bool access_parts(MlirOperation op, MlirValue *memref,
                         intptr_t *first_index, MlirAffineMap *map);
static bool runs_unconditionally(MlirOperation op);
static bool index_form(MlirOperation op, intptr_t first, MlirAffineMap map,
                       intptr_t d, linear *out);
static void form_range(const linear *f, int64_t *lo, int64_t *hi);

static MlirWalkResult visit(MlirOperation op, void *user) {
  walk_state *st = user;
  MlirValue memref;
  intptr_t first;
  MlirAffineMap map;
  if (!access_parts(op, &memref, &first, &map))
    return MlirWalkResultAdvance;
  MlirType t = mlirValueGetType(memref);
  if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t) ||
      !runs_unconditionally(op))
    return MlirWalkResultAdvance;
  intptr_t rank = mlirShapedTypeGetRank(t);
  for (intptr_t d = 0; d < rank; d++) {
    linear f;
    if (!index_form(op, first, map, d, &f))
      continue;
    int64_t lo, hi, extent = mlirShapedTypeGetDimSize(t, d);
    form_range(&f, &lo, &hi);
    if (lo >= 0 && hi < extent)
      continue;
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    npuc_pass_error(op,
                    "'%.*s' op memref out of %s bound access along "
                    "dimension #%ld: the index reaches %lld, the extent is "
                    "%lld",
                    (int)name.length, name.data,
                    hi >= extent ? "upper" : "lower", (long)d + 1,
                    (long long)(hi >= extent ? hi : lo), (long long)extent);
    st->ok = false;
    return MlirWalkResultAdvance;
  }
  return MlirWalkResultAdvance;
}

/* The accessed memref, where its index operands start, and the access map
 * (null for memref.load/store, whose indices are the operands). */
static bool access_parts(MlirOperation op, MlirValue *memref,
                         intptr_t *first_index, MlirAffineMap *map) {
  bool store = npuc_op_is(op, "affine.store") ||
               npuc_op_is(op, "memref.store") ||
               npuc_op_is(op, "vector.transfer_write");
  bool affine = npuc_op_is(op, "affine.load") || npuc_op_is(op, "affine.store");
  if (!store && !affine && !npuc_op_is(op, "memref.load") &&
      !npuc_op_is(op, "vector.transfer_read"))
    return false;
  intptr_t at = store ? 1 : 0;
  if (mlirOperationGetNumOperands(op) <= at)
    return false;
  *memref = mlirOperationGetOperand(op, at);
  *first_index = at + 1;
  map->ptr = NULL;
  if (affine) {
    MlirAttribute m = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("map"));
    if (mlirAttributeIsNull(m) || !mlirAttributeIsAAffineMap(m))
      return false;
    *map = mlirAffineMapAttrGetValue(m);
  }
  return true;
}

/* Only loops and the function stand between the op and its function. */
static bool runs_unconditionally(MlirOperation op) {
  for (MlirOperation p = mlirOperationGetParentOperation(op);
       !mlirOperationIsNull(p); p = mlirOperationGetParentOperation(p)) {
    if (npuc_op_is(p, "func.func"))
      return true;
    if (!npuc_op_is(p, "affine.for") && !npuc_op_is(p, "scf.for"))
      return false;
  }
  return false;
}

/* ---- linear forms ---------------------------------------------------- */

static bool value_form(MlirValue v, int depth, linear *out);
static bool expr_form(MlirAffineExpr e, MlirOperation op, intptr_t first,
                      intptr_t num_dims, int depth, linear *out);

/* The form of index `d` of the access. */
static bool index_form(MlirOperation op, intptr_t first, MlirAffineMap map,
                       intptr_t d, linear *out) {
  if (mlirAffineMapIsNull(map)) {
    if (first + d >= mlirOperationGetNumOperands(op))
      return false;
    return value_form(mlirOperationGetOperand(op, first + d), 0, out);
  }
  if (d >= mlirAffineMapGetNumResults(map))
    return false;
  return expr_form(mlirAffineMapGetResult(map, d), op, first,
                   mlirAffineMapGetNumDims(map), 0, out);
}

static void form_constant(linear *f, int64_t c) {
  memset(f, 0, sizeof *f);
  f->c0 = c;
}

/* a += k * b; false when a term or the constant overflows, or there are
 * more IVs than a form holds. */
static bool form_add_scaled(linear *a, const linear *b, int64_t k) {
  int64_t c;
  if (!npuc_checked_mul(b->c0, k, &c) || !npuc_checked_add(a->c0, c, &a->c0))
    return false;
  for (int j = 0; j < b->n; j++) {
    if (!npuc_checked_mul(b->coef[j], k, &c))
      return false;
    int i = 0;
    while (i < a->n && a->iv[i].ptr != b->iv[j].ptr)
      i++;
    if (i == a->n) {
      if (a->n == MAX_TERMS)
        return false;
      a->iv[i] = b->iv[j], a->coef[i] = 0;
      a->lo[i] = b->lo[j], a->hi[i] = b->hi[j];
      a->n++;
    }
    if (!npuc_checked_add(a->coef[i], c, &a->coef[i]))
      return false;
  }
  return true;
}

/* The value of `f` when it holds no IV. */
static bool form_is_constant(const linear *f, int64_t *c) {
  for (int i = 0; i < f->n; i++)
    if (f->coef[i] != 0)
      return false;
  *c = f->c0;
  return true;
}

static bool expr_form(MlirAffineExpr e, MlirOperation op, intptr_t first,
                      intptr_t num_dims, int depth, linear *out) {
  if (depth > MAX_DEPTH)
    return false;
  if (mlirAffineExprIsAConstant(e)) {
    form_constant(out, mlirAffineConstantExprGetValue(e));
    return true;
  }
  intptr_t pos = -1;
  if (mlirAffineExprIsADim(e))
    pos = mlirAffineDimExprGetPosition(e);
  else if (mlirAffineExprIsASymbol(e))
    pos = num_dims + mlirAffineSymbolExprGetPosition(e);
  if (pos >= 0)
    return first + pos < mlirOperationGetNumOperands(op) &&
           value_form(mlirOperationGetOperand(op, first + pos), depth + 1, out);
  bool add = mlirAffineExprIsAAdd(e);
  if (!add && !mlirAffineExprIsAMul(e))
    return false; /* mod, floordiv, ceildiv: not linear */
  linear l, r;
  if (!expr_form(mlirAffineBinaryOpExprGetLHS(e), op, first, num_dims,
                 depth + 1, &l) ||
      !expr_form(mlirAffineBinaryOpExprGetRHS(e), op, first, num_dims,
                 depth + 1, &r))
    return false;
  int64_t k;
  if (add) {
    *out = l;
    return form_add_scaled(out, &r, 1);
  }
  form_constant(out, 0);
  if (form_is_constant(&r, &k))
    return form_add_scaled(out, &l, k);
  return form_is_constant(&l, &k) && form_add_scaled(out, &r, k);
}

static bool iv_form(MlirValue iv, linear *out);
static bool constant_of(MlirValue v, int64_t *c);

static bool value_form(MlirValue v, int depth, linear *out) {
  int64_t c;
  if (depth > MAX_DEPTH)
    return false;
  if (constant_of(v, &c)) {
    form_constant(out, c);
    return true;
  }
  if (mlirValueIsABlockArgument(v))
    return iv_form(v, out);
  MlirOperation def = mlirOpResultGetOwner(v);
  if (npuc_op_is(def, "affine.apply")) {
    MlirAttribute m = mlirOperationGetAttributeByName(
        def, mlirStringRefCreateFromCString("map"));
    if (mlirAttributeIsNull(m) || !mlirAttributeIsAAffineMap(m))
      return false;
    MlirAffineMap map = mlirAffineMapAttrGetValue(m);
    return mlirAffineMapGetNumResults(map) == 1 &&
           expr_form(mlirAffineMapGetResult(map, 0), def, 0,
                     mlirAffineMapGetNumDims(map), depth + 1, out);
  }
  if (npuc_op_is(def, "arith.index_cast"))
    return value_form(mlirOperationGetOperand(def, 0), depth + 1, out);
  bool add = npuc_op_is(def, "arith.addi"), sub = npuc_op_is(def, "arith.subi");
  if (!add && !sub && !npuc_op_is(def, "arith.muli"))
    return false;
  linear l, r;
  if (!value_form(mlirOperationGetOperand(def, 0), depth + 1, &l) ||
      !value_form(mlirOperationGetOperand(def, 1), depth + 1, &r))
    return false;
  if (add || sub) {
    *out = l;
    return form_add_scaled(out, &r, add ? 1 : -1);
  }
  form_constant(out, 0);
  int64_t k;
  if (form_is_constant(&r, &k))
    return form_add_scaled(out, &l, k);
  return form_is_constant(&l, &k) && form_add_scaled(out, &r, k);
}

static bool loop_bounds(MlirOperation loop, int64_t *lb, int64_t *ub,
                        int64_t *step);

/* A loop's IV: its first and last values, when the loop runs at all. */
static bool iv_form(MlirValue iv, linear *out) {
  MlirBlock block = mlirBlockArgumentGetOwner(iv);
  MlirOperation loop = mlirBlockGetParentOperation(block);
  int64_t lb, ub, step, trips, last;
  if (mlirBlockArgumentGetArgNumber(iv) != 0 ||
      !loop_bounds(loop, &lb, &ub, &step) || step <= 0 || ub <= lb ||
      !npuc_checked_add(ub, -lb, &trips) ||
      !npuc_checked_ceil_div(trips, step, &trips) ||
      !npuc_checked_mul(trips - 1, step, &last) ||
      !npuc_checked_add(lb, last, &last))
    return false;
  form_constant(out, 0);
  out->n = 1;
  out->iv[0] = iv, out->coef[0] = 1, out->lo[0] = lb, out->hi[0] = last;
  return true;
}

static bool map_constant(MlirOperation op, const char *name, int64_t *c);
static bool integer_attr(MlirOperation op, const char *name, int64_t *c);

static bool loop_bounds(MlirOperation loop, int64_t *lb, int64_t *ub,
                        int64_t *step) {
  if (npuc_op_is(loop, "affine.for"))
    return map_constant(loop, "lowerBoundMap", lb) &&
           map_constant(loop, "upperBoundMap", ub) &&
           integer_attr(loop, "step", step);
  if (npuc_op_is(loop, "scf.for") && mlirOperationGetNumOperands(loop) >= 3)
    return constant_of(mlirOperationGetOperand(loop, 0), lb) &&
           constant_of(mlirOperationGetOperand(loop, 1), ub) &&
           constant_of(mlirOperationGetOperand(loop, 2), step);
  return false;
}

/* A bound map with one constant result (min/max of several is left). */
static bool map_constant(MlirOperation op, const char *name, int64_t *c) {
  MlirAttribute m =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(m) || !mlirAttributeIsAAffineMap(m))
    return false;
  MlirAffineMap map = mlirAffineMapAttrGetValue(m);
  if (mlirAffineMapGetNumResults(map) != 1)
    return false;
  MlirAffineExpr e = mlirAffineMapGetResult(map, 0);
  if (!mlirAffineExprIsAConstant(e))
    return false;
  *c = mlirAffineConstantExprGetValue(e);
  return true;
}

static bool integer_attr(MlirOperation op, const char *name, int64_t *c) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return false;
  *c = mlirIntegerAttrGetValueInt(a);
  return true;
}

/* An arith.constant of index or integer type. */
static bool constant_of(MlirValue v, int64_t *c) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  return npuc_op_is(def, "arith.constant") && integer_attr(def, "value", c);
}

/* The form's smallest and largest values over the box of its IVs, each
 * computed checked: when one overflows, an empty range, which the caller
 * treats as unknown (in range). */
static void form_range(const linear *f, int64_t *lo, int64_t *hi) {
  *lo = *hi = f->c0;
  for (int i = 0; i < f->n; i++) {
    int64_t a, b;
    if (!npuc_checked_mul(f->coef[i], f->lo[i], &a) ||
        !npuc_checked_mul(f->coef[i], f->hi[i], &b) ||
        !npuc_checked_add(*lo, a < b ? a : b, lo) ||
        !npuc_checked_add(*hi, a < b ? b : a, hi)) {
      *lo = 0, *hi = -1; /* unknown: treated as in range by the caller */
      return;
    }
  }
}
