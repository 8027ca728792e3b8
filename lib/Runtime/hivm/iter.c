/* The n-d loop every op walks its operands with, the strided element copy
 * built on it, and the shape checks ops share. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

/* ---- n-d loop ----------------------------------------------------------- */

void npuc_rti_loop_init(rt_loop *l, int32_t rank, const int64_t *sizes) {
  memset(l, 0, sizeof *l);
  l->rank = rank;
  for (int32_t j = 0; j < rank; j++)
    l->size[j] = sizes[j];
}

int npuc_rti_loop_add(rt_loop *l, int64_t offset, const int64_t *strides) {
  int op = l->nops++;
  l->offset[op] = offset;
  for (int32_t j = 0; j < l->rank; j++)
    l->stride[op][j] = strides[j];
  return op;
}

static void drop_unit_dims(rt_loop *l);
static void merge_contiguous_dims(rt_loop *l);

void npuc_rti_loop_finish(rt_loop *l) {
  int64_t total = npuc_rti_num_elements(l->rank, l->size);
  drop_unit_dims(l);
  merge_contiguous_dims(l);
  if (l->rank == 0) { /* a single element: one row of length 1 */
    l->rank = 1;
    l->size[0] = 1;
    for (int op = 0; op < l->nops; op++)
      l->stride[op][0] = 0;
  }
  l->rows = total == 0 ? 0 : total / l->size[l->rank - 1];
}

/* Moves the offsets to the next row: an odometer over the outer dims. */
void npuc_rti_loop_next_row(rt_loop *l) {
  l->rows--;
  for (int32_t j = l->rank - 2; j >= 0; j--) {
    for (int op = 0; op < l->nops; op++)
      l->offset[op] += l->stride[op][j];
    if (++l->idx[j] < l->size[j])
      return;
    for (int op = 0; op < l->nops; op++)
      l->offset[op] -= l->stride[op][j] * l->size[j];
    l->idx[j] = 0;
  }
}

/* A dim of size 1 adds nothing to any offset. */
static void drop_unit_dims(rt_loop *l) {
  int32_t kept = 0;
  for (int32_t j = 0; j < l->rank; j++) {
    if (l->size[j] == 1)
      continue;
    l->size[kept] = l->size[j];
    for (int op = 0; op < l->nops; op++)
      l->stride[op][kept] = l->stride[op][j];
    kept++;
  }
  l->rank = kept;
}

/* Dims j and j+1 merge when every operand steps over j exactly as a whole
 * run of j+1: then the pair is one dim of size[j] * size[j+1]. Row-major
 * visiting order is unchanged, which ordered reductions rely on. */
static void merge_contiguous_dims(rt_loop *l) {
  for (int32_t j = l->rank - 2; j >= 0; j--) {
    bool mergeable = true;
    for (int op = 0; op < l->nops; op++)
      mergeable &= l->stride[op][j] == l->stride[op][j + 1] * l->size[j + 1];
    if (!mergeable)
      continue;
    l->size[j] *= l->size[j + 1];
    for (int op = 0; op < l->nops; op++)
      l->stride[op][j] = l->stride[op][j + 1];
    for (int32_t k = j + 1; k + 1 < l->rank; k++) {
      l->size[k] = l->size[k + 1];
      for (int op = 0; op < l->nops; op++)
        l->stride[op][k] = l->stride[op][k + 1];
    }
    l->rank--;
  }
}

/* ---- strided copy ------------------------------------------------------- */

void npuc_rti_copy_strided(const npuc_buf *dst, const void *src_data,
                           int64_t src_offset, const int64_t *src_strides) {
  rt_loop l;
  npuc_rti_loop_init(&l, dst->rank, dst->sizes);
  int d = npuc_rti_loop_add(&l, dst->offset, dst->strides);
  int s = npuc_rti_loop_add(&l, src_offset, src_strides);
  npuc_rti_loop_finish(&l);
  size_t es = npuc_rt_elem_size(dst->dtype);
  int64_t n = rt_loop_row_len(&l);
  for (; l.rows > 0; npuc_rti_loop_next_row(&l))
    npuc_rti_copy_elements(rt_elem_ptr(dst, l.offset[d]),
                           rt_loop_row_stride(&l, d),
                           (const char *)src_data + l.offset[s] * (int64_t)es,
                           rt_loop_row_stride(&l, s), n, es);
}

/* The strided copy loop of npuc_rti_copy_elements for element type T. */
#define COPY_AS(T)                                                             \
  do {                                                                         \
    T *to = d;                                                                 \
    const T *from = s;                                                         \
    for (int64_t i = 0; i < n; i++)                                            \
      to[i * ds] = from[i * ss];                                               \
  } while (0)

/* Typed loops per element size: the compiler turns the dense and the
 * repeated (ss == 0) cases into wide moves. */
void npuc_rti_copy_elements(void *d, int64_t ds, const void *s, int64_t ss,
                            int64_t n, size_t es) {
  if (ds == 1 && ss == 1) {
    memmove(d, s, (size_t)n * es);
    return;
  }
  switch (es) {
  case 1: COPY_AS(uint8_t); return;
  case 2: COPY_AS(uint16_t); return;
  case 4: COPY_AS(uint32_t); return;
  default: COPY_AS(uint64_t); return;
  }
}
#undef COPY_AS

/* ---- checks ------------------------------------------------------------- */

void npuc_rti_check_rank(int32_t rank, const char *loc) {
  if (rank < 0 || rank > NPUC_RT_MAX_RANK)
    npuc_rt_fail(loc, "rank %d is outside 0..%d", (int)rank, NPUC_RT_MAX_RANK);
}

void npuc_rti_check_buf(const npuc_buf *b, const char *what, const char *loc) {
  npuc_rti_check_buf_shape(b, what, loc);
  npuc_rt_check_view(b, loc); /* the op touches its elements */
}

