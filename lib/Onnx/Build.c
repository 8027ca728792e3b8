/* Building the tx8be graph: types, ops, attributes, constants, and the
 * layout of each value (its physical permutation).
 *
 * Requires the importer's block and current location. A value built in a
 * permuted layout (NHWC for NCHW) is transposed back only when an op
 * needs its logical layout, once per value; an op that can work in the
 * permuted layout takes it as it is, so back-to-back conv-like ops never
 * transpose: layout changes cancel where they meet. */
#include "OnnxInternal.h"

#include "npuc/Alloc.h"
#include "npuc/Dtype.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MlirStringRef ref(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

MlirType onnx_tensor_type(importer *im, const int64_t *dims, int rank) {
  return mlirRankedTensorTypeGet(rank, dims, im->fty, mlirAttributeGetNull());
}

/* The MLIR type of an ONNX float element type (f32 for FLOAT and DOUBLE,
 * which TX8 computes in f32), or a null type. */
MlirType onnx_float_type(importer *im, int32_t elem) {
  switch (elem) {
  case ET_FLOAT:
  case ET_DOUBLE: return mlirF32TypeGet(im->ctx);
  case ET_FLOAT16: return mlirF16TypeGet(im->ctx);
  case ET_BFLOAT16: return mlirBF16TypeGet(im->ctx);
  }
  return (MlirType){NULL};
}

/* v as elements of `elem`: v itself, or a tx8be.cast of it. */
MlirValue onnx_convert(importer *im, MlirValue v, MlirType elem) {
  MlirType t = mlirValueGetType(v);
  if (mlirTypeEqual(mlirShapedTypeGetElementType(t), elem))
    return v;
  int64_t dims[MAX_RANK];
  intptr_t rank = mlirShapedTypeGetRank(t);
  for (intptr_t d = 0; d < rank; ++d)
    dims[d] = mlirShapedTypeGetDimSize(t, d);
  MlirType to =
      mlirRankedTensorTypeGet(rank, dims, elem, mlirAttributeGetNull());
  return onnx_build1(im, "tx8be.cast", v, to, 0, NULL);
}

/* parts[0..n) (n >= 1; of physical shape pdims but sizes[k] along paxis)
 * joined along paxis, at most 5 per tx8be.concat, a tree of them for
 * more; parts and sizes are scratch. */
MlirValue onnx_concat_tree(importer *im, MlirValue *parts, int64_t *sizes,
                           int n, const int64_t *pdims, int rank, int paxis) {
  MlirNamedAttribute axis = onnx_attr_int(im, "axis", paxis);
  while (n > 1) {
    int m = 0;
    for (int k = 0; k < n; k += 5) {
      int take = n - k < 5 ? n - k : 5;
      int64_t d[MAX_RANK];
      memcpy(d, pdims, sizeof(int64_t) * (size_t)rank);
      d[paxis] = 0;
      for (int j = 0; j < take; ++j)
        d[paxis] += sizes[k + j];
      parts[m] = take == 1
                     ? parts[k]
                     : mlirOperationGetResult(
                           onnx_build(im, "tx8be.concat", take, parts + k,
                                      onnx_tensor_type(im, d, rank), 1, &axis),
                           0);
      sizes[m++] = d[paxis];
    }
    n = m;
  }
  return parts[0];
}

MlirOperation onnx_build(importer *im, const char *name, int nops,
                         const MlirValue *ops, MlirType result, int nattrs,
                         const MlirNamedAttribute *attrs) {
  MlirOperationState st = mlirOperationStateGet(ref(name), im->loc);
  if (nops)
    mlirOperationStateAddOperands(&st, nops, ops);
  if (!mlirTypeIsNull(result))
    mlirOperationStateAddResults(&st, 1, &result);
  if (nattrs)
    mlirOperationStateAddAttributes(&st, nattrs, attrs);
  MlirOperation op = mlirOperationCreate(&st);
  mlirBlockAppendOwnedOperation(im->body, op);
  return op;
}

