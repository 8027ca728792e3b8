/* Graph walking shared by the TX8 passes; see Tx8Graph.h. */
#include "Tx8Graph.h"
#include "npuc/Pass.h"
#include "npuc/Tx8Ir.h"

#include <stdlib.h>
#include <string.h>

void tx8_op_list_push(tx8_op_list *l, MlirOperation op) {
  npuc_op_list_push(l, op);
}

void tx8_op_list_free(tx8_op_list *l) { npuc_op_list_free(l); }

static unsigned named(MlirOperation op, void *name) {
  return npuc_op_is(op, name) ? NPUC_OP_KEEP : NPUC_OP_PASS;
}

void tx8_collect_ops(MlirOperation root, const char *name, tx8_op_list *out) {
  memset(out, 0, sizeof *out);
  npuc_op_list_collect(root, MlirWalkPreOrder, named, (void *)name, out);
}

void tx8_graph_ops(MlirOperation module, tx8_op_list *out) {
  memset(out, 0, sizeof *out);
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(top);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if ((npuc_op_is(op, "func.func") || npuc_op_is(op, "tx8be.subgraph")) &&
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

bool tx8_require_known(MlirOperation op, const char *why) {
  if (npuc_tx8_query_op(op).known)
    return true;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  npuc_pass_error(op, "'%.*s' %s", (int)n.length, n.data, why);
  return false;
}

bool tx8_pass_target_mesh(MlirOperation module, const char *pass,
                          const char *config, npuc_tx8_target *target,
                          int32_t *dx, int32_t *dy) {
  return npuc_tx8_pass_target(module, pass, config, target) &&
         npuc_tx8_module_tile_mesh(module, target, dx, dy);
}
