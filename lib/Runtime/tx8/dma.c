/* Data movement: RDMA (DDR -> SPM), WDMA (SPM -> DDR) and the TDMA
 * channel norm (SPM -> SPM). All three copy between any two layouts of
 * the same tensor, one row at a time, in the longest pieces contiguous on
 * both sides, as a gather/scatter DMA descriptor would. */
#include "internal.h"

#include <string.h>

static void convert_layout(const char *op, const npuc_tx8_tsr *dst,
                           const npuc_tx8_tsr *src);
static void copy_row(const npuc_tx8_tsr *dst, const npuc_tx8_tsr *src,
                     int64_t n, int64_t hw);

uint64_t op_dma_load(const npuc_tx8_tsr *dst, const npuc_tx8_tsr *src) {
  convert_layout("op_dma_load", dst, src);
  return npuc_tx8_cycles_rdma(src->layout.total_bytes);
}

uint64_t op_dma_store(const npuc_tx8_tsr *dst, const npuc_tx8_tsr *src) {
  convert_layout("op_dma_store", dst, src);
  return npuc_tx8_cycles_wdma(dst->layout.total_bytes);
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
    memcpy(tx8_at(dst, npuc_tx8_offset(dl, n, hw, c)),
           tx8_at(src, npuc_tx8_offset(sl, n, hw, c)),
           (size_t)(len * sl->elem_bytes));
    c += len;
  }
}
