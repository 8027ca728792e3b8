/* The target description the ops estimate cycles with, and the cycle
 * model (the seed's getOpClockCycle; docs/tx8.md). Rates are per tile:
 * a chip's DDR bandwidth and neural-engine throughput are shared by its
 * tiles, which in a pipelined group all run at once. */
#include "internal.h"
#include "npuc/Tx8NocCost.h"

#include <math.h>
#include <stdlib.h>

static npuc_tx8_target current = NPUC_TX8_TARGET_DEFAULT;

/* Per thread: the host runs each tile as a thread. */
static _Thread_local npuc_tx8_counters counters;

void npuc_tx8_counters_reset(void) {
  counters = (npuc_tx8_counters){0, 0, {0}};
}

npuc_tx8_counters npuc_tx8_counters_get(void) { return counters; }

const char *npuc_tx8_busy_name(npuc_tx8_busy_engine e) {
  static const char *const names[NPUC_TX8_NUM_BUSY] = {"rdma", "wdma", "ne",
                                                       "ct",   "tdma", "noc"};
  return e < NPUC_TX8_NUM_BUSY ? names[e] : "?";
}

static uint64_t charge(npuc_tx8_busy_engine e, uint64_t cycles) {
  counters.busy[e] += cycles;
  npuc_tx8i_tl_charge(e, cycles);
  return cycles;
}

uint64_t npuc_tx8_cycles_bound(const npuc_tx8_counters *c) {
  const uint64_t *b = c->busy;
  uint64_t m = b[NPUC_TX8_BUSY_RDMA] + b[NPUC_TX8_BUSY_WDMA];
  uint64_t spm = b[NPUC_TX8_BUSY_CT] + b[NPUC_TX8_BUSY_TDMA];
  if (b[NPUC_TX8_BUSY_NE] > m)
    m = b[NPUC_TX8_BUSY_NE];
  if (spm > m)
    m = spm;
  return b[NPUC_TX8_BUSY_NOC] > m ? b[NPUC_TX8_BUSY_NOC] : m;
}

void npuc_tx8_rt_set_target(const npuc_tx8_target *t) { current = *t; }

const npuc_tx8_target *npuc_tx8_rt_target(void) { return &current; }

static int64_t tiles(void) {
  int64_t n = (int64_t)current.tiles_x * current.tiles_y;
  return n > 0 ? n : 1;
}

/* At least one cycle for any work, so an op never costs only overhead. */
static uint64_t ceil_cycles(double work, double per_cycle) {
  if (work <= 0)
    return 0;
  double c = ceil(work / per_cycle);
  return c < 1 ? 1 : (uint64_t)c;
}

uint64_t npuc_tx8_cycles_ddr(int64_t bytes) {
  /* GB/s / GHz = bytes per cycle. */
  double per_cycle =
      current.ddr_gbytes_per_s / current.clock_ghz / (double)tiles();
  return (uint64_t)current.op_overhead_cycles +
         ceil_cycles((double)bytes, per_cycle);
}

uint64_t npuc_tx8_cycles_rdma(int64_t bytes) {
  counters.ddr_read_bytes += bytes > 0 ? (uint64_t)bytes : 0;
  return charge(NPUC_TX8_BUSY_RDMA, npuc_tx8_cycles_ddr(bytes));
}

uint64_t npuc_tx8_cycles_wdma(int64_t bytes) {
  counters.ddr_write_bytes += bytes > 0 ? (uint64_t)bytes : 0;
  return charge(NPUC_TX8_BUSY_WDMA, npuc_tx8_cycles_ddr(bytes));
}

uint64_t npuc_tx8_cycles_ddr_extra(bool write, uint64_t cycles) {
  return charge(write ? NPUC_TX8_BUSY_WDMA : NPUC_TX8_BUSY_RDMA, cycles);
}

/* ---- the mesh NoC ------------------------------------------------------- */

/* The ring all-gather (lib/Common/Tx8NocCost.c: tx8-sharding's estimate
 * charges the same). */
uint64_t npuc_tx8_cycles_noc_gather_among(int64_t bytes, int32_t members,
                                          int32_t first, int32_t stride) {
  npuc_tx8_noc noc = {current.tiles_x, current.noc_link_bytes_per_cycle,
                      current.noc_hop_cycles, current.op_overhead_cycles};
  return npuc_tx8_noc_gather_cycles(&noc, bytes, members, first, stride);
}

uint64_t npuc_tx8_cycles_noc_gather(int64_t bytes, int32_t parts) {
  return npuc_tx8_cycles_noc_gather_among(bytes, parts, 0, 1);
}

