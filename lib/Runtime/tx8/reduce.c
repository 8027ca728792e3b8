/* The reductions on the CGRA tensor engine: reduce sum/max/min/mean over
 * any axes (keepdims), softmax along one axis and layer normalization over
 * the last. Inputs are read element by element through their layouts;
 * floats compute in fp32, accumulating in row-major order. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>

/* CT passes over the input: each op's row of npuc/Tx8Ops.def. */
static int reduce_passes(npuc_tx8_reduce_op op) {
  static const int passes[] = {
#define TX8_REDUCE(name, ENUM, PASSES) PASSES,
#include "npuc/Tx8Ops.def"
  };
  return passes[op];
}

/* ---- reduce ------------------------------------------------------------- */

static void reduce_checks(npuc_tx8_reduce_op op, const npuc_tx8_reduce_param *p,
                          const npuc_tx8_tsr *in, const npuc_tx8_tsr *out,
                          int32_t *out_shape) {
  const char *name = "op_reduce";
  npuc_tx8i_check_in_out(name, in, out, false);
  npuc_tx8i_check_shape(name, "in", p->shape, p->dim, in);
  if (p->axes == 0 || (p->axes >> p->dim) != 0)
    npuc_tx8_fail(name, "axes 0x%x: none, or beyond rank %d", (unsigned)p->axes,
                  (int)p->dim);
  for (int32_t d = 0; d < p->dim; ++d)
    out_shape[d] = (p->axes >> d & 1) ? 1 : p->shape[d];
  npuc_tx8i_check_shape(name, "out (keepdims)", out_shape, p->dim, out);
  if (in->layout.dtype == NPUC_TX8_I8 && op != NPUC_TX8_REDUCE_MAX &&
      op != NPUC_TX8_REDUCE_MIN)
    npuc_tx8_fail(name, "i8 supports max and min only");
}

uint64_t op_reduce(npuc_tx8_reduce_op op, const npuc_tx8_reduce_param *p,
                   const npuc_tx8_tsr *in, const npuc_tx8_tsr *out) {
  int32_t out_shape[NPUC_TX8_MAX_SHAPE_DIM];
  reduce_checks(op, p, in, out, out_shape);
  int64_t ostride[NPUC_TX8_MAX_SHAPE_DIM], step[NPUC_TX8_MAX_SHAPE_DIM];
  int64_t idx[NPUC_TX8_MAX_SHAPE_DIM] = {0};
  int64_t outs = npuc_tx8i_strides_of(out_shape, p->dim, ostride), ins = 1;
  for (int32_t d = 0; d < p->dim; ++d) {
    step[d] = (p->axes >> d & 1) ? 0 : ostride[d];
    ins *= p->shape[d];
  }
  float init = op == NPUC_TX8_REDUCE_MAX   ? -INFINITY
               : op == NPUC_TX8_REDUCE_MIN ? INFINITY
                                           : 0.0f;
  float *acc = malloc((size_t)outs * sizeof(float));
  for (int64_t j = 0; j < outs; ++j)
    acc[j] = init;
  int64_t dst = 0;
  for (int64_t i = 0; i < ins; ++i) {
    float x = npuc_tx8i_elem(in, i);
    float *a = &acc[dst];
    switch (op) {
    case NPUC_TX8_REDUCE_SUM:
    case NPUC_TX8_REDUCE_MEAN: *a += x; break;
    case NPUC_TX8_REDUCE_MAX: *a = x > *a || isnan(x) ? x : *a; break;
    case NPUC_TX8_REDUCE_MIN: *a = x < *a || isnan(x) ? x : *a; break;
    }
    npuc_tx8i_step_index(idx, p->shape, p->dim, step, &dst);
  }
  float scale = (float)outs / (float)ins; /* 1 / elements per output */
  npuc_tx8i_clear_padding(out);
  for (int64_t j = 0; j < outs; ++j)
    npuc_tx8i_set_elem(out, j,
                       op == NPUC_TX8_REDUCE_MEAN ? acc[j] * scale : acc[j]);
  free(acc);
  return npuc_tx8_cycles_reduce(in->layout.total_bytes, reduce_passes(op));
}

