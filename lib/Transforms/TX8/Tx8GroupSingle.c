/* tx8-group-single: the seed's GroupOptimizationPass (createSingleGroup),
 * used when no group pattern is configured: every compute op of a graph
 * body gets a tx8be.group of its own.
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

typedef enum {
  ROLE_OUTSIDE,  /* stays in the graph body as it is */
  ROLE_COMPUTE,  /* gets a group */
  ROLE_ABSORBED, /* a channel_norm that goes into its user's or its
                    producer's group */
  ROLE_BAD,      /* cannot be grouped: an error */
} op_role;

static op_role role_of(MlirOperation op);
static bool absorbed_after(MlirOperation op);
static bool check_body(MlirBlock body);
static void group_body(MlirBlock body);
static void number_groups(MlirOperation module);

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
    number_groups(module);
  tx8_op_list_free(&graphs);
  return ok;
}

/* ---- which ops get a group -------------------------------------------------
 */

static bool is_structure(MlirOperation op) {
  static const char *const names[] = {
      "tx8be.group",  "tx8be.load_const",      "tx8be.none",  "tx8be.call",
      "tx8be.return", "tx8be.subgraph_return", "func.return",
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (npuc_op_is(op, names[i]))
      return true;
  return false;
}

/* The one op reading `v` (through every use of it), or a null op. */
static MlirOperation sole_user(MlirValue v) {
  MlirOperation none = {NULL};
  MlirOpOperand u = mlirValueGetFirstUse(v);
  if (mlirOpOperandIsNull(u))
    return none;
  MlirOperation user = mlirOpOperandGetOwner(u);
  for (; !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    if (!mlirOperationEqual(mlirOpOperandGetOwner(u), user))
      return none;
  return user;
}

/* Does `user` load every operand it reads `v` through (need_load)? */
static bool loads_every_use(MlirOperation user, MlirValue v) {
  npuc_tx8_op_attr attr = npuc_tx8_query_op(user);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(user); i++)
    if (mlirValueEqual(mlirOperationGetOperand(user, i), v) &&
        !npuc_tx8_mask_bit(attr.need_load, i))
      return false;
  return true;
}

/* Would channel_norm `op` go into `user`'s group if `user` were its only
 * reader? Yes when `user` is a compute op (or a channel_norm going into
 * one) of the same block that loads it: the conversion happens in SPM. (An
 * op that reads the operand in DDR, like reshape, needs it converted
 * before, in a group of its own whose store puts it in DDR.) */
static bool takes_in(MlirOperation user, MlirOperation op) {
  if (!loads_every_use(user, mlirOperationGetResult(op, 0)))
    return false;
  return !mlirBlockIsNull(mlirOperationGetBlock(user)) &&
         mlirBlockEqual(mlirOperationGetBlock(user),
                        mlirOperationGetBlock(op)) &&
         (role_of(user) == ROLE_COMPUTE || role_of(user) == ROLE_ABSORBED);
}

/* A channel_norm read by one op only (maybe as several operands) that
 * takes it in converts that op's input in SPM: it belongs in the op's
 * group. split_shared_norms makes this the case for every op that loads
 * a converted value. */
static bool absorbed_before(MlirOperation op) {
  if (!npuc_op_is(op, "tx8be.channel_norm"))
    return false;
  MlirOperation user = sole_user(mlirOperationGetResult(op, 0));
  return !mlirOperationIsNull(user) && takes_in(user, op);
}

/* Otherwise, a channel_norm that is the only user of a compute op's only
 * result converts that op's output before it is stored: it belongs in the
 * op's group, after the op (the code generator's "channel_norm after the
 * op"; e.g. one before the graph's return or before a reshape). */
static bool absorbed_after(MlirOperation op) {
  if (!npuc_op_is(op, "tx8be.channel_norm") || absorbed_before(op))
    return false;
  MlirValue in = mlirOperationGetOperand(op, 0);
  if (!mlirValueIsAOpResult(in))
    return false;
  MlirOperation producer = mlirOpResultGetOwner(in);
  MlirOpOperand u = mlirValueGetFirstUse(in);
  return !npuc_op_is(producer, "tx8be.channel_norm") &&
         mlirOperationGetNumResults(producer) == 1 &&
         mlirOpOperandIsNull(mlirOpOperandGetNextUse(u)) &&
         mlirBlockEqual(mlirOperationGetBlock(producer),
                        mlirOperationGetBlock(op)) &&
         role_of(producer) == ROLE_COMPUTE;
}

static op_role role_of(MlirOperation op) {
  if (is_structure(op))
    return ROLE_OUTSIDE;
  if (npuc_op_is(op, "tx8be.constant") || !npuc_tx8_query_op(op).known)
    return ROLE_BAD;
  return absorbed_before(op) || absorbed_after(op) ? ROLE_ABSORBED
                                                   : ROLE_COMPUTE;
}

static bool check_body(MlirBlock body) {
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (role_of(op) != ROLE_BAD)
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

/* ---- building one group
 * ------------------------------------------------------ */

typedef struct {
  tx8_op_list members; /* channel_norms of its inputs, the compute op, the
                          channel_norm of its result if any */
  MlirValue *inputs;   /* the group's operands, each once */
  size_t num_inputs, cap_inputs;
} group_plan;

static void make_group(MlirOperation op);
static void split_shared_norms(MlirBlock body);

static void group_body(MlirBlock body) {
  split_shared_norms(body);
  /* Decide first: grouping moves ops out of the body being walked. */
  tx8_op_list compute = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (role_of(op) == ROLE_COMPUTE)
      tx8_op_list_push(&compute, op);
  for (size_t i = 0; i < compute.count; i++)
    make_group(compute.ops[i]);
  tx8_op_list_free(&compute);
}

/* ---- a copy of a shared channel_norm per op that loads it
 * --------------------- */

static void split_norm(MlirOperation norm);

/* A channel_norm several ops read (tx8-layout-align-opt merged their
 * equal conversions, or several ops read one graph input converted) would
 * be a group of its own: load, convert, store the converted data to DDR,
 * for every reader to load again. Instead every reader that would take
 * it in gets its own copy, so the conversion happens in that reader's
 * group, in SPM, as with a single reader: no extra DDR round trip, and
 * every group keeps one compute op. Bottom-up, so a channel_norm feeding
 * shared channel_norms sees their copies as its readers. */
static void split_shared_norms(MlirBlock body) {
  tx8_op_list norms = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (npuc_op_is(op, "tx8be.channel_norm"))
      tx8_op_list_push(&norms, op);
  for (size_t i = norms.count; i-- > 0;)
    split_norm(norms.ops[i]);
  tx8_op_list_free(&norms);
}

static bool reads(MlirOperation user, MlirValue v) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(user); i++)
    if (mlirValueEqual(mlirOperationGetOperand(user, i), v))
      return true;
  return false;
}

