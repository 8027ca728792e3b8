/* Shared pieces of libnpuc_tx8_rt: element conversion of contiguous runs,
 * the row/run walk every op uses, and argument checks. Not part of the
 * runtime's contract (include/npuc/Tx8Runtime.h). Functions shared between
 * files are npuc_tx8i_*: the archive links into generated code. */
#ifndef NPUC_TX8_RT_INTERNAL_H
#define NPUC_TX8_RT_INTERNAL_H

#include "npuc/Tx8Runtime.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- runs of elements <-> fp32 ---------------------------------------------
 * What a gatherScatter + convert pair does on the hardware: bring `n`
 * contiguous elements of `dt` at `p` into fp32 and back. int8 values are
 * exact in fp32, so integer ops use these too. Stores round to nearest
 * even; int8 stores also saturate. */
/* dst = src converted to dst's dtype; they share dims and layout mode
 * (float dtypes align channels alike, so their runs match). */
void npuc_tx8i_convert_rows(const npuc_tx8_tsr *dst, const npuc_tx8_tsr *src);
void npuc_tx8i_load_f32(float *out, const void *p, npuc_tx8_dtype dt,
                        int64_t n);
void npuc_tx8i_store_f32(void *p, npuc_tx8_dtype dt, const float *in,
                         int64_t n);
int8_t npuc_tx8i_saturate_i8(double v);

static inline char *tx8_at(const npuc_tx8_tsr *t, int64_t offset) {
  return (char *)t->data + offset;
}

/* A rank-1 [C] tensor (N = HW = 1), as a per-channel operand. */
static inline bool tx8_is_vector(const npuc_tx8_tsr *t) {
  return t->layout.dims.n == 1 && t->layout.dims.hw == 1;
}

/* All channels of a [C] vector as fp32, in channel order. */
void npuc_tx8i_vector_f32(float *out, const npuc_tx8_tsr *v);
/* Row `row` of batch n (all C channels, in channel order) as fp32, and
 * stored (rounded, i8 saturated), through the row's contiguous runs. */
void npuc_tx8i_load_row(float *dst, const npuc_tx8_tsr *t, int64_t n,
                        int64_t row);
void npuc_tx8i_store_row(const npuc_tx8_tsr *t, int64_t n, int64_t row,
                         const float *src);

/* a op b in double: the reference's arithmetic, which the model rounds to
 * float (exactly the fp32 result for add, sub, mul and div). */
double npuc_tx8i_binary_f64(npuc_tx8_binary_op op, double x, double y);

/* Byte offset of element `i` of t in row-major order over its (n, hw, c). */
static inline int64_t tx8_elem_offset(const npuc_tx8_tsr *t, int64_t i) {
  const npuc_tx8_dims d = t->layout.dims;
  return npuc_tx8_offset(&t->layout, i / (d.hw * d.c), i / d.c % d.hw, i % d.c);
}

/* ---- DDR runs of one DMA transfer (dma.c) ----------------------------------
 * begin, then note every contiguous piece copied on either side (pieces
 * outside the DDR arena are ignored), then end: the transfer's placement
 * penalty (npuc_tx8_ddr_penalty_cycles, over the merged runs), for the
 * caller to charge (npuc_tx8_cycles_ddr_extra). Per thread. */
void npuc_tx8i_ddr_begin(void);
void npuc_tx8i_ddr_note(const void *p, int64_t len);
uint64_t npuc_tx8i_ddr_end(void);

/* ---- checks (fail through npuc_tx8_fail naming `op`) ------------------------
 */
void npuc_tx8i_check_tsr(const char *op, const char *what,
                         const npuc_tx8_tsr *t);
void npuc_tx8i_check_same_dims(const char *op, const char *what,
                               const npuc_tx8_tsr *a, const npuc_tx8_tsr *b);
void npuc_tx8i_check_same_layout(const char *op, const char *what,
                                 const npuc_tx8_tsr *a, const npuc_tx8_tsr *b);
void npuc_tx8i_check_dtype(const char *op, const char *what,
                           const npuc_tx8_tsr *t, npuc_tx8_dtype dt);
void npuc_tx8i_check_float(const char *op, const char *what,
                           const npuc_tx8_tsr *t);
/* The checks most ops open with: in and out valid (in a float type when
 * `is_float`), out of in's dtype. */
void npuc_tx8i_check_in_out(const char *op, const npuc_tx8_tsr *in,
                            const npuc_tx8_tsr *out, bool is_float);
void npuc_tx8i_check_vector(const char *op, const char *what,
                            const npuc_tx8_tsr *v, int64_t c);
void npuc_tx8i_check_compact(const char *op, const char *what,
                             const npuc_tx8_tsr *t);
/* psum and out valid, psum fp32 of out's dims (psum_team.c). */
void npuc_tx8i_check_psum(const char *op, const npuc_tx8_tsr *psum,
                          const npuc_tx8_tsr *out);

/* Checks `shape` (dim dimensions, each positive, 1 <= dim <= 8) holds
 * exactly t's elements; returns their count. */
int64_t npuc_tx8i_check_shape(const char *op, const char *what,
                              const int32_t *shape, int32_t dim,
                              const npuc_tx8_tsr *t);
/* One element of t (row-major index i) as float, and stored. */
float npuc_tx8i_elem(const npuc_tx8_tsr *t, int64_t i);
void npuc_tx8i_set_elem(const npuc_tx8_tsr *t, int64_t i, float v);

/* The row-major strides of `shape`; returns the element count. */
int64_t npuc_tx8i_strides_of(const int32_t *shape, int32_t dim,
                             int64_t *stride);
/* Walks the `dim`-dimensional row-major index `idx` of `shape` one step
 * (the last dimension fastest); `*src` follows by `stride[d]` per step of
 * dimension d. */
void npuc_tx8i_step_index(int64_t *idx, const int32_t *shape, int32_t dim,
                          const int64_t *stride, int64_t *src);

/* Places `cycles` of engine `e` on this thread's timeline (timeline.c):
 * every charge of the cycle model goes through it. */
void npuc_tx8i_tl_charge(npuc_tx8_busy_engine e, uint64_t cycles);

/* Zeroes the padding of an aligned tensor (the bytes no element uses), as
 * a DMA into an aligned layout leaves it. */
void npuc_tx8i_clear_padding(const npuc_tx8_tsr *t);

#endif
