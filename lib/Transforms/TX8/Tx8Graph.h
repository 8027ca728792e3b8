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

/* ---- building groups (Tx8GroupBuild.c) ---------------------------------- */

/* What tx8-group-single does with an op of a graph body. */
typedef enum {
  TX8_ROLE_OUTSIDE,  /* stays in the graph body as it is */
  TX8_ROLE_COMPUTE,  /* gets a group */
  TX8_ROLE_ABSORBED, /* a channel_norm that goes into its user's or its
                        producer's group */
  TX8_ROLE_BAD,      /* cannot be grouped: an error */
} tx8_op_role;

tx8_op_role tx8_group_role(MlirOperation op);
/* The one op reading `v` (through every use of it), or a null op. */
MlirOperation tx8_sole_user(MlirValue v);
/* A channel_norm whose only reader loads it: it goes in that reader's
 * group. */
bool tx8_norm_absorbed_before(MlirOperation op);
/* Gives every reader that loads a shared channel_norm its own copy. */
void tx8_split_shared_norms(MlirBlock body);
/* One tx8be.group, before the last of `compute` (compute ops of one graph
 * body, in program order, with no path between two of them through an op
 * outside them), holding them and their channel_norms in that order: block
 * arguments are the DDR values they read, once each; tx8be.none stays
 * outside; tx8be.return yields every result read outside, and all of the
 * last member's. group_tag 0, or 2 when no op is parallel (nothing to shard);
 * group_id -1 until tx8_number_groups. */
MlirOperation tx8_build_group(const tx8_op_list *compute);
/* group_id 0, 1, ... over the module's graph bodies' groups in order. */
void tx8_number_groups(MlirOperation module);

#endif
