/* libnpuc_tx8_rt's traffic counters: a load -> compute -> store sequence
 * of one tile charges the DDR bytes and each engine's busy cycles worked
 * out by hand from the cycle model (default target: 16 tiles, 1 GHz,
 * 200 GB/s, so 12.5 DDR bytes a cycle per tile; bf16 NE 8000 FLOP a cycle
 * per tile; CT and TDMA 256 bytes a cycle; 32 cycles per op); the engines'
 * cycles add up to the ops' returns; counters are per thread. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "npuc/Tx8NocCost.h"
#include "npuc/Tx8Runtime.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static TSR alloc_shape(const int32_t *shape, int32_t dim, npuc_tx8_dtype dt,
                       npuc_tx8_layout_mode mode) {
  TSR t = npuc_tx8_tsr_of_shape(NULL, shape, dim, dt, mode);
  t.data = calloc(1, (size_t)t.layout.total_bytes);
  return t;
}

static uint64_t busy_total(const npuc_tx8_counters *c) {
  uint64_t sum = 0;
  for (int e = 0; e < NPUC_TX8_NUM_BUSY; ++e)
    sum += c->busy[e];
  return sum;
}

/* Rows 4..7 of an [8, 64] bf16 input: load, relu, times a [64, 64]
 * weight, back to compact, store into rows 4..7 of the output. */
static void load_compute_store(void **state) {
  (void)state;
  npuc_tx8_target dflt = NPUC_TX8_TARGET_DEFAULT;
  npuc_tx8_rt_set_target(&dflt);
  const int32_t whole[2] = {8, 64}, wshape[2] = {64, 64};
  TSR in = alloc_shape(whole, 2, NPUC_TX8_BF16, NPUC_TX8_TENSOR);
  TSR out = alloc_shape(whole, 2, NPUC_TX8_BF16, NPUC_TX8_TENSOR);
  TSR w_ddr = alloc_shape(wshape, 2, NPUC_TX8_BF16, NPUC_TX8_TENSOR);
  TSR w = alloc_shape(wshape, 2, NPUC_TX8_BF16, NPUC_TX8_CX);
  L_SHAPE l = {.shape_whole = {8, 64},
               .shape_start = {4, 0},
               .shape_slice = {4, 64},
               .shape_real = {4, 64},
               .dim = 2};
  TSR x = alloc_shape(l.shape_real, 2, NPUC_TX8_BF16, NPUC_TX8_CX);
  TSR y = alloc_shape(l.shape_real, 2, NPUC_TX8_BF16, NPUC_TX8_CX);
  TSR z = alloc_shape(l.shape_real, 2, NPUC_TX8_BF16, NPUC_TX8_CX);
  TSR zc = alloc_shape(l.shape_real, 2, NPUC_TX8_BF16, NPUC_TX8_TENSOR);
  /* 4 rows of 64 bf16: 512 bytes in Cx and in Tensor alike. */
  assert_int_equal(x.layout.total_bytes, 512);
  assert_int_equal(zc.layout.total_bytes, 512);

  npuc_tx8_counters_reset();
  uint64_t sum = 0;
  /* RDMA 512 bytes: 512 / 12.5 = 40.96 -> 41 cycles. */
  sum += op_dma_load_slice(&x, &in, &l);
  /* RDMA 8192 bytes: 655.36 -> 656. */
  sum += op_dma_load(&w, &w_ddr);
  /* CT, one pass over 512 bytes: 2 cycles. */
  sum += op_unary(NPUC_TX8_RELU, &x, &y);
  /* NE: 4x64x64 is 1 x 8 x 4 x 8... ceil(4/8)=1 row of tiles, K 64/16 =
   * 4, N 64/8 = 8: 32 instructions of 2048 FLOP = 65536 / 8000 -> 9. */
  npuc_tx8_gemm_param p = {false, false, 1};
  sum += op_gemm(&p, &y, &w, NULL, &z);
  /* TDMA: 512 + 512 bytes / 256 = 4. */
  sum += op_channel_norm(&zc, &z);
  /* WDMA 512 bytes: 41. */
  sum += op_dma_store_slice(&out, &zc, &l);

  npuc_tx8_counters c = npuc_tx8_counters_get();
  assert_int_equal(c.ddr_read_bytes, 512 + 8192);
  assert_int_equal(c.ddr_write_bytes, 512);
  assert_int_equal(c.busy[NPUC_TX8_BUSY_RDMA], (32 + 41) + (32 + 656));
  assert_int_equal(c.busy[NPUC_TX8_BUSY_WDMA], 32 + 41);
  assert_int_equal(c.busy[NPUC_TX8_BUSY_CT], 32 + 2);
  assert_int_equal(c.busy[NPUC_TX8_BUSY_NE], 32 + 9);
  assert_int_equal(c.busy[NPUC_TX8_BUSY_TDMA], 32 + 4);
  assert_int_equal(busy_total(&c), sum);
  assert_int_equal(sum, 73 + 688 + 34 + 41 + 36 + 73);

  /* A pure estimate charges nothing; reset zeroes everything. */
  npuc_tx8_cycles_ddr(4096);
  assert_int_equal(npuc_tx8_counters_get().ddr_read_bytes, 512 + 8192);
  npuc_tx8_counters_reset();
  c = npuc_tx8_counters_get();
  assert_int_equal(c.ddr_read_bytes + c.ddr_write_bytes + busy_total(&c), 0);

  TSR all[] = {in, out, w_ddr, w, x, y, z, zc};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
    free(all[i].data);
}

