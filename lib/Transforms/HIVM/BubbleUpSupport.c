/* Support for the bubble-up patterns: slice descriptors, index arithmetic
 * and op builders. Every op is created detached and inserted through the
 * pattern rewriter (mlirRewriterBaseInsert), so the greedy driver tracks it.
 */
#include "BubbleUpInternal.h"

#include <mlir-c/AffineExpr.h>
#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <string.h>

const int64_t BUB_DYN = INT64_MIN; /* mlirShapedTypeGetDynamicSize() */

static const MlirOperation no_op = {NULL};

/* Inlined, so the length of a literal is known at compile time. */
static inline MlirStringRef str(const char *s) {
  return mlirStringRefCreate(s, strlen(s));
}

bool bub_op_is_n(MlirOperation op, const char *name, size_t len) {
  if (mlirOperationIsNull(op))
    return false;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == len && memcmp(n.data, name, len) == 0;
}


/* Called on every slice the greedy driver visits: a lookup by name in the
 * slice's (discardable) attributes, without uniquing the mark's name. */
bool npuc_bubble_is_marked(MlirOperation op) {
  return bub_op_is(op, "tensor.extract_slice") &&
         !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
             op, str(NPUC_BUBBLE_MARK)));
}

intptr_t bub_i64_array(MlirAttribute a, int64_t *out, intptr_t cap) {
  if (mlirAttributeIsNull(a))
    return -1;
  if (mlirAttributeIsADenseI64Array(a)) {
    intptr_t n = mlirDenseArrayGetNumElements(a);
    for (intptr_t i = 0; i < n && i < cap; i++)
      out[i] = mlirDenseI64ArrayGetElement(a, i);
    return n;
  }
  if (mlirAttributeIsAArray(a)) {
    intptr_t n = mlirArrayAttrGetNumElements(a);
    for (intptr_t i = 0; i < n && i < cap; i++) {
      MlirAttribute e = mlirArrayAttrGetElement(a, i);
      if (!mlirAttributeIsAInteger(e))
        return -1;
      out[i] = mlirIntegerAttrGetValueInt(e);
    }
    return n;
  }
  return -1;
}

MlirAttribute bub_i64_array_attr(MlirContext ctx, const int64_t *v,
                                 intptr_t n) {
  return mlirDenseI64ArrayGet(ctx, n, v);
}

/* Attribute names are string literals: their identifiers are looked up
 * once per run (MLIR uniques identifiers through a locked hash table). */
MlirNamedAttribute bub_named(bub_rw *r, const char *name, MlirAttribute a) {
  npuc_bubble_ctx *bc = r->bc;
  for (int i = 0; i < bc->nidents; i++)
    if (bc->idents[i].name == name)
      return mlirNamedAttributeGet(bc->idents[i].id, a);
  MlirIdentifier id = mlirIdentifierGet(r->ctx, str(name));
  if (bc->nidents < (int)(sizeof bc->idents / sizeof bc->idents[0])) {
    bc->idents[bc->nidents].name = name;
    bc->idents[bc->nidents++].id = id;
  }
  return mlirNamedAttributeGet(id, a);
}

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
  if (!bub_op_is(def, "arith.constant"))
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

MlirOperation bub_create(bub_rw *r, MlirOperationState *st) {
  MlirOperation op = mlirOperationCreate(st);
  return mlirRewriterBaseInsert(r->rw, op);
}

/* The block constants belong to: the entry block of the function around
 * the slice (or of the outermost op below the module). */
