/* The slices generated TX8 code loops over (libnpuc_tx8_rt, slice.c): tile
 * regions cover the output exactly once, G_SHAPE hands out every temporal
 * slice of a region once, windows clip at the edges and report the
 * padding, and the slice DMA moves exactly a region between any two
 * layouts. Plus the compiler's slice rules (lib/Target/TX8/Slice.c): which
 * dimensions shard and split, and the windows of gemm and conv. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "npuc/TX8.h"
#include "npuc/Tx8Runtime.h"

#include <stdlib.h>
#include <string.h>

/* Every element of a 3-D output belongs to exactly one tile's region, for
 * even and uneven splits and more tiles than parts. */
static void tile_regions_partition(void **state) {
  (void)state;
  const int32_t shape[3] = {5, 7, 3};
  const int32_t splits[][3] = {
      {1, 1, 1}, {5, 1, 1}, {2, 3, 1}, {1, 4, 3}, {4, 2, 2}};
  for (size_t s = 0; s < sizeof splits / sizeof splits[0]; ++s) {
    int hits[5][7][3];
    memset(hits, 0, sizeof hits);
    for (int32_t tile = 0; tile < 20; ++tile) {
      int32_t start[3], end[3];
      if (!npuc_tx8_tile_region(shape, splits[s], 3, tile, start, end))
        continue;
      for (int a = start[0]; a < end[0]; ++a)
        for (int b = start[1]; b < end[1]; ++b)
          for (int c = start[2]; c < end[2]; ++c)
            hits[a][b][c]++;
    }
    for (int a = 0; a < 5; ++a)
      for (int b = 0; b < 7; ++b)
        for (int c = 0; c < 3; ++c)
          assert_int_equal(hits[a][b][c], 1);
  }
}

/* Walks tile `tile`'s region of a 2-D `shape` in slices of at most
 * `slice` (balanced when asked) into got[i] = {start 0, start 1, length
 * 0, length 1}, at most `cap`; returns the slices handed out. */
static int walk(const int32_t *shape, const int32_t *sharding,
                const int32_t *slice, int32_t tile, bool balanced,
                int32_t (*got)[4], int cap) {
  G_SHAPE g;
  L_SHAPE l;
  npuc_tx8_gshape_init(&g, shape, sharding, 2, tile);
  if (balanced)
    npuc_tx8_gshape_balance(&g, slice);
  int n = 0;
  while (npuc_tx8_gshape_next(&g, slice, &l)) {
    assert_true(n < cap);
    assert_int_equal(l.shape_slice[0], slice[0]);
    assert_int_equal(l.shape_whole[0], shape[0]);
    got[n][0] = l.shape_start[0], got[n][1] = l.shape_start[1];
    got[n][2] = l.shape_real[0], got[n][3] = l.shape_real[1];
    ++n;
  }
  return n;
}

static void expect_walk(const int32_t (*want)[4], int n,
                        const int32_t (*got)[4], int got_n) {
  assert_int_equal(got_n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 4; ++j)
      assert_int_equal(got[i][j], want[i][j]);
}

/* G_SHAPE walks the region row-major in slices; the last ones are short. */
static void gshape_slices(void **state) {
  (void)state;
  const int32_t shape[2] = {10, 6}, sharding[2] = {2, 1}, slice[2] = {3, 4};
  const int32_t want[4][4] = {
      {5, 0, 3, 4}, {5, 4, 3, 2}, {8, 0, 2, 4}, {8, 4, 2, 2}};
  int32_t got[16][4];
  int n = walk(shape, sharding, slice, 1, false, got, 16); /* rows 5..9 */
  expect_walk(want, 4, got, n);
  assert_int_equal(walk(shape, sharding, slice, 2, false, got, 16), 0);
}

/* Balanced: 28 rows in slices of at most 6 are 5, 5, 6, 6, 6 (not 6, 6,
 * 6, 6, 4), 7 columns in slices of at most 5 are 3, 4 (not 5, 2); a part
 * the slice divides, or overruns by one, walks as before. */
