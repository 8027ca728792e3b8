/* The cube unit: mmadL1 (C = A x B + C into L0C) and fixpipe (L0C out to
 * memory, with layout change, pre-ReLU, float narrowing and the dual
 * destination of the two vector sub-blocks' UB). Matrices are small next
 * to what vector ops walk, so these go element by element through the
 * checked scalar accessors. */
#include "internal.h"

/* ---- matrices ----------------------------------------------------------- */

/* How a buffer holds a logical R x C matrix: ND [R][C], DN [C][R]
 * (transposed), or the fractal zN [C1][R1][R0][C0] of L1 and L0C (element
 * (r, c) at [c / C0][r / R0][r % R0][c % C0]). */
typedef enum { LAYOUT_ND, LAYOUT_DN, LAYOUT_NZ } layout;

typedef struct {
  const npuc_buf *b;
  layout l;
  int64_t rows, cols;
} matrix;

static matrix matrix_of(const npuc_buf *b, layout l) {
  matrix m = {b, l, 0, 0};
  switch (l) {
  case LAYOUT_ND: m.rows = b->sizes[0], m.cols = b->sizes[1]; break;
  case LAYOUT_DN: m.rows = b->sizes[1], m.cols = b->sizes[0]; break;
  default:
    m.rows = b->sizes[1] * b->sizes[2], m.cols = b->sizes[0] * b->sizes[3];
  }
  return m;
}

static void matrix_index(const matrix *m, int64_t r, int64_t c, int64_t *idx) {
  switch (m->l) {
  case LAYOUT_ND: idx[0] = r, idx[1] = c; break;
  case LAYOUT_DN: idx[0] = c, idx[1] = r; break;
  default:
    idx[0] = c / m->b->sizes[3], idx[1] = r / m->b->sizes[2];
    idx[2] = r % m->b->sizes[2], idx[3] = c % m->b->sizes[3];
  }
}

/* A 2-D buffer is ND (DN when `transposed`), a 4-D one zN. */
static layout layout_of(const npuc_buf *b, bool transposed, const char *op,
                        const char *what, const char *loc) {
  if (b->rank == 4 && !transposed)
    return LAYOUT_NZ;
  if (b->rank == 2)
    return transposed ? LAYOUT_DN : LAYOUT_ND;
  npuc_rt_fail(loc, "%s: %s of rank %d%s is outside the C model", op, what,
               (int)b->rank, transposed ? ", transposed," : "");
}

static double load_f(const matrix *m, int64_t r, int64_t c, const char *loc) {
  int64_t idx[4];
  matrix_index(m, r, c, idx);
  return npuc_rt_load_f(m->b, idx, loc);
}

static int64_t load_i(const matrix *m, int64_t r, int64_t c, const char *loc) {
  int64_t idx[4];
  matrix_index(m, r, c, idx);
  return npuc_rt_load_i(m->b, idx, loc);
}

/* ---- mmadL1 ----------------------------------------------------------- */

/* One element: C[i][j] = (init ? 0 : C[i][j]) + sum over p < k of A[i][p]
 * B[p][j]; floats multiplied and added in f32 in order of p, integers in 64
 * bits, wrapped when stored. */
static void mmad_element(const matrix *c, const matrix *a, const matrix *b,
                         bool init, int64_t i, int64_t j, int64_t k,
                         const char *loc) {
  int64_t idx[4];
  matrix_index(c, i, j, idx);
  if (npuc_rt_is_float(c->b->dtype)) {
    float acc = init ? 0.0f : (float)load_f(c, i, j, loc);
    for (int64_t p = 0; p < k; ++p) {
      float prod = (float)load_f(a, i, p, loc) * (float)load_f(b, p, j, loc);
      acc = acc + prod;
    }
    npuc_rt_store_f(c->b, idx, acc, loc);
    return;
  }
  uint64_t acc = init ? 0 : (uint64_t)load_i(c, i, j, loc);
  for (int64_t p = 0; p < k; ++p)
    acc += (uint64_t)load_i(a, i, p, loc) * (uint64_t)load_i(b, p, j, loc);
  npuc_rt_store_i(c->b, idx, (int64_t)acc, loc);
}

