/* Bubble-up patterns for upstream ops: tensor (empty, extract_slice,
 * insert_slice, expand_shape, collapse_shape), arith.select, scf.for,
 * scf.while, scf.if and bufferization.to_tensor, plus the rank-reducing-slice
 * split and the loop placeholder. */
#include "BubbleUpInternal.h"

#include <mlir-c/AffineExpr.h>
#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <string.h>

#define MAX_VALUES 64

static const MlirOperation no_op = {NULL};

static bool is_unit(bub_ofr x) { return bub_is(x, 1); }

/* ---- rank-reducing slices: split into a full-rank marked slice and a
 * plain rank-reducing one, so every other pattern sees full rank ---------- */

bool bub_rewrite_rank_reduce(bub_rw *r) {
  bool drop[BUB_MAX_RANK];
  if (bub_rank(r->slice_type) == r->s.rank ||
      !bub_dropped_dims(&r->s, r->slice_type, drop))
    return false;
  MlirValue full = bub_extract(r, r->source, &r->s, NULL, true, no_op);
  bub_slice all;
  bub_slice_full(r, full, &all);
  MlirValue reduced = bub_extract(r, full, &all, drop, false, r->slice_op);
  r->producer = no_op; /* still used by the new slice */
  bub_replace(r, reduced);
  return true;
}

/* ---- tensor.empty (a stop point) ---------------------------------------- */

bool bub_rewrite_empty(bub_rw *r) {
  MlirType old = mlirValueGetType(r->source);
  MlirType type = bub_slice_tensor_type(old, &r->s, NULL);
  MlirValue e = bub_empty(r, type, &r->s);
  bub_mark_buffer_size(r, e, type, old);
  bub_replace(r, e);
  return true;
}

/* ---- tensor.extract_slice: compose ----------------------------------------
 */

bool bub_rewrite_extract(bub_rw *r) {
  bub_slice p, bub, par;
  MlirValue src = mlirOperationGetOperand(r->producer, 0);
  bool drop[BUB_MAX_RANK];
  if (!bub_slice_read(r->producer, 1, &p) || !bub_slice_unit_strides(&p) ||
      !bub_dropped_dims(&p, mlirValueGetType(r->source), drop))
    return bub_refuse(r, "the parent slice has non-unit strides");
  bool reducing = false;
  for (int d = 0; d < p.rank; d++)
    reducing |= drop[d];
  if (npuc_bubble_is_marked(r->producer)) {
    /* Both marked: one marked slice of the parent's source. */
    if (reducing)
      return bub_refuse(r, "marked rank-reducing parent");
    bub = p;
    for (int d = 0; d < p.rank; d++) {
      bub.off[d] = bub_add(r, p.off[d], r->s.off[d]);
      bub.size[d] = r->s.size[d];
    }
    bub_replace(r, bub_extract(r, src, &bub, NULL, true, no_op));
    return true;
  }
  bub.rank = par.rank = p.rank;
  for (int d = 0, j = 0; d < p.rank; d++) {
    bub.stride[d] = par.stride[d] = 1;
    if (drop[d]) { /* a dim the parent drops stays whole below it */
      bub.off[d] = bub_c(0);
      bub.size[d] = bub_dim(r, src, d);
      par.off[d] = p.off[d];
      par.size[d] = bub_c(1);
      continue;
    }
    int k = j++;
    if (bub_slice_full_dim(&r->s, r->source, k)) {
      bub.off[d] = bub_c(0);
      bub.size[d] = bub_dim(r, src, d);
      par.off[d] = p.off[d];
      par.size[d] = p.size[d];
    } else if (bub_eq(p.size[d], bub_dim(NULL, src, d))) {
      /* The parent takes the whole dim (so its offset is 0). */
      bub.off[d] = r->s.off[k];
      bub.size[d] = r->s.size[k];
      par.off[d] = p.off[d];
      par.size[d] = r->s.size[k];
    } else {
      bub.off[d] = bub_add(r, p.off[d], r->s.off[k]);
      bub.size[d] = r->s.size[k];
      par.off[d] = bub_c(0);
      par.size[d] = r->s.size[k];
    }
  }
  MlirValue b = bub_extract(r, src, &bub, NULL, true, no_op);
  bub_replace(r, bub_extract(r, b, &par, drop, false, r->producer));
  return true;
}

/* ---- tensor.insert_slice ---------------------------------------------------
 */

/* tensor.insert_slice src into dest at `at` (unit strides), with the
 * discardable attributes of `attrs_from`. */
static MlirValue build_insert(bub_rw *r, MlirValue src, MlirValue dest,
                              const bub_slice *at, MlirOperation attrs_from) {
  MlirOperationState os =
      mlirOperationStateGet(bub_str("tensor.insert_slice"), r->loc);
  MlirValue two[2] = {src, dest};
  mlirOperationStateAddOperands(&os, 2, two);
  bub_slice unit = *at;
  for (int d = 0; d < unit.rank; d++)
    unit.stride[d] = 1;
  int32_t seg[5] = {1, 1, 0, 0, 0};
  bub_add_slice_parts(r, &os, &unit, seg + 2);
  MlirNamedAttribute ss =
      bub_named(r, "operandSegmentSizes", mlirDenseI32ArrayGet(r->ctx, 5, seg));
  mlirOperationStateAddAttributes(&os, 1, &ss);
  intptr_t nd = mlirOperationIsNull(attrs_from)
                    ? 0
                    : mlirOperationGetNumDiscardableAttributes(attrs_from);
  for (intptr_t i = 0; i < nd; i++) {
    MlirNamedAttribute a = mlirOperationGetDiscardableAttribute(attrs_from, i);
    mlirOperationStateAddAttributes(&os, 1, &a);
  }
  MlirType rt = mlirValueGetType(dest);
  mlirOperationStateAddResults(&os, 1, &rt);
  return mlirOperationGetResult(bub_create(r, &os), 0);
}

bool bub_rewrite_insert(bub_rw *r) {
  bub_slice in, srcs, ni;
  MlirValue src = mlirOperationGetOperand(r->producer, 0);
  MlirValue dest = mlirOperationGetOperand(r->producer, 1);
  MlirType st = mlirValueGetType(src);
  bool drop[BUB_MAX_RANK];
  if (!bub_slice_read(r->producer, 2, &in) || !bub_slice_unit_strides(&in) ||
      in.rank != r->s.rank || !bub_is_ranked_tensor(st) ||
      !bub_dropped_dims(&in, st, drop))
    return bub_refuse(r, "insert_slice with non-unit strides");
  bool reducing = false, partial = false;
  /* Check every dim before building anything. */
  for (int d = 0; d < in.rank; d++) {
    bool s_full = bub_slice_full_dim(&r->s, r->source, d);
    bool i_full = bub_eq(in.size[d], bub_dim(NULL, dest, d));
    int64_t c;
    if (i_full && !s_full && drop[d])
      return bub_refuse(r, "window on a dropped inserted dim");
    if (s_full || i_full)
      continue;
    if (r->bc->opts.strict)
      return bub_refuse(r, "strict-mode: the window partly overlaps the "
                           "inserted region");
    /* A dropped dim inserts one element: only where the window starts. */
    if (drop[d] && !(bub_eq(in.off[d], r->s.off[d]) &&
                     bub_const(r->s.size[d], &c) && c >= 1))
      return bub_refuse(r, "a dropped inserted dim may leave the window");
  }
  srcs.rank = (int)bub_rank(st);
  ni.rank = in.rank;
  for (int d = 0, j = 0; d < in.rank; d++) {
    ni.stride[d] = 1;
    int k = drop[d] ? -1 : j++;
    reducing |= drop[d];
    bool s_full = bub_slice_full_dim(&r->s, r->source, d);
    bool i_full = bub_eq(in.size[d], bub_dim(NULL, dest, d));
    bub_ofr so, ss;
    if (i_full && !s_full) {
      /* The insert covers the dim: the window applies to the source. */
      so = r->s.off[d];
      ss = r->s.size[d];
      ni.off[d] = in.off[d];
      ni.size[d] = r->s.size[d];
    } else if (s_full) {
      so = bub_c(0);
      ss = k < 0 ? bub_c(1) : bub_dim(r, src, k);
      ni.off[d] = in.off[d];
      ni.size[d] = in.size[d];
    } else {
      /* The window and the inserted region meet on this dim: clamp. */
      partial = true;
      bub_ofr o = r->s.off[d], s = r->s.size[d], io = in.off[d],
              is = in.size[d];
      bub_ofr start, count;
      if (bub_eq(io, o)) {
        start = bub_c(0);
        so = bub_c(0);
        count = bub_min(r, is, s);
      } else if (bub_is(io, 0)) { /* offsets are never negative */
        start = bub_c(0);
        count = bub_min(r, bub_max(r, bub_sub(r, is, o), bub_c(0)), s);
        so = bub_min(r, o, is);
      } else {
        start = bub_min(r, bub_max(r, bub_sub(r, io, o), bub_c(0)), s);
        bub_ofr end = bub_min(
            r, bub_max(r, bub_sub(r, bub_add(r, io, is), o), bub_c(0)), s);
        count = bub_sub(r, end, start);
        so = bub_min(r, bub_max(r, bub_sub(r, o, io), bub_c(0)), is);
      }
      ss = count;
      ni.off[d] = start;
      ni.size[d] = count;
    }
    if (k >= 0) {
      srcs.off[k] = so;
      srcs.size[k] = ss;
      srcs.stride[k] = 1;
    }
  }
  MlirValue s_slice = {NULL}, d_slice = {NULL};
  bool dest_first = !reducing && !partial;
  if (dest_first)
    d_slice = bub_extract(r, dest, &r->s, NULL, true, no_op);
  s_slice = bub_extract(r, src, &srcs, NULL, true, no_op);
  if (!dest_first)
    d_slice = bub_extract(r, dest, &r->s, NULL, true, no_op);
  bub_replace(r, build_insert(r, s_slice, d_slice, &ni, r->producer));
  return true;
}

