/* libnpuc_tx8_rt's DDR placement cost (docs/tx8.md, "DDR placement"): a
 * DMA whose DDR side lies in the host's arena pays, beyond the bytes at
 * the DDR rate, for the partial 64-byte bursts at the ends of its runs
 * (at 12.5 bytes a cycle per tile on the default target) and 28 cycles
 * per bank opened beyond ceil(bytes / 4096). Worked out by hand; then the
 * same through op_dma_load and op_dma_load_slice on an arena, charged to
 * RDMA, and nothing outside an arena; and tx8-sharding's estimate of a
 * slice DMA (npuc_tx8_ddr_region_cycles, lib/Common) charges what the C
 * model does for it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "npuc/Tx8Runtime.h"

#include <stdlib.h>
#include <string.h>

static void set_default_target(void) {
  npuc_tx8_target dflt = NPUC_TX8_TARGET_DEFAULT;
  npuc_tx8_rt_set_target(&dflt);
}

static void penalty_by_hand(void **state) {
  (void)state;
  set_default_target();
  int64_t addr[18], len[18];
  /* Aligned and within one bank, or 2 banks for 8192 bytes: free. */
  addr[0] = 0, len[0] = 4096;
  assert_int_equal(npuc_tx8_ddr_penalty_cycles(addr, len, 1), 0);
  addr[0] = 8192, len[0] = 8192;
  assert_int_equal(npuc_tx8_ddr_penalty_cycles(addr, len, 1), 0);
  /* 1024 bytes at 48: bursts [0, 1088) move 64 more bytes (6 cycles at
   * 12.5 a cycle), one bank: 6. */
  addr[0] = 48, len[0] = 1024;
  assert_int_equal(npuc_tx8_ddr_penalty_cycles(addr, len, 1), 6);
  /* 1024 bytes at 3584 (burst aligned) cross into bank 1: 2 banks for a
   * transfer that needs 1: 28. */
  addr[0] = 3584, len[0] = 1024;
  assert_int_equal(npuc_tx8_ddr_penalty_cycles(addr, len, 1), 28);
  /* Two pieces continuing each other are one run. */
  addr[0] = 0, len[0] = 100, addr[1] = 100, len[1] = 28;
  assert_int_equal(npuc_tx8_ddr_penalty_cycles(addr, len, 2), 0);
  /* Rows of 32 bytes every 64 bytes: each run wastes 32 bytes (4 runs,
   * 128 bytes, 11 cycles); all in bank 0. */
  for (int i = 0; i < 4; ++i)
    addr[i] = 64 * i, len[i] = 32;
  assert_int_equal(npuc_tx8_ddr_penalty_cycles(addr, len, 4), 11);
  /* Going back to a bank still open opens nothing: 0, 1, 0 for 3 x 64
   * bytes opens banks 0 and 1, one more than 192 contiguous bytes. */
  addr[0] = 0, addr[1] = 4096, addr[2] = 64;
  len[0] = len[1] = len[2] = 64;
  assert_int_equal(npuc_tx8_ddr_penalty_cycles(addr, len, 3), 28);
  /* Nine banks round robin, twice: the first is closed by the time the
   * walk comes back (8 kept open), so all 18 runs open one: 17 more than
   * 18 x 64 contiguous bytes. */
  for (int i = 0; i < 18; ++i)
    addr[i] = 4096 * (i % 9) + 64 * (i / 9), len[i] = 64;
  assert_int_equal(npuc_tx8_ddr_penalty_cycles(addr, len, 18), 17 * 28);
}

/* A whole [4, 256] f32 load from an arena offset: aligned costs what
 * npuc_tx8_cycles_rdma says, 16 bytes off it costs the penalty more, all
 * on RDMA; without an arena nothing more. */
