/* Aie1KernelPrelude: what C code emitted by `npuc-compile
 * --target=aie1-cmodel` includes. The scalar part (integers, memrefs as
 * npuc_buf) is KernelPrelude.h's; the vector ops are libnpuc_aie1_rt's
 * (Aie1Runtime.h). This adds the memref addressing of vector accesses. */
#ifndef NPUC_AIE1_KERNEL_PRELUDE_H
#define NPUC_AIE1_KERNEL_PRELUDE_H

#include "npuc/Aie1Runtime.h"
#include "npuc/KernelPrelude.h"

/* A refused emulator op stops the run at the op's location. */
#define NPUC_AIE1_CHECK(ctx, call, loc)                                        \
  do {                                                                         \
    if (!(call))                                                               \
      npuc_aie1_fail((ctx), (loc));                                            \
  } while (0)

/* The position of element `idx` in b's storage, for vector accesses along
 * the last dimension, which must therefore be contiguous. */
static inline int64_t npuc_aie1_linear(const npuc_buf *b, const int64_t *idx,
                                       const char *loc) {
  if (b->rank > 0 && b->strides[b->rank - 1] != 1)
    npuc_rt_fail(loc,
                 "vector access to a memref whose last dimension has "
                 "stride %lld",
                 (long long)b->strides[b->rank - 1]);
  int64_t at = b->offset;
  for (int32_t d = 0; d < b->rank; ++d)
    at += idx[d] * b->strides[d];
  return at;
}

/* How many lanes of a vector.transfer_write starting at index `last` of
 * the last dimension are written: all when in_bounds, else those before
 * the dimension's end (the masked tail of a row). */
static inline int32_t npuc_aie1_store_count(const npuc_buf *b, int64_t last,
                                            int32_t lanes, bool in_bounds) {
  if (in_bounds || b->rank == 0)
    return lanes;
  int64_t left = b->sizes[b->rank - 1] - last;
  return left < 0 ? 0 : left < lanes ? (int32_t)left : lanes;
}

/* ---- the host program (lib/Runtime/aie1/host_main.c) ------------------ */

/* One buffer argument of a kernel: row-major, of this shape. */
typedef struct {
  npuc_dtype dtype;
  int32_t rank;
  int64_t sizes[NPUC_RT_MAX_RANK]; /* -1: dynamic */
} npuc_aie1_host_arg;

/* A kernel's two versions, taking the same buffers. */
typedef struct {
  const char *name;
  void (*vec)(const npuc_buf *);
  void (*ref)(const npuc_buf *);
  int nargs;
  const npuc_aie1_host_arg *args;
} npuc_aie1_host_kernel;

/* What the generated host.c gives the host program: the kernels and the
 * settings of --target-config (docs/aie1-cmodel.md). */
typedef struct {
  const npuc_aie1_host_kernel *kernels;
  int num_kernels;
  uint64_t default_seed; /* of the random inputs, without a SEED argument */
  /* f32 results may differ by this many units in the last place. */
  int64_t f32_ulps;
  /* The filter layout the vectorization assumes, in argument filter_arg
   * (-1: none): element k is 0 when k % period >= used (zero-offset's
   * recurring zeros), else equal to element k - k % dup. */
  int filter_arg;
  int64_t filter_period, filter_used, filter_dup;
  int64_t dynamic_size; /* the size of every dynamic (-1) dimension */
  /* Vector loads may read past a buffer's end, as the anchor's kernels do;
   * the lanes read there are never used. Every buffer gets this many
   * elements of random slack. */
  int64_t slack;
  int shift; /* > 0: the references are fixed point with this shift */
} npuc_aie1_host;

/* Runs every kernel of `h` on random buffers (seed argv[1], else
 * h->default_seed), both versions, and compares them; prints a line per
 * buffer and a summary. Returns the exit status: 0 every buffer equal, 1 a
 * difference. */
int npuc_aie1_host_main(int argc, char **argv, const npuc_aie1_host *h);

#endif
