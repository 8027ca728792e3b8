/* The op rules: one function per ONNX op (or family), found by op_type in
 * `ops` below. Each infers its outputs' shapes, folds when its inputs are
 * constants, and otherwise builds tx8be ops through Build.c.
 *
 * Requires the node's inputs defined (the importer checks). This file
 * holds the table, the elementwise ops and the data-movement ops; OpsNN.c
 * the neural-network ops. Leaves each output with a shape and either
 * elements (folded) or an MLIR value with its layout; or an error naming
 * the node and the reason. */
#include "OnnxFold.h"

#include "npuc/Alloc.h"
#include "npuc/Checked.h"
#include "npuc/Dtype.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool op_constant(importer *im, const Onnx__NodeProto *n, int index);
static bool op_identity(importer *im, const Onnx__NodeProto *n, int index);
static bool op_shape(importer *im, const Onnx__NodeProto *n, int index);
static bool op_cast(importer *im, const Onnx__NodeProto *n, int index);
static double round_to(double v, int64_t to);
static bool cast_runtime(importer *im, const Onnx__NodeProto *n, oval *x,
                         oval *o, int64_t to);
static bool op_unary(importer *im, const Onnx__NodeProto *n, int index);
static bool op_binary(importer *im, const Onnx__NodeProto *n, int index);
static bool op_clip(importer *im, const Onnx__NodeProto *n, int index);
static bool op_reshape(importer *im, const Onnx__NodeProto *n, int index);
static bool op_transpose(importer *im, const Onnx__NodeProto *n, int index);
static bool op_slice(importer *im, const Onnx__NodeProto *n, int index);
static bool op_gather(importer *im, const Onnx__NodeProto *n, int index);
static bool gather_axis(importer *im, const Onnx__NodeProto *n, oval *x,
                        int axis, const int64_t *idx, int64_t count, oval *o);
static bool gather_runs(importer *im, const Onnx__NodeProto *n, oval *x,
                        int axis, const int64_t *idx, int64_t count, oval *o);
static bool op_concat(importer *im, const Onnx__NodeProto *n, int index);
static bool op_split(importer *im, const Onnx__NodeProto *n, int index);
static bool op_constant_of_shape(importer *im, const Onnx__NodeProto *n,
                                 int index);

static const op_entry ops[] = {
    {"Constant", op_constant},
    {"ConstantOfShape", op_constant_of_shape},
    {"Identity", op_identity},
    {"Dropout", op_identity},
    {"Shape", op_shape},
    {"Cast", op_cast},
    {"Relu", op_unary},
    {"Sigmoid", op_unary},
    {"Tanh", op_unary},
    {"Sqrt", op_unary},
    {"Exp", op_unary},
    {"Log", op_unary},
    {"Abs", op_unary},
    {"Erf", op_unary},
    {"Add", op_binary},
    {"Sub", op_binary},
    {"Mul", op_binary},
    {"Div", op_binary},
    {"Pow", op_binary},
    {"Equal", op_binary},
    {"Clip", op_clip},
    {"Reshape", op_reshape},
    {"Flatten", op_reshape},
    {"Squeeze", op_reshape},
    {"Unsqueeze", op_reshape},
    {"Transpose", op_transpose},
    {"Slice", op_slice},
    {"Gather", op_gather},
    {"Concat", op_concat},
    {"Split", op_split},
    {"Conv", onnx_op_conv},
    {"BatchNormalization", onnx_op_batchnorm},
    {"Gemm", onnx_op_gemm},
    {"MatMul", onnx_op_matmul},
    {"MaxPool", onnx_op_pool},
    {"AveragePool", onnx_op_pool},
    {"GlobalAveragePool", onnx_op_global_avg_pool},
    {"Softmax", onnx_op_softmax},
    {"ReduceMean", onnx_op_reduce},
    {"ReduceSum", onnx_op_reduce},
    {"ReduceMax", onnx_op_reduce},
    {"LayerNormalization", onnx_op_layernorm},
};

const op_entry *onnx_find_op(const char *op_type) {
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; ++k)
    if (!strcmp(ops[k].op_type, op_type))
      return &ops[k];
  return NULL;
}

static oval *need_in(importer *im, const Onnx__NodeProto *n, size_t k) {
  oval *x = onnx_in(im, n, k);
  if (!x)
    onnx_error(im, n, "input %zu is missing", k);
  return x;
}

/* Run-time tensors are floats; integer tensors must fold. */
static bool need_float(importer *im, const Onnx__NodeProto *n, const oval *x) {
  if (x->i && !x->f)
    return onnx_error(im, n,
                      "integer tensor '%s' computed at run time: only "
                      "float tensors reach the device",
                      x->name);
  return true;
}

/* ---- Constants and aliases --------------------------------------------- */

