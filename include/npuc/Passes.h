/* Every npuc pass (lib/Transforms/Passes.def). The tools call this once
 * before they read a pipeline, as mlir-opt calls registerAllPasses: the
 * pass registry (lib/Pass) sits below the passes and knows none of them. */
#ifndef NPUC_PASSES_H
#define NPUC_PASSES_H

/* Registers every pass of Passes.def; a second call does nothing. */
void npuc_register_passes(void);

#endif