MlirValue onnx_build1(importer *im, const char *name, MlirValue in,
                      MlirType result, int nattrs,
                      const MlirNamedAttribute *attrs) {
  return mlirOperationGetResult(
      onnx_build(im, name, 1, &in, result, nattrs, attrs), 0);
}

MlirValue onnx_reshape(importer *im, MlirValue v, const int64_t *dims,
                       int rank) {
  return onnx_build1(im, "tx8be.reshape", v, onnx_tensor_type(im, dims, rank),
                     0, NULL);
}

void onnx_set_reshaped(importer *im, oval *o, oval *x, const int64_t *dims,
                       int rank) {
  int perm[MAX_RANK];
  onnx_identity_perm(perm, rank);
  onnx_set_built(o, onnx_reshape(im, onnx_logical(im, x), dims, rank), perm);
}

static MlirNamedAttribute named(importer *im, const char *name,
                                MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(im->ctx, ref(name)), a);
}

MlirNamedAttribute onnx_attr_i64s(importer *im, const char *name,
                                  const int64_t *v, int n) {
  return named(im, name, mlirDenseI64ArrayGet(im->ctx, n, v));
}

MlirNamedAttribute onnx_attr_int(importer *im, const char *name, int64_t v) {
  return named(im, name,
               mlirIntegerAttrGet(mlirIntegerTypeGet(im->ctx, 64), v));
}

MlirNamedAttribute onnx_attr_f32(importer *im, const char *name, double v) {
  return named(im, name,
               mlirFloatAttrDoubleGet(im->ctx, mlirF32TypeGet(im->ctx), v));
}

void onnx_identity_perm(int *perm, int rank) {
  for (int d = 0; d < rank; ++d)
    perm[d] = d;
}

bool onnx_perm_is_identity(const int *perm, int rank) {
  for (int d = 0; d < rank; ++d)
    if (perm[d] != d)
      return false;
  return true;
}

void onnx_set_built(oval *o, MlirValue v, const int *perm) {
  o->v = v;
  memcpy(o->perm, perm, sizeof o->perm);
  o->logical = (MlirValue){NULL};
}

static MlirValue transpose(importer *im, MlirValue v, const int *perm,
                           int rank) {
  MlirType t = mlirValueGetType(v);
  int64_t dims[MAX_RANK], p64[MAX_RANK];
  for (int d = 0; d < rank; ++d) {
    dims[d] = mlirShapedTypeGetDimSize(t, perm[d]);
    p64[d] = perm[d];
  }
  /* Moving only dimensions of size 1 keeps the elements' order: a
   * reshape, which needs no data movement. */
  int last = -1;
  bool order_kept = true;
  for (int d = 0; d < rank; ++d)
    if (dims[d] != 1) {
      order_kept = order_kept && perm[d] > last;
      last = perm[d];
    }
  if (order_kept)
    return onnx_reshape(im, v, dims, rank);
  MlirNamedAttribute a = onnx_attr_i64s(im, "permutation", p64, rank);
  return onnx_build1(im, "tx8be.transpose", v, onnx_tensor_type(im, dims, rank),
                     1, &a);
}

/* A constant used by a run-time op is built once, in its logical layout. */
static void build_constant(importer *im, oval *x) {
  if (!mlirValueIsNull(x->v) || !x->f)
    return;
  int perm[MAX_RANK];
  onnx_identity_perm(perm, x->rank);
  onnx_set_built(x, onnx_const_f(im, x->f, x->dims, x->rank), perm);
}

MlirValue onnx_logical(importer *im, oval *x) {
  build_constant(im, x);
  if (onnx_perm_is_identity(x->perm, x->rank))
    return x->v;
  if (mlirValueIsNull(x->logical)) {
    /* physical d is logical perm[d]: logical j is physical inv[j]. */
    int inv[MAX_RANK];
    for (int d = 0; d < x->rank; ++d)
      inv[x->perm[d]] = d;
    x->logical = transpose(im, x->v, inv, x->rank);
  }
  return x->logical;
}