static void gshape_balanced(void **state) {
  (void)state;
  const int32_t shape[2] = {56, 7}, sharding[2] = {2, 1}, slice[2] = {6, 5};
  const int32_t rows[5][2] = {{28, 5}, {33, 5}, {38, 6}, {44, 6}, {50, 6}};
  const int32_t cols[2][2] = {{0, 3}, {3, 4}};
  int32_t want[10][4], got[16][4];
  for (int i = 0; i < 10; ++i) {
    want[i][0] = rows[i / 2][0], want[i][2] = rows[i / 2][1];
    want[i][1] = cols[i % 2][0], want[i][3] = cols[i % 2][1];
  }
  int n = walk(shape, sharding, slice, 1, true, got, 16); /* rows 28..55 */
  expect_walk(want, 10, got, n);
  /* Rows 0..27 in 7s (divides), 7 columns in 4s (overruns by one): 4, 3. */
  const int32_t even[2] = {7, 4};
  n = walk(shape, sharding, even, 0, true, got, 16);
  assert_int_equal(n, 8);
  for (int i = 0; i < n; ++i) {
    assert_int_equal(got[i][2], 7);
    assert_int_equal(got[i][3], i % 2 ? 3 : 4);
  }
}

/* A 3x3 convolution row window, stride 2, pad 1, on 9 input rows: the
 * first slice is clipped at the top (one row of padding), the last at the
 * bottom. */
static void conv_window_clips(void **state) {
  (void)state;
  const npuc_tx8_window w[1] = {{0, 2, -1, 3}};
  const int32_t whole[1] = {9};
  L_SHAPE out = {0}, in;
  int32_t clipped[1];
  out.dim = 1;
  out.shape_whole[0] = 5;
  out.shape_start[0] = 0;
  out.shape_slice[0] = out.shape_real[0] = 2; /* output rows 0, 1 */
  npuc_tx8_lshape_window(&out, w, whole, 1, &in, clipped);
  assert_int_equal(in.shape_start[0], 0);
  assert_int_equal(in.shape_real[0], 4); /* rows -1..3, clipped to 0..3 */
  assert_int_equal(clipped[0], 1);
  out.shape_start[0] = 4;
  out.shape_real[0] = 1; /* output row 4: input rows 7..9 */
  npuc_tx8_lshape_window(&out, w, whole, 1, &in, clipped);
  assert_int_equal(in.shape_start[0], 7);
  assert_int_equal(in.shape_real[0], 2);
  assert_int_equal(clipped[0], 0);
  int32_t max[1];
  const int32_t out_slice[1] = {2};
  npuc_tx8_window_max(w, whole, 1, out_slice, max);
  assert_int_equal(max[0], 5);
}

/* A region of a compact 2x3x70 f16 tensor into an NCx slice (70 channels:
 * a full block of 64 and 6 more) and back into a Cx whole tensor. */
static void slice_dma_between_layouts(void **state) {
  (void)state;
  const int32_t shape[3] = {2, 3, 70};
  uint16_t src[2 * 3 * 70];
  for (int i = 0; i < 2 * 3 * 70; ++i)
    src[i] = (uint16_t)i;
  L_SHAPE l = {0};
  l.dim = 3;
  const int32_t start[3] = {1, 1, 3}, size[3] = {1, 2, 66};
  for (int d = 0; d < 3; ++d) {
    l.shape_whole[d] = shape[d];
    l.shape_start[d] = start[d];
    l.shape_slice[d] = l.shape_real[d] = size[d];
  }
  TSR whole =
      npuc_tx8_tsr_of_shape(src, shape, 3, NPUC_TX8_F16, NPUC_TX8_TENSOR);
  char *spm = calloc(4096, 1);
  TSR part = npuc_tx8_tsr_of_lshape(spm, &l, NPUC_TX8_F16, NPUC_TX8_NCX);
  op_dma_load_slice(&part, &whole, &l);
  /* Tensor folds N into the rows: element (1, 1 + h, 3 + c) is row 4 + h. */
  for (int h = 0; h < 2; ++h)
    for (int c = 0; c < 66; ++c)
      assert_true(npuc_tx8_get(&part, 0, h, c) ==
                  npuc_tx8_get(&whole, 0, 4 + h, 3 + c));
  /* Store into a zeroed Cx copy: only the region changes. */
  char *dst = calloc(8192, 1);
  TSR back = npuc_tx8_tsr_of_shape(dst, shape, 3, NPUC_TX8_F16, NPUC_TX8_CX);
  op_dma_store_slice(&back, &part, &l);
  for (int n = 0; n < 2; ++n)
    for (int h = 0; h < 3; ++h)
      for (int c = 0; c < 70; ++c) {
        bool inside = n == 1 && h >= 1 && c >= 3 && c < 69;
        double want = inside ? npuc_tx8_get(&whole, 0, n * 3 + h, c) : 0;
        assert_true(npuc_tx8_get(&back, 0, n * 3 + h, c) == want);
      }
  free(spm);
  free(dst);
}