/* ---- tensor.expand_shape / collapse_shape ---------------------------------
 */

/* The groups of a reassociation attribute: group g holds dims
 * first[g] .. first[g+1]-1 of the expanded side. */
static bool read_groups(MlirOperation op, int *first, int *ngroups) {
  MlirAttribute re =
      mlirOperationGetInherentAttributeByName(op, bub_str("reassociation"));
  if (mlirAttributeIsNull(re) || !mlirAttributeIsAArray(re))
    return false;
  intptr_t n = mlirArrayAttrGetNumElements(re);
  if (n > BUB_MAX_RANK)
    return false;
  int next = 0;
  for (intptr_t g = 0; g < n; g++) {
    int64_t dims[BUB_MAX_RANK];
    intptr_t k =
        bub_i64_array(mlirArrayAttrGetElement(re, g), dims, BUB_MAX_RANK);
    if (k <= 0 || k > BUB_MAX_RANK)
      return false;
    first[g] = next;
    for (intptr_t i = 0; i < k; i++)
      if (dims[i] != next + i)
        return false;
    next += (int)k;
  }
  first[n] = next;
  *ngroups = (int)n;
  return true;
}

/* A reshape of an empty tensor is an empty tensor. */
static bool reshape_of_empty(bub_rw *r) {
  MlirValue src = mlirOperationGetOperand(r->producer, 0);
  if (!mlirValueIsAOpResult(src) ||
      !npuc_op_is(mlirOpResultGetOwner(src), "tensor.empty"))
    return false;
  MlirType type =
      bub_slice_tensor_type(mlirValueGetType(r->source), &r->s, NULL);
  MlirValue e = bub_empty(r, type, &r->s);
  bub_mark_buffer_size(r, e, type, mlirValueGetType(r->source));
  bub_replace(r, e);
  return true;
}

static MlirValue build_reshape(bub_rw *r, MlirValue src, MlirType type,
                               const bub_slice *out_sizes, bool expand) {
  MlirOperationState st = mlirOperationStateGet(
      bub_str(expand ? "tensor.expand_shape" : "tensor.collapse_shape"),
      r->loc);
  mlirOperationStateAddOperands(&st, 1, &src);
  MlirNamedAttribute re = bub_named(r, "reassociation",
                                    mlirOperationGetInherentAttributeByName(
                                        r->producer, bub_str("reassociation")));
  mlirOperationStateAddAttributes(&st, 1, &re);
  if (expand) {
    int64_t shape[BUB_MAX_RANK];
    for (int i = 0; i < out_sizes->rank; i++) {
      if (mlirValueIsNull(out_sizes->size[i].v)) {
        shape[i] = out_sizes->size[i].c;
      } else {
        shape[i] = BUB_DYN;
        mlirOperationStateAddOperands(&st, 1, &out_sizes->size[i].v);
      }
    }
    MlirNamedAttribute so =
        bub_named(r, "static_output_shape",
                  bub_i64_array_attr(r->ctx, shape, out_sizes->rank));
    mlirOperationStateAddAttributes(&st, 1, &so);
  }
  mlirOperationStateAddResults(&st, 1, &type);
  return mlirOperationGetResult(bub_create(r, &st), 0);
}

/* The source slice of expanded group g (dims lo..hi-1 of the result): inner
 * dims taken whole, then one sliced dim, then dims of size 1 make a
 * contiguous run of the source dim. With `dry`, only checks (and builds
 * nothing). */
static bool expand_group(bub_rw *r, MlirValue src, MlirType rt, int g, int lo,
                         int hi, bool dry, bub_slice *in) {
  int j = hi - 1;
  while (j >= lo && bub_slice_full_dim(&r->s, r->source, j))
    j--;
  if (j < lo) {
    if (!dry) {
      in->off[g] = bub_c(0);
      in->size[g] = bub_dim(r, src, g);
    }
    return true;
  }
  int64_t inner = 1;
  for (int d = j + 1; d < hi; d++) {
    if (bub_dim_size(rt, d) == BUB_DYN)
      return false;
    inner *= bub_dim_size(rt, d);
  }
  bub_ofr off = dry ? bub_c(0) : bub_mulc(r, r->s.off[j], inner);
  int64_t stride = inner;
  bool known = true; /* stride is the size of the dims after d */
  for (int d = j - 1; d >= lo; d--) {
    if (!is_unit(r->s.size[d]))
      return false;
    int64_t ds = bub_dim_size(rt, d + 1);
    if (ds == BUB_DYN)
      known = false;
    else
      stride *= ds;
    if (bub_is(r->s.off[d], 0))
      continue;
    if (!known)
      return false;
    if (!dry)
      off = bub_add(r, off, bub_mulc(r, r->s.off[d], stride));
  }
  if (!dry) {
    in->off[g] = off;
    in->size[g] = bub_mulc(r, r->s.size[j], inner);
  }
  return true;
}

bool bub_rewrite_expand(bub_rw *r) {
  int first[BUB_MAX_RANK + 1], ng;
  MlirValue src = mlirOperationGetOperand(r->producer, 0);
  MlirType rt = mlirValueGetType(r->source);
  if (!read_groups(r->producer, first, &ng) ||
      ng != bub_rank(mlirValueGetType(src)))
    return bub_refuse(r, "unexpected reassociation");
  bub_slice in;
  in.rank = ng;
  for (int g = 0; g < ng; g++)
    if (!expand_group(r, src, rt, g, first[g], first[g + 1], true, &in))
      return bub_refuse(r, "the slice of an expanded group is not a "
                           "contiguous run of its source dim");
  if (reshape_of_empty(r))
    return true;
  for (int g = 0; g < ng; g++) {
    in.stride[g] = 1;
    expand_group(r, src, rt, g, first[g], first[g + 1], false, &in);
  }
  MlirValue ns = bub_extract(r, src, &in, NULL, true, no_op);
  bub_replace(r, build_reshape(r, ns, r->slice_type, &r->s, true));
  return true;
}

/* The source slice of collapsed group g (source dims lo..hi-1): outer to
 * inner over its dims that are not a static 1, a dim takes off/inner and
 * size/inner when the slice is a whole number of blocks of the inner dims,
 * or fixes one index when the slice lies within one block. An offset not
 * provably a multiple of the block is assumed to be one (a sub-block tile
 * is), except in strict-mode. With `dry`, only checks; returns the reason
 * it cannot, or NULL. */