static bool op_constant(importer *im, const Onnx__NodeProto *n, int index) {
  oval *o = onnx_out(im, n, 0);
  const Onnx__AttributeProto *a = onnx_attr(n, "value");
  const char *why = NULL;
  if (a && a->t) {
    if (!onnx_tensor_data(a->t, o, &why))
      return onnx_error(im, n, "%s", why);
    return true;
  }
  int64_t none[1];
  if ((a = onnx_attr(n, "value_float")) || (a = onnx_attr(n, "value_int"))) {
    onnx_set_shape(im, n, o, none, 0);
    onnx_alloc_const(o, a->has_i);
    onnx_put(o, 0, a->has_i ? (double)a->i : a->f);
    return true;
  }
  if ((a = onnx_attr(n, "value_ints")) || (a = onnx_attr(n, "value_floats"))) {
    bool ints = a->n_ints > 0 || a->n_floats == 0;
    int64_t len = ints ? (int64_t)a->n_ints : (int64_t)a->n_floats;
    if (!onnx_set_shape(im, n, o, &len, 1))
      return false;
    onnx_alloc_const(o, ints);
    for (int64_t k = 0; k < len; ++k)
      onnx_put(o, k, ints ? (double)a->ints[k] : a->floats[k]);
    return true;
  }
  return onnx_error(im, n,
                    "no value attribute (sparse values are not "
                    "supported)");
}

static bool op_constant_of_shape(importer *im, const Onnx__NodeProto *n,
                                 int index) {
  oval *s = need_in(im, n, 0), *o = onnx_out(im, n, 0);
  int64_t dims[MAX_RANK];
  int rank = s ? onnx_const_ints(s, dims, MAX_RANK) : -1;
  if (rank < 0)
    return onnx_error(im, n, "the shape must be a constant of rank <= 8");
  if (!onnx_set_shape(im, n, o, dims, rank))
    return false;
  const Onnx__AttributeProto *a = onnx_attr(n, "value");
  oval v = {0};
  const char *why = NULL;
  if (a && a->t && !onnx_tensor_data(a->t, &v, &why))
    return onnx_error(im, n, "%s", why);
  onnx_alloc_const(o, v.i != NULL);
  for (int64_t k = 0; k < o->count; ++k)
    onnx_put(o, k, v.count ? onnx_get(&v, 0) : 0.0);
  free(v.f), free(v.i);
  return true;
}

static bool op_identity(importer *im, const Onnx__NodeProto *n, int index) {
  oval *x = need_in(im, n, 0);
  if (!x)
    return false;
  onnx_alias(onnx_out(im, n, 0), x);
  /* Dropout's mask output (inference: all true) is not supported. */
  if (n->n_output > 1 && n->output[1] && *n->output[1])
    return onnx_error(im, n, "the mask output is not supported");
  return true;
}

static bool op_shape(importer *im, const Onnx__NodeProto *n, int index) {
  oval *x = need_in(im, n, 0), *o = onnx_out(im, n, 0);
  if (!x)
    return false;
  int64_t start = onnx_attr_i(n, "start", 0),
          end = onnx_attr_i(n, "end", x->rank);
  start = start < 0 ? start + x->rank : start;
  end = end < 0 ? end + x->rank : end;
  start = start < 0 ? 0 : start > x->rank ? x->rank : start;
  end = end < start ? start : end > x->rank ? x->rank : end;
  int64_t len = end - start;
  onnx_set_shape(im, n, o, &len, 1);
  onnx_alloc_const(o, true);
  for (int64_t k = 0; k < len; ++k)
    o->i[k] = x->dims[start + k];
  return true;
}

static bool op_cast(importer *im, const Onnx__NodeProto *n, int index) {
  oval *x = need_in(im, n, 0), *o = onnx_out(im, n, 0);
  if (!x)
    return false;
  int64_t to = onnx_attr_i(n, "to", 0);
  bool to_float = to == ET_FLOAT || to == ET_FLOAT16 || to == ET_DOUBLE ||
                  to == ET_BFLOAT16;
  bool to_int = to == ET_INT64 || to == ET_INT32 || to == ET_BOOL;
  if (!to_float && !to_int)
    return onnx_error(im, n, "cast to element type %lld is not supported",
                      (long long)to);
  if (!onnx_is_const(x)) {
    if (!to_float)
      return onnx_error(im, n,
                        "casting a run-time tensor to integers is not "
                        "supported");
    return cast_runtime(im, n, x, o, to);
  }
  onnx_set_shape(im, n, o, x->dims, x->rank);
  onnx_alloc_const(o, to_int);
  for (int64_t k = 0; k < x->count; ++k) {
    double v = onnx_get(x, k);
    onnx_put(o, k,
             to == ET_BOOL ? v != 0
             : to_int      ? trunc(v)
                           : round_to(v, to));
    /* onnx_put saturates what does not fit. */
  }
  return true;
}

/* A value rounded to a float type's precision (kept as f32). */
static double round_to(double v, int64_t to) {
  if (to == ET_FLOAT16)
    return npuc_rt_f16_to_f32(npuc_rt_f32_to_f16((float)v));
  if (to == ET_BFLOAT16)
    return npuc_rt_bf16_to_f32(npuc_rt_f32_to_bf16((float)v));
  return v;
}

/* A run-time float tensor cast to a float type: the values rounded to
 * that type (tx8be.cast there and back to the type computed in) when it
 * is narrower than the one computed in; otherwise nothing changes. The
 * ops after it compute in the program's type (--tx8-dtype). */
static bool cast_runtime(importer *im, const Onnx__NodeProto *n, oval *x,
                         oval *o, int64_t to) {
  MlirType ty = onnx_float_type(im, (int32_t)to);
  bool narrower =
      (to == ET_FLOAT16 || to == ET_BFLOAT16) && !mlirTypeEqual(ty, im->fty);
  if (!narrower) {
    onnx_alias(o, x);
    return true;
  }
  if (!need_float(im, n, x))
    return false;
  MlirValue v = onnx_convert(im, onnx_convert(im, x->v, ty), im->fty);
  onnx_set_shape(im, NULL, o, x->dims, x->rank);
  onnx_set_built(o, v, x->perm);
  return true;
}

