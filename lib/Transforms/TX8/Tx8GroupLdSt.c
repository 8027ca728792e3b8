/* tx8-group-ldst: the seed's GroupLdStPass. A group's inputs live in DDR
 * and its ops compute in SPM, so the group boundary gets explicit DMA:
 *  - each block argument some op of the group loads (that op's need_load
 *    bit for the operand) gets one tx8be.load_var at the top of the block,
 *    and those ops read it; ops whose bit is clear keep reading DDR;
 *  - each value tx8be.return yields whose producer stores it (its
 *    need_store bit for that result) goes through one tx8be.store_var
 *    (a value yielded twice is stored once), and the return yields the
 *    stored value.
 * Values made and used inside the group (the intermediates of a group of
 * several compute ops) stay in SPM: they get neither.
 * Both carry a dev_info whose mem_layout is the layout of the data they
 * move (the producer's, Tensor when it has none). A group that ends up
 * with neither loads nor stores works in DDR: group_tag 2 (no sharding
 * search), as the seed says; otherwise group_tag stays (0 if unset).
 * Groups already having their load_var/store_var are left as they are.
 * docs/passes/tx8-group-ldst.md */
#include "Tx8Graph.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"
#include "npuc/Tx8Ir.h"
#include "npuc/Alloc.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

NPUC_PASS_DEFINE(
    npuc_pass_tx8_group_ldst, "tx8-group-ldst",
    "Load a tx8be.group's inputs and store its results at the group "
    "boundary",
    "builtin.module", group_ldst, );

static bool check_group(MlirOperation group);
static void insert_loads(MlirOperation group, int *moves);
static void insert_stores(MlirOperation group, int *moves);
static void set_tag(MlirOperation group, int moves);

static bool group_ldst(MlirOperation module, const npuc_pass_options *opts,
                       const npuc_pass_context *ctx) {
  (void)opts;
  (void)ctx;
  tx8_op_list groups;
  tx8_collect_ops(module, "tx8be.group", &groups);
  bool ok = true;
  for (size_t i = 0; i < groups.count; i++)
    ok = check_group(groups.ops[i]) && ok;
  for (size_t i = 0; ok && i < groups.count; i++) {
    int moves = 0;
    insert_loads(groups.ops[i], &moves);
    insert_stores(groups.ops[i], &moves);
    set_tag(groups.ops[i], moves);
  }
  tx8_op_list_free(&groups);
  return ok;
}

static MlirStringRef ref(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

static MlirBlock body_of(MlirOperation group) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(group, 0));
}

/* The masks are the op library's; ops outside it have none to honour. */
static bool check_group(MlirOperation group) {
  MlirBlock b = body_of(group);
  if (mlirBlockIsNull(b) || mlirOperationIsNull(tx8_block_last_op(b)) ||
      !npuc_op_is(tx8_block_last_op(b), "tx8be.return")) {
    npuc_pass_error(group, "the group's body must end in tx8be.return");
    return false;
  }
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(b);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    ok = tx8_require_known(op, "in a group is no tx8be op: its loads and "
                               "stores are unknown") &&
         ok;
  return ok;
}

/* The layout the data of `v` is in: its producer's mem_layout. Inside a
 * group a block argument is the group's operand; a group result is the
 * value its return yields. */
static npuc_tx8_layout_mode layout_of_value(MlirValue v) {
  for (int depth = 0; depth < 64; depth++) {
    if (mlirValueIsABlockArgument(v)) {
      MlirOperation owner =
          mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
      if (mlirOperationIsNull(owner) || !npuc_op_is(owner, "tx8be.group"))
        return NPUC_TX8_TENSOR; /* a graph input */
      v = mlirOperationGetOperand(owner, mlirBlockArgumentGetArgNumber(v));
      continue;
    }
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!npuc_op_is(def, "tx8be.group"))
      return npuc_tx8_op_mem_layout(def);
    MlirOperation ret = tx8_block_last_op(body_of(def));
    v = mlirOperationGetOperand(ret, mlirOpResultGetResultNumber(v));
  }
  return NPUC_TX8_TENSOR;
}

static MlirOperation build_move(const char *name, MlirValue in,
                                MlirLocation loc) {
  MlirType type = mlirValueGetType(in);
  MlirOperationState st = mlirOperationStateGet(ref(name), loc);
  mlirOperationStateAddOperands(&st, 1, &in);
  mlirOperationStateAddResults(&st, 1, &type);
  MlirOperation op = mlirOperationCreate(&st);
  npuc_tx8_dev_attr dev = npuc_tx8_dev_attr_with_layout(layout_of_value(in));
  npuc_tx8_op_set_dev_attr(op, &dev);
  return op;
}

