/* Building tx8be.groups, shared by tx8-group-single and tx8-group-pattern:
 * which ops a group may hold, the channel_norms that go in with them, and
 * the group op itself (docs/passes/tx8-group-single.md has the rules). A
 * group is built from its compute ops; the builder adds their
 * channel_norms, makes each DDR value they read a block argument once,
 * and yields every value read outside. See Tx8Graph.h. */
#include "Tx8Graph.h"
#include "npuc/Alloc.h"
#include "npuc/PtrSet.h"
#include "npuc/Tx8Ir.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- which ops get a group ------------------------------------------------
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

MlirOperation tx8_sole_user(MlirValue v) {
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
  if (mlirBlockIsNull(mlirOperationGetBlock(user)) ||
      !mlirBlockEqual(mlirOperationGetBlock(user), mlirOperationGetBlock(op)))
    return false;
  tx8_op_role r = tx8_group_role(user);
  return r == TX8_ROLE_COMPUTE || r == TX8_ROLE_ABSORBED;
}

/* A channel_norm read by one op only (maybe as several operands) that
 * takes it in converts that op's input in SPM: it belongs in the op's
 * group. tx8_split_shared_norms makes this the case for every op that
 * loads a converted value. */
bool tx8_norm_absorbed_before(MlirOperation op) {
  if (!npuc_op_is(op, "tx8be.channel_norm"))
    return false;
  MlirOperation user = tx8_sole_user(mlirOperationGetResult(op, 0));
  return !mlirOperationIsNull(user) && takes_in(user, op);
}

/* Otherwise, a channel_norm that is the only user of a compute op's only
 * result converts that op's output before it is stored: it belongs in the
 * op's group, after the op (the code generator's "channel_norm after the
 * op"; e.g. one before the graph's return or before a reshape). */
static bool absorbed_after(MlirOperation op) {
  if (!npuc_op_is(op, "tx8be.channel_norm") || tx8_norm_absorbed_before(op))
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
         tx8_group_role(producer) == TX8_ROLE_COMPUTE;
}

tx8_op_role tx8_group_role(MlirOperation op) {
  if (is_structure(op))
    return TX8_ROLE_OUTSIDE;
  if (npuc_op_is(op, "tx8be.constant") || !npuc_tx8_query_op(op).known)
    return TX8_ROLE_BAD;
  return tx8_norm_absorbed_before(op) || absorbed_after(op) ? TX8_ROLE_ABSORBED
                                                            : TX8_ROLE_COMPUTE;
}

/* ---- a copy of a shared channel_norm per op that loads it ------------------
 */

static void split_norm(MlirOperation norm);

/* A channel_norm several ops read (tx8-layout-align-opt merged their
 * equal conversions, or several ops read one graph input converted) would
 * be a group of its own: load, convert, store the converted data to DDR,
 * for every reader to load again. Instead every reader that would take
 * it in gets its own copy, so the conversion happens in that reader's
 * group, in SPM, as with a single reader: no extra DDR round trip.
 * Bottom-up, so a channel_norm feeding shared channel_norms sees their
 * copies as its readers. */
void tx8_split_shared_norms(MlirBlock body) {
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
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(v)) ||
      tx8_norm_absorbed_before(norm) || absorbed_after(norm))
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

/* ---- members and inputs ----------------------------------------------------
 */

typedef struct {
  tx8_op_list members;      /* per compute op: the channel_norms of its inputs,
                               the op, the channel_norm of its result if any */
  npuc_ptr_map member_of;   /* member op -> 1 */
  npuc_ptr_map input_index; /* value -> its block argument */
  MlirValue *inputs;        /* the group's operands, each once */
  size_t num_inputs, cap_inputs;
} group_plan;

static bool is_member(const group_plan *p, MlirOperation op) {
  uintptr_t one;
  return npuc_ptr_map_get(&p->member_of, op.ptr, &one);
}

static void add_member(group_plan *p, MlirOperation op) {
  if (!npuc_ptr_map_put(&p->member_of, op.ptr, 1))
    npuc_die("out of memory");
  tx8_op_list_push(&p->members, op);
}

/* The channel_norms feeding `op` (and each other) that only it reads, in
 * program order, then `op`. */
static void add_members(group_plan *p, MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirValueIsAOpResult(v))
      continue;
    MlirOperation def = mlirOpResultGetOwner(v);
    if (tx8_norm_absorbed_before(def) && !is_member(p, def))
      add_members(p, def);
  }
  add_member(p, op);
}

/* The channel_norm converting `op`'s result, if it goes in the group. */
static void add_after(group_plan *p, MlirOperation op) {
  if (mlirOperationGetNumResults(op) != 1)
    return;
  MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, 0));
  if (!mlirOpOperandIsNull(u) && absorbed_after(mlirOpOperandGetOwner(u)))
    add_member(p, mlirOpOperandGetOwner(u));
}

static bool defined_by(MlirValue v, const char *name) {
  return mlirValueIsAOpResult(v) && npuc_op_is(mlirOpResultGetOwner(v), name);
}

static void add_input(group_plan *p, MlirValue v) {
  uintptr_t at;
  if (npuc_ptr_map_get(&p->input_index, v.ptr, &at))
    return;
  if (p->num_inputs == p->cap_inputs) {
    p->cap_inputs = p->cap_inputs ? 2 * p->cap_inputs : 8;
    p->inputs = npuc_xrealloc(p->inputs, p->cap_inputs * sizeof *p->inputs);
  }
  if (!npuc_ptr_map_put(&p->input_index, v.ptr, p->num_inputs))
    npuc_die("out of memory");
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

/* Is `v` read by an op that is no member? */
static bool read_outside(const group_plan *p, MlirValue v) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (!is_member(p, mlirOpOperandGetOwner(u)))
      return true;
  return false;
}