/* ---- Elementwise ----------------------------------------------------------
 */

static const struct {
  const char *op_type, *tx8;
  int fold;
} elementwise[] = {
    {"Relu", "tx8be.relu", FOLD_RELU},
    {"Sigmoid", "tx8be.sigmoid", FOLD_SIGMOID},
    {"Tanh", "tx8be.tanh", FOLD_TANH},
    {"Sqrt", "tx8be.sqrt", FOLD_SQRT},
    {"Exp", "tx8be.exp", FOLD_EXP},
    {"Log", "tx8be.log", FOLD_LOG},
    {"Abs", "tx8be.abs", FOLD_ABS},
    {"Erf", "tx8be.erf", FOLD_ERF},
    {"Add", "tx8be.add", FOLD_ADD},
    {"Sub", "tx8be.sub", FOLD_SUB},
    {"Mul", "tx8be.mul", FOLD_MUL},
    {"Div", "tx8be.div", FOLD_DIV},
    {"Pow", "tx8be.pow", FOLD_POW},
    {"Equal", NULL, FOLD_EQUAL},
};

static int elementwise_index(const char *op_type) {
  for (size_t k = 0; k < sizeof elementwise / sizeof elementwise[0]; ++k)
    if (!strcmp(elementwise[k].op_type, op_type))
      return (int)k;
  return 0;
}

void onnx_build_unary(importer *im, const char *op, oval *x, oval *out) {
  MlirValue v = x->v;
  MlirOperation r = onnx_build(im, op, 1, &v, mlirValueGetType(v), 0, NULL);
  onnx_set_shape(im, NULL, out, x->dims, x->rank);
  onnx_set_built(out, mlirOperationGetResult(r, 0), x->perm);
}

static bool op_unary(importer *im, const Onnx__NodeProto *n, int index) {
  oval *x = need_in(im, n, 0), *o = onnx_out(im, n, 0);
  int k = elementwise_index(n->op_type);
  if (!x)
    return false;
  if (onnx_is_const(x))
    return onnx_fold_elementwise(im, n, elementwise[k].fold, x, NULL, o);
  if (!need_float(im, n, x))
    return false;
  onnx_build_unary(im, elementwise[k].tx8, x, o);
  return true;
}

/* A constant operand c of a binary op with run-time x: its elements
 * broadcast to x's shape, laid out as x is. A constant uniform along
 * every axis but the last is the rank-1 [C] operand the CGRA broadcasts
 * (VuV); anything else is expanded to x's whole physical shape. */
static MlirValue constant_operand(importer *im, const oval *c, const oval *x,
                                  const int64_t *dims, int rank) {
  int64_t cs[MAX_RANK], pdims[MAX_RANK] = {0}, ps[MAX_RANK];
  onnx_broadcast_strides(c, rank, cs);
  for (int d = 0; d < rank; ++d) {
    pdims[d] = dims[x->perm[d]];
    ps[d] = cs[x->perm[d]];
  }
  bool vector = rank > 0;
  for (int d = 0; d + 1 < rank; ++d)
    vector = vector && ps[d] == 0;
  oval tmp = {0};
  tmp.rank = vector ? 1 : rank;
  if (vector)
    tmp.dims[0] = pdims[rank - 1], ps[0] = ps[rank - 1];
  else
    memcpy(tmp.dims, pdims, sizeof tmp.dims);
  npuc_checked_product(tmp.dims, tmp.rank, &tmp.count);
  onnx_alloc_const(&tmp, false);
  onnx_view_copy(c, &tmp, 0, ps);
  MlirValue v = onnx_const_f(im, tmp.f, tmp.dims, tmp.rank);
  free(tmp.f);
  return v;
}

/* x broadcast to (dims, rank) in the logical layout: a reshape to the
 * result's rank, then tx8be.broadcast repeating the size-1 dimensions. */
static MlirValue broadcast_to(importer *im, oval *x, const int64_t *dims,
                              int rank) {
  MlirValue v = onnx_logical(im, x);
  bool same =
      x->rank == rank && !memcmp(x->dims, dims, sizeof(int64_t) * (size_t)rank);
  if (same)
    return v;
  int64_t padded[MAX_RANK], map[MAX_RANK];
  for (int d = 0; d < rank; ++d) {
    int xd = d - (rank - x->rank);
    padded[d] = xd < 0 ? 1 : x->dims[xd];
    map[d] = d;
  }
  if (x->rank != rank)
    v = onnx_reshape(im, v, padded, rank);
  MlirNamedAttribute a = onnx_attr_i64s(im, "dims", map, rank);
  return onnx_build1(im, "tx8be.broadcast", v, onnx_tensor_type(im, dims, rank),
                     1, &a);
}

static bool same_shape(const oval *x, const int64_t *dims, int rank) {
  return x->rank == rank &&
         !memcmp(x->dims, dims, sizeof(int64_t) * (size_t)rank);
}

/* Pow by a constant 2, 1 or 0.5 is a multiply, a copy or a square root:
 * exact where the CGRA's pow (exp of a log) is NaN for negative bases. */