static const char *collapse_group(bub_rw *r, MlirValue src, MlirType st, int g,
                                  int lo, int hi, bool dry, bub_slice *in) {
  for (int d = lo; d < hi && !dry; d++) {
    in->off[d] = bub_c(0);
    in->size[d] = bub_dim(r, src, d);
    in->stride[d] = 1;
  }
  if (bub_slice_full_dim(&r->s, r->source, g))
    return NULL;
  int nu[BUB_MAX_RANK], n = 0;
  for (int d = lo; d < hi; d++)
    if (bub_dim_size(st, d) != 1)
      nu[n++] = d;
  bub_ofr off = r->s.off[g], size = r->s.size[g];
  for (int t = 0; t < n; t++) {
    int d = nu[t];
    int64_t inner = 1, sz, o;
    for (int u = t + 1; u < n; u++) {
      if (bub_dim_size(st, nu[u]) == BUB_DYN)
        return "dynamic inner dim in a collapsed group";
      inner *= bub_dim_size(st, nu[u]);
    }
    if (inner == 1) {
      if (!dry) {
        in->off[d] = off;
        in->size[d] = size;
      }
      return NULL;
    }
    bool size_static = bub_const(size, &sz), off_static = bub_const(off, &o);
    bool aligned = bub_multiple_of(off, inner);
    if (off_static && size_static && sz <= inner && (o % inner) + sz <= inner &&
        !(aligned && sz == inner)) {
      if (!dry) { /* within one block: fix this index, go inside */
        in->off[d] = bub_c(o / inner);
        in->size[d] = bub_c(1);
      }
      off = bub_c(o % inner);
      continue;
    }
    if (!size_static || (sz % inner != 0 && sz > inner))
      return "the slice of a collapsed group is not a block of its dims";
    if (!aligned && (off_static || r->bc->opts.strict))
      return off_static ? "the slice of a collapsed group is not a block of "
                          "its dims"
                        : "strict-mode: the offset into a collapsed group "
                          "is not provably aligned";
    if (sz % inner == 0) { /* whole blocks: the inner dims stay whole */
      if (!dry) {
        in->off[d] = bub_floordivc(r, off, inner);
        in->size[d] = bub_c(sz / inner);
      }
      return NULL;
    }
    if (!dry) { /* part of one aligned block */
      in->off[d] = bub_floordivc(r, off, inner);
      in->size[d] = bub_c(1);
    }
    off = bub_c(0);
  }
  return NULL;
}

bool bub_rewrite_collapse(bub_rw *r) {
  int first[BUB_MAX_RANK + 1], ng;
  MlirValue src = mlirOperationGetOperand(r->producer, 0);
  MlirType st = mlirValueGetType(src);
  if (!read_groups(r->producer, first, &ng) || ng != r->s.rank)
    return bub_refuse(r, "unexpected reassociation");
  bub_slice in;
  in.rank = first[ng];
  for (int g = 0; g < ng; g++) {
    const char *why =
        collapse_group(r, src, st, g, first[g], first[g + 1], true, &in);
    if (why)
      return bub_refuse(r, why);
  }
  if (reshape_of_empty(r))
    return true;
  for (int g = 0; g < ng; g++)
    collapse_group(r, src, st, g, first[g], first[g + 1], false, &in);
  MlirValue ns = bub_extract(r, src, &in, NULL, true, no_op);
  bub_replace(r, build_reshape(r, ns, r->slice_type, NULL, false));
  return true;
}

/* ---- arith.select
 * ------------------------------------------------------------ */

bool bub_rewrite_select(bub_rw *r) {
  MlirValue ops[3];
  bub_prepare_in_place(r);
  for (int i = 0; i < 3; i++) {
    ops[i] = mlirOperationGetOperand(r->producer, i);
    if (bub_is_ranked_tensor(mlirValueGetType(ops[i])))
      ops[i] = bub_extract(r, ops[i], &r->s, NULL, true, no_op);
  }
  MlirType t = mlirValueGetType(ops[1]);
  bub_rebuild(r, 3, ops, 1, &t, 0, NULL, NULL);
  return true;
}

/* Every use of the sliced value is a marked slice equal to this one (the
 * same value sliced once per consumer, before anything merged them). */
static bool uses_are_this_slice(bub_rw *r) {
  for (MlirOpOperand u = mlirValueGetFirstUse(r->source);
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    bub_slice s;
    if (mlirOperationEqual(user, r->slice_op))
      continue;
    if (!npuc_bubble_is_marked(user) || mlirOpOperandGetOperandNumber(u) != 0 ||
        !bub_slice_read(user, 1, &s) || s.rank != r->s.rank ||
        !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(user, 0)),
                       r->slice_type))
      return false;
    for (int d = 0; d < s.rank; d++)
      if (!bub_eq(s.off[d], r->s.off[d]) || !bub_eq(s.size[d], r->s.size[d]) ||
          s.stride[d] != r->s.stride[d])
        return false;
  }
  return true;
}

/* Replaces the other slices of uses_are_this_slice by `v`. */
static void replace_equal_slices(bub_rw *r, MlirValue v) {
  for (;;) {
    MlirOpOperand use = mlirValueGetFirstUse(r->source);
    if (!mlirOpOperandIsNull(use) &&
        mlirOperationEqual(mlirOpOperandGetOwner(use), r->slice_op))
      use = mlirOpOperandGetNextUse(use);
    if (mlirOpOperandIsNull(use))
      return;
    mlirRewriterBaseReplaceOpWithValues(r->rw, mlirOpOperandGetOwner(use), 1,
                                        &v);
  }
}

/* ---- region ops
 * ----------------------------------------------------------------- */

/* Moves the blocks of region `from` into the empty region `to` (through a
 * scratch block, as the rewriter inlines before a block). */
static void move_region(bub_rw *r, MlirRegion from, MlirRegion to) {
  MlirBlock scratch = mlirBlockCreate(0, NULL, NULL);
  mlirRegionAppendOwnedBlock(to, scratch);
  mlirRewriterBaseInlineRegionBefore(r->rw, from, scratch);
  mlirRewriterBaseEraseBlock(r->rw, scratch);
}

/* Replaces operand `pos` of the block's terminator by a marked slice of
 * it; with `append`, adds the slice as a new operand instead. */
static void slice_yield(bub_rw *r, MlirBlock block, intptr_t pos, bool append) {
  MlirOperation y = mlirBlockGetTerminator(block);
  mlirRewriterBaseSetInsertionPointBefore(r->rw, y);
  MlirValue v = mlirOperationGetOperand(y, pos);
  MlirValue sv = bub_extract(r, v, &r->s, NULL, true, no_op);
  if (!append) {
    mlirRewriterBaseStartOpModification(r->rw, y);
    mlirOperationSetOperand(y, pos, sv);
    mlirRewriterBaseFinalizeOpModification(r->rw, y);
    return;
  }
  MlirValue ops[MAX_VALUES];
  intptr_t n = mlirOperationGetNumOperands(y);
  for (intptr_t i = 0; i < n; i++)
    ops[i] = mlirOperationGetOperand(y, i);
  ops[n] = sv;
  bub_clone_op(r, y, n + 1, ops, 0, NULL, 0, NULL, NULL);
  mlirRewriterBaseEraseOp(r->rw, y);
}

/* Hands the uses of the old op's results to the new op's (results
 * 0..n-1 line up) and erases the old op. */
static void retire(bub_rw *r, MlirOperation old, MlirOperation now) {
  intptr_t n = mlirOperationGetNumResults(old);
  for (intptr_t i = 0; i < n; i++) {
    MlirValue from = mlirOperationGetResult(old, i);
    if (!mlirOpOperandIsNull(mlirValueGetFirstUse(from)))
      mlirRewriterBaseReplaceAllUsesWith(r->rw, from,
                                         mlirOperationGetResult(now, i));
  }
  mlirRewriterBaseEraseOp(r->rw, old);
}

/* A new op `name` in front of `old` with these operands and result types,
 * `old`'s discardable attributes and `extra` ones, and `old`'s regions
 * moved over. */
static MlirOperation rebuilt_with_regions(bub_rw *r, MlirOperation old,
                                          const char *name, intptr_t nops,
                                          const MlirValue *ops, intptr_t nres,
                                          const MlirType *types,
                                          intptr_t nextra,
                                          const MlirNamedAttribute *extra) {
  mlirRewriterBaseSetInsertionPointBefore(r->rw, old);
  MlirOperationState st = mlirOperationStateGet(bub_str(name), r->loc);
  mlirOperationStateAddOperands(&st, nops, ops);
  mlirOperationStateAddResults(&st, nres, types);
  intptr_t nregions = mlirOperationGetNumRegions(old);
  MlirRegion regions[2];
  for (intptr_t k = 0; k < nregions; k++)
    regions[k] = mlirRegionCreate();
  mlirOperationStateAddOwnedRegions(&st, nregions, regions);
  mlirOperationStateAddAttributes(&st, nextra, extra);
  intptr_t nd = mlirOperationGetNumDiscardableAttributes(old);
  for (intptr_t k = 0; k < nd; k++) {
    MlirNamedAttribute a = mlirOperationGetDiscardableAttribute(old, k);
    mlirOperationStateAddAttributes(&st, 1, &a);
  }
  MlirOperation now = bub_create(r, &st);
  for (intptr_t k = 0; k < nregions; k++)
    move_region(r, mlirOperationGetRegion(old, k),
                mlirOperationGetRegion(now, k));
  return now;
}