/* ---- softmax ------------------------------------------------------------ */

uint64_t op_softmax(const npuc_tx8_softmax_param *p, const npuc_tx8_tsr *in,
                    const npuc_tx8_tsr *out) {
  const char *name = "op_softmax";
  npuc_tx8i_check_in_out(name, in, out, true);
  npuc_tx8i_check_shape(name, "in", p->shape, p->dim, in);
  npuc_tx8i_check_shape(name, "out", p->shape, p->dim, out);
  if (p->axis < 0 || p->axis >= p->dim)
    npuc_tx8_fail(name, "axis %d out of range", (int)p->axis);
  int64_t stride[NPUC_TX8_MAX_SHAPE_DIM];
  int64_t count = npuc_tx8i_strides_of(p->shape, p->dim, stride);
  int64_t len = p->shape[p->axis], inner = stride[p->axis];
  float *row = malloc((size_t)len * sizeof(float));
  npuc_tx8i_clear_padding(out);
  for (int64_t o = 0; o < count / (len * inner); ++o)
    for (int64_t i = 0; i < inner; ++i) {
      int64_t first = o * len * inner + i;
      float max = -INFINITY, sum = 0;
      for (int64_t k = 0; k < len; ++k) {
        row[k] = npuc_tx8i_elem(in, first + k * inner);
        max = row[k] > max ? row[k] : max;
      }
      for (int64_t k = 0; k < len; ++k) {
        row[k] = expf(row[k] - max);
        sum += row[k];
      }
      for (int64_t k = 0; k < len; ++k)
        npuc_tx8i_set_elem(out, first + k * inner, row[k] / sum);
    }
  free(row);
  return npuc_tx8_cycles_softmax(in->layout.total_bytes);
}

/* ---- layernorm ---------------------------------------------------------- */

static void layernorm_checks(const npuc_tx8_tsr *in, const npuc_tx8_tsr *scale,
                             const npuc_tx8_tsr *bias,
                             const npuc_tx8_tsr *out) {
  const char *name = "op_layernorm";
  npuc_tx8i_check_in_out(name, in, out, true);
  npuc_tx8i_check_same_dims(name, "in and out", in, out);
  npuc_tx8i_check_vector(name, "scale", scale, in->layout.dims.c);
  npuc_tx8i_check_vector(name, "bias", bias, in->layout.dims.c);
  npuc_tx8i_check_float(name, "scale", scale);
  npuc_tx8i_check_float(name, "bias", bias);
}

uint64_t op_layernorm(const npuc_tx8_layernorm_param *p, const npuc_tx8_tsr *in,
                      const npuc_tx8_tsr *scale, const npuc_tx8_tsr *bias,
                      const npuc_tx8_tsr *out) {
  layernorm_checks(in, scale, bias, out);
  npuc_tx8_dims d = in->layout.dims;
  int64_t c = d.c;
  float *row = malloc((size_t)c * 3 * sizeof(float));
  float *g = row + c, *b = row + 2 * c;
  npuc_tx8i_vector_f32(g, scale);
  npuc_tx8i_vector_f32(b, bias);
  npuc_tx8i_clear_padding(out);
  for (int64_t r = 0; r < d.n * d.hw; ++r) {
    float mean = 0, var = 0;
    for (int64_t k = 0; k < c; ++k) {
      row[k] = npuc_tx8i_elem(in, r * c + k);
      mean += row[k];
    }
    mean /= (float)c;
    for (int64_t k = 0; k < c; ++k) {
      row[k] -= mean;
      var += row[k] * row[k];
    }
    float rstd = 1.0f / sqrtf(var / (float)c + p->epsilon);
    for (int64_t k = 0; k < c; ++k)
      npuc_tx8i_set_elem(out, r * c + k, row[k] * rstd * g[k] + b[k]);
  }
  free(row);
  return npuc_tx8_cycles_layernorm(in->layout.total_bytes);
}
