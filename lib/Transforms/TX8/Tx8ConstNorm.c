/* tx8-const-norm: the seed's ConstNormPass, after tx8-move-constant.
 *  - constChannelNormErase: a load_const whose only user is a
 *    tx8be.channel_norm loses the channel_norm; its data is laid out in the
 *    channel_norm's layout at compile time instead (the container entry
 *    becomes the bytes op_channel_norm of the C model would produce) and
 *    its dev_info says so.
 *  - processMultiUse: load_consts that share an entry must agree on its
 *    layout. Where the seed forces all of them to the Cx one, here each
 *    layout (and shape) an entry is read in gets an entry of its own, so
 *    no reader sees data in a layout it did not ask for.
 *  - unpack reshape: the packed weights a tx8be.unpack reads (its operand
 *    0, from a load_const with no other user) are re-viewed from
 *    [K, N] to [K/4, 4N], as the seed does.
 *  - weights in DDR (opt_ddr, issue 18; weights-cx): a gemm's weight read
 *    in Cx lies in DDR in Cx too (64-column blocks, each block's rows
 *    contiguous), the order a tile's column part is read in: a constant's
 *    entry becomes the Cx image, a graph input gets the argument
 *    attribute tx8be.ddr_layout = "Cx" (the host lays it out so).
 * Unreferenced entries are dropped and the container is ordered large
 * first again, as tx8-move-constant leaves it. docs/passes/tx8-const-norm.md */
#include "Tx8Options.h"
#include "Tx8ConstContainer.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"
#include "npuc/Alloc.h"

#include <stddef.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

#define CONST_NORM_OPTIONS(X, T)                                               \
  TX8_OPTION_TARGET_CONFIG(X, T)                                               \
  TX8_OPTION_ALIGNED_DATA(X, T, "read in Cx/NCx")                              \
  X(T, bool, weights_cx, "weights-cx", NPUC_OPT_BOOL, "true", NULL,            \
    "lay a gemm's weight (a constant or a graph input) out in DDR in Cx, "     \
    "the order its column parts are read in")
NPUC_PASS_OPTIONS(const_norm_options, CONST_NORM_OPTIONS);

NPUC_PASS_DEFINE(npuc_pass_tx8_const_norm, "tx8-const-norm",
                 "Fold channel_norm of constants into the container, one entry "
                 "per layout",
                 "builtin.module", const_norm,
                 NPUC_PASS_OPTIONS_OF(const_norm_options));

/* What becomes of one load_const. */
typedef struct {
  MlirOperation load;
  int32_t id;                              /* its entry now */
  npuc_tx8_layout_mode from;               /* its dev_info's layout now */
  npuc_tx8_layout_mode to;                 /* its dev_info's layout after */
  npuc_tx8_layout_mode data_from, data_to; /* the entry's layout, before
                                               and after (compact unless
                                               aligned-data) */
  MlirType type;                           /* its result type now */
  MlirType new_type;                       /* after the unpack reshape */
  MlirOperation norm; /* the channel_norm to erase, or null */
} plan;

/* An entry made for one (entry, layout, type) an entry is read in. */
typedef struct {
  int32_t source;
  npuc_tx8_layout_mode mode;
  MlirType type;
  int32_t entry;
  int32_t next; /* the next variant of the same source, -1 */
} variant;

typedef struct {
  tx8_const_container cc;
  size_t num_original;
  variant *variants;
  size_t num_variants;
  int32_t *first_variant; /* per original entry, -1 */
  bool *live;             /* per entry */
  bool aligned_data;      /* entries read aligned hold the aligned image */
  bool weights_cx;        /* so do gemm weights read in Cx */
} entries;

static bool plan_load(MlirOperation load, const entries *e, plan *p);
static bool check_shared_layouts(const plan *plans, size_t n, size_t num_ids);
static bool assign_entries(entries *e, plan *plans, size_t n);
static void apply(const plan *p);
static void renumber(const plan *plans, size_t n, const int32_t *map);
static void lay_out_input_weights(MlirOperation module);

static bool const_norm(MlirOperation module, const npuc_pass_options *opts,
                       const npuc_pass_context *ctx) {
  (void)ctx;
  entries e;
  memset(&e, 0, sizeof e);
  int64_t threshold;
  if (!tx8_container_open(
          module, npuc_pass_tx8_const_norm.name,
          NPUC_PASS_OPTS(const_norm_options, opts)->target_config, &e.cc,
          &threshold))
    return false;
  e.num_original = e.cc.count;
  e.aligned_data = NPUC_PASS_OPTS(const_norm_options, opts)->aligned_data;
  e.weights_cx = NPUC_PASS_OPTS(const_norm_options, opts)->weights_cx;
  tx8_op_list loads;
  tx8_collect_ops(module, "tx8be.load_const", &loads);
  plan *plans = npuc_xcalloc(loads.count + 1, sizeof *plans);
  /* Decide and check everything before changing anything. */
  bool ok = true;
  for (size_t i = 0; i < loads.count; i++)
    ok = plan_load(loads.ops[i], &e, &plans[i]) && ok;
  ok = ok && check_shared_layouts(plans, loads.count, e.num_original);
  ok = ok && assign_entries(&e, plans, loads.count);
  if (ok) {
    for (size_t i = 0; i < loads.count; i++)
      apply(&plans[i]);
    int32_t *map = tx8_container_commit(module, &e.cc, e.live, threshold);
    renumber(plans, loads.count, map);
    free(map);
    if (e.weights_cx)
      lay_out_input_weights(module);
  }
  free(plans);
  free(e.variants);
  free(e.first_variant);
  free(e.live);
  tx8_op_list_free(&loads);
  tx8_container_free(&e.cc);
  return ok;
}

