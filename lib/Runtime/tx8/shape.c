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

/* ---- moving elements by row-major index -------------------------------- */

int64_t npuc_tx8i_strides_of(const int32_t *shape, int32_t dim,
                             int64_t *stride) {
  int64_t count = 1;
  for (int32_t d = dim - 1; d >= 0; --d) {
    stride[d] = count;
    count *= shape[d];
  }
  return count;
}

void npuc_tx8i_step_index(int64_t *idx, const int32_t *shape, int32_t dim,
                          const int64_t *stride, int64_t *src) {
  for (int32_t d = dim - 1; d >= 0; --d) {
    *src += stride[d];
    if (++idx[d] < shape[d])
      return;
    *src -= stride[d] * shape[d];
    idx[d] = 0;
  }
}

static void copy_elem(const npuc_tx8_tsr *out, int64_t j,
                      const npuc_tx8_tsr *in, int64_t i) {
  memcpy(tx8_at(out, tx8_elem_offset(out, j)),
         tx8_at(in, tx8_elem_offset(in, i)), (size_t)in->layout.elem_bytes);
}

/* Fills out's `count` row-major elements (over `shape`) from in, starting at
 * element `src` of in and stepping by `stride` per dimension. */
static void gather(const npuc_tx8_tsr *out, int64_t count,
                   const npuc_tx8_tsr *in, int64_t src, const int32_t *shape,
                   int32_t dim, const int64_t *stride) {
  int64_t idx[NPUC_TX8_MAX_SHAPE_DIM] = {0};
  npuc_tx8i_clear_padding(out);
  for (int64_t j = 0; j < count; ++j) {
    copy_elem(out, j, in, src);
    npuc_tx8i_step_index(idx, shape, dim, stride, &src);
  }
}

/* ---- transpose ----------------------------------------------------------- */

static void transpose_checks(const npuc_tx8_transpose_param *p,
                             const npuc_tx8_tsr *in, const npuc_tx8_tsr *out,
                             int32_t *out_shape) {
  const char *op = "op_transpose";
  npuc_tx8i_check_in_out(op, in, out, false);
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
  int64_t in_stride[NPUC_TX8_MAX_SHAPE_DIM],
      stride[NPUC_TX8_MAX_SHAPE_DIM] = {0};
  int64_t count = npuc_tx8i_strides_of(p->shape, p->dim, in_stride);
  for (int32_t i = 0; i < p->dim; ++i)
    stride[i] = in_stride[p->perm[i]];
  gather(out, count, in, 0, out_shape, p->dim, stride);
  return npuc_tx8_cycles_transpose(in->layout.total_bytes,
                                   out->layout.total_bytes);
}

/* ---- broadcast, concat, slice -------------------------------------------- */

static void broadcast_checks(const npuc_tx8_broadcast_param *p,
                             const npuc_tx8_tsr *in, const npuc_tx8_tsr *out) {
  const char *op = "op_broadcast";
  npuc_tx8i_check_in_out(op, in, out, false);
  npuc_tx8i_check_shape(op, "in", p->shape, p->dim, in);
  npuc_tx8i_check_shape(op, "out", p->out_shape, p->out_dim, out);
  uint32_t seen = 0;
  for (int32_t i = 0; i < p->dim; ++i) {
    int32_t d = p->dims[i];
    if (d < 0 || d >= p->out_dim || (seen >> d & 1) ||
        (p->shape[i] != 1 && p->shape[i] != p->out_shape[d]))
      npuc_tx8_fail(op,
                    "input dimension %d cannot broadcast to output "
                    "dimension %d",
                    (int)i, (int)d);
    seen |= 1u << d;
  }
}

uint64_t op_broadcast(const npuc_tx8_broadcast_param *p, const npuc_tx8_tsr *in,
                      const npuc_tx8_tsr *out) {
  broadcast_checks(p, in, out);
  /* The input's stride for each output dimension: 0 where it repeats. */
  int64_t in_stride[NPUC_TX8_MAX_SHAPE_DIM],
      stride[NPUC_TX8_MAX_SHAPE_DIM] = {0};
  npuc_tx8i_strides_of(p->shape, p->dim, in_stride);
  for (int32_t i = 0; i < p->dim; ++i)
    if (p->shape[i] == p->out_shape[p->dims[i]])
      stride[p->dims[i]] = in_stride[i];
  int64_t outs = 1;
  for (int32_t d = 0; d < p->out_dim; ++d)
    outs *= p->out_shape[d];
  gather(out, outs, in, 0, p->out_shape, p->out_dim, stride);
  return npuc_tx8_cycles_broadcast(out->layout.total_bytes);
}

