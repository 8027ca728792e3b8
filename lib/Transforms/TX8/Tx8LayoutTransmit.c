/* tx8-layout-transmit: the seed's layoutTransmitPass. Ops whose layout is
 * known (after tx8-layout-init: gemm and conv) are the first start nodes;
 * from each, the layout flows forward to the users and backward to the
 * producers by the op table's layout rule (`infer: layout:`, Infer.c):
 * `same` copies it, `permute` permutes it (transpose), `source` (gemm,
 * conv) names input and weight. An op that learns its layout becomes a
 * start node in turn; `stop` ops (reshape, broadcast, unpack) never learn
 * one, so propagation ends there. Every op still UNKNOWN at the end takes
 * its op-library default layout (Tensor; batchnorm NTensor when its batch
 * is not 1). Each op is queued at most once: linear in ops plus uses.
 * docs/passes/tx8-layout-transmit.md. */
#include "Tx8LayoutSupport.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"
#include "npuc/Alloc.h"

#include <stdlib.h>
#include <string.h>

TX8L_PASS(
    npuc_pass_tx8_layout_transmit, "tx8-layout-transmit",
    "Propagate tx8be layout_str forward and backward from gemm/conv through "
    "each op's layout rule; the rest take their default",
    layout_transmit);

/* The start nodes still to visit: a FIFO of ops, each pushed once. */
typedef struct {
  const npuc_op_registry *reg;
  MlirOperation *queue;
  size_t head, tail, cap;
} transmit_state;

static bool seed_known(transmit_state *s, MlirOperation *ops, size_t n);
static void push(transmit_state *s, MlirOperation op);
static void transmit_forward(transmit_state *s, MlirOperation op);
static void transmit_backward(transmit_state *s, MlirOperation op);
static void set_defaults(transmit_state *s, MlirOperation *ops, size_t n);

static bool layout_transmit(MlirOperation func, const npuc_pass_options *opts,
                            const npuc_pass_context *ctx) {
  (void)opts;
  size_t n;
  MlirOperation *ops = tx8l_collect_ops(func, &n);
  transmit_state s = {ctx->registry, NULL, 0, 0, n + 1};
  s.queue = npuc_xmalloc(s.cap * sizeof *s.queue);
  bool ok = seed_known(&s, ops, n);
  while (ok && s.head < s.tail) {
    MlirOperation op = s.queue[s.head++];
    transmit_forward(&s, op);
    transmit_backward(&s, op);
  }
  if (ok)
    set_defaults(&s, ops, n);
  free(s.queue);
  free(ops);
  return ok;
}

/* Every op with a known layout starts; a malformed one is an error. */
static bool seed_known(transmit_state *s, MlirOperation *ops, size_t n) {
  bool ok = true;
  for (size_t i = 0; i < n; ++i) {
    char layout[TX8L_NAME_CAP], why[160], name[TX8L_NAME_CAP];
    if (!tx8l_is_layout_op(s->reg, ops[i]) ||
        !tx8l_layout_known(ops[i], layout, sizeof layout))
      continue;
    if (tx8l_layout_valid(ops[i], layout, why, sizeof why)) {
      push(s, ops[i]);
      continue;
    }
    tx8l_op_name(ops[i], name, sizeof name);
    npuc_pass_error(ops[i], "layout_str of '%s': %s", name, why);
    ok = false;
  }
  return ok;
}

static void push(transmit_state *s, MlirOperation op) {
  if (s->tail < s->cap) /* each op is pushed once, so this always holds */
    s->queue[s->tail++] = op;
}

/* Can `op` learn a layout from a neighbour: a layout op, still unknown,
 * whose rule is not `stop`? */
static bool learns(transmit_state *s, MlirOperation op) {
  char layout[TX8L_NAME_CAP];
  if (!tx8l_is_layout_op(s->reg, op) ||
      tx8l_layout_known(op, layout, sizeof layout))
    return false;
  npuc_tx8_layout_rule r = npuc_tx8_query_op(op).layout_rule;
  return r != NPUC_TX8_LAYOUT_STOP && r != NPUC_TX8_LAYOUT_SOURCE;
}

