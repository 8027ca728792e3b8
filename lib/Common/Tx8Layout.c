/* The TX8 memory layouts: sizes, element offsets and contiguous runs, the
 * input windows of a slice and the batchnorm scratch. The rules are the
 * seed's (include/npuc/Tx8Layout.h, docs/tx8.md). Plain C shared by the
 * compiler (npuc_common) and the C model (compiled into libnpuc_hivm_rt,
 * which libnpuc_tx8_rt links). */
#include "npuc/Tx8Layout.h"
#include "npuc/Checked.h"

/* Sizes past int64 saturate to INT64_MAX (npuc_tx8_layout_of). */
static int64_t sat_mul(int64_t a, int64_t b) {
  int64_t r;
  return npuc_checked_mul(a, b, &r) ? r : INT64_MAX;
}

static int64_t sat_add(int64_t a, int64_t b) {
  int64_t r;
  return npuc_checked_add(a, b, &r) ? r : INT64_MAX;
}

static int64_t align_batch(int64_t bytes) {
  int64_t r;
  return npuc_checked_align_up(bytes, NPUC_TX8_BATCH_ALIGN_BYTES, &r)
             ? r
             : INT64_MAX;
}

/* Each dtype's size in bytes and name, and each layout's name. */
static const struct {
  int64_t bytes;
  const char *name;
} dtypes[] = {
    [NPUC_TX8_F16] = {2, "f16"},
    [NPUC_TX8_BF16] = {2, "bf16"},
    [NPUC_TX8_F32] = {4, "f32"},
    [NPUC_TX8_I8] = {1, "i8"},
};
static const char *const layout_names[] = {
    [NPUC_TX8_TENSOR] = "Tensor",
    [NPUC_TX8_NTENSOR] = "NTensor",
    [NPUC_TX8_CX] = "Cx",
    [NPUC_TX8_NCX] = "NCx",
};

static bool dtype_known(npuc_tx8_dtype dt) {
  return (unsigned)dt < sizeof dtypes / sizeof dtypes[0];
}

int64_t npuc_tx8_dtype_bytes(npuc_tx8_dtype dt) {
  return dtype_known(dt) ? dtypes[dt].bytes : 0;
}

const char *npuc_tx8_dtype_name(npuc_tx8_dtype dt) {
  return dtype_known(dt) ? dtypes[dt].name : "<invalid dtype>";
}

const char *npuc_tx8_layout_name(npuc_tx8_layout_mode mode) {
  return (unsigned)mode < sizeof layout_names / sizeof layout_names[0]
             ? layout_names[mode]
             : "<invalid layout>";
}

bool npuc_tx8_is_aligned(npuc_tx8_layout_mode mode) {
  return mode == NPUC_TX8_CX || mode == NPUC_TX8_NCX;
}

static bool is_batched(npuc_tx8_layout_mode mode) {
  return mode == NPUC_TX8_NTENSOR || mode == NPUC_TX8_NCX;
}

npuc_tx8_layout_mode npuc_tx8_aligned_of(npuc_tx8_layout_mode mode) {
  return is_batched(mode) ? NPUC_TX8_NCX : NPUC_TX8_CX;
}

npuc_tx8_layout_mode npuc_tx8_compact_of(npuc_tx8_layout_mode mode) {
  return is_batched(mode) ? NPUC_TX8_NTENSOR : NPUC_TX8_TENSOR;
}

/* int8 moves twice the channels per 2048-bit access, so its blocks and
 * largest padded row are twice as wide. */
static int64_t block_width(npuc_tx8_dtype dt) {
  return dt == NPUC_TX8_I8 ? 128 : 64;
}

/* The C0 part's row: the next of 4, 8, 16, ... (a power of two, at most
 * the block width since c0 < block). */
static int64_t pad_c0(int64_t c0) {
  if (c0 <= 0)
    return 0;
  int64_t padded = 4;
  while (padded < c0)
    padded *= 2;
  return padded;
}

int64_t npuc_tx8_padded_channels(int64_t c, npuc_tx8_dtype dt) {
  int64_t block = block_width(dt);
  return c / block * block + pad_c0(c % block);
}

/* Dimension i of a shape of int64 (wide) or int32 dimensions. */
static int64_t dim_at(const void *shape, bool wide, int i) {
  return wide ? ((const int64_t *)shape)[i] : ((const int32_t *)shape)[i];
}

