/* libnpuc_tx8_rt: the TX8 layouts against the seed's worked example and
 * hand-derived cases; every model op in aligned (NCx/Cx) layouts against
 * the naive reference on random configurations (C <= 32 and C > 32, N > 1,
 * fp16/bf16/fp32, int8 where the op supports it); the cycle model against
 * hand-computed numbers; the error paths in a forked child. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "npuc/Tx8Runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ======================================================================
 * Random numbers (xorshift64*, fixed seed: failures reproduce)
 * ====================================================================== */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545f4914f6cdd1dull;
}

static int64_t rnd_range(int64_t lo, int64_t hi) {
  return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static double rnd_real(double lo, double hi) {
  return lo + (hi - lo) * (double)(rnd() >> 11) * 0x1p-53;
}

static const npuc_tx8_dtype kFloats[] = {NPUC_TX8_F16, NPUC_TX8_BF16,
                                         NPUC_TX8_F32};

static npuc_tx8_dtype rnd_float_dtype(void) {
  return kFloats[rnd_range(0, ARRAY_LEN(kFloats) - 1)];
}

/* Channel counts on both sides of every rule: padded rows (<= 32), one
 * padded row of up to 64, exact blocks, blocks plus a C0 tail. */
static int64_t rnd_channels(void) {
  static const int64_t edges[] = {1,  3,  4,   5,   31,  32,  33, 63,
                                  64, 65, 127, 128, 129, 131, 200};
  return rnd_range(0, 2) ? edges[rnd_range(0, ARRAY_LEN(edges) - 1)]
                         : rnd_range(1, 150);
}

/* ======================================================================
 * Tensors owned by the tests
 * ====================================================================== */

typedef struct {
  npuc_tx8_tsr t;
} owned;

static owned alloc_tsr(npuc_tx8_dims d, npuc_tx8_dtype dt,
                       npuc_tx8_layout_mode mode) {
  npuc_tx8_layout l = npuc_tx8_layout_of(d, dt, mode);
  /* Garbage, so reads of unwritten bytes show. */
  unsigned char *p = malloc((size_t)l.total_bytes + 1);
  for (int64_t i = 0; i < l.total_bytes; ++i)
    p[i] = (unsigned char)rnd();
  owned o = {npuc_tx8_tsr_make(p, d, dt, mode)};
  return o;
}

static void free_tsr(owned *o) { free(o->t.data); }

static void fill(const npuc_tx8_tsr *t, double lo, double hi) {
  npuc_tx8_dims d = t->layout.dims;
  for (int64_t n = 0; n < d.n; ++n)
    for (int64_t hw = 0; hw < d.hw; ++hw)
      for (int64_t c = 0; c < d.c; ++c)
        npuc_tx8_set(t, n, hw, c,
                     t->layout.dtype == NPUC_TX8_I8
                         ? (double)rnd_range((int64_t)lo, (int64_t)hi)
                         : rnd_real(lo, hi));
}

/* A compact tensor's copy in `mode` (via the model's DMA). */
static owned to_layout(const npuc_tx8_tsr *compact, npuc_tx8_layout_mode mode) {
  owned o = alloc_tsr(compact->layout.dims, compact->layout.dtype, mode);
  op_dma_load(&o.t, compact);
  return o;
}

static owned abs_copy(const npuc_tx8_tsr *t, bool negate) {
  owned o = alloc_tsr(t->layout.dims, t->layout.dtype, t->layout.mode);
  npuc_tx8_dims d = t->layout.dims;
  for (int64_t n = 0; n < d.n; ++n)
    for (int64_t hw = 0; hw < d.hw; ++hw)
      for (int64_t c = 0; c < d.c; ++c) {
        double v = fabs(npuc_tx8_get(t, n, hw, c));
        npuc_tx8_set(&o.t, n, hw, c, negate ? -v : v);
      }
  return o;
}

/* The aligned layout a compact tensor of these dims can take. */
static npuc_tx8_layout_mode rnd_aligned(npuc_tx8_dims d) {
  return d.n == 1 && rnd_range(0, 1) ? NPUC_TX8_CX : NPUC_TX8_NCX;
}

static npuc_tx8_layout_mode compact_mode(npuc_tx8_dims d) {
  return d.n == 1 ? NPUC_TX8_TENSOR : NPUC_TX8_NTENSOR;
}

/* ======================================================================
 * Comparing against the reference
 * ====================================================================== */

/* The distance between adjacent values of `dt` around |v|. */
static double ulp(npuc_tx8_dtype dt, double v) {
  int mant = dt == NPUC_TX8_F16 ? 10 : dt == NPUC_TX8_BF16 ? 7 : 23;
  int min_exp = dt == NPUC_TX8_F16 ? -14 : -126;
  int e;
  frexp(fabs(v), &e);
  --e; /* v = m * 2^e, 1 <= m < 2 */
  if (e < min_exp || v == 0)
    e = min_exp;
  return ldexp(1.0, e - mant);
}

typedef struct {
  const char *what;        /* the configuration, printed on failure */
  double abs_tol;          /* plus one ulp of the output dtype */
  const npuc_tx8_tsr *mag; /* per-element error scale, or NULL */
  double mag_tol;          /* tolerance per unit of mag */
  bool quiet;              /* a miss is expected: do not print it */
} tolerance;

/* Every element of `got` (any layout) within tolerance of `want`
 * (compact); prints the first miss. */
static int compare(const npuc_tx8_tsr *got, const npuc_tx8_tsr *want,
                   const tolerance *tol) {
  npuc_tx8_dims d = want->layout.dims;
  npuc_tx8_dtype dt = want->layout.dtype;
  for (int64_t n = 0; n < d.n; ++n)
    for (int64_t hw = 0; hw < d.hw; ++hw)
      for (int64_t c = 0; c < d.c; ++c) {
        double g = npuc_tx8_get(got, n, hw, c),
               w = npuc_tx8_get(want, n, hw, c);
        double allowed = tol->abs_tol;
        if (dt != NPUC_TX8_I8)
          allowed += ulp(dt, fmax(fabs(g), fabs(w)));
        if (tol->mag)
          allowed += tol->mag_tol * npuc_tx8_get(tol->mag, n, hw, c);
        if (!(fabs(g - w) <= allowed) && !(isnan(g) && isnan(w))) {
          if (!tol->quiet)
            fprintf(stderr, "%s: (%lld, %lld, %lld) got %.9g want %.9g\n",
                    tol->what, (long long)n, (long long)hw, (long long)c, g, w);
          return 1;
        }
      }
  return 0;
}

static void describe(char *buf, size_t cap, const char *op, npuc_tx8_dtype dt,
                     npuc_tx8_dims d, npuc_tx8_layout_mode mode) {
  snprintf(buf, cap, "%s %s %lldx%lldx%lld %s", op, npuc_tx8_dtype_name(dt),
           (long long)d.n, (long long)d.hw, (long long)d.c,
           npuc_tx8_layout_name(mode));
}

/* ======================================================================
 * Layouts
 * ====================================================================== */

/* The seed: fp16 2x1x2x131 in NCx: 131 = 2 x 64 + 3, C0 padded to 4;
 * batch 0 ends at bit 0x1080 (264 elements = 528 bytes); batch 1 starts
 * at bit 6144 = 0x1800 (byte 768), the next 2048-bit boundary. */
static void worked_example(void **state) {
  (void)state;
  int64_t shape[] = {2, 1, 2, 131};
  npuc_tx8_dims d = npuc_tx8_dims_of_shape(shape, 4, NPUC_TX8_NCX);
  assert_int_equal(d.n, 2);
  assert_int_equal(d.hw, 2);
  assert_int_equal(d.c, 131);
  npuc_tx8_layout l = npuc_tx8_layout_of(d, NPUC_TX8_F16, NPUC_TX8_NCX);
  assert_int_equal(l.cx, 2);
  assert_int_equal(l.c0, 3);
  assert_int_equal(l.c0_align, 4);
  assert_int_equal(l.batch_bytes * 8, 0x1080);
  assert_int_equal(l.batch_stride * 8, 0x1800);
  assert_int_equal(npuc_tx8_offset(&l, 1, 0, 0), 768);
  assert_int_equal(l.total_bytes, 1536);
  /* Block 0 holds channels 0..63 of row 0, then of row 1. */
  assert_int_equal(npuc_tx8_offset(&l, 0, 0, 63), 63 * 2);
  assert_int_equal(npuc_tx8_offset(&l, 0, 1, 0), 64 * 2);
  /* Block 1 follows both rows of block 0. */
  assert_int_equal(npuc_tx8_offset(&l, 0, 0, 64), 128 * 2);
  assert_int_equal(npuc_tx8_offset(&l, 0, 1, 127), (128 + 64 + 63) * 2);
  /* The C0 part: rows of 4 after the 2 blocks (256 elements). */
  assert_int_equal(npuc_tx8_offset(&l, 0, 0, 128), 256 * 2);
  assert_int_equal(npuc_tx8_offset(&l, 0, 1, 130), (256 + 4 + 2) * 2);
  assert_int_equal(npuc_tx8_offset(&l, 1, 1, 130), 768 + 262 * 2);
}

static void compact_layouts(void **state) {
  (void)state;
  int64_t shape[] = {2, 1, 2, 131};
  npuc_tx8_dims nd = npuc_tx8_dims_of_shape(shape, 4, NPUC_TX8_NTENSOR);
  npuc_tx8_layout l = npuc_tx8_layout_of(nd, NPUC_TX8_F16, NPUC_TX8_NTENSOR);
  assert_int_equal(l.total_bytes, 2 * 2 * 131 * 2);
  assert_int_equal(npuc_tx8_offset(&l, 1, 1, 130), (3 * 131 + 130) * 2);
  assert_int_equal(npuc_tx8_num_runs(&l), 1);
  /* Tensor and Cx fold the batch into the rows. */
  npuc_tx8_dims td = npuc_tx8_dims_of_shape(shape, 4, NPUC_TX8_TENSOR);
  assert_int_equal(td.n, 1);
  assert_int_equal(td.hw, 4);
  npuc_tx8_dims cd = npuc_tx8_dims_of_shape(shape, 4, NPUC_TX8_CX);
  assert_int_equal(cd.hw, 4);
  int64_t vec[] = {7};
  npuc_tx8_dims vd = npuc_tx8_dims_of_shape(vec, 1, NPUC_TX8_NCX);
  assert_int_equal(vd.n * vd.hw, 1);
  assert_int_equal(vd.c, 7);
}

/* Hand-derived: fp32 1x2x3x5 NCx pads C = 5 to 8: 6 rows x 8 x 4 bytes =
 * 192, one 256-byte batch; element (0, 2, 4) is row 2, channel 4. */
static void small_channels(void **state) {
  (void)state;
  npuc_tx8_dims d = {1, 6, 5};
  npuc_tx8_layout l = npuc_tx8_layout_of(d, NPUC_TX8_F32, NPUC_TX8_NCX);
  assert_int_equal(l.cx, 0);
  assert_int_equal(l.c0_align, 8);
  assert_int_equal(l.batch_bytes, 192);
  assert_int_equal(l.batch_stride, 256);
  assert_int_equal(npuc_tx8_offset(&l, 0, 2, 4), (2 * 8 + 4) * 4);
  assert_int_equal(npuc_tx8_num_runs(&l), 1);
}

static void channel_padding(void **state) {
  (void)state;
  static const struct {
    npuc_tx8_dtype dt;
    int64_t c, padded;
  } cases[] = {
      {NPUC_TX8_BF16, 1, 4},    {NPUC_TX8_F16, 4, 4},
      {NPUC_TX8_F16, 5, 8},     {NPUC_TX8_F32, 17, 32},
      {NPUC_TX8_F16, 32, 32},   {NPUC_TX8_F16, 33, 64},
      {NPUC_TX8_F32, 64, 64},   {NPUC_TX8_F32, 65, 68},
      {NPUC_TX8_F16, 131, 132}, {NPUC_TX8_F16, 168, 192},
      {NPUC_TX8_I8, 64, 64},    {NPUC_TX8_I8, 65, 128},
      {NPUC_TX8_I8, 131, 132},  {NPUC_TX8_I8, 200, 256},
      {NPUC_TX8_I8, 256, 256},
  };
  for (size_t i = 0; i < ARRAY_LEN(cases); ++i) {
    if (npuc_tx8_padded_channels(cases[i].c, cases[i].dt) != cases[i].padded)
      fprintf(stderr, "case %zu: C=%lld\n", i, (long long)cases[i].c);
    assert_int_equal(npuc_tx8_padded_channels(cases[i].c, cases[i].dt),
                     cases[i].padded);
  }
  /* int8 blocks are 128 wide: C = 131 is one block and a C0 of 3. */
  npuc_tx8_layout l =
      npuc_tx8_layout_of((npuc_tx8_dims){1, 2, 131}, NPUC_TX8_I8, NPUC_TX8_CX);
  assert_int_equal(l.cx, 1);
  assert_int_equal(l.c0_align, 4);
  assert_int_equal(l.batch_bytes, (128 * 2 + 4 * 2) * 1);
  /* An exact multiple of the block has no C0 part. */
  l = npuc_tx8_layout_of((npuc_tx8_dims){1, 3, 128}, NPUC_TX8_F16, NPUC_TX8_CX);
  assert_int_equal(npuc_tx8_num_runs(&l), 2);
  assert_int_equal(l.batch_bytes, 3 * 128 * 2);
}

/* Marks the bytes of every element; returns 1 on an overlap or an element
 * outside its batch. */
static int mark_elements(const npuc_tx8_layout *l, unsigned char *used) {
  for (int64_t n = 0; n < l->dims.n; ++n)
    for (int64_t hw = 0; hw < l->dims.hw; ++hw)
      for (int64_t c = 0; c < l->dims.c; ++c) {
        int64_t off = npuc_tx8_offset(l, n, hw, c);
        int64_t in_batch = off - n * l->batch_stride;
        if (in_batch < 0 || in_batch + l->elem_bytes > l->batch_bytes)
          return 1;
        for (int64_t b = 0; b < l->elem_bytes; ++b)
          if (used[off + b]++)
            return 1;
      }
  return 0;
}

/* Runs cover each row's channels in order, each contiguous. */
static int check_runs(const npuc_tx8_layout *l) {
  for (int64_t hw = 0; hw < l->dims.hw; ++hw) {
    int64_t next = 0;
    for (int64_t r = 0; r < npuc_tx8_num_runs(l); ++r) {
      npuc_tx8_run run = npuc_tx8_row_run(l, l->dims.n - 1, hw, r);
      if (run.c_first != next)
        return 1;
      for (int64_t i = 0; i < run.count; ++i)
        if (npuc_tx8_offset(l, l->dims.n - 1, hw, run.c_first + i) !=
            run.offset + i * l->elem_bytes)
          return 1;
      next += run.count;
    }
    if (next != l->dims.c)
      return 1;
  }
  return 0;
}

/* On random dims, every layout maps elements to distinct bytes inside
 * their batch, batches start on 2048-bit boundaries (aligned layouts) and
 * the runs agree with the offsets. */
static void offsets_are_a_placement(void **state) {
  (void)state;
  static const npuc_tx8_dtype all[] = {NPUC_TX8_F16, NPUC_TX8_BF16,
                                       NPUC_TX8_F32, NPUC_TX8_I8};
  for (int i = 0; i < 60; ++i) {
    npuc_tx8_dims d = {rnd_range(1, 3), rnd_range(1, 9), rnd_channels()};
    npuc_tx8_dtype dt = all[rnd_range(0, 3)];
    npuc_tx8_layout_mode mode = (npuc_tx8_layout_mode)rnd_range(0, 3);
    npuc_tx8_layout l = npuc_tx8_layout_of(d, dt, mode);
    unsigned char *used = calloc((size_t)l.total_bytes, 1);
    char what[96];
    describe(what, sizeof what, "placement", dt, d, mode);
    if (mark_elements(&l, used) || check_runs(&l))
      fail_msg("%s", what);
    if (npuc_tx8_is_aligned(mode))
      assert_int_equal(l.batch_stride % NPUC_TX8_BATCH_ALIGN_BYTES, 0);
    else
      assert_int_equal(l.total_bytes, d.n * d.hw * d.c * l.elem_bytes);
    free(used);
  }
}

/* ======================================================================
 * Data movement
 * ====================================================================== */

/* Loading the worked example puts each value where the offsets say and
 * zeroes the padding; storing it back restores the compact bytes. */
static void dma_worked_example(void **state) {
  (void)state;
  npuc_tx8_dims d = {2, 2, 131};
  owned src = alloc_tsr(d, NPUC_TX8_F16, NPUC_TX8_NTENSOR);
  uint16_t *s = src.t.data;
  for (int64_t i = 0; i < 2 * 2 * 131; ++i)
    s[i] = (uint16_t)(i + 1);
  owned ncx = alloc_tsr(d, NPUC_TX8_F16, NPUC_TX8_NCX);
  uint64_t cycles = op_dma_load(&ncx.t, &src.t);
  const uint16_t *a = ncx.t.data;
  /* (n, hw, c) = (1, 1, 130) is compact element 523, at 768 + 262 * 2. */
  assert_int_equal(a[(768 + 262 * 2) / 2], 524);
  assert_int_equal(a[64], 132);  /* (0, 1, 0) */
  assert_int_equal(a[128], 65);  /* (0, 0, 64) */
  assert_int_equal(a[256], 129); /* (0, 0, 128) */
  assert_int_equal(a[259], 0);   /* C0 padding of row 0 */
  assert_int_equal(a[264], 0);   /* after batch 0 */
  assert_int_equal(a[383], 0);   /* just before batch 1 */
  owned back = alloc_tsr(d, NPUC_TX8_F16, NPUC_TX8_NTENSOR);
  op_dma_store(&back.t, &ncx.t);
  assert_memory_equal(back.t.data, src.t.data, 2 * 2 * 131 * 2);
  /* 1048 DDR bytes at 200 GB/s / 16 tiles / 1 GHz = 12.5 bytes a cycle. */
  assert_int_equal(cycles, 32 + 84);
  free_tsr(&src);
  free_tsr(&ncx);
  free_tsr(&back);
}

/* Compact -> aligned -> the other aligned layout -> compact is the
 * identity, for every dtype. */
static void dma_round_trips(void **state) {
  (void)state;
  static const npuc_tx8_dtype all[] = {NPUC_TX8_F16, NPUC_TX8_BF16,
                                       NPUC_TX8_F32, NPUC_TX8_I8};
  for (int i = 0; i < 12; ++i) {
    npuc_tx8_dims d = {1, rnd_range(1, 10), rnd_channels()};
    npuc_tx8_dtype dt = all[rnd_range(0, 3)];
    owned src = alloc_tsr(d, dt, NPUC_TX8_TENSOR);
    fill(&src.t, -100, 100);
    owned cx = to_layout(&src.t, NPUC_TX8_CX);
    owned ncx = alloc_tsr(d, dt, NPUC_TX8_NCX);
    op_channel_norm(&ncx.t, &cx.t);
    owned back = alloc_tsr(d, dt, NPUC_TX8_TENSOR);
    op_dma_store(&back.t, &ncx.t);
    char what[96];
    describe(what, sizeof what, "dma", dt, d, NPUC_TX8_CX);
    if (memcmp(back.t.data, src.t.data, (size_t)src.t.layout.total_bytes))
      fail_msg("%s", what);
    free_tsr(&src);
    free_tsr(&cx);
    free_tsr(&ncx);
    free_tsr(&back);
  }
}

/* ======================================================================
 * Compute ops: model (aligned layouts) against the reference (compact)
 * ====================================================================== */

static void binary_ops(void **state) {
  (void)state;
  for (int i = 0; i < 20; ++i) {
    /* At least 2 rows, so a [C] operand is a real broadcast. */
    npuc_tx8_dims d = {rnd_range(1, 3), rnd_range(2, 8), rnd_channels()};
    bool int8 = i % 5 == 4;
    npuc_tx8_dtype dt = int8 ? NPUC_TX8_I8 : rnd_float_dtype();
    npuc_tx8_binary_op op =
        (npuc_tx8_binary_op)rnd_range(0, int8 ? 2 : NPUC_TX8_POW);
    int vec_side = (int)rnd_range(0, 2); /* 0: none, 1: a, 2: b is [C] */
    npuc_tx8_dims vd = {1, 1, d.c};
    npuc_tx8_layout_mode cm = compact_mode(d), am = rnd_aligned(d);
    owned a = alloc_tsr(vec_side == 1 ? vd : d, dt,
                        vec_side == 1 ? NPUC_TX8_TENSOR : cm);
    owned b = alloc_tsr(vec_side == 2 ? vd : d, dt,
                        vec_side == 2 ? NPUC_TX8_TENSOR : cm);
    /* pow: a positive base (a negative one is NaN in both). */
    fill(&a.t, int8 ? -20 : op == NPUC_TX8_POW ? 0.25 : -4, int8 ? 20 : 4);
    fill(&b.t, int8 ? -20 : 0.5, int8 ? 20 : 4); /* no division by ~0 */
    owned want = alloc_tsr(d, dt, cm);
    npuc_tx8_ref_binary(op, &a.t, &b.t, &want.t);
    owned aa = to_layout(&a.t, vec_side == 1 ? NPUC_TX8_CX : am);
    owned ab = to_layout(&b.t, vec_side == 2 ? NPUC_TX8_CX : am);
    owned got = alloc_tsr(d, dt, am);
    op_binary(op, &aa.t, &ab.t, &got.t);
    char what[96];
    describe(what, sizeof what, "binary", dt, d, am);
    tolerance tol = {what, 0, NULL, 0, false};
    assert_int_equal(compare(&got.t, &want.t, &tol), 0);
    owned *all[] = {&a, &b, &want, &aa, &ab, &got};
    for (size_t k = 0; k < ARRAY_LEN(all); ++k)
      free_tsr(all[k]);
  }
}

/* Inputs where each function is well conditioned in fp32. */
static void unary_range(npuc_tx8_unary_op op, double *lo, double *hi) {
  bool positive =
      op == NPUC_TX8_LOG || op == NPUC_TX8_SQRT || op == NPUC_TX8_RSQRT;
  *lo = positive ? 0.1 : -4;
  *hi = positive ? 10 : 4;
}

static void unary_ops(void **state) {
  (void)state;
  for (int i = 0; i < 14; ++i) {
    npuc_tx8_dims d = {rnd_range(1, 3), rnd_range(1, 8), rnd_channels()};
    bool int8 = i % 5 == 4;
    npuc_tx8_dtype dt = int8 ? NPUC_TX8_I8 : rnd_float_dtype();
    npuc_tx8_unary_op op =
        int8 ? (rnd_range(0, 1) ? NPUC_TX8_RELU : NPUC_TX8_ABS)
             : (npuc_tx8_unary_op)rnd_range(0, NPUC_TX8_GELU_TANH);
    double lo, hi;
    unary_range(op, &lo, &hi);
    npuc_tx8_layout_mode cm = compact_mode(d), am = rnd_aligned(d);
    owned in = alloc_tsr(d, dt, cm);
    fill(&in.t, int8 ? -128 : lo, int8 ? 127 : hi);
    owned want = alloc_tsr(d, dt, cm);
    npuc_tx8_ref_unary(op, &in.t, &want.t);
    owned ain = to_layout(&in.t, am);
    owned got = alloc_tsr(d, dt, am);
    op_unary(op, &ain.t, &got.t);
    char what[96];
    describe(what, sizeof what, "unary", dt, d, am);
    /* fp32 libm functions are within a few ulp of the exact value; gelu
     * also rounds erfc's argument x/sqrt(2), which erfc amplifies by
     * about 2 (x/sqrt 2)^2 <= 16 for |x| <= 4; gelu_tanh rounds its
     * argument u (|u| <= 5.5), which x / (1 + exp(-2u)) amplifies by 2u. */
    owned mag = abs_copy(&want.t, false);
    double ulps = op == NPUC_TX8_GELU ? 40 : op == NPUC_TX8_GELU_TANH ? 64 : 8;
    tolerance tol = {what, 0, &mag.t, ulps * 0x1p-24, false};
    assert_int_equal(compare(&got.t, &want.t, &tol), 0);
    owned *all[] = {&in, &want, &ain, &got, &mag};
    for (size_t k = 0; k < ARRAY_LEN(all); ++k)
      free_tsr(all[k]);
  }
}

typedef struct {
  npuc_tx8_gemm_param p;
  npuc_tx8_dims a, b, out;
  npuc_tx8_dtype dt, out_dt;
  bool bias;
} gemm_config;

static gemm_config rnd_gemm(bool int8) {
  gemm_config g = {
      {rnd_range(0, 1), rnd_range(0, 1), 1}, {0}, {0}, {0}, 0, 0, 0};
  int64_t batches = rnd_range(1, 3), m = rnd_range(1, 20);
  int64_t k = rnd_range(1, 80), n = rnd_channels();
  g.a = (npuc_tx8_dims){batches, g.p.transpose_a ? k : m,
                        g.p.transpose_a ? m : k};
  g.b = (npuc_tx8_dims){1, g.p.transpose_b ? n : k, g.p.transpose_b ? k : n};
  g.out = (npuc_tx8_dims){batches, m, n};
  g.dt = int8 ? NPUC_TX8_I8 : rnd_float_dtype();
  g.out_dt = int8 ? (rnd_range(0, 1) ? NPUC_TX8_I8 : NPUC_TX8_F32) : g.dt;
  g.bias = rnd_range(0, 1);
  if (rnd_range(0, 2) == 0) { /* batched: H matrices per batch, b's own */
    int64_t heads = rnd_range(1, 4), br = g.p.transpose_b ? n : k;
    g.p.transpose_a = false;
    g.p.heads = (int32_t)heads;
    g.a = (npuc_tx8_dims){batches, heads * m, k};
    /* b's matrices over its rows: batched, or all in one batch. */
    g.b = rnd_range(0, 1) ? (npuc_tx8_dims){batches, heads * br, g.b.c}
                          : (npuc_tx8_dims){1, batches * heads * br, g.b.c};
    g.out = (npuc_tx8_dims){batches, heads * m, n};
  }
  return g;
}

static void run_gemm(const gemm_config *g) {
  bool int8 = g->dt == NPUC_TX8_I8;
  owned a = alloc_tsr(g->a, g->dt, compact_mode(g->a));
  owned b = alloc_tsr(g->b, g->dt, compact_mode(g->b));
  owned bias =
      alloc_tsr((npuc_tx8_dims){1, 1, g->out.c}, g->out_dt, NPUC_TX8_TENSOR);
  fill(&a.t, int8 ? -10 : -2, int8 ? 10 : 2);
  fill(&b.t, int8 ? -10 : -2, int8 ? 10 : 2);
  fill(&bias.t, int8 ? -10 : -2, int8 ? 10 : 2);
  const npuc_tx8_tsr *bias_t = g->bias ? &bias.t : NULL;
  owned want = alloc_tsr(g->out, g->out_dt, compact_mode(g->out));
  npuc_tx8_ref_gemm(&g->p, &a.t, &b.t, bias_t, &want.t);
  /* The error scale: the same product on magnitudes, in fp32. */
  owned aa = abs_copy(&a.t, false), ab = abs_copy(&b.t, false),
        abias = abs_copy(&bias.t, false);
  owned mag = alloc_tsr(g->out, NPUC_TX8_F32, compact_mode(g->out));
  npuc_tx8_ref_gemm(&g->p, &aa.t, &ab.t, g->bias ? &abias.t : NULL, &mag.t);
  owned la = to_layout(&a.t, rnd_aligned(g->a)),
        lb = to_layout(&b.t, g->b.n > 1 ? NPUC_TX8_NCX : NPUC_TX8_CX);
  npuc_tx8_layout_mode om = rnd_aligned(g->out);
  owned got = alloc_tsr(g->out, g->out_dt, om);
  op_gemm(&g->p, &la.t, &lb.t, bias_t, &got.t);
  char what[128];
  describe(what, sizeof what, "gemm", g->dt, g->a, om);
  double k = (double)(g->p.transpose_a ? g->a.hw : g->a.c);
  if (g->p.heads > 1)
    snprintf(what + strlen(what), sizeof what - strlen(what), " heads %d",
             g->p.heads);
  tolerance tol = {what, 0, int8 ? NULL : &mag.t, 2 * k * 0x1p-24, false};
  assert_int_equal(compare(&got.t, &want.t, &tol), 0);
  owned *all[] = {&a, &b, &bias, &want, &aa, &ab, &abias, &mag, &la, &lb, &got};
  for (size_t i = 0; i < ARRAY_LEN(all); ++i)
    free_tsr(all[i]);
}

static void gemm_ops(void **state) {
  (void)state;
  for (int i = 0; i < 24; ++i) {
    gemm_config g = rnd_gemm(i % 4 == 3);
    run_gemm(&g);
  }
}

static npuc_tx8_conv_param rnd_conv_param(void) {
  for (;;) {
    npuc_tx8_conv_param p = {0};
    p.in_h = (int32_t)rnd_range(1, 7);
    p.in_w = (int32_t)rnd_range(1, 7);
    p.kernel_h = (int32_t)rnd_range(1, 3);
    p.kernel_w = (int32_t)rnd_range(1, 3);
    p.stride_h = (int32_t)rnd_range(1, 2);
    p.stride_w = (int32_t)rnd_range(1, 2);
    p.pad_top = (int32_t)rnd_range(0, 1);
    p.pad_left = (int32_t)rnd_range(0, 1);
    p.dilation_h = (int32_t)rnd_range(1, 2);
    p.dilation_w = (int32_t)rnd_range(1, 2);
    p.groups = (int32_t)rnd_range(1, 2);
    int32_t span_h = p.dilation_h * (p.kernel_h - 1) + 1;
    int32_t span_w = p.dilation_w * (p.kernel_w - 1) + 1;
    p.out_h = (p.in_h + 2 * p.pad_top - span_h) / p.stride_h + 1;
    p.out_w = (p.in_w + 2 * p.pad_left - span_w) / p.stride_w + 1;
    if (p.in_h + 2 * p.pad_top >= span_h && p.in_w + 2 * p.pad_left >= span_w)
      return p;
  }
}

/* A conv's random operands in compact layouts, the reference result
 * (`want`) and its magnitudes for the tolerance (`mag`: the reference of
 * the absolute values). */
typedef struct {
  owned in, w, bias, want, ain, aw, ab, mag;
  npuc_tx8_dims id, od;
} conv_case;

static conv_case conv_case_make(const npuc_tx8_conv_param *p, int64_t batches,
                                int64_t cin, int64_t cout, npuc_tx8_dtype dt,
                                bool with_bias) {
  conv_case c;
  int64_t ig = cin / p->groups;
  c.id = (npuc_tx8_dims){batches, (int64_t)p->in_h * p->in_w, cin};
  c.od = (npuc_tx8_dims){batches, (int64_t)p->out_h * p->out_w, cout};
  npuc_tx8_dims wd = {1, (int64_t)p->kernel_h * p->kernel_w * cout, ig};
  c.in = alloc_tsr(c.id, dt, compact_mode(c.id));
  c.w = alloc_tsr(wd, dt, NPUC_TX8_TENSOR);
  c.bias = alloc_tsr((npuc_tx8_dims){1, 1, cout}, dt, NPUC_TX8_TENSOR);
  fill(&c.in.t, -2, 2);
  fill(&c.w.t, -1, 1);
  fill(&c.bias.t, -1, 1);
  c.want = alloc_tsr(c.od, dt, compact_mode(c.od));
  npuc_tx8_ref_conv(p, &c.in.t, &c.w.t, with_bias ? &c.bias.t : NULL,
                    &c.want.t);
  c.ain = abs_copy(&c.in.t, false), c.aw = abs_copy(&c.w.t, false);
  c.ab = abs_copy(&c.bias.t, false);
  c.mag = alloc_tsr(c.od, NPUC_TX8_F32, compact_mode(c.od));
  npuc_tx8_ref_conv(p, &c.ain.t, &c.aw.t, with_bias ? &c.ab.t : NULL, &c.mag.t);
  return c;
}

static void conv_case_free(conv_case *c) {
  owned *all[] = {&c->in,  &c->w,  &c->bias, &c->want,
                  &c->ain, &c->aw, &c->ab,   &c->mag};
  for (size_t i = 0; i < ARRAY_LEN(all); ++i)
    free_tsr(all[i]);
}

/* groups 0: the random 1 or 2 of rnd_conv_param; else that many groups
 * of `ig` input channels each (ig 1: depthwise). */
static void run_conv_groups(npuc_tx8_dtype dt, bool with_bias, int32_t groups,
                            int64_t ig_given) {
  npuc_tx8_conv_param p = rnd_conv_param();
  int64_t batches = rnd_range(1, 2);
  int64_t ig = rnd_range(1, 40), og = rnd_range(1, 70);
  if (groups > 0) {
    p.groups = groups;
    ig = ig_given;
    og = rnd_range(1, 3);
  }
  conv_case c =
      conv_case_make(&p, batches, ig * p.groups, og * p.groups, dt, with_bias);
  const npuc_tx8_tsr *b = with_bias ? &c.bias.t : NULL;
  npuc_tx8_layout_mode am = rnd_aligned(c.id);
  owned lin = to_layout(&c.in.t, am), lw = to_layout(&c.w.t, NPUC_TX8_CX);
  owned got = alloc_tsr(c.od, dt, am);
  op_conv(&p, &lin.t, &lw.t, b, &got.t);
  char what[160];
  char dims[96];
  describe(dims, sizeof dims, "conv", dt, c.id, am);
  snprintf(what, sizeof what, "%s k%dx%d s%d d%d g%d", dims, p.kernel_h,
           p.kernel_w, p.stride_h, p.dilation_h, p.groups);
  double k = (double)(p.kernel_h * p.kernel_w * ig);
  tolerance tol = {what, 0, &c.mag.t, 2 * k * 0x1p-24, false};
  assert_int_equal(compare(&got.t, &c.want.t, &tol), 0);
  owned *all[] = {&lin, &lw, &got};
  for (size_t i = 0; i < ARRAY_LEN(all); ++i)
    free_tsr(all[i]);
  conv_case_free(&c);
}

static void run_conv(npuc_tx8_dtype dt, bool with_bias) {
  run_conv_groups(dt, with_bias, 0, 0);
}

/* Depthwise (groups = C, one input channel each, a channel multiplier of
 * 1 to 3) and 1 < groups < C, C on both sides of the layout rules, int8
 * too. */
static void grouped_conv_ops(void **state) {
  (void)state;
  for (int i = 0; i < 16; ++i) {
    npuc_tx8_dtype dt = i % 4 == 3 ? NPUC_TX8_I8 : rnd_float_dtype();
    if (i % 2)
      run_conv_groups(dt, i % 3 != 0, (int32_t)rnd_channels(), 1);
    else
      run_conv_groups(dt, i % 3 != 0, (int32_t)rnd_range(3, 8),
                      rnd_range(2, 20));
  }
}

static void conv_ops(void **state) {
  (void)state;
  for (int i = 0; i < 12; ++i)
    run_conv(rnd_float_dtype(), i % 3 != 0);
}

/* Channels [c0, c0 + count) of every row of `t`, compact. */
static owned channel_part(const npuc_tx8_tsr *t, int64_t c0, int64_t count) {
  npuc_tx8_dims d = t->layout.dims, pd = {d.n, d.hw, count};
  owned o = alloc_tsr(pd, t->layout.dtype, compact_mode(pd));
  for (int64_t n = 0; n < d.n; ++n)
    for (int64_t hw = 0; hw < d.hw; ++hw)
      for (int64_t c = 0; c < count; ++c)
        npuc_tx8_set(&o.t, n, hw, c, npuc_tx8_get(t, n, hw, c0 + c));
  return o;
}

/* op_conv_psum over the input channels in slices (the reduce split): the
 * partial sums in fp32, the bias and the result on the last slice, equal
 * to the reference conv. */
static void run_conv_psum(npuc_tx8_dtype dt, bool with_bias) {
  npuc_tx8_conv_param p = rnd_conv_param();
  p.groups = 1;
  int64_t batches = rnd_range(1, 2), cin = rnd_range(2, 90),
          cout = rnd_range(1, 40), ks = rnd_range(1, cin - 1);
  conv_case c = conv_case_make(&p, batches, cin, cout, dt, with_bias);
  const npuc_tx8_tsr *b = with_bias ? &c.bias.t : NULL;
  owned got = alloc_tsr(c.od, dt, rnd_aligned(c.od));
  owned psum = alloc_tsr(c.od, NPUC_TX8_F32, compact_mode(c.od));
  for (int64_t k0 = 0; k0 < cin; k0 += ks) {
    int64_t n = cin - k0 < ks ? cin - k0 : ks;
    owned xk = channel_part(&c.in.t, k0, n), wk = channel_part(&c.w.t, k0, n);
    int phase = (k0 == 0 ? NPUC_TX8_PSUM_FIRST : 0) |
                (k0 + ks >= cin ? NPUC_TX8_PSUM_LAST : 0);
    assert_true(op_conv_psum(&p, &xk.t, &wk.t, b, &psum.t, &got.t, phase) > 0);
    free_tsr(&xk);
    free_tsr(&wk);
  }
  char what[160];
  snprintf(what, sizeof what, "conv_psum cin %lld in slices of %lld",
           (long long)cin, (long long)ks);
  double k = (double)(p.kernel_h * p.kernel_w * cin);
  tolerance tol = {what, 0, &c.mag.t, 2 * k * 0x1p-24, false};
  assert_int_equal(compare(&got.t, &c.want.t, &tol), 0);
  free_tsr(&got);
  free_tsr(&psum);
  conv_case_free(&c);
}

static void conv_psum_ops(void **state) {
  (void)state;
  for (int i = 0; i < 8; ++i)
    run_conv_psum(rnd_float_dtype(), i % 2 == 0);
}

typedef struct {
  owned in, scale, shift, mean, var;
} bn_inputs;

static bn_inputs rnd_bn_inputs(npuc_tx8_dims d, npuc_tx8_dtype dt) {
  npuc_tx8_dims vd = {1, 1, d.c};
  bn_inputs x = {alloc_tsr(d, dt, compact_mode(d)),
                 alloc_tsr(vd, NPUC_TX8_F32, NPUC_TX8_TENSOR),
                 alloc_tsr(vd, NPUC_TX8_F32, NPUC_TX8_TENSOR),
                 alloc_tsr(vd, NPUC_TX8_F32, NPUC_TX8_TENSOR),
                 alloc_tsr(vd, NPUC_TX8_F32, NPUC_TX8_TENSOR)};
  fill(&x.in.t, -3, 3);
  fill(&x.scale.t, -2, 2);
  fill(&x.shift.t, -1, 1);
  fill(&x.mean.t, -1, 1);
  fill(&x.var.t, 0.05, 4);
  return x;
}

static void free_bn(bn_inputs *x) {
  owned *all[] = {&x->in, &x->scale, &x->shift, &x->mean, &x->var};
  for (size_t i = 0; i < ARRAY_LEN(all); ++i)
    free_tsr(all[i]);
}

/* The error scale: |scale| (|x| + |mean|) / sqrt(var + eps) + |shift|. */
static owned bn_magnitude(const npuc_tx8_batchnorm_param *p, bn_inputs *x) {
  owned ax = abs_copy(&x->in.t, false), as = abs_copy(&x->scale.t, false),
        ash = abs_copy(&x->shift.t, false), am = abs_copy(&x->mean.t, true);
  owned mag = alloc_tsr(x->in.t.layout.dims, NPUC_TX8_F32, x->in.t.layout.mode);
  npuc_tx8_ref_batchnorm_inference(p, &ax.t, &as.t, &ash.t, &am.t, &x->var.t,
                                   &mag.t);
  owned *all[] = {&ax, &as, &ash, &am};
  for (size_t i = 0; i < ARRAY_LEN(all); ++i)
    free_tsr(all[i]);
  return mag;
}

static void batchnorm_ops(void **state) {
  (void)state;
  npuc_tx8_batchnorm_param p = {1e-6f};
  for (int i = 0; i < 14; ++i) {
    npuc_tx8_dims d = {rnd_range(1, 3), rnd_range(1, 8), rnd_channels()};
    npuc_tx8_dtype dt = rnd_float_dtype();
    bn_inputs x = rnd_bn_inputs(d, dt);
    owned want = alloc_tsr(d, dt, compact_mode(d));
    npuc_tx8_ref_batchnorm_inference(&p, &x.in.t, &x.scale.t, &x.shift.t,
                                     &x.mean.t, &x.var.t, &want.t);
    owned mag = bn_magnitude(&p, &x);
    npuc_tx8_layout_mode am = rnd_aligned(d);
    owned lin = to_layout(&x.in.t, am);
    owned lsc = to_layout(&x.scale.t, NPUC_TX8_CX);
    owned got = alloc_tsr(d, dt, am);
    void *imm = malloc((size_t)npuc_tx8_batchnorm_imm_bytes(&lin.t));
    op_batchnorm_inference(&p, &lin.t, &lsc.t, &x.shift.t, &x.mean.t, &x.var.t,
                           imm, &got.t);
    char what[96];
    describe(what, sizeof what, "batchnorm", dt, d, am);
    tolerance tol = {what, 0, &mag.t, 16 * 0x1p-24, false};
    assert_int_equal(compare(&got.t, &want.t, &tol), 0);
    free(imm);
    owned *all[] = {&want, &mag, &lin, &lsc, &got};
    for (size_t k = 0; k < ARRAY_LEN(all); ++k)
      free_tsr(all[k]);
    free_bn(&x);
  }
}

/* int8 results saturate (the reference shares the conversion, so this is
 * checked by hand): 100 + 100, -100 - 100, 20 * 20, -128 * -1, |-128|. */
static void int8_saturates(void **state) {
  (void)state;
  npuc_tx8_dims d = {1, 1, 4};
  int8_t av[4] = {100, -100, 20, -128}, bv[4] = {100, 100, 20, -1};
  npuc_tx8_tsr a = npuc_tx8_tsr_make(av, d, NPUC_TX8_I8, NPUC_TX8_TENSOR);
  npuc_tx8_tsr b = npuc_tx8_tsr_make(bv, d, NPUC_TX8_I8, NPUC_TX8_TENSOR);
  int8_t ov[4];
  npuc_tx8_tsr o = npuc_tx8_tsr_make(ov, d, NPUC_TX8_I8, NPUC_TX8_TENSOR);
  op_binary(NPUC_TX8_ADD, &a, &b, &o);
  assert_int_equal(ov[0], 127);
  op_binary(NPUC_TX8_SUB, &a, &b, &o);
  assert_int_equal(ov[1], -128);
  op_binary(NPUC_TX8_MUL, &a, &b, &o);
  assert_int_equal(ov[2], 127);
  assert_int_equal(ov[3], 127);
  op_unary(NPUC_TX8_ABS, &a, &o);
  assert_int_equal(ov[3], 127);
  /* Storing rounds to nearest even. */
  npuc_tx8_set(&o, 0, 0, 0, 2.5);
  npuc_tx8_set(&o, 0, 0, 1, -3.5);
  assert_int_equal(ov[0], 2);
  assert_int_equal(ov[1], -4);
}

/* The comparison catches a wrong result: a model output off by one ulp
 * in one element, and one whose layout is misread, both fail it. */
static void comparison_can_fail(void **state) {
  (void)state;
  npuc_tx8_dims d = {2, 3, 70};
  owned a = alloc_tsr(d, NPUC_TX8_F16, NPUC_TX8_NTENSOR);
  fill(&a.t, -4, 4);
  owned got = to_layout(&a.t, NPUC_TX8_NCX);
  tolerance tol = {"self", 0, NULL, 0, true};
  assert_int_equal(compare(&got.t, &a.t, &tol), 0);
  double v = npuc_tx8_get(&got.t, 1, 2, 69);
  npuc_tx8_set(&got.t, 1, 2, 69, v + 3 * ulp(NPUC_TX8_F16, v));
  assert_int_equal(compare(&got.t, &a.t, &tol), 1);
  /* The same bytes read as compact are a different tensor. */
  npuc_tx8_tsr misread =
      npuc_tx8_tsr_make(got.t.data, d, NPUC_TX8_F16, NPUC_TX8_NTENSOR);
  assert_int_equal(compare(&misread, &a.t, &tol), 1);
  free_tsr(&a);
  free_tsr(&got);
}

/* ======================================================================
 * The issue-17 ops (clip, reduce, softmax, layernorm, transpose): the
 * model in a compact or an aligned layout against the reference
 * ====================================================================== */

/* A random shape of rank min_rank..4: small leading dimensions, channels
 * on both sides of the layout rules last. */
static int rnd_shape(int32_t *shape, int min_rank) {
  int rank = (int)rnd_range(min_rank, 4);
  for (int d = 0; d < rank - 1; ++d)
    shape[d] = (int32_t)rnd_range(1, 4);
  shape[rank - 1] = (int32_t)rnd_channels();
  return rank;
}

/* Batched (NTensor/NCx) or not (Tensor/Cx), compact or aligned. */
static npuc_tx8_layout_mode shaped_mode(bool batched, bool aligned) {
  if (aligned)
    return batched ? NPUC_TX8_NCX : NPUC_TX8_CX;
  return batched ? NPUC_TX8_NTENSOR : NPUC_TX8_TENSOR;
}

static owned alloc_shaped(const int32_t *shape, int rank, npuc_tx8_dtype dt,
                          npuc_tx8_layout_mode mode) {
  return alloc_tsr(npuc_tx8_dims_of_shape32(shape, rank, mode), dt, mode);
}

/* The reference's input (compact), the model's copy of it in `mode` (of
 * the same family, so the dims agree). */
typedef struct {
  owned compact, model;
  npuc_tx8_layout_mode cm, mode;
} shaped_input;

static shaped_input rnd_input(const int32_t *shape, int rank, npuc_tx8_dtype dt,
                              double lo, double hi, int i) {
  bool batched = rank >= 2 && rnd_range(0, 1), aligned = i % 2;
  shaped_input x;
  x.cm = shaped_mode(batched, false);
  x.mode = shaped_mode(batched, aligned);
  x.compact = alloc_shaped(shape, rank, dt, x.cm);
  fill(&x.compact.t, lo, hi);
  x.model = to_layout(&x.compact.t, x.mode);
  return x;
}

static void describe_shape(char *buf, size_t cap, const char *op,
                           npuc_tx8_dtype dt, const int32_t *shape, int rank,
                           npuc_tx8_layout_mode mode) {
  int n = snprintf(buf, cap, "%s %s [", op, npuc_tx8_dtype_name(dt));
  for (int d = 0; d < rank && n > 0 && (size_t)n < cap; ++d)
    n += snprintf(buf + n, cap - (size_t)n, "%s%d", d ? "x" : "", shape[d]);
  if (n > 0 && (size_t)n < cap)
    snprintf(buf + n, cap - (size_t)n, "] %s", npuc_tx8_layout_name(mode));
}

static void clip_ops(void **state) {
  (void)state;
  for (int i = 0; i < 16; ++i) {
    int32_t shape[4];
    int rank = rnd_shape(shape, 1);
    bool int8 = i % 4 == 3;
    npuc_tx8_dtype dt = int8 ? NPUC_TX8_I8 : rnd_float_dtype();
    /* relu6 half the time, else a random interval. */
    npuc_tx8_clip_param p = {0.0f, 6.0f};
    if (i % 2)
      p = (npuc_tx8_clip_param){(float)rnd_range(-5, 0),
                                (float)rnd_range(1, 5)};
    shaped_input x = rnd_input(shape, rank, dt, -10, 10, i);
    owned want = alloc_shaped(shape, rank, dt, x.cm);
    owned got = alloc_shaped(shape, rank, dt, x.mode);
    npuc_tx8_ref_clip(&p, &x.compact.t, &want.t);
    op_clip(&p, &x.model.t, &got.t);
    char what[128];
    describe_shape(what, sizeof what, "clip", dt, shape, rank, x.mode);
    tolerance tol = {what, 0, NULL, 0, false};
    assert_int_equal(compare(&got.t, &want.t, &tol), 0);
    owned *all[] = {&x.compact, &x.model, &want, &got};
    for (size_t k = 0; k < ARRAY_LEN(all); ++k)
      free_tsr(all[k]);
  }
}

static void reduce_ops(void **state) {
  (void)state;
  for (int i = 0; i < 32; ++i) {
    npuc_tx8_reduce_param p = {{0}, 0, 0};
    p.dim = rnd_shape(p.shape, 1);
    while (!p.axes) /* at least one axis, any subset */
      p.axes = (uint32_t)rnd_range(0, (1 << p.dim) - 1);
    npuc_tx8_reduce_op op = (npuc_tx8_reduce_op)rnd_range(0, 3);
    bool int8 = i % 5 == 4;
    if (int8)
      op = rnd_range(0, 1) ? NPUC_TX8_REDUCE_MAX : NPUC_TX8_REDUCE_MIN;
    npuc_tx8_dtype dt = int8 ? NPUC_TX8_I8 : rnd_float_dtype();
    int32_t os[4];
    int64_t k = 1; /* elements per output */
    for (int d = 0; d < p.dim; ++d) {
      os[d] = (p.axes >> d & 1) ? 1 : p.shape[d];
      k *= (p.axes >> d & 1) ? p.shape[d] : 1;
    }
    shaped_input x =
        rnd_input(p.shape, p.dim, dt, int8 ? -100 : -3, int8 ? 100 : 3, i);
    owned want = alloc_shaped(os, p.dim, dt, x.cm);
    owned got = alloc_shaped(os, p.dim, dt, x.mode);
    npuc_tx8_ref_reduce(op, &p, &x.compact.t, &want.t);
    op_reduce(op, &p, &x.model.t, &got.t);
    /* fp32 sums of k terms: k * 2^-24 times the sum of magnitudes. */
    owned ax = abs_copy(&x.compact.t, false);
    owned mag = alloc_shaped(os, p.dim, NPUC_TX8_F32, x.cm);
    npuc_tx8_ref_reduce(NPUC_TX8_REDUCE_SUM, &p, &ax.t, &mag.t);
    char what[128];
    describe_shape(what, sizeof what, "reduce", dt, p.shape, p.dim, x.mode);
    tolerance tol = {what, 0, &mag.t, (double)k * 0x1p-24, false};
    assert_int_equal(compare(&got.t, &want.t, &tol), 0);
    owned *all[] = {&x.compact, &x.model, &want, &got, &ax, &mag};
    for (size_t j = 0; j < ARRAY_LEN(all); ++j)
      free_tsr(all[j]);
  }
}

static void softmax_ops(void **state) {
  (void)state;
  for (int i = 0; i < 24; ++i) {
    npuc_tx8_softmax_param p = {{0}, 0, 0};
    p.dim = rnd_shape(p.shape, 1);
    p.axis = (int32_t)rnd_range(0, p.dim - 1);
    npuc_tx8_dtype dt = rnd_float_dtype();
    /* Large values: the max subtraction is what keeps exp finite. */
    double span = i % 3 == 0 ? 100 : 4;
    shaped_input x = rnd_input(p.shape, p.dim, dt, -span, span, i);
    owned want = alloc_shaped(p.shape, p.dim, dt, x.cm);
    owned got = alloc_shaped(p.shape, p.dim, dt, x.mode);
    npuc_tx8_ref_softmax(&p, &x.compact.t, &want.t);
    op_softmax(&p, &x.model.t, &got.t);
    char what[128];
    describe_shape(what, sizeof what, "softmax", dt, p.shape, p.dim, x.mode);
    /* Each output is exp(x - max) (a few ulp, times |x - max| <= 2 span
     * from rounding x - max) over an fp32 sum of len terms. */
    int64_t len = p.shape[p.axis];
    owned mag = abs_copy(&want.t, false);
    tolerance tol = {what, 0x1p-30, &mag.t,
                     (8 + 2 * span + (double)len) * 0x1p-24, false};
    assert_int_equal(compare(&got.t, &want.t, &tol), 0);
    owned *all[] = {&x.compact, &x.model, &want, &got, &mag};
    for (size_t j = 0; j < ARRAY_LEN(all); ++j)
      free_tsr(all[j]);
  }
}

static void layernorm_ops(void **state) {
  (void)state;
  for (int i = 0; i < 24; ++i) {
    int32_t shape[4];
    int rank = rnd_shape(shape, 1);
    npuc_tx8_dtype dt = rnd_float_dtype();
    npuc_tx8_layernorm_param p = {i % 2 ? 1e-5f : 1e-3f};
    int64_t c = shape[rank - 1];
    shaped_input x = rnd_input(shape, rank, dt, -3, 3, i);
    npuc_tx8_dims vd = {1, 1, c};
    owned g = alloc_tsr(vd, rnd_float_dtype(), NPUC_TX8_TENSOR);
    owned b = alloc_tsr(vd, rnd_float_dtype(), NPUC_TX8_TENSOR);
    fill(&g.t, -2, 2);
    fill(&b.t, -1, 1);
    owned want = alloc_shaped(shape, rank, dt, x.cm);
    owned got = alloc_shaped(shape, rank, dt, x.mode);
    npuc_tx8_ref_layernorm(&p, &x.compact.t, &g.t, &b.t, &want.t);
    op_layernorm(&p, &x.model.t, &g.t, &b.t, &got.t);
    char what[128];
    describe_shape(what, sizeof what, "layernorm", dt, shape, rank, x.mode);
    /* fp32 mean and variance over c terms, then a few roundings; scaled by
     * |scale| * 3 / std + |bias|, bounded here by 2 * 3 / std: allow c +
     * 16 ulps of fp32 relative to 8 (|x - mean| / std <= sqrt(c)). */
    tolerance tol = {what,
                     (8.0 * sqrt((double)c) + 8) * ((double)c + 16) * 0x1p-24,
                     NULL, 0, false};
    assert_int_equal(compare(&got.t, &want.t, &tol), 0);
    owned *all[] = {&x.compact, &x.model, &g, &b, &want, &got};
    for (size_t j = 0; j < ARRAY_LEN(all); ++j)
      free_tsr(all[j]);
  }
}

static void transpose_ops(void **state) {
  (void)state;
  static const npuc_tx8_dtype all_dt[] = {NPUC_TX8_F16, NPUC_TX8_BF16,
                                          NPUC_TX8_F32, NPUC_TX8_I8};
  for (int i = 0; i < 24; ++i) {
    npuc_tx8_transpose_param p = {{0}, 0, {0}};
    p.dim = rnd_shape(p.shape, 2);
    for (int d = 0; d < p.dim; ++d) /* a random permutation */
      p.perm[d] = d;
    for (int d = p.dim - 1; d > 0; --d) {
      int j = (int)rnd_range(0, d);
      int32_t t = p.perm[d];
      p.perm[d] = p.perm[j];
      p.perm[j] = t;
    }
    npuc_tx8_dtype dt = all_dt[rnd_range(0, 3)];
    int32_t os[4];
    for (int d = 0; d < p.dim; ++d)
      os[d] = p.shape[p.perm[d]];
    shaped_input x = rnd_input(p.shape, p.dim, dt, -50, 50, i);
    owned want = alloc_shaped(os, p.dim, dt, x.cm);
    owned got = alloc_shaped(os, p.dim, dt, x.mode);
    npuc_tx8_ref_transpose(&p, &x.compact.t, &want.t);
    op_transpose(&p, &x.model.t, &got.t);
    char what[128];
    describe_shape(what, sizeof what, "transpose", dt, p.shape, p.dim, x.mode);
    tolerance tol = {what, 0, NULL, 0, false}; /* bit exact: a move */
    assert_int_equal(compare(&got.t, &want.t, &tol), 0);
    owned *all[] = {&x.compact, &x.model, &want, &got};
    for (size_t j = 0; j < ARRAY_LEN(all); ++j)
      free_tsr(all[j]);
  }
}

/* Any dtype, a random one. */
static npuc_tx8_dtype rnd_any_dtype(void) {
  static const npuc_tx8_dtype all_dt[] = {NPUC_TX8_F16, NPUC_TX8_BF16,
                                          NPUC_TX8_F32, NPUC_TX8_I8};
  return all_dt[rnd_range(0, 3)];
}

/* The model's output in its layout against the reference's; a move is
 * bit exact. */
static void expect_same(const npuc_tx8_tsr *got, const npuc_tx8_tsr *want,
                        const char *op, const int32_t *shape, int rank,
                        npuc_tx8_layout_mode mode) {
  char what[128];
  describe_shape(what, sizeof what, op, want->layout.dtype, shape, rank, mode);
  tolerance tol = {what, 0, NULL, 0, false};
  assert_int_equal(compare(got, want, &tol), 0);
}

/* Broadcast a lower-rank input into a rank-4 output, some of its
 * dimensions 1 (repeated) and dims in increasing order. */
static void broadcast_ops(void **state) {
  (void)state;
  for (int i = 0; i < 24; ++i) {
    npuc_tx8_broadcast_param p = {{0}, 0, {0}, 0, {0}};
    p.out_dim = rnd_shape(p.out_shape, 1);
    p.dim = (int32_t)rnd_range(1, p.out_dim);
    /* A sorted random choice of p.dim output dimensions. */
    for (int32_t d = 0, k = 0; d < p.out_dim && k < p.dim; ++d)
      if (rnd_range(0, p.out_dim - d - 1) < p.dim - k) {
        p.dims[k] = d;
        p.shape[k++] = rnd_range(0, 3) ? p.out_shape[d] : 1;
      }
    npuc_tx8_dtype dt = rnd_any_dtype();
    shaped_input x = rnd_input(p.shape, p.dim, dt, -50, 50, i);
    /* The output's family follows the input's: batched from rank 2. */
    npuc_tx8_layout_mode om =
        shaped_mode(p.out_dim >= 2 && rnd_range(0, 1), i % 2);
    npuc_tx8_layout_mode ocm =
        shaped_mode(om == NPUC_TX8_NTENSOR || om == NPUC_TX8_NCX, false);
    owned want = alloc_shaped(p.out_shape, p.out_dim, dt, ocm);
    owned got = alloc_shaped(p.out_shape, p.out_dim, dt, om);
    npuc_tx8_ref_broadcast(&p, &x.compact.t, &want.t);
    op_broadcast(&p, &x.model.t, &got.t);
    expect_same(&got.t, &want.t, "broadcast", p.out_shape, p.out_dim, om);
    owned *all[] = {&x.compact, &x.model, &want, &got};
    for (size_t j = 0; j < ARRAY_LEN(all); ++j)
      free_tsr(all[j]);
  }
}

static void concat_ops(void **state) {
  (void)state;
  for (int i = 0; i < 24; ++i) {
    npuc_tx8_concat_param p = {{0}, 0, 0, 0, {0}};
    p.dim = rnd_shape(p.shape, 1);
    p.axis = (int32_t)rnd_range(0, p.dim - 1);
    p.count = (int32_t)rnd_range(1, NPUC_TX8_MAX_CONCAT);
    npuc_tx8_dtype dt = rnd_any_dtype();
    /* The inputs' lengths along the axis (each from 1 to 40). */
    shaped_input x[NPUC_TX8_MAX_CONCAT];
    const npuc_tx8_tsr *ref_in[NPUC_TX8_MAX_CONCAT], *in[NPUC_TX8_MAX_CONCAT];
    p.shape[p.axis] = 0;
    int32_t shape[4];
    memcpy(shape, p.shape, sizeof shape);
    for (int32_t k = 0; k < p.count; ++k) {
      p.lengths[k] = (int32_t)rnd_range(1, p.axis == p.dim - 1 ? 70 : 3);
      p.shape[p.axis] += p.lengths[k];
    }
    /* One layout for all: the model's (i % 2: aligned) and the batching. */
    bool batched = p.dim >= 2 && rnd_range(0, 1);
    for (int32_t k = 0; k < p.count; ++k) {
      shape[p.axis] = p.lengths[k];
      npuc_tx8_layout_mode cm = shaped_mode(batched, false);
      x[k].compact = alloc_shaped(shape, p.dim, dt, cm);
      fill(&x[k].compact.t, -50, 50);
      x[k].model = to_layout(&x[k].compact.t, shaped_mode(batched, i % 2));
      ref_in[k] = &x[k].compact.t;
      in[k] = &x[k].model.t;
    }
    npuc_tx8_layout_mode om = shaped_mode(batched, i % 2);
    owned want = alloc_shaped(p.shape, p.dim, dt, shaped_mode(batched, false));
    owned got = alloc_shaped(p.shape, p.dim, dt, om);
    npuc_tx8_ref_concat(&p, ref_in, &want.t);
    op_concat(&p, in, &got.t);
    expect_same(&got.t, &want.t, "concat", p.shape, p.dim, om);
    for (int32_t k = 0; k < p.count; ++k) {
      free_tsr(&x[k].compact);
      free_tsr(&x[k].model);
    }
    free_tsr(&want);
    free_tsr(&got);
  }
}

static void slice_ops(void **state) {
  (void)state;
  for (int i = 0; i < 24; ++i) {
    npuc_tx8_slice_param p = {{0}, 0, {0}, {0}, {0}};
    p.dim = rnd_shape(p.shape, 1);
    for (int32_t d = 0; d < p.dim; ++d) { /* room on both sides, or none */
      p.strides[d] = (int32_t)rnd_range(1, 3);
      p.offsets[d] = (int32_t)rnd_range(0, 2);
      p.in_shape[d] = p.offsets[d] + (p.shape[d] - 1) * p.strides[d] + 1 +
                      (int32_t)rnd_range(0, 2);
    }
    npuc_tx8_dtype dt = rnd_any_dtype();
    shaped_input x = rnd_input(p.in_shape, p.dim, dt, -50, 50, i);
    owned want = alloc_shaped(p.shape, p.dim, dt, x.cm);
    owned got = alloc_shaped(p.shape, p.dim, dt, x.mode);
    npuc_tx8_ref_slice(&p, &x.compact.t, &want.t);
    op_slice(&p, &x.model.t, &got.t);
    expect_same(&got.t, &want.t, "slice", p.shape, p.dim, x.mode);
    owned *all[] = {&x.compact, &x.model, &want, &got};
    for (size_t j = 0; j < ARRAY_LEN(all); ++j)
      free_tsr(all[j]);
  }
}

/* Pooling: random kernels, strides and pads (below the kernel), C on
 * both sides of the layout rules, NHWC in NTensor or NCx. */
static npuc_tx8_conv_param rnd_pool_param(void) {
  npuc_tx8_conv_param p = {0};
  p.kernel_h = (int32_t)rnd_range(1, 3);
  p.kernel_w = (int32_t)rnd_range(1, 3);
  p.stride_h = (int32_t)rnd_range(1, 3);
  p.stride_w = (int32_t)rnd_range(1, 3);
  p.pad_top = (int32_t)rnd_range(0, p.kernel_h - 1);
  p.pad_left = (int32_t)rnd_range(0, p.kernel_w - 1);
  p.in_h = (int32_t)rnd_range(p.kernel_h, 7);
  p.in_w = (int32_t)rnd_range(p.kernel_w, 7);
  int32_t pad_bottom = (int32_t)rnd_range(0, p.kernel_h - 1);
  int32_t pad_right = (int32_t)rnd_range(0, p.kernel_w - 1);
  p.out_h = (p.in_h + p.pad_top + pad_bottom - p.kernel_h) / p.stride_h + 1;
  p.out_w = (p.in_w + p.pad_left + pad_right - p.kernel_w) / p.stride_w + 1;
  p.dilation_h = p.dilation_w = p.groups = 1;
  return p;
}

static void pool_ops(void **state) {
  (void)state;
  for (int i = 0; i < 24; ++i) {
    npuc_tx8_conv_param p = rnd_pool_param();
    npuc_tx8_pool_op op = i % 2 ? NPUC_TX8_POOL_AVG : NPUC_TX8_POOL_MAX;
    bool int8 = op == NPUC_TX8_POOL_MAX && i % 4 == 2;
    npuc_tx8_dtype dt = int8 ? NPUC_TX8_I8 : rnd_float_dtype();
    int64_t c = rnd_channels(), n = rnd_range(1, 3);
    npuc_tx8_dims id = {n, (int64_t)p.in_h * p.in_w, c};
    npuc_tx8_dims od = {n, (int64_t)p.out_h * p.out_w, c};
    npuc_tx8_layout_mode am = i % 3 ? NPUC_TX8_NCX : NPUC_TX8_NTENSOR;
    owned in = alloc_tsr(id, dt, NPUC_TX8_NTENSOR);
    fill(&in.t, int8 ? -100 : -4, int8 ? 100 : 4);
    owned want = alloc_tsr(od, dt, NPUC_TX8_NTENSOR);
    npuc_tx8_ref_pool(op, &p, &in.t, &want.t);
    owned ain = to_layout(&in.t, am);
    owned got = alloc_tsr(od, dt, am);
    op_pool(op, &p, &ain.t, &got.t);
    /* An fp32 sum of up to 9 taps, then a divide: 11 ulps of fp32 of the
     * average magnitude. */
    owned abs_in = abs_copy(&in.t, false);
    owned mag = alloc_tsr(od, NPUC_TX8_F32, NPUC_TX8_NTENSOR);
    npuc_tx8_ref_pool(NPUC_TX8_POOL_AVG, &p, &abs_in.t, &mag.t);
    char what[160], dims[96];
    describe(dims, sizeof dims,
             op == NPUC_TX8_POOL_MAX ? "max_pool" : "avg_pool", dt, id, am);
    snprintf(what, sizeof what, "%s k%dx%d s%dx%d p%d,%d", dims, p.kernel_h,
             p.kernel_w, p.stride_h, p.stride_w, p.pad_top, p.pad_left);
    tolerance tol = {what, 0, &mag.t, 11 * 0x1p-24, false};
    assert_int_equal(compare(&got.t, &want.t, &tol), 0);
    owned *all[] = {&in, &want, &ain, &got, &abs_in, &mag};
    for (size_t j = 0; j < ARRAY_LEN(all); ++j)
      free_tsr(all[j]);
  }
}

/* ======================================================================
 * Cycle model (default target: 16 tiles, 1 GHz, 32 cycles per op)
 * ====================================================================== */

static void cycle_model(void **state) {
  (void)state;
  /* 4096 bytes at 12.5 bytes a cycle: 327.68 -> 328. */
  assert_int_equal(npuc_tx8_cycles_ddr(4096), 32 + 328);
  /* bf16: 128 TFLOP/s / 16 tiles / 1 GHz = 8000 FLOP a cycle; one
   * 8x16x8 instruction is 2048 FLOP. */
  assert_int_equal(npuc_tx8_cycles_ne(1, 8, 16, 8, NPUC_TX8_BF16), 32 + 1);
  /* 64x64x64: 8 x 4 x 8 = 256 instructions = 524288 FLOP. */
  assert_int_equal(npuc_tx8_cycles_ne(1, 64, 64, 64, NPUC_TX8_F16), 32 + 66);
  /* fp32 at 21 TFLOP/s: 1312.5 FLOP a cycle -> 399.45 -> 400. */
  assert_int_equal(npuc_tx8_cycles_ne(1, 64, 64, 64, NPUC_TX8_F32), 32 + 400);
  /* A ninth row costs a whole second row of tiles: 64 instructions. */
  assert_int_equal(npuc_tx8_cycles_ne(1, 9, 64, 64, NPUC_TX8_BF16), 32 + 17);
  assert_int_equal(npuc_tx8_cycles_ne(1, 8, 64, 64, NPUC_TX8_BF16), 32 + 9);
  /* CT: 1000 bytes at 256 a cycle, twice. */
  assert_int_equal(npuc_tx8_cycles_ct(1000, 2), 32 + 2 * 4);
  assert_int_equal(npuc_tx8_cycles_tdma(512), 32 + 2);
  /* A 2 GHz clock halves the bytes DDR delivers per cycle. */
  npuc_tx8_target t = NPUC_TX8_TARGET_DEFAULT;
  t.clock_ghz = 2.0;
  npuc_tx8_rt_set_target(&t);
  assert_int_equal(npuc_tx8_cycles_ddr(4096), 32 + 656);
  npuc_tx8_target dflt = NPUC_TX8_TARGET_DEFAULT;
  npuc_tx8_rt_set_target(&dflt);
  assert_int_equal(npuc_tx8_rt_target()->tiles_x, 4);
}

/* An op returns the estimate of its own shape. */
static void ops_return_their_cycles(void **state) {
  (void)state;
  npuc_tx8_dims ad = {1, 64, 64}, od = {1, 64, 64};
  owned a = alloc_tsr(ad, NPUC_TX8_F16, NPUC_TX8_CX);
  owned b = alloc_tsr(ad, NPUC_TX8_F16, NPUC_TX8_CX);
  owned out = alloc_tsr(od, NPUC_TX8_F16, NPUC_TX8_CX);
  npuc_tx8_gemm_param p = {false, false, 1};
  assert_int_equal(op_gemm(&p, &a.t, &b.t, NULL, &out.t),
                   npuc_tx8_cycles_ne(1, 64, 64, 64, NPUC_TX8_F16));
  assert_int_equal(op_unary(NPUC_TX8_RELU, &a.t, &out.t),
                   npuc_tx8_cycles_ct(out.t.layout.total_bytes, 1));
  free_tsr(&a);
  free_tsr(&b);
  free_tsr(&out);
}

/* ======================================================================
 * Errors: exit status 3 and "tx8 <op>: error: ..."
 * ====================================================================== */

typedef void (*misuse_fn)(void);

static void expect_failure(misuse_fn fn, const char *fragment) {
  int pipefd[2];
  assert_int_equal(pipe(pipefd), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    dup2(pipefd[1], 2);
    close(pipefd[0]);
    fn();
    _exit(0);
  }
  close(pipefd[1]);
  char buf[512] = {0};
  ssize_t len = 0, got;
  while (len < (ssize_t)sizeof buf - 1 &&
         (got = read(pipefd[0], buf + len, sizeof buf - 1 - (size_t)len)) > 0)
    len += got;
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 3);
  if (!strstr(buf, fragment))
    fail_msg("expected '%s' in '%s'", fragment, buf);
}

