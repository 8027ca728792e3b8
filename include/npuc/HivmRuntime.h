/* HivmRuntime: libnpuc_hivm_rt, the C model of the HIVM op library that
 * kernels emitted by `npuc-compile --target=ascend-cmodel` call. It runs on
 * the host: a block is a function call, a buffer is host memory.
 *
 * Buffers are strided views (like MLIR memref descriptors). Tensor values in
 * the emitted code are buffers that are never written after the op that
 * produced them, so views may share storage.
 *
 * Every op takes `loc`, the op's "file:line:col", and reports misuse (shape
 * mismatch, unsupported dtype, out-of-bounds with NPUC_CHECK_BOUNDS=1)
 * through npuc_rt_fail, which prints `loc: error: ...` and aborts the run. */
#ifndef NPUC_HIVM_RUNTIME_H
#define NPUC_HIVM_RUNTIME_H

#include "npuc/Dtype.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NPUC_RT_MAX_RANK 8

/* A strided view: element (i0, ..., ik) is at
 * data + (offset + sum(ij * strides[j])) * elem_size(dtype). */
typedef struct {
  void *data;
  int64_t offset;
  int64_t sizes[NPUC_RT_MAX_RANK];
  int64_t strides[NPUC_RT_MAX_RANK];
  int32_t rank;
  npuc_dtype dtype;
  /* Elements of the allocation from `data` on, 0 when unknown, or
   * NPUC_RT_EXTENT_EMPTY for a storage known to hold no element (a spec's
   * shape [0]): views inherit it, so a view reaching past its storage can
   * be caught. */
  int64_t extent;
} npuc_buf;

#define NPUC_RT_EXTENT_EMPTY (-1)

/* An op input: a buffer, or a scalar broadcast to every element. */
typedef struct {
  bool is_scalar;
  npuc_buf buf; /* !is_scalar */
  double f;     /* is_scalar and float dtype */
  int64_t i;    /* is_scalar and integer dtype */
  npuc_dtype dtype;
} npuc_operand;

/* ---- buffers ----------------------------------------------------------- */

/* Per-invocation arena: every buffer a kernel allocates lives until
 * npuc_rt_arena_reset, so emitted code never frees. Thread-local, so
 * blocks running on threads do not share it. */
npuc_buf npuc_rt_alloc(npuc_dtype dt, int32_t rank, const int64_t *sizes,
                       const char *loc);
void npuc_rt_arena_reset(void);
/* Frees all of the calling thread's arena (before a thread ends). */
void npuc_rt_arena_release(void);

/* A fresh contiguous buffer holding a copy of `src`'s elements. */
npuc_buf npuc_rt_clone(const npuc_buf *src, const char *loc);
/* dst[...] = src[...] elementwise (same shape; dtypes must match). */
void npuc_rt_copy(const npuc_buf *dst, const npuc_buf *src, const char *loc);
/* A view of src: offsets/sizes/strides per dimension, as memref.subview.
 * `result_rank` < src rank drops unit dimensions listed in `dropped`
 * (a bit mask over the source dimensions). */
npuc_buf npuc_rt_subview(const npuc_buf *src, const int64_t *offsets,
                         const int64_t *sizes, const int64_t *strides,
                         int32_t result_rank, uint32_t dropped,
                         const char *loc);
/* A view with new sizes and strides over the same storage
 * (memref.reinterpret_cast). */
npuc_buf npuc_rt_reinterpret(const npuc_buf *src, int64_t offset, int32_t rank,
                             const int64_t *sizes, const int64_t *strides);
/* A contiguous row-major view of `dt` elements starting `shift` bytes into
 * src's first element (memref.view, memref_ext.alloc_workspace). A negative
 * shift is an error; a view starting at or past the end of src's storage
 * is known empty (touching it fails under bounds checking). */
npuc_buf npuc_rt_byte_view(const npuc_buf *src, int64_t shift, npuc_dtype dt,
                           int32_t rank, const int64_t *sizes, const char *loc);
/* expand_shape / collapse_shape (same element count, row-major order): a
 * view when src is contiguous, else a contiguous copy. */
npuc_buf npuc_rt_reshape(const npuc_buf *src, int32_t rank,
                         const int64_t *sizes, const char *loc);

