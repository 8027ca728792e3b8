/* Data movement: RDMA (DDR -> SPM), WDMA (SPM -> DDR) and the TDMA
 * channel norm (SPM -> SPM). All three copy between any two layouts of
 * the same tensor, one row at a time, in the longest pieces contiguous on
 * both sides, as a gather/scatter DMA descriptor would. A DMA whose DDR
 * side lies in the host's DDR arena also pays for where it lies: partial
 * bursts and banks opened beyond the minimum (npuc_tx8_ddr_penalty_cycles,
 * docs/tx8.md "DDR placement"); the slice DMAs (slice.c) note their
 * pieces through the same tracker. */
#include "internal.h"

#include <math.h>
#include <string.h>

static void convert_layout(const char *op, const npuc_tx8_tsr *dst,
                           const npuc_tx8_tsr *src);
static void copy_row(const npuc_tx8_tsr *dst, const npuc_tx8_tsr *src,
                     int64_t n, int64_t hw);

uint64_t op_dma_load(const npuc_tx8_tsr *dst, const npuc_tx8_tsr *src) {
  npuc_tx8i_ddr_begin();
  convert_layout("op_dma_load", dst, src);
  uint64_t extra = npuc_tx8i_ddr_end();
  return npuc_tx8_cycles_rdma(src->layout.total_bytes) +
         npuc_tx8_cycles_ddr_extra(false, extra);
}

uint64_t op_dma_store(const npuc_tx8_tsr *dst, const npuc_tx8_tsr *src) {
  npuc_tx8i_ddr_begin();
  convert_layout("op_dma_store", dst, src);
  uint64_t extra = npuc_tx8i_ddr_end();
  return npuc_tx8_cycles_wdma(dst->layout.total_bytes) +
         npuc_tx8_cycles_ddr_extra(true, extra);
}

/* The TDMA reads one side and writes the other. */
uint64_t op_channel_norm(const npuc_tx8_tsr *dst, const npuc_tx8_tsr *src) {
  convert_layout("op_channel_norm", dst, src);
  return npuc_tx8_cycles_tdma(src->layout.total_bytes +
                              dst->layout.total_bytes);
}

static void convert_layout(const char *op, const npuc_tx8_tsr *dst,
                           const npuc_tx8_tsr *src) {
  npuc_tx8i_check_tsr(op, "dst", dst);
  npuc_tx8i_check_tsr(op, "src", src);
  npuc_tx8i_check_same_dims(op, "dst and src", dst, src);
  npuc_tx8i_check_dtype(op, "dst", dst, src->layout.dtype);
  npuc_tx8i_clear_padding(dst);
  const npuc_tx8_dims d = src->layout.dims;
  for (int64_t n = 0; n < d.n; ++n)
    for (int64_t hw = 0; hw < d.hw; ++hw)
      copy_row(dst, src, n, hw);
}

/* Channels from c to the end of c's contiguous run. */
static int64_t run_left(const npuc_tx8_layout *l, int64_t c) {
  if (c < l->cx * l->block)
    return l->block - c % l->block;
  return l->dims.c - c;
}

static void copy_row(const npuc_tx8_tsr *dst, const npuc_tx8_tsr *src,
                     int64_t n, int64_t hw) {
  const npuc_tx8_layout *dl = &dst->layout, *sl = &src->layout;
  for (int64_t c = 0; c < sl->dims.c;) {
    int64_t len = run_left(dl, c);
    int64_t slen = run_left(sl, c);
    if (slen < len)
      len = slen;
    char *to = tx8_at(dst, npuc_tx8_offset(dl, n, hw, c));
    const char *from = tx8_at(src, npuc_tx8_offset(sl, n, hw, c));
    memcpy(to, from, (size_t)(len * sl->elem_bytes));
    npuc_tx8i_ddr_note(to, len * sl->elem_bytes);
    npuc_tx8i_ddr_note(from, len * sl->elem_bytes);
    c += len;
  }
}

/* ---- DDR placement ------------------------------------------------------ */

/* Set once by the host before the tiles run; read by every tile thread. */
static const char *arena_base;
static int64_t arena_bytes;

void npuc_tx8_rt_set_ddr_arena(const void *base, int64_t bytes) {
  arena_base = base;
  arena_bytes = base && bytes > 0 ? bytes : 0;
}

static int64_t bank_bytes(void) { return npuc_tx8_rt_target()->ddr_bank_bytes; }

/* The tile's share of the DDR bandwidth: what a partial burst's bytes
 * cost (lib/Common/Tx8DdrCost.c walks the runs: the compiler's estimate
 * charges the same). */
static double tile_bytes_per_cycle(void) {
  const npuc_tx8_target *t = npuc_tx8_rt_target();
  int64_t tiles = (int64_t)t->tiles_x * t->tiles_y;
  return t->ddr_gbytes_per_s / t->clock_ghz / (double)(tiles > 0 ? tiles : 1);
}

uint64_t npuc_tx8_ddr_penalty_cycles(const int64_t *addr, const int64_t *len,
                                     int64_t runs) {
  npuc_tx8_ddr_walk w;
  npuc_tx8_ddr_walk_start(&w, bank_bytes());
  for (int64_t i = 0; i < runs; ++i)
    npuc_tx8_ddr_walk_piece(&w, addr[i], len[i]);
  return npuc_tx8_ddr_walk_cycles(&w, tile_bytes_per_cycle());
}

/* This thread's transfer: active while a DMA into or out of the arena
 * runs. */
static _Thread_local struct {
  bool active;
  npuc_tx8_ddr_walk walk;
} current_walk;

void npuc_tx8i_ddr_begin(void) {
  current_walk.active = arena_base != NULL;
  npuc_tx8_ddr_walk_start(&current_walk.walk, bank_bytes());
}

void npuc_tx8i_ddr_note(const void *p, int64_t len) {
  uintptr_t at = (uintptr_t)p, base = (uintptr_t)arena_base;
  if (!current_walk.active || at < base || at - base >= (uintptr_t)arena_bytes)
    return;
  npuc_tx8_ddr_walk_piece(&current_walk.walk, (int64_t)(at - base), len);
}

uint64_t npuc_tx8i_ddr_end(void) {
  if (!current_walk.active)
    return 0;
  current_walk.active = false;
  return npuc_tx8_ddr_walk_cycles(&current_walk.walk, tile_bytes_per_cycle());
}
