/* Reductions (vreduce). Each dst element accumulates its source elements
 * in row-major order of the source, in the dst dtype (f16/bf16 in f32,
 * rounded once at the end; integers wrap). The accumulators live in a
 * dense scratch array shaped like dst; the source is walked once. */
#include "internal.h"

#include <stdlib.h>

static void check_reduce(npuc_reduce_op op, const npuc_buf *dst,
                         const npuc_buf *src, uint32_t dims_mask,
                         const char *loc);
static rt_ct accumulator_type(npuc_dtype dt);
static void init_accumulators(void *acc, rt_ct ct, size_t n, npuc_reduce_op op,
                              npuc_dtype dt);
static void accumulate(void *acc, rt_ct ct, npuc_reduce_op op,
                       const npuc_buf *dst, const npuc_buf *src,
                       uint32_t dims_mask);
static void store_accumulators(const void *acc, rt_ct ct, const npuc_buf *dst);

void npuc_rt_reduce(npuc_reduce_op op, const npuc_buf *dst, const npuc_buf *src,
                    uint32_t dims_mask, const char *loc) {
  check_reduce(op, dst, src, dims_mask, loc);
  rt_ct ct = accumulator_type(dst->dtype);
  size_t n = (size_t)npuc_rti_num_elements(dst->rank, dst->sizes);
  void *acc = malloc((n ? n : 1) * npuc_rti_ct_size(ct));
  if (!acc)
    npuc_rt_fail(loc, "reduce: out of memory");
  init_accumulators(acc, ct, n, op, dst->dtype);
  accumulate(acc, ct, op, dst, src, dims_mask);
  store_accumulators(acc, ct, dst);
  free(acc);
}

static const char *reduce_name(npuc_reduce_op op) {
  static const char *const names[] = {"sum", "prod", "max", "min", "any",
                                      "all", "xor",  "or",  "and"};
  return (unsigned)op <= NPUC_RED_AND ? names[op] : "<invalid>";
}

static void check_reduce(npuc_reduce_op op, const npuc_buf *dst,
                         const npuc_buf *src, uint32_t dims_mask,
                         const char *loc) {
  npuc_rti_check_buf(dst, "reduce dst", loc);
  npuc_rti_check_buf(src, "reduce src", loc);
  npuc_rti_check_same_dtype(src, dst, "reduce dst", loc);
  if ((unsigned)op > NPUC_RED_AND)
    npuc_rt_fail(loc, "reduce: invalid op %d", (int)op);
  if (op >= NPUC_RED_ANY && npuc_rt_is_float(dst->dtype))
    npuc_rt_fail(loc, "reduce %s does not support dtype %s", reduce_name(op),
                 npuc_rt_dtype_name(dst->dtype));
  if (dims_mask >> src->rank != 0) /* rank <= 8: the shift is defined */
    npuc_rt_fail(loc, "reduce: dims mask 0x%x names a dim past rank %d",
                 (unsigned)dims_mask, (int)src->rank);
  bool ok = dst->rank == src->rank;
  for (int32_t j = 0; ok && j < src->rank; j++)
    ok = dst->sizes[j] == ((dims_mask >> j & 1) ? 1 : src->sizes[j]);
  if (ok)
    return;
  char s[160], d[160];
  npuc_rti_format_shape(s, sizeof s, src->rank, src->sizes);
  npuc_rti_format_shape(d, sizeof d, dst->rank, dst->sizes);
  npuc_rt_fail(loc,
               "reduce: dst shape %s does not match %s reduced over mask 0x%x",
               d, s, (unsigned)dims_mask);
}

/* Integers all accumulate in 64 bits: wrapping at the end gives the same
 * low bits as wrapping at every step. */
static rt_ct accumulator_type(npuc_dtype dt) {
  if (!npuc_rt_is_float(dt))
    return RT_CT_I64;
  return dt == NPUC_DT_F64 ? RT_CT_F64 : RT_CT_F32;
}

/* ---- identities --------------------------------------------------------- */