/* With NPUC_CHECK_BOUNDS=1: fails unless every element of the view lies in
 * its allocation. Every op checks the buffers it touches this way, and
 * element loads and stores check the element; creating a view that
 * overhangs its storage is not an error. */
void npuc_rt_check_view(const npuc_buf *b, const char *loc);

/* Element access for scalar code (memref.load/store, tensor.extract). */
double npuc_rt_load_f(const npuc_buf *b, const int64_t *idx, const char *loc);
int64_t npuc_rt_load_i(const npuc_buf *b, const int64_t *idx, const char *loc);
void npuc_rt_store_f(const npuc_buf *b, const int64_t *idx, double v,
                     const char *loc);
void npuc_rt_store_i(const npuc_buf *b, const int64_t *idx, int64_t v,
                     const char *loc);

/* ---- HIVM ops ------------------------------------------------------------ */

/* The elementwise ops, one line each in npuc/HivmElementwise.def (the
 * order of its lines): NPUC_EW_ADD, NPUC_EW_SUB, ... NPUC_EW_SEL. */
typedef enum {
#define NPUC_EW(NAME, vop, arity, kinds, float_expr, int_expr) NPUC_EW_##NAME,
#include "npuc/HivmElementwise.def"
} npuc_ew_op;

/* dst = op(srcs...). An input dimension of size 1 broadcasts to dst's size
 * (HIVM's `broadcast = [...]`); scalars broadcast everywhere. Arithmetic is
 * done in the dst dtype (f16/bf16 in f32, rounded on store). */
void npuc_rt_elementwise(npuc_ew_op op, const npuc_buf *dst,
                         const npuc_operand *srcs, int nsrc, const char *loc);

typedef enum {
  NPUC_CMP_EQ,
  NPUC_CMP_NE,
  NPUC_CMP_LT,
  NPUC_CMP_GT,
  NPUC_CMP_LE,
  NPUC_CMP_GE,
} npuc_cmp_mode;
/* dst (i1) = a <mode> b, with broadcasting as above. */
void npuc_rt_compare(npuc_cmp_mode mode, const npuc_buf *dst,
                     const npuc_operand *a, const npuc_operand *b,
                     const char *loc);

/* dst = src broadcast along the size-1 dims of src (vbrc), or a scalar. */
void npuc_rt_broadcast(const npuc_buf *dst, const npuc_operand *src,
                       const char *loc);

typedef enum {
  NPUC_RED_SUM,
  NPUC_RED_PROD,
  NPUC_RED_MAX,
  NPUC_RED_MIN,
  NPUC_RED_ANY,
  NPUC_RED_ALL,
  NPUC_RED_XOR,
  NPUC_RED_OR,
  NPUC_RED_AND,
} npuc_reduce_op;
/* dst has size 1 in each dim of `dims_mask` (bit d = reduce dim d) and
 * src's size elsewhere. Sums accumulate in the dst dtype (f16/bf16 in f32). */
void npuc_rt_reduce(npuc_reduce_op op, const npuc_buf *dst, const npuc_buf *src,
                    uint32_t dims_mask, const char *loc);

typedef enum {
  NPUC_CAST_DEFAULT, /* float->float: nearest even; float->int: toward zero */
  NPUC_CAST_RINT,
  NPUC_CAST_ROUND,
  NPUC_CAST_FLOOR,
  NPUC_CAST_CEIL,
  NPUC_CAST_TRUNC,
  NPUC_CAST_UNSIGNED, /* source integers read as unsigned */
} npuc_cast_mode;
void npuc_rt_cast(const npuc_buf *dst, const npuc_buf *src, npuc_cast_mode mode,
                  const char *loc);

/* dst[p(i)] = src[i]: dst dim j has src dim perm[j]'s size. */
void npuc_rt_transpose(const npuc_buf *dst, const npuc_buf *src,
                       const int32_t *perm, const char *loc);

/* dst[i...] = offset + sum(i_k * strides[k]). */
void npuc_rt_arange(const npuc_buf *dst, int64_t offset, const int64_t *strides,
                    int nstrides, const char *loc);

/* dst[..., k*n + c] = srcs[c][..., k] for n = nsrc channels. */
void npuc_rt_interleave(const npuc_buf *dst, const npuc_buf *srcs, int nsrc,
                        const char *loc);

