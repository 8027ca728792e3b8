/* Index values of the bubble-up patterns: constants (at the top of the
 * function) and index arithmetic that folds constants and otherwise builds
 * affine.apply or arith ops through the pattern rewriter. */
#include "BubbleUpInternal.h"

#include <mlir-c/AffineExpr.h>
#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

/* ---- values and constants ------------------------------------------------ */

bub_ofr bub_c(int64_t c) {
  bub_ofr x = {{NULL}, c};
  return x;
}

bub_ofr bub_v(MlirValue v) {
  bub_ofr x = {v, 0};
  return x;
}

static bool value_const(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!npuc_op_is(def, "arith.constant"))
    return false;
  MlirAttribute a = bub_attr(def, "value");
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

bool bub_const(bub_ofr x, int64_t *out) {
  if (mlirValueIsNull(x.v)) {
    *out = x.c;
    return x.c != BUB_DYN;
  }
  return value_const(x.v, out);
}

bool bub_is(bub_ofr x, int64_t c) {
  int64_t k;
  return bub_const(x, &k) && k == c;
}

bool bub_eq(bub_ofr a, bub_ofr b) {
  int64_t x, y;
  if (bub_const(a, &x) && bub_const(b, &y))
    return x == y;
  return !mlirValueIsNull(a.v) && !mlirValueIsNull(b.v) &&
         mlirValueEqual(a.v, b.v);
}

/* The block constants belong to: the entry block of the function around
 * the slice (or of the outermost op below the module). */
static MlirBlock constant_block(bub_rw *r) {
  MlirOperation op = r->slice_op, best = {NULL};
  for (; !mlirOperationIsNull(op); op = mlirOperationGetParentOperation(op)) {
    if (npuc_op_is(op, "builtin.module"))
      break;
    best = op;
    if (npuc_op_is(op, "func.func"))
      break;
  }
  if (mlirOperationIsNull(best) || mlirOperationGetNumRegions(best) == 0)
    return (MlirBlock){NULL};
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(best, 0));
}

MlirValue bub_constant(bub_rw *r, MlirType type, int64_t c) {
  MlirAttribute value = mlirIntegerAttrGet(type, c);
  MlirBlock block = constant_block(r);
  MlirOperation first = mlirBlockIsNull(block)
                            ? (MlirOperation){NULL}
                            : mlirBlockGetFirstOperation(block);
  /* Reuse one of the constants at the top of the function, as MLIR's
   * folder keeps them. */
  MlirOperation last = {NULL};
  for (MlirOperation k = first; npuc_op_is(k, "arith.constant");
       k = mlirOperationGetNextInBlock(k)) {
    if (mlirAttributeEqual(bub_attr(k, "value"), value))
      return mlirOperationGetResult(k, 0);
    last = k;
  }
  MlirOperationState st =
      mlirOperationStateGet(bub_str("arith.constant"), r->loc);
  MlirNamedAttribute a = bub_named(r, "value", value);
  mlirOperationStateAddAttributes(&st, 1, &a);
  mlirOperationStateAddResults(&st, 1, &type);
  MlirOperation k = bub_create(r, &st);
  /* After the constants already there, in the order they are made. */
  if (!mlirOperationIsNull(last))
    mlirRewriterBaseMoveOpAfter(r->rw, k, last);
  else if (!mlirOperationIsNull(first) && !mlirOperationEqual(first, k))
    mlirRewriterBaseMoveOpBefore(r->rw, k, first);
  return mlirOperationGetResult(k, 0);
}

MlirValue bub_index(bub_rw *r, int64_t c) {
  return bub_constant(r, mlirIndexTypeGet(r->ctx), c);
}

MlirValue bub_value(bub_rw *r, bub_ofr x) {
  return mlirValueIsNull(x.v) ? bub_index(r, x.c) : x.v;
}

/* Affine expressions over symbols: an index that an affine.apply computes
 * contributes its own expression, so chains of offsets compose into one
 * map (and MLIR's expression constructors simplify them). */
#define MAX_SYMS 16

typedef struct {
  MlirValue syms[MAX_SYMS];
  intptr_t n;
} sym_list;

static intptr_t sym_index(sym_list *l, MlirValue v) {
  for (intptr_t i = 0; i < l->n; i++)
    if (mlirValueEqual(l->syms[i], v))
      return i;
  if (l->n == MAX_SYMS)
    return -1;
  l->syms[l->n] = v;
  return l->n++;
}

/* `e` (over the dims and symbols of an affine.apply with `ops`) with every
 * dim and symbol turned into a symbol of `l`. */
