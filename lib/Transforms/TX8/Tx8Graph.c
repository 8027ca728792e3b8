/* Graph walking shared by the TX8 passes; see Tx8Graph.h. */
#include "Tx8Graph.h"

#include <stdlib.h>
#include <string.h>

void tx8_op_list_push(tx8_op_list *l, MlirOperation op) {
  if (l->count == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 16;
    MlirOperation *v = realloc(l->ops, cap * sizeof *v);
    if (!v)
      abort(); /* out of memory */
    l->ops = v;
    l->cap = cap;
  }
  l->ops[l->count++] = op;
}

void tx8_op_list_free(tx8_op_list *l) {
  free(l->ops);
  memset(l, 0, sizeof *l);
}

bool tx8_op_is(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

typedef struct {
  const char *name;
  tx8_op_list *out;
} collect_ctx;

static MlirWalkResult collect_one(MlirOperation op, void *user) {
  collect_ctx *c = user;
  if (tx8_op_is(op, c->name))
    tx8_op_list_push(c->out, op);
  return MlirWalkResultAdvance;
}

void tx8_collect_ops(MlirOperation root, const char *name, tx8_op_list *out) {
  memset(out, 0, sizeof *out);
  collect_ctx c = {name, out};
  mlirOperationWalk(root, collect_one, &c, MlirWalkPreOrder);
}

void tx8_graph_ops(MlirOperation module, tx8_op_list *out) {
  memset(out, 0, sizeof *out);
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(top);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if ((tx8_op_is(op, "func.func") || tx8_op_is(op, "tx8be.subgraph")) &&
        !mlirBlockIsNull(tx8_graph_body(op)))
      tx8_op_list_push(out, op);
}

MlirBlock tx8_graph_body(MlirOperation graph) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(graph, 0));
}

MlirOperation tx8_block_last_op(MlirBlock block) {
  MlirOperation last = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    last = op;
  return last;
}