static L_SHAPE rows_slice(const int32_t *shape, int32_t row, int32_t rows,
                          int32_t col, int32_t cols) {
  L_SHAPE l = {0};
  l.dim = 3;
  const int32_t start[3] = {row, col, 0}, size[3] = {rows, cols, shape[2]};
  for (int d = 0; d < 3; ++d) {
    l.shape_whole[d] = shape[d];
    l.shape_start[d] = start[d];
    l.shape_slice[d] = l.shape_real[d] = size[d];
  }
  return l;
}

/* op_dma_load_slice_after: rows 4..9 of a 12x5x70 f16 tensor after rows
 * 2..7 (NCx in SPM) keep rows 4..7 and read rows 8..9, with the bytes of
 * a plain load, in fewer RDMA cycles (TDMA copies the rest); a slice that
 * also moves along another dimension, or shares no rows, is a plain
 * load. */
static void slice_dma_keeps_rows(void **state) {
  (void)state;
  const int32_t shape[3] = {12, 5, 70};
  uint16_t src[12 * 5 * 70];
  for (int i = 0; i < 12 * 5 * 70; ++i)
    src[i] = (uint16_t)(i * 7 + 1);
  TSR whole =
      npuc_tx8_tsr_of_shape(src, shape, 3, NPUC_TX8_F16, NPUC_TX8_TENSOR);
  char *spm = calloc(3 * 8192, 1);
  L_SHAPE a = rows_slice(shape, 2, 6, 0, 5), b = rows_slice(shape, 4, 6, 0, 5);
  TSR ta = npuc_tx8_tsr_of_lshape(spm, &a, NPUC_TX8_F16, NPUC_TX8_NCX);
  TSR tb = npuc_tx8_tsr_of_lshape(spm + 8192, &b, NPUC_TX8_F16, NPUC_TX8_NCX);
  TSR plain =
      npuc_tx8_tsr_of_lshape(spm + 16384, &b, NPUC_TX8_F16, NPUC_TX8_NCX);
  op_dma_load_slice(&ta, &whole, &a);
  npuc_tx8_counters_reset();
  uint64_t full = op_dma_load_slice(&plain, &whole, &b);
  uint64_t rdma_full = npuc_tx8_counters_get().busy[NPUC_TX8_BUSY_RDMA];
  npuc_tx8_counters_reset();
  uint64_t kept = op_dma_load_slice_after(&tb, &whole, &b, &ta, &a);
  uint64_t rdma_kept = npuc_tx8_counters_get().busy[NPUC_TX8_BUSY_RDMA];
  assert_memory_equal(tb.data, plain.data, (size_t)plain.layout.total_bytes);
  assert_true(rdma_kept < rdma_full);
  assert_true(kept > 0 && full > 0);
  assert_true(npuc_tx8_counters_get().busy[NPUC_TX8_BUSY_TDMA] > 0);
  /* Another column range too, or no shared row: a plain load. */
  L_SHAPE c = rows_slice(shape, 4, 6, 1, 4), d = rows_slice(shape, 8, 4, 0, 5);
  TSR tc = npuc_tx8_tsr_of_lshape(spm + 8192, &c, NPUC_TX8_F16, NPUC_TX8_NCX);
  npuc_tx8_counters_reset();
  op_dma_load_slice_after(&tc, &whole, &c, &ta, &a);
  assert_int_equal(npuc_tx8_counters_get().busy[NPUC_TX8_BUSY_TDMA], 0);
  TSR td = npuc_tx8_tsr_of_lshape(spm + 8192, &d, NPUC_TX8_F16, NPUC_TX8_NCX);
  npuc_tx8_counters_reset();
  op_dma_load_slice_after(&td, &whole, &d, &ta, &a);
  assert_int_equal(npuc_tx8_counters_get().busy[NPUC_TX8_BUSY_TDMA], 0);
  for (int h = 0; h < 4; ++h)
    for (int w = 0; w < 5; ++w)
      for (int ch = 0; ch < 70; ++ch)
        assert_true(npuc_tx8_get(&td, h, w, ch) ==
                    npuc_tx8_get(&whole, 0, (8 + h) * 5 + w, ch));
  free(spm);
}