/* scf.if: each branch yields the slice. */
bool bub_rewrite_if(bub_rw *r) {
  MlirOperation old = r->producer;
  intptr_t n = mlirOperationGetNumResults(old), i = r->result_index;
  if (n + 1 > MAX_VALUES)
    return bub_refuse(r, "too many results");
  if (!bub_slice_hoist(r, old))
    return bub_refuse(r, "the slice's sizes are computed after the scf.if");
  bool append = !uses_are_this_slice(r);
  MlirType types[MAX_VALUES];
  for (intptr_t k = 0; k < n; k++)
    types[k] = mlirValueGetType(mlirOperationGetResult(old, k));
  if (append)
    types[n] = r->slice_type;
  else
    types[i] = r->slice_type;
  MlirValue cond = mlirOperationGetOperand(old, 0);
  MlirOperation now = rebuilt_with_regions(r, old, "scf.if", 1, &cond,
                                           append ? n + 1 : n, types, 0, NULL);
  for (int k = 0; k < 2; k++) {
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(now, k));
    if (!mlirBlockIsNull(b))
      slice_yield(r, b, i, append);
  }
  MlirValue sliced = mlirOperationGetResult(now, append ? n : i);
  if (!append)
    replace_equal_slices(r, sliced);
  mlirRewriterBaseReplaceOpWithValues(r->rw, r->slice_op, 1, &sliced);
  retire(r, old, now);
  r->bc->num_rewrites++;
  return true;
}

/* scf.for: the loop carries only the slice. The body's uses of the
 * iter_arg go through an `npuc.bubble_unslice` placeholder standing for the
 * whole value; the slice of the yielded value, bubbled up through the body,
 * meets it as the same slice of the placeholder and folds to the carried
 * slice (the unslice pattern). A placeholder still used when bubbling ends
 * means the body needs the whole value: bubbling failed. */
/* Users the body may apply the placeholder to: ops our patterns bubble
 * through, and the loop's own yield at the same position. */
static bool carried_use_ok(bub_rw *r, MlirOperation user, intptr_t pos,
                           MlirOperation loop, intptr_t iter) {
  if (npuc_op_is(user, "scf.yield") &&
      mlirOperationEqual(mlirOperationGetParentOperation(user), loop))
    return pos == iter;
  if (npuc_op_is(user, "scf.condition")) /* operand 0 is the flag */
    return mlirOperationEqual(mlirOperationGetParentOperation(user), loop) &&
           pos == iter + 1;
  if (npuc_op_is(user, "tensor.extract_slice") ||
      npuc_op_is(user, "tensor.insert_slice") ||
      npuc_op_is(user, "tensor.expand_shape") ||
      npuc_op_is(user, "tensor.collapse_shape") ||
      npuc_op_is(user, "arith.select") || npuc_op_is(user, "scf.yield"))
    return true;
  const npuc_op_def *def = bub_def(r->bc, user);
  return def && mlirOperationGetNumResults(user) > 0 &&
         !npuc_op_has_trait(def, NPUC_TRAIT_SIDE_EFFECTS) &&
         !npuc_op_has_trait(def, NPUC_TRAIT_STORE_LIKE);
}

/* Every use of the loop-carried argument `arg` (position `iter`) is one
 * carried_use_ok takes. */
static bool carried_uses_ok(bub_rw *r, MlirValue arg, MlirOperation loop,
                            intptr_t iter) {
  for (MlirOpOperand u = mlirValueGetFirstUse(arg); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (!carried_use_ok(r, mlirOpOperandGetOwner(u),
                        mlirOpOperandGetOperandNumber(u), loop, iter))
      return false;
  return true;
}

/* The operands and result types of a loop `old` carrying the slice of its
 * result i: its init (operand `init`) sliced in front of the loop. */
static void sliced_loop_parts(bub_rw *r, MlirOperation old, intptr_t init,
                              intptr_t i, MlirValue *ops, MlirType *types) {
  mlirRewriterBaseSetInsertionPointBefore(r->rw, old);
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(old); k++)
    ops[k] = mlirOperationGetOperand(old, k);
  ops[init] = bub_extract(r, ops[init], &r->s, NULL, true, no_op);
  for (intptr_t k = 0; k < mlirOperationGetNumResults(old); k++)
    types[k] = mlirValueGetType(mlirOperationGetResult(old, k));
  types[i] = r->slice_type;
}

/* The scf.for `old` again, carrying the slice of its result i: the slice
 * of the init goes in front of it, the body moves over with iter_arg i of
 * the slice's type. Returns the new loop; its body's uses of the iter_arg
 * are the caller's to fix. */
static MlirOperation sliced_loop(bub_rw *r, MlirOperation old, intptr_t i) {
  intptr_t n = mlirOperationGetNumResults(old);
  intptr_t nops = mlirOperationGetNumOperands(old);
  MlirValue ops[MAX_VALUES];
  MlirType types[MAX_VALUES];
  sliced_loop_parts(r, old, 3 + i, i, ops, types);
  MlirAttribute uc =
      mlirOperationGetInherentAttributeByName(old, bub_str("unsignedCmp"));
  MlirNamedAttribute a = bub_named(r, "unsignedCmp", uc);
  MlirOperation now = rebuilt_with_regions(r, old, "scf.for", nops, ops, n,
                                           types, !mlirAttributeIsNull(uc), &a);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(now, 0));
  mlirBlockArgumentSetType(mlirBlockGetArgument(body, i + 1), r->slice_type);
  return now;
}

/* A loop region carries the slice: its argument `arg` retyped to the
 * slice, the argument's uses through a placeholder for the whole value
 * (`full`), and the terminator's operand `pos` sliced. */
static void carry_slice(bub_rw *r, MlirBlock b, intptr_t arg, intptr_t pos,
                        MlirType full) {
  MlirValue a = mlirBlockGetArgument(b, arg);
  mlirBlockArgumentSetType(a, r->slice_type);
  if (!mlirOpOperandIsNull(mlirValueGetFirstUse(a))) {
    mlirRewriterBaseSetInsertionPointToStart(r->rw, b);
    MlirOperation ph = bub_unslice(r, a, &r->s, full);
    mlirRewriterBaseReplaceAllUsesExcept(r->rw, a,
                                         mlirOperationGetResult(ph, 0), ph);
  }
  slice_yield(r, b, pos, false);
}

/* The slice replaced by result i of the new loop, the old loop retired. */
static void finish_loop(bub_rw *r, MlirOperation old, MlirOperation now,
                        intptr_t i) {
  MlirValue sliced = mlirOperationGetResult(now, i);
  replace_equal_slices(r, sliced);
  mlirRewriterBaseReplaceOpWithValues(r->rw, r->slice_op, 1, &sliced);
  retire(r, old, now);
  r->bc->num_rewrites++;
}

bool bub_rewrite_for(bub_rw *r) {
  MlirOperation old = r->producer;
  intptr_t n = mlirOperationGetNumResults(old), i = r->result_index;
  intptr_t nops = mlirOperationGetNumOperands(old);
  if (nops > MAX_VALUES || nops != n + 3)
    return bub_refuse(r, "unexpected scf.for operands");
  if (!uses_are_this_slice(r))
    return bub_refuse(r, "the loop result has other uses");
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(old, 0));
  MlirValue arg = mlirBlockGetArgument(body, i + 1);
  if (!carried_uses_ok(r, arg, old, i))
    return bub_refuse(r, "the loop-carried value is used whole in the body");
  if (!bub_slice_hoist(r, old))
    return bub_refuse(r, "the slice's sizes are computed after the scf.for");
  MlirType full = mlirValueGetType(arg);
  MlirOperation now = sliced_loop(r, old, i);
  body = mlirRegionGetFirstBlock(mlirOperationGetRegion(now, 0));
  carry_slice(r, body, i + 1, i, full);
  finish_loop(r, old, now, i);
  return true;
}

/* ---- scf.while ------------------------------------------------------------
 * The loop carries only the slice at position i: the init is sliced before
 * it, before- and after-argument i get the slice's type, and the values
 * handed on (scf.condition's argument i, scf.yield's operand i) are sliced,
 * as bishengir's loop pattern does. Both regions' uses of the arguments go
 * through placeholders, as for scf.for: the slices bubble up through each
 * region and fold into them, or the pass fails (a region needs the whole
 * value: the condition reads it, say). Position i must carry one type
 * throughout (the same slice fits the init, both arguments and the
 * result). */

/* Every use of block argument i of region k of the loop can take the
 * placeholder (the condition hands argument i on at position i). */
