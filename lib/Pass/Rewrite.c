/* npuc_apply_patterns_greedily (npuc/Rewrite.h): the greedy driver set up
 * once for every pattern pass. */
#include "npuc/Rewrite.h"

void npuc_apply_patterns_greedily(MlirOperation root, MlirRewritePatternSet set,
                                  const npuc_greedy_options *o) {
  MlirFrozenRewritePatternSet frozen = mlirFreezeRewritePattern(set);
  mlirRewritePatternSetDestroy(set); /* moved from by the freeze */
  MlirGreedyRewriteDriverConfig cfg = mlirGreedyRewriteDriverConfigCreate();
  mlirGreedyRewriteDriverConfigSetMaxIterations(cfg, o->max_iterations);
  if (o->no_folding) {
    mlirGreedyRewriteDriverConfigEnableFolding(cfg, false);
    mlirGreedyRewriteDriverConfigEnableConstantCSE(cfg, false);
  }
  mlirGreedyRewriteDriverConfigSetRegionSimplificationLevel(
      cfg, MLIR_GREEDY_SIMPLIFY_REGION_LEVEL_DISABLED);
  do
    mlirApplyPatternsAndFoldGreedilyWithOp(root, frozen, cfg);
  while (o->again && o->again(o->user));
  mlirGreedyRewriteDriverConfigDestroy(cfg);
  mlirFrozenRewritePatternSetDestroy(frozen);
}
