/* The shared op list; see OpList.h. */
#include "npuc/OpList.h"
#include "npuc/Alloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  npuc_op_filter filter;
  void *user;
  npuc_op_list *out;
} collect_ctx;

static MlirWalkResult collect_one(MlirOperation op, void *user);

static void collect_pre_order(MlirOperation op, const collect_ctx *c);

void npuc_op_list_collect(MlirOperation root, MlirWalkOrder order,
                          npuc_op_filter filter, void *user,
                          npuc_op_list *out) {
  collect_ctx c = {filter, user, out};
  if (order == MlirWalkPreOrder)
    collect_pre_order(root, &c);
  else
    mlirOperationWalk(root, collect_one, &c, order);
}

/* Pre-order by following the blocks' op lists: a callback per op through
 * mlirOperationWalk costs more than the walk itself. Recurses once per
 * level of region nesting. */
static void collect_pre_order(MlirOperation op, const collect_ctx *c) {
  unsigned verdict = c->filter ? c->filter(op, c->user) : NPUC_OP_KEEP;
  if (verdict & NPUC_OP_KEEP)
    npuc_op_list_push(c->out, op);
  if (verdict & NPUC_OP_SKIP_REGIONS)
    return;
  intptr_t n = mlirOperationGetNumRegions(op);
  for (intptr_t r = 0; r < n; r++)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
      for (MlirOperation o = mlirBlockGetFirstOperation(b);
           !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
        collect_pre_order(o, c);
}

static MlirWalkResult collect_one(MlirOperation op, void *user) {
  collect_ctx *c = user;
  unsigned verdict = c->filter ? c->filter(op, c->user) : NPUC_OP_KEEP;
  if (verdict & NPUC_OP_KEEP)
    npuc_op_list_push(c->out, op);
  return (verdict & NPUC_OP_SKIP_REGIONS) ? MlirWalkResultSkip
                                          : MlirWalkResultAdvance;
}

void npuc_op_list_push(npuc_op_list *l, MlirOperation op) {
  if (l->count == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 16;
    l->ops = npuc_xreallocarray(l->ops, l->cap, sizeof *l->ops);
  }
  l->ops[l->count++] = op;
}

void npuc_op_list_free(npuc_op_list *l) {
  free(l->ops);
  memset(l, 0, sizeof *l);
}