static void dma_in_arena(void **state) {
  (void)state;
  set_default_target();
  const int32_t shape[2] = {4, 256};
  char *arena = aligned_alloc(4096, 16384);
  memset(arena, 0, 16384);
  TSR spm =
      npuc_tx8_tsr_of_shape(NULL, shape, 2, NPUC_TX8_F32, NPUC_TX8_TENSOR);
  spm.data = calloc(1, (size_t)spm.layout.total_bytes);
  TSR ddr =
      npuc_tx8_tsr_of_shape(arena, shape, 2, NPUC_TX8_F32, NPUC_TX8_TENSOR);
  uint64_t plain = npuc_tx8_cycles_ddr(4096);
  npuc_tx8_rt_set_ddr_arena(arena, 16384);
  npuc_tx8_counters_reset();
  assert_int_equal(op_dma_load(&spm, &ddr), plain);
  ddr.data = arena + 16;
  int64_t at = 16, len = 4096;
  uint64_t extra = npuc_tx8_ddr_penalty_cycles(&at, &len, 1);
  assert_int_equal(extra, 28 + 6); /* a second bank, 64 bytes of bursts */
  assert_int_equal(op_dma_load(&spm, &ddr), plain + extra);
  /* Rows 1..2 as a slice, from 16 bytes off: one run of 2048 bytes at
   * 1040, bursts [1024, 3136): 64 bytes more, one bank. */
  L_SHAPE l = {{4, 256}, {1, 0}, {2, 256}, {2, 256}, 2};
  TSR part =
      npuc_tx8_tsr_of_lshape(spm.data, &l, NPUC_TX8_F32, NPUC_TX8_TENSOR);
  assert_int_equal(op_dma_load_slice(&part, &ddr, &l),
                   npuc_tx8_cycles_ddr(2048) + 6);
  npuc_tx8_counters c = npuc_tx8_counters_get();
  assert_int_equal(c.busy[NPUC_TX8_BUSY_RDMA],
                   2 * plain + extra + npuc_tx8_cycles_ddr(2048) + 6);
  assert_int_equal(c.ddr_read_bytes, 2 * 4096 + 2048);
  npuc_tx8_rt_set_ddr_arena(NULL, 0);
  assert_int_equal(op_dma_load(&spm, &ddr), plain);
  free(spm.data);
  free(arena);
}

/* Slices of a [2, 24, 200] f16 tensor in each layout at the arena's start
 * (bank-aligned): the estimate walking every row charges exactly what
 * op_dma_load_slice and op_dma_store_slice add beyond their bytes; walking
 * 4 rows and scaling stays near it (the runs repeat). */
static void estimate_matches_model(void **state) {
  (void)state;
  set_default_target();
  const npuc_tx8_target *t = npuc_tx8_rt_target();
  double rate = t->ddr_gbytes_per_s / t->clock_ghz / (t->tiles_x * t->tiles_y);
  const int32_t shape[3] = {2, 24, 200};
  const int64_t shape64[3] = {2, 24, 200};
  char *arena = aligned_alloc(4096, 65536);
  memset(arena, 0, 65536);
  npuc_tx8_rt_set_ddr_arena(arena, 65536);
  const struct {
    int32_t start[3], size[3];
  } cases[] = {{{0, 0, 0}, {2, 24, 200}},
               {{0, 0, 0}, {1, 24, 24}},
               {{1, 4, 64}, {1, 8, 64}},
               {{0, 3, 136}, {2, 5, 64}},
               {{1, 0, 100}, {1, 24, 100}}};
  for (int mode = NPUC_TX8_TENSOR; mode <= NPUC_TX8_NCX; ++mode)
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
      TSR whole = npuc_tx8_tsr_of_shape(arena, shape, 3, NPUC_TX8_F16,
                                        (npuc_tx8_layout_mode)mode);
      L_SHAPE l = {{2, 24, 200}, {0}, {0}, {0}, 3};
      memcpy(l.shape_start, cases[i].start, sizeof cases[i].start);
      memcpy(l.shape_slice, cases[i].size, sizeof cases[i].size);
      memcpy(l.shape_real, cases[i].size, sizeof cases[i].size);
      TSR part = npuc_tx8_tsr_of_lshape(NULL, &l, NPUC_TX8_F16,
                                        (npuc_tx8_layout_mode)mode);
      part.data = calloc(1, (size_t)part.layout.total_bytes);
      uint64_t bytes = npuc_tx8_cycles_ddr(part.layout.total_bytes);
      double load = (double)(op_dma_load_slice(&part, &whole, &l) - bytes);
      double store = (double)(op_dma_store_slice(&whole, &part, &l) - bytes);
      double est = npuc_tx8_ddr_region_cycles(
          shape64, 3, NPUC_TX8_F16, (npuc_tx8_layout_mode)mode, cases[i].start,
          cases[i].size, t->ddr_bank_bytes, rate, 0);
      double sampled = npuc_tx8_ddr_region_cycles(
          shape64, 3, NPUC_TX8_F16, (npuc_tx8_layout_mode)mode, cases[i].start,
          cases[i].size, t->ddr_bank_bytes, rate, 4);
      assert_true(est == load);
      assert_true(est == store);
      assert_true(sampled <= 1.5 * est + 64 && sampled >= 0.5 * est - 64);
      free(part.data);
    }
  npuc_tx8_rt_set_ddr_arena(NULL, 0);
  free(arena);
}