static bool pow_special(importer *im, oval *x, const oval *e, oval *o) {
  if (!onnx_is_const(e) || e->count < 1)
    return false;
  double p = onnx_get(e, 0);
  for (int64_t k = 1; k < e->count; ++k)
    if (onnx_get(e, k) != p)
      return false;
  if (p != 2 && p != 1 && p != 0.5)
    return false;
  int64_t dims[MAX_RANK];
  int rank;
  if (!onnx_broadcast_shape(x, e, dims, &rank) || !same_shape(x, dims, rank))
    return false;
  if (p == 1) {
    onnx_alias(o, x);
    return true;
  }
  if (p == 0.5) {
    onnx_build_unary(im, "tx8be.sqrt", x, o);
    return true;
  }
  MlirValue v[2] = {x->v, x->v};
  MlirOperation r =
      onnx_build(im, "tx8be.mul", 2, v, mlirValueGetType(x->v), 0, NULL);
  onnx_set_shape(im, NULL, o, x->dims, x->rank);
  onnx_set_built(o, mlirOperationGetResult(r, 0), x->perm);
  return true;
}

static bool op_binary(importer *im, const Onnx__NodeProto *n, int index) {
  oval *a = need_in(im, n, 0), *b = a ? need_in(im, n, 1) : NULL;
  oval *o = onnx_out(im, n, 0);
  int k = elementwise_index(n->op_type);
  if (!a || !b)
    return false;
  if (onnx_is_const(a) && onnx_is_const(b))
    return onnx_fold_elementwise(im, n, elementwise[k].fold, a, b, o);
  if (!elementwise[k].tx8)
    return onnx_error(im, n, "%s of run-time tensors is not supported",
                      n->op_type);
  if (!need_float(im, n, a) || !need_float(im, n, b))
    return false;
  int64_t dims[MAX_RANK];
  int rank;
  if (!onnx_broadcast_shape(a, b, dims, &rank))
    return onnx_error(im, n, "shapes do not broadcast");
  if (elementwise[k].fold == FOLD_POW && !onnx_is_const(a) &&
      pow_special(im, a, b, o))
    return true;
  MlirValue v[2];
  int perm[MAX_RANK];
  if (onnx_is_const(a) || onnx_is_const(b)) {
    /* The run-time operand keeps its layout when it has the result's
     * shape; the constant follows it. */
    oval *x = onnx_is_const(a) ? b : a, *c = onnx_is_const(a) ? a : b;
    /* The run-time operand goes first when the op commutes. */
    int fn = elementwise[k].fold;
    int xi = x == a || fn == FOLD_ADD || fn == FOLD_MUL ? 0 : 1;
    if (same_shape(x, dims, rank)) {
      memcpy(perm, x->perm, sizeof perm);
      v[xi] = x->v;
      v[1 - xi] = constant_operand(im, c, x, dims, rank);
    } else {
      onnx_identity_perm(perm, rank);
      v[xi] = broadcast_to(im, x, dims, rank);
      oval full = *x;
      memcpy(full.dims, dims, sizeof full.dims);
      full.rank = rank;
      onnx_identity_perm(full.perm, rank);
      v[1 - xi] = constant_operand(im, c, &full, dims, rank);
    }
  } else if (same_shape(a, dims, rank) && same_shape(b, dims, rank) &&
             !memcmp(a->perm, b->perm, sizeof a->perm)) {
    memcpy(perm, a->perm, sizeof perm);
    v[0] = a->v, v[1] = b->v;
  } else {
    onnx_identity_perm(perm, rank);
    v[0] = broadcast_to(im, a, dims, rank);
    v[1] = broadcast_to(im, b, dims, rank);
  }
  int64_t pdims[MAX_RANK];
  for (int d = 0; d < rank; ++d)
    pdims[d] = dims[perm[d]];
  MlirOperation r = onnx_build(im, elementwise[k].tx8, 2, v,
                               onnx_tensor_type(im, pdims, rank), 0, NULL);
  if (!onnx_set_shape(im, n, o, dims, rank))
    return false;
  onnx_set_built(o, mlirOperationGetResult(r, 0), perm);
  return true;
}

static bool op_clip(importer *im, const Onnx__NodeProto *n, int index) {
  oval *x = need_in(im, n, 0), *o = onnx_out(im, n, 0);
  oval *lo = onnx_in(im, n, 1), *hi = onnx_in(im, n, 2);
  if (!x)
    return false;
  if ((lo && (!onnx_is_const(lo) || lo->count != 1)) ||
      (hi && (!onnx_is_const(hi) || hi->count != 1)))
    return onnx_error(im, n, "min and max must be constant scalars");
  if (onnx_is_const(x)) {
    onnx_alias(o, x);
    for (int64_t k = 0; k < o->count; ++k) {
      double v = onnx_get(o, k);
      v = lo && v < onnx_get(lo, 0) ? onnx_get(lo, 0) : v;
      v = hi && v > onnx_get(hi, 0) ? onnx_get(hi, 0) : v;
      onnx_put(o, k, v);
    }
    return true;
  }
  if (!need_float(im, n, x))
    return false;
  MlirNamedAttribute attrs[2];
  int na = 0;
  if (lo)
    attrs[na++] = onnx_attr_f32(im, "min", onnx_get(lo, 0));
  if (hi)
    attrs[na++] = onnx_attr_f32(im, "max", onnx_get(hi, 0));
  MlirOperation r =
      onnx_build(im, "tx8be.clip", 1, &x->v, mlirValueGetType(x->v), na, attrs);
  onnx_set_shape(im, n, o, x->dims, x->rank);
  onnx_set_built(o, mlirOperationGetResult(r, 0), x->perm);
  return true;
}

