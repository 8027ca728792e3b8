/* Tx8NocCost: what a shared load's all-gather over the mesh NoC costs
 * (docs/tx8.md, "Cycle model"). The tiles sharing a load form a ring:
 * `members` tiles first, first + stride, ... (tile t sits at column
 * t % tiles_x, row t / tiles_x of the mesh), visited row by row with every
 * other row reversed (a snake: all the tiles of a 4x4 mesh, a row or a
 * column of it); members - 1 steps, each moving one share,
 * ceil(bytes / members), over every link of the ring at once. Plain C, no
 * MLIR, in lib/Common: the C model's op_dma_load_shared
 * (lib/Runtime/tx8/cycles.c) charges it and tx8-sharding's estimate
 * charges the same for the loads it shares, so the two agree. */
#ifndef NPUC_TX8_NOC_COST_H
#define NPUC_TX8_NOC_COST_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
  int32_t tiles_x;              /* the mesh's width */
  int64_t link_bytes_per_cycle; /* chip.noc.link_bytes_per_cycle */
  int64_t hop_cycles;           /* chip.noc.hop_cycles */
  int64_t overhead_cycles;      /* engines.op_overhead_cycles */
} npuc_tx8_noc;

/* The Manhattan length of the ring's longest link (consecutive tiles of
 * the snake, and the last back to the first); at least 1. */
int32_t npuc_tx8_noc_longest_link(int32_t members, int32_t first,
                                  int32_t stride, int32_t tiles_x);

/* The gather's cycles: the overhead plus (members - 1) steps of the share
 * over a link (rounded up, at least 1) plus hop_cycles times the longest
 * link. 0 for one member or no bytes. */
uint64_t npuc_tx8_noc_gather_cycles(const npuc_tx8_noc *noc, int64_t bytes,
                                    int32_t members, int32_t first,
                                    int32_t stride);

/* The reduce split across tiles (docs/tx8.md, "Cycle model"): the fp32
 * partial sums of `bytes` each of the `members` tiles of a team hold
 * (first, first + stride, ...) summed into the team's first tile: a ring
 * reduce-scatter (members - 1 steps of a share, each tile adding the
 * share it receives) then a ring gather of the summed shares to the
 * first: twice npuc_tx8_noc_gather_cycles. The adds are the CT's
 * (npuc_tx8_noc_reduce_add_bytes). 0 for one member or no bytes. */
uint64_t npuc_tx8_noc_reduce_cycles(const npuc_tx8_noc *noc, int64_t bytes,
                                    int32_t members, int32_t first,
                                    int32_t stride);
/* The fp32 bytes each tile adds in that reduce-scatter: members - 1
 * shares of ceil(bytes / members). */
int64_t npuc_tx8_noc_reduce_add_bytes(int64_t bytes, int32_t members);

#endif
