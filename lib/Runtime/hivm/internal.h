/* Shared pieces of libnpuc_hivm_rt: compute types, strided row I/O, the
 * n-d loop every op iterates with, and the checks ops share. Not part of
 * the runtime's contract (that is include/npuc/HivmRuntime.h).
 *
 * Functions shared between files are named npuc_rti_*: the archive is
 * linked into emitted kernels, so its symbols stay in npuc's namespace.
 * Static inline helpers here keep the short rt_ prefix. */
#ifndef NPUC_HIVM_RT_INTERNAL_H
#define NPUC_HIVM_RT_INTERNAL_H

#include "npuc/HivmRuntime.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* ---- compute types --------------------------------------------------------
 * The C type an op's element loop runs in. f16 and bf16 have no C type, so
 * they compute in float; i1 computes in int8 and is masked back to 0/1. */
typedef enum {
  RT_CT_F32,
  RT_CT_F64,
  RT_CT_I8,
  RT_CT_I16,
  RT_CT_I32,
  RT_CT_I64,
} rt_ct;

/* Elements per chunk when a row goes through temporaries: 4 temporaries of
 * 8-byte elements fill a 32 KiB L1 data cache. */
#define RT_CHUNK 1024

rt_ct npuc_rti_compute_type(npuc_dtype dt);
size_t npuc_rti_ct_size(rt_ct ct);
/* True when elements of `dt` are stored exactly as `ct` values, so loops
 * may read and write the buffer in place. */
bool npuc_rti_ct_is_storage(rt_ct ct, npuc_dtype dt);
bool npuc_rti_dtype_valid(npuc_dtype dt);
/* Bit width of an integer dtype (1 for i1). */
int npuc_rti_int_width(npuc_dtype dt);

/* Row I/O between a strided run of `n` elements of `b` (starting at element
 * offset `off`, `stride` elements apart; 0 repeats one element) and a dense
 * array of compute-type values. Loads into F32 take f16/bf16/f32, into F64
 * any float, into I8 i1 (normalized to 0/1) or i8, into I64 any integer
 * (sign-extended; i1 as 0/1); I16 and I32 take their own dtype. Stores
 * round to nearest even (floats) or wrap (integers; i1 keeps bit 0). */
void npuc_rti_row_load(rt_ct ct, void *out, const npuc_buf *b, int64_t off,
                       int64_t stride, size_t n);
void npuc_rti_row_store(rt_ct ct, const void *in, const npuc_buf *b,
                        int64_t off, int64_t stride, size_t n);

/* ---- exact rounding to a float format ----------------------------------- */
typedef enum {
  RT_ROUND_NEAREST_EVEN,
  RT_ROUND_NEAREST_AWAY,
  RT_ROUND_TOWARD_ZERO,
  RT_ROUND_DOWN, /* toward -inf */
  RT_ROUND_UP,   /* toward +inf */
} rt_rounding;

/* The bits of the `dt` value nearest to `v` (or `(neg ? -1 : 1) * mag`) in
 * the given direction; one rounding step, so never double rounding. */
uint64_t npuc_rti_float_bits_from_double(double v, npuc_dtype dt,
                                         rt_rounding r);
uint64_t npuc_rti_float_bits_from_int(bool neg, uint64_t mag, npuc_dtype dt,
                                      rt_rounding r);
double npuc_rti_float_bits_to_double(uint64_t bits, npuc_dtype dt);
/* `v` rounded to nearest even in the precision of float dtype `dt`. */
double npuc_rti_round_to_dtype(double v, npuc_dtype dt);
/* `v` wrapped to the width of integer dtype `dt` (i1 keeps bit 0). */
int64_t npuc_rti_wrap_int(int64_t v, npuc_dtype dt);

/* ---- float helpers shared by elementwise and reduce --------------------- */
/* max/min that propagate NaN and order -0 below +0 (arith.maximumf), for
 * float (rt_maxf, rt_minf) and double (rt_max, rt_min). */
#define RT_MINMAX(T, MAX, MIN)                                                 \
  static inline T MAX(T a, T b) {                                              \
    if (isnan(a) || isnan(b))                                                  \
      return a + b;                                                            \
    if (a == b)                                                                \
      return signbit(a) ? b : a;                                               \
    return a > b ? a : b;                                                      \
  }                                                                            \
  static inline T MIN(T a, T b) {                                              \
    if (isnan(a) || isnan(b))                                                  \
      return a + b;                                                            \
    if (a == b)                                                                \
      return signbit(a) ? a : b;                                               \
    return a < b ? a : b;                                                      \
  }