/* ---- Shapes and data movement ------------------------------------------- */

/* o (its shape set, x's element count) gets x's elements in order. */
static void copy_elements(oval *o, const oval *x) {
  onnx_alloc_const(o, x->i != NULL);
  if (x->f)
    memcpy(o->f, x->f, (size_t)x->count * sizeof *o->f);
  else
    memcpy(o->i, x->i, (size_t)x->count * sizeof *o->i);
}

/* The result shape of Reshape, Flatten, Squeeze, Unsqueeze. */
static bool reshaped_dims(importer *im, const Onnx__NodeProto *n, oval *x,
                          int64_t *dims, int *rank) {
  int64_t v[MAX_RANK];
  if (!strcmp(n->op_type, "Flatten")) {
    int64_t axis = onnx_attr_i(n, "axis", 1);
    if (axis < 0)
      axis += x->rank;
    if (axis < 0 || axis > x->rank)
      return onnx_error(im, n, "axis out of range");
    dims[0] = 1, dims[1] = 1;
    for (int d = 0; d < x->rank; ++d)
      dims[d < axis ? 0 : 1] *= x->dims[d];
    *rank = 2;
    return true;
  }
  oval *s = onnx_in(im, n, 1);
  int nv = s ? onnx_const_ints(s, v, MAX_RANK) : 0;
  if (nv < 0)
    return onnx_error(im, n,
                      "the %s must be a constant of at most 8 "
                      "elements",
                      !strcmp(n->op_type, "Reshape") ? "shape" : "axes");
  if (!strcmp(n->op_type, "Reshape")) {
    if (!s)
      return onnx_error(im, n, "no shape input");
    int64_t known = 1;
    int infer = -1;
    for (int d = 0; d < nv; ++d) {
      dims[d] = v[d] == 0 && !onnx_attr_i(n, "allowzero", 0) && d < x->rank
                    ? x->dims[d]
                    : v[d];
      if (dims[d] == -1) {
        if (infer >= 0)
          return onnx_error(im, n, "more than one -1 in the shape");
        infer = d;
      } else if (dims[d] < 0)
        return onnx_error(im, n, "negative dimension in the shape");
      else if (!npuc_checked_mul(known, dims[d], &known))
        return onnx_error(im, n, "the shape has too many elements");
    }
    if (infer >= 0)
      dims[infer] = known ? x->count / known : 0;
    *rank = nv;
    int64_t count;
    if (!npuc_checked_product(dims, nv, &count) || count != x->count)
      return onnx_error(im, n, "cannot reshape %lld elements to this shape",
                        (long long)x->count);
    return true;
  }
  bool squeeze = !strcmp(n->op_type, "Squeeze");
  bool drop[MAX_RANK * 2] = {false};
  int out_rank = squeeze ? x->rank : x->rank + nv;
  if (out_rank > MAX_RANK)
    return onnx_error(im, n, "result rank above 8");
  for (int k = 0; k < nv; ++k) {
    if (!onnx_norm_axis(&v[k], squeeze ? x->rank : out_rank))
      return onnx_error(im, n, "axis out of range");
    drop[v[k]] = true;
  }
  *rank = 0;
  for (int d = 0, xd = 0; d < out_rank; ++d) {
    if (squeeze) {
      bool gone = nv ? drop[d] : x->dims[d] == 1;
      if (gone && x->dims[d] != 1)
        return onnx_error(im, n, "squeezes dimension %d of size %lld", d,
                          (long long)x->dims[d]);
      if (!gone)
        dims[(*rank)++] = x->dims[d];
    } else
      dims[(*rank)++] = drop[d] ? 1 : x->dims[xd++];
  }
  return true;
}

static bool op_reshape(importer *im, const Onnx__NodeProto *n, int index) {
  oval *x = need_in(im, n, 0), *o = onnx_out(im, n, 0);
  int64_t dims[MAX_RANK];
  int rank = 0;
  if (!x || !reshaped_dims(im, n, x, dims, &rank) ||
      !onnx_set_shape(im, n, o, dims, rank))
    return false;
  if (onnx_is_const(x)) {
    copy_elements(o, x);
    return true;
  }
  if (!need_float(im, n, x))
    return false;
  onnx_set_reshaped(im, o, x, dims, rank);
  return true;
}

/* A transpose changes only the value's recorded layout: result logical
 * dimension i is input logical dimension p[i], so the same physical
 * value serves with physical d being result dimension inv(p)[perm[d]]. */
static bool op_transpose(importer *im, const Onnx__NodeProto *n, int index) {
  oval *x = need_in(im, n, 0), *o = onnx_out(im, n, 0);
  if (!x)
    return false;
  int64_t p[MAX_RANK];
  int np = onnx_attr_ints(n, "perm", p, MAX_RANK);
  if (np == 0) {
    np = x->rank;
    for (int d = 0; d < np; ++d)
      p[d] = np - 1 - d;
  }
  bool seen[MAX_RANK] = {false};
  if (np != x->rank)
    return onnx_error(im, n, "perm has %d entries for rank %d", np, x->rank);
  for (int d = 0; d < np; ++d) {
    if (p[d] < 0 || p[d] >= np || seen[p[d]])
      return onnx_error(im, n, "perm is not a permutation");
    seen[p[d]] = true;
  }
  int64_t dims[MAX_RANK], in_strides[MAX_RANK], strides[MAX_RANK];
  for (int d = 0; d < np; ++d)
    dims[d] = x->dims[p[d]];
  if (!onnx_set_shape(im, n, o, dims, np))
    return false;
  if (onnx_is_const(x)) {
    onnx_strides(x->dims, x->rank, in_strides);
    for (int d = 0; d < np; ++d)
      strides[d] = in_strides[p[d]];
    onnx_alloc_const(o, x->i != NULL);
    onnx_view_copy(x, o, 0, strides);
    return true;
  }
  if (!need_float(im, n, x))
    return false;
  int inv[MAX_RANK], perm[MAX_RANK];
  for (int d = 0; d < np; ++d)
    inv[p[d]] = d;
  for (int d = 0; d < np; ++d)
    perm[d] = inv[x->perm[d]];
  onnx_set_built(o, x->v, perm);
  return true;
}