void npuc_rti_check_buf_shape(const npuc_buf *b, const char *what,
                              const char *loc) {
  if (!npuc_rti_dtype_valid(b->dtype))
    npuc_rt_fail(loc, "%s has an invalid dtype (%d)", what, (int)b->dtype);
  if (b->rank < 0 || b->rank > NPUC_RT_MAX_RANK)
    npuc_rt_fail(loc, "%s has rank %d, outside 0..%d", what, (int)b->rank,
                 NPUC_RT_MAX_RANK);
  for (int32_t j = 0; j < b->rank; j++)
    if (b->sizes[j] < 0)
      npuc_rt_fail(loc, "%s has negative size %lld in dim %d", what,
                   (long long)b->sizes[j], (int)j);
}

/* Fails with "<what>: shape <x's> <relation> <y's>". */
static void fail_shapes(const char *loc, const char *what, const npuc_buf *x,
                        const char *relation, const npuc_buf *y) {
  char sx[160], sy[160];
  npuc_rti_format_shape(sx, sizeof sx, x->rank, x->sizes);
  npuc_rti_format_shape(sy, sizeof sy, y->rank, y->sizes);
  npuc_rt_fail(loc, "%s: shape %s %s %s", what, sx, relation, sy);
}

void npuc_rti_check_same_shape(const npuc_buf *a, const npuc_buf *b,
                               const char *what, const char *loc) {
  bool same = a->rank == b->rank;
  for (int32_t j = 0; same && j < a->rank; j++)
    same = a->sizes[j] == b->sizes[j];
  if (!same)
    fail_shapes(loc, what, b, "does not match", a);
}

void npuc_rti_check_same_dtype(const npuc_buf *a, const npuc_buf *b,
                               const char *what, const char *loc) {
  if (a->dtype != b->dtype)
    npuc_rt_fail(loc, "%s: dtype %s does not match %s", what,
                 npuc_rt_dtype_name(b->dtype), npuc_rt_dtype_name(a->dtype));
}

void npuc_rti_broadcast_strides(const npuc_buf *src, const npuc_buf *dst,
                                int64_t *strides, const char *what,
                                const char *loc) {
  bool ok = src->rank == dst->rank;
  for (int32_t j = 0; ok && j < dst->rank; j++) {
    ok = src->sizes[j] == dst->sizes[j] || src->sizes[j] == 1;
    strides[j] = src->sizes[j] == dst->sizes[j] ? src->strides[j] : 0;
  }
  if (!ok)
    fail_shapes(loc, what, src, "does not broadcast to", dst);
}

void npuc_rti_format_shape(char *out, size_t cap, int32_t rank,
                           const int64_t *sizes) {
  if (rank <= 0 || rank > NPUC_RT_MAX_RANK) {
    snprintf(out, cap, rank == 0 ? "scalar" : "<rank %d>", (int)rank);
    return;
  }
  size_t used = 0;
  out[0] = '\0';
  for (int32_t j = 0; j < rank && used < cap; j++) {
    int n = snprintf(out + used, cap - used, j ? "x%lld" : "%lld",
                     (long long)sizes[j]);
    if (n < 0)
      break;
    used += (size_t)n;
  }
}

int64_t npuc_rti_num_elements(int32_t rank, const int64_t *sizes) {
  int64_t n = 1;
  for (int32_t j = 0; j < rank; j++)
    n *= sizes[j];
  return n;
}

/* ---- scalar operands ---------------------------------------------------- */

static void put_element(void *storage, npuc_dtype dt, uint64_t bits);

npuc_buf npuc_rti_scalar_view(const npuc_operand *s, npuc_dtype dt,
                              int32_t rank, const int64_t *sizes,
                              uint64_t *storage, const char *loc) {
  if (!npuc_rti_dtype_valid(s->dtype))
    npuc_rt_fail(loc, "scalar operand has an invalid dtype (%d)",
                 (int)s->dtype);
  npuc_buf v = {.data = storage, .offset = 0, .rank = rank, .dtype = dt};
  for (int32_t j = 0; j < rank; j++)
    v.sizes[j] = sizes[j];
  /* The value the kernel holds is of the scalar's own type: round (or
   * wrap) to it first, then convert to dt in one rounding step. */
  bool from_float = npuc_rt_is_float(s->dtype);
  double f = from_float ? npuc_rti_round_to_dtype(s->f, s->dtype) : 0;
  int64_t i = from_float ? 0 : npuc_rti_wrap_int(s->i, s->dtype);
  uint64_t bits;
  if (npuc_rt_is_float(dt)) {
    uint64_t mag = i < 0 ? 0 - (uint64_t)i : (uint64_t)i;
    bits = from_float
               ? npuc_rti_float_bits_from_double(f, dt, RT_ROUND_NEAREST_EVEN)
               : npuc_rti_float_bits_from_int(i < 0, mag, dt,
                                              RT_ROUND_NEAREST_EVEN);
  } else {
    bits = (uint64_t)npuc_rti_wrap_int(
        from_float ? npuc_rti_float_to_int(f, NPUC_CAST_DEFAULT, dt) : i, dt);
  }
  put_element(storage, dt, bits);
  return v;
}

/* Stores the low bits of `bits` as one element of dt. */
static void put_element(void *storage, npuc_dtype dt, uint64_t bits) {
  switch (npuc_rt_elem_size(dt)) {
  case 1: *(uint8_t *)storage = (uint8_t)bits; return;
  case 2: *(uint16_t *)storage = (uint16_t)bits; return;
  case 4: *(uint32_t *)storage = (uint32_t)bits; return;
  default: *(uint64_t *)storage = bits; return;
  }
}
