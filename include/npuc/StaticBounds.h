/* Accesses that provably leave a static memref (the check-static-bounds
 * pass, lib/Transforms/CheckStaticBounds.c,
 * docs/passes/check-static-bounds.md). */
#ifndef NPUC_STATIC_BOUNDS_H
#define NPUC_STATIC_BOUNDS_H

#include <mlir-c/IR.h>
#include <stdbool.h>

/* Reports, as a pass error at the op, each affine.load/store,
 * memref.load/store and vector.transfer_read/write (its first element)
 * under `root` whose index provably reaches outside its
 * static memref on some iteration of its constant-bound loops; false when
 * there was one. */
bool npuc_check_static_bounds(MlirOperation root);

#endif