static bool while_arg_ok(bub_rw *r, MlirOperation loop, int k, intptr_t i) {
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, k));
  if (mlirBlockIsNull(b) || mlirBlockGetNumArguments(b) <= i ||
      !mlirTypeEqual(mlirValueGetType(mlirBlockGetArgument(b, i)),
                     mlirValueGetType(r->source)))
    return false;
  return carried_uses_ok(r, mlirBlockGetArgument(b, i), loop, i);
}

bool bub_rewrite_while(bub_rw *r) {
  MlirOperation old = r->producer;
  intptr_t n = mlirOperationGetNumResults(old), i = r->result_index;
  intptr_t nops = mlirOperationGetNumOperands(old);
  if (nops > MAX_VALUES || n > MAX_VALUES || i >= nops ||
      !mlirTypeEqual(mlirValueGetType(mlirOperationGetOperand(old, i)),
                     mlirValueGetType(r->source)))
    return bub_refuse(r, "the loop does not carry one type at the position");
  if (!uses_are_this_slice(r))
    return bub_refuse(r, "the loop result has other uses");
  if (!while_arg_ok(r, old, 0, i) || !while_arg_ok(r, old, 1, i))
    return bub_refuse(r, "the loop-carried value is used whole in the loop");
  if (!bub_slice_hoist(r, old))
    return bub_refuse(r, "the slice's sizes are computed after the scf.while");
  MlirType full = mlirValueGetType(r->source);
  MlirValue ops[MAX_VALUES];
  MlirType types[MAX_VALUES];
  sliced_loop_parts(r, old, i, i, ops, types);
  MlirOperation now =
      rebuilt_with_regions(r, old, "scf.while", nops, ops, n, types, 0, NULL);
  for (int k = 0; k < 2; k++) {
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(now, k));
    /* scf.condition's operand 0 is the flag. */
    carry_slice(r, b, i, k == 0 ? i + 1 : i, full);
  }
  finish_loop(r, old, now, i);
  return true;
}

/* ---- scf.for over tiles of the carried tensor --------------------------- */

/* A loop 0..N step 1 whose body takes tile iv of its iter_arg on one dim
 * (extract_slice at iv * T, size T, N * T the whole dim), computes on it
 * elementwise and inserts the result at the same place: the sliced result
 * is the same loop over N tiles of the slice (size s / N each), as
 * bishengir rescales tiling loops. */

/* Is `off` iv * T? */
static bool tile_offset(MlirValue iv, bub_ofr off, int64_t *t) {
  if (mlirValueIsNull(off.v))
    return false;
  if (mlirValueEqual(off.v, iv)) {
    *t = 1;
    return true;
  }
  if (!mlirValueIsAOpResult(off.v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(off.v);
  if (npuc_op_is(def, "affine.apply") &&
      mlirOperationGetNumOperands(def) == 1 &&
      mlirValueEqual(mlirOperationGetOperand(def, 0), iv)) {
    MlirAffineMap map = mlirAffineMapAttrGetValue(bub_attr(def, "map"));
    if (mlirAffineMapGetNumResults(map) != 1)
      return false;
    MlirAffineExpr e = mlirAffineMapGetResult(map, 0);
    if (!mlirAffineExprIsAMul(e))
      return false;
    MlirAffineExpr l = mlirAffineBinaryOpExprGetLHS(e);
    MlirAffineExpr k = mlirAffineBinaryOpExprGetRHS(e);
    if ((!mlirAffineExprIsADim(l) && !mlirAffineExprIsASymbol(l)) ||
        !mlirAffineExprIsAConstant(k))
      return false;
    *t = mlirAffineConstantExprGetValue(k);
    return *t > 0;
  }
  if (npuc_op_is(def, "arith.muli"))
    for (int j = 0; j < 2; j++)
      if (mlirValueEqual(mlirOperationGetOperand(def, j), iv) &&
          bub_const(bub_v(mlirOperationGetOperand(def, 1 - j)), t))
        return *t > 0;
  return false;
}

/* Is `v` computed from the tile `e` by elementwise HIVM ops of the body
 * whose other tensor operands are empty tensors, and used by nothing but
 * them and the insert `ins`? */
static bool tile_elementwise(bub_rw *r, MlirValue v, MlirValue e,
                             MlirBlock body, MlirOperation ins) {
  MlirValue stack[64];
  MlirOperation seen[64];
  int ns = 0, nseen = 0;
  stack[ns++] = v;
  while (ns > 0) {
    MlirValue x = stack[--ns];
    if (mlirValueEqual(x, e) || !mlirValueIsAOpResult(x))
      continue; /* the tile; block arguments are checked below */
    MlirOperation p = mlirOpResultGetOwner(x);
    if (npuc_op_is(p, "tensor.empty"))
      continue;
    const npuc_op_def *def = bub_def(r->bc, p);
    if (!def || !npuc_op_has_trait(def, NPUC_TRAIT_ELEMENTWISE) ||
        bub_has_attr(p, "broadcast") || bub_has_attr(p, "transpose") ||
        !mlirBlockEqual(mlirOperationGetBlock(p), body))
      return false;
    bool dup = false;
    for (int k = 0; k < nseen; k++)
      dup |= mlirOperationEqual(seen[k], p);
    if (dup)
      continue;
    if (nseen == 64)
      return false;
    seen[nseen++] = p;
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(p); k++) {
      MlirValue o = mlirOperationGetOperand(p, k);
      if (!mlirTypeIsAShaped(mlirValueGetType(o)))
        continue;
      if (!mlirValueIsAOpResult(o) || ns == 64)
        return false; /* a tensor argument: not position-free */
      stack[ns++] = o;
    }
  }
  for (int k = 0; k < nseen; k++)
    for (intptr_t j = 0; j < mlirOperationGetNumResults(seen[k]); j++)
      for (MlirOpOperand u =
               mlirValueGetFirstUse(mlirOperationGetResult(seen[k], j));
           !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
        MlirOperation user = mlirOpOperandGetOwner(u);
        bool inside = mlirOperationEqual(user, ins);
        for (int q = 0; q < nseen && !inside; q++)
          inside = mlirOperationEqual(user, seen[q]);
        if (!inside)
          return false;
      }
  return true;
}

bool bub_rewrite_for_tiles(bub_rw *r) {
  MlirOperation old = r->producer;
  intptr_t n = mlirOperationGetNumResults(old), i = r->result_index;
  intptr_t nops = mlirOperationGetNumOperands(old);
  int64_t lb, ub, step;
  if (nops > MAX_VALUES || nops != n + 3 ||
      !bub_const(bub_v(mlirOperationGetOperand(old, 0)), &lb) ||
      !bub_const(bub_v(mlirOperationGetOperand(old, 1)), &ub) ||
      !bub_const(bub_v(mlirOperationGetOperand(old, 2)), &step) || lb != 0 ||
      step != 1 || ub <= 0 || !uses_are_this_slice(r))
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(old, 0));
  MlirValue iv = mlirBlockGetArgument(body, 0);
  MlirValue arg = mlirBlockGetArgument(body, i + 1);
  MlirOperation ex = no_op, ins = no_op;
  for (MlirOpOperand u = mlirValueGetFirstUse(arg); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    intptr_t at = mlirOpOperandGetOperandNumber(u);
    if (npuc_op_is(user, "tensor.extract_slice") && at == 0 &&
        mlirOperationIsNull(ex) && !npuc_bubble_is_marked(user))
      ex = user;
    else if (npuc_op_is(user, "tensor.insert_slice") && at == 1 &&
             mlirOperationIsNull(ins))
      ins = user;
    else
      return false;
  }
  if (mlirOperationIsNull(ex) || mlirOperationIsNull(ins))
    return false;
  MlirValue insv = mlirOperationGetResult(ins, 0);
  MlirOperation y = mlirBlockGetTerminator(body);
  MlirOpOperand iu = mlirValueGetFirstUse(insv);
  if (mlirOpOperandIsNull(iu) ||
      !mlirOpOperandIsNull(mlirOpOperandGetNextUse(iu)) ||
      !mlirOperationEqual(mlirOpOperandGetOwner(iu), y) ||
      mlirOpOperandGetOperandNumber(iu) != i)
    return false;
  bub_slice es, is;
  MlirValue tile = mlirOperationGetResult(ex, 0);
  MlirType tt = mlirValueGetType(tile);
  if (!bub_slice_read(ex, 1, &es) || !bub_slice_read(ins, 2, &is) ||
      es.rank != r->s.rank || is.rank != es.rank ||
      !bub_slice_unit_strides(&es) || !bub_slice_unit_strides(&is) ||
      !mlirShapedTypeHasStaticShape(tt) || bub_rank(tt) != es.rank ||
      !mlirTypeEqual(mlirValueGetType(mlirOperationGetOperand(ins, 0)), tt))
    return false;
  int k = -1;
  for (int d = 0; d < es.rank; d++) {
    if (!bub_eq(es.off[d], is.off[d]) || !bub_eq(es.size[d], is.size[d]))
      return false;
    if (bub_slice_full_dim(&es, arg, d)) {
      if (!bub_slice_full_dim(&r->s, r->source, d))
        return false; /* the window must slice only the tiled dim */
      continue;
    }
    if (k >= 0)
      return false;
    k = d;
  }
  int64_t t, s;
  if (k < 0 || !tile_offset(iv, es.off[k], &t) || !bub_is(es.size[k], t) ||
      bub_dim_size(mlirValueGetType(arg), k) != ub * t ||
      !bub_const(r->s.size[k], &s) || s % ub != 0 || s == 0 ||
      !mlirValueIsNull(r->s.size[k].v))
    return false;
  if (!tile_elementwise(r, mlirOperationGetOperand(ins, 0), tile, body, ins))
    return bub_refuse(r, "the tiles of the loop are not computed "
                         "elementwise");
  if (!bub_slice_hoist(r, old))
    return bub_refuse(r, "the slice's sizes are computed after the scf.for");
  int64_t t2 = s / ub;
  MlirOperation now = sliced_loop(r, old, i);
  body = mlirRegionGetFirstBlock(mlirOperationGetRegion(now, 0));
  iv = mlirBlockGetArgument(body, 0);
  arg = mlirBlockGetArgument(body, i + 1);
  /* Tile iv of the slice, at iv * t2 in it. */
  mlirRewriterBaseSetInsertionPointBefore(r->rw, ex);
  bub_slice at = es, part;
  at.off[k] = bub_mulc(r, bub_v(iv), t2);
  at.size[k] = bub_c(t2);
  MlirValue ntile = bub_extract(r, arg, &at, NULL, false, ex);
  /* The body still computes on a whole old tile: it stands for one whose
   * first t2 elements (on dim k) are the new tile. */
  bub_slice_full(r, tile, &part);
  part.size[k] = bub_c(t2);
  MlirValue whole = mlirOperationGetResult(bub_unslice(r, ntile, &part, tt), 0);
  mlirRewriterBaseReplaceOpWithValues(r->rw, ex, 1, &whole);
  /* What goes back is the marked first part of the computed tile. */
  mlirRewriterBaseSetInsertionPointBefore(r->rw, ins);
  MlirValue v =
      bub_extract(r, mlirOperationGetOperand(ins, 0), &part, NULL, true, no_op);
  MlirValue ni = build_insert(r, v, arg, &at, ins);
  mlirRewriterBaseReplaceOpWithValues(r->rw, ins, 1, &ni);
  finish_loop(r, old, now, i);
  return true;
}