/* ---- the compiler's slice rules
 * ------------------------------------------------ */

static npuc_tx8_shape shape_of(int rank, const int64_t *dims) {
  npuc_tx8_shape s = {rank, {0}};
  memcpy(s.dims, dims, (size_t)rank * sizeof *dims);
  return s;
}

/* Batchnorm inference is per channel: any dimension shards across tiles
 * (a [C] vector follows C); C stays whole in time (the runtime's fp32
 * scratch covers a slice's channels). */
/* npuc_tx8_tl_kept_rows: the rows op_copy_kept_rows writes and those
 * op_dma_load_slice_rest writes, per channel run (a 64-channel block and
 * the C0 part of a 70-channel Cx tensor), never overlap and cover the
 * buffer; on a 64-channel one each op writes its values inside its own
 * ranges only (the C model's DMA zeroes an aligned buffer's padding by
 * clearing it whole first, and the copy is called after it).
 * Without kept rows, the whole buffer. */
static bool inside(const npuc_tx8_tl_range *r, int n, const char *at) {
  for (int i = 0; i < n; ++i)
    if (at >= (const char *)r[i].at && at < (const char *)r[i].at + r[i].bytes)
      return true;
  return false;
}

static void kept_rows_ranges(void **state) {
  (void)state;
  for (int32_t c = 64; c <= 70; c += 6) {
    const int32_t shape[3] = {12, 5, c};
    uint16_t *src = calloc(12 * 5 * 70, sizeof *src);
    for (int i = 0; i < 12 * 5 * c; ++i)
      src[i] = (uint16_t)(i * 7 + 1);
    TSR whole =
        npuc_tx8_tsr_of_shape(src, shape, 3, NPUC_TX8_F16, NPUC_TX8_TENSOR);
    char *spm = calloc(3 * 8192, 1);
    L_SHAPE a = rows_slice(shape, 2, 6, 0, 5),
            b = rows_slice(shape, 4, 6, 0, 5);
    TSR ta = npuc_tx8_tsr_of_lshape(spm, &a, NPUC_TX8_F16, NPUC_TX8_CX);
    TSR tb = npuc_tx8_tsr_of_lshape(spm + 8192, &b, NPUC_TX8_F16, NPUC_TX8_CX);
    TSR tc = npuc_tx8_tsr_of_lshape(spm + 16384, &b, NPUC_TX8_F16, NPUC_TX8_CX);
    op_dma_load_slice(&ta, &whole, &a);
    npuc_tx8_tl_range kept[NPUC_TX8_TL_MAX_RANGES],
        rest[NPUC_TX8_TL_MAX_RANGES];
    int nk = npuc_tx8_tl_kept_rows(&tb, &b, &ta, &a, true, kept);
    int nr = npuc_tx8_tl_kept_rows(&tb, &b, &ta, &a, false, rest);
    assert_int_equal(nk, c == 64 ? 1 : 2);
    assert_int_equal(nr, c == 64 ? 1 : 2);
    assert_ptr_equal(kept[0].at, tb.data);
    assert_int_equal(kept[0].bytes, 4 * 5 * 64 * 2); /* rows 4..7 of block 0 */
    const char *base = tb.data;
    for (int64_t i = 0; i < tb.layout.total_bytes; ++i)
      assert_true(inside(kept, nk, base + i) != inside(rest, nr, base + i));
    if (c == 64) { /* the bytes each op writes */
      memset(tb.data, 0xab, (size_t)tb.layout.total_bytes);
      memset(tc.data, 0xab, (size_t)tc.layout.total_bytes);
      op_copy_kept_rows(&tb, &b, &ta, &a);
      op_dma_load_slice_rest(&tc, &whole, &b, &ta, &a);
      for (int64_t i = 0; i < tb.layout.total_bytes; ++i) {
        if (((unsigned char *)tb.data)[i] != 0xab)
          assert_true(inside(kept, nk, base + i));
        unsigned char v = ((unsigned char *)tc.data)[i];
        if (v != 0xab && v != 0) /* the DMA zeroes the padding first */
          assert_true(inside(rest, nr, base + i));
      }
    }
    L_SHAPE d = rows_slice(shape, 8, 4, 0, 5); /* shares no row with a */
    TSR td = npuc_tx8_tsr_of_lshape(spm + 8192, &d, NPUC_TX8_F16, NPUC_TX8_CX);
    assert_int_equal(npuc_tx8_tl_kept_rows(&td, &d, &ta, &a, true, kept), 1);
    assert_ptr_equal(kept[0].at, td.data);
    assert_int_equal(kept[0].bytes, td.layout.total_bytes);
    free(spm);
    free(src);
  }
}