/* The only use of `v`, or a null operand. */
static MlirOpOperand only_use(MlirValue v) {
  MlirOpOperand u = mlirValueGetFirstUse(v);
  if (mlirOpOperandIsNull(u) ||
      !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u)))
    return (MlirOpOperand){NULL};
  return u;
}

static bool plan_unpack(MlirOperation load, plan *p);
static void plan_weight(const entries *e, plan *p);

static bool plan_load(MlirOperation load, const entries *e, plan *p) {
  MlirValue result = mlirOperationGetResult(load, 0);
  npuc_tx8_dev_attr dev;
  npuc_tx8_attr_status st = npuc_tx8_op_dev_attr(load, &dev);
  if (st == NPUC_TX8_ATTR_MALFORMED)
    return false;
  p->load = load;
  p->id = tx8_load_const_id(load);
  p->from = st == NPUC_TX8_ATTR_PRESENT ? dev.mem_layout : NPUC_TX8_TENSOR;
  p->to = p->from;
  p->data_from = p->data_to = e->aligned_data ? p->from : NPUC_TX8_TENSOR;
  p->type = p->new_type = mlirValueGetType(result);
  if (p->id < 0 || (size_t)p->id >= e->num_original) {
    npuc_pass_error(load,
                    "load_const[%d] has no entry in the constant "
                    "container (%zu entries)",
                    p->id, e->num_original);
    return false;
  }
  /* An entry laid out already (weights-cx of an earlier run) is its
   * layout's image. */
  if (npuc_tx8_is_aligned(p->from) &&
      !mlirTypeEqual(mlirAttributeGetType(e->cc.values[p->id]), p->type))
    p->data_from = p->data_to = p->from;
  MlirOpOperand use = only_use(result);
  if (mlirOpOperandIsNull(use))
    return true;
  plan_weight(e, p);
  MlirOperation user = mlirOpOperandGetOwner(use);
  if (npuc_op_is(user, "tx8be.unpack") &&
      mlirOpOperandGetOperandNumber(use) == 0)
    return plan_unpack(load, p);
  if (!npuc_op_is(user, "tx8be.channel_norm") ||
      !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(user, 0)),
                     p->type))
    return true;
  npuc_tx8_layout_mode to;
  if (!npuc_tx8_channel_norm_layout(user, &to))
    return true; /* the verifier reports a bad layout */
  npuc_tx8_dtype dt;
  if (to != p->from &&
      !npuc_tx8_dtype_of_type(mlirShapedTypeGetElementType(p->type), &dt)) {
    npuc_pass_error(user,
                    "cannot lay the constant out in %s: its element type "
                    "has no TX8 layout (f16, bf16, f32 or i8)",
                    npuc_tx8_layout_name(to));
    return false;
  }
  p->norm = user;
  p->to = to;
  if (e->aligned_data)
    p->data_to = to;
  plan_weight(e, p);
  return true;
}

/* A gemm's weight read in Cx is stored as the Cx image (weights-cx). */
static void plan_weight(const entries *e, plan *p) {
  MlirValue result = mlirOperationGetResult(p->load, 0);
  if (e->weights_cx && p->to == NPUC_TX8_CX && tx8_value_is_gemm_weight(result))
    p->data_to = p->to;
}

/* The seed's unpack reshape: qweight [K, N] -> [K/4, 4N]. */
static bool plan_unpack(MlirOperation load, plan *p) {
  if (mlirShapedTypeGetRank(p->type) != 2 ||
      mlirShapedTypeGetDimSize(p->type, 0) % 4 != 0) {
    npuc_pass_error(load, "the packed weights of tx8be.unpack must be "
                          "[K, N] with K a multiple of 4 to be viewed as "
                          "[K/4, 4N]");
    return false;
  }
  if (npuc_tx8_is_aligned(p->data_from)) {
    npuc_pass_error(load,
                    "the packed weights of tx8be.unpack are in %s; only "
                    "compact data can be re-viewed",
                    npuc_tx8_layout_name(p->data_from));
    return false;
  }
  int64_t shape[2] = {mlirShapedTypeGetDimSize(p->type, 0) / 4,
                      mlirShapedTypeGetDimSize(p->type, 1) * 4};
  p->new_type = mlirRankedTensorTypeGet(
      2, shape, mlirShapedTypeGetElementType(p->type), mlirAttributeGetNull());
  return true;
}

/* An entry's data is in one layout: every load_const of it must say the
 * same (tx8-move-constant gives them all the constant's dev_info). */