static npuc_tx8_dims dims_of(const void *shape, bool wide, int rank,
                             npuc_tx8_layout_mode mode) {
  npuc_tx8_dims d = {1, 1, rank > 0 ? dim_at(shape, wide, rank - 1) : 1};
  int first = 0;
  if (is_batched(mode) && rank >= 2) {
    d.n = dim_at(shape, wide, 0);
    first = 1;
  }
  for (int i = first; i < rank - 1; ++i)
    d.hw = sat_mul(d.hw, dim_at(shape, wide, i));
  return d;
}

npuc_tx8_dims npuc_tx8_dims_of_shape(const int64_t *shape, int rank,
                                     npuc_tx8_layout_mode mode) {
  return dims_of(shape, true, rank, mode);
}

npuc_tx8_dims npuc_tx8_dims_of_shape32(const int32_t *shape, int32_t dim,
                                       npuc_tx8_layout_mode mode) {
  return dims_of(shape, false, dim, mode);
}

npuc_tx8_layout npuc_tx8_layout_of(npuc_tx8_dims dims, npuc_tx8_dtype dt,
                                   npuc_tx8_layout_mode mode) {
  npuc_tx8_layout l = {0};
  l.dims = dims;
  l.dtype = dt;
  l.mode = mode;
  l.elem_bytes = npuc_tx8_dtype_bytes(dt);
  if (!npuc_tx8_is_aligned(mode)) {
    l.block = l.c0 = l.c0_align = dims.c;
    l.batch_bytes = l.batch_stride =
        sat_mul(sat_mul(dims.hw, dims.c), l.elem_bytes);
    l.total_bytes = sat_mul(dims.n, l.batch_stride);
    return l;
  }
  l.block = block_width(dt);
  l.cx = dims.c / l.block;
  l.c0 = dims.c % l.block;
  l.c0_align = pad_c0(l.c0);
  l.batch_bytes = sat_mul(sat_add(sat_mul(sat_mul(l.cx, dims.hw), l.block),
                                  sat_mul(dims.hw, l.c0_align)),
                          l.elem_bytes);
  l.batch_stride = align_batch(l.batch_bytes);
  l.total_bytes = sat_mul(dims.n, l.batch_stride);
  return l;
}

int64_t npuc_tx8_offset(const npuc_tx8_layout *l, int64_t n, int64_t hw,
                        int64_t c) {
  int64_t base = n * l->batch_stride;
  int64_t block = c / l->block;
  int64_t elem;
  if (block < l->cx)
    elem = (block * l->dims.hw + hw) * l->block + c % l->block;
  else
    elem = l->cx * l->dims.hw * l->block + hw * l->c0_align +
           (c - l->cx * l->block);
  return base + elem * l->elem_bytes;
}

int64_t npuc_tx8_num_runs(const npuc_tx8_layout *l) {
  return l->cx + (l->c0 > 0 ? 1 : 0);
}

npuc_tx8_run npuc_tx8_row_run(const npuc_tx8_layout *l, int64_t n, int64_t hw,
                              int64_t i) {
  npuc_tx8_run r;
  r.c_first = i * l->block;
  r.count = i < l->cx ? l->block : l->c0;
  r.offset = npuc_tx8_offset(l, n, hw, r.c_first);
  return r;
}

void npuc_tx8_window_max(const npuc_tx8_window *windows, const int32_t *whole,
                         int32_t dim, const int32_t *out_slice, int32_t *max) {
  for (int32_t d = 0; d < dim; ++d) {
    const npuc_tx8_window *w = &windows[d];
    /* In 64 bits: 32-bit factors cannot overflow it, and the result is
     * clipped to the 32-bit dimension. */
    int64_t n =
        w->out_dim < 0
            ? whole[d]
            : (int64_t)(out_slice[w->out_dim] - 1) * w->scale + w->extent;
    max[d] = n < whole[d] ? (int32_t)n : whole[d];
  }
}

int64_t npuc_tx8_batchnorm_imm_size(npuc_tx8_dims dims,
                                    npuc_tx8_layout_mode mode) {
  npuc_tx8_layout x = npuc_tx8_layout_of(dims, NPUC_TX8_F32, mode);
  return sat_add(align_batch(x.total_bytes),
                 align_batch(sat_mul(dims.c, (int64_t)sizeof(float))));
}