/* The placeholder of a loop rewrite: the same slice of it is the carried
 * slice itself. */
bool bub_rewrite_unslice(bub_rw *r) {
  bub_slice p;
  if (!bub_slice_read(r->producer, 1, &p) || p.rank != r->s.rank)
    return bub_refuse(r, "bad loop placeholder");
  for (int d = 0; d < p.rank; d++)
    if (!bub_eq(p.off[d], r->s.off[d]) || !bub_eq(p.size[d], r->s.size[d]))
      return bub_refuse(r, "the loop body slices the carried value "
                           "differently");
  bub_replace(r, mlirOperationGetOperand(r->producer, 0));
  return true;
}

/* ---- bufferization.to_tensor of a buffer filled by loads -------------------
 */

/* What writes the buffer: loads into all of it (through memory-space casts
 * and whole subviews), into exactly the slice, or into row iv of it in a
 * loop over iv. */
typedef enum { LOAD_WHOLE, LOAD_SLICE, LOAD_ROW } load_kind;

typedef struct {
  MlirOperation alloc, cast; /* cast: null, or memory_space_cast of alloc */
  MlirOperation loads[16];
  load_kind kind[16];
  int load_nviews[16];    /* LOAD_WHOLE: whole subviews on the way */
  MlirOperation loop[16]; /* LOAD_ROW: the loop, and the row's dim */
  int row_dim[16];
  int nloads;
  MlirOperation doomed[64]; /* subviews and marks to erase */
  int ndoomed;
  MlirOperation marks[8]; /* marks on the buffer itself, to copy */
  int nmarks;
  /* Marks on the alloc when the tensor reads it through a cast. */
  MlirOperation alloc_marks[8];
  int nalloc_marks;
  /* A mark names it a tightly coupled buffer: the dim the slice cuts,
   * added to that mark (npuc_bubble_options.narrow_coupled). */
  int coupled_dim;
} buffer_uses;

static bool subview_is_whole(MlirOperation sv) {
  bub_slice s;
  MlirValue src = mlirOperationGetOperand(sv, 0);
  MlirType rt = mlirValueGetType(mlirOperationGetResult(sv, 0));
  return bub_slice_read(sv, 1, &s) && bub_slice_is_identity(&s, src) &&
         bub_rank(rt) == s.rank;
}

static bool subview_is_slice(MlirOperation sv, const bub_slice *want) {
  bub_slice s;
  if (!bub_slice_read(sv, 1, &s) || s.rank != want->rank)
    return false;
  for (int d = 0; d < s.rank; d++)
    if (!bub_eq(s.off[d], want->off[d]) || !bub_eq(s.size[d], want->size[d]) ||
        s.stride[d] != 1)
      return false;
  return true;
}

static bool add_load(buffer_uses *u, MlirOperation load, load_kind kind,
                     int nviews) {
  if (u->nloads == 16 || mlirOperationGetNumResults(load) != 0 ||
      mlirOperationGetNumOperands(load) < 2)
    return false;
  u->loads[u->nloads] = load;
  u->kind[u->nloads] = kind;
  u->loop[u->nloads] = no_op;
  u->load_nviews[u->nloads++] = nviews;
  return true;
}

/* Is `sv` row iv of the buffer (offset iv and size 1 on one dim, the rest
 * whole) in the body of an scf.for over iv? Sets the loop and the dim. */
static bool subview_is_row(MlirOperation sv, MlirOperation *loop, int *dim) {
  MlirOperation l = mlirOperationGetParentOperation(sv);
  bub_slice s;
  if (!npuc_op_is(l, "scf.for") || !bub_slice_read(sv, 1, &s) ||
      !bub_slice_unit_strides(&s))
    return false;
  MlirValue iv = mlirBlockGetArgument(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(l, 0)), 0);
  MlirValue src = mlirOperationGetOperand(sv, 0);
  int k = -1;
  for (int d = 0; d < s.rank; d++) {
    if (bub_slice_full_dim(&s, src, d))
      continue;
    if (k >= 0 || mlirValueIsNull(s.off[d].v) ||
        !mlirValueEqual(s.off[d].v, iv) || !bub_is(s.size[d], 1))
      return false;
    k = d;
  }
  *loop = l;
  *dim = k;
  return k >= 0 &&
         bub_rank(mlirValueGetType(mlirOperationGetResult(sv, 0))) == s.rank;
}

/* Narrowing the loop to the rows of the slice must drop nothing else: its
 * body only computes views and indices and loads into rows. */
static bool loop_only_loads(MlirOperation loop) {
  int64_t lb, step;
  if (mlirOperationGetNumResults(loop) != 0 ||
      !bub_const(bub_v(mlirOperationGetOperand(loop, 0)), &lb) || lb != 0 ||
      !bub_const(bub_v(mlirOperationGetOperand(loop, 2)), &step) || step != 1)
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
    bool pure = (n.length > 6 && memcmp(n.data, "arith.", 6) == 0) ||
                npuc_op_is(op, "affine.apply") ||
                npuc_op_is(op, "memref.subview") ||
                npuc_op_is(op, "memref.reinterpret_cast") ||
                npuc_op_is(op, "memref.cast") || npuc_op_is(op, "scf.yield") ||
                npuc_op_is(op, "hivm.hir.load");
    if (!pure || mlirOperationGetNumRegions(op) != 0)
      return false;
  }
  return true;
}

