/* tx8-layout-init: the seed's layoutInitPass. Gemm and conv, the ops whose
 * layout the neural engine fixes (`infer: {layout: source}` in the op
 * table), get a layout_str naming input, weight and result; every other op
 * that carries a layout gets UNKNOWN, for tx8-layout-transmit to fill in.
 * A layout_str the graph already gives a gemm or conv is kept when it is
 * valid (the middle end may know better) and an error otherwise.
 * docs/passes/tx8-layout-init.md. */
#include "Tx8LayoutSupport.h"
#include "Tx8Options.h"
#include "npuc/Checked.h"
#include "npuc/IR.h"
#include "npuc/MlirSupport.h"
#include "npuc/StringBuilder.h"
#include "npuc/Tx8Ir.h"
#include "npuc/Tx8Layout.h"
#include "npuc/Pass.h"

#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool layout_init(MlirOperation func, const npuc_pass_options *opts,
                        const npuc_pass_context *ctx);

#define INIT_OPTIONS(X, T) TX8_OPTION_TARGET_CONFIG(X, T)
NPUC_PASS_OPTIONS(init_options, INIT_OPTIONS);

/* As TX8L_PASS, with the target description: its DDR size bounds every
 * tensor (sizes_fit below). */
NPUC_PASS_DEFINE(npuc_pass_tx8_layout_init, "tx8-layout-init",
                 "Give tx8be gemm/conv their layout_str (input-weight-result) "
                 "and every other op UNKNOWN",
                 "func.func", layout_init, NPUC_PASS_OPTIONS_OF(init_options));

static bool init_source(MlirOperation op);
static void default_source_layout(MlirOperation op, char *out, size_t cap);
static bool graph_has_body(MlirOperation func);
static bool sizes_fit(MlirOperation func, MlirOperation *ops, size_t n,
                      int64_t ddr_bytes);

static bool layout_init(MlirOperation func, const npuc_pass_options *opts,
                        const npuc_pass_context *ctx) {
  npuc_tx8_target target;
  if (mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0))))
    return graph_has_body(func); /* a declaration: nothing to lay out */
  if (!npuc_tx8_pass_target(func, "tx8-layout-init",
                            NPUC_PASS_OPTS(init_options, opts)->target_config,
                            &target))
    return false;
  size_t n;
  MlirOperation *ops = tx8l_collect_ops(func, &n);
  bool ok = sizes_fit(func, ops, n, target.ddr_bytes);
  /* A graph grouped already (hand-written, or an earlier run's output:
   * --target=tx8 starts it at tx8-sharding) had its layouts decided; it
   * gets the checks above and is left as it is. */
  for (size_t i = 0; i < n; ++i)
    if (npuc_op_is(ops[i], "tx8be.group"))
      n = 0;
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

static bool value_fits(MlirOperation where, MlirValue v, const char *what,
                       int index, int64_t ddr_bytes);

/* Every tensor of the graph, argument or result, must fit the target's
 * DDR in its largest layout, and its size must be computable: the later
 * passes multiply dimensions, pad channels and align batches in int64 (a
 * tensor<9223372036854775807x2xf16> crashed the sharding pass dividing by
 * a wrapped size). Checked here, first, with the overflow-checked
 * helpers; an error names the value. */
static bool sizes_fit(MlirOperation func, MlirOperation *ops, size_t n,
                      int64_t ddr_bytes) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  bool ok = true;
  for (intptr_t i = 0; ok && i < mlirBlockGetNumArguments(entry); ++i)
    ok = value_fits(func, mlirBlockGetArgument(entry, i), "argument", (int)i,
                    ddr_bytes);
  for (size_t k = 0; ok && k < n; ++k)
    for (intptr_t i = 0; ok && i < mlirOperationGetNumResults(ops[k]); ++i)
      ok = value_fits(ops[k], mlirOperationGetResult(ops[k], i), "result",
                      (int)i, ddr_bytes);
  return ok;
}

static bool align_batch(int64_t bytes, int64_t *out) {
  return npuc_checked_align_up(bytes, NPUC_TX8_BATCH_ALIGN_BYTES, out);
}

/* The bytes of the tensor's largest TX8 layout: the aligned ones, with
 * padded channels, as one batch (Cx) or batched on dimension 0 (NCx),
 * each batch aligned; the compact ones are never larger. False when the
 * size overflows int64. */
static bool tensor_bytes(MlirType t, int64_t *bytes) {
  npuc_tx8_dtype dt;
  intptr_t rank = mlirShapedTypeGetRank(t);
  *bytes = 0;
  if (!npuc_tx8_dtype_of_type(mlirShapedTypeGetElementType(t), &dt) ||
      rank == 0)
    return true; /* other checks say what is wrong with it */
  int64_t c = mlirShapedTypeGetDimSize(t, rank - 1), row, hw = 1, n = 1;
  if (!npuc_checked_mul(npuc_tx8_padded_channels(c, dt),
                        npuc_tx8_dtype_bytes(dt), &row))
    return false;
  for (intptr_t d = rank >= 2 ? 1 : 0; d + 1 < rank; ++d)
    if (!npuc_checked_mul(hw, mlirShapedTypeGetDimSize(t, d), &hw))
      return false;
  if (rank >= 2)
    n = mlirShapedTypeGetDimSize(t, 0);
  int64_t batch, batched, whole;
  if (!npuc_checked_mul(hw, row, &batch) || !align_batch(batch, &batched) ||
      !npuc_checked_mul(batched, n, &batched) ||
      !npuc_checked_mul(batch, n, &whole) || !align_batch(whole, &whole))
    return false;
  *bytes = batched > whole ? batched : whole;
  return true;
}

static bool value_fits(MlirOperation where, MlirValue v, const char *what,
                       int index, int64_t ddr_bytes) {
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t))
    return true;
  int64_t bytes;
  bool computable = tensor_bytes(t, &bytes), empty = false;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); ++d)
    empty |= mlirShapedTypeGetDimSize(t, d) == 0;
  if (computable && bytes <= ddr_bytes && !empty)
    return true;
  npuc_sb type = {0};
  mlirTypePrint(t, npuc_sb_append_mlir, &type);
  if (empty)
    /* The layouts, the slice plan and the op library divide by the
     * dimensions (a tensor<0x8xf16> died of SIGFPE in tx8-sharding). */
    npuc_pass_error(where,
                    "%s %d (%s) has a dimension of size 0: the TX8 target "
                    "computes no empty tensors",
                    what, index, type.data ? type.data : "");
  else if (!computable)
    npuc_pass_error(where,
                    "%s %d (%s) is too large: its size in bytes does not "
                    "fit in 64 bits",
                    what, index, type.data ? type.data : "");
  else
    npuc_pass_error(where,
                    "%s %d (%s) is too large: its layout takes up to %lld "
                    "bytes, the target's DDR has %lld (ddr_bytes)",
                    what, index, type.data ? type.data : "", (long long)bytes,
                    (long long)ddr_bytes);
  npuc_sb_free(&type);
  return false;
}
