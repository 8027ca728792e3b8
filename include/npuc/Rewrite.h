/* The greedy pattern driver as our pattern passes run it (one way, over
 * LLVM 22's C API: C-defined patterns, mlirApplyPatternsAndFoldGreedily).
 * A pass builds its MlirRewritePatternSet and hands it over. */
#ifndef NPUC_REWRITE_H
#define NPUC_REWRITE_H

#include <mlir-c/IR.h>
#include <mlir-c/Rewrite.h>
#include <stdbool.h>

typedef struct {
  /* Sweeps over the IR (1: every op a rewrite touches is revisited within
   * the sweep, so one is enough when rewrites only move work forward). */
  int max_iterations;
  /* Leave ops our patterns do not match untouched: no folding, no
   * constant CSE. */
  bool no_folding;
  /* Called after each run; true runs the driver once more (a pass with
   * work it deferred until the first run's rewrites were done). */
  bool (*again)(void *user);
  void *user;
} npuc_greedy_options;

/* Freezes `set` (consumed), runs the driver on `root` with region
 * simplification off (our passes change only what their patterns match),
 * then as long as `again` asks, and frees it all. */
void npuc_apply_patterns_greedily(MlirOperation root, MlirRewritePatternSet set,
                                  const npuc_greedy_options *o);

#endif