/* A transpose's permutation, if `op` has one of its result's rank. */
static const int64_t *permutation_of(MlirOperation op, int64_t *buf) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("permutation"));
  int rank = tx8l_rank(mlirValueGetType(mlirOperationGetResult(op, 0)));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) || rank < 0 ||
      rank > NPUC_TX8_MAX_RANK || mlirDenseArrayGetNumElements(a) != rank)
    return NULL;
  for (int i = 0; i < rank; ++i)
    buf[i] = mlirDenseI64ArrayGetElement(a, i);
  return buf;
}

/* Sets the layout when it names one of the op's result rank. */
static void learn(transmit_state *s, MlirOperation op, const char *layout) {
  char why[160];
  if (!tx8l_layout_valid(op, layout, why, sizeof why))
    return;
  tx8l_set_layout_str(op, layout);
  push(s, op);
}

/* To the users of `op`'s result that take its layout. */
static void transmit_forward(transmit_state *s, MlirOperation op) {
  char in[TX8L_NAME_CAP], out[TX8L_NAME_CAP];
  if (!tx8l_result_layout(op, in, sizeof in))
    return;
  MlirValue v = mlirOperationGetResult(op, 0);
  int rank = tx8l_rank(mlirValueGetType(v));
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (!learns(s, user))
      continue;
    npuc_tx8_layout_rule rule = npuc_tx8_query_op(user).layout_rule;
    int user_rank =
        tx8l_rank(mlirValueGetType(mlirOperationGetResult(user, 0)));
    unsigned index = mlirOpOperandGetOperandNumber(u);
    /* `same` follows the operands of the result's shape, not a broadcast
     * [C] vector; `permute` follows its one input. */
    bool lead = rule == NPUC_TX8_LAYOUT_SAME ? rank == user_rank : index == 0;
    int64_t perm[NPUC_TX8_MAX_RANK];
    if (lead && npuc_tx8_infer_layout(rule, in, permutation_of(user, perm),
                                      user_rank, out, sizeof out))
      learn(s, user, out);
  }
}

/* To the producers of `op`'s operands whose layout its rule implies. */
static void transmit_backward(transmit_state *s, MlirOperation op) {
  char layout[TX8L_NAME_CAP], out[TX8L_NAME_CAP];
  if (!tx8l_layout_known(op, layout, sizeof layout))
    return;
  npuc_tx8_layout_rule rule = npuc_tx8_query_op(op).layout_rule;
  int result_rank = tx8l_rank(mlirValueGetType(mlirOperationGetResult(op, 0)));
  int64_t perm[NPUC_TX8_MAX_RANK];
  const int64_t *p = permutation_of(op, perm);
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirValueIsAOpResult(v))
      continue; /* a graph input: it has no layout_str */
    MlirOperation producer = mlirOpResultGetOwner(v);
    if (!learns(s, producer))
      continue;
    if (npuc_tx8_infer_operand_layout(rule, layout, (int)i,
                                      tx8l_rank(mlirValueGetType(v)),
                                      result_rank, p, out, sizeof out))
      learn(s, producer, out);
  }
}

/* The ops propagation did not reach take their library default. */
static void set_defaults(transmit_state *s, MlirOperation *ops, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    char layout[TX8L_NAME_CAP];
    if (!tx8l_is_layout_op(s->reg, ops[i]) ||
        tx8l_layout_known(ops[i], layout, sizeof layout))
      continue;
    npuc_tx8_op_attr a = npuc_tx8_query_op(ops[i]);
    MlirValue first = mlirOperationGetNumOperands(ops[i]) > 0
                          ? mlirOperationGetOperand(ops[i], 0)
                          : mlirOperationGetResult(ops[i], 0);
    MlirType t = mlirValueGetType(first);
    int64_t batch = tx8l_rank(t) > 0 ? mlirShapedTypeGetDimSize(t, 0) : 1;
    tx8l_set_layout_str(
        ops[i], npuc_tx8_layout_name(npuc_tx8_default_layout_of(&a, batch)));
  }
}