/* Batchnorm is charged to two engines: its two TDMA moves and its CT
 * passes (six over the fp32 copy, two over the [C] vector). */
static void batchnorm_splits_engines(void **state) {
  (void)state;
  const int32_t shape[2] = {4, 64}, vshape[1] = {64};
  TSR x = alloc_shape(shape, 2, NPUC_TX8_F16, NPUC_TX8_CX);
  TSR y = alloc_shape(shape, 2, NPUC_TX8_F16, NPUC_TX8_CX);
  TSR v = alloc_shape(vshape, 1, NPUC_TX8_F32, NPUC_TX8_CX);
  for (int i = 0; i < 64; ++i)
    ((float *)v.data)[i] = 1.0f;
  void *imm = calloc(1, (size_t)npuc_tx8_batchnorm_imm_bytes(&x));
  npuc_tx8_batchnorm_param p = {1e-6f};
  npuc_tx8_counters_reset();
  uint64_t cycles = op_batchnorm_inference(&p, &x, &v, &v, &v, &v, imm, &y);
  npuc_tx8_counters c = npuc_tx8_counters_get();
  /* TDMA: 512 + 512 bytes of f16 -> 4 cycles. CT: the fp32 copy is 1024
   * bytes, 6 passes of 4 cycles; the [64] fp32 vector 256 bytes, 2 passes
   * of 1 cycle. Each call adds 32. */
  assert_int_equal(c.busy[NPUC_TX8_BUSY_TDMA], 32 + 4);
  assert_int_equal(c.busy[NPUC_TX8_BUSY_CT], (32 + 24) + (32 + 2));
  assert_int_equal(busy_total(&c), cycles);
  assert_int_equal(c.ddr_read_bytes + c.ddr_write_bytes, 0);
  free(imm);
  free(x.data);
  free(y.data);
  free(v.data);
}

static void *load_on_thread(void *arg) {
  TSR *t = arg; /* t[0] SPM, t[1] DDR */
  npuc_tx8_counters_reset();
  op_dma_load(&t[0], &t[1]);
  npuc_tx8_counters *got = malloc(sizeof *got);
  *got = npuc_tx8_counters_get();
  return got;
}

