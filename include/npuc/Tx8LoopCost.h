/* Tx8LoopCost: tx8-sharding's model of a group's pipelined slice loop
 * (docs/passes/tx8-sharding.md, "The cost"): the loop as the code
 * generator issues it (lib/Target/TX8/EmitGroup.c) with every per-slice
 * load and store in `copies` copies, placed as the C model's timeline
 * places it (lib/Runtime/tx8/timeline.c), from a slice's aggregate
 * costs. The search's estimate against the simulated cycles:
 * docs/passes/tx8-sharding.md. */
#ifndef NPUC_TX8_LOOP_COST_H
#define NPUC_TX8_LOOP_COST_H

#include "npuc/Tx8Group.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
  /* Filled once per tile: the head (what the group's first compute op
   * reads: before the loop) — its DDR cycles and when that op may start
   * (each load's NoC gather overlapping the next one's read); the rest,
   * issued after slice 0's loads — its DDR and NoC cycles. */
  double head_ddr, head_ready, late_ddr, late_noc;
  /* Slice 0's chain from the first op reading a late once-filled buffer:
   * that much of it waits for them all. */
  double late_tail;
  /* Per slice: the loads' DDR cycles, their NoC gathers, the compute
   * chain (NE, CT and TDMA ops one after another), what the next slice's
   * chain waits for of it (at most the chain), the stores' DDR cycles. */
  double load, noc, chain, span, store;
  /* When a slice's loads are in, from their first read (each one's NoC
   * gather overlapping the next one's read, the NoC free then). */
  double load_ready;
  int64_t slices;
  /* Of each per-slice load (1: a slice's loads wait for the chain
   * before it) and of each store (1: a slice's chain waits for the store
   * before it; more: a slice's stores are issued after the next slice's
   * loads, EmitGroup.c's deferred stores). */
  int copies, store_copies;
  /* A later slice's loads' DDR cycles (the halo rows the slice before
   * holds are copied in SPM instead: that copy is in `chain`). */
  double load_next;
  /* The staged loop (npuc_tx8_loop_stage_cut): a load's copy is free
   * once its slice's head has read it, when the slice's chain starts
   * (`span` is then the busier engine's share, not a stretch of the
   * chain). */
  bool staged;
} npuc_tx8_loop;

/* The tile's cycles from the group's start to its last transfer. */
double npuc_tx8_loop_cycles(const npuc_tx8_loop *l);

/* The staged slice loop (docs/tx8.md, "The software pipeline"): with
 * every per-slice buffer in three copies, a group of two NE ops or more
 * runs three slices at once, each iteration k issuing slice k + 2's loads
 * and head (the channel_norms and extracts of loaded buffers), slice
 * k + 1's ops before the last NE op (stage 1) and slice k's from it on
 * (stage 0), and slice k - 1's stores; each engine's queue then holds the
 * next slice's first NE op before this slice's last, and the SPM port
 * the next slice's head before this slice's CGRA work, so the steady
 * slice is the busier of the NE and the SPM port (CT + TDMA), not their
 * chain. Returns the step of the group's last NE op (where stage 0
 * starts), or -1 when the plan cannot be staged: a reduce split, fewer
 * than two NE ops, or a stored buffer written by a step of stage 1 or 2
 * (below). The copies are the caller's to check. */
int npuc_tx8_loop_stage_cut(const npuc_tx8_group_plan *p);
/* Each step's stage (the slices ahead it runs for) under cut `cut`:
 * 2 for a per-slice load and a channel_norm or extract of a buffer a
 * stage-2 step wrote (the head: so the loaded buffer is free two slices
 * on), 1 for the other steps before the cut, 0 for the cut and the steps
 * after it (a store too: it is issued one slice late, with stage 0 of
 * the next), -1 for a step filling a buffer once per tile (before the
 * loop). */
void npuc_tx8_loop_stages(const npuc_tx8_group_plan *p, int cut, int8_t *stage);

/* A reduce split's K loop inside each slice (the seed's reduceSplit,
 * EmitGroup.c's K loop): per K slice the loads of the gemm's or conv's K
 * slices stream in and the NE op adds their product to partial sums that
 * stay in SPM; what follows the last K slice (the partial sums'
 * conversion, a team's reduction, the ops after the NE op) is the
 * slice's `chain` in npuc_tx8_loop, and the stores go once per slice. */
typedef struct {
  int64_t slices; /* K slices per slice (of the tile's part of K) */
  /* One K slice's loads' DDR cycles and NoC gathers, when they are all
   * in from the first one's read (each one's gather overlapping the next
   * one's read), and its chain (its channel_norms and the NE op's
   * partial product). */
  double load, noc, ready, chain;
  /* Copies of the K slices' buffers (1: K slice j + 1's loads wait for K
   * slice j's chain to have read the buffers). */
  int copies;
} npuc_tx8_k_loop;

/* npuc_tx8_loop_cycles of a group with a reduce split: `l` without the K
 * slices' loads and NE work (its loads the slice's others, its chain
 * the work after the last K slice; no late once-filled buffers: the
 * code generator fills them all before the loop), `k` the K loop. */
double npuc_tx8_k_loop_cycles(const npuc_tx8_loop *l, const npuc_tx8_k_loop *k);

#endif