static bool rebuild(MlirContext ctx, MlirAffineExpr e, intptr_t ndims,
                    MlirOperation apply, sym_list *l, MlirAffineExpr *out) {
  if (mlirAffineExprIsAConstant(e)) {
    *out = e;
    return true;
  }
  if (mlirAffineExprIsADim(e) || mlirAffineExprIsASymbol(e)) {
    intptr_t pos = mlirAffineExprIsADim(e)
                       ? mlirAffineDimExprGetPosition(e)
                       : ndims + mlirAffineSymbolExprGetPosition(e);
    if (pos >= mlirOperationGetNumOperands(apply))
      return false;
    intptr_t k = sym_index(l, mlirOperationGetOperand(apply, pos));
    if (k < 0)
      return false;
    *out = mlirAffineSymbolExprGet(ctx, k);
    return true;
  }
  if (!mlirAffineExprIsABinary(e))
    return false;
  MlirAffineExpr lhs, rhs;
  if (!rebuild(ctx, mlirAffineBinaryOpExprGetLHS(e), ndims, apply, l, &lhs) ||
      !rebuild(ctx, mlirAffineBinaryOpExprGetRHS(e), ndims, apply, l, &rhs))
    return false;
  if (mlirAffineExprIsAAdd(e))
    *out = mlirAffineAddExprGet(lhs, rhs);
  else if (mlirAffineExprIsAMul(e))
    *out = mlirAffineMulExprGet(lhs, rhs);
  else if (mlirAffineExprIsAFloorDiv(e))
    *out = mlirAffineFloorDivExprGet(lhs, rhs);
  else if (mlirAffineExprIsACeilDiv(e))
    *out = mlirAffineCeilDivExprGet(lhs, rhs);
  else if (mlirAffineExprIsAMod(e))
    *out = mlirAffineModExprGet(lhs, rhs);
  else
    return false;
  return true;
}

/* The expression of `x` over the symbols of `l`. */
static bool expr_of(bub_rw *r, bub_ofr x, sym_list *l, MlirAffineExpr *out) {
  int64_t c;
  if (bub_const(x, &c)) {
    *out = mlirAffineConstantExprGet(r->ctx, c);
    return true;
  }
  if (mlirValueIsAOpResult(x.v)) {
    MlirOperation def = mlirOpResultGetOwner(x.v);
    if (npuc_op_is(def, "affine.apply")) {
      MlirAffineMap map = mlirAffineMapAttrGetValue(bub_attr(def, "map"));
      sym_list saved = *l;
      if (mlirAffineMapGetNumResults(map) == 1 &&
          rebuild(r->ctx, mlirAffineMapGetResult(map, 0),
                  mlirAffineMapGetNumDims(map), def, l, out))
        return true;
      *l = saved;
    }
  }
  intptr_t k = sym_index(l, x.v);
  if (k < 0)
    return false;
  *out = mlirAffineSymbolExprGet(r->ctx, k);
  return true;
}

/* The value of `e` over `l`: a constant, a symbol itself, or an
 * affine.apply. */
static bub_ofr apply_expr(bub_rw *r, MlirAffineExpr e, sym_list *l) {
  e = mlirSimplifyAffineExpr(e, 0, l->n);
  if (mlirAffineExprIsAConstant(e))
    return bub_c(mlirAffineConstantExprGetValue(e));
  if (mlirAffineExprIsASymbol(e))
    return bub_v(l->syms[mlirAffineSymbolExprGetPosition(e)]);
  MlirAffineMap map = mlirAffineMapGet(r->ctx, 0, l->n, 1, &e);
  MlirType idx = mlirIndexTypeGet(r->ctx);
  MlirOperationState st =
      mlirOperationStateGet(bub_str("affine.apply"), r->loc);
  MlirNamedAttribute a = bub_named(r, "map", mlirAffineMapAttrGet(map));
  mlirOperationStateAddAttributes(&st, 1, &a);
  mlirOperationStateAddOperands(&st, l->n, l->syms);
  mlirOperationStateAddResults(&st, 1, &idx);
  return bub_v(mlirOperationGetResult(bub_create(r, &st), 0));
}

static MlirValue arith_binary(bub_rw *r, const char *name, MlirValue a,
                              MlirValue b) {
  MlirOperationState st = mlirOperationStateGet(bub_str(name), r->loc);
  MlirValue ops[2] = {a, b};
  MlirType t = mlirValueGetType(a);
  mlirOperationStateAddOperands(&st, 2, ops);
  mlirOperationStateAddResults(&st, 1, &t);
  return mlirOperationGetResult(bub_create(r, &st), 0);
}

typedef enum { AFF_ADD, AFF_MUL, AFF_FLOORDIV } aff_kind;

/* a (op) b with b constant for mul and floordiv. */
static bub_ofr affine_binary(bub_rw *r, bub_ofr a, bub_ofr b, aff_kind k) {
  sym_list l;
  l.n = 0;
  MlirAffineExpr ea, eb;
  if (!expr_of(r, a, &l, &ea) || !expr_of(r, b, &l, &eb)) {
    /* Too many symbols to compose: apply to the plain values. */
    l.n = 0;
    ea = mlirAffineSymbolExprGet(r->ctx, sym_index(&l, bub_value(r, a)));
    int64_t c;
    eb = bub_const(b, &c)
             ? mlirAffineConstantExprGet(r->ctx, c)
             : mlirAffineSymbolExprGet(r->ctx, sym_index(&l, bub_value(r, b)));
  }
  MlirAffineExpr e = k == AFF_ADD   ? mlirAffineAddExprGet(ea, eb)
                     : k == AFF_MUL ? mlirAffineMulExprGet(ea, eb)
                                    : mlirAffineFloorDivExprGet(ea, eb);
  return apply_expr(r, e, &l);
}

