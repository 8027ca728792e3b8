/* Data movement that changes layout: transpose, arange, interleave. Each
 * is one strided walk; transpose and interleave copy bits unchanged. */
#include "internal.h"

#include <stdio.h>

static void check_permutation(const int32_t *perm, int32_t rank,
                              const char *loc);

void npuc_rt_transpose(const npuc_buf *dst, const npuc_buf *src,
                       const int32_t *perm, const char *loc) {
  npuc_rti_check_buf(dst, "transpose dst", loc);
  npuc_rti_check_buf(src, "transpose src", loc);
  npuc_rti_check_same_dtype(dst, src, "transpose src", loc);
  if (dst->rank != src->rank)
    npuc_rt_fail(loc, "transpose: dst rank %d differs from src rank %d",
                 (int)dst->rank, (int)src->rank);
  check_permutation(perm, src->rank, loc);
  /* dst dim j walks src dim perm[j]. */
  int64_t strides[NPUC_RT_MAX_RANK];
  for (int32_t j = 0; j < dst->rank; j++) {
    if (dst->sizes[j] != src->sizes[perm[j]])
      npuc_rt_fail(loc,
                   "transpose: dst dim %d has size %lld, src dim %d has %lld",
                   (int)j, (long long)dst->sizes[j], (int)perm[j],
                   (long long)src->sizes[perm[j]]);
    strides[j] = src->strides[perm[j]];
  }
  npuc_rti_copy_strided(dst, src->data, src->offset, strides);
}

static void check_permutation(const int32_t *perm, int32_t rank,
                              const char *loc) {
  bool seen[NPUC_RT_MAX_RANK] = {false};
  for (int32_t j = 0; j < rank; j++) {
    if (perm[j] < 0 || perm[j] >= rank || seen[perm[j]])
      npuc_rt_fail(loc,
                   "transpose: perm[%d] = %d is not a permutation of 0..%d",
                   (int)j, (int)perm[j], (int)rank - 1);
    seen[perm[j]] = true;
  }
}

/* Values are computed as wrapping 64-bit integers, then converted to the
 * dst dtype as a default cast would (one rounding for floats). */
void npuc_rt_arange(const npuc_buf *dst, int64_t offset, const int64_t *strides,
                    int nstrides, const char *loc) {
  npuc_rti_check_buf(dst, "arange dst", loc);
  if (nstrides != dst->rank)
    npuc_rt_fail(loc, "arange: %d strides for a rank-%d dst", nstrides,
                 (int)dst->rank);
  /* The loop's second operand walks the value instead of an address. */
  rt_loop l;
  npuc_rti_loop_init(&l, dst->rank, dst->sizes);
  npuc_rti_loop_add(&l, dst->offset, dst->strides);
  npuc_rti_loop_add(&l, offset, strides);
  npuc_rti_loop_finish(&l);
  size_t n = (size_t)rt_loop_row_len(&l);
  uint64_t step = (uint64_t)rt_loop_row_stride(&l, 1);
  int64_t ds = rt_loop_row_stride(&l, 0);
  int64_t vals[RT_CHUNK];
  npuc_buf ints = {.data = vals, .rank = 1, .dtype = NPUC_DT_I64};
  ints.sizes[0] = RT_CHUNK, ints.strides[0] = 1;
  for (; l.rows > 0; npuc_rti_loop_next_row(&l)) {
    for (size_t start = 0; start < n; start += RT_CHUNK) {
      size_t len = n - start < RT_CHUNK ? n - start : RT_CHUNK;
      uint64_t v = (uint64_t)l.offset[1] + step * start;
      for (size_t i = 0; i < len; i++, v += step)
        vals[i] = (int64_t)v;
      npuc_buf out = *dst;
      out.rank = 1, out.sizes[0] = (int64_t)len, out.strides[0] = ds;
      out.offset = l.offset[0] + (int64_t)start * ds;
      ints.sizes[0] = (int64_t)len;
      npuc_rt_cast(&out, &ints, NPUC_CAST_DEFAULT, loc);
    }
  }
}

void npuc_rt_interleave(const npuc_buf *dst, const npuc_buf *srcs, int nsrc,
                        const char *loc) {
  npuc_rti_check_buf(dst, "interleave dst", loc);
  if (nsrc < 1)
    npuc_rt_fail(loc, "interleave: %d sources", nsrc);
  if (dst->rank < 1)
    npuc_rt_fail(loc, "interleave: dst is a scalar");
  int32_t last = dst->rank - 1;
  for (int c = 0; c < nsrc; c++) {
    char what[32];
    snprintf(what, sizeof what, "interleave src %d", c);
    npuc_rti_check_buf(&srcs[c], what, loc);
    npuc_rti_check_same_dtype(dst, &srcs[c], what, loc);
    if (srcs[c].rank != dst->rank)
      npuc_rt_fail(loc, "%s has rank %d, dst has %d", what, (int)srcs[c].rank,
                   (int)dst->rank);
    /* Channel c is every nsrc-th element of dst's last dim from c on. */
    npuc_buf lane = *dst;
    lane.offset += c * dst->strides[last];
    lane.sizes[last] = srcs[c].sizes[last];
    lane.strides[last] = dst->strides[last] * nsrc;
    if (lane.sizes[last] * nsrc != dst->sizes[last])
      npuc_rt_fail(loc, "%s: last dim %lld times %d sources is not dst's %lld",
                   what, (long long)lane.sizes[last], nsrc,
                   (long long)dst->sizes[last]);
    npuc_rti_check_same_shape(&lane, &srcs[c], what, loc);
    npuc_rti_copy_strided(&lane, srcs[c].data, srcs[c].offset, srcs[c].strides);
  }
}