static MlirBlock constant_block(bub_rw *r) {
  MlirOperation op = r->slice_op, best = {NULL};
  for (; !mlirOperationIsNull(op); op = mlirOperationGetParentOperation(op)) {
    if (bub_op_is(op, "builtin.module"))
      break;
    best = op;
    if (bub_op_is(op, "func.func"))
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
  for (MlirOperation k = first; bub_op_is(k, "arith.constant");
       k = mlirOperationGetNextInBlock(k)) {
    if (mlirAttributeEqual(bub_attr(k, "value"), value))
      return mlirOperationGetResult(k, 0);
    last = k;
  }
  MlirOperationState st = mlirOperationStateGet(str("arith.constant"), r->loc);
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
    intptr_t pos = mlirAffineExprIsADim(e) ? mlirAffineDimExprGetPosition(e)
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
    if (bub_op_is(def, "affine.apply")) {
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
  MlirOperationState st = mlirOperationStateGet(str("affine.apply"), r->loc);
  MlirNamedAttribute a = bub_named(r, "map", mlirAffineMapAttrGet(map));
  mlirOperationStateAddAttributes(&st, 1, &a);
  mlirOperationStateAddOperands(&st, l->n, l->syms);
  mlirOperationStateAddResults(&st, 1, &idx);
  return bub_v(mlirOperationGetResult(bub_create(r, &st), 0));
}

static MlirValue arith_binary(bub_rw *r, const char *name, MlirValue a,
                              MlirValue b) {
  MlirOperationState st = mlirOperationStateGet(str(name), r->loc);
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
  if (bub_op_is(def, "affine.apply")) {
    MlirAffineMap map = mlirAffineMapAttrGetValue(bub_attr(def, "map"));
    return mlirAffineMapGetNumResults(map) == 1 &&
           expr_multiple_of(mlirAffineMapGetResult(map, 0), k);
  }
  if (bub_op_is(def, "arith.muli"))
    return bub_multiple_of(bub_v(mlirOperationGetOperand(def, 0)), k) ||
           bub_multiple_of(bub_v(mlirOperationGetOperand(def, 1)), k);
  return false;
}

/* ---- types ------------------------------------------------------------------ */

/* bub_type on a miss: reads the type into its slot. */
bub_type_info bub_type_fill(npuc_bubble_ctx *bc, MlirType t) {
  if (mlirTypeIsNull(t))
    return (bub_type_info){-1, false, NULL};
  size_t slot = ((uintptr_t)t.ptr >> 4) % (sizeof bc->types / sizeof bc->types[0]);
  if (bc->types[slot].type != t.ptr) {
    bc->types[slot].type = t.ptr;
    bc->types[slot].ranked_tensor = bub_is_ranked_tensor(t);
    bc->types[slot].rank =
        bc->types[slot].ranked_tensor || (mlirTypeIsAShaped(t) &&
                                          mlirShapedTypeHasRank(t))
            ? bub_shape(t, bc->types[slot].shape)
            : -1;
  }
  bub_type_info info = {bc->types[slot].rank, bc->types[slot].ranked_tensor,
                        bc->types[slot].shape};
  return info;
}

bool bub_is_ranked_tensor(MlirType t) {
  return !mlirTypeIsNull(t) && mlirTypeIsARankedTensor(t);
}

int64_t bub_rank(MlirType t) {
  /* Ranked tensors first: each shaped-type query looks up an interface. */
  if (mlirTypeIsARankedTensor(t))
    return mlirShapedTypeGetRank(t);
  return mlirShapedTypeHasRank(t) ? mlirShapedTypeGetRank(t) : -1;
}

int bub_shape(MlirType t, int64_t *out) {
  int64_t rank = bub_rank(t);
  if (rank < 0 || rank > BUB_MAX_RANK)
    return -1;
  for (intptr_t d = 0; d < rank; d++)
    out[d] = mlirShapedTypeGetDimSize(t, d); /* BUB_DYN when dynamic */
  return (int)rank;
}

int64_t bub_dim_size(MlirType t, intptr_t d) {
  return mlirShapedTypeIsDynamicDim(t, d) ? BUB_DYN
                                          : mlirShapedTypeGetDimSize(t, d);
}

bub_ofr bub_dim(bub_rw *r, MlirValue v, intptr_t d) {
  MlirType t = mlirValueGetType(v);
  if (!mlirShapedTypeIsDynamicDim(t, d))
    return bub_c(mlirShapedTypeGetDimSize(t, d));
  if (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    bub_slice s;
    if (bub_op_is(def, "tensor.extract_slice") && bub_slice_read(def, 1, &s) &&
        s.rank == mlirShapedTypeGetRank(t) && !mlirValueIsNull(s.size[d].v))
      return s.size[d]; /* a full-rank slice: its size operand */
    if (bub_op_is(def, "tensor.empty") || bub_op_is(def, "memref.alloc")) {
      intptr_t k = 0;
      for (intptr_t i = 0; i < d; i++)
        k += mlirShapedTypeIsDynamicDim(t, i);
      if (k < mlirOperationGetNumOperands(def))
        return bub_v(mlirOperationGetOperand(def, k));
    }
  }
  if (!r)
    return bub_c(BUB_DYN);
  MlirValue ops[2] = {v, bub_index(r, d)};
  MlirType idx = mlirIndexTypeGet(r->ctx);
  MlirOperationState st = mlirOperationStateGet(
      str(mlirTypeIsAMemRef(t) ? "memref.dim" : "tensor.dim"), r->loc);
  mlirOperationStateAddOperands(&st, 2, ops);
  mlirOperationStateAddResults(&st, 1, &idx);
  return bub_v(mlirOperationGetResult(bub_create(r, &st), 0));
}

MlirType bub_slice_tensor_type(MlirType src, const bub_slice *s,
                               const bool *drop) {
  int64_t shape[BUB_MAX_RANK];
  intptr_t n = 0;
  for (int i = 0; i < s->rank; i++) {
    if (drop && drop[i])
      continue;
    int64_t c;
    shape[n++] = mlirValueIsNull(s->size[i].v) && bub_const(s->size[i], &c)
                     ? c
                     : BUB_DYN;
  }
  return mlirRankedTensorTypeGet(n, shape, mlirShapedTypeGetElementType(src),
                                 mlirRankedTensorTypeGetEncoding(src));
}

static bool same_sizes(const bub_slice *a, const bub_slice *b) {
  if (a->rank != b->rank)
    return false;
  for (int i = 0; i < a->rank; i++)
    if (a->size[i].v.ptr != b->size[i].v.ptr ||
        (mlirValueIsNull(a->size[i].v) && a->size[i].c != b->size[i].c))
      return false;
  return true;
}

MlirType bub_sliced_type(bub_rw *r, MlirType src, const bub_slice *s,
                         const bool *drop) {
  for (int i = 0; drop && i < s->rank; i++)
    if (drop[i])
      return bub_slice_tensor_type(src, s, drop);
  npuc_bubble_ctx *bc = r->bc;
  if (mlirTypeIsNull(bc->memo_src) || !mlirTypeEqual(bc->memo_src, src) ||
      !same_sizes(s, &bc->memo_sizes)) {
    bc->memo_src = src;
    bc->memo_res = bub_slice_tensor_type(src, s, NULL);
    bc->memo_sizes.rank = s->rank;
    memcpy(bc->memo_sizes.size, s->size, sizeof s->size[0] * (size_t)s->rank);
  }
  return bc->memo_res;
}

/* ---- slices ---------------------------------------------------------------- */

/* An inherent attribute, or a plain one on an unregistered op. */
static MlirAttribute any_attr(MlirOperation op, const char *name) {
  MlirAttribute a = mlirOperationGetInherentAttributeByName(op, str(name));
  return mlirAttributeIsNull(a) ? bub_attr(op, name) : a;
}

/* One static list whose dynamic entries are the next operands. */
static bool read_mixed(MlirOperation op, const int64_t *statics, intptr_t n,
                       intptr_t *next, intptr_t nops, bub_ofr *out) {
  for (intptr_t i = 0; i < n; i++) {
    if (statics[i] != BUB_DYN)
      out[i] = bub_c(statics[i]);
    else if (*next < nops)
      out[i] = bub_v(mlirOperationGetOperand(op, (*next)++));
    else
      return false;
  }
  return true;
}

bool bub_slice_read(MlirOperation op, intptr_t dyn_start, bub_slice *out) {
  int64_t offs[BUB_MAX_RANK], sizes[BUB_MAX_RANK], strides[BUB_MAX_RANK];
  intptr_t n =
      bub_i64_array(any_attr(op, "static_offsets"), offs, BUB_MAX_RANK);
  if (n < 0 || n > BUB_MAX_RANK ||
      bub_i64_array(any_attr(op, "static_sizes"), sizes, BUB_MAX_RANK) != n ||
      bub_i64_array(any_attr(op, "static_strides"), strides, BUB_MAX_RANK) !=
          n)
    return false;
  intptr_t next = dyn_start, nops = mlirOperationGetNumOperands(op);
  out->rank = (int)n;
  if (!read_mixed(op, offs, n, &next, nops, out->off) ||
      !read_mixed(op, sizes, n, &next, nops, out->size))
    return false;
  for (intptr_t i = 0; i < n; i++) {
    int64_t c = BUB_DYN;
    if (strides[i] == BUB_DYN && next < nops)
      value_const(mlirOperationGetOperand(op, next++), &c);
    out->stride[i] = strides[i] != BUB_DYN ? strides[i] : c;
  }
  return true;
}

intptr_t bub_cached_i64_array(npuc_bubble_ctx *bc, MlirAttribute a,
                              int64_t *out) {
  size_t slot = ((uintptr_t)a.ptr >> 4) % (sizeof bc->arrays / sizeof bc->arrays[0]);
  if (a.ptr && bc->arrays[slot].attr == a.ptr) {
    intptr_t n = bc->arrays[slot].n;
    memcpy(out, bc->arrays[slot].v, sizeof out[0] * (size_t)n);
    return n;
  }
  intptr_t n = bub_i64_array(a, out, BUB_MAX_RANK);
  if (n >= 0 && n <= BUB_MAX_RANK) {
    bc->arrays[slot].attr = a.ptr;
    bc->arrays[slot].n = n;
    memcpy(bc->arrays[slot].v, out, sizeof out[0] * (size_t)n);
  }
  return n;
}

bool bub_extract_slice_read(npuc_bubble_ctx *bc, MlirOperation op,
                            bub_slice *out) {
  static const char *const names[3] = {"static_offsets", "static_sizes",
                                       "static_strides"};
  int64_t parts[3][BUB_MAX_RANK];
  intptr_t n = -1;
  for (int k = 0; k < 3; k++) {
    intptr_t m = bub_cached_i64_array(
        bc, mlirOperationGetInherentAttributeByName(op, str(names[k])),
        parts[k]);
    if (m < 0 || m > BUB_MAX_RANK || (k > 0 && m != n))
      return false;
    n = m;
  }
  intptr_t next = 1, nops = mlirOperationGetNumOperands(op);
  out->rank = (int)n;
  if (!read_mixed(op, parts[0], n, &next, nops, out->off) ||
      !read_mixed(op, parts[1], n, &next, nops, out->size))
    return false;
  for (intptr_t i = 0; i < n; i++) {
    int64_t c = BUB_DYN;
    if (parts[2][i] == BUB_DYN && next < nops)
      value_const(mlirOperationGetOperand(op, next++), &c);
    out->stride[i] = parts[2][i] != BUB_DYN ? parts[2][i] : c;
  }
  return true;
}

void bub_slice_full(bub_rw *r, MlirValue v, bub_slice *out) {
  MlirType t = mlirValueGetType(v);
  out->rank = (int)mlirShapedTypeGetRank(t);
  for (int i = 0; i < out->rank; i++) {
    out->off[i] = bub_c(0);
    out->size[i] = bub_dim(r, v, i);
    out->stride[i] = 1;
  }
}

bool bub_slice_full_dim(const bub_slice *s, MlirValue v, intptr_t d) {
  if (!bub_is(s->off[d], 0) || s->stride[d] != 1)
    return false;
  bub_ofr dim = bub_dim(NULL, v, d);
  return !(mlirValueIsNull(dim.v) && dim.c == BUB_DYN) &&
         bub_eq(s->size[d], dim);
}

bool bub_slice_is_identity(const bub_slice *s, MlirValue v) {
  for (int i = 0; i < s->rank; i++)
    if (!bub_slice_full_dim(s, v, i))
      return false;
  return true;
}

bool bub_slice_unit_strides(const bub_slice *s) {
  for (int i = 0; i < s->rank; i++)
    if (s->stride[i] != 1)
      return false;
  return true;
}

bool bub_dropped_dims(const bub_slice *s, MlirType result, bool *drop) {
  intptr_t rr = mlirShapedTypeGetRank(result), j = 0;
  for (int i = 0; i < s->rank; i++) {
    drop[i] = false;
    if (rr == s->rank)
      continue;
    int64_t c;
    bool is_const = mlirValueIsNull(s->size[i].v) && bub_const(s->size[i], &c);
    int64_t want = j < rr ? bub_dim_size(result, j) : 0;
    bool matches = j < rr && (is_const ? want == c : want == BUB_DYN);
    /* A unit dim is dropped while more source dims than result dims
     * remain, so trailing unit dims of the result still find theirs. */
    if (matches && is_const && c == 1 && rr - j < s->rank - i)
      matches = false;
    if (matches)
      j++;
    else if (is_const && c == 1)
      drop[i] = true;
    else
      return false;
  }
  return rr == s->rank || j == rr;
}

/* ---- building ops ------------------------------------------------------------- */

static MlirAttribute i32_segments(MlirContext ctx, const int32_t *v,
                                  intptr_t n) {
  return mlirDenseI32ArrayGet(ctx, n, v);
}

static void add_discardable_attrs(MlirOperationState *st, MlirOperation from,
                                  const char *skip) {
  intptr_t n = mlirOperationGetNumDiscardableAttributes(from);
  for (intptr_t i = 0; i < n; i++) {
    MlirNamedAttribute a = mlirOperationGetDiscardableAttribute(from, i);
    MlirStringRef name = mlirIdentifierStr(a.name);
    if (skip && name.length == strlen(skip) &&
        memcmp(name.data, skip, name.length) == 0)
      continue;
    mlirOperationStateAddAttributes(st, 1, &a);
  }
}

/* static_* arrays and dynamic operands of a slice-like op. */
static void add_slice_parts(bub_rw *r, MlirOperationState *st,
                            const bub_slice *s, int32_t *counts) {
  int64_t arr[3][BUB_MAX_RANK];
  counts[0] = counts[1] = counts[2] = 0;
  for (int i = 0; i < s->rank; i++) {
    if (mlirValueIsNull(s->off[i].v)) {
      arr[0][i] = s->off[i].c;
    } else {
      arr[0][i] = BUB_DYN;
      mlirOperationStateAddOperands(st, 1, &s->off[i].v);
      counts[0]++;
    }
  }
  for (int i = 0; i < s->rank; i++) {
    if (mlirValueIsNull(s->size[i].v)) {
      arr[1][i] = s->size[i].c;
    } else {
      arr[1][i] = BUB_DYN;
      mlirOperationStateAddOperands(st, 1, &s->size[i].v);
      counts[1]++;
    }
  }
  for (int i = 0; i < s->rank; i++)
    arr[2][i] = s->stride[i];
  MlirNamedAttribute attrs[3] = {
      bub_named(r, "static_offsets",
                bub_i64_array_attr(r->ctx, arr[0], s->rank)),
      bub_named(r, "static_sizes",
                bub_i64_array_attr(r->ctx, arr[1], s->rank)),
      bub_named(r, "static_strides",
                bub_i64_array_attr(r->ctx, arr[2], s->rank)),
  };
  mlirOperationStateAddAttributes(st, 3, attrs);
}

/* The empty tensor of `type` for a slice `s` of the empty tensor `old`.
 * When several ops share `old` as their init, they share the new one too:
 * it goes right after `old`, where a later slice of `old` finds it, so a
 * chain of N ops gets one new empty tensor rather than N. An empty tensor
 * used once is replaced where the slice is. */
static MlirValue shared_empty(bub_rw *r, MlirOperation old, MlirType type,
                              const bub_slice *s, bool *shared_place) {
  MlirValue ov = mlirOperationGetResult(old, 0);
  MlirOperation after = mlirOperationGetNextInBlock(old);
  /* One made before for another user: among the ops right after `old`. */
  MlirOperation k = after;
  for (int n = 0; n < 8 && !mlirOperationIsNull(k);
       n++, k = mlirOperationGetNextInBlock(k)) {
    if (bub_op_is(k, "annotation.mark"))
      continue;
    if (!bub_op_is(k, "tensor.empty"))
      break;
    MlirValue kv = mlirOperationGetResult(k, 0);
    intptr_t i = 0, nk = mlirOperationGetNumOperands(k);
    bool same = mlirTypeEqual(mlirValueGetType(kv), type);
    for (int d = 0; d < s->rank && same; d++)
      if (!mlirValueIsNull(s->size[d].v))
        same = i < nk &&
               mlirValueEqual(mlirOperationGetOperand(k, i++), s->size[d].v);
    if (same && i == nk) {
      *shared_place = true;
      return kv;
    }
  }
  MlirOpOperand u = mlirValueGetFirstUse(ov);
  bool shared = !mlirOpOperandIsNull(u) &&
                !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u));
  for (int d = 0; shared && d < s->rank; d++)
    shared = mlirValueIsNull(s->size[d].v) ||
             bub_dominates(s->size[d].v, after);
  MlirValue e = bub_empty(r, type, s);
  if (shared)
    mlirRewriterBaseMoveOpAfter(r->rw, mlirOpResultGetOwner(e), old);
  MlirOperation mark = bub_mark_buffer_size(r, e, type, mlirValueGetType(ov));
  if (shared && !mlirOperationIsNull(mark))
    mlirRewriterBaseMoveOpAfter(r->rw, mark, mlirOpResultGetOwner(e));
  *shared_place = shared;
  return e;
}

