/* Tx8SpmAllocGroup: what tx8-spm-alloc will make of a group at a candidate
 * decision, for tx8-sharding's search to cost the software pipeline the
 * allocator will actually give it (lib/Transforms/TX8/Tx8SpmAlloc.c). */
#ifndef NPUC_TX8_SPM_ALLOC_GROUP_H
#define NPUC_TX8_SPM_ALLOC_GROUP_H

#include "npuc/Tx8Group.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  int copies;   /* of each multi-buffered per-slice load (1: none) */
  bool stores;  /* the stored buffers have as many */
  int64_t peak; /* SPM bytes per tile; above spm when nothing fits */
  bool multi[NPUC_TX8_MAX_BUFFERS]; /* the plan's buffers with copies */
  /* Every per-slice intermediate (channel_norm, extract, compute result
   * not stored) has copies: the next slice's ops need not wait for this
   * slice's readers of any of them. */
  bool intermediates;
  /* Of each K-slice load of a reduce split (1: none; the K loop then
   * loads K slice j + 1 after K slice j's NE op). */
  int k_copies;
} npuc_tx8_spm_fit;

/* The placement tx8-spm-alloc chooses for plan `p` sharded `sharding`
 * ways in slices of `slice`, with at most `max_copies` copies (1 to 3) in
 * `spm` bytes: the most copies that fit, of every per-slice buffer, else
 * two of the loads, the stored buffers and the intermediates that fit,
 * else of the loads, else none; with a reduce split each first with two
 * copies of the K-slice loads, then without. `once` (NULL: the plan's own) says
 * which buffers are filled once per tile at that decision
 * (npuc_tx8_buffer_resident). False after an allocator error (a message
 * in err). */
bool npuc_tx8_spm_fit_group(const npuc_tx8_group_plan *p,
                            const int32_t *sharding, const int32_t *slice,
                            const bool *once, int64_t spm, int max_copies,
                            npuc_tx8_spm_fit *fit, char *err, size_t cap);

#endif
