/* The attributes of the issue-17 compute ops the slice rules and the code
 * generator need, read into the group plan's npuc_tx8_slice_op: reduce's
 * axes, softmax's axis, transpose's permutation, clip's bounds and
 * layernorm's epsilon (npuc/Tx8Group.h). One function per op family, so
 * the group plan calls one entry point. */
#include "npuc/IR.h"
#include "npuc/Tx8Group.h"

#include <math.h>
#include <string.h>
#include <mlir-c/BuiltinAttributes.h>

static MlirAttribute attr_of(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op,
                                         mlirStringRefCreateFromCString(name));
}

/* A dimension index, negative counting from the end (as ONNX); -1 when
 * out of range. */
static int axis_of(int64_t v, int rank) {
  if (v < 0)
    v += rank;
  return v >= 0 && v < rank ? (int)v : -1;
}

static bool read_axes(MlirOperation op, const char *name,
                      npuc_tx8_slice_op *s) {
  MlirAttribute a = attr_of(op, "axes");
  int rank = s->num_operands ? s->operands[0].rank : 0;
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) ||
      mlirDenseArrayGetNumElements(a) < 1) {
    npuc_op_error(op,
                  "%s: unsupported attributes: axes must list at least "
                  "one dimension",
                  name);
    return false;
  }
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(a); ++i) {
    int d = axis_of(mlirDenseI64ArrayGetElement(a, i), rank);
    if (d < 0 || (s->axes >> d & 1)) {
      npuc_op_error(op,
                    "%s: unsupported attributes: axis %lld is out of "
                    "range for rank %d or repeated",
                    name, (long long)mlirDenseI64ArrayGetElement(a, i), rank);
      return false;
    }
    s->axes |= 1u << d;
  }
  return true;
}

static bool read_axis(MlirOperation op, const char *name,
                      npuc_tx8_slice_op *s) {
  MlirAttribute a = attr_of(op, "axis");
  int d = -1;
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a))
    d = axis_of(mlirIntegerAttrGetValueInt(a), s->result.rank);
  if (d < 0) {
    npuc_op_error(op,
                  "%s: unsupported attributes: axis must be a "
                  "dimension of the rank-%d input",
                  name, s->result.rank);
    return false;
  }
  s->axes = 1u << d;
  return true;
}

bool npuc_tx8_read_i64_array(MlirOperation op, const char *name, int n,
                             int64_t *out) {
  MlirAttribute a = attr_of(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) ||
      mlirDenseArrayGetNumElements(a) != n)
    return false;
  for (int i = 0; i < n; ++i)
    out[i] = mlirDenseI64ArrayGetElement(a, i);
  return true;
}

/* npuc_tx8_slice_check checks it is a permutation. */
static bool read_permutation(MlirOperation op, npuc_tx8_slice_op *s) {
  if (!npuc_tx8_read_i64_array(op, "permutation", s->result.rank, s->perm)) {
    npuc_op_error(op,
                  "tx8be.transpose: unsupported attributes: the "
                  "permutation needs %d entries",
                  s->result.rank);
    return false;
  }
  return true;
}

/* Input dimension i is result dimension dims[i]; npuc_tx8_slice_check
 * checks they are distinct and fit. */
static bool read_dims(MlirOperation op, npuc_tx8_slice_op *s) {
  int rank = s->num_operands ? s->operands[0].rank : 0;
  if (!npuc_tx8_read_i64_array(op, "dims", rank, s->perm)) {
    npuc_op_error(op,
                  "tx8be.broadcast: unsupported attributes: dims needs "
                  "one entry per input dimension (%d)",
                  rank);
    return false;
  }
  return true;
}

/* Offsets and strides per dimension; sizes must be the result's. */
static bool read_slice(MlirOperation op, npuc_tx8_slice_op *s) {
  int rank = s->result.rank;
  int64_t sizes[NPUC_TX8_MAX_RANK];
  bool ok = npuc_tx8_read_i64_array(op, "offsets", rank, s->offsets) &&
            npuc_tx8_read_i64_array(op, "sizes", rank, sizes) &&
            npuc_tx8_read_i64_array(op, "strides", rank, s->steps);
  for (int d = 0; ok && d < rank; ++d)
    ok = sizes[d] == s->result.dims[d];
  if (!ok)
    npuc_op_error(op,
                  "tx8be.slice: unsupported attributes: offsets, sizes "
                  "and strides need %d entries each, the sizes the "
                  "result's shape",
                  rank);
  return ok;
}

