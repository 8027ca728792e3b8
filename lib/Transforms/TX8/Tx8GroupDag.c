/* tx8-group-dag: the seed's groupDAGPass (compile option opt_barrier).
 * The groups of a graph body form a DAG by their DDR data: a group reads
 * what earlier groups wrote. Each group gets a level, its distance to the
 * graph's sinks (0 for a group no other group reads; else one more than
 * its highest reader, a DDR-only group — tx8-group-ldst's reshapes, which
 * emit no code — counting for nothing); groups of one level are
 * independent. The groups are put in order of level, highest first (a
 * topological order: a producer's level is above its readers'), program
 * order within a level, and only the last group with code of each level
 * gets need_barrier = true, the others false: the tiles synchronize once
 * per level, and every value crosses a barrier between the group that
 * writes it and the groups that read it, whichever tiles they run on.
 * Requires grouped IR (after tx8-spm-alloc in the tx8 pipeline); leaves
 * the groups reordered with need_barrier set on every group. With
 * levels=false, or when the body holds an op other than groups, operand-
 * less ops and the terminator (nothing is moved then), every group gets
 * need_barrier = true: the barrier after each group. A body whose groups
 * all carry need_barrier already (a hand-written schedule, an earlier
 * run) is kept as it is, unless levels=false. Linear in the ops and
 * uses. docs/passes/tx8-group-dag.md. */
#include "Tx8Graph.h"
#include "npuc/Alloc.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"
#include "npuc/PtrSet.h"
#include "npuc/Tx8Group.h"

#include <mlir-c/BuiltinAttributes.h>
#include <stdlib.h>
#include <string.h>

#define GROUP_DAG_OPTIONS(X, T)                                                \
  X(T, bool, levels, "levels", NPUC_OPT_BOOL, "true", NULL,                    \
    "one barrier per level of independent groups (opt_barrier); false: a "     \
    "barrier after every group")                                               \
  X(T, bool, stats, "stats", NPUC_OPT_BOOL, "false", NULL,                     \
    "a remark per graph: its groups with code and the barriers left")
NPUC_PASS_OPTIONS(group_dag_options, GROUP_DAG_OPTIONS);

static bool run_group_dag(MlirOperation module, const npuc_pass_options *opts,
                          const npuc_pass_context *ctx);

NPUC_PASS_DEFINE(npuc_pass_tx8_group_dag, "tx8-group-dag",
                 "Order TX8 groups by dependence level and keep one barrier "
                 "per level (need_barrier; opt_barrier)",
                 "builtin.module", run_group_dag,
                 NPUC_PASS_OPTIONS_OF(group_dag_options));

typedef struct {
  tx8_op_list groups; /* program order */
  int *level;
  bool *ddr_only;
  npuc_ptr_map index; /* group op -> position */
  int num_levels;
} body_dag;

static void body_levels(MlirBlock body, const group_dag_options *o);

static bool run_group_dag(MlirOperation module, const npuc_pass_options *opts,
                          const npuc_pass_context *ctx) {
  (void)ctx;
  const group_dag_options *o = NPUC_PASS_OPTS(group_dag_options, opts);
  tx8_op_list graphs;
  tx8_graph_ops(module, &graphs);
  for (size_t i = 0; i < graphs.count; i++)
    body_levels(tx8_graph_body(graphs.ops[i]), o);
  tx8_op_list_free(&graphs);
  return true;
}

static bool movable_body(MlirBlock body, body_dag *d);
static void compute_levels(body_dag *d);
static void reorder(MlirBlock body, body_dag *d);
static void set_barrier(MlirOperation group, bool on);
static void remark_stats(const body_dag *d, const char *why);

static bool barrier_of(MlirOperation group) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      group, mlirStringRefCreateFromCString("need_barrier"));
  return !mlirAttributeIsNull(a) && mlirAttributeIsABool(a) &&
         mlirBoolAttrGetValue(a);
}

/* Every group carries need_barrier already (a hand-written schedule, or
 * an earlier run): kept, as tx8-sharding keeps a given sharding. */
static bool barriers_given(const body_dag *d) {
  for (size_t i = 0; i < d->groups.count; i++) {
    MlirAttribute a = mlirOperationGetAttributeByName(
        d->groups.ops[i], mlirStringRefCreateFromCString("need_barrier"));
    if (mlirAttributeIsNull(a) || !mlirAttributeIsABool(a))
      return false;
  }
  return d->groups.count > 0;
}

static void body_levels(MlirBlock body, const group_dag_options *o) {
  body_dag d;
  memset(&d, 0, sizeof d);
  bool movable = movable_body(body, &d);
  bool given = o->levels && barriers_given(&d);
  if (!given && (!o->levels || !movable)) {
    for (size_t i = 0; i < d.groups.count; i++)
      set_barrier(d.groups.ops[i], true);
  } else if (!given) {
    compute_levels(&d);
    reorder(body, &d);
  }
  if (o->stats && d.groups.count)
    remark_stats(&d, given ? " (given: kept)"
                     : !o->levels || movable
                         ? ""
                         : " (an op other than a group reads DDR values "
                           "here: the order is kept)");
  free(d.level);
  free(d.ddr_only);
  npuc_ptr_map_free(&d.index);
  tx8_op_list_free(&d.groups);
}

