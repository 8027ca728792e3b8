/* The cube unit: mmadL1 (C = A x B + C into L0C) and fixpipe (L0C out to
 * memory, with layout change, pre-ReLU, float narrowing and the dual
 * destination of the two vector sub-blocks' UB). Matrices are small next
 * to what vector ops walk, so these go element by element through the
 * checked scalar accessors. */
#include "internal.h"

/* ---- mmadL1 ----------------------------------------------------------- */

static void check_matrix(const npuc_buf *b, const char *what, const char *loc) {
  if (b->rank != 2)
    npuc_rt_fail(loc,
                 "mmadL1: %s has rank %d; the C model runs the 2-D (ND) "
                 "form, not the fractal one",
                 what, (int)b->rank);
  npuc_rt_check_view(b, loc);
}

static double load_at(const npuc_buf *b, int64_t i, int64_t j,
                      const char *loc) {
  const int64_t idx[2] = {i, j};
  return npuc_rt_load_f(b, idx, loc);
}

static void mmad_float(const npuc_buf *c, const npuc_buf *a, const npuc_buf *b,
                       bool init, int64_t m, int64_t k, int64_t n,
                       unsigned flags, const char *loc) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      float acc = init ? 0.0f : (float)load_at(c, i, j, loc);
      for (int64_t p = 0; p < k; ++p) {
        float x =
            (float)((flags & NPUC_MMAD_A_TRANSPOSE) ? load_at(a, p, i, loc)
                                                    : load_at(a, i, p, loc));
        float y =
            (float)((flags & NPUC_MMAD_B_TRANSPOSE) ? load_at(b, j, p, loc)
                                                    : load_at(b, p, j, loc));
        float prod = x * y;
        acc = acc + prod;
      }
      const int64_t idx[2] = {i, j};
      npuc_rt_store_f(c, idx, acc, loc);
    }
}

static void mmad_int(const npuc_buf *c, const npuc_buf *a, const npuc_buf *b,
                     bool init, int64_t m, int64_t k, int64_t n, unsigned flags,
                     const char *loc) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const int64_t ij[2] = {i, j};
      uint64_t acc = init ? 0 : (uint64_t)npuc_rt_load_i(c, ij, loc);
      for (int64_t p = 0; p < k; ++p) {
        const int64_t ia[2] = {(flags & NPUC_MMAD_A_TRANSPOSE) ? p : i,
                               (flags & NPUC_MMAD_A_TRANSPOSE) ? i : p};
        const int64_t ib[2] = {(flags & NPUC_MMAD_B_TRANSPOSE) ? j : p,
                               (flags & NPUC_MMAD_B_TRANSPOSE) ? p : j};
        acc += (uint64_t)npuc_rt_load_i(a, ia, loc) *
               (uint64_t)npuc_rt_load_i(b, ib, loc);
      }
      npuc_rt_store_i(c, ij, (int64_t)acc, loc);
    }
}

void npuc_rt_mmad(const npuc_buf *c, const npuc_buf *a, const npuc_buf *b,
                  bool init, int64_t real_m, int64_t real_k, int64_t real_n,
                  unsigned flags, const char *loc) {
  check_matrix(a, "A", loc);
  check_matrix(b, "B", loc);
  check_matrix(c, "C", loc);
  bool at = flags & NPUC_MMAD_A_TRANSPOSE, bt = flags & NPUC_MMAD_B_TRANSPOSE;
  int64_t m = c->sizes[0], n = c->sizes[1];
  int64_t am = a->sizes[at ? 1 : 0], ak = a->sizes[at ? 0 : 1];
  int64_t bk = b->sizes[bt ? 1 : 0], bn = b->sizes[bt ? 0 : 1];
  if (am != m || bn != n || ak != bk)
    npuc_rt_fail(loc,
                 "mmadL1: A is %lldx%lld, B %lldx%lld, C %lldx%lld (after "
                 "the transposes): not an M x K by K x N product into M x N",
                 (long long)am, (long long)ak, (long long)bk, (long long)bn,
                 (long long)m, (long long)n);
  if (real_m < 0 || real_m > m || real_k < 0 || real_k > ak || real_n < 0 ||
      real_n > n)
    npuc_rt_fail(loc,
                 "mmadL1: real sizes m=%lld k=%lld n=%lld outside the "
                 "%lldx%lldx%lld operands",
                 (long long)real_m, (long long)real_k, (long long)real_n,
                 (long long)m, (long long)ak, (long long)n);
  bool fa = npuc_rt_is_float(a->dtype), fb = npuc_rt_is_float(b->dtype),
       fc = npuc_rt_is_float(c->dtype);
  if (fa != fb || fa != fc || a->dtype != b->dtype)
    npuc_rt_fail(loc, "mmadL1: operand dtypes %s x %s into %s",
                 npuc_rt_dtype_name(a->dtype), npuc_rt_dtype_name(b->dtype),
                 npuc_rt_dtype_name(c->dtype));
  if (fa)
    mmad_float(c, a, b, init, real_m, real_k, real_n, flags, loc);
  else
    mmad_int(c, a, b, init, real_m, real_k, real_n, flags, loc);
}

/* ---- fixpipe ---------------------------------------------------------- */

/* How a buffer holds the logical M x N matrix: ND [M][N], DN [N][M], or
 * the fractal NZ [N1][M1][M0][N0] of L0C. */