bool npuc_tx8_cycles_shared_load_among(int64_t bytes, int32_t members,
                                       int32_t first, int32_t stride) {
  if (members <= 1 || current.noc_link_bytes_per_cycle <= 0)
    return false;
  int64_t share = (bytes + members - 1) / members;
  return npuc_tx8_cycles_ddr(share) +
             npuc_tx8_cycles_noc_gather_among(bytes, members, first, stride) <
         npuc_tx8_cycles_ddr(bytes);
}

bool npuc_tx8_cycles_shared_load(int64_t bytes, int32_t parts) {
  return npuc_tx8_cycles_shared_load_among(bytes, parts, 0, 1);
}

uint64_t npuc_tx8_cycles_noc_among(int64_t bytes, int32_t members,
                                   int32_t first, int32_t stride) {
  return charge(NPUC_TX8_BUSY_NOC, npuc_tx8_cycles_noc_gather_among(
                                       bytes, members, first, stride));
}

uint64_t npuc_tx8_cycles_noc(int64_t bytes, int32_t parts) {
  return npuc_tx8_cycles_noc_among(bytes, parts, 0, 1);
}

uint64_t npuc_tx8_cycles_tdma(int64_t bytes) {
  return charge(
      NPUC_TX8_BUSY_TDMA,
      (uint64_t)current.op_overhead_cycles +
          ceil_cycles((double)bytes, (double)current.tdma_bytes_per_cycle));
}

uint64_t npuc_tx8_cycles_ct(int64_t bytes, int passes) {
  return charge(
      NPUC_TX8_BUSY_CT,
      (uint64_t)current.op_overhead_cycles +
          (uint64_t)passes *
              ceil_cycles((double)bytes, (double)current.ct_bytes_per_cycle));
}

static double ne_tflops(npuc_tx8_dtype dt) {
  switch (dt) {
  case NPUC_TX8_I8: return current.ne_tflops_int8;
  case NPUC_TX8_F16: return current.ne_tflops_fp16;
  case NPUC_TX8_BF16: return current.ne_tflops_bf16;
  case NPUC_TX8_F32: return current.ne_tflops_fp32;
  }
  return current.ne_tflops_fp32;
}

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

static uint64_t ne_estimate(int64_t batches, int64_t m, int64_t k, int64_t n,
                            npuc_tx8_dtype dt);

uint64_t npuc_tx8_cycles_ne(int64_t batches, int64_t m, int64_t k, int64_t n,
                            npuc_tx8_dtype dt) {
  return charge(NPUC_TX8_BUSY_NE, ne_estimate(batches, m, k, n, dt));
}

/* Whole instructions: a partial 8x16x8 tile costs a full one. */
static uint64_t ne_estimate(int64_t batches, int64_t m, int64_t k, int64_t n,
                            npuc_tx8_dtype dt) {
  int64_t instrs = batches * ceil_div(m, current.ne_m) *
                   ceil_div(k, current.ne_k) * ceil_div(n, current.ne_n);
  double flops_per_instr = 2.0 * current.ne_m * current.ne_k * current.ne_n;
  /* TFLOP/s per chip -> FLOP per cycle per tile. */
  double per_cycle = ne_tflops(dt) * 1e3 / current.clock_ghz / (double)tiles();
  return (uint64_t)current.op_overhead_cycles +
         ceil_cycles((double)instrs * flops_per_instr, per_cycle);
}

/* ---- the issue-17 ops (same first-order model: CT passes over bytes,
 * TDMA bytes moved) ---------------------------------------------------- */

uint64_t npuc_tx8_cycles_reduce(int64_t in_bytes, int passes) {
  return npuc_tx8_cycles_ct(in_bytes, passes);
}

uint64_t npuc_tx8_cycles_softmax(int64_t bytes) {
  return npuc_tx8_cycles_ct(bytes, 5);
}

uint64_t npuc_tx8_cycles_layernorm(int64_t bytes) {
  return npuc_tx8_cycles_ct(bytes, 7);
}

uint64_t npuc_tx8_cycles_move(int64_t src_bytes, int64_t dst_bytes) {
  return npuc_tx8_cycles_tdma(src_bytes + dst_bytes);
}

uint64_t npuc_tx8_cycles_transpose(int64_t src_bytes, int64_t dst_bytes) {
  return npuc_tx8_cycles_move(src_bytes, dst_bytes);
}

uint64_t npuc_tx8_cycles_broadcast(int64_t out_bytes) {
  return npuc_tx8_cycles_ct(out_bytes, 1);
}

uint64_t npuc_tx8_cycles_pool(int64_t out_bytes, int64_t taps, bool avg) {
  return npuc_tx8_cycles_ct(out_bytes, (int)(taps + (avg ? 1 : 0)));
}