MlirValue onnx_physical(importer *im, oval *x, const int *perm) {
  build_constant(im, x);
  if (!memcmp(perm, x->perm, sizeof(int) * (size_t)x->rank))
    return x->v;
  if (onnx_perm_is_identity(perm, x->rank))
    return onnx_logical(im, x);
  /* From the logical layout: physical d is logical perm[d]. */
  return transpose(im, onnx_logical(im, x), perm, x->rank);
}

static void free_blob(void *user, const void *data, size_t size, size_t align) {
  (void)user, (void)size, (void)align;
  free((void *)data);
}

/* A tx8be.constant: dense elements in the computed float type, or (for
 * npuc-import's text) a dense_resource blob the module prints apart. */
MlirValue onnx_const_f(importer *im, const float *data, const int64_t *dims,
                       int rank) {
  MlirType t = onnx_tensor_type(im, dims, rank);
  int64_t count = 1;
  for (int d = 0; d < rank; ++d)
    count *= dims[d]; /* checked when the value's shape was set */
  size_t width = im->opts->dtype == NPUC_ONNX_DTYPE_MODEL ? 4 : 2;
  void *buf = npuc_xmalloc((size_t)count * width + 1);
  for (int64_t k = 0; k < count; ++k) {
    if (width == 4)
      memcpy((char *)buf + k * 4, &data[k], 4);
    else {
      uint16_t h = im->opts->dtype == NPUC_ONNX_DTYPE_F16
                       ? npuc_rt_f32_to_f16(data[k])
                       : npuc_rt_f32_to_bf16(data[k]);
      memcpy((char *)buf + k * 2, &h, 2);
    }
  }
  MlirAttribute value;
  if (im->opts->resource_weights && count >= 16) {
    char name[64];
    snprintf(name, sizeof name, "onnx_weight_%lld",
             (long long)im->resource_id++);
    value = mlirUnmanagedDenseResourceElementsAttrGet(
        t, ref(name), buf, (size_t)count * width, width, false, free_blob,
        NULL);
    /* The blob now belongs to MLIR, which frees it with `free`. */
  } else {
    value = mlirDenseElementsAttrRawBufferGet(t, (size_t)count * width, buf);
    free(buf);
  }
  MlirNamedAttribute a = named(im, "value", value);
  return mlirOperationGetResult(
      onnx_build(im, "tx8be.constant", 0, NULL, t, 1, &a), 0);
}

MlirValue onnx_none(importer *im) {
  return mlirOperationGetResult(
      onnx_build(im, "tx8be.none", 0, NULL, mlirNoneTypeGet(im->ctx), 0, NULL),
      0);
}

/* ---- Node attributes ---------------------------------------------------- */

const Onnx__AttributeProto *onnx_attr(const Onnx__NodeProto *n,
                                      const char *name) {
  for (size_t k = 0; k < n->n_attribute; ++k)
    if (n->attribute[k]->name && !strcmp(n->attribute[k]->name, name))
      return n->attribute[k];
  return NULL;
}

int64_t onnx_attr_i(const Onnx__NodeProto *n, const char *name, int64_t dflt) {
  const Onnx__AttributeProto *a = onnx_attr(n, name);
  return a && a->has_i ? a->i : dflt;
}

float onnx_attr_f(const Onnx__NodeProto *n, const char *name, float dflt) {
  const Onnx__AttributeProto *a = onnx_attr(n, name);
  return a && a->has_f ? a->f : dflt;
}

int onnx_attr_ints(const Onnx__NodeProto *n, const char *name, int64_t *out,
                   int cap) {
  const Onnx__AttributeProto *a = onnx_attr(n, name);
  if (!a)
    return 0;
  if (a->n_ints > (size_t)cap)
    return -1;
  for (size_t k = 0; k < a->n_ints; ++k)
    out[k] = a->ints[k];
  return (int)a->n_ints;
}