/* A marked slice made from the slice being rewritten (which carries only
 * the mark): cloning it and setting its parts is several times cheaper
 * than building an op from an attribute list, which MLIR sorts and
 * uniques; bubbling a long chain creates one per op. */
static bool reuse_slice(bub_rw *r);
static void forget_shared(bub_rw *r);

static MlirValue extract_like_slice(bub_rw *r, MlirValue src,
                                    const bub_slice *s, MlirType type) {
  MlirValue ops[1 + 2 * BUB_MAX_RANK];
  int64_t arr[3][BUB_MAX_RANK];
  intptr_t n = 0;
  int32_t seg[4] = {1, 0, 0, 0};
  ops[n++] = src;
  for (int i = 0; i < s->rank; i++) {
    arr[0][i] = mlirValueIsNull(s->off[i].v) ? s->off[i].c : BUB_DYN;
    if (!mlirValueIsNull(s->off[i].v)) {
      ops[n++] = s->off[i].v;
      seg[1]++;
    }
  }
  for (int i = 0; i < s->rank; i++) {
    arr[1][i] = mlirValueIsNull(s->size[i].v) ? s->size[i].c : BUB_DYN;
    if (!mlirValueIsNull(s->size[i].v)) {
      ops[n++] = s->size[i].v;
      seg[2]++;
    }
    arr[2][i] = s->stride[i];
  }
  /* The template's own parts: only what differs is set. */
  const bub_slice *t = r->reused ? &r->reused_as : &r->s;
  bool same[3] = {t->rank == s->rank, t->rank == s->rank, t->rank == s->rank};
  int32_t tseg[4] = {1, 0, 0, 0};
  for (int i = 0; i < t->rank; i++) {
    tseg[1] += !mlirValueIsNull(t->off[i].v);
    tseg[2] += !mlirValueIsNull(t->size[i].v);
    if (i >= s->rank)
      continue;
    same[0] &= (mlirValueIsNull(t->off[i].v) ? t->off[i].c : BUB_DYN) ==
               arr[0][i];
    same[1] &= (mlirValueIsNull(t->size[i].v) ? t->size[i].c : BUB_DYN) ==
               arr[1][i];
    same[2] &= t->stride[i] == arr[2][i];
  }
  bool reuse = reuse_slice(r);
  MlirOperation op =
      reuse ? r->slice_op : mlirRewriterBaseClone(r->rw, r->slice_op);
  mlirOperationSetOperands(op, n, ops);
  static const char *const names[3] = {"static_offsets", "static_sizes",
                                       "static_strides"};
  for (int k = 0; k < 3; k++)
    if (!same[k])
      mlirOperationSetInherentAttributeByName(
          op, str(names[k]), bub_i64_array_attr(r->ctx, arr[k], s->rank));
  if (memcmp(seg, tseg, sizeof seg) != 0)
    mlirOperationSetInherentAttributeByName(op, str("operandSegmentSizes"),
                                            i32_segments(r->ctx, seg, 4));
  MlirValue v = mlirOperationGetResult(op, 0);
  mlirValueSetType(v, type);
  if (reuse) {
    mlirRewriterBaseFinalizeOpModification(r->rw, op);
    r->reused_as = *s;
  }
  return v;
}