typedef enum { LAYOUT_ND, LAYOUT_DN, LAYOUT_NZ } layout;

static layout layout_of(const npuc_buf *b, bool transposed, const char *what,
                        const char *loc) {
  if (b->rank == 4 && !transposed)
    return LAYOUT_NZ;
  if (b->rank == 2)
    return transposed ? LAYOUT_DN : LAYOUT_ND;
  npuc_rt_fail(loc, "fixpipe: %s of rank %d is outside the C model", what,
               (int)b->rank);
}

static void extent(const npuc_buf *b, layout l, int64_t *rows, int64_t *cols) {
  switch (l) {
  case LAYOUT_ND: *rows = b->sizes[0], *cols = b->sizes[1]; break;
  case LAYOUT_DN: *rows = b->sizes[1], *cols = b->sizes[0]; break;
  default: *rows = b->sizes[1] * b->sizes[2], *cols = b->sizes[0] * b->sizes[3];
  }
}

static void index_of(const npuc_buf *b, layout l, int64_t r, int64_t c,
                     int64_t *idx) {
  switch (l) {
  case LAYOUT_ND: idx[0] = r, idx[1] = c; break;
  case LAYOUT_DN: idx[0] = c, idx[1] = r; break;
  default:
    idx[0] = c / b->sizes[3], idx[1] = r / b->sizes[2];
    idx[2] = r % b->sizes[2], idx[3] = c % b->sizes[3];
  }
}

/* Writes the dst-sized window of the source matrix at (r0, c0) into dst. */
static void fixpipe_window(const npuc_buf *dst, layout dl, const npuc_buf *src,
                           layout sl, int64_t r0, int64_t c0, bool relu,
                           const char *loc) {
  int64_t rows, cols, src_rows, src_cols;
  extent(dst, dl, &rows, &cols);
  extent(src, sl, &src_rows, &src_cols);
  if (r0 + rows > src_rows || c0 + cols > src_cols)
    npuc_rt_fail(loc,
                 "fixpipe: a %lldx%lld destination at row %lld, column %lld "
                 "of a %lldx%lld result",
                 (long long)rows, (long long)cols, (long long)r0, (long long)c0,
                 (long long)src_rows, (long long)src_cols);
  bool fs = npuc_rt_is_float(src->dtype), fd = npuc_rt_is_float(dst->dtype);
  if (fs != fd)
    npuc_rt_fail(loc, "fixpipe: %s to %s (quantization) is outside the C model",
                 npuc_rt_dtype_name(src->dtype),
                 npuc_rt_dtype_name(dst->dtype));
  npuc_rt_check_view(dst, loc);
  npuc_rt_check_view(src, loc);
  int64_t si[4], di[4];
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      index_of(src, sl, r0 + r, c0 + c, si);
      index_of(dst, dl, r, c, di);
      if (fs) {
        double v = npuc_rt_load_f(src, si, loc);
        if (relu && !(v > 0.0) && v == v)
          v = 0.0;
        npuc_rt_store_f(dst, di, v, loc);
      } else {
        int64_t v = npuc_rt_load_i(src, si, loc);
        npuc_rt_store_i(dst, di, relu && v < 0 ? 0 : v, loc);
      }
    }
}

void npuc_rt_fixpipe(const npuc_buf *dst, const npuc_buf *src,
                     const npuc_fixpipe_mode *mode, const char *loc) {
  layout sl = layout_of(src, false, "the source", loc);
  layout dl = mode->layout == NPUC_FIXPIPE_NZ2DN ? LAYOUT_DN
              : mode->layout == NPUC_FIXPIPE_NZ2ND
                  ? LAYOUT_ND
                  : layout_of(dst, false, "the destination", loc);
  if (mode->layout != NPUC_FIXPIPE_NZ2NZ && dst->rank != 2)
    npuc_rt_fail(loc, "fixpipe: nz2nd/nz2dn into a destination of rank %d",
                 (int)dst->rank);
  if (mode->dual == NPUC_DUAL_NONE) {
    npuc_buf target = *dst;
    npuc_rti_sub_block_buffer(&target, mode->sub_block, loc);
    fixpipe_window(&target, dl, src, sl, 0, 0, mode->relu, loc);
    return;
  }
  /* Each sub-block's UB gets half of the rows (ROW_SPLIT) or columns
   * (COLUMN_SPLIT), at the same place of its own copy of the buffer. */
  int64_t rows, cols;
  extent(src, sl, &rows, &cols);
  bool by_rows = mode->dual == NPUC_DUAL_ROW;
  int64_t whole = by_rows ? rows : cols;
  if (whole % 2 != 0)
    npuc_rt_fail(loc, "fixpipe: a %s split of an odd %lld",
                 by_rows ? "row" : "column", (long long)whole);
  for (int s = 0; s < 2; ++s) {
    npuc_buf target = *dst;
    if (!npuc_rti_sub_block_buffer(&target, s, loc))
      npuc_rt_fail(loc, "fixpipe: a dual destination must be a tightly coupled "
                        "UB buffer of a mix kernel run with its vector half");
    int64_t at = s * (whole / 2);
    fixpipe_window(&target, dl, src, sl, by_rows ? at : 0, by_rows ? 0 : at,
                   mode->relu, loc);
  }
}