static void batchnorm_shards_any_axis(void **state) {
  (void)state;
  npuc_tx8_slice_op op = {.kind = NPUC_TX8_KIND_BATCHNORM, .num_operands = 5};
  const int64_t x[4] = {2, 4, 4, 40}, c[1] = {40};
  op.operands[0] = op.result = shape_of(4, x);
  for (int i = 1; i < 5; ++i)
    op.operands[i] = shape_of(1, c);
  char err[128];
  assert_true(npuc_tx8_slice_check(&op, err, sizeof err));
  assert_int_equal(npuc_tx8_shard_axes(&op), 0xfu);
  assert_int_equal(npuc_tx8_split_axes(&op), 0x7u);
  npuc_tx8_window w[1];
  npuc_tx8_operand_windows(&op, 2, w);
  assert_int_equal(w[0].out_dim, 3);
  op.operands[3] = shape_of(4, x); /* mean must be a [C] vector */
  assert_false(npuc_tx8_slice_check(&op, err, sizeof err));
}

static void gemm_and_conv_windows(void **state) {
  (void)state;
  /* gemm [3, 5, 7] x [9, 7]^T: a's K and b's K are read whole. */
  npuc_tx8_slice_op g = {
      .kind = NPUC_TX8_KIND_GEMM, .num_operands = 2, .transpose_b = true};
  const int64_t a[3] = {3, 5, 7}, b[2] = {9, 7}, o[3] = {3, 5, 9};
  g.operands[0] = shape_of(3, a);
  g.operands[1] = shape_of(2, b);
  g.result = shape_of(3, o);
  char err[128];
  assert_true(npuc_tx8_slice_check(&g, err, sizeof err));
  npuc_tx8_window w[4];
  npuc_tx8_operand_windows(&g, 0, w);
  assert_int_equal(w[0].out_dim, 0);
  assert_int_equal(w[1].out_dim, 1);
  assert_int_equal(w[2].out_dim, -1);
  npuc_tx8_operand_windows(&g, 1, w);
  assert_int_equal(w[0].out_dim, 2); /* N x K: rows follow the output's N */
  assert_int_equal(w[1].out_dim, -1);
  assert_int_equal(npuc_tx8_split_axes(&g), 0x7u); /* N too: b in parts */

  /* conv 3x3, stride 2, pads 1: the row window. */
  npuc_tx8_slice_op c = {.kind = NPUC_TX8_KIND_CONV,
                         .num_operands = 2,
                         .strides = {2, 1},
                         .pads = {1, 1, 0, 0},
                         .dilations = {1, 1},
                         .groups = 1};
  const int64_t in[4] = {1, 9, 4, 2}, wt[4] = {3, 1, 6, 2},
                out[4] = {1, 5, 4, 6};
  c.operands[0] = shape_of(4, in);
  c.operands[1] = shape_of(4, wt);
  c.result = shape_of(4, out);
  assert_true(npuc_tx8_slice_check(&c, err, sizeof err));
  npuc_tx8_operand_windows(&c, 0, w);
  assert_int_equal(w[1].out_dim, 1);
  assert_int_equal(w[1].scale, 2);
  assert_int_equal(w[1].offset, -1);
  assert_int_equal(w[1].extent, 3);
  assert_int_equal(w[3].out_dim, -1);
  /* N, H, W and the output channels; the HWOI weight's O rows follow
   * them, its taps and input channels stay whole. */
  assert_int_equal(npuc_tx8_shard_axes(&c), 0xfu);
  assert_int_equal(npuc_tx8_split_axes(&c), 0xbu); /* N, H, C */
  npuc_tx8_operand_windows(&c, 1, w);
  assert_int_equal(w[0].out_dim, -1);
  assert_int_equal(w[1].out_dim, -1);
  assert_int_equal(w[2].out_dim, 3);
  assert_int_equal(w[3].out_dim, -1);
  assert_false(npuc_tx8_conv_is_depthwise(&c));
  c.result.dims[1] = 4; /* not what the shape rule gives */
  assert_false(npuc_tx8_slice_check(&c, err, sizeof err));
}