static void dma_dims_mismatch(void) {
  owned a = alloc_tsr((npuc_tx8_dims){1, 2, 3}, NPUC_TX8_F16, NPUC_TX8_TENSOR);
  owned b = alloc_tsr((npuc_tx8_dims){1, 2, 4}, NPUC_TX8_F16, NPUC_TX8_CX);
  op_dma_load(&b.t, &a.t);
}

static void gemm_k_mismatch(void) {
  owned a = alloc_tsr((npuc_tx8_dims){1, 4, 8}, NPUC_TX8_F16, NPUC_TX8_CX);
  owned b = alloc_tsr((npuc_tx8_dims){1, 9, 4}, NPUC_TX8_F16, NPUC_TX8_CX);
  owned o = alloc_tsr((npuc_tx8_dims){1, 4, 4}, NPUC_TX8_F16, NPUC_TX8_CX);
  npuc_tx8_gemm_param p = {false, false, 1};
  op_gemm(&p, &a.t, &b.t, NULL, &o.t);
}

static void unary_int8_exp(void) {
  owned a = alloc_tsr((npuc_tx8_dims){1, 2, 3}, NPUC_TX8_I8, NPUC_TX8_CX);
  op_unary(NPUC_TX8_EXP, &a.t, &a.t);
}

static void binary_layout_mismatch(void) {
  owned a = alloc_tsr((npuc_tx8_dims){2, 2, 40}, NPUC_TX8_F32, NPUC_TX8_NCX);
  owned b =
      alloc_tsr((npuc_tx8_dims){2, 2, 40}, NPUC_TX8_F32, NPUC_TX8_NTENSOR);
  op_binary(NPUC_TX8_ADD, &a.t, &b.t, &a.t);
}

