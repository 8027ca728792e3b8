/* Constant folding and the shape helpers the op rules share.
 *
 * Requires values whose elements are known (initializers, Constant, and
 * what folded before). Exporters compute shapes at run time (Shape ->
 * Gather -> Unsqueeze -> Concat -> Reshape); with static shapes all of that
 * is known at import, so each op rule folds when its inputs are constants
 * and builds tx8be ops only for tensors computed at run time. Leaves a
 * folded value with its elements and no MLIR value (built on first use). */
#include "OnnxFold.h"

#include "npuc/Alloc.h"
#include "npuc/Checked.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool onnx_is_const(const oval *x) { return x && (x->f || x->i); }

bool onnx_set_shape(importer *im, const Onnx__NodeProto *n, oval *o,
                    const int64_t *dims, int rank) {
  if (rank < 0 || rank > MAX_RANK)
    return onnx_error(im, n, "result rank %d is above 8", rank);
  o->rank = rank;
  memcpy(o->dims, dims, sizeof(int64_t) * (size_t)rank);
  if (!npuc_checked_product(o->dims, rank, &o->count) ||
      o->count > ((int64_t)1 << 31))
    return onnx_error(im, n, "the result has too many elements");
  for (int d = 0; d < rank; ++d)
    if (dims[d] < 0)
      return onnx_error(im, n, "negative result dimension");
  o->elem = o->elem ? o->elem : ET_FLOAT;
  return true;
}

/* Allocates a constant's elements (floats or integers as `like`). */
void onnx_alloc_const(oval *o, bool ints) {
  free(o->f);
  free(o->i);
  o->f = NULL, o->i = NULL;
  if (ints) {
    o->i = npuc_xcalloc((size_t)o->count + 1, sizeof *o->i);
    o->elem = ET_INT64;
  } else {
    o->f = npuc_xcalloc((size_t)o->count + 1, sizeof *o->f);
    o->elem = ET_FLOAT;
  }
}

double onnx_get(const oval *x, int64_t k) {
  return x->f ? (double)x->f[k] : (double)x->i[k];
}

/* A double as int64, saturating (NaN is 0): values from a file must not
 * make the conversion undefined. */
int64_t onnx_to_i64(double v) {
  if (v != v)
    return 0;
  if (v >= 9.2e18)
    return INT64_MAX;
  if (v <= -9.2e18)
    return INT64_MIN;
  return (int64_t)v;
}

void onnx_put(oval *o, int64_t k, double v) {
  if (o->f)
    o->f[k] = v > 3.4e38 ? INFINITY : v < -3.4e38 ? -INFINITY : (float)v;
  else
    o->i[k] = onnx_to_i64(v);
}

void onnx_strides(const int64_t *dims, int rank, int64_t *strides) {
  int64_t s = 1;
  for (int d = rank - 1; d >= 0; --d) {
    strides[d] = s;
    s *= dims[d];
  }
}

/* out[idx] = x[offset + sum idx[d] * strides[d]] over o's shape: reshape,
 * transpose, slice, gather and broadcast of constants are all this. */
void onnx_view_copy(const oval *x, oval *o, int64_t offset,
                    const int64_t *strides) {
  int64_t idx[MAX_RANK] = {0};
  for (int64_t k = 0; k < o->count; ++k) {
    int64_t src = offset;
    for (int d = 0; d < o->rank; ++d)
      src += idx[d] * strides[d];
    if (x->f && o->f)
      o->f[k] = x->f[src];
    else if (x->i && o->i)
      o->i[k] = x->i[src];
    else
      onnx_put(o, k, onnx_get(x, src));
    for (int d = o->rank - 1; d >= 0; --d) {
      if (++idx[d] < o->dims[d])
        break;
      idx[d] = 0;
    }
  }
}

/* Numpy broadcasting of a and b into r's shape. */
bool onnx_broadcast_shape(const oval *a, const oval *b, int64_t *dims,
                          int *rank) {
  int r = a->rank > b->rank ? a->rank : b->rank;
  for (int k = 1; k <= r; ++k) {
    int64_t da = k <= a->rank ? a->dims[a->rank - k] : 1;
    int64_t db = k <= b->rank ? b->dims[b->rank - k] : 1;
    if (da != db && da != 1 && db != 1)
      return false;
    dims[r - k] = da == 1 ? db : da;
  }
  *rank = r;
  return true;
}

/* The strides that read x broadcast to (dims, rank): 0 on the dimensions
 * it repeats. */