/* What the group yields: every member result read outside, in member
 * order, and every result of the last member (a group of one op yields
 * its results, read or not). */
static void collect_outputs(const group_plan *p, MlirValue **out,
                            size_t *count) {
  MlirOperation last = p->members.ops[p->members.count - 1];
  size_t cap = 0;
  *out = NULL;
  *count = 0;
  for (size_t m = 0; m < p->members.count; m++) {
    MlirOperation op = p->members.ops[m];
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) {
      MlirValue v = mlirOperationGetResult(op, r);
      if (!mlirOperationEqual(op, last) && !read_outside(p, v))
        continue;
      if (*count == cap) {
        cap = cap ? 2 * cap : 4;
        *out = npuc_xrealloc(*out, cap * sizeof **out);
      }
      (*out)[(*count)++] = v;
    }
  }
}

static MlirOperation create_group(MlirOperation at, const group_plan *p,
                                  const MlirValue *outs, size_t nout, int tag);
static void move_members(const group_plan *p, MlirOperation group,
                         const MlirValue *outs, size_t nout);

MlirOperation tx8_build_group(const tx8_op_list *compute) {
  group_plan p;
  memset(&p, 0, sizeof p);
  bool parallel = false;
  for (size_t i = 0; i < compute->count; i++) {
    add_members(&p, compute->ops[i]);
    add_after(&p, compute->ops[i]);
    parallel = parallel || npuc_tx8_query_op(compute->ops[i]).parallel;
  }
  collect_inputs(&p);
  MlirValue *outs;
  size_t nout;
  collect_outputs(&p, &outs, &nout);
  /* Before the last compute op: every input is defined by then (for a
   * group of one op, exactly where that op was). */
  MlirOperation group = create_group(compute->ops[compute->count - 1], &p, outs,
                                     nout, parallel ? 0 : 2);
  move_members(&p, group, outs, nout);
  free(outs);
  free(p.inputs);
  npuc_ptr_map_free(&p.member_of);
  npuc_ptr_map_free(&p.input_index);
  tx8_op_list_free(&p.members);
  return group;
}

/* Readers outside read the group's results; the members move into its
 * body, reading its block arguments; tx8be.return yields `outs`. */
static void move_members(const group_plan *p, MlirOperation group,
                         const MlirValue *outs, size_t nout) {
  MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(group, 0));
  for (size_t r = 0; r < nout; r++) {
    MlirValue res = mlirOperationGetResult(group, (intptr_t)r);
    for (MlirOpOperand u = mlirValueGetFirstUse(outs[r]);
         !mlirOpOperandIsNull(u);) {
      MlirOpOperand next = mlirOpOperandGetNextUse(u);
      MlirOperation owner = mlirOpOperandGetOwner(u);
      if (!is_member(p, owner))
        mlirOperationSetOperand(
            owner, (intptr_t)mlirOpOperandGetOperandNumber(u), res);
      u = next;
    }
  }
  for (size_t m = 0; m < p->members.count; m++) {
    MlirOperation member = p->members.ops[m];
    mlirOperationRemoveFromParent(member);
    mlirBlockAppendOwnedOperation(block, member);
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(member); i++) {
      uintptr_t k;
      if (npuc_ptr_map_get(&p->input_index,
                           mlirOperationGetOperand(member, i).ptr, &k))
        mlirOperationSetOperand(member, i,
                                mlirBlockGetArgument(block, (intptr_t)k));
    }
  }
  MlirOperationState st = mlirOperationStateGet(
      mlirStringRefCreateFromCString("tx8be.return"),
      mlirOperationGetLocation(p->members.ops[p->members.count - 1]));
  mlirOperationStateAddOperands(&st, (intptr_t)nout, outs);
  mlirBlockAppendOwnedOperation(block, mlirOperationCreate(&st));
}

static MlirNamedAttribute named_int(MlirContext ctx, const char *name,
                                    MlirType type, int64_t v) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)),
      mlirIntegerAttrGet(type, v));
}

/* The group op, before `at`, with one block argument per input and the
 * types of `outs` as results; group_id is set by tx8_number_groups. */
static MlirOperation create_group(MlirOperation at, const group_plan *p,
                                  const MlirValue *outs, size_t nout, int tag) {
  MlirContext ctx = mlirOperationGetContext(at);
  MlirLocation loc = mlirOperationGetLocation(at);
  size_t n = p->num_inputs;
  MlirType *types = npuc_xmalloc((n + 1) * sizeof *types);
  MlirLocation *locs = npuc_xmalloc((n + 1) * sizeof *locs);
  MlirType *res_types = npuc_xmalloc((nout + 1) * sizeof *res_types);
  for (size_t i = 0; i < n; i++) {
    types[i] = mlirValueGetType(p->inputs[i]);
    locs[i] = loc;
  }
  for (size_t r = 0; r < nout; r++)
    res_types[r] = mlirValueGetType(outs[r]);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, mlirBlockCreate((intptr_t)n, types, locs));
  MlirNamedAttribute attrs[] = {
      named_int(ctx, "group_id", mlirIntegerTypeSignedGet(ctx, 32), -1),
      named_int(ctx, "group_tag", mlirIntegerTypeGet(ctx, 32), tag),
  };
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("tx8be.group"), loc);
  mlirOperationStateAddOperands(&st, (intptr_t)n, p->inputs);
  mlirOperationStateAddResults(&st, (intptr_t)nout, res_types);
  mlirOperationStateAddAttributes(&st, 2, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation group = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(at), at, group);
  free(types);
  free(locs);
  free(res_types);
  return group;
}

/* group_id: 0, 1, 2, ... over the graph bodies' groups in order, those
 * there were included. */
void tx8_number_groups(MlirOperation module) {
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