/* A depthwise conv's slice of channels reads its own input channels; a
 * grouped conv of two groups keeps C whole (each output channel reads
 * its group's inputs). */
static void conv_channel_split(void **state) {
  (void)state;
  npuc_tx8_slice_op c = {.kind = NPUC_TX8_KIND_CONV,
                         .num_operands = 3,
                         .strides = {1, 1},
                         .pads = {1, 1, 1, 1},
                         .dilations = {1, 1},
                         .groups = 8};
  const int64_t in[4] = {1, 6, 6, 8}, wt[4] = {3, 3, 8, 1}, b[1] = {8};
  c.operands[0] = c.result = shape_of(4, in);
  c.operands[1] = shape_of(4, wt);
  c.operands[2] = shape_of(1, b);
  char err[128];
  assert_true(npuc_tx8_slice_check(&c, err, sizeof err));
  assert_true(npuc_tx8_conv_is_depthwise(&c));
  assert_int_equal(npuc_tx8_shard_axes(&c), 0xfu);
  npuc_tx8_window w[4];
  npuc_tx8_operand_windows(&c, 0, w);
  assert_int_equal(w[3].out_dim, 3);
  npuc_tx8_operand_windows(&c, 2, w);
  assert_int_equal(w[0].out_dim, 3);
  c.groups = 2;
  c.operands[1].dims[3] = 4;
  assert_true(npuc_tx8_slice_check(&c, err, sizeof err));
  assert_false(npuc_tx8_conv_is_depthwise(&c));
  assert_int_equal(npuc_tx8_shard_axes(&c), 0x7u);
  assert_int_equal(npuc_tx8_split_axes(&c), 0x3u);
  npuc_tx8_operand_windows(&c, 0, w);
  assert_int_equal(w[3].out_dim, -1);
  npuc_tx8_operand_windows(&c, 1, w);
  assert_int_equal(w[2].out_dim, -1);
}

/* Sizes from the input computed checked (issue 15): each case overflowed
 * int64 or a 32-bit window field before, and is now refused with what is
 * out of range. */