/* Classifies the users of `v` (the buffer, a cast of it, or a whole view). */
static bool scan_users(bub_rw *r, MlirValue v, buffer_uses *u, int nviews,
                       bool top) {
  for (MlirOpOperand use = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(use);
       use = mlirOpOperandGetNextUse(use)) {
    MlirOperation user = mlirOpOperandGetOwner(use);
    if (mlirOperationEqual(user, r->producer))
      continue;
    if (npuc_op_is(user, "annotation.mark")) {
      if (top && u->nmarks < 8)
        u->marks[u->nmarks++] = user;
      else if (u->ndoomed < 64)
        u->doomed[u->ndoomed++] = user;
      else
        return false;
      continue;
    }
    if (npuc_op_is(user, "hivm.hir.load")) {
      /* Written by the load: the buffer must be its destination. */
      if (mlirOpOperandGetOperandNumber(use) != 1 ||
          !add_load(u, user, LOAD_WHOLE, nviews))
        return false;
      continue;
    }
    if (npuc_op_is(user, "memref.subview") && nviews < 4 && u->ndoomed < 64) {
      MlirValue res = mlirOperationGetResult(user, 0);
      if (subview_is_whole(user)) {
        u->doomed[u->ndoomed++] = user;
        if (!scan_users(r, res, u, nviews + 1, false))
          return false;
        continue;
      }
      MlirOperation loop = no_op;
      int dim = -1;
      bool slice = subview_is_slice(user, &r->s);
      if (nviews == 0 && (slice || subview_is_row(user, &loop, &dim))) {
        u->doomed[u->ndoomed++] = user;
        for (MlirOpOperand su = mlirValueGetFirstUse(res);
             !mlirOpOperandIsNull(su); su = mlirOpOperandGetNextUse(su)) {
          MlirOperation l = mlirOpOperandGetOwner(su);
          if (npuc_op_is(l, "annotation.mark") && u->ndoomed < 64) {
            u->doomed[u->ndoomed++] = l;
            continue;
          }
          if (!npuc_op_is(l, "hivm.hir.load") ||
              mlirOpOperandGetOperandNumber(su) != 1 ||
              !add_load(u, l, slice ? LOAD_SLICE : LOAD_ROW, 0))
            return false;
          u->loop[u->nloads - 1] = loop;
          u->row_dim[u->nloads - 1] = dim;
        }
        continue;
      }
    }
    return false;
  }
  return true;
}

static MlirType memref_of(MlirType like, const bub_slice *s) {
  int64_t shape[BUB_MAX_RANK], c;
  for (int d = 0; d < s->rank; d++)
    shape[d] = mlirValueIsNull(s->size[d].v) && bub_const(s->size[d], &c)
                   ? c
                   : BUB_DYN;
  return mlirMemRefTypeGet(mlirShapedTypeGetElementType(like), s->rank, shape,
                           mlirAttributeGetNull(),
                           mlirMemRefTypeGetMemorySpace(like));
}

/* The alloc's users: the cast, and marks when tightly coupled buffers may
 * be narrowed (bishengir marks the alloc, the tensor reads the cast). */
static bool cast_and_marks(bub_rw *r, MlirValue alloc_v, buffer_uses *u) {
  for (MlirOpOperand use = mlirValueGetFirstUse(alloc_v);
       !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use)) {
    MlirOperation user = mlirOpOperandGetOwner(use);
    if (mlirOperationEqual(user, u->cast))
      continue;
    if (!r->bc->opts.narrow_coupled || !npuc_op_is(user, "annotation.mark") ||
        u->nalloc_marks == 8)
      return false;
    u->alloc_marks[u->nalloc_marks++] = user;
  }
  return true;
}

static bool is_coupled_mark(MlirOperation mark) {
  return !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
      mark, mlirStringRefCreateFromCString("hivm.tightly_coupled_buffer")));
}

/* A tightly coupled buffer (the cube side's) narrowed for sub-block
 * tiling is cut along one dim, which its mark then names. */
static bool tt_check_coupled(bub_rw *r, buffer_uses *u) {
  bool coupled = false;
  for (int k = 0; k < u->nmarks; k++)
    coupled |= is_coupled_mark(u->marks[k]);
  for (int k = 0; k < u->nalloc_marks; k++)
    coupled |= is_coupled_mark(u->alloc_marks[k]);
  u->coupled_dim = -1;
  if (!coupled || !r->bc->opts.narrow_coupled)
    return true;
  for (int d = 0; d < r->s.rank; d++) {
    if (bub_slice_full_dim(&r->s, r->source, d))
      continue;
    if (u->coupled_dim >= 0)
      return bub_refuse(r, "the slice cuts two dims of a tightly coupled "
                           "buffer");
    u->coupled_dim = d;
  }
  return true;
}

/* The buffer behind the tensor: a static memref.alloc (possibly through a
 * memory_space_cast) whose users are only loads and marks (into `u`). */
static bool tt_find_buffer(bub_rw *r, MlirValue buf, buffer_uses *u) {
  if (!mlirValueIsAOpResult(buf))
    return bub_refuse(r, "the buffer is not allocated here");
  MlirOperation def = mlirOpResultGetOwner(buf);
  if (npuc_op_is(def, "memref.memory_space_cast")) {
    u->cast = def;
    MlirValue a = mlirOperationGetOperand(def, 0);
    def = mlirValueIsAOpResult(a) ? mlirOpResultGetOwner(a) : no_op;
  }
  if (!npuc_op_is(def, "memref.alloc") || mlirOperationGetNumOperands(def) != 0)
    return bub_refuse(r, "the buffer is not a static memref.alloc");
  u->alloc = def;
  MlirValue alloc_v = mlirOperationGetResult(def, 0);
  if (!mlirOperationIsNull(u->cast)) {
    if (!cast_and_marks(r, alloc_v, u) ||
        !scan_users(r, mlirOperationGetResult(u->cast, 0), u, 0, true))
      return bub_refuse(r, "the buffer has users other than loads and marks");
  } else if (!scan_users(r, alloc_v, u, 0, true)) {
    return bub_refuse(r, "the buffer has users other than loads and marks");
  }
  return tt_check_coupled(r, u);
}

/* Every load into the buffer can be narrowed to the slice. */
static bool tt_check_loads(bub_rw *r, const buffer_uses *u) {
  for (int k = 0; k < u->nloads; k++) {
    MlirOperation at = u->kind[k] == LOAD_ROW ? u->loop[k] : u->loads[k];
    if (!mlirBlockEqual(mlirOperationGetBlock(at),
                        mlirOperationGetBlock(u->alloc)))
      return bub_refuse(r, "a load into the buffer is in another block");
    if (u->kind[k] == LOAD_ROW) {
      /* Rows of the slice's dim; the window takes the other dims whole. */
      int dim = u->row_dim[k];
      for (int d = 0; d < r->s.rank; d++)
        if (d != dim && !bub_slice_full_dim(&r->s, r->source, d))
          return bub_refuse(r, "rows of another dim than the slice's");
      if (!loop_only_loads(u->loop[k]))
        return bub_refuse(r, "the loop filling the buffer does more than "
                             "load rows");
    }
    MlirType lt = mlirValueGetType(mlirOperationGetOperand(u->loads[k], 0));
    int64_t strides[BUB_MAX_RANK], off;
    if (mlirOperationGetNumOperands(u->loads[k]) > MAX_VALUES ||
        (u->kind[k] == LOAD_WHOLE &&
         (!mlirTypeIsAMemRef(lt) || bub_rank(lt) != r->s.rank ||
          mlirLogicalResultIsFailure(
              mlirMemRefTypeGetStridesAndOffset(lt, strides, &off)))))
      return bub_refuse(r, "a load source that cannot be sliced");
  }
  return true;
}

static MlirValue tt_build_buffer(bub_rw *r, const buffer_uses *u,
                                 MlirValue buf);
static void tt_narrow_loops(bub_rw *r, const buffer_uses *u);
static void tt_narrow_loads(bub_rw *r, const buffer_uses *u, MlirValue nb);
static MlirValue tt_build_tensor(bub_rw *r, MlirValue nb);
static void tt_erase_old(bub_rw *r, const buffer_uses *u);

bool bub_rewrite_to_tensor(bub_rw *r) {
  if (bub_deferred(r->bc, r->producer) || !uses_are_this_slice(r)) {
    bub_defer(r->bc, r->producer);
    return bub_refuse(r, "the tensor of the buffer has other uses");
  }
  MlirValue buf = mlirOperationGetOperand(r->producer, 0);
  buffer_uses u;
  memset(&u, 0, sizeof u);
  if (!tt_find_buffer(r, buf, &u) || !tt_check_loads(r, &u))
    return false;
  MlirOperation after = mlirOperationGetNextInBlock(u.alloc);
  if (mlirOperationIsNull(after) || !bub_slice_hoist(r, after))
    return bub_refuse(r, "the slice's sizes are computed after the buffer");
  MlirValue nb = tt_build_buffer(r, &u, buf);
  tt_narrow_loops(r, &u);
  tt_narrow_loads(r, &u, nb);
  MlirValue nt = tt_build_tensor(r, nb);
  replace_equal_slices(r, nt);
  bub_replace(r, nt);
  tt_erase_old(r, &u);
  return true;
}