static void batchnorm_bad_vector(void) {
  owned x = alloc_tsr((npuc_tx8_dims){1, 2, 40}, NPUC_TX8_F16, NPUC_TX8_CX);
  owned v = alloc_tsr((npuc_tx8_dims){1, 1, 39}, NPUC_TX8_F32, NPUC_TX8_CX);
  npuc_tx8_batchnorm_param p = {1e-6f};
  char imm[4096];
  op_batchnorm_inference(&p, &x.t, &v.t, &v.t, &v.t, &v.t, imm, &x.t);
}

static void ref_needs_compact(void) {
  owned a = alloc_tsr((npuc_tx8_dims){1, 2, 3}, NPUC_TX8_F32, NPUC_TX8_CX);
  npuc_tx8_ref_unary(NPUC_TX8_RELU, &a.t, &a.t);
}

static void errors(void **state) {
  (void)state;
  expect_failure(dma_dims_mismatch,
                 "tx8 op_dma_load: error: dst and src: dims");
  expect_failure(gemm_k_mismatch,
                 "tx8 op_gemm: error: b must be one 8-row matrix");
  expect_failure(unary_int8_exp, "i8 supports relu and abs only");
  expect_failure(binary_layout_mismatch, "layouts NTensor and NCx differ");
  expect_failure(batchnorm_bad_vector, "scale must be a [40] vector");
  expect_failure(ref_needs_compact, "must be Tensor or NTensor, not Cx");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(worked_example),
      cmocka_unit_test(compact_layouts),
      cmocka_unit_test(small_channels),
      cmocka_unit_test(channel_padding),
      cmocka_unit_test(offsets_are_a_placement),
      cmocka_unit_test(dma_worked_example),
      cmocka_unit_test(dma_round_trips),
      cmocka_unit_test(binary_ops),
      cmocka_unit_test(unary_ops),
      cmocka_unit_test(gemm_ops),
      cmocka_unit_test(conv_ops),
      cmocka_unit_test(grouped_conv_ops),
      cmocka_unit_test(conv_psum_ops),

      cmocka_unit_test(batchnorm_ops),
      cmocka_unit_test(clip_ops),
      cmocka_unit_test(reduce_ops),
      cmocka_unit_test(softmax_ops),
      cmocka_unit_test(layernorm_ops),
      cmocka_unit_test(transpose_ops),
      cmocka_unit_test(broadcast_ops),
      cmocka_unit_test(concat_ops),
      cmocka_unit_test(slice_ops),
      cmocka_unit_test(pool_ops),
      cmocka_unit_test(int8_saturates),
      cmocka_unit_test(comparison_can_fail),
      cmocka_unit_test(cycle_model),
      cmocka_unit_test(ops_return_their_cycles),
      cmocka_unit_test(errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