/* Tiles run as threads: each counts its own ops. */
static void counters_are_per_thread(void **state) {
  (void)state;
  const int32_t shape[2] = {2, 64};
  TSR t[2] = {alloc_shape(shape, 2, NPUC_TX8_F32, NPUC_TX8_CX),
              alloc_shape(shape, 2, NPUC_TX8_F32, NPUC_TX8_TENSOR)};
  npuc_tx8_counters_reset();
  op_dma_store(&t[1], &t[0]); /* 512 bytes written here */
  pthread_t th;
  void *res = NULL;
  assert_int_equal(pthread_create(&th, NULL, load_on_thread, t), 0);
  assert_int_equal(pthread_join(th, &res), 0);
  npuc_tx8_counters *other = res;
  assert_int_equal(other->ddr_read_bytes, 512);
  assert_int_equal(other->ddr_write_bytes, 0);
  npuc_tx8_counters mine = npuc_tx8_counters_get();
  assert_int_equal(mine.ddr_read_bytes, 0);
  assert_int_equal(mine.ddr_write_bytes, 512);
  assert_string_equal(npuc_tx8_busy_name(NPUC_TX8_BUSY_TDMA), "tdma");
  free(other);
  free(t[0].data);
  free(t[1].data);
}

/* A [64, 64] bf16 weight (8192 bytes) every one of 16 tiles reads: tile
 * 3 reads its 512-byte share from DDR (32 + ceil(512 / 12.5) = 73 cycles)
 * and gathers the rest round the ring: 15 steps of a 512-byte share over
 * 64-byte links (8 cycles) plus the ring's longest link, the snake's
 * closing one from (0, 3) back to (0, 0), 3 hops of 4 cycles: 32 + 15 x
 * 20 = 332 cycles; 405 in all, against 32 + 656 = 688 to read it whole.
 * The bytes are the weight's. A 128-byte vector is cheaper read whole. */
static void shared_load_over_noc(void **state) {
  (void)state;
  npuc_tx8_target dflt = NPUC_TX8_TARGET_DEFAULT;
  npuc_tx8_rt_set_target(&dflt);
  const int32_t wshape[2] = {64, 64}, vshape[1] = {64};
  TSR w_ddr = alloc_shape(wshape, 2, NPUC_TX8_BF16, NPUC_TX8_TENSOR);
  TSR w = alloc_shape(wshape, 2, NPUC_TX8_BF16, NPUC_TX8_CX);
  TSR w_ref = alloc_shape(wshape, 2, NPUC_TX8_BF16, NPUC_TX8_CX);
  for (int i = 0; i < 8192; ++i)
    ((unsigned char *)w_ddr.data)[i] = (unsigned char)(i * 7 + 3);
  L_SHAPE l = {.shape_whole = {64, 64},
               .shape_start = {0, 0},
               .shape_slice = {64, 64},
               .shape_real = {64, 64},
               .dim = 2};
  assert_int_equal(npuc_tx8_cycles_noc_gather(8192, 16), 332);
  assert_true(npuc_tx8_cycles_shared_load(8192, 16));
  assert_false(npuc_tx8_cycles_shared_load(128, 16));
  assert_false(npuc_tx8_cycles_shared_load(8192, 1));
  npuc_tx8_counters_reset();
  assert_int_equal(op_dma_load_shared(&w, &w_ddr, &l, 3, 16), 405);
  npuc_tx8_counters c = npuc_tx8_counters_get();
  assert_int_equal(c.ddr_read_bytes, 512);
  assert_int_equal(c.busy[NPUC_TX8_BUSY_RDMA], 73);
  assert_int_equal(c.busy[NPUC_TX8_BUSY_NOC], 332);
  assert_int_equal(busy_total(&c), 405);
  assert_string_equal(npuc_tx8_busy_name(NPUC_TX8_BUSY_NOC), "noc");
  op_dma_load_slice(&w_ref, &w_ddr, &l);
  assert_memory_equal(w.data, w_ref.data, (size_t)w.layout.total_bytes);
  /* The vector: read whole, 32 + ceil(128 / 12.5) = 43 cycles, no NoC. */
  TSR v_ddr = alloc_shape(vshape, 1, NPUC_TX8_BF16, NPUC_TX8_TENSOR);
  TSR v = alloc_shape(vshape, 1, NPUC_TX8_BF16, NPUC_TX8_TENSOR);
  L_SHAPE lv = {.shape_whole = {64},
                .shape_start = {0},
                .shape_slice = {64},
                .shape_real = {64},
                .dim = 1};
  npuc_tx8_counters_reset();
  assert_int_equal(op_dma_load_shared(&v, &v_ddr, &lv, 0, 16), 43);
  c = npuc_tx8_counters_get();
  assert_int_equal(c.ddr_read_bytes, 128);
  assert_int_equal(c.busy[NPUC_TX8_BUSY_NOC], 0);
  TSR *all[] = {&w_ddr, &w, &w_ref, &v_ddr, &v};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
    free(all[i]->data);
}

