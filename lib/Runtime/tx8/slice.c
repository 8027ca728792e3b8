/* Slices: the tile regions and temporal slices generated main.c loops
 * over (G_SHAPE, L_SHAPE), input windows, and the DMA of one slice of a
 * whole DDR tensor to and from SPM. */
#include "internal.h"

#include <string.h>

static int32_t ceil_div(int32_t a, int32_t b) { return (a + b - 1) / b; }

/* ---- regions and slices
 * ------------------------------------------------------ */

bool npuc_tx8_tile_region(const int32_t *shape, const int32_t *sharding,
                          int32_t dim, int32_t tile, int32_t *start,
                          int32_t *end) {
  int32_t rest = tile;
  for (int32_t d = dim - 1; d >= 0; --d) {
    int32_t ways = sharding[d] > 0 ? sharding[d] : 1;
    int32_t chunk = ceil_div(shape[d], ways);
    int32_t i = rest % ways;
    rest /= ways;
    start[d] = i * chunk;
    end[d] = start[d] + chunk < shape[d] ? start[d] + chunk : shape[d];
    if (start[d] >= end[d])
      return false;
  }
  return rest == 0; /* tiles past the product of the splits idle */
}

void npuc_tx8_gshape_init(G_SHAPE *g, const int32_t *shape,
                          const int32_t *sharding, int32_t dim, int32_t tile) {
  memset(g, 0, sizeof *g);
  g->dim = dim;
  memcpy(g->shape, shape, (size_t)dim * sizeof *shape);
  g->done = !npuc_tx8_tile_region(shape, sharding, dim, tile, g->spatial_start,
                                  g->spatial_end);
  memcpy(g->dynamic_offset, g->spatial_start, (size_t)dim * sizeof *shape);
}

void npuc_tx8_gshape_balance(G_SHAPE *g, const int32_t *slice) {
  for (int32_t d = 0; d < g->dim; ++d)
    if (slice[d] < 1)
      npuc_tx8_fail("npuc_tx8_gshape_balance", "slice dimension %d is %d",
                    (int)d, (int)slice[d]);
  g->balanced = 1;
}

/* The length of g's slice along d that starts at its dynamic offset: of
 * n = ceil(part / slice) slices, the first n - part % n are part / n long,
 * the rest one longer. When the nominal slices overrun the part by one
 * (n * slice - part == 1) the lengths are the plain walk's anyway, only
 * their order would change: the plain walk is kept, its short slice last
 * (measured, that order ends sooner more often: the last slice's chain
 * and store end the group). */
static int32_t balanced_length(const G_SHAPE *g, const int32_t *slice,
                               int32_t d) {
  int32_t part = g->spatial_end[d] - g->spatial_start[d];
  int32_t n = ceil_div(part, slice[d]), q = part / n;
  int32_t at = g->dynamic_offset[d] - g->spatial_start[d];
  if ((int64_t)n * slice[d] - part < 2)
    return slice[d] < part - at ? slice[d] : part - at;
  return at < (n - part % n) * q ? q : q + 1;
}

bool npuc_tx8_gshape_next(G_SHAPE *g, const int32_t *slice, L_SHAPE *out) {
  if (g->done)
    return false;
  memset(out, 0, sizeof *out);
  out->dim = g->dim;
  int32_t len[NPUC_TX8_MAX_SHAPE_DIM];
  for (int32_t d = 0; d < g->dim; ++d) {
    int32_t at = g->dynamic_offset[d], left = g->spatial_end[d] - at;
    len[d] = g->balanced ? balanced_length(g, slice, d)
                         : (slice[d] < left ? slice[d] : left);
    out->shape_whole[d] = g->shape[d];
    out->shape_start[d] = at;
    out->shape_slice[d] = slice[d];
    out->shape_real[d] = len[d];
  }
  /* Advance like an odometer, the last dimension fastest. */
  int32_t d = g->dim - 1;
  for (; d >= 0; --d) {
    g->dynamic_offset[d] += len[d];
    if (g->dynamic_offset[d] < g->spatial_end[d])
      break;
    g->dynamic_offset[d] = g->spatial_start[d];
  }
  g->done = d < 0;
  return true;
}