/* In place, the slice being rewritten moves up to become the first new
 * marked slice of an operand, rather than a copy of it being made and the
 * slice erased: when a chain bubbles, the same slice op climbs it. Its
 * uses are remembered for bub_replace. Starts the modification of the
 * slice when it returns true. */
static bool reuse_slice(bub_rw *r) {
  if (!r->in_place || r->reused)
    return false;
  MlirOperation at = mlirRewriterBaseGetOperationAfterInsertion(r->rw);
  if (mlirOperationIsNull(at))
    return false;
  MlirValue sv = mlirOperationGetResult(r->slice_op, 0);
  int n = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(sv); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u), n++) {
    if (n == (int)(sizeof r->old_uses / sizeof r->old_uses[0]))
      return false;
    r->old_uses[n].owner = mlirOpOperandGetOwner(u);
    r->old_uses[n].index = (intptr_t)mlirOpOperandGetOperandNumber(u);
  }
  r->nold_uses = n;
  r->reused = true;
  forget_shared(r); /* in case one was the slice */
  mlirRewriterBaseMoveOpBefore(r->rw, r->slice_op, at);
  mlirRewriterBaseStartOpModification(r->rw, r->slice_op);
  return true;
}

static MlirValue build_extract(bub_rw *r, MlirValue src, const bub_slice *s,
                               bool marked, MlirOperation attrs_from,
                               MlirType type);