bub_ofr bub_add(bub_rw *r, bub_ofr a, bub_ofr b) {
  int64_t x, y;
  bool ca = bub_const(a, &x), cb = bub_const(b, &y);
  if (ca && cb)
    return bub_c(x + y);
  if (ca && x == 0)
    return b;
  if (cb && y == 0)
    return a;
  return affine_binary(r, a, b, AFF_ADD);
}

bub_ofr bub_mulc(bub_rw *r, bub_ofr a, int64_t k) {
  int64_t x;
  if (bub_const(a, &x))
    return bub_c(x * k);
  if (k == 0)
    return bub_c(0);
  if (k == 1)
    return a;
  return affine_binary(r, a, bub_c(k), AFF_MUL);
}

bub_ofr bub_floordivc(bub_rw *r, bub_ofr a, int64_t k) {
  int64_t x;
  if (bub_const(a, &x)) {
    int64_t q = x / k;
    if ((x % k != 0) && ((x < 0) != (k < 0)))
      q--;
    return bub_c(q);
  }
  if (k == 1)
    return a;
  return affine_binary(r, a, bub_c(k), AFF_FLOORDIV);
}

bub_ofr bub_mul(bub_rw *r, bub_ofr a, bub_ofr b) {
  int64_t x;
  if (bub_const(b, &x))
    return bub_mulc(r, a, x);
  if (bub_const(a, &x))
    return bub_mulc(r, b, x);
  return bub_v(arith_binary(r, "arith.muli", a.v, b.v));
}

bub_ofr bub_sub(bub_rw *r, bub_ofr a, bub_ofr b) {
  int64_t x, y;
  bool ca = bub_const(a, &x), cb = bub_const(b, &y);
  if (ca && cb)
    return bub_c(x - y);
  if (bub_eq(a, b))
    return bub_c(0);
  if (cb)
    return bub_add(r, a, bub_c(-y));
  return bub_v(arith_binary(r, "arith.subi", bub_value(r, a), b.v));
}

static bub_ofr minmax(bub_rw *r, bub_ofr a, bub_ofr b, bool is_min) {
  int64_t x, y;
  if (bub_const(a, &x) && bub_const(b, &y))
    return bub_c(is_min ? (x < y ? x : y) : (x > y ? x : y));
  if (bub_eq(a, b))
    return a;
  return bub_v(arith_binary(r, is_min ? "arith.minsi" : "arith.maxsi",
                            bub_value(r, a), bub_value(r, b)));
}

bub_ofr bub_min(bub_rw *r, bub_ofr a, bub_ofr b) {
  return minmax(r, a, b, true);
}

bub_ofr bub_max(bub_rw *r, bub_ofr a, bub_ofr b) {
  return minmax(r, a, b, false);
}

static bool expr_multiple_of(MlirAffineExpr e, int64_t k) {
  if (mlirAffineExprIsAConstant(e))
    return mlirAffineConstantExprGetValue(e) % k == 0;
  if (mlirAffineExprIsAMul(e)) {
    MlirAffineExpr l = mlirAffineBinaryOpExprGetLHS(e);
    MlirAffineExpr rr = mlirAffineBinaryOpExprGetRHS(e);
    return expr_multiple_of(l, k) || expr_multiple_of(rr, k);
  }
  if (mlirAffineExprIsAAdd(e))
    return expr_multiple_of(mlirAffineBinaryOpExprGetLHS(e), k) &&
           expr_multiple_of(mlirAffineBinaryOpExprGetRHS(e), k);
  return false;
}

bool bub_multiple_of(bub_ofr x, int64_t k) {
  int64_t c;
  if (k == 1 || k == -1)
    return true;
  if (k == 0)
    return false;
  if (bub_const(x, &c))
    return c % k == 0;
  if (!mlirValueIsAOpResult(x.v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(x.v);
  if (npuc_op_is(def, "affine.apply")) {
    MlirAffineMap map = mlirAffineMapAttrGetValue(bub_attr(def, "map"));
    return mlirAffineMapGetNumResults(map) == 1 &&
           expr_multiple_of(mlirAffineMapGetResult(map, 0), k);
  }
  if (npuc_op_is(def, "arith.muli"))
    return bub_multiple_of(bub_v(mlirOperationGetOperand(def, 0)), k) ||
           bub_multiple_of(bub_v(mlirOperationGetOperand(def, 1)), k);
  return false;
}