/* [first, last) of window w for output slice [s, s + len), unclipped. */
static void window_range(const npuc_tx8_window *w, int32_t s, int32_t len,
                         int32_t *first, int32_t *last) {
  *first = s * w->scale + w->offset;
  *last = (s + len - 1) * w->scale + w->offset + w->extent;
}

void npuc_tx8_lshape_window(const L_SHAPE *out, const npuc_tx8_window *windows,
                            const int32_t *whole, int32_t dim, L_SHAPE *in,
                            int32_t *clipped) {
  memset(in, 0, sizeof *in);
  in->dim = dim;
  for (int32_t d = 0; d < dim; ++d) {
    const npuc_tx8_window *w = &windows[d];
    int32_t first = 0, last = whole[d], nominal = whole[d];
    if (w->out_dim >= 0) {
      int32_t od = w->out_dim;
      window_range(w, out->shape_start[od], out->shape_real[od], &first, &last);
      nominal = (out->shape_slice[od] - 1) * w->scale + w->extent;
    }
    int32_t lo = first < 0 ? 0 : first, hi = last > whole[d] ? whole[d] : last;
    in->shape_whole[d] = whole[d];
    in->shape_start[d] = lo;
    in->shape_slice[d] = nominal < whole[d] ? nominal : whole[d];
    in->shape_real[d] = hi > lo ? hi - lo : 0;
    if (clipped)
      clipped[d] = lo - first;
  }
}

TSR npuc_tx8_tsr_of_shape(void *data, const int32_t *shape, int32_t dim,
                          npuc_tx8_dtype dt, npuc_tx8_layout_mode mode) {
  return npuc_tx8_tsr_make(data, npuc_tx8_dims_of_shape32(shape, dim, mode), dt,
                           mode);
}

TSR npuc_tx8_tsr_of_lshape(void *data, const L_SHAPE *l, npuc_tx8_dtype dt,
                           npuc_tx8_layout_mode mode) {
  return npuc_tx8_tsr_of_shape(data, l->shape_real, l->dim, dt, mode);
}

/* ---- DMA of a slice
 * ------------------------------------------------------------ */

/* One side of a region copy: a tensor, the shape its layout was made
 * from, and where the region starts in it. */
typedef struct {
  const TSR *t;
  const int32_t *shape;
  const int32_t *start;
} side;

static void copy_region(const char *op, const side *dst, const side *src,
                        const side *ddr, const int32_t *size, int32_t dim);

/* The copy of a slice load, named `op` in errors; the caller charges it. */
static void load_region(const char *op, const TSR *spm, const TSR *whole,
                        const L_SHAPE *l) {
  static const int32_t zero[NPUC_TX8_MAX_SHAPE_DIM];
  side dst = {spm, l->shape_real, zero};
  side src = {whole, l->shape_whole, l->shape_start};
  /* The slice is all of spm, so its padding is ours to zero; a store
   * leaves the whole tensor's padding to whoever owns it. */
  npuc_tx8i_check_tsr(op, "spm", spm);
  npuc_tx8i_clear_padding(spm);
  copy_region(op, &dst, &src, &src, l->shape_real, l->dim);
}

uint64_t op_dma_load_slice(const TSR *spm, const TSR *whole, const L_SHAPE *l) {
  npuc_tx8i_ddr_begin();
  load_region("op_dma_load_slice", spm, whole, l);
  uint64_t extra = npuc_tx8i_ddr_end();
  return npuc_tx8_cycles_rdma(spm->layout.total_bytes) +
         npuc_tx8_cycles_ddr_extra(false, extra);
}

static int32_t shared_rows(const L_SHAPE *l, const L_SHAPE *prev_l,
                           int32_t *dim);

static int32_t kept_rows(const TSR *spm, const L_SHAPE *l, const TSR *prev,
                         const L_SHAPE *prev_l, int32_t *dim);
static uint64_t load_rest(const TSR *spm, const TSR *whole, const L_SHAPE *l,
                          int32_t h, int32_t kept);
static int64_t copy_kept(const TSR *spm, const L_SHAPE *l, const TSR *prev,
                         const L_SHAPE *prev_l, int32_t h, int32_t kept);

