/* The shared op list; see OpList.h. */
#include "npuc/OpList.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  npuc_op_filter filter;
  void *user;
  npuc_op_list *out;
} collect_ctx;

static MlirWalkResult collect_one(MlirOperation op, void *user);

bool npuc_op_list_collect(MlirOperation root, MlirWalkOrder order,
                          npuc_op_filter filter, void *user,
                          npuc_op_list *out) {
  collect_ctx c = {filter, user, out};
  mlirOperationWalk(root, collect_one, &c, order);
  return !out->oom;
}

static MlirWalkResult collect_one(MlirOperation op, void *user) {
  collect_ctx *c = user;
  unsigned verdict = c->filter ? c->filter(op, c->user) : NPUC_OP_KEEP;
  if ((verdict & NPUC_OP_KEEP) && !npuc_op_list_push(c->out, op))
    return MlirWalkResultInterrupt;
  return (verdict & NPUC_OP_SKIP_REGIONS) ? MlirWalkResultSkip
                                          : MlirWalkResultAdvance;
}

bool npuc_op_list_push(npuc_op_list *l, MlirOperation op) {
  if (l->count == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 16;
    MlirOperation *grown = realloc(l->ops, cap * sizeof *grown);
    if (!grown) {
      l->oom = true;
      return false;
    }
    l->ops = grown;
    l->cap = cap;
  }
  l->ops[l->count++] = op;
  return true;
}

void npuc_op_list_free(npuc_op_list *l) {
  free(l->ops);
  memset(l, 0, sizeof *l);
}
