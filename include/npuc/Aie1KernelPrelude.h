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
    npuc_rt_fail(loc, "vector access to a memref whose last dimension has "
                      "stride %lld", (long long)b->strides[b->rank - 1]);
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

#endif