/* A copy of `norm` just before `user`, which reads it instead of `norm`. */
static void copy_for(MlirOperation norm, MlirOperation user) {
  MlirOperation copy = mlirOperationClone(norm);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(user), user, copy);
  MlirValue v = mlirOperationGetResult(norm, 0);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(user); i++)
    if (mlirValueEqual(mlirOperationGetOperand(user, i), v))
      mlirOperationSetOperand(user, i, mlirOperationGetResult(copy, 0));
}

/* Readers that do not take it in (the graph's return, a reshape, which
 * reads DDR) keep reading `norm`; it goes when no reader is left. One
 * that the producer's group takes (absorbed_after) stays shared: it is
 * converted once, before the store. */
static void split_norm(MlirOperation norm) {
  MlirValue v = mlirOperationGetResult(norm, 0);
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(v)) || absorbed_before(norm) ||
      absorbed_after(norm))
    return;
  tx8_op_list users = {0}; /* an op reading it twice is here twice */
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    tx8_op_list_push(&users, mlirOpOperandGetOwner(u));
  bool still_read = false;
  for (size_t i = 0; i < users.count; i++) {
    MlirOperation user = users.ops[i];
    if (!reads(user, v))
      continue; /* got its copy at its first use */
    if (takes_in(user, norm))
      copy_for(norm, user);
    else
      still_read = true;
  }
  if (!still_read)
    mlirOperationDestroy(norm);
  tx8_op_list_free(&users);
}

/* ---- members and inputs
 * ------------------------------------------------------- */

static bool is_member(const group_plan *p, MlirOperation op) {
  for (size_t i = 0; i < p->members.count; i++)
    if (mlirOperationEqual(p->members.ops[i], op))
      return true;
  return false;
}

/* The channel_norms feeding `op` (and each other) that only it reads, in
 * program order, then `op`. */
static void add_members(group_plan *p, MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirValueIsAOpResult(v))
      continue;
    MlirOperation def = mlirOpResultGetOwner(v);
    if (absorbed_before(def) && !is_member(p, def))
      add_members(p, def);
  }
  tx8_op_list_push(&p->members, op);
}

/* The channel_norm converting `op`'s result, if it goes in the group. */
static void add_after(group_plan *p, MlirOperation op) {
  if (mlirOperationGetNumResults(op) != 1)
    return;
  MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
  if (!mlirOpOperandIsNull(u) && absorbed_after(mlirOpOperandGetOwner(u)))
    tx8_op_list_push(&p->members, mlirOpOperandGetOwner(u));
}

static bool defined_by(MlirValue v, const char *name) {
  return mlirValueIsAOpResult(v) && npuc_op_is(mlirOpResultGetOwner(v), name);
}

static void add_input(group_plan *p, MlirValue v) {
  for (size_t i = 0; i < p->num_inputs; i++)
    if (mlirValueEqual(p->inputs[i], v))
      return;
  if (p->num_inputs == p->cap_inputs) {
    p->cap_inputs = p->cap_inputs ? 2 * p->cap_inputs : 8;
    p->inputs = npuc_xrealloc(p->inputs, p->cap_inputs * sizeof *p->inputs);
  }
  p->inputs[p->num_inputs++] = v;
}