/* tx8be.slice of x in its physical layout: logical axis a is the
 * physical dimension d with perm[d] == a. */
static MlirValue build_slice(importer *im, oval *x, const int64_t *start,
                             const int64_t *size, const int64_t *step) {
  int64_t off[MAX_RANK], sz[MAX_RANK], st[MAX_RANK];
  for (int d = 0; d < x->rank; ++d) {
    off[d] = start[x->perm[d]];
    sz[d] = size[x->perm[d]];
    st[d] = step[x->perm[d]];
  }
  MlirNamedAttribute a[3] = {onnx_attr_i64s(im, "offsets", off, x->rank),
                             onnx_attr_i64s(im, "sizes", sz, x->rank),
                             onnx_attr_i64s(im, "strides", st, x->rank)};
  MlirValue v = x->v;
  return mlirOperationGetResult(onnx_build(im, "tx8be.slice", 1, &v,
                                           onnx_tensor_type(im, sz, x->rank), 3,
                                           a),
                                0);
}

/* Slices (start, size, step per logical axis) of a constant or run-time x
 * into o. */
static bool slice_into(importer *im, const Onnx__NodeProto *n, oval *x,
                       const int64_t *start, const int64_t *size,
                       const int64_t *step, oval *o) {
  if (!onnx_set_shape(im, n, o, size, x->rank))
    return false;
  if (onnx_is_const(x)) {
    int64_t in_strides[MAX_RANK], strides[MAX_RANK], offset = 0;
    onnx_strides(x->dims, x->rank, in_strides);
    for (int d = 0; d < x->rank; ++d) {
      offset += start[d] * in_strides[d];
      strides[d] = step[d] * in_strides[d];
    }
    onnx_alloc_const(o, x->i != NULL);
    onnx_view_copy(x, o, offset, strides);
    return true;
  }
  if (!need_float(im, n, x))
    return false;
  onnx_set_built(o, build_slice(im, x, start, size, step), x->perm);
  return true;
}