/* The groups with code and the barriers they keep. */
static void remark_stats(const body_dag *d, const char *why) {
  int code = 0, barriers = 0;
  for (size_t i = 0; i < d->groups.count; i++) {
    bool has_code = !npuc_tx8_group_is_ddr_only(d->groups.ops[i]);
    code += has_code;
    barriers += has_code && barrier_of(d->groups.ops[i]);
  }
  npuc_pass_remark(d->groups.ops[0], "%d groups with code, %d barriers%s", code,
                   barriers, why);
}

/* Collects the groups; false when an op other than a group, an op without
 * operands (load_const, constant, none) or the terminator is in the body:
 * moving groups past it could break its uses. */
static bool movable_body(MlirBlock body, body_dag *d) {
  bool movable = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (npuc_op_is(op, "tx8be.group")) {
      if (!npuc_ptr_map_put(&d->index, op.ptr, (uintptr_t)d->groups.count))
        npuc_die("out of memory");
      tx8_op_list_push(&d->groups, op);
    } else if (mlirOperationGetNumOperands(op) > 0 &&
               !mlirOperationIsNull(mlirOperationGetNextInBlock(op))) {
      movable = false;
    }
  }
  MlirOperation last = d->groups.count ? d->groups.ops[d->groups.count - 1]
                                       : (MlirOperation){NULL};
  /* The terminator must follow the groups (it is where they move to). */
  return movable && (mlirOperationIsNull(last) ||
                     !mlirOperationIsNull(mlirOperationGetNextInBlock(last)));
}

/* The level of each group, in one pass from the last group up: one more
 * than its highest reader's (a DDR-only reader adds nothing). */
static void compute_levels(body_dag *d) {
  size_t n = d->groups.count;
  d->level = npuc_xcalloc(n + 1, sizeof *d->level);
  d->ddr_only = npuc_xcalloc(n + 1, sizeof *d->ddr_only);
  for (size_t i = 0; i < n; i++)
    d->ddr_only[i] = npuc_tx8_group_is_ddr_only(d->groups.ops[i]);
  for (size_t i = n; i-- > 0;) {
    MlirOperation g = d->groups.ops[i];
    int level = 0;
    for (intptr_t r = 0; r < mlirOperationGetNumResults(g); r++)
      for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(g, r));
           !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
        uintptr_t k;
        MlirOperation user = mlirOpOperandGetOwner(u);
        if (!npuc_ptr_map_get(&d->index, user.ptr, &k))
          continue; /* the return: a sink */
        int via = d->level[k] + (d->ddr_only[k] ? 0 : 1);
        if (via > level)
          level = via;
      }
    d->level[i] = level;
    if (level + 1 > d->num_levels)
      d->num_levels = level + 1;
  }
}

/* Operand-less ops before the first group (groups read them; their
 * order kept), then the groups level by level from the highest (a
 * counting sort: stable, linear), each level's last group with code
 * keeping the barrier; the terminator stays last. */
static void reorder(MlirBlock body, body_dag *d) {
  MlirOperation last = mlirBlockGetFirstOperation(body);
  for (MlirOperation op = last; !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    last = op;
  size_t n = d->groups.count;
  if (n == 0)
    return;
  MlirOperation first_group = d->groups.ops[0];
  for (MlirOperation op = mlirOperationGetNextInBlock(first_group), next;
       !mlirOperationIsNull(op) && !mlirOperationEqual(op, last); op = next) {
    next = mlirOperationGetNextInBlock(op);
    if (!npuc_op_is(op, "tx8be.group") && mlirOperationGetNumOperands(op) == 0)
      mlirOperationMoveBefore(op, first_group);
  }
  int levels = d->num_levels;
  size_t *start = npuc_xcalloc((size_t)levels + 1, sizeof *start);
  size_t *order = npuc_xcalloc(n, sizeof *order);
  for (size_t i = 0; i < n; i++)
    start[levels - 1 - d->level[i] + 1]++;
  for (int l = 0; l < levels; l++)
    start[l + 1] += start[l];
  for (size_t i = 0; i < n; i++)
    order[start[levels - 1 - d->level[i]]++] = i;
  /* start[k] is now the end of the k-th level in `order`. */
  int used = 0;
  for (size_t k = 0, at = 0; k < (size_t)levels; k++) {
    MlirOperation last_code = {NULL};
    for (; at < start[k]; at++) {
      MlirOperation g = d->groups.ops[order[at]];
      mlirOperationMoveBefore(g, last);
      set_barrier(g, false);
      if (!d->ddr_only[order[at]])
        last_code = g;
    }
    if (!mlirOperationIsNull(last_code)) {
      set_barrier(last_code, true);
      used++;
    }
  }
  d->num_levels = used;
  free(start);
  free(order);
}

static void set_barrier(MlirOperation group, bool on) {
  MlirContext ctx = mlirOperationGetContext(group);
  mlirOperationSetAttributeByName(
      group, mlirStringRefCreateFromCString("need_barrier"),
      mlirBoolAttrGet(ctx, on));
}