/* Values the members read from outside the group, but tx8be.none. */
static void collect_inputs(group_plan *p) {
  for (size_t m = 0; m < p->members.count; m++) {
    MlirOperation op = p->members.ops[m];
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
      MlirValue v = mlirOperationGetOperand(op, i);
      bool inside =
          mlirValueIsAOpResult(v) && is_member(p, mlirOpResultGetOwner(v));
      if (!inside && !defined_by(v, "tx8be.none"))
        add_input(p, v);
    }
  }
}

static MlirOperation create_group(MlirOperation op, MlirOperation last,
                                  const group_plan *p);

static void make_group(MlirOperation op) {
  group_plan p;
  memset(&p, 0, sizeof p);
  add_members(&p, op);
  add_after(&p, op);
  collect_inputs(&p);
  /* The group yields what its last member computes. */
  MlirOperation last = p.members.ops[p.members.count - 1];
  MlirOperation group = create_group(op, last, &p);
  MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(group, 0));
  intptr_t nres = mlirOperationGetNumResults(last);
  for (intptr_t r = 0; r < nres; r++)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(last, r),
                                  mlirOperationGetResult(group, r));
  for (size_t m = 0; m < p.members.count; m++) {
    MlirOperation member = p.members.ops[m];
    mlirOperationRemoveFromParent(member);
    mlirBlockAppendOwnedOperation(block, member);
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(member); i++)
      for (size_t k = 0; k < p.num_inputs; k++)
        if (mlirValueEqual(mlirOperationGetOperand(member, i), p.inputs[k]))
          mlirOperationSetOperand(member, i,
                                  mlirBlockGetArgument(block, (intptr_t)k));
  }
  MlirValue *results = npuc_xmalloc(((size_t)nres + 1) * sizeof *results);
  for (intptr_t r = 0; r < nres; r++)
    results[r] = mlirOperationGetResult(last, r);
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("tx8be.return"),
                            mlirOperationGetLocation(op));
  mlirOperationStateAddOperands(&st, nres, results);
  mlirBlockAppendOwnedOperation(block, mlirOperationCreate(&st));
  free(results);
  free(p.inputs);
  tx8_op_list_free(&p.members);
}

static MlirNamedAttribute named_int(MlirContext ctx, const char *name,
                                    MlirType type, int64_t v) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)),
      mlirIntegerAttrGet(type, v));
}

/* The group op, before `op`, with one block argument per input and the
 * result types of `last`; group_id is set by number_groups. */
static MlirOperation create_group(MlirOperation op, MlirOperation last,
                                  const group_plan *p) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirLocation loc = mlirOperationGetLocation(op);
  size_t n = p->num_inputs;
  MlirType *types = npuc_xmalloc((n + 1) * sizeof *types);
  MlirLocation *locs = npuc_xmalloc((n + 1) * sizeof *locs);
  intptr_t nres = mlirOperationGetNumResults(last);
  MlirType *res_types = npuc_xmalloc(((size_t)nres + 1) * sizeof *res_types);
  for (size_t i = 0; i < n; i++) {
    types[i] = mlirValueGetType(p->inputs[i]);
    locs[i] = loc;
  }
  for (intptr_t r = 0; r < nres; r++)
    res_types[r] = mlirValueGetType(mlirOperationGetResult(last, r));
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, mlirBlockCreate((intptr_t)n, types, locs));
  int tag = npuc_tx8_query_op(op).parallel ? 0 : 2;
  MlirNamedAttribute attrs[] = {
      named_int(ctx, "group_id", mlirIntegerTypeSignedGet(ctx, 32), -1),
      named_int(ctx, "group_tag", mlirIntegerTypeGet(ctx, 32), tag),
  };
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("tx8be.group"), loc);
  mlirOperationStateAddOperands(&st, (intptr_t)n, p->inputs);
  mlirOperationStateAddResults(&st, nres, res_types);
  mlirOperationStateAddAttributes(&st, 2, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation group = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op), op, group);
  free(types);
  free(locs);
  free(res_types);
  return group;
}

/* group_id: 0, 1, 2, ... over the graph bodies' groups in order, those
 * there were included. */
static void number_groups(MlirOperation module) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirType si32 = mlirIntegerTypeSignedGet(ctx, 32);
  tx8_op_list graphs;
  tx8_graph_ops(module, &graphs);
  int64_t next = 0;
  for (size_t g = 0; g < graphs.count; g++)
    for (MlirOperation op =
             mlirBlockGetFirstOperation(tx8_graph_body(graphs.ops[g]));
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      if (npuc_op_is(op, "tx8be.group"))
        mlirOperationSetAttributeByName(
            op, mlirStringRefCreateFromCString("group_id"),
            mlirIntegerAttrGet(si32, next++));
  tx8_op_list_free(&graphs);
}
