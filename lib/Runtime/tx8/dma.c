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

/* A walk over a transfer's DDR runs: pieces that continue the current
 * run extend it; a run is charged when the next one starts elsewhere. */
typedef struct {
  bool active, have_run;
  int64_t start, end; /* the current run */
  /* The banks kept open, most recently used first (NPUC_TX8_DDR_OPEN_BANKS
   * of them: DDR has a row buffer per bank, so going back to a bank still
   * open costs nothing). */
  int64_t open[NPUC_TX8_DDR_OPEN_BANKS];
  int num_open;
  int64_t useful; /* bytes of all runs */
  int64_t waste;  /* bytes of partial bursts at run ends */
  int64_t opened; /* banks opened */
} ddr_walk;

static void touch_bank(ddr_walk *w, int64_t k);

static void walk_flush(ddr_walk *w, int64_t bank) {
  if (!w->have_run)
    return;
  int64_t b = NPUC_TX8_DDR_BURST_BYTES;
  int64_t lo = w->start / b * b, hi = (w->end + b - 1) / b * b;
  w->waste += hi - lo - (w->end - w->start);
  int64_t first = w->start / bank, last = (w->end - 1) / bank;
  for (int64_t k = first; k <= last; ++k)
    touch_bank(w, k);
  w->have_run = false;
}

/* Bank k used: moved to the front of the open banks, opened (and the least
 * recently used one closed) when it was not among them. */
static void touch_bank(ddr_walk *w, int64_t k) {
  int i = 0;
  while (i < w->num_open && w->open[i] != k)
    ++i;
  if (i == w->num_open) {
    w->opened++;
    if (w->num_open < NPUC_TX8_DDR_OPEN_BANKS)
      w->num_open++;
    i = w->num_open - 1;
  }
  for (; i > 0; --i)
    w->open[i] = w->open[i - 1];
  w->open[0] = k;
}

static void walk_piece(ddr_walk *w, int64_t bank, int64_t at, int64_t len) {
  if (len <= 0)
    return;
  w->useful += len;
  if (w->have_run && at == w->end) {
    w->end += len;
    return;
  }
  walk_flush(w, bank);
  w->start = at;
  w->end = at + len;
  w->have_run = true;
}

static int64_t bank_bytes(void) {
  int64_t bank = npuc_tx8_rt_target()->ddr_bank_bytes;
  return bank > 0 ? bank : 4096;
}

/* The walk's cycles beyond an aligned contiguous transfer's. */
static uint64_t walk_penalty(ddr_walk *w, int64_t bank) {
  walk_flush(w, bank);
  if (w->useful <= 0)
    return 0;
  const npuc_tx8_target *t = npuc_tx8_rt_target();
  int64_t tiles = (int64_t)t->tiles_x * t->tiles_y;
  double per_cycle =
      t->ddr_gbytes_per_s / t->clock_ghz / (double)(tiles > 0 ? tiles : 1);
  uint64_t cycles =
      w->waste > 0 ? (uint64_t)ceil((double)w->waste / per_cycle) : 0;
  int64_t ideal = (w->useful + bank - 1) / bank;
  if (w->opened > ideal)
    cycles += (uint64_t)(w->opened - ideal) * NPUC_TX8_DDR_BANK_OPEN_CYCLES;
  return cycles;
}

uint64_t npuc_tx8_ddr_penalty_cycles(const int64_t *addr, const int64_t *len,
                                     int64_t runs) {
  int64_t bank = bank_bytes();
  ddr_walk w = {0};
  for (int64_t i = 0; i < runs; ++i)
    walk_piece(&w, bank, addr[i], len[i]);
  return walk_penalty(&w, bank);
}

static _Thread_local ddr_walk current_walk;

void npuc_tx8i_ddr_begin(void) {
  current_walk = (ddr_walk){.active = arena_base != NULL};
}

void npuc_tx8i_ddr_note(const void *p, int64_t len) {
  uintptr_t at = (uintptr_t)p, base = (uintptr_t)arena_base;
  if (!current_walk.active || at < base || at - base >= (uintptr_t)arena_bytes)
    return;
  walk_piece(&current_walk, bank_bytes(), (int64_t)(at - base), len);
}

uint64_t npuc_tx8i_ddr_end(void) {
  if (!current_walk.active)
    return 0;
  current_walk.active = false;
  return walk_penalty(&current_walk, bank_bytes());
}