/* Gather (indirect_load): dst[i] = src[offsets[i]] where mask[i] != 0 (no
 * mask: everywhere); other elements of dst are left as they are. Scatter
 * (indirect_store): dst[offsets[i]] = src[i] where mask[i] != 0, in
 * row-major order of i (a later element wins). The memref side (src of a
 * gather, dst of a scatter) has rank 1 and the dense side's dtype; offsets
 * and mask are integers of the dense side's shape. An active offset outside
 * the memref is an error, with or without NPUC_CHECK_BOUNDS. */
void npuc_rt_indirect_load(const npuc_buf *dst, const npuc_buf *src,
                           const npuc_buf *offsets, const npuc_buf *mask,
                           const char *loc);
void npuc_rt_indirect_store(const npuc_buf *dst, const npuc_buf *src,
                            const npuc_buf *offsets, const npuc_buf *mask,
                            const char *loc);

/* ---- cube ---------------------------------------------------------------- */

enum { NPUC_MMAD_A_TRANSPOSE = 1u, NPUC_MMAD_B_TRANSPOSE = 2u };
/* mmadL1: C = (init ? 0 : C) + A x B over the real sizes (C elements
 * outside real_m x real_n are left alone). 2-D operands: A is M x K (K x M
 * with NPUC_MMAD_A_TRANSPOSE), B K x N (N x K with B_TRANSPOSE), C M x N;
 * 4-D ones are those matrices in the fractal zN layout [C1][R1][R0][C0]
 * (element (r, c) at [c / C0][r / R0][r % R0][c % C0]; no transposes).
 * Floats multiply and accumulate in f32 along k in order; integers in 64
 * bits, wrapped to C's width. */
void npuc_rt_mmad(const npuc_buf *c, const npuc_buf *a, const npuc_buf *b,
                  bool init, int64_t real_m, int64_t real_k, int64_t real_n,
                  unsigned flags, const char *loc);

typedef enum {
  NPUC_FIXPIPE_NZ2ND, /* dst [M][N] */
  NPUC_FIXPIPE_NZ2DN, /* dst [N][M] */
  NPUC_FIXPIPE_NZ2NZ, /* dst in the source's layout (2-D, or [N1][M1][M0][N0])
                       */
} npuc_fixpipe_layout;

typedef enum { NPUC_DUAL_NONE, NPUC_DUAL_ROW, NPUC_DUAL_COL } npuc_dual_mode;

typedef struct {
  npuc_fixpipe_layout layout;
  npuc_dual_mode dual;
  int sub_block; /* NPUC_DUAL_NONE: the sub-block whose UB gets the result */
  bool relu;     /* pre_relu NORMAL_RELU */
} npuc_fixpipe_mode;

/* fixpipe: the source (L0C) holds an M x N matrix, 2-D [M][N] or fractal
 * [N1][M1][M0][N0]; dst gets the window of its own size at (0, 0), or with
 * a dual destination the first half of the rows (ROW_SPLIT) or columns
 * (COLUMN_SPLIT) into sub-block 0's copy of a tightly coupled UB buffer and
 * the second into sub-block 1's. Floats are rounded to dst's dtype once. */
void npuc_rt_fixpipe(const npuc_buf *dst, const npuc_buf *src,
                     const npuc_fixpipe_mode *mode, const char *loc);

/* ---- mix kernels (mix.c) ------------------------------------------------ */

/* A buffer marked hivm.tightly_coupled_buffer<id>: inside a mix run, the
 * block's shared storage for that id (per sub-block for UB); run alone, a
 * fresh buffer. */
npuc_buf npuc_rt_coupled_alloc(int64_t id, bool per_sub_block, npuc_dtype dt,
                               int32_t rank, const int64_t *sizes,
                               const char *loc);
/* sync_block_set / sync_block_wait between the cube and vector halves of a
 * mix run (no effect in a half run alone). */
void npuc_rt_sync_block_set(int64_t flag, const char *loc);
void npuc_rt_sync_block_wait(int64_t flag, const char *loc);

/* ---- errors ------------------------------------------------------------- */

/* Prints "loc: error: message" to stderr and exits with status 3. */
void npuc_rt_fail(const char *loc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));

/* True when the NPUC_CHECK_BOUNDS environment variable is 1 (read once). */
bool npuc_rt_check_bounds(void);

#endif
