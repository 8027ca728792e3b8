/* Slice descriptors of the bubble-up patterns: reading the offsets, sizes
 * and strides of a slice op (its static parts through the cache of decoded
 * arrays), whole slices and what a slice takes of its source. */
#include "BubbleUpInternal.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

const int64_t BUB_DYN = INT64_MIN; /* mlirShapedTypeGetDynamicSize() */

/* Called on every slice the greedy driver visits: a lookup by name in the
 * slice's (discardable) attributes, without uniquing the mark's name. */
bool npuc_bubble_is_marked(MlirOperation op) {
  return npuc_op_is(op, "tensor.extract_slice") &&
         !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
             op, bub_str(NPUC_BUBBLE_MARK)));
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

/* An inherent attribute, or a plain one on an unregistered op. */
static MlirAttribute any_attr(MlirOperation op, const char *name) {
  MlirAttribute a = mlirOperationGetInherentAttributeByName(op, bub_str(name));
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
      bub_i64_array(any_attr(op, "static_strides"), strides, BUB_MAX_RANK) != n)
    return false;
  intptr_t next = dyn_start, nops = mlirOperationGetNumOperands(op);
  out->rank = (int)n;
  if (!read_mixed(op, offs, n, &next, nops, out->off) ||
      !read_mixed(op, sizes, n, &next, nops, out->size))
    return false;
  for (intptr_t i = 0; i < n; i++) {
    int64_t c = BUB_DYN;
    if (strides[i] == BUB_DYN && next < nops)
      bub_const(bub_v(mlirOperationGetOperand(op, next++)), &c);
    out->stride[i] = strides[i] != BUB_DYN ? strides[i] : c;
  }
  return true;
}

intptr_t bub_cached_i64_array(npuc_bubble_ctx *bc, MlirAttribute a,
                              int64_t *out) {
  size_t slot =
      ((uintptr_t)a.ptr >> 4) % (sizeof bc->arrays / sizeof bc->arrays[0]);
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
        bc, mlirOperationGetInherentAttributeByName(op, bub_str(names[k])),
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
      bub_const(bub_v(mlirOperationGetOperand(op, next++)), &c);
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