static int64_t clamp(int64_t v, int64_t lo, int64_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

static bool op_slice(importer *im, const Onnx__NodeProto *n, int index) {
  oval *x = need_in(im, n, 0), *o = onnx_out(im, n, 0);
  if (!x)
    return false;
  int64_t starts[MAX_RANK], ends[MAX_RANK], axes[MAX_RANK], steps[MAX_RANK];
  int ns = onnx_in(im, n, 1)
               ? onnx_const_ints(onnx_in(im, n, 1), starts, MAX_RANK)
               : -1;
  int ne = onnx_in(im, n, 2)
               ? onnx_const_ints(onnx_in(im, n, 2), ends, MAX_RANK)
               : -1;
  int na = onnx_in(im, n, 3)
               ? onnx_const_ints(onnx_in(im, n, 3), axes, MAX_RANK)
               : ns;
  int nt = onnx_in(im, n, 4)
               ? onnx_const_ints(onnx_in(im, n, 4), steps, MAX_RANK)
               : ns;
  if (ns < 0 || ne != ns || na != ns || nt != ns)
    return onnx_error(im, n,
                      "starts, ends, axes and steps must be constants "
                      "of one length");
  int64_t start[MAX_RANK], size[MAX_RANK], step[MAX_RANK];
  for (int d = 0; d < x->rank; ++d)
    start[d] = 0, size[d] = x->dims[d], step[d] = 1;
  for (int k = 0; k < ns; ++k) {
    int64_t axis = onnx_in(im, n, 3) ? axes[k] : k;
    int64_t s = onnx_in(im, n, 4) ? steps[k] : 1;
    if (!onnx_norm_axis(&axis, x->rank))
      return onnx_error(im, n, "axis out of range");
    if (s <= 0)
      return onnx_error(im, n,
                        "steps must be positive (tx8be.slice has no "
                        "reversed slices)");
    int64_t dim = x->dims[axis];
    int64_t b = starts[k] < 0 ? starts[k] + dim : starts[k];
    int64_t e = ends[k] < 0 ? ends[k] + dim : ends[k];
    b = clamp(b, 0, dim), e = clamp(e, 0, dim);
    start[axis] = b, step[axis] = s;
    size[axis] = e > b ? 1 + (e - b - 1) / s : 0;
    if (!size[axis] && !onnx_is_const(x))
      return onnx_error(im, n, "the slice is empty");
  }
  return slice_into(im, n, x, start, size, step, o);
}

/* Gather with constant indices: the result is x with the axis replaced by
 * the indices' shape. Constants fold; a run-time x is cut into runs of
 * indices that step evenly forward (one tx8be.slice each; a scalar index
 * is a run of one), concatenated along the axis when there are several,
 * then reshaped to the result. */
static bool op_gather(importer *im, const Onnx__NodeProto *n, int index) {
  oval *x = need_in(im, n, 0), *ix = x ? need_in(im, n, 1) : NULL;
  oval *o = onnx_out(im, n, 0);
  if (!x || !ix)
    return false;
  int64_t axis = onnx_attr_i(n, "axis", 0);
  if (!onnx_norm_axis(&axis, x->rank))
    return onnx_error(im, n, "axis out of range");
  if (!onnx_is_const(ix))
    return onnx_error(im, n, "the indices must be constants");
  int64_t dims[MAX_RANK];
  int rank = 0;
  for (int d = 0; d < axis; ++d)
    dims[rank++] = x->dims[d];
  for (int d = 0; d < ix->rank && rank < MAX_RANK; ++d)
    dims[rank++] = ix->dims[d];
  if (rank + x->rank - axis - 1 > MAX_RANK)
    return onnx_error(im, n, "result rank above 8");
  for (int d = (int)axis + 1; d < x->rank; ++d)
    dims[rank++] = x->dims[d];
  int64_t count = ix->count, *idx = npuc_xmalloc(((size_t)count + 1) * 8);
  bool ok = true;
  for (int64_t k = 0; k < count && ok; ++k) {
    int64_t i = onnx_to_i64(onnx_get(ix, k));
    idx[k] = i < 0 && i >= -x->dims[axis] ? i + x->dims[axis] : i;
    if (idx[k] < 0 || idx[k] >= x->dims[axis])
      ok = onnx_error(im, n, "index %lld out of range", (long long)i);
  }
  oval gathered = {.name = o->name};
  ok = ok && gather_axis(im, n, x, (int)axis, idx, count, &gathered) &&
       onnx_set_shape(im, n, o, dims, rank);
  if (ok && onnx_is_const(&gathered))
    copy_elements(o, &gathered);
  else if (ok)
    onnx_set_reshaped(im, o, &gathered, dims, rank);
  free(gathered.f), free(gathered.i);
  free(idx);
  return ok;
}

/* o = x with `axis` replaced by the `count` entries idx (in range). */
static bool gather_axis(importer *im, const Onnx__NodeProto *n, oval *x,
                        int axis, const int64_t *idx, int64_t count, oval *o) {
  int64_t shape[MAX_RANK];
  memcpy(shape, x->dims, sizeof shape);
  shape[axis] = count;
  if (!onnx_set_shape(im, n, o, shape, x->rank))
    return false;
  if (onnx_is_const(x)) {
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d)
      outer *= x->dims[d];
    for (int d = axis + 1; d < x->rank; ++d)
      inner *= x->dims[d]; /* products of x's checked count */
    onnx_alloc_const(o, x->i != NULL);
    for (int64_t a = 0, at = 0; a < outer; ++a)
      for (int64_t k = 0; k < count; ++k)
        for (int64_t j = 0; j < inner; ++j)
          onnx_put(o, at++,
                   onnx_get(x, (a * x->dims[axis] + idx[k]) * inner + j));
    return true;
  }
  if (!need_float(im, n, x))
    return false;
  if (count == 0)
    return onnx_error(im, n, "no indices: the result would be empty");
  return gather_runs(im, n, x, axis, idx, count, o);
}

/* At most this many runs (tx8be.slice ops) per Gather. */
#define GATHER_MAX_RUNS 1024

static bool gather_runs(importer *im, const Onnx__NodeProto *n, oval *x,
                        int axis, const int64_t *idx, int64_t count, oval *o) {
  int64_t start[MAX_RANK], size[MAX_RANK], step[MAX_RANK], pdims[MAX_RANK];
  int paxis = 0;
  for (int d = 0; d < x->rank; ++d) {
    start[d] = 0, size[d] = x->dims[d], step[d] = 1;
    pdims[d] = o->dims[x->perm[d]];
    paxis = x->perm[d] == axis ? d : paxis;
  }
  MlirValue *parts = npuc_xcalloc((size_t)GATHER_MAX_RUNS, sizeof *parts);
  int64_t *lens = npuc_xcalloc((size_t)GATHER_MAX_RUNS, sizeof *lens);
  int nparts = 0;
  bool ok = true;
  for (int64_t k = 0; k < count && ok;) {
    int64_t len = 1, stride = k + 1 < count ? idx[k + 1] - idx[k] : 1;
    if (stride > 0)
      while (k + len < count && idx[k + len] - idx[k + len - 1] == stride)
        ++len;
    if (nparts == GATHER_MAX_RUNS) {
      ok = onnx_error(im, n,
                      "the indices form more than %d runs of evenly "
                      "stepping indices (one tx8be.slice each)",
                      GATHER_MAX_RUNS);
      break;
    }
    start[axis] = idx[k], size[axis] = len, step[axis] = len > 1 ? stride : 1;
    lens[nparts] = len;
    parts[nparts++] = build_slice(im, x, start, size, step);
    k += len;
  }
  if (ok)
    onnx_set_built(
        o, onnx_concat_tree(im, parts, lens, nparts, pdims, x->rank, paxis),
        x->perm);
  free(parts);
  free(lens);
  return ok;
}

