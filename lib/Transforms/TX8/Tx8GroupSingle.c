/* tx8-group-single: the seed's GroupOptimizationPass (createSingleGroup):
 * every compute op of a graph body that tx8-group-pattern did not take
 * gets a tx8be.group of its own (built by tx8_build_group, which
 * tx8-group-pattern shares).
 *
 *   %g = tx8be.group(%x, %w) : (X, W) -> (Y) attributes {group_id = 3 : si32,
 * group_tag = 0 : i32} { ^bb0(%a: X, %b: W): %c = tx8be.channel_norm %a to
 * <NCx> ...   // a channel_norm only this op reads %y = tx8be.conv %c, %b,
 * %none ... tx8be.return %y : Y
 *   }
 *
 * The group's operands are the DDR values the op reads (graph arguments,
 * load_const results, results of earlier groups), each once; tx8be.none
 * stays outside and is read from there. A channel_norm several groups
 * would take in is first copied, one per such group, so each converts in
 * its own SPM. group_id counts the module's groups in order; group_tag
 * is 0, or 2 for ops the op library marks as not parallel (reshape,
 * tuple: nothing to shard). load_const, none, group, call and the
 * terminators stay outside. docs/passes/tx8-group-single.md */
#include "Tx8Graph.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"
#include "npuc/Tx8Ir.h"
#include "npuc/Alloc.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

NPUC_PASS_DEFINE(npuc_pass_tx8_group_single, "tx8-group-single",
                 "Put every tx8be compute op in a tx8be.group of its own",
                 "builtin.module", group_single, );

static bool check_body(MlirBlock body);
static void group_body(MlirBlock body);

static bool group_single(MlirOperation module, const npuc_pass_options *opts,
                         const npuc_pass_context *ctx) {
  (void)opts;
  (void)ctx;
  tx8_op_list graphs;
  tx8_graph_ops(module, &graphs);
  bool ok = true;
  for (size_t i = 0; i < graphs.count; i++)
    ok = check_body(tx8_graph_body(graphs.ops[i])) && ok;
  for (size_t i = 0; ok && i < graphs.count; i++)
    group_body(tx8_graph_body(graphs.ops[i]));
  if (ok)
    tx8_number_groups(module);
  tx8_op_list_free(&graphs);
  return ok;
}

static bool check_body(MlirBlock body) {
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (tx8_group_role(op) != TX8_ROLE_BAD)
      continue;
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
    if (npuc_op_is(op, "tx8be.constant"))
      npuc_pass_error(op, "a tx8be.constant cannot be grouped: run "
                          "tx8-move-constant first");
    else
      npuc_pass_error(op, "'%.*s' is no tx8be op and cannot be grouped",
                      (int)n.length, n.data);
    ok = false;
  }
  return ok;
}

/* ---- grouping ---------------------------------------------------------- */

static void group_body(MlirBlock body) {
  tx8_split_shared_norms(body);
  /* Decide first: grouping moves ops out of the body being walked. */
  tx8_op_list compute = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (tx8_group_role(op) == TX8_ROLE_COMPUTE)
      tx8_op_list_push(&compute, op);
  for (size_t i = 0; i < compute.count; i++) {
    tx8_op_list one = {0};
    tx8_op_list_push(&one, compute.ops[i]);
    tx8_build_group(&one);
    tx8_op_list_free(&one);
  }
  tx8_op_list_free(&compute);
}