RT_MINMAX(float, rt_maxf, rt_minf)
RT_MINMAX(double, rt_max, rt_min)
#undef RT_MINMAX

/* ---- n-d iteration ------------------------------------------------------ */
#define RT_MAX_OPS 4 /* dst + up to 3 sources */

/* Walks a shape row by row for up to RT_MAX_OPS operands, each with its
 * own element strides over that shape (0 = broadcast). npuc_rti_loop_finish
 * drops unit dims and merges dims every operand walks contiguously, so a
 * dense same-shape op becomes a single row. */
typedef struct {
  int32_t rank; /* >= 1 after npuc_rti_loop_finish */
  int nops;
  int64_t size[NPUC_RT_MAX_RANK];
  int64_t stride[RT_MAX_OPS][NPUC_RT_MAX_RANK];
  int64_t offset[RT_MAX_OPS]; /* element offset of the current row */
  int64_t idx[NPUC_RT_MAX_RANK];
  int64_t rows; /* rows left to visit, counting the current one */
} rt_loop;

void npuc_rti_loop_init(rt_loop *l, int32_t rank, const int64_t *sizes);
/* Adds an operand; returns its index. */
int npuc_rti_loop_add(rt_loop *l, int64_t offset, const int64_t *strides);
void npuc_rti_loop_finish(rt_loop *l);
void npuc_rti_loop_next_row(rt_loop *l);
static inline int64_t rt_loop_row_len(const rt_loop *l) {
  return l->size[l->rank - 1];
}
static inline int64_t rt_loop_row_stride(const rt_loop *l, int op) {
  return l->stride[op][l->rank - 1];
}

/* Copies every element of `dst` from a source of the same dtype laid out
 * by `src_data`, `src_offset` and `src_strides` over dst's dims. */
void npuc_rti_copy_strided(const npuc_buf *dst, const void *src_data,
                           int64_t src_offset, const int64_t *src_strides);

/* n elements of es bytes from s (stride ss) to d (stride ds), strides in
 * elements; 0 repeats one source element. */
void npuc_rti_copy_elements(void *d, int64_t ds, const void *s, int64_t ss,
                            int64_t n, size_t es);

static inline char *rt_elem_ptr(const npuc_buf *b, int64_t off) {
  return (char *)b->data + off * (int64_t)npuc_rt_elem_size(b->dtype);
}

/* ---- checks ---------------------------------------------------------------
 * Each fails through npuc_rt_fail with `loc`; `what` names the operand. */
void npuc_rti_check_buf(const npuc_buf *b, const char *what, const char *loc);
/* Only dtype, rank and sizes: for ops that describe elements (subview,
 * reshape) rather than touch them. */
void npuc_rti_check_buf_shape(const npuc_buf *b, const char *what,
                              const char *loc);
void npuc_rti_check_rank(int32_t rank, const char *loc);
void npuc_rti_check_same_shape(const npuc_buf *a, const npuc_buf *b,
                               const char *what, const char *loc);
void npuc_rti_check_same_dtype(const npuc_buf *a, const npuc_buf *b,
                               const char *what, const char *loc);
/* Strides that read `src` over `dst`'s shape: a src dim of size 1 reads
 * with stride 0; any other size must equal dst's. */
void npuc_rti_broadcast_strides(const npuc_buf *src, const npuc_buf *dst,
                                int64_t *strides, const char *what,
                                const char *loc);
/* Writes "2x3x4" (or "scalar" for rank 0) into `out`. */
void npuc_rti_format_shape(char *out, size_t cap, int32_t rank,
                           const int64_t *sizes);
int64_t npuc_rti_num_elements(int32_t rank, const int64_t *sizes);

/* A scalar operand as a rank-`rank` view that repeats one element of dtype
 * `dt` (all strides 0); the element lives in `*storage`. The value is
 * converted to `dt` as npuc_rt_cast's default mode would. */
npuc_buf npuc_rti_scalar_view(const npuc_operand *s, npuc_dtype dt,
                              int32_t rank, const int64_t *sizes,
                              uint64_t *storage, const char *loc);

/* Float -> int conversion of one value, as npuc_rt_cast does it. */
int64_t npuc_rti_float_to_int(double v, npuc_cast_mode mode, npuc_dtype dt);

/* Rebases `b`, a view of a per-sub-block tightly coupled buffer of the
 * running mix block, onto sub-block `sub_block`'s copy (mix.c); false (b
 * unchanged) when it views no such buffer. */
bool npuc_rti_sub_block_buffer(npuc_buf *b, int sub_block, const char *loc);

#endif