/* The rings of a two-dimensional sharding on the 4x4 mesh: the tiles of
 * a row (1 apart) and of a column (4 apart) close their ring over 3 hops,
 * two neighbours over 1, six tiles in a snake over 3 (from (3, 0) down to
 * the second row's last), the 16 tiles of an 8-wide mesh (two rows) over
 * 1. Tile 6 of the column ring 2, 6, 10, 14 (member
 * 1) reads its 2048-byte share of the 8192-byte weight, 32 + ceil(2048 /
 * 12.5) = 196 cycles, and gathers the rest: 32 + 3 steps of (3 hops x 4 +
 * 2048 / 64) = 164 cycles; 360 in all against 688 read whole. The
 * estimate's NoC term (npuc_tx8_noc_gather_cycles, lib/Common, from the
 * ring's first tile) is what the C model charges. */
static void shared_load_among_a_ring(void **state) {
  (void)state;
  npuc_tx8_target dflt = NPUC_TX8_TARGET_DEFAULT;
  npuc_tx8_rt_set_target(&dflt);
  assert_int_equal(npuc_tx8_noc_longest_link(4, 0, 1, 4), 3);
  assert_int_equal(npuc_tx8_noc_longest_link(4, 8, 1, 4), 3);
  assert_int_equal(npuc_tx8_noc_longest_link(4, 1, 4, 4), 3);
  assert_int_equal(npuc_tx8_noc_longest_link(2, 0, 1, 4), 1);
  assert_int_equal(npuc_tx8_noc_longest_link(2, 5, 4, 4), 1);
  assert_int_equal(npuc_tx8_noc_longest_link(6, 0, 1, 4), 3);
  assert_int_equal(npuc_tx8_noc_longest_link(16, 0, 1, 4), 3);
  assert_int_equal(npuc_tx8_noc_longest_link(16, 0, 1, 8), 1);
  const int32_t wshape[2] = {64, 64};
  TSR w_ddr = alloc_shape(wshape, 2, NPUC_TX8_BF16, NPUC_TX8_TENSOR);
  TSR w = alloc_shape(wshape, 2, NPUC_TX8_BF16, NPUC_TX8_CX);
  TSR w_ref = alloc_shape(wshape, 2, NPUC_TX8_BF16, NPUC_TX8_CX);
  for (int i = 0; i < 8192; ++i)
    ((unsigned char *)w_ddr.data)[i] = (unsigned char)(i * 5 + 1);
  L_SHAPE l = {.shape_whole = {64, 64},
               .shape_start = {0, 0},
               .shape_slice = {64, 64},
               .shape_real = {64, 64},
               .dim = 2};
  npuc_tx8_noc mesh = {dflt.tiles_x, dflt.noc_link_bytes_per_cycle,
                       dflt.noc_hop_cycles, dflt.op_overhead_cycles};
  assert_int_equal(npuc_tx8_cycles_noc_gather_among(8192, 4, 2, 4), 164);
  assert_int_equal(npuc_tx8_noc_gather_cycles(&mesh, 8192, 4, 0, 4), 164);
  assert_int_equal(npuc_tx8_noc_gather_cycles(&mesh, 8192, 16, 0, 1),
                   npuc_tx8_cycles_noc_gather(8192, 16));
  assert_true(npuc_tx8_cycles_shared_load_among(8192, 4, 2, 4));
  npuc_tx8_counters_reset();
  assert_int_equal(op_dma_load_shared_among(&w, &w_ddr, &l, 6, 4, 4), 360);
  npuc_tx8_counters c = npuc_tx8_counters_get();
  assert_int_equal(c.ddr_read_bytes, 2048);
  assert_int_equal(c.busy[NPUC_TX8_BUSY_RDMA], 196);
  assert_int_equal(c.busy[NPUC_TX8_BUSY_NOC], 164);
  op_dma_load_slice(&w_ref, &w_ddr, &l);
  assert_memory_equal(w.data, w_ref.data, (size_t)w.layout.total_bytes);
  TSR *all[] = {&w_ddr, &w, &w_ref};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
    free(all[i]->data);
}