uint64_t op_dma_load_slice_after(const TSR *spm, const TSR *whole,
                                 const L_SHAPE *l, const TSR *prev,
                                 const L_SHAPE *prev_l) {
  int32_t h, kept = kept_rows(spm, l, prev, prev_l, &h);
  if (kept <= 0)
    return op_dma_load_slice(spm, whole, l);
  uint64_t extra = load_rest(spm, whole, l, h, kept);
  int64_t copied = copy_kept(spm, l, prev, prev_l, h, kept);
  /* On the timeline the copy comes first (its source is in SPM already),
   * then the DMA: charged in that order. */
  uint64_t cycles = npuc_tx8_cycles_tdma(2 * copied);
  cycles += npuc_tx8_cycles_rdma(spm->layout.total_bytes - copied);
  return cycles + npuc_tx8_cycles_ddr_extra(false, extra);
}

uint64_t op_dma_load_slice_rest(const TSR *spm, const TSR *whole,
                                const L_SHAPE *l, const TSR *prev,
                                const L_SHAPE *prev_l) {
  int32_t h, kept = kept_rows(spm, l, prev, prev_l, &h);
  if (kept <= 0)
    return op_dma_load_slice(spm, whole, l);
  uint64_t extra = load_rest(spm, whole, l, h, kept);
  int64_t bytes = spm->layout.total_bytes;
  int64_t copied = bytes * kept / l->shape_real[h];
  return npuc_tx8_cycles_rdma(bytes - copied) +
         npuc_tx8_cycles_ddr_extra(false, extra);
}

uint64_t op_copy_kept_rows(const TSR *spm, const L_SHAPE *l, const TSR *prev,
                           const L_SHAPE *prev_l) {
  int32_t h, kept = kept_rows(spm, l, prev, prev_l, &h);
  if (kept <= 0)
    return 0;
  return npuc_tx8_cycles_tdma(2 * copy_kept(spm, l, prev, prev_l, h, kept));
}

static int kept_ranges(const TSR *spm, int32_t rows, int64_t inner,
                       npuc_tx8_tl_range *out);

int npuc_tx8_tl_kept_rows(const TSR *spm, const L_SHAPE *l, const TSR *prev,
                          const L_SHAPE *prev_l, bool kept,
                          npuc_tx8_tl_range *out) {
  int32_t h = -1, rows = kept_rows(spm, l, prev, prev_l, &h);
  const npuc_tx8_layout *lay = &spm->layout;
  bool batched = lay->mode == NPUC_TX8_NTENSOR || lay->mode == NPUC_TX8_NCX;
  int64_t outer = 1, inner = 1; /* rows of HW before h's, in each of h's */
  for (int32_t d = batched ? 1 : 0; d < h; ++d)
    outer *= l->shape_real[d];
  for (int32_t d = h + 1; d + 1 < l->dim; ++d)
    inner *= l->shape_real[d];
  int n = 0;
  if (rows > 0 && h >= (batched ? 1 : 0) && h + 1 < l->dim && outer == 1 &&
      lay->dims.n * npuc_tx8_num_runs(lay) < NPUC_TX8_TL_MAX_RANGES)
    n = kept_ranges(spm, rows, inner, out);
  if (n == 0) {
    out[0] = npuc_tx8_tl_tsr(spm);
    return 1;
  }
  if (kept)
    return n;
  /* The rest: what lies between them (they are in address order). */
  npuc_tx8_tl_range held[NPUC_TX8_TL_MAX_RANGES];
  memcpy(held, out, (size_t)n * sizeof *held);
  const char *at = spm->data, *end = at + lay->total_bytes;
  int m = 0;
  for (int i = 0; i < n; at = (const char *)held[i].at + held[i].bytes, ++i)
    if ((const char *)held[i].at > at)
      out[m++] = (npuc_tx8_tl_range){at, (const char *)held[i].at - at};
  if (end > at)
    out[m++] = (npuc_tx8_tl_range){at, end - at};
  return m;
}

/* The first `rows` rows (each `inner` rows of HW) of every batch's every
 * channel run of spm: one range each, in address order. */