static void int_range(npuc_dtype dt, int64_t *lo, int64_t *hi) {
  int w = npuc_rti_int_width(dt);
  if (dt == NPUC_DT_I1) { /* i1 holds 0/1 */
    *lo = 0, *hi = 1;
    return;
  }
  *hi = w == 64 ? INT64_MAX : (INT64_C(1) << (w - 1)) - 1;
  *lo = -*hi - 1;
}

static void init_accumulators(void *acc, rt_ct ct, size_t n, npuc_reduce_op op,
                              npuc_dtype dt) {
  if (ct != RT_CT_I64) {
    double v = op == NPUC_RED_PROD  ? 1.0
               : op == NPUC_RED_MAX ? -INFINITY
               : op == NPUC_RED_MIN ? INFINITY
                                    : 0.0;
    for (size_t i = 0; i < n; i++) {
      if (ct == RT_CT_F32)
        ((float *)acc)[i] = (float)v;
      else
        ((double *)acc)[i] = v;
    }
    return;
  }
  int64_t lo, hi;
  int_range(dt, &lo, &hi);
  int64_t v = op == NPUC_RED_PROD                        ? 1
              : op == NPUC_RED_MAX                       ? lo
              : op == NPUC_RED_MIN                       ? hi
              : op == NPUC_RED_ALL || op == NPUC_RED_AND ? -1
                                                         : 0;
  for (size_t i = 0; i < n; i++)
    ((int64_t *)acc)[i] = v;
}

/* ---- the walk ----------------------------------------------------------- */

static void reduce_row(void *acc, int64_t as, rt_ct ct, npuc_reduce_op op,
                       const void *x, size_t n);

/* A loop over the elements of `b` (src or dst) beside the accumulators.
 * They are dense row-major over dst's shape; a dim in `reduced` does not
 * move through them. */
static void accumulator_loop(rt_loop *l, const npuc_buf *b, const npuc_buf *dst,
                             uint32_t reduced) {
  int64_t acc_strides[NPUC_RT_MAX_RANK], stride = 1;
  for (int32_t j = b->rank - 1; j >= 0; j--) {
    acc_strides[j] = (reduced >> j & 1) ? 0 : stride;
    stride *= dst->sizes[j];
  }
  npuc_rti_loop_init(l, b->rank, b->sizes);
  npuc_rti_loop_add(l, b->offset, b->strides);
  npuc_rti_loop_add(l, 0, acc_strides);
  npuc_rti_loop_finish(l);
}

static void accumulate(void *acc, rt_ct ct, npuc_reduce_op op,
                       const npuc_buf *dst, const npuc_buf *src,
                       uint32_t dims_mask) {
  rt_loop l;
  accumulator_loop(&l, src, dst, dims_mask);
  size_t n = (size_t)rt_loop_row_len(&l), es = npuc_rti_ct_size(ct);
  int64_t ss = rt_loop_row_stride(&l, 0), as = rt_loop_row_stride(&l, 1);
  bool in_place = npuc_rti_ct_is_storage(ct, src->dtype) && ss == 1;
  _Alignas(64) unsigned char tmp[RT_CHUNK * 8];
  for (; l.rows > 0; npuc_rti_loop_next_row(&l)) {
    for (size_t start = 0; start < n; start += RT_CHUNK) {
      size_t len = n - start < RT_CHUNK ? n - start : RT_CHUNK;
      int64_t soff = l.offset[0] + (int64_t)start * ss;
      const void *x = tmp;
      if (in_place)
        x = rt_elem_ptr(src, soff);
      else
        npuc_rti_row_load(ct, tmp, src, soff, ss, len);
      char *a = (char *)acc + (l.offset[1] + (int64_t)start * as) * (int64_t)es;
      reduce_row(a, as, ct, op, x, len);
    }
  }
}

static void store_accumulators(const void *acc, rt_ct ct, const npuc_buf *dst) {
  rt_loop l;
  accumulator_loop(&l, dst, dst, 0);
  size_t n = (size_t)rt_loop_row_len(&l), es = npuc_rti_ct_size(ct);
  /* Dense accumulators: the innermost merged dim always has stride 1
   * (or 0 for a single element, which reads the same). */
  for (; l.rows > 0; npuc_rti_loop_next_row(&l))
    npuc_rti_row_store(ct, (const char *)acc + l.offset[1] * (int64_t)es, dst,
                       l.offset[0], rt_loop_row_stride(&l, 0), n);
}