void npuc_rt_mmad(const npuc_buf *c, const npuc_buf *a, const npuc_buf *b,
                  bool init, int64_t real_m, int64_t real_k, int64_t real_n,
                  unsigned flags, const char *loc) {
  matrix ma = matrix_of(
      a, layout_of(a, flags & NPUC_MMAD_A_TRANSPOSE, "mmadL1", "A", loc));
  matrix mb = matrix_of(
      b, layout_of(b, flags & NPUC_MMAD_B_TRANSPOSE, "mmadL1", "B", loc));
  matrix mc = matrix_of(c, layout_of(c, false, "mmadL1", "C", loc));
  npuc_rt_check_view(a, loc);
  npuc_rt_check_view(b, loc);
  npuc_rt_check_view(c, loc);
  int64_t m = mc.rows, n = mc.cols;
  if (ma.rows != m || mb.cols != n || ma.cols != mb.rows)
    npuc_rt_fail(loc,
                 "mmadL1: A is %lldx%lld, B %lldx%lld, C %lldx%lld (after "
                 "the transposes): not an M x K by K x N product into M x N",
                 (long long)ma.rows, (long long)ma.cols, (long long)mb.rows,
                 (long long)mb.cols, (long long)m, (long long)n);
  if (real_m < 0 || real_m > m || real_k < 0 || real_k > ma.cols ||
      real_n < 0 || real_n > n)
    npuc_rt_fail(loc,
                 "mmadL1: real sizes m=%lld k=%lld n=%lld outside the "
                 "%lldx%lldx%lld operands",
                 (long long)real_m, (long long)real_k, (long long)real_n,
                 (long long)m, (long long)ma.cols, (long long)n);
  bool fa = npuc_rt_is_float(a->dtype), fc = npuc_rt_is_float(c->dtype);
  if (a->dtype != b->dtype || fa != fc)
    npuc_rt_fail(loc, "mmadL1: operand dtypes %s x %s into %s",
                 npuc_rt_dtype_name(a->dtype), npuc_rt_dtype_name(b->dtype),
                 npuc_rt_dtype_name(c->dtype));
  for (int64_t i = 0; i < real_m; ++i)
    for (int64_t j = 0; j < real_n; ++j)
      mmad_element(&mc, &ma, &mb, init, i, j, real_k, loc);
}

/* ---- fixpipe ---------------------------------------------------------- */

/* Writes the dst-sized window of the source matrix at (r0, c0) into dst. */
static void fixpipe_window(const matrix *dst, const matrix *src, int64_t r0,
                           int64_t c0, bool relu, const char *loc) {
  if (r0 + dst->rows > src->rows || c0 + dst->cols > src->cols)
    npuc_rt_fail(loc,
                 "fixpipe: a %lldx%lld destination at row %lld, column %lld "
                 "of a %lldx%lld result",
                 (long long)dst->rows, (long long)dst->cols, (long long)r0,
                 (long long)c0, (long long)src->rows, (long long)src->cols);
  bool fs = npuc_rt_is_float(src->b->dtype);
  if (fs != npuc_rt_is_float(dst->b->dtype))
    npuc_rt_fail(loc, "fixpipe: %s to %s (quantization) is outside the C model",
                 npuc_rt_dtype_name(src->b->dtype),
                 npuc_rt_dtype_name(dst->b->dtype));
  npuc_rt_check_view(dst->b, loc);
  npuc_rt_check_view(src->b, loc);
  int64_t di[4];
  for (int64_t r = 0; r < dst->rows; ++r)
    for (int64_t c = 0; c < dst->cols; ++c) {
      matrix_index(dst, r, c, di);
      if (fs) {
        double v = load_f(src, r0 + r, c0 + c, loc);
        if (relu && !(v > 0.0) && v == v)
          v = 0.0;
        npuc_rt_store_f(dst->b, di, v, loc);
      } else {
        int64_t v = load_i(src, r0 + r, c0 + c, loc);
        npuc_rt_store_i(dst->b, di, relu && v < 0 ? 0 : v, loc);
      }
    }
}

void npuc_rt_fixpipe(const npuc_buf *dst, const npuc_buf *src,
                     const npuc_fixpipe_mode *mode, const char *loc) {
  matrix ms =
      matrix_of(src, layout_of(src, false, "fixpipe", "the source", loc));
  layout dl = mode->layout == NPUC_FIXPIPE_NZ2DN ? LAYOUT_DN
              : mode->layout == NPUC_FIXPIPE_NZ2ND
                  ? LAYOUT_ND
                  : layout_of(dst, false, "fixpipe", "the destination", loc);
  if (mode->layout != NPUC_FIXPIPE_NZ2NZ && dst->rank != 2)
    npuc_rt_fail(loc, "fixpipe: nz2nd/nz2dn into a destination of rank %d",
                 (int)dst->rank);
  if (mode->dual == NPUC_DUAL_NONE) {
    npuc_buf target = *dst;
    npuc_rti_sub_block_buffer(&target, mode->sub_block, loc);
    matrix md = matrix_of(&target, dl);
    fixpipe_window(&md, &ms, 0, 0, mode->relu, loc);
    return;
  }
  /* Each sub-block's UB gets half of the rows (ROW_SPLIT) or columns
   * (COLUMN_SPLIT), at the same place of its own copy of the buffer. */
  bool by_rows = mode->dual == NPUC_DUAL_ROW;
  int64_t whole = by_rows ? ms.rows : ms.cols;
  if (whole % 2 != 0)
    npuc_rt_fail(loc, "fixpipe: a %s split of an odd %lld",
                 by_rows ? "row" : "column", (long long)whole);
  for (int s = 0; s < 2; ++s) {
    npuc_buf target = *dst;
    if (!npuc_rti_sub_block_buffer(&target, s, loc))
      npuc_rt_fail(loc, "fixpipe: a dual destination must be a tightly coupled "
                        "UB buffer of a mix kernel run with its vector half");
    matrix md = matrix_of(&target, dl);
    int64_t at = s * (whole / 2);
    fixpipe_window(&md, &ms, by_rows ? at : 0, by_rows ? 0 : at, mode->relu,
                   loc);
  }
}
