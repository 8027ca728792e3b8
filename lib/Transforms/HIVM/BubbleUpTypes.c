/* Types of the bubble-up patterns: rank and shape through the cache of the
 * bubble state, dim sizes as index values, and the type of a slice. */
#include "BubbleUpInternal.h"

#include <mlir-c/BuiltinTypes.h>

/* ---- types ------------------------------------------------------------------
 */

/* bub_type on a miss: reads the type into its slot. */
bub_type_info bub_type_fill(npuc_bubble_ctx *bc, MlirType t) {
  if (mlirTypeIsNull(t))
    return (bub_type_info){-1, false, NULL};
  size_t slot =
      ((uintptr_t)t.ptr >> 4) % (sizeof bc->types / sizeof bc->types[0]);
  if (bc->types[slot].type != t.ptr) {
    bc->types[slot].type = t.ptr;
    bc->types[slot].ranked_tensor = bub_is_ranked_tensor(t);
    bc->types[slot].rank =
        bc->types[slot].ranked_tensor ||
                (mlirTypeIsAShaped(t) && mlirShapedTypeHasRank(t))
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
    if (npuc_op_is(def, "tensor.extract_slice") && bub_slice_read(def, 1, &s) &&
        s.rank == mlirShapedTypeGetRank(t) && !mlirValueIsNull(s.size[d].v))
      return s.size[d]; /* a full-rank slice: its size operand */
    if (npuc_op_is(def, "tensor.empty") || npuc_op_is(def, "memref.alloc")) {
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
      bub_str(mlirTypeIsAMemRef(t) ? "memref.dim" : "tensor.dim"), r->loc);
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
