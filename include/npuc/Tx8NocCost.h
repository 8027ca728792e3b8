/* Tx8NocCost: what a shared load's all-gather over the mesh NoC costs
 * (docs/tx8.md, "Cycle model"): a ring over the group's tiles 0 .. parts-1
 * laid row-major on a mesh `tiles_x` wide, visited row by row with every
 * other row reversed (a snake); parts - 1 steps, each moving one share,
 * ceil(bytes / parts), over every link of the ring at once. Plain C, no
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
int32_t npuc_tx8_noc_longest_link(int32_t parts, int32_t tiles_x);

/* The gather's cycles: the overhead plus (parts - 1) steps of the share
 * over a link (rounded up, at least 1) plus hop_cycles times the longest
 * link. 0 for one part or no bytes. */
uint64_t npuc_tx8_noc_gather_cycles(const npuc_tx8_noc *noc, int64_t bytes,
                                    int32_t parts);

#endif