static void note_shared(bub_rw *r, MlirValue src, MlirOperation k);

static bool is_slice_of(MlirOperation k, MlirValue src) {
  return bub_op_is(k, "tensor.extract_slice") &&
         mlirValueEqual(mlirOperationGetOperand(k, 0), src);
}

/* Is `k` a marked slice of `src` (carrying nothing but the mark) of type
 * `type` taking `s`? */
static bool is_equal_slice(npuc_bubble_ctx *bc, MlirOperation k,
                           MlirValue src, MlirType type, const bub_slice *s) {
  bub_slice ks;
  if (!bub_op_is(k, "tensor.extract_slice") ||
      !mlirValueEqual(mlirOperationGetOperand(k, 0), src) ||
      !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(k, 0)), type) ||
      mlirOperationGetNumDiscardableAttributes(k) != 1 ||
      !npuc_bubble_is_marked(k) || !bub_extract_slice_read(bc, k, &ks) ||
      ks.rank != s->rank)
    return false;
  for (int d = 0; d < s->rank; d++)
    if (!bub_eq(ks.off[d], s->off[d]) || !bub_eq(ks.size[d], s->size[d]) ||
        ks.stride[d] != s->stride[d])
      return false;
  return true;
}

/* Is `tt` (a to_tensor) the tensor of a static memref.alloc, or of a
 * memory-space cast of one: a buffer the to-tensor pattern can narrow? The
 * others keep their slices where their users are. */
