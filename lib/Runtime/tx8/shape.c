/* Tensors seen through their N-D shape (the reductions, softmax and
 * transpose take one): the shape checks, element access by row-major
 * index, and op_transpose, a TDMA move that permutes the dimensions. */
#include "internal.h"

#include <string.h>

int64_t npuc_tx8i_check_shape(const char *op, const char *what,
                              const int32_t *shape, int32_t dim,
                              const npuc_tx8_tsr *t) {
  if (dim < 1 || dim > NPUC_TX8_MAX_SHAPE_DIM)
    npuc_tx8_fail(op, "%s: rank %d (1 to %d supported)", what, (int)dim,
                  NPUC_TX8_MAX_SHAPE_DIM);
  int64_t count = 1;
  for (int32_t d = 0; d < dim; ++d) {
    if (shape[d] < 1)
      npuc_tx8_fail(op, "%s: dimension %d is %d", what, (int)d, (int)shape[d]);
    count *= shape[d];
  }
  npuc_tx8_dims td = t->layout.dims;
  if (count != td.n * td.hw * td.c)
    npuc_tx8_fail(op, "%s: the shape has %lld elements, the tensor %lld", what,
                  (long long)count, (long long)(td.n * td.hw * td.c));
  return count;
}

float npuc_tx8i_elem(const npuc_tx8_tsr *t, int64_t i) {
  float f;
  npuc_tx8i_load_f32(&f, tx8_at(t, tx8_elem_offset(t, i)), t->layout.dtype, 1);
  return f;
}

void npuc_tx8i_set_elem(const npuc_tx8_tsr *t, int64_t i, float v) {
  npuc_tx8i_store_f32(tx8_at(t, tx8_elem_offset(t, i)), t->layout.dtype, &v, 1);
}

/* ---- transpose ----------------------------------------------------------- */

static void transpose_checks(const npuc_tx8_transpose_param *p,
                             const npuc_tx8_tsr *in, const npuc_tx8_tsr *out,
                             int32_t *out_shape) {
  const char *op = "op_transpose";
  npuc_tx8i_check_tsr(op, "in", in);
  npuc_tx8i_check_tsr(op, "out", out);
  npuc_tx8i_check_dtype(op, "out", out, in->layout.dtype);
  npuc_tx8i_check_shape(op, "in", p->shape, p->dim, in);
  bool seen[NPUC_TX8_MAX_SHAPE_DIM] = {false};
  for (int32_t i = 0; i < p->dim; ++i) {
    int32_t j = p->perm[i];
    if (j < 0 || j >= p->dim || seen[j])
      npuc_tx8_fail(op, "perm is not a permutation of 0..%d", (int)p->dim - 1);
    seen[j] = true;
    out_shape[i] = p->shape[j];
  }
  npuc_tx8i_check_shape(op, "out", out_shape, p->dim, out);
}

uint64_t op_transpose(const npuc_tx8_transpose_param *p, const npuc_tx8_tsr *in,
                      const npuc_tx8_tsr *out) {
  int32_t out_shape[NPUC_TX8_MAX_SHAPE_DIM] = {0};
  transpose_checks(p, in, out, out_shape);
  /* stride[i]: the input's row-major stride of output dimension i. */
  int64_t in_stride[NPUC_TX8_MAX_SHAPE_DIM], stride[NPUC_TX8_MAX_SHAPE_DIM];
  int64_t idx[NPUC_TX8_MAX_SHAPE_DIM] = {0}, count = 1;
  for (int32_t d = p->dim - 1; d >= 0; --d) {
    in_stride[d] = count;
    count *= p->shape[d];
  }
  for (int32_t i = 0; i < p->dim; ++i)
    stride[i] = in_stride[p->perm[i]];
  npuc_tx8i_clear_padding(out);
  int64_t bytes = in->layout.elem_bytes, src = 0;
  for (int64_t j = 0; j < count; ++j) {
    memcpy(tx8_at(out, tx8_elem_offset(out, j)),
           tx8_at(in, tx8_elem_offset(in, src)), (size_t)bytes);
    /* The next output index, row-major, and its input element. */
    for (int32_t d = p->dim - 1; d >= 0; --d) {
      src += stride[d];
      if (++idx[d] < out_shape[d])
        break;
      src -= stride[d] * out_shape[d];
      idx[d] = 0;
    }
  }
  return npuc_tx8_cycles_transpose(in->layout.total_bytes,
                                   out->layout.total_bytes);
}
