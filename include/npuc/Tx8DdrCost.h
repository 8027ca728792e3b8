/* Tx8DdrCost: what a DMA pays for where its DDR side lies (docs/tx8.md,
 * "DDR placement"): partial 64-byte bursts at the ends of its contiguous
 * runs and the banks it opens beyond what an aligned contiguous transfer
 * of its bytes opens. Plain C, no MLIR, in lib/Common: the C model's DMA
 * (lib/Runtime/tx8/dma.c) charges it on the addresses it copies, and
 * tx8-sharding's estimate charges it on the runs a candidate's slices
 * will make (npuc_tx8_ddr_region_cycles), so both count the same cost. */
#ifndef NPUC_TX8_DDR_COST_H
#define NPUC_TX8_DDR_COST_H

#include "npuc/Tx8Layout.h"

#include <stdbool.h>
#include <stdint.h>

/* The DDR burst and the cost of opening a bank (assumed, docs/tx8.md). */
#define NPUC_TX8_DDR_BURST_BYTES 64
#define NPUC_TX8_DDR_BANK_OPEN_CYCLES 28
/* How many banks a DMA keeps open (assumed: DDR4 has 16 banks, each with
 * its own row buffer); a run into one of them opens nothing. */
#define NPUC_TX8_DDR_OPEN_BANKS 8

/* A walk over one transfer's DDR pieces, in order: a piece starting where
 * the current run ends continues it; a run is charged when the next one
 * starts elsewhere (or at the end). */
typedef struct {
  int64_t bank; /* bank bytes (> 0) */
  bool have_run;
  int64_t start, end; /* the current run */
  /* The banks kept open, most recently used first. */
  int64_t open[NPUC_TX8_DDR_OPEN_BANKS];
  int num_open;
  int64_t useful; /* bytes of all runs */
  int64_t waste;  /* bytes of partial bursts at run ends */
  int64_t opened; /* banks opened */
} npuc_tx8_ddr_walk;

/* A walk over banks of `bank_bytes` (4096 when not positive). */
void npuc_tx8_ddr_walk_start(npuc_tx8_ddr_walk *w, int64_t bank_bytes);
/* DDR bytes [at, at + len) (offsets from a bank-aligned base). */
void npuc_tx8_ddr_walk_piece(npuc_tx8_ddr_walk *w, int64_t at, int64_t len);
/* The walk's cycles beyond an aligned contiguous transfer's: the partial
 * bursts' bytes at `bytes_per_cycle` (rounded up), plus
 * NPUC_TX8_DDR_BANK_OPEN_CYCLES per bank opened beyond ceil(useful /
 * bank). Ends the current run. */
uint64_t npuc_tx8_ddr_walk_cycles(npuc_tx8_ddr_walk *w, double bytes_per_cycle);

/* The same cost for the DDR side of a slice DMA (op_dma_load_slice /
 * op_dma_store_slice): the region [start, start + size) of a tensor of
 * `shape` (rank `dim`) laid out in `mode` from a bank-aligned base, walked
 * in the pieces contiguous in DDR in the C model's order: row by row in a
 * compact layout; in Cx/NCx block by block (64 or 128 channels, the C0
 * part last), each block's rows in turn, so a block's rows make one run.
 * At most `max_rows` rows are walked (per block; an estimate's budget; 0:
 * all): the rest cost what the second half of those did per row, the banks
 * opened first staying open. In double: an estimate. */
double npuc_tx8_ddr_region_cycles(const int64_t *shape, int dim,
                                  npuc_tx8_dtype dt, npuc_tx8_layout_mode mode,
                                  const int32_t *start, const int32_t *size,
                                  int64_t bank_bytes, double bytes_per_cycle,
                                  int64_t max_rows);

#endif