static bool concat_const(importer *im, const Onnx__NodeProto *n, oval **in,
                         size_t nin, int64_t axis, oval *o) {
  bool ints = true;
  for (size_t k = 0; k < nin; ++k)
    ints = ints && in[k]->i;
  onnx_alloc_const(o, ints);
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; ++d)
    outer *= o->dims[d];
  for (int d = (int)axis + 1; d < o->rank; ++d)
    inner *= o->dims[d];
  int64_t pos = 0;
  for (size_t k = 0; k < nin; ++k) {
    int64_t run = in[k]->dims[axis] * inner;
    for (int64_t q = 0; q < outer; ++q)
      for (int64_t e = 0; e < run; ++e)
        onnx_put(o, q * o->dims[axis] * inner + pos + e,
                 onnx_get(in[k], q * run + e));
    pos += run;
  }
  return true;
}

static bool op_concat(importer *im, const Onnx__NodeProto *n, int index) {
  oval *o = onnx_out(im, n, 0);
  size_t nin = n->n_input;
  if (nin == 0 || !onnx_in(im, n, 0))
    return onnx_error(im, n, "no inputs");
  oval *x0 = onnx_in(im, n, 0);
  int64_t axis = onnx_attr_i(n, "axis", 0);
  if (!onnx_norm_axis(&axis, x0->rank))
    return onnx_error(im, n, "axis out of range");
  bool all_const = true;
  int64_t dims[MAX_RANK];
  memcpy(dims, x0->dims, sizeof dims);
  dims[axis] = 0;
  oval **all = npuc_xcalloc(nin, sizeof *all);
  for (size_t k = 0; k < nin; ++k) {
    oval *x = all[k] = onnx_in(im, n, k);
    bool fits = x && x->rank == x0->rank;
    for (int d = 0; fits && d < x0->rank; ++d)
      fits = d == axis || x->dims[d] == x0->dims[d];
    if (!fits) {
      free(all);
      return onnx_error(im, n, "input %zu does not fit the others", k);
    }
    if (!npuc_checked_add(dims[axis], x->dims[axis], &dims[axis])) {
      free(all);
      return onnx_error(im, n, "the result is too large");
    }
    all_const = all_const && onnx_is_const(x);
  }
  bool ok = onnx_set_shape(im, n, o, dims, x0->rank);
  if (ok && all_const)
    ok = concat_const(im, n, all, nin, axis, o);
  else if (ok && nin > 1024)
    ok = onnx_error(im, n, "more than 1024 inputs");
  else if (ok) {
    oval **in = all;
    for (size_t k = 0; k < nin && ok; ++k)
      ok = need_float(im, n, in[k]);
    /* One layout for every input: the first run-time input's. */
    int perm[MAX_RANK];
    onnx_identity_perm(perm, x0->rank);
    for (size_t k = 0; k < nin; ++k)
      if (!onnx_is_const(in[k])) {
        memcpy(perm, in[k]->perm, sizeof perm);
        break;
      }
    int64_t pdims[MAX_RANK], paxis = 0;
    for (int d = 0; d < x0->rank; ++d) {
      pdims[d] = dims[perm[d]];
      if (perm[d] == axis)
        paxis = d;
    }
    /* More than 5 inputs: a tree of tx8be.concat. */
    MlirValue *v = npuc_xcalloc(nin, sizeof *v);
    int64_t *sizes = npuc_xcalloc(nin, sizeof *sizes);
    for (size_t k = 0; k < nin && ok; ++k) {
      v[k] = onnx_physical(im, in[k], perm);
      sizes[k] = in[k]->dims[axis];
    }
    if (ok)
      onnx_set_built(
          o,
          onnx_concat_tree(im, v, sizes, (int)nin, pdims, x0->rank, (int)paxis),
          perm);
    free(v);
    free(sizes);
  }
  free(all);
  return ok;
}

static bool op_split(importer *im, const Onnx__NodeProto *n, int index) {
  oval *x = need_in(im, n, 0);
  if (!x)
    return false;
  int64_t axis = onnx_attr_i(n, "axis", 0), sizes[64];
  size_t parts = n->n_output;
  if (!onnx_norm_axis(&axis, x->rank))
    return onnx_error(im, n, "axis out of range");
  if (parts == 0 || parts > 64)
    return onnx_error(im, n, "1 to 64 outputs are supported");
  oval *s = onnx_in(im, n, 1);
  int ns = s ? onnx_const_ints(s, sizes, 64) : 0;
  if (s && ns != (int)parts)
    return onnx_error(im, n,
                      "split must be a constant with one size per "
                      "output");
  int64_t total = 0;
  for (size_t k = 0; k < parts; ++k) {
    if (!s)
      sizes[k] = (x->dims[axis] + (int64_t)parts - 1) / (int64_t)parts;
    if (!s && k + 1 == parts)
      sizes[k] = x->dims[axis] - total;
    if (sizes[k] <= 0 || sizes[k] > x->dims[axis])
      return onnx_error(im, n, "part %zu would be empty or too large", k);
    total += sizes[k];
  }
  if (total != x->dims[axis])
    return onnx_error(im, n, "the parts add up to %lld, not %lld",
                      (long long)total, (long long)x->dims[axis]);
  int64_t start[MAX_RANK], size[MAX_RANK], step[MAX_RANK];
  for (int d = 0; d < x->rank; ++d)
    start[d] = 0, size[d] = x->dims[d], step[d] = 1;
  for (size_t k = 0; k < parts; ++k) {
    size[axis] = sizes[k];
    oval *o = onnx_out(im, n, k);
    if (o && !slice_into(im, n, x, start, size, step, o))
      return false;
    start[axis] += sizes[k];
  }
  return true;
}