static bool check_shared_layouts(const plan *plans, size_t n, size_t num_ids) {
  int *seen = npuc_xmalloc((num_ids + 1) * sizeof *seen);
  for (size_t i = 0; i < num_ids; i++)
    seen[i] = -1;
  bool ok = true;
  for (size_t i = 0; i < n; i++) {
    int *s = &seen[plans[i].id];
    if (*s < 0)
      *s = (int)plans[i].data_from;
    else if (*s != (int)plans[i].data_from) {
      npuc_pass_error(plans[i].load,
                      "load_const[%d] reads its entry as %s, another "
                      "load_const of it as %s",
                      plans[i].id, npuc_tx8_layout_name(plans[i].data_from),
                      npuc_tx8_layout_name((npuc_tx8_layout_mode)*s));
      ok = false;
    }
  }
  free(seen);
  return ok;
}

static int32_t variant_entry(entries *e, const plan *p, bool *ok);

/* Every load_const gets the entry of its (source, layout, type): the
 * source itself when it reads it unchanged, else one made for it. */
static bool assign_entries(entries *e, plan *plans, size_t n) {
  e->first_variant =
      npuc_xmalloc((e->num_original + 1) * sizeof *e->first_variant);
  e->variants = npuc_xmalloc((n + 1) * sizeof *e->variants);
  for (size_t i = 0; i < e->num_original; i++)
    e->first_variant[i] = -1;
  bool ok = true;
  for (size_t i = 0; ok && i < n; i++)
    plans[i].id = variant_entry(e, &plans[i], &ok);
  e->live = npuc_xcalloc(e->cc.count + 1, sizeof *e->live);
  for (size_t i = 0; ok && i < n; i++)
    e->live[plans[i].id] = true;
  return ok;
}

static int32_t variant_entry(entries *e, const plan *p, bool *ok) {
  if (p->data_to == p->data_from && mlirTypeEqual(p->new_type, p->type))
    return p->id;
  for (int32_t v = e->first_variant[p->id]; v >= 0; v = e->variants[v].next)
    if (e->variants[v].mode == p->data_to &&
        mlirTypeEqual(e->variants[v].type, p->new_type))
      return e->variants[v].entry;
  MlirAttribute value = e->cc.values[p->id];
  const char *why = "";
  if (p->data_to != p->data_from &&
      !tx8_relayout(value, p->type, p->data_from, p->data_to, &value, &why)) {
    npuc_pass_error(p->load, "cannot lay the constant out in %s: %s",
                    npuc_tx8_layout_name(p->data_to), why);
    *ok = false;
    return p->id;
  }
  if (!mlirTypeEqual(p->new_type, p->type))
    value = mlirDenseElementsAttrReshapeGet(value, p->new_type);
  variant *v = &e->variants[e->num_variants];
  *v = (variant){p->id, p->data_to, p->new_type,
                 (int32_t)tx8_container_add(&e->cc, value),
                 e->first_variant[p->id]};
  e->first_variant[p->id] = (int32_t)e->num_variants++;
  return v->entry;
}

static void apply(const plan *p) {
  MlirValue result = mlirOperationGetResult(p->load, 0);
  if (!mlirOperationIsNull(p->norm)) {
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(p->norm, 0), result);
    mlirOperationDestroy(p->norm);
  }
  if (p->to != p->from) {
    npuc_tx8_dev_attr dev;
    if (npuc_tx8_op_dev_attr(p->load, &dev) != NPUC_TX8_ATTR_PRESENT)
      dev = npuc_tx8_dev_attr_with_layout(p->to);
    dev.mem_layout = p->to;
    npuc_tx8_op_set_dev_attr(p->load, &dev);
  }
  if (!mlirTypeEqual(p->new_type, p->type))
    mlirValueSetType(result, p->new_type);
}

static void renumber(const plan *plans, size_t n, const int32_t *map) {
  for (size_t i = 0; i < n; i++)
    tx8_set_load_const_id(plans[i].load, map[plans[i].id]);
}

/* Graph inputs read only as gemm weights (through channel_norms to Cx)
 * lie in DDR in Cx: the host lays their compact files out so. */
static void lay_out_input_weights(MlirOperation module) {
  tx8_op_list funcs;
  tx8_collect_ops(module, "func.func", &funcs);
  for (size_t f = 0; f < funcs.count; f++) {
    MlirRegion body = mlirOperationGetRegion(funcs.ops[f], 0);
    MlirBlock entry = mlirRegionGetFirstBlock(body);
    if (mlirBlockIsNull(entry))
      continue;
    for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); i++) {
      MlirValue arg = mlirBlockGetArgument(entry, i);
      npuc_tx8_dtype dt;
      if (tx8_value_is_gemm_weight(arg) &&
          npuc_tx8_value_ddr_layout(arg) == NPUC_TX8_TENSOR &&
          npuc_tx8_dtype_of_type(
              mlirShapedTypeGetElementType(mlirValueGetType(arg)), &dt))
        tx8_set_arg_ddr_layout(funcs.ops[f], i, NPUC_TX8_CX);
    }
  }
  tx8_op_list_free(&funcs);
}