static int kept_ranges(const TSR *spm, int32_t rows, int64_t inner,
                       npuc_tx8_tl_range *out) {
  const npuc_tx8_layout *lay = &spm->layout;
  const char *base = spm->data;
  int n = 0;
  for (int64_t b = 0; b < lay->dims.n; ++b)
    for (int64_t i = 0; i < npuc_tx8_num_runs(lay); ++i) {
      int64_t lo = npuc_tx8_row_run(lay, b, 0, i).offset;
      int64_t hi = npuc_tx8_row_run(lay, b, rows * inner, i).offset;
      out[n++] = (npuc_tx8_tl_range){base + lo, hi - lo};
    }
  return n;
}

/* The rows `l` shares with prev_l along *dim (shared_rows) when prev
 * holds them in spm's dtype; else 0. */
static int32_t kept_rows(const TSR *spm, const L_SHAPE *l, const TSR *prev,
                         const L_SHAPE *prev_l, int32_t *dim) {
  if (prev->layout.dtype != spm->layout.dtype)
    return 0;
  return shared_rows(l, prev_l, dim);
}

/* Zeroes spm's padding and reads the rows of slice l past the first
 * `kept` along h from DDR, in the DMA's walk order; returns the DDR
 * placement's extra cycles. */
static uint64_t load_rest(const TSR *spm, const TSR *whole, const L_SHAPE *l,
                          int32_t h, int32_t kept) {
  npuc_tx8i_check_tsr("op_dma_load_slice_after", "spm", spm);
  npuc_tx8i_clear_padding(spm);
  int32_t size[NPUC_TX8_MAX_SHAPE_DIM], at[NPUC_TX8_MAX_SHAPE_DIM] = {0};
  int32_t ddr_at[NPUC_TX8_MAX_SHAPE_DIM];
  for (int32_t d = 0; d < l->dim; ++d)
    size[d] = l->shape_real[d], ddr_at[d] = l->shape_start[d];
  size[h] = l->shape_real[h] - kept;
  at[h] = kept;
  ddr_at[h] += kept;
  side rest = {spm, l->shape_real, at}, ddr = {whole, l->shape_whole, ddr_at};
  npuc_tx8i_ddr_begin();
  copy_region("op_dma_load_slice_after", &rest, &ddr, &ddr, size, l->dim);
  return npuc_tx8i_ddr_end();
}

/* Copies rows [kept_at, kept_at + kept) of prev, the first `kept` of the
 * new slice, into spm; returns the bytes they take in spm (by rows: the
 * slice's padding spreads over them alike). */
static int64_t copy_kept(const TSR *spm, const L_SHAPE *l, const TSR *prev,
                         const L_SHAPE *prev_l, int32_t h, int32_t kept) {
  static const int32_t zero[NPUC_TX8_MAX_SHAPE_DIM];
  npuc_tx8i_check_tsr("op_dma_load_slice_after", "spm", spm);
  int32_t size[NPUC_TX8_MAX_SHAPE_DIM], from[NPUC_TX8_MAX_SHAPE_DIM] = {0};
  for (int32_t d = 0; d < l->dim; ++d)
    size[d] = l->shape_real[d];
  size[h] = kept;
  from[h] = l->shape_start[h] - prev_l->shape_start[h];
  side dst = {spm, l->shape_real, zero}, src = {prev, prev_l->shape_real, from};
  copy_region("op_dma_load_slice_after", &dst, &src, &dst, size, l->dim);
  return spm->layout.total_bytes * kept / l->shape_real[h];
}

/* The rows slice `l` shares with `prev_l` along the one dimension (*dim)
 * where they differ, when it starts inside prev_l's window there and ends
 * past it; 0 when they differ elsewhere too, or share nothing. */
