/* Tx8SpmAlloc: placing a group's SPM buffers with reuse (the seed's
 * SPMAllocPass: SA_BufferLife, SA_BufferMerge, then the offsets). Plain C,
 * no MLIR: the caller states each buffer's size and lifetime in steps (a
 * step is one op of the group's order); buffers whose lifetimes overlap
 * never overlap in memory, the others may share it.
 *
 *   1. lifetimes: buffer i is live over the steps [first, last];
 *   2. merge: a buffer in place of an input that dies at the step defining
 *      it (the seed's memInplace: add writing into its first operand)
 *      shares that input's block, one interval from the earliest first to
 *      the latest last, as large as its largest member;
 *   3. offsets: blocks in a greedy order, each at the best fitting gap (the
 *      smallest one it fits, else the top) among the placed blocks whose
 *      intervals overlap its own, every offset and size on a 2048-bit
 *      (256-byte) boundary; four orders (largest, largest size x
 *      lifetime, longest lifetime, earliest first), then while above the
 *      max-live bound a few repair rounds (the block on top goes first);
 *      the lowest peak is kept.
 * Per pass n log n plus, per block, the blocks live with it; at most 20
 * passes. Sizes are checked against overflow. */
#ifndef NPUC_TX8_SPM_ALLOC_H
#define NPUC_TX8_SPM_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NPUC_TX8_SPM_ALIGN 256          /* 2048 bits */
#define NPUC_TX8_SPM_MAX_BUFFERS 100000 /* bounded input */
#define NPUC_TX8_SPM_MAX_STEP 1000000

typedef struct {
  int64_t bytes;       /* >= 0; rounded up to NPUC_TX8_SPM_ALIGN */
  int32_t first, last; /* live over steps [first, last] */
  /* -1, or the buffer whose memory this one may take when that buffer's
   * last step is this one's first (it dies where this one is defined);
   * otherwise, or when another buffer took it already, ignored. */
  int32_t inplace_of;
  bool is_imm; /* an op's scratch: one step (first == last), never shared
                  in place */
} npuc_tx8_spm_buffer;

typedef struct {
  int64_t peak;     /* max over buffers of offset + aligned bytes */
  int64_t max_live; /* lower bound: max over steps of the live blocks' sizes */
  int32_t num_blocks; /* after in-place merging */
} npuc_tx8_spm_result;

/* Places the `n` buffers: offsets[i] for each. False with a message in
 * `err` for bad input (a negative size, a step out of [0,
 * NPUC_TX8_SPM_MAX_STEP] or last < first, an in-place index out of range
 * or naming itself, an imm buffer over several steps, too many buffers) or
 * when a size overflows. */
bool npuc_tx8_spm_alloc(const npuc_tx8_spm_buffer *bufs, int n,
                        int64_t *offsets, npuc_tx8_spm_result *result,
                        char *err, size_t cap);

/* The copies of a multi-buffered buffer (the software pipeline), as
 * tx8-spm-alloc lists them in its op's dev_info.mem_addr: an op defining
 * `slots` SPM buffers (slot s: its s-th buffer in the group's order) in
 * `copies` copies lists slots x copies offsets, copy-major — entry
 * c * slots + s is copy c of slot s — so entries 0 .. slots-1 are copy 0
 * of each (the placement every reader takes) and a buffer with fewer
 * copies than its op repeats one address. Reads slot `slot`'s copies into
 * addr[0 .. copies) and their number into *n: 1 when they all share one
 * address, else `copies`. False with a message in err when the list has
 * another length, copies > NPUC_TX8_SPM_MAX_COPIES, a copy of `bytes`
 * lies off [0, spm) or off a 256-byte boundary, or two copies overlap. */
#define NPUC_TX8_SPM_MAX_COPIES 8
bool npuc_tx8_spm_copies(const int64_t *mem_addr, int len, int copies,
                         int slots, int slot, int64_t bytes, int64_t spm,
                         int64_t *addr, int *n, char *err, size_t cap);

#endif
