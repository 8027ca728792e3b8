/* A growable array of operations, and a walk that fills one.
 *
 * Passes collect the ops they will rewrite before rewriting any (rewriting
 * during mlirOperationWalk would invalidate the walk). Every pass used to
 * carry its own copy of this array; this is the one shared version. */
#ifndef NPUC_OPLIST_H
#define NPUC_OPLIST_H

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct {
  MlirOperation *ops;
  size_t count, cap;
} npuc_op_list;

/* Appends `op`. Out of memory ends the process (npuc_die): a list holds
 * pointers to ops the IR already has, so it cannot outgrow the IR, and a
 * pass half-way through a rewrite could not undo it anyway. */
void npuc_op_list_push(npuc_op_list *l, MlirOperation op);

/* Frees the array and leaves an empty list. */
void npuc_op_list_free(npuc_op_list *l);

/* What a filter says about one op: an OR of these bits. */
enum {
  NPUC_OP_PASS = 0,         /* not collected, walk into its regions */
  NPUC_OP_KEEP = 1,         /* collected */
  NPUC_OP_SKIP_REGIONS = 2, /* do not walk into its regions (pre-order) */
};
typedef unsigned (*npuc_op_filter)(MlirOperation op, void *user);

/* Walks `root` (root included) in `order` and appends to `out` the ops
 * `filter` keeps (all ops if `filter` is NULL). */
void npuc_op_list_collect(MlirOperation root, MlirWalkOrder order,
                          npuc_op_filter filter, void *user, npuc_op_list *out);

#endif