static void slice_rules_checked(void **state) {
  (void)state;
  char err[256];
  /* concat: the operands' sizes along the axis add up past int64. */
  npuc_tx8_slice_op cat = {
      .kind = NPUC_TX8_KIND_CONCAT, .num_operands = 2, .axes = 1u};
  const int64_t half[2] = {INT64_MAX / 2 + 1, 4}, whole[2] = {INT64_MAX, 4};
  cat.operands[0] = cat.operands[1] = shape_of(2, half);
  cat.result = shape_of(2, whole);
  assert_false(npuc_tx8_slice_check(&cat, err, sizeof err));
  assert_non_null(strstr(err, "beyond int64"));
  /* slice: (size - 1) * step + offset past int64. */
  npuc_tx8_slice_op sl = {.kind = NPUC_TX8_KIND_SLICE,
                          .num_operands = 1,
                          .offsets = {1},
                          .steps = {INT64_MAX / 2}};
  const int64_t in[1] = {8}, out[1] = {4};
  sl.operands[0] = shape_of(1, in);
  sl.result = shape_of(1, out);
  assert_false(npuc_tx8_slice_check(&sl, err, sizeof err));
  assert_non_null(strstr(err, "read outside the input's 8"));
  /* a step that fits the input but not a 32-bit window */
  const int64_t big_in[1] = {(int64_t)1 << 33}, two[1] = {2};
  sl.operands[0] = shape_of(1, big_in);
  sl.result = shape_of(1, two);
  sl.steps[0] = (int64_t)1 << 32;
  sl.offsets[0] = 0;
  assert_false(npuc_tx8_slice_check(&sl, err, sizeof err));
  sl.steps[0] = 1 << 30; /* fits */
  assert_true(npuc_tx8_slice_check(&sl, err, sizeof err));
  /* conv: a huge dilation, and weight channels times groups. */
  npuc_tx8_slice_op c = {.kind = NPUC_TX8_KIND_CONV,
                         .num_operands = 2,
                         .strides = {1, 1},
                         .dilations = {INT64_MAX / 2, 1},
                         .groups = 1};
  const int64_t x[4] = {1, 9, 4, 2}, w[4] = {3, 1, 6, 2}, o[4] = {1, 7, 4, 6};
  c.operands[0] = shape_of(4, x);
  c.operands[1] = shape_of(4, w);
  c.result = shape_of(4, o);
  assert_false(npuc_tx8_slice_check(&c, err, sizeof err));
  assert_non_null(strstr(err, "must fit in 32 bits"));
  c.dilations[0] = 1;
  assert_true(npuc_tx8_slice_check(&c, err, sizeof err));
  c.groups = INT64_MAX / 2; /* w[3] * groups overflows */
  assert_false(npuc_tx8_slice_check(&c, err, sizeof err));
  /* pool: the padded extent past int64. */
  npuc_tx8_slice_op p = {.kind = NPUC_TX8_KIND_POOL,
                         .num_operands = 1,
                         .kernel = {3, 3},
                         .strides = {1, 1},
                         .pads = {2, 2, 0, 0}};
  const int64_t px[4] = {1, INT64_MAX - 1, 4, 2}, po[4] = {1, 1, 2, 2};
  p.operands[0] = shape_of(4, px);
  p.result = shape_of(4, po);
  assert_false(npuc_tx8_slice_check(&p, err, sizeof err));
  assert_non_null(strstr(err, "padded extent must fit"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(tile_regions_partition),
      cmocka_unit_test(gshape_slices),
      cmocka_unit_test(gshape_balanced),
      cmocka_unit_test(conv_window_clips),
      cmocka_unit_test(slice_dma_between_layouts),
      cmocka_unit_test(slice_dma_keeps_rows),
      cmocka_unit_test(kept_rows_ranges),
      cmocka_unit_test(batchnorm_shards_any_axis),
      cmocka_unit_test(gemm_and_conv_windows),
      cmocka_unit_test(conv_channel_split),
      cmocka_unit_test(slice_rules_checked),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
