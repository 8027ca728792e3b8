/* Tx8Layout: sizes and addresses of tensors in the TX8 memory layouts
 * (docs/tx8.md). Plain C, no MLIR: the compiler (SPM allocation) and the C
 * model op library (libnpuc_tx8_rt) both compute addresses with it.
 *
 * Every layout sees a tensor as N batches of HW rows of C channels, C being
 * the last dimension:
 *   Tensor, NTensor  compact, row-major: batch n, row hw, channel c is
 *                    element (n * HW + hw) * C + c.
 *   Cx, NCx          aligned for the hardware. A batch is Cx blocks of
 *                    HW x B channels followed by HW rows of C0 channels:
 *                    N[Cx*HW*B, HW*C0], B = 64 (128 for int8), Cx = C / B,
 *                    C0 = C % B, each row of the C0 part padded to 4, 8,
 *                    16, 32 (int8: also 64) or B channels; when C fits in
 *                    one padded row (C <= 32, int8: C <= 64) that is plain
 *                    NHWC with C padded. Each batch starts on a 2048-bit
 *                    (256-byte) boundary.
 * The N- and non-N layouts differ only in how a shape maps to (N, HW, C):
 * NTensor/NCx take dimension 0 as N, Tensor/Cx fold it into HW
 * (npuc_tx8_dims_of_shape). */
#ifndef NPUC_TX8_LAYOUT_H
#define NPUC_TX8_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

typedef enum {
  NPUC_TX8_F16,
  NPUC_TX8_BF16,
  NPUC_TX8_F32,
  NPUC_TX8_I8,
} npuc_tx8_dtype;

typedef enum {
  NPUC_TX8_TENSOR,
  NPUC_TX8_NTENSOR,
  NPUC_TX8_CX,
  NPUC_TX8_NCX,
} npuc_tx8_layout_mode;

/* Where each batch of an aligned layout starts: 2048 bits. */
#define NPUC_TX8_BATCH_ALIGN_BYTES 256

typedef struct {
  int64_t n, hw, c;
} npuc_tx8_dims;

/* A tensor's placement in one layout; see npuc_tx8_layout_of. */
typedef struct {
  npuc_tx8_dims dims;
  npuc_tx8_dtype dtype;
  npuc_tx8_layout_mode mode;
  int64_t elem_bytes;
  int64_t block;    /* channels per full block: 64 (int8: 128); C if compact */
  int64_t cx;       /* full blocks; 0 if compact */
  int64_t c0;       /* channels after the full blocks */
  int64_t c0_align; /* c0 padded (0 when c0 is 0); c0 if compact */
  int64_t batch_bytes;  /* bytes of one batch, padding included */
  int64_t batch_stride; /* bytes from one batch's start to the next's */
  int64_t total_bytes;  /* n * batch_stride */
} npuc_tx8_layout;

/* A run of channels of one row that is contiguous in memory: channels
 * [c_first, c_first + count) of row (n, hw) start at byte `offset`. */
typedef struct {
  int64_t offset;
  int64_t c_first;
  int64_t count;
} npuc_tx8_run;

int64_t npuc_tx8_dtype_bytes(npuc_tx8_dtype dt);
const char *npuc_tx8_dtype_name(npuc_tx8_dtype dt);
const char *npuc_tx8_layout_name(npuc_tx8_layout_mode mode);
bool npuc_tx8_is_aligned(npuc_tx8_layout_mode mode);
/* The aligned layout of a compact one and back (Tensor <-> Cx, NTensor <->
 * NCx); aligned_of(Cx) is Cx. */
npuc_tx8_layout_mode npuc_tx8_aligned_of(npuc_tx8_layout_mode mode);
npuc_tx8_layout_mode npuc_tx8_compact_of(npuc_tx8_layout_mode mode);

/* The channels one row of an aligned layout occupies: Cx full blocks plus
 * C0 padded to 4, 8, 16, 32 (int8: also 64) or the block width. */
int64_t npuc_tx8_padded_channels(int64_t c, npuc_tx8_dtype dt);

/* (N, HW, C) of a tensor of `rank` dimensions in `mode`. Rank 0 and 1 have
 * N = HW = 1. An HW product past int64 is INT64_MAX. */
npuc_tx8_dims npuc_tx8_dims_of_shape(const int64_t *shape, int rank,
                                     npuc_tx8_layout_mode mode);

/* The placement of a tensor of `dims` and `dt` in `mode`. Sizes must be
 * positive. Computed with npuc/Checked.h: when a size does not fit int64,
 * batch_bytes, batch_stride and total_bytes are INT64_MAX (no memory holds
 * it; the compiler refuses such tensors in tx8-layout-init first). */
npuc_tx8_layout npuc_tx8_layout_of(npuc_tx8_dims dims, npuc_tx8_dtype dt,
                                   npuc_tx8_layout_mode mode);

/* Byte offset of element (n, hw, c). */
int64_t npuc_tx8_offset(const npuc_tx8_layout *l, int64_t n, int64_t hw,
                        int64_t c);

/* The contiguous channel runs of a row: run `i` of npuc_tx8_num_runs. A
 * compact row is one run; an aligned row one per block plus the C0 part. */
int64_t npuc_tx8_num_runs(const npuc_tx8_layout *l);
npuc_tx8_run npuc_tx8_row_run(const npuc_tx8_layout *l, int64_t n, int64_t hw,
                              int64_t i);

/* Input dimension d of an output slice: whole (out_dim < 0), or the
 * indices [s * scale + offset, (s + len - 1) * scale + offset + extent)
 * of output dimension out_dim's slice [s, s + len), clipped to the
 * tensor. Identity: {d, 1, 0, 1}; a convolution row: {1, stride,
 * -pad_top, (kernel - 1) * dilation + 1}. */
typedef struct {
  int32_t out_dim;
  int32_t scale, offset, extent;
} npuc_tx8_window;

/* The largest slice of an input through `windows` for output slices of
 * at most `out_slice` (what a buffer for it must hold). */
void npuc_tx8_window_max(const npuc_tx8_window *windows, const int32_t *whole,
                         int32_t dim, const int32_t *out_slice, int32_t *max);

/* The (N, HW, C) of a tensor of `dim` dimensions `shape` in `mode`: what
 * npuc_tx8_dims_of_shape gives for int32 dimensions (slice shapes). */
npuc_tx8_dims npuc_tx8_dims_of_shape32(const int32_t *shape, int32_t dim,
                                       npuc_tx8_layout_mode mode);

/* The scratch op_batchnorm_inference needs for an input of `dims` in
 * `mode`: an fp32 copy of it and the [C] unit vector, each 2048-bit
 * aligned (npuc_tx8_batchnorm_imm_bytes). */
int64_t npuc_tx8_batchnorm_imm_size(npuc_tx8_dims dims,
                                    npuc_tx8_layout_mode mode);

#endif
