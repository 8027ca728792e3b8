/* KernelPrelude: what C code emitted by npuc-compile includes. Static inline
 * helpers with MLIR's exact semantics where C's differ (signed overflow,
 * division rounding, float-to-int conversion), element addressing with
 * optional bounds checks, and the launch context. */
#ifndef NPUC_KERNEL_PRELUDE_H
#define NPUC_KERNEL_PRELUDE_H

#include "npuc/HivmRuntime.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/* What a block sees of the launch. */
typedef struct {
  int64_t block_idx, block_num;
  int64_t sub_block_idx, sub_block_num;
} npuc_launch;

/* A kernel entry: arguments are pointers to npuc_buf (shaped) or to the
 * scalar's C type. */
typedef void (*npuc_kernel_fn)(const npuc_launch *launch, void *const *args);
/* The logical block count computed from the scalar arguments (the value
 * marked {logical_block_num}); NULL when the kernel has none. */
typedef int64_t (*npuc_grid_fn)(void *const *args);

typedef enum { NPUC_ARG_BUF, NPUC_ARG_SCALAR } npuc_arg_kind;

typedef struct {
  npuc_arg_kind kind;
  npuc_dtype dtype;
  int32_t rank;                           /* buffers */
  int64_t static_sizes[NPUC_RT_MAX_RANK]; /* -1 where dynamic */
  const char *name;                       /* "arg2" */
} npuc_arg_desc;

typedef struct {
  const char *name;
  npuc_kernel_fn fn;
  npuc_grid_fn logical_blocks;
  int64_t physical_blocks; /* > 0: auto-blockified; launch min(logical, this) */
  int64_t sub_blocks;      /* 2 for the vector half of a mix kernel, else 1 */
  bool has_sync;           /* cross-block sync: threads need real barriers */
  int num_args;
  const npuc_arg_desc *args;
  /* Mix kernels: the core (NPUC_CORE_AIC/AIV, else NPUC_CORE_ANY) and the
   * mix kernel's name, shared by its cube and vector halves (else NULL). */
  int core;
  const char *mix;
} npuc_kernel_desc;

enum { NPUC_CORE_ANY, NPUC_CORE_AIC, NPUC_CORE_AIV };
#define NPUC_MIX_MAX_SUB_BLOCKS 64

/* Runs one block of a mix kernel: the cube half once, the vector half on
 * each sub-block, switching between them at the block sync flags. */
void npuc_rt_run_mix_block(const npuc_kernel_desc *cube,
                           const npuc_kernel_desc *vector, void *const *argv,
                           int64_t block, int64_t blocks, int64_t sub_blocks);

/* The generic host program (in libnpuc_hivm_rt): reads the argument
 * manifest written by npuc-run, runs every block, writes outputs. */
int npuc_rt_host_main(int argc, char **argv, const npuc_kernel_desc *kernels,
                      int num_kernels);

/* ---- integer arithmetic -------------------------------------------------
 * Emitted code keeps every integer (any width, and index) in an int64_t
 * holding the sign-extended value, and narrows each result with npuc_sext:
 * wrap-around without C's undefined signed overflow. i1 is 0 or -1. */