static int32_t shared_rows(const L_SHAPE *l, const L_SHAPE *prev_l,
                           int32_t *dim) {
  if (l->dim != prev_l->dim || l->dim < 1 || l->dim > NPUC_TX8_MAX_SHAPE_DIM)
    return 0;
  *dim = -1;
  for (int32_t d = 0; d < l->dim; ++d) {
    if (l->shape_whole[d] != prev_l->shape_whole[d])
      return 0;
    if (l->shape_start[d] == prev_l->shape_start[d] &&
        l->shape_real[d] == prev_l->shape_real[d])
      continue;
    if (*dim >= 0)
      return 0;
    *dim = d;
  }
  if (*dim < 0)
    return 0;
  int32_t d = *dim, start = l->shape_start[d], old = prev_l->shape_start[d];
  int32_t old_end = old + prev_l->shape_real[d];
  if (start <= old || start >= old_end || start + l->shape_real[d] <= old_end)
    return 0;
  return old_end - start;
}

uint64_t op_dma_load_shared(const TSR *spm, const TSR *whole, const L_SHAPE *l,
                            int32_t part, int32_t parts) {
  if (parts < 1 || part < 0 || part >= parts)
    npuc_tx8_fail("op_dma_load_shared", "tile %d of %d", (int)part, (int)parts);
  return op_dma_load_shared_among(spm, whole, l, part, parts, 1);
}

uint64_t op_dma_load_shared_among(const TSR *spm, const TSR *whole,
                                  const L_SHAPE *l, int32_t tile,
                                  int32_t members, int32_t stride) {
  if (members < 1 || stride < 1 || tile < 0)
    npuc_tx8_fail("op_dma_load_shared", "tile %d of %d members %d apart",
                  (int)tile, (int)members, (int)stride);
  int64_t bytes = spm->layout.total_bytes;
  int32_t part = (tile / stride) % members, first = tile - part * stride;
  if (!npuc_tx8_cycles_shared_load_among(bytes, members, first, stride))
    return op_dma_load_slice(spm, whole, l);
  npuc_tx8i_ddr_begin();
  load_region("op_dma_load_shared", spm, whole, l);
  /* This tile's share: the parts' sizes add up to the tensor's bytes;
   * its placement penalty is its share of the whole read's. */
  int64_t share = bytes * (part + 1) / members - bytes * part / members;
  uint64_t extra = npuc_tx8i_ddr_end();
  extra = (extra * (uint64_t)share + (uint64_t)bytes - 1) /
          (uint64_t)(bytes > 0 ? bytes : 1);
  /* In this order on the timeline: the DMA's whole part (its bytes and
   * where they lie), then the gather, so the next load's DMA may run
   * while the NoC forwards this one. */
  uint64_t dma =
      npuc_tx8_cycles_rdma(share) + npuc_tx8_cycles_ddr_extra(false, extra);
  return dma + npuc_tx8_cycles_noc_among(bytes, members, first, stride);
}

uint64_t op_dma_store_slice(const TSR *whole, const TSR *spm,
                            const L_SHAPE *l) {
  static const int32_t zero[NPUC_TX8_MAX_SHAPE_DIM];
  side dst = {whole, l->shape_whole, l->shape_start};
  side src = {spm, l->shape_real, zero};
  npuc_tx8i_ddr_begin();
  copy_region("op_dma_store_slice", &dst, &src, &dst, l->shape_real, l->dim);
  uint64_t extra = npuc_tx8i_ddr_end();
  return npuc_tx8_cycles_wdma(spm->layout.total_bytes) +
         npuc_tx8_cycles_ddr_extra(true, extra);
}

static bool batched(const TSR *t) {
  return t->layout.mode == NPUC_TX8_NTENSOR || t->layout.mode == NPUC_TX8_NCX;
}

/* (n, hw) of the row at `idx` (dims 0 .. dim-2) of one side. */
static void row_of(const side *s, const int32_t *idx, int32_t dim, int64_t *n,
                   int64_t *hw) {
  int32_t first = batched(s->t) && dim >= 2 ? 1 : 0;
  *n = first ? s->start[0] + idx[0] : 0;
  *hw = 0;
  for (int32_t d = first; d < dim - 1; ++d)
    *hw = *hw * s->shape[d] + s->start[d] + idx[d];
}

/* Channels from c to the end of c's contiguous run. */
static int64_t run_left(const npuc_tx8_layout *l, int64_t c) {
  if (c < l->cx * l->block)
    return l->block - c % l->block;
  return l->dims.c - c;
}