/* ---- row kernels -------------------------------------------------------- */

/* acc[i * as] = COMBINE(acc[i * as], x[i]) for i < n. With as == 0 every
 * element folds into one accumulator, kept in a local in source order. */
#define REDUCE_LOOP(T, COMBINE)                                                \
  do {                                                                         \
    T *a_ = acc;                                                               \
    const T *x_ = x;                                                           \
    if (as == 0) {                                                             \
      T s_ = *a_;                                                              \
      for (size_t i = 0; i < n; i++)                                           \
        s_ = COMBINE(s_, x_[i]);                                               \
      *a_ = s_;                                                                \
    } else {                                                                   \
      for (size_t i = 0; i < n; i++)                                           \
        a_[(int64_t)i * as] = COMBINE(a_[(int64_t)i * as], x_[i]);             \
    }                                                                          \
  } while (0)

#define ADD(a, b) ((a) + (b))
#define MUL(a, b) ((a) * (b))
#define WRAP_ADD(a, b) ((int64_t)((uint64_t)(a) + (uint64_t)(b)))
#define WRAP_MUL(a, b) ((int64_t)((uint64_t)(a) * (uint64_t)(b)))
#define IMAX(a, b) ((a) > (b) ? (a) : (b))
#define IMIN(a, b) ((a) < (b) ? (a) : (b))
#define BIT_OR(a, b) ((a) | (b))
#define BIT_AND(a, b) ((a) & (b))
#define BIT_XOR(a, b) ((a) ^ (b))

/* The float rows: sum, prod, max and min of element type T (the bitwise
 * and boolean reductions take integers only; check_reduce refuses them). */
#define FLOAT_REDUCE_ROW(name, T, MAX, MIN)                                    \
  static void name(T *acc, int64_t as, npuc_reduce_op op, const T *x,          \
                   size_t n) {                                                 \
    switch (op) {                                                              \
    case NPUC_RED_SUM: REDUCE_LOOP(T, ADD); return;                            \
    case NPUC_RED_PROD: REDUCE_LOOP(T, MUL); return;                           \
    case NPUC_RED_MAX: REDUCE_LOOP(T, MAX); return;                            \
    case NPUC_RED_MIN: REDUCE_LOOP(T, MIN); return;                            \
    default: return;                                                           \
    }                                                                          \
  }

FLOAT_REDUCE_ROW(reduce_row_f32, float, rt_maxf, rt_minf)
FLOAT_REDUCE_ROW(reduce_row_f64, double, rt_max, rt_min)

static void reduce_row_i64(int64_t *acc, int64_t as, npuc_reduce_op op,
                           const int64_t *x, size_t n) {
  switch (op) {
  case NPUC_RED_SUM: REDUCE_LOOP(int64_t, WRAP_ADD); return;
  case NPUC_RED_PROD: REDUCE_LOOP(int64_t, WRAP_MUL); return;
  case NPUC_RED_MAX: REDUCE_LOOP(int64_t, IMAX); return;
  case NPUC_RED_MIN: REDUCE_LOOP(int64_t, IMIN); return;
  case NPUC_RED_ANY:
  case NPUC_RED_OR: REDUCE_LOOP(int64_t, BIT_OR); return;
  case NPUC_RED_ALL:
  case NPUC_RED_AND: REDUCE_LOOP(int64_t, BIT_AND); return;
  case NPUC_RED_XOR: REDUCE_LOOP(int64_t, BIT_XOR); return;
  }
}

static void reduce_row(void *acc, int64_t as, rt_ct ct, npuc_reduce_op op,
                       const void *x, size_t n) {
  switch (ct) {
  case RT_CT_F32: reduce_row_f32(acc, as, op, x, n); return;
  case RT_CT_F64: reduce_row_f64(acc, as, op, x, n); return;
  default: reduce_row_i64(acc, as, op, x, n); return;
  }
}