typedef struct {
  MlirOperation owner;
  intptr_t index;
} use_ref;

/* The uses of `arg` whose op loads that operand; false if a load_var
 * already reads it (the group has its loads). */
static bool loading_uses(MlirValue arg, use_ref **uses, size_t *n) {
  size_t cap = 4;
  *n = 0;
  *uses = npuc_xmalloc(cap * sizeof **uses);
  for (MlirOpOperand u = mlirValueGetFirstUse(arg); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    intptr_t k = (intptr_t)mlirOpOperandGetOperandNumber(u);
    if (npuc_op_is(user, "tx8be.load_var"))
      return false;
    if (!npuc_tx8_mask_bit(npuc_tx8_query_op(user).need_load, k))
      continue;
    if (*n == cap)
      *uses = npuc_xrealloc(*uses, (cap *= 2) * sizeof **uses);
    (*uses)[(*n)++] = (use_ref){user, k};
  }
  return true;
}

static void insert_loads(MlirOperation group, int *moves) {
  MlirBlock b = body_of(group);
  MlirOperation first = mlirBlockGetFirstOperation(b);
  for (intptr_t a = 0; a < mlirBlockGetNumArguments(b); a++) {
    MlirValue arg = mlirBlockGetArgument(b, a);
    use_ref *uses;
    size_t n;
    if (!loading_uses(arg, &uses, &n)) {
      (*moves)++; /* loaded already */
    } else if (n > 0) {
      MlirOperation ld =
          build_move("tx8be.load_var", arg, mlirOperationGetLocation(group));
      mlirBlockInsertOwnedOperationBefore(b, first, ld);
      for (size_t i = 0; i < n; i++)
        mlirOperationSetOperand(uses[i].owner, uses[i].index,
                                mlirOperationGetResult(ld, 0));
      (*moves)++;
    }
    free(uses);
  }
}

/* The store_var an earlier return operand got for `v` (yielded twice:
 * stored once), or a null value. */
static MlirValue stored_before(MlirOperation ret, intptr_t i, MlirValue v) {
  for (intptr_t j = 0; j < i; j++) {
    MlirValue s = mlirOperationGetOperand(ret, j);
    if (mlirValueIsAOpResult(s) &&
        npuc_op_is(mlirOpResultGetOwner(s), "tx8be.store_var") &&
        mlirValueEqual(mlirOperationGetOperand(mlirOpResultGetOwner(s), 0), v))
      return s;
  }
  return (MlirValue){NULL};
}

static void insert_stores(MlirOperation group, int *moves) {
  MlirBlock b = body_of(group);
  MlirOperation ret = tx8_block_last_op(b);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); i++) {
    MlirValue v = mlirOperationGetOperand(ret, i);
    if (!mlirValueIsAOpResult(v))
      continue; /* an input handed through: it is in DDR already */
    MlirValue again = stored_before(ret, i, v);
    if (!mlirValueIsNull(again)) {
      mlirOperationSetOperand(ret, i, again);
      continue;
    }
    MlirOperation pre = mlirOpResultGetOwner(v);
    if (npuc_op_is(pre, "tx8be.store_var")) {
      (*moves)++; /* stored already */
      continue;
    }
    if (!npuc_tx8_mask_bit(npuc_tx8_query_op(pre).need_store,
                           mlirOpResultGetResultNumber(v)))
      continue;
    MlirOperation st =
        build_move("tx8be.store_var", v, mlirOperationGetLocation(pre));
    mlirBlockInsertOwnedOperationBefore(b, ret, st);
    mlirOperationSetOperand(ret, i, mlirOperationGetResult(st, 0));
    (*moves)++;
  }
}

static void set_tag(MlirOperation group, int moves) {
  MlirAttribute old = mlirOperationGetAttributeByName(group, ref("group_tag"));
  int64_t tag = !mlirAttributeIsNull(old) && mlirAttributeIsAInteger(old)
                    ? mlirIntegerAttrGetValueInt(old)
                    : 0;
  if (moves == 0)
    tag = 2;
  MlirContext ctx = mlirOperationGetContext(group);
  mlirOperationSetAttributeByName(
      group, ref("group_tag"),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), tag));
}
