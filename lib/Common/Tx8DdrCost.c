/* The DDR placement cost of a DMA (include/npuc/Tx8DdrCost.h, docs/tx8.md
 * "DDR placement"): one walk over the transfer's contiguous runs, shared
 * by the C model's DMA and tx8-sharding's estimate. Plain C (npuc_common,
 * compiled into libnpuc_hivm_rt too). */
#include "npuc/Tx8DdrCost.h"

#include <math.h>
#include <string.h>

void npuc_tx8_ddr_walk_start(npuc_tx8_ddr_walk *w, int64_t bank_bytes) {
  memset(w, 0, sizeof *w);
  w->bank = bank_bytes > 0 ? bank_bytes : 4096;
}

/* Bank k used: moved to the front of the open banks, opened (and the least
 * recently used one closed) when it was not among them. */
static void touch_bank(npuc_tx8_ddr_walk *w, int64_t k) {
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

static void walk_flush(npuc_tx8_ddr_walk *w) {
  if (!w->have_run)
    return;
  int64_t b = NPUC_TX8_DDR_BURST_BYTES;
  int64_t lo = w->start / b * b, hi = (w->end + b - 1) / b * b;
  w->waste += hi - lo - (w->end - w->start);
  int64_t first = w->start / w->bank, last = (w->end - 1) / w->bank;
  for (int64_t k = first; k <= last; ++k)
    touch_bank(w, k);
  w->have_run = false;
}

void npuc_tx8_ddr_walk_piece(npuc_tx8_ddr_walk *w, int64_t at, int64_t len) {
  if (len <= 0)
    return;
  w->useful += len;
  if (w->have_run && at == w->end) {
    w->end += len;
    return;
  }
  walk_flush(w);
  w->start = at;
  w->end = at + len;
  w->have_run = true;
}

uint64_t npuc_tx8_ddr_walk_cycles(npuc_tx8_ddr_walk *w,
                                  double bytes_per_cycle) {
  walk_flush(w);
  if (w->useful <= 0)
    return 0;
  double per_cycle = bytes_per_cycle > 0 ? bytes_per_cycle : 1;
  uint64_t cycles =
      w->waste > 0 ? (uint64_t)ceil((double)w->waste / per_cycle) : 0;
  int64_t ideal = (w->useful + w->bank - 1) / w->bank;
  if (w->opened > ideal)
    cycles += (uint64_t)(w->opened - ideal) * NPUC_TX8_DDR_BANK_OPEN_CYCLES;
  return cycles;
}

/* ---- the DDR side of a slice DMA */

/* Channels from c to the end of c's contiguous run (as the C model's
 * copies split a row). */
static int64_t run_left(const npuc_tx8_layout *l, int64_t c) {
  if (c < l->cx * l->block)
    return l->block - c % l->block;
  return l->dims.c - c;
}

/* Walks channels [c_begin, c_end) of row `idx` of the region (relative
 * to its first channel) in contiguous pieces. */
static void walk_row(npuc_tx8_ddr_walk *w, const npuc_tx8_layout *l,
                     const int64_t *shape, int dim, bool batched,
                     const int32_t *start, int64_t c_begin, int64_t c_end,
                     const int32_t *idx) {
  int first = batched ? 1 : 0;
  int64_t n = batched ? start[0] + idx[0] : 0, hw = 0;
  for (int d = first; d < dim - 1; ++d)
    hw = hw * shape[d] + start[d] + idx[d];
  int64_t c0 = start[dim - 1];
  for (int64_t c = c_begin; c < c_end;) {
    int64_t len = c_end - c, left = run_left(l, c0 + c);
    len = len < left ? len : left;
    npuc_tx8_ddr_walk_piece(w, npuc_tx8_offset(l, n, hw, c0 + c),
                            len * l->elem_bytes);
    c += len;
  }
}

/* One walk over the region's rows, channels [c_begin, c_end) of each;
 * past `walk` rows, the extra cycles the remaining rows are expected to
 * add (what the second half of the walked rows did per row). */
typedef struct {
  const npuc_tx8_layout *l;
  const int64_t *shape;
  int dim;
  bool batched;
  const int32_t *start, *size;
  int64_t rows, walk;
  double bytes_per_cycle;
} region_walk;

static double walk_rows(const region_walk *r, npuc_tx8_ddr_walk *w,
                        int64_t c_begin, int64_t c_end) {
  int32_t idx[8] = {0};
  int64_t half = r->walk / 2;
  npuc_tx8_ddr_walk at_half = *w;
  for (int64_t row = 0; row < r->walk; ++row) {
    if (row == half)
      at_half = *w;
    walk_row(w, r->l, r->shape, r->dim, r->batched, r->start, c_begin, c_end,
             idx);
    for (int d = r->dim - 2; d >= 0 && ++idx[d] >= r->size[d]; --d)
      idx[d] = 0;
  }
  if (r->walk == r->rows)
    return 0;
  /* The second half's rows cost what every later one does: the banks the
   * first rows open stay open for the next (the walk's start is paid
   * once). */
  npuc_tx8_ddr_walk end = *w;
  double first = (double)npuc_tx8_ddr_walk_cycles(&at_half, r->bytes_per_cycle);
  double last = (double)npuc_tx8_ddr_walk_cycles(&end, r->bytes_per_cycle);
  double per_row = (last - first) / (double)(r->walk - half);
  return per_row * (double)(r->rows - r->walk);
}

double npuc_tx8_ddr_region_cycles(const int64_t *shape, int dim,
                                  npuc_tx8_dtype dt, npuc_tx8_layout_mode mode,
                                  const int32_t *start, const int32_t *size,
                                  int64_t bank_bytes, double bytes_per_cycle,
                                  int64_t max_rows) {
  if (dim < 1 || dim > 8)
    return 0;
  int64_t rows = 1;
  for (int d = 0; d < dim; ++d) {
    if (size[d] <= 0 || shape[d] <= 0)
      return 0;
    if (d < dim - 1)
      rows *= size[d];
  }
  npuc_tx8_layout l =
      npuc_tx8_layout_of(npuc_tx8_dims_of_shape(shape, dim, mode), dt, mode);
  region_walk r = {&l,
                   shape,
                   dim,
                   (mode == NPUC_TX8_NTENSOR || mode == NPUC_TX8_NCX) &&
                       dim >= 2,
                   start,
                   size,
                   rows,
                   max_rows > 1 && max_rows < rows ? max_rows : rows,
                   bytes_per_cycle};
  npuc_tx8_ddr_walk w;
  npuc_tx8_ddr_walk_start(&w, bank_bytes);
  /* The C model's slice DMA order (lib/Runtime/tx8/slice.c): row by row
   * in a compact layout, block by block in an aligned one. */
  double later = 0;
  int64_t c_end = size[dim - 1];
  if (!npuc_tx8_is_aligned(mode))
    later = walk_rows(&r, &w, 0, c_end);
  for (int64_t c = 0; npuc_tx8_is_aligned(mode) && c < c_end;) {
    int64_t left = run_left(&l, start[dim - 1] + c);
    int64_t next = c + left < c_end ? c + left : c_end;
    later += walk_rows(&r, &w, c, next);
    c = next;
  }
  double total = (double)npuc_tx8_ddr_walk_cycles(&w, bytes_per_cycle) + later;
  return total > 0 ? total : 0;
}