void onnx_broadcast_strides(const oval *x, int rank, int64_t *strides) {
  int64_t own[MAX_RANK];
  onnx_strides(x->dims, x->rank, own);
  for (int d = 0; d < rank; ++d) {
    int xd = d - (rank - x->rank);
    strides[d] = xd < 0 || x->dims[xd] == 1 ? 0 : own[xd];
  }
}

static double apply(int fn, double a, double b) {
  switch (fn) {
  case FOLD_ADD: return a + b;
  case FOLD_SUB: return a - b;
  case FOLD_MUL: return a * b;
  case FOLD_DIV: return b == 0 ? 0 : a / b;
  case FOLD_POW: return pow(a, b);
  case FOLD_RELU: return a > 0 ? a : 0;
  case FOLD_SQRT: return sqrt(a);
  case FOLD_EXP: return exp(a);
  case FOLD_LOG: return log(a);
  case FOLD_ABS: return fabs(a);
  case FOLD_SIGMOID: return 1 / (1 + exp(-a));
  case FOLD_TANH: return tanh(a);
  case FOLD_ERF: return erf(a);
  case FOLD_EQUAL: return a == b;
  default: return a;
  }
}

/* Folds an elementwise op of one or two constants: integers stay
 * integers (integer division truncates, as ONNX's), floats are f32. */
bool onnx_fold_elementwise(importer *im, const Onnx__NodeProto *n, int fn,
                           const oval *a, const oval *b, oval *o) {
  int64_t dims[MAX_RANK];
  int rank = a->rank;
  if (b && !onnx_broadcast_shape(a, b, dims, &rank))
    return onnx_error(im, n, "shapes do not broadcast");
  if (!b)
    memcpy(dims, a->dims, sizeof dims);
  if (!onnx_set_shape(im, n, o, dims, rank))
    return false;
  bool ints = a->i && (!b || b->i) && fn != FOLD_SQRT && fn != FOLD_EXP &&
              fn != FOLD_LOG && fn != FOLD_SIGMOID && fn != FOLD_TANH &&
              fn != FOLD_ERF;
  onnx_alloc_const(o, ints);
  int64_t sa[MAX_RANK], sb[MAX_RANK] = {0}, idx[MAX_RANK] = {0};
  onnx_broadcast_strides(a, rank, sa);
  if (b)
    onnx_broadcast_strides(b, rank, sb);
  for (int64_t k = 0; k < o->count; ++k) {
    int64_t ka = 0, kb = 0;
    for (int d = 0; d < rank; ++d)
      ka += idx[d] * sa[d], kb += idx[d] * sb[d];
    double x = onnx_get(a, ka), y = b ? onnx_get(b, kb) : 0;
    double r = apply(fn, x, y);
    if (ints && fn == FOLD_DIV)
      r = onnx_to_i64(y) == 0 ||
                  (onnx_to_i64(y) == -1 && onnx_to_i64(x) == INT64_MIN)
              ? 0
              : (double)(onnx_to_i64(x) / onnx_to_i64(y));
    onnx_put(o, k, r);
    for (int d = rank - 1; d >= 0; --d) {
      if (++idx[d] < dims[d])
        break;
      idx[d] = 0;
    }
  }
  return true;
}

/* A copy of x's shape, elements and built value under o's name. */
void onnx_alias(oval *o, const oval *x) {
  const char *name = o->name;
  int uses = o->uses, consumer = o->consumer, producer = o->producer;
  *o = *x;
  o->name = name, o->uses = uses, o->consumer = consumer;
  o->producer = producer, o->pending = false;
  if (x->f) {
    o->f = npuc_xmalloc((size_t)x->count * sizeof *o->f + 1);
    memcpy(o->f, x->f, (size_t)x->count * sizeof *o->f);
  }
  if (x->i) {
    o->i = npuc_xmalloc((size_t)x->count * sizeof *o->i + 1);
    memcpy(o->i, x->i, (size_t)x->count * sizeof *o->i);
  }
}

/* A constant's elements as int64 (axes, shapes, pads); false when it is
 * not a constant or holds more than cap. */
int onnx_const_ints(const oval *x, int64_t *out, int cap) {
  if (!onnx_is_const(x) || x->count > cap)
    return -1;
  for (int64_t k = 0; k < x->count; ++k)
    out[k] = onnx_to_i64(onnx_get(x, k));
  return (int)x->count;
}

/* A negative axis counts from the end; false when out of range. */
bool onnx_norm_axis(int64_t *axis, int rank) {
  if (*axis < 0)
    *axis += rank;
  return *axis >= 0 && *axis < rank;
}