static void concat_checks(const npuc_tx8_concat_param *p,
                          const npuc_tx8_tsr *const *ins,
                          const npuc_tx8_tsr *out) {
  const char *op = "op_concat";
  npuc_tx8i_check_tsr(op, "out", out);
  npuc_tx8i_check_shape(op, "out", p->shape, p->dim, out);
  if (p->axis < 0 || p->axis >= p->dim || p->count < 1 ||
      p->count > NPUC_TX8_MAX_CONCAT)
    npuc_tx8_fail(op, "axis %d or count %d out of range", (int)p->axis,
                  (int)p->count);
  int32_t shape[NPUC_TX8_MAX_SHAPE_DIM], total = 0;
  memcpy(shape, p->shape, sizeof shape);
  for (int32_t i = 0; i < p->count; ++i) {
    npuc_tx8i_check_tsr(op, "an input", ins[i]);
    npuc_tx8i_check_dtype(op, "an input", ins[i], out->layout.dtype);
    shape[p->axis] = p->lengths[i];
    npuc_tx8i_check_shape(op, "an input", shape, p->dim, ins[i]);
    total += p->lengths[i];
  }
  if (total != p->shape[p->axis])
    npuc_tx8_fail(op, "the inputs' lengths add up to %d, not %d", (int)total,
                  (int)p->shape[p->axis]);
}

/* Output row-major, as (outer, axis, inner): each input supplies its
 * lengths[i] * inner run of every outer index in turn. */
uint64_t op_concat(const npuc_tx8_concat_param *p,
                   const npuc_tx8_tsr *const *ins, const npuc_tx8_tsr *out) {
  concat_checks(p, ins, out);
  int64_t outer = 1, inner = 1, src_bytes = 0;
  for (int32_t d = 0; d < p->axis; ++d)
    outer *= p->shape[d];
  for (int32_t d = p->axis + 1; d < p->dim; ++d)
    inner *= p->shape[d];
  npuc_tx8i_clear_padding(out);
  int64_t j = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (int32_t i = 0; i < p->count; ++i) {
      int64_t run = p->lengths[i] * inner;
      for (int64_t k = 0; k < run; ++k)
        copy_elem(out, j++, ins[i], o * run + k);
    }
  for (int32_t i = 0; i < p->count; ++i)
    src_bytes += ins[i]->layout.total_bytes;
  return npuc_tx8_cycles_move(src_bytes, out->layout.total_bytes);
}

uint64_t op_slice(const npuc_tx8_slice_param *p, const npuc_tx8_tsr *in,
                  const npuc_tx8_tsr *out) {
  const char *op = "op_slice";
  npuc_tx8i_check_in_out(op, in, out, false);
  int64_t outs = npuc_tx8i_check_shape(op, "out", p->shape, p->dim, out);
  npuc_tx8i_check_shape(op, "in", p->in_shape, p->dim, in);
  for (int32_t d = 0; d < p->dim; ++d)
    if (p->strides[d] < 1 || p->offsets[d] < 0 ||
        p->offsets[d] + (int64_t)(p->shape[d] - 1) * p->strides[d] >=
            p->in_shape[d])
      npuc_tx8_fail(op, "dimension %d reads outside the input", (int)d);
  /* The input's row-major strides, scaled by the slice's steps. */
  int64_t stride[NPUC_TX8_MAX_SHAPE_DIM] = {0}, src = 0;
  npuc_tx8i_strides_of(p->in_shape, p->dim, stride);
  for (int32_t d = 0; d < p->dim; ++d) {
    src += stride[d] * p->offsets[d];
    stride[d] *= p->strides[d];
  }
  gather(out, outs, in, src, p->shape, p->dim, stride);
  return npuc_tx8_cycles_move(in->layout.total_bytes, out->layout.total_bytes);
}
