/* What the TX8 passes share about walking a graph: op lists, op names, and
 * the graph bodies (the entry blocks of func.func and tx8be.subgraph ops of
 * the module, where the seed's passes work). */
#ifndef NPUC_TRANSFORMS_TX8_GRAPH_H
#define NPUC_TRANSFORMS_TX8_GRAPH_H

#include "npuc/BuildOps.h"
#include "npuc/OpList.h"
#include "npuc/Tx8Ir.h"
#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>

typedef npuc_op_list tx8_op_list;

void tx8_op_list_push(tx8_op_list *l, MlirOperation op);
void tx8_op_list_free(tx8_op_list *l);

/* The last op of `block` (null if empty). mlirBlockGetTerminator does not
 * serve: it asks for the terminator trait, which unregistered ops such as
 * tx8be.return do not have. Walks the block: use it on group bodies. */
MlirOperation tx8_block_last_op(MlirBlock block);

/* Whether `op` is in the tx8be op library (its need_load/need_store
 * masks are known); if not, an error at it: "'<op>' <why>". */
bool tx8_require_known(MlirOperation op, const char *why);

/* Every op named `name` under `root` (root included), in walk order. */
void tx8_collect_ops(MlirOperation root, const char *name, tx8_op_list *out);

/* The func.func and tx8be.subgraph ops directly in the module, in order;
 * their first region's entry block is a graph body. */
void tx8_graph_ops(MlirOperation module, tx8_op_list *out);
MlirBlock tx8_graph_body(MlirOperation graph);

/* The target description a pass's target-config option names (the
 * built-in one when `config` is empty) and the module's tile mesh; false
 * after a located error naming `pass`. */
bool tx8_pass_target_mesh(MlirOperation module, const char *pass,
                          const char *config, npuc_tx8_target *target,
                          int32_t *dx, int32_t *dy);

#endif