static bool of_local_buffer(MlirOperation tt) {
  MlirValue buf = mlirOperationGetOperand(tt, 0);
  MlirOperation def = mlirValueIsAOpResult(buf) ? mlirOpResultGetOwner(buf)
                                                : no_op;
  if (bub_op_is(def, "memref.memory_space_cast")) {
    buf = mlirOperationGetOperand(def, 0);
    def = mlirValueIsAOpResult(buf) ? mlirOpResultGetOwner(buf) : no_op;
  }
  return bub_op_is(def, "memref.alloc") &&
         mlirOperationGetNumOperands(def) == 0;
}

/* Where the one marked slice of `src` that all its readers share goes
 * (bub_extract): right after the to_tensor of a local buffer, or after the
 * constants at the top of a function for its arguments. Null when `src`
 * gets a slice per reader. */
static MlirOperation shared_slice_place(MlirValue src) {
  if (mlirValueIsABlockArgument(src)) {
    MlirBlock b = mlirBlockArgumentGetOwner(src);
    if (!bub_op_is(mlirBlockGetParentOperation(b), "func.func"))
      return no_op; /* loop-carried values have their own patterns */
    MlirOperation k = mlirBlockGetFirstOperation(b);
    while (bub_op_is(k, "arith.constant"))
      k = mlirOperationGetNextInBlock(k);
    return k;
  }
  MlirOperation def = mlirOpResultGetOwner(src);
  if (!bub_op_is(def, "bufferization.to_tensor") || !of_local_buffer(def))
    return no_op;
  return mlirOperationGetNextInBlock(def);
}

/* The marked slice `s` of `src` when several ops read `src` whole: a
 * function argument, or the tensor of a buffer. Every op of a chain that
 * reads it would get its own slice, all equal, each visited by the driver
 * (and, for a buffer, merged by the to-tensor pattern once all are made).
 * Instead one slice at shared_slice_place serves them all: later rewrites
 * find it there. Null when `src` is read once, has no such place, or the
 * slice's offsets or sizes are computed after that place. */
static MlirValue shared_slice(bub_rw *r, MlirValue src, MlirType type,
                              const bub_slice *s) {
  MlirOperation at = shared_slice_place(src);
  if (mlirOperationIsNull(at) ||
      r->nshared == (int)(sizeof r->shared / sizeof r->shared[0]))
    return (MlirValue){NULL};
  /* The shared slices of `src` are the run of its marked slices at the
   * place (a slice a reader made for itself may follow them: it is not
   * looked at). */
  MlirOperation k = at;
  for (int n = 0; n < 8 && is_slice_of(k, src);
       n++, k = mlirOperationGetNextInBlock(k)) {
    if (is_equal_slice(r->bc, k, src, type, s)) {
      note_shared(r, src, k);
      return mlirOperationGetResult(k, 0);
    }
  }
  MlirOpOperand u = mlirValueGetFirstUse(src);
  if (mlirOpOperandIsNull(u) || mlirOpOperandIsNull(mlirOpOperandGetNextUse(u)))
    return (MlirValue){NULL};
  for (int d = 0; d < s->rank; d++)
    if ((!mlirValueIsNull(s->off[d].v) && !bub_dominates(s->off[d].v, at)) ||
        (!mlirValueIsNull(s->size[d].v) && !bub_dominates(s->size[d].v, at)))
      return (MlirValue){NULL};
  MlirValue v = build_extract(r, src, s, true, no_op, type);
  k = mlirOpResultGetOwner(v);
  mlirRewriterBaseMoveOpBefore(r->rw, k, at);
  note_shared(r, src, k);
  return v;
}

/* A shared slice of a to_tensor may have to wake it (bub_wake_shared). */
static void note_shared(bub_rw *r, MlirValue src, MlirOperation k) {
  if (!mlirValueIsAOpResult(src))
    return;
  for (int i = 0; i < r->nshared; i++)
    if (mlirOperationEqual(r->shared[i], k))
      return; /* an elementwise run reads it in every op */
  r->shared[r->nshared++] = k;
}

/* Is (src, type, s) the last shared slice taken in this application? The
 * parts must be the same values and constants, not just equal ones. */
/* The shared slice of `src` by `s` this application found or made, or
 * null. */
static MlirValue recall_shared(const bub_rw *r, MlirValue src,
                               const bub_slice *s) {
  for (int k = 0; k < 2; k++) {
    const bub_slice *t = &r->shared_memo[k].s;
    if (mlirValueIsNull(r->shared_memo[k].v) ||
        !mlirValueEqual(r->shared_memo[k].src, src) || t->rank != s->rank)
      continue;
    bool same = true;
    for (int d = 0; d < s->rank && same; d++)
      same = t->off[d].v.ptr == s->off[d].v.ptr && t->off[d].c == s->off[d].c &&
             t->size[d].v.ptr == s->size[d].v.ptr &&
             t->size[d].c == s->size[d].c && t->stride[d] == s->stride[d];
    if (same)
      return r->shared_memo[k].v;
  }
  return (MlirValue){NULL};
}

static MlirValue remember_shared(bub_rw *r, MlirValue src, const bub_slice *s,
                                 MlirValue v) {
  int k = r->shared_memo_next;
  r->shared_memo_next ^= 1;
  r->shared_memo[k].src = src;
  r->shared_memo[k].v = v;
  r->shared_memo[k].s = *s;
  return v;
}