/* The copy of `mark` on the new buffer `nb`, after it; a tightly coupled
 * buffer's says which dim the sub-blocks split, for the cube side. */
static void tt_clone_mark(bub_rw *r, const buffer_uses *u, MlirOperation mark,
                          MlirValue nb) {
  mlirRewriterBaseSetInsertionPointAfter(r->rw, mark);
  if (u->coupled_dim < 0 || !is_coupled_mark(mark)) {
    bub_clone_op(r, mark, 1, &nb, 0, NULL, 0, NULL, NULL);
    return;
  }
  MlirNamedAttribute set[2] = {
      bub_named(r, "hivm.tiling_dim",
                mlirIntegerAttrGet(mlirIndexTypeGet(r->ctx), u->coupled_dim)),
      bub_named(r, "tiledAlloc", mlirUnitAttrGet(r->ctx))};
  bub_clone_op(r, mark, 1, &nb, 0, NULL, 2, set, NULL);
}

/* The new buffer of the slice's shape, right after the old one (and its
 * cast and marks after theirs). */
static MlirValue tt_build_buffer(bub_rw *r, const buffer_uses *u,
                                 MlirValue buf) {
  MlirValue alloc_v = mlirOperationGetResult(u->alloc, 0);
  mlirRewriterBaseSetInsertionPointAfter(r->rw, u->alloc);
  MlirType at = memref_of(mlirValueGetType(alloc_v), &r->s);
  MlirOperationState st =
      mlirOperationStateGet(bub_str("memref.alloc"), r->loc);
  int32_t seg[2] = {0, 0};
  for (int d = 0; d < r->s.rank; d++)
    if (!mlirValueIsNull(r->s.size[d].v)) {
      mlirOperationStateAddOperands(&st, 1, &r->s.size[d].v);
      seg[0]++;
    }
  MlirNamedAttribute sa =
      bub_named(r, "operandSegmentSizes", mlirDenseI32ArrayGet(r->ctx, 2, seg));
  mlirOperationStateAddAttributes(&st, 1, &sa);
  MlirAttribute align =
      mlirOperationGetInherentAttributeByName(u->alloc, bub_str("alignment"));
  if (!mlirAttributeIsNull(align)) {
    MlirNamedAttribute al = bub_named(r, "alignment", align);
    mlirOperationStateAddAttributes(&st, 1, &al);
  }
  mlirOperationStateAddResults(&st, 1, &at);
  MlirValue nb = mlirOperationGetResult(bub_create(r, &st), 0);
  MlirValue alloc_nb = nb;
  bub_mark_buffer_size(r, nb, at, mlirValueGetType(alloc_v));
  if (!mlirOperationIsNull(u->cast)) {
    MlirType ct = memref_of(mlirValueGetType(buf), &r->s);
    MlirOperationState cs =
        mlirOperationStateGet(bub_str("memref.memory_space_cast"), r->loc);
    mlirOperationStateAddOperands(&cs, 1, &nb);
    mlirOperationStateAddResults(&cs, 1, &ct);
    mlirRewriterBaseSetInsertionPointAfter(r->rw, u->cast);
    nb = mlirOperationGetResult(bub_create(r, &cs), 0);
  }
  for (int k = 0; k < u->nalloc_marks; k++)
    tt_clone_mark(r, u, u->alloc_marks[k], alloc_nb);
  for (int k = 0; k < u->nmarks; k++)
    tt_clone_mark(r, u, u->marks[k], nb);
  return nb;
}

/* Loops filling rows run over the rows of the slice only:
 * [o, min(ub, o + size)) (their lower bound is 0 <= o). */
static void tt_narrow_loops(bub_rw *r, const buffer_uses *u) {
  for (int k = 0; k < u->nloads; k++) {
    if (u->kind[k] != LOAD_ROW)
      continue;
    bool done = false;
    for (int q = 0; q < k; q++)
      done |=
          u->kind[q] == LOAD_ROW && mlirOperationEqual(u->loop[q], u->loop[k]);
    if (done)
      continue;
    MlirOperation l = u->loop[k];
    int dim = u->row_dim[k];
    mlirRewriterBaseSetInsertionPointBefore(r->rw, l);
    bub_ofr ub = bub_min(r, bub_v(mlirOperationGetOperand(l, 1)),
                         bub_add(r, r->s.off[dim], r->s.size[dim]));
    MlirValue lb = bub_value(r, r->s.off[dim]), ubv = bub_value(r, ub);
    mlirRewriterBaseStartOpModification(r->rw, l);
    mlirOperationSetOperand(l, 0, lb);
    mlirOperationSetOperand(l, 1, ubv);
    mlirRewriterBaseFinalizeOpModification(r->rw, l);
  }
}

/* The loads, rewritten in place to fill the new buffer `nb`. */
static void tt_narrow_loads(bub_rw *r, const buffer_uses *u, MlirValue nb) {
  for (int k = 0; k < u->nloads; k++) {
    MlirOperation l = u->loads[k];
    mlirRewriterBaseSetInsertionPointBefore(r->rw, l);
    MlirValue ops[MAX_VALUES];
    intptr_t n = mlirOperationGetNumOperands(l);
    for (intptr_t q = 0; q < n; q++)
      ops[q] = mlirOperationGetOperand(l, q);
    if (u->kind[k] == LOAD_ROW) {
      /* Row iv of the slice is row iv - o of the new buffer. */
      MlirValue iv = mlirBlockGetArgument(
          mlirRegionGetFirstBlock(mlirOperationGetRegion(u->loop[k], 0)), 0);
      int dim = u->row_dim[k];
      bub_slice row;
      bub_slice_full(r, nb, &row);
      row.off[dim] = bub_sub(r, bub_v(iv), r->s.off[dim]);
      row.size[dim] = bub_c(1);
      ops[1] = bub_view(r, nb, &row);
    } else if (u->kind[k] == LOAD_WHOLE) {
      ops[0] = bub_subview(r, ops[0], &r->s);
      MlirValue dst = nb; /* views of an identity-layout buffer */
      for (int q = 0; q < u->load_nviews[k]; q++) {
        bub_slice all;
        bub_slice_full(r, dst, &all);
        dst = bub_view(r, dst, &all);
      }
      ops[1] = dst;
    } else {
      ops[1] = nb; /* it wrote exactly the slice: now the whole new buffer */
    }
    bub_clone_op(r, l, n, ops, 0, NULL, 0, NULL, NULL);
  }
}

/* The tensor of the new buffer, which replaces the slices, from where the
 * old tensor was (it dominates them all). */
static MlirValue tt_build_tensor(bub_rw *r, MlirValue nb) {
  mlirRewriterBaseSetInsertionPointBefore(r->rw, r->producer);
  MlirOperationState ts =
      mlirOperationStateGet(bub_str("bufferization.to_tensor"), r->loc);
  mlirOperationStateAddOperands(&ts, 1, &nb);
  const char *units[] = {"restrict", "writable"};
  for (int k = 0; k < 2; k++) {
    MlirAttribute a =
        mlirOperationGetInherentAttributeByName(r->producer, bub_str(units[k]));
    if (!mlirAttributeIsNull(a)) {
      MlirNamedAttribute na = bub_named(r, units[k], a);
      mlirOperationStateAddAttributes(&ts, 1, &na);
    }
  }
  MlirType tt = r->slice_type;
  mlirOperationStateAddResults(&ts, 1, &tt);
  return mlirOperationGetResult(bub_create(r, &ts), 0);
}

/* The old buffer and everything that wrote it. */
static void tt_erase_old(bub_rw *r, const buffer_uses *u) {
  for (int k = 0; k < u->nloads; k++)
    mlirRewriterBaseEraseOp(r->rw, u->loads[k]);
  for (int k = u->ndoomed - 1; k >= 0; k--)
    mlirRewriterBaseEraseOp(r->rw, u->doomed[k]);
  for (int k = 0; k < u->nmarks; k++)
    mlirRewriterBaseEraseOp(r->rw, u->marks[k]);
  for (int k = 0; k < u->nalloc_marks; k++)
    mlirRewriterBaseEraseOp(r->rw, u->alloc_marks[k]);
  if (!mlirOperationIsNull(u->cast))
    mlirRewriterBaseEraseOp(r->rw, u->cast);
  mlirRewriterBaseEraseOp(r->rw, u->alloc);
}