/* The reduce split across tiles: tile 1 (a member) and tile 0 (the
 * owner) each hold 8192 bytes of fp32 partial sums ([32, 64]); after
 * op_psum_reduce on both threads the owner's hold the sum. Each charges
 * the ring reduce-scatter and the gather to the owner, twice the 2-tile
 * gather: 2 x (32 + 1 step of (1 hop x 4 + 4096 / 64)) = 200 NoC cycles,
 * and its adds, one 4096-byte share: 32 + 4096 / 256 = 48 CT cycles; the
 * estimate's npuc_tx8_noc_reduce_cycles is the same 200. */
typedef struct {
  TSR psum;
  int32_t tile;
  uint64_t cycles;
  npuc_tx8_counters counters;
} team_member;

static void *reduce_member(void *arg) {
  team_member *m = arg;
  npuc_tx8_counters_reset();
  m->cycles = op_psum_reduce(&m->psum, m->tile, 0, 2);
  m->counters = npuc_tx8_counters_get();
  return NULL;
}

static void team_reduce_over_noc(void **state) {
  (void)state;
  npuc_tx8_target dflt = NPUC_TX8_TARGET_DEFAULT;
  npuc_tx8_rt_set_target(&dflt);
  const int32_t shape[2] = {32, 64};
  team_member m[2];
  for (int t = 0; t < 2; ++t) {
    m[t] = (team_member){
        alloc_shape(shape, 2, NPUC_TX8_F32, NPUC_TX8_TENSOR), t, 0, {0}};
    assert_int_equal(m[t].psum.layout.total_bytes, 8192);
    for (int i = 0; i < 2048; ++i)
      ((float *)m[t].psum.data)[i] = (float)(i % 7) * (t ? 0.5f : 2.0f);
  }
  pthread_t th[2];
  for (int t = 0; t < 2; ++t)
    assert_int_equal(pthread_create(&th[t], NULL, reduce_member, &m[t]), 0);
  for (int t = 0; t < 2; ++t)
    pthread_join(th[t], NULL);
  for (int i = 0; i < 2048; ++i)
    assert_float_equal(((float *)m[0].psum.data)[i], (float)(i % 7) * 2.5f, 0);
  npuc_tx8_noc mesh = {dflt.tiles_x, dflt.noc_link_bytes_per_cycle,
                       dflt.noc_hop_cycles, dflt.op_overhead_cycles};
  assert_int_equal(npuc_tx8_noc_reduce_cycles(&mesh, 8192, 2, 0, 1), 200);
  assert_int_equal(npuc_tx8_noc_reduce_add_bytes(8192, 2), 4096);
  for (int t = 0; t < 2; ++t) {
    assert_int_equal(m[t].cycles, 248);
    assert_int_equal(m[t].counters.busy[NPUC_TX8_BUSY_NOC], 200);
    assert_int_equal(m[t].counters.busy[NPUC_TX8_BUSY_CT], 48);
    free(m[t].psum.data);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(team_reduce_over_noc),
      cmocka_unit_test(load_compute_store),
      cmocka_unit_test(batchnorm_splits_engines),
      cmocka_unit_test(counters_are_per_thread),
      cmocka_unit_test(shared_load_over_noc),
      cmocka_unit_test(shared_load_among_a_ring),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