/* The walk order of an aligned DDR tensor (docs/tx8.md, "Walk order"):
 * rows 8..15 of a [64, 4096] bf16 Cx tensor (64 blocks of 64 rows x 128
 * bytes, 8 KiB each) into a Cx slice go block by block, each block's 8
 * rows one 1 KiB run: 64 runs in 64 banks where 64 KiB needs 16, so
 * 48 x 28 cycles (row by row it was 512 runs, each opening a bank); the
 * store back and the estimate charge the same. A compact weight's column
 * part [512, 256] of [512, 4096] bf16 is a 512-byte run per 8 KiB row,
 * a bank each: 512 - 64 more than its 256 KiB need; the same part of the
 * weight in Cx is 4 runs of 64 KiB: nothing more. */
static void aligned_walks_by_block(void **state) {
  (void)state;
  set_default_target();
  const npuc_tx8_target *t = npuc_tx8_rt_target();
  double rate = t->ddr_gbytes_per_s / t->clock_ghz / (t->tiles_x * t->tiles_y);
  int64_t bytes = 4 << 20;
  char *arena = aligned_alloc(4096, (size_t)bytes);
  memset(arena, 0, (size_t)bytes);
  npuc_tx8_rt_set_ddr_arena(arena, bytes);
  const struct {
    int32_t whole[2], start[2], size[2];
    npuc_tx8_layout_mode mode;
    uint64_t extra;
  } cases[] = {{{64, 4096}, {8, 0}, {8, 4096}, NPUC_TX8_CX, 48 * 28},
               {{512, 4096}, {0, 256}, {512, 256}, NPUC_TX8_TENSOR, 448 * 28},
               {{512, 4096}, {0, 256}, {512, 256}, NPUC_TX8_CX, 0}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
    TSR whole = npuc_tx8_tsr_of_shape(arena, cases[i].whole, 2, NPUC_TX8_BF16,
                                      cases[i].mode);
    L_SHAPE l = {{cases[i].whole[0], cases[i].whole[1]},
                 {cases[i].start[0], cases[i].start[1]},
                 {cases[i].size[0], cases[i].size[1]},
                 {cases[i].size[0], cases[i].size[1]},
                 2};
    TSR part = npuc_tx8_tsr_of_lshape(NULL, &l, NPUC_TX8_BF16, NPUC_TX8_CX);
    part.data = calloc(1, (size_t)part.layout.total_bytes);
    uint64_t plain = npuc_tx8_cycles_ddr(part.layout.total_bytes);
    assert_int_equal(op_dma_load_slice(&part, &whole, &l),
                     plain + cases[i].extra);
    assert_int_equal(op_dma_store_slice(&whole, &part, &l),
                     plain + cases[i].extra);
    int64_t shape64[2] = {cases[i].whole[0], cases[i].whole[1]};
    double est = npuc_tx8_ddr_region_cycles(
        shape64, 2, NPUC_TX8_BF16, cases[i].mode, cases[i].start, cases[i].size,
        t->ddr_bank_bytes, rate, 0);
    assert_true(est == (double)cases[i].extra);
    free(part.data);
  }
  npuc_tx8_rt_set_ddr_arena(NULL, 0);
  free(arena);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(penalty_by_hand),
      cmocka_unit_test(dma_in_arena),
      cmocka_unit_test(estimate_matches_model),
      cmocka_unit_test(aligned_walks_by_block),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