static inline int64_t npuc_floordiv(int64_t a, int64_t b, const char *loc) {
  if (b == 0)
    npuc_rt_fail(loc, "integer division by zero");
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static inline int64_t npuc_ceildiv(int64_t a, int64_t b, const char *loc) {
  if (b == 0)
    npuc_rt_fail(loc, "integer division by zero");
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

static inline int64_t npuc_divs(int64_t a, int64_t b, const char *loc) {
  if (b == 0)
    npuc_rt_fail(loc, "integer division by zero");
  if (b == -1)
    return (int64_t)(0 - (uint64_t)a);
  return a / b;
}

static inline int64_t npuc_rems(int64_t a, int64_t b, const char *loc) {
  if (b == 0)
    npuc_rt_fail(loc, "integer remainder by zero");
  return b == -1 ? 0 : a % b;
}

static inline uint64_t npuc_divu(uint64_t a, uint64_t b, const char *loc) {
  if (b == 0)
    npuc_rt_fail(loc, "integer division by zero");
  return a / b;
}

static inline uint64_t npuc_remu(uint64_t a, uint64_t b, const char *loc) {
  if (b == 0)
    npuc_rt_fail(loc, "integer remainder by zero");
  return a % b;
}

/* affine `mod`: the result has the sign of the (positive) divisor. */
static inline int64_t npuc_mod(int64_t a, int64_t b, const char *loc) {
  if (b == 0)
    npuc_rt_fail(loc, "integer remainder by zero");
  int64_t r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

/* Sign-extends the low `bits` of v (integers are kept in int64_t while
 * computing, then narrowed this way). */
static inline int64_t npuc_sext(uint64_t v, int bits) {
  if (bits >= 64)
    return (int64_t)v;
  uint64_t m = (uint64_t)1 << (bits - 1);
  v &= ((uint64_t)1 << bits) - 1;
  return (int64_t)((v ^ m) - m);
}

static inline uint64_t npuc_zext(uint64_t v, int bits) {
  return bits >= 64 ? v : v & (((uint64_t)1 << bits) - 1);
}

static inline int64_t npuc_shl(int64_t a, int64_t b, int bits) {
  if (b < 0 || b >= bits)
    return 0;
  return npuc_sext((uint64_t)a << b, bits);
}

static inline int64_t npuc_shrs(int64_t a, int64_t b, int bits) {
  if (b < 0 || b >= bits)
    return a < 0 ? -1 : 0;
  return a >> b;
}

static inline int64_t npuc_shru(int64_t a, int64_t b, int bits) {
  if (b < 0 || b >= bits)
    return 0;
  return npuc_sext(npuc_zext((uint64_t)a, bits) >> b, bits);
}

/* float -> integer: saturating, NaN -> 0 (C leaves these undefined). */
static inline int64_t npuc_fptosi(double v, int bits) {
  double hi = bits >= 64 ? 9223372036854775807.0
                         : (double)(((int64_t)1 << (bits - 1)) - 1);
  double lo =
      bits >= 64 ? -9223372036854775808.0 : -(double)((int64_t)1 << (bits - 1));
  if (v != v)
    return 0;
  if (v >= hi)
    return bits >= 64 ? INT64_MAX : (int64_t)hi;
  if (v <= lo)
    return bits >= 64 ? INT64_MIN : (int64_t)lo;
  return (int64_t)v;
}

static inline int64_t npuc_fptoui(double v, int bits) {
  double hi =
      bits >= 64 ? 18446744073709551615.0 : (double)(((uint64_t)1 << bits) - 1);
  if (v != v || v <= 0)
    return 0;
  if (v >= hi)
    return npuc_sext(bits >= 64 ? UINT64_MAX : (uint64_t)hi, bits);
  return npuc_sext((uint64_t)v, bits);
}

/* maximumf/minimumf propagate NaN; maxnumf/minnumf ignore it. */
static inline double npuc_maximumf(double a, double b) {
  return (a != a || b != b) ? NAN
                            : (a > b ? a : (a < b ? b : (signbit(a) ? b : a)));
}
static inline double npuc_minimumf(double a, double b) {
  return (a != a || b != b) ? NAN
                            : (a < b ? a : (a > b ? b : (signbit(a) ? a : b)));
}

/* Rounds a float held in f32 to f16/bf16 precision (scalar f16 math). */
static inline float npuc_round_f16(float v) {
  return npuc_rt_f16_to_f32(npuc_rt_f32_to_f16(v));
}
static inline float npuc_round_bf16(float v) {
  return npuc_rt_bf16_to_f32(npuc_rt_f32_to_bf16(v));
}

/* ---- element addressing ------------------------------------------------- */

static inline int64_t npuc_linear(const npuc_buf *b, const int64_t *idx,
                                  const char *loc) {
  int64_t at = b->offset;
  bool check = npuc_rt_check_bounds();
  for (int32_t d = 0; d < b->rank; ++d) {
    if (check && (idx[d] < 0 || idx[d] >= b->sizes[d]))
      npuc_rt_fail(loc,
                   "index %lld out of bounds for dimension %d of size %lld",
                   (long long)idx[d], d, (long long)b->sizes[d]);
    at += idx[d] * b->strides[d];
  }
  return at;
}

#endif