static void forget_shared(bub_rw *r) {
  r->shared_memo[0].v = r->shared_memo[1].v = (MlirValue){NULL};
}

MlirValue bub_extract(bub_rw *r, MlirValue src, const bub_slice *s,
                      const bool *drop, bool marked,
                      MlirOperation attrs_from) {
  bool drops = false;
  for (int i = 0; drop && i < s->rank; i++)
    drops |= drop[i];
  bool plain = marked && !drops && mlirOperationIsNull(attrs_from);
  MlirValue v = plain ? recall_shared(r, src, s) : (MlirValue){NULL};
  if (!mlirValueIsNull(v))
    return v;
  if (!drops && bub_slice_is_identity(s, src))
    return src;
  MlirType type = bub_sliced_type(r, mlirValueGetType(src), s, drop);
  MlirOperation def =
      mlirValueIsAOpResult(src) ? mlirOpResultGetOwner(src) : no_op;
  /* A marked slice of an empty tensor would become an empty tensor (the
   * empty pattern): make that directly. */
  if (marked && !drops && bub_op_is(def, "tensor.empty")) {
    bool shared;
    v = shared_empty(r, def, type, s, &shared);
    return plain && shared ? remember_shared(r, src, s, v) : v;
  }
  if (plain) {
    v = shared_slice(r, src, type, s);
    if (!mlirValueIsNull(v))
      return remember_shared(r, src, s, v);
  }
  if (plain && mlirOperationGetNumDiscardableAttributes(r->slice_op) == 1)
    return extract_like_slice(r, src, s, type);
  return build_extract(r, src, s, marked, attrs_from, type);
}

/* A new tensor.extract_slice of type `type` (bub_extract). */
static MlirValue build_extract(bub_rw *r, MlirValue src, const bub_slice *s,
                               bool marked, MlirOperation attrs_from,
                               MlirType type) {
  MlirOperationState st =
      mlirOperationStateGet(str("tensor.extract_slice"), r->loc);
  mlirOperationStateAddOperands(&st, 1, &src);
  int32_t counts[3];
  add_slice_parts(r, &st, s, counts);
  int32_t seg[4] = {1, counts[0], counts[1], counts[2]};
  MlirNamedAttribute a =
      bub_named(r, "operandSegmentSizes", i32_segments(r->ctx, seg, 4));
  mlirOperationStateAddAttributes(&st, 1, &a);
  if (!mlirOperationIsNull(attrs_from))
    add_discardable_attrs(&st, attrs_from, NPUC_BUBBLE_MARK);
  if (marked) {
    MlirNamedAttribute m =
        bub_named(r, NPUC_BUBBLE_MARK, mlirUnitAttrGet(r->ctx));
    mlirOperationStateAddAttributes(&st, 1, &m);
  }
  mlirOperationStateAddResults(&st, 1, &type);
  return mlirOperationGetResult(bub_create(r, &st), 0);
}

MlirOperation bub_unslice(bub_rw *r, MlirValue v, const bub_slice *s,
                          MlirType full) {
  MlirOperationState st = mlirOperationStateGet(str(BUB_UNSLICE), r->loc);
  mlirOperationStateAddOperands(&st, 1, &v);
  int32_t counts[3];
  add_slice_parts(r, &st, s, counts);
  mlirOperationStateAddResults(&st, 1, &full);
  return bub_create(r, &st);
}

MlirValue bub_empty(bub_rw *r, MlirType type, const bub_slice *sizes_of) {
  MlirOperationState st = mlirOperationStateGet(str("tensor.empty"), r->loc);
  for (int i = 0; i < sizes_of->rank; i++)
    if (!mlirValueIsNull(sizes_of->size[i].v))
      mlirOperationStateAddOperands(&st, 1, &sizes_of->size[i].v);
  mlirOperationStateAddResults(&st, 1, &type);
  return mlirOperationGetResult(bub_create(r, &st), 0);
}

MlirValue bub_subview(bub_rw *r, MlirValue src, const bub_slice *s) {
  if (bub_slice_is_identity(s, src))
    return src;
  return bub_view(r, src, s);
}

MlirValue bub_view(bub_rw *r, MlirValue src, const bub_slice *s) {
  MlirType t = mlirValueGetType(src);
  int64_t strides[BUB_MAX_RANK], offset = 0, shape[BUB_MAX_RANK];
  if (mlirLogicalResultIsFailure(
          mlirMemRefTypeGetStridesAndOffset(t, strides, &offset)))
    return (MlirValue){NULL};
  for (int i = 0; i < s->rank; i++) {
    int64_t o, c;
    if (offset != BUB_DYN) {
      if (!bub_const(s->off[i], &o) || (o != 0 && strides[i] == BUB_DYN))
        offset = BUB_DYN;
      else if (o != 0)
        offset += o * strides[i];
    }
    if (strides[i] != BUB_DYN)
      strides[i] *= s->stride[i];
    shape[i] = mlirValueIsNull(s->size[i].v) && bub_const(s->size[i], &c)
                   ? c
                   : BUB_DYN;
  }
  MlirAttribute layout =
      mlirStridedLayoutAttrGet(r->ctx, offset, s->rank, strides);
  MlirType type =
      mlirMemRefTypeGet(mlirShapedTypeGetElementType(t), s->rank, shape,
                        layout, mlirMemRefTypeGetMemorySpace(t));
  MlirOperationState st = mlirOperationStateGet(str("memref.subview"), r->loc);
  mlirOperationStateAddOperands(&st, 1, &src);
  int32_t counts[3];
  add_slice_parts(r, &st, s, counts);
  int32_t seg[4] = {1, counts[0], counts[1], counts[2]};
  MlirNamedAttribute a =
      bub_named(r, "operandSegmentSizes", i32_segments(r->ctx, seg, 4));
  mlirOperationStateAddAttributes(&st, 1, &a);
  mlirOperationStateAddResults(&st, 1, &type);
  return mlirOperationGetResult(bub_create(r, &st), 0);
}

