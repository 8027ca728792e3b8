/* tx8-layout-init: the seed's layoutInitPass. Gemm and conv, the ops whose
 * layout the neural engine fixes (`infer: {layout: source}` in the op
 * table), get a layout_str naming input, weight and result; every other op
 * that carries a layout gets UNKNOWN, for tx8-layout-transmit to fill in.
 * A layout_str the graph already gives a gemm or conv is kept when it is
 * valid (the middle end may know better) and an error otherwise.
 * docs/passes/tx8-layout-init.md. */
#include "Tx8LayoutSupport.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TX8L_PASS(
    npuc_pass_tx8_layout_init, "tx8-layout-init",
    "Give tx8be gemm/conv their layout_str (input-weight-result) and every "
    "other op UNKNOWN",
    layout_init);

static bool init_source(MlirOperation op);
static void default_source_layout(MlirOperation op, char *out, size_t cap);
static bool graph_has_body(MlirOperation func);

static bool layout_init(MlirOperation func, const npuc_pass_options *opts,
                        const npuc_pass_context *ctx) {
  (void)opts;
  if (!graph_has_body(func))
    return false;
  size_t n;
  MlirOperation *ops = tx8l_collect_ops(func, &n);
  bool ok = true;
  for (size_t i = 0; i < n; ++i) {
    if (!tx8l_is_layout_op(ctx->registry, ops[i]))
      continue;
    if (npuc_tx8_query_op(ops[i]).layout_rule == NPUC_TX8_LAYOUT_SOURCE)
      ok = init_source(ops[i]) && ok;
    else
      tx8l_set_layout_str(ops[i], TX8L_UNKNOWN);
  }
  free(ops);
  return ok;
}

/* A gemm or conv: keep a valid given layout, else the default. */
static bool init_source(MlirOperation op) {
  char layout[TX8L_NAME_CAP], why[160];
  if (tx8l_layout_known(op, layout, sizeof layout)) {
    if (tx8l_layout_valid(op, layout, why, sizeof why))
      return true;
    char name[TX8L_NAME_CAP];
    tx8l_op_name(op, name, sizeof name);
    npuc_pass_error(op, "layout_str of '%s': %s", name, why);
    return false;
  }
  default_source_layout(op, layout, sizeof layout);
  tx8l_set_layout_str(op, layout);
  return true;
}

/* Conv is NHWC input, HWOI weights, NHWC output by definition of the op.
 * Gemm's input and output are Tensor, or NTensor when they have batch
 * dimensions and the first is not 1 (the seed: the two differ in whether
 * dimension 0 is 1; a plain matrix is one batch of rows); its weight is a
 * Tensor. */
static void default_source_layout(MlirOperation op, char *out, size_t cap) {
  if (npuc_op_is(op, "tx8be.conv")) {
    snprintf(out, cap, "NHWC-HWOI-NHWC");
    return;
  }
  MlirType a = mlirValueGetType(mlirOperationGetOperand(op, 0));
  bool batched = tx8l_rank(a) >= 3 && mlirShapedTypeGetDimSize(a, 0) != 1;
  const char *io = batched ? "NTensor" : "Tensor";
  snprintf(out, cap, "%s-Tensor-%s", io, io);
}

/* The graph the TX8 target compiles is @main, or the module's only
 * function (docs/tx8.md); a declaration there has nothing to compile, and
 * the emitter would walk a body that does not exist. This pass is the
 * first of the pipeline, so the error comes before anything else runs.
 * Other declarations (callees given elsewhere) are left alone. */
static bool graph_has_body(MlirOperation func) {
  if (!mlirBlockIsNull(
          mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0))))
    return true;
  MlirAttribute sym = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("sym_name"));
  MlirStringRef name = mlirStringAttrGetValue(sym);
  bool is_main = name.length == 4 && memcmp(name.data, "main", 4) == 0;
  MlirOperation module = mlirOperationGetParentOperation(func);
  int funcs = 0;
  if (!mlirOperationIsNull(module))
    for (MlirOperation op = mlirBlockGetFirstOperation(
             mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)));
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      funcs += npuc_op_is(op, "func.func");
  if (!is_main && funcs != 1)
    return true;
  npuc_pass_error(func,
                  "the graph function @%.*s is a declaration: it has "
                  "no body to compile",
                  (int)name.length, name.data);
  return false;
}