/* kernel, strides, pads (top, bottom, left, right); global_avg_pool's
 * kernel is the input's H x W, its strides 1 and pads 0. */
static bool read_pool(MlirOperation op, const char *name,
                      npuc_tx8_slice_op *s) {
  const npuc_tx8_shape *in = s->num_operands ? &s->operands[0] : NULL;
  if (!strcmp(name, "tx8be.global_avg_pool")) {
    if (!in || in->rank != 4) {
      npuc_op_error(op, "%s: unsupported shape: the input must be 4-D NHWC",
                    name);
      return false;
    }
    s->kernel[0] = in->dims[1];
    s->kernel[1] = in->dims[2];
    s->strides[0] = s->strides[1] = 1;
    return true;
  }
  if (!npuc_tx8_read_i64_array(op, "kernel", 2, s->kernel) ||
      !npuc_tx8_read_i64_array(op, "strides", 2, s->strides) ||
      !npuc_tx8_read_i64_array(op, "pads", 4, s->pads)) {
    npuc_op_error(op,
                  "%s: unsupported attributes: kernel and strides need 2 "
                  "entries, pads 4",
                  name);
    return false;
  }
  return true;
}

/* An optional float attribute; `dflt` when absent. */
static bool read_float(MlirOperation op, const char *name, double dflt,
                       double *out) {
  MlirAttribute a = attr_of(op, name);
  *out = dflt;
  if (mlirAttributeIsNull(a))
    return true;
  if (mlirAttributeIsAFloat(a))
    *out = mlirFloatAttrGetValueDouble(a);
  else if (mlirAttributeIsAInteger(a))
    *out = (double)mlirIntegerAttrGetValueInt(a);
  else
    return false;
  return true;
}

/* ONNX's Clip: min and max default to the whole range. */
static bool read_clip(MlirOperation op, npuc_tx8_slice_op *s) {
  if (!read_float(op, "min", -INFINITY, &s->clip_min) ||
      !read_float(op, "max", INFINITY, &s->clip_max) ||
      !(s->clip_min <= s->clip_max)) {
    npuc_op_error(op, "tx8be.clip: unsupported attributes: min and max must "
                      "be numbers with min <= max");
    return false;
  }
  return true;
}

bool npuc_tx8_read_op_params(MlirOperation op, const char *name,
                             npuc_tx8_slice_op *s, float *epsilon) {
  switch (s->kind) {
  case NPUC_TX8_KIND_REDUCE: return read_axes(op, name, s);
  case NPUC_TX8_KIND_SOFTMAX:
  case NPUC_TX8_KIND_CONCAT: return read_axis(op, name, s);
  case NPUC_TX8_KIND_BROADCAST: return read_dims(op, s);
  case NPUC_TX8_KIND_SLICE: return read_slice(op, s);
  case NPUC_TX8_KIND_POOL: return read_pool(op, name, s);
  case NPUC_TX8_KIND_TRANSPOSE: return read_permutation(op, s);
  case NPUC_TX8_KIND_CLIP: return read_clip(op, s);
  case NPUC_TX8_KIND_LAYERNORM: {
    double eps; /* ONNX's LayerNormalization default */
    if (!read_float(op, "epsilon", 1e-5, &eps) || !(eps >= 0)) {
      npuc_op_error(op, "tx8be.layernorm: unsupported attributes: epsilon "
                        "must be a number >= 0");
      return false;
    }
    *epsilon = (float)eps;
    return true;
  }
  default: return true;
  }
}

bool npuc_tx8_op_takes_i8(const npuc_tx8_slice_op *s, const char *name) {
  switch (s->kind) {
  case NPUC_TX8_KIND_TRANSPOSE:
  case NPUC_TX8_KIND_BROADCAST:
  case NPUC_TX8_KIND_CONCAT:
  case NPUC_TX8_KIND_SLICE:
  case NPUC_TX8_KIND_CLIP: return true;
  case NPUC_TX8_KIND_REDUCE:
    return !strcmp(name, "tx8be.reduce_max") ||
           !strcmp(name, "tx8be.reduce_min");
  case NPUC_TX8_KIND_POOL: return !strcmp(name, "tx8be.max_pool");
  default: return false;
  }
}