static bool in_list(MlirStringRef name, const char *const *list) {
  for (; list && *list; list++)
    if (name.length == strlen(*list) &&
        memcmp(name.data, *list, name.length) == 0)
      return true;
  return false;
}

MlirOperation bub_clone_op(bub_rw *r, MlirOperation op, intptr_t nopnds,
                           const MlirValue *opnds, intptr_t nres,
                           const MlirType *res, intptr_t nset,
                           const MlirNamedAttribute *set,
                           const char *const *drop) {
  MlirOperationState st = mlirOperationStateGet(
      mlirIdentifierStr(mlirOperationGetName(op)), r->loc);
  mlirOperationStateAddOperands(&st, nopnds, opnds);
  mlirOperationStateAddResults(&st, nres, res);
  intptr_t n = mlirOperationGetNumAttributes(op);
  for (intptr_t i = 0; i < n; i++) {
    MlirNamedAttribute a = mlirOperationGetAttribute(op, i);
    MlirStringRef name = mlirIdentifierStr(a.name);
    bool overridden = in_list(name, drop);
    for (intptr_t k = 0; k < nset && !overridden; k++)
      overridden = mlirIdentifierEqual(set[k].name, a.name);
    if (!overridden)
      mlirOperationStateAddAttributes(&st, 1, &a);
  }
  mlirOperationStateAddAttributes(&st, nset, set);
  return bub_create(r, &st);
}

static unsigned element_bits(MlirType t) {
  if (mlirTypeIsAInteger(t))
    return mlirIntegerTypeGetWidth(t);
  if (mlirTypeIsAFloat(t))
    return mlirFloatTypeGetWidth(t);
  if (mlirTypeIsAIndex(t))
    return 64;
  return 0;
}

MlirOperation bub_mark_buffer_size(bub_rw *r, MlirValue v, MlirType t,
                                   MlirType was) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (!mlirShapedTypeHasStaticShape(was) || mlirShapedTypeHasStaticShape(t) ||
      mlirShapedTypeGetRank(was) != rank)
    return (MlirOperation){NULL};
  unsigned bits = element_bits(mlirShapedTypeGetElementType(t));
  if (bits == 0)
    return (MlirOperation){NULL};
  intptr_t ndyn = 0;
  for (intptr_t i = 0; i < rank; i++)
    ndyn += mlirShapedTypeIsDynamicDim(t, i);
  int64_t div = r->bc->opts.strict || ndyn != 1 || r->bc->opts.sub_blocks < 1
                    ? 1
                    : r->bc->opts.sub_blocks;
  int64_t elems = 1;
  for (intptr_t i = 0; i < rank; i++) {
    int64_t d = mlirShapedTypeIsDynamicDim(t, i)
                    ? (mlirShapedTypeGetDimSize(was, i) + div - 1) / div
                    : mlirShapedTypeGetDimSize(t, i);
    elems *= d;
  }
  int64_t bytes = (elems * (int64_t)bits + 7) / 8;
  MlirOperationState st = mlirOperationStateGet(str("annotation.mark"), r->loc);
  mlirOperationStateAddOperands(&st, 1, &v);
  MlirNamedAttribute a = bub_named(r, "buffer_size_in_byte",
      mlirIntegerAttrGet(mlirIntegerTypeGet(r->ctx, 64), bytes));
  mlirOperationStateAddAttributes(&st, 1, &a);
  return bub_create(r, &st);
}

/* ---- finishing -------------------------------------------------------------------- */

static bool results_unused(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    if (!mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, i))))
      return false;
  return true;
}

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
    MlirOperationState st = mlirOperationStateGet(str("tensor.cast"), r->loc);
    mlirOperationStateAddOperands(&st, 1, &v);
    mlirOperationStateAddResults(&st, 1, &want);
    v = mlirOperationGetResult(bub_create(r, &st), 0);
  }
  if (r->reused)
    redirect_old_uses(r, v);
  else
    mlirRewriterBaseReplaceOpWithValues(r->rw, r->slice_op, 1, &v);
  if (!mlirOperationIsNull(r->producer) && results_unused(r->producer))
    mlirRewriterBaseEraseOp(r->rw, r->producer);
  r->bc->num_rewrites++;
}

void bub_rebuild(bub_rw *r, intptr_t nopnds, const MlirValue *opnds,
                 intptr_t nres, const MlirType *res, intptr_t nset,
                 const MlirNamedAttribute *set, const char *const *drop) {
  if (!r->in_place) {
    MlirOperation op = bub_clone_op(r, r->producer, nopnds, opnds, nres, res,
                                    nset, set, drop);
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
    mlirOperationRemoveDiscardableAttributeByName(op, str(*d));
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
  return reason_slot(producer.ptr) % (sizeof bc->deferred / sizeof bc->deferred[0]);
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

/* ---- dominance ------------------------------------------------------------------------ */

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
          bub_op_is(op, "affine.apply"));
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