static void check_side(const char *op, const char *what, const side *s,
                       const int32_t *size, int32_t dim) {
  npuc_tx8i_check_tsr(op, what, s->t);
  int64_t shape[NPUC_TX8_MAX_SHAPE_DIM];
  for (int32_t d = 0; d < dim; ++d) {
    shape[d] = s->shape[d];
    if (s->start[d] < 0 || size[d] < 0 || s->start[d] + size[d] > s->shape[d])
      npuc_tx8_fail(op, "%s: slice [%d, %d) of dimension %d is outside 0..%d",
                    what, s->start[d], s->start[d] + size[d], d, s->shape[d]);
  }
  npuc_tx8_dims want = npuc_tx8_dims_of_shape(shape, dim, s->t->layout.mode),
                have = s->t->layout.dims;
  if (want.n != have.n || want.hw != have.hw || want.c != have.c)
    npuc_tx8_fail(op, "%s: the tensor does not have the slice's shape", what);
}

/* The rows of the region, channels [c_begin, c_end) of each, in pieces
 * contiguous on both sides. */
static void copy_rows(const side *dst, const side *src, const int32_t *size,
                      int32_t dim, int64_t c_begin, int64_t c_end) {
  const npuc_tx8_layout *dl = &dst->t->layout, *sl = &src->t->layout;
  int32_t idx[NPUC_TX8_MAX_SHAPE_DIM] = {0};
  int64_t c_dst0 = dst->start[dim - 1], c_src0 = src->start[dim - 1];
  for (;;) {
    int64_t dn, dhw, sn, shw;
    row_of(dst, idx, dim, &dn, &dhw);
    row_of(src, idx, dim, &sn, &shw);
    for (int64_t c = c_begin; c < c_end;) {
      int64_t len = c_end - c;
      int64_t dl_left = run_left(dl, c_dst0 + c),
              sl_left = run_left(sl, c_src0 + c);
      len = len < dl_left ? len : dl_left;
      len = len < sl_left ? len : sl_left;
      char *to = tx8_at(dst->t, npuc_tx8_offset(dl, dn, dhw, c_dst0 + c));
      const char *from =
          tx8_at(src->t, npuc_tx8_offset(sl, sn, shw, c_src0 + c));
      memcpy(to, from, (size_t)(len * sl->elem_bytes));
      npuc_tx8i_ddr_note(to, len * sl->elem_bytes);
      npuc_tx8i_ddr_note(from, len * sl->elem_bytes);
      c += len;
    }
    int32_t d = dim - 2;
    for (; d >= 0; --d) {
      if (++idx[d] < size[d])
        break;
      idx[d] = 0;
    }
    if (d < 0)
      return;
  }
}

/* `ddr` is the whole tensor's side. In a compact DDR layout the region
 * goes row by row; in an aligned one (Cx/NCx) block by block, each
 * block's rows in turn, so that the rows of a block, contiguous in DDR,
 * make one run (a DMA descriptor per block; the order
 * npuc_tx8_ddr_region_cycles walks too). */
static void copy_region(const char *op, const side *dst, const side *src,
                        const side *ddr, const int32_t *size, int32_t dim) {
  if (dim < 1 || dim > NPUC_TX8_MAX_SHAPE_DIM)
    npuc_tx8_fail(op, "%d dimensions", dim);
  check_side(op, "dst", dst, size, dim);
  check_side(op, "src", src, size, dim);
  npuc_tx8i_check_dtype(op, "dst", dst->t, src->t->layout.dtype);
  for (int32_t d = 0; d < dim; ++d)
    if (size[d] == 0)
      return;
  const npuc_tx8_layout *l = &ddr->t->layout;
  int64_t c0 = ddr->start[dim - 1], c_end = size[dim - 1];
  if (!npuc_tx8_is_aligned(l->mode)) {
    copy_rows(dst, src, size, dim, 0, c_end);
    return;
  }
  for (int64_t c = 0; c < c_end;) {
    int64_t left = run_left(l, c0 + c);
    int64_t next = c + left < c_end ? c + left : c_end;
    copy_rows(dst, src, size, dim, c, next);
    c = next;
  }
}
