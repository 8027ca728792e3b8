/* tx8-layout-align-to-npu: the seed's layoutAlignToNpuPass. Walks the
 * graph from its inputs (which, like its outputs, live compact in DDR),
 * and for every op compares the memory layout each operand arrives in
 * with the one the op's alignMode (`library: align_mode`, OpLibrary.c)
 * accepts:
 *   aligned (NPU_ALIGN: gemm, conv, batchnorm)  every operand Cx/NCx;
 *   compact (reshape, broadcast, transpose, unpack)  Tensor/NTensor;
 *   both/unknown (elementwise, ...)  the CGRA runs on whatever its lead
 *     operand (the first of the result's shape) holds; the other operands
 *     must match it, a broadcast [C] operand in its 1-batch form.
 * Where they conflict a tx8be.channel_norm converts the operand for that
 * user (toward what the user needs), and every op's dev_info records the
 * memory layout its result takes: layout_str mapped to Cx/NCx or
 * Tensor/NTensor (N when the layout's first letter is the batch). Values
 * returned from the function keep their layout: DDR is compact, and the
 * store that writes a graph output there converts it.
 * tx8-layout-align-opt then merges and folds the channel_norms.
 * docs/passes/tx8-layout-align-to-npu.md. */
#include "Tx8LayoutSupport.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TX8L_PASS(
    npuc_pass_tx8_layout_align_to_npu, "tx8-layout-align-to-npu",
    "Insert tx8be.channel_norm where an op's alignMode conflicts with its "
    "operands' memory layout; set dev_info mem_layout from layout_str",
    align_to_npu);

/* The channel_norms made for one user, so an operand it takes twice is
 * converted once. */
#define MAX_CONVERSIONS 16
typedef struct {
  MlirOperation user;
  struct {
    MlirValue from, to;
    npuc_tx8_layout_mode want;
  } done[MAX_CONVERSIONS];
  int num_done;
} user_conversions;

static bool align_op(MlirOperation op);
static npuc_tx8_layout_mode mode_of(MlirValue v);
static bool convert_operand(user_conversions *uc, intptr_t index,
                            npuc_tx8_layout_mode want);

static bool align_to_npu(MlirOperation func, const npuc_pass_options *opts,
                         const npuc_pass_context *ctx) {
  (void)opts;
  size_t n;
  MlirOperation *ops = tx8l_collect_ops(func, &n);
  bool ok = true;
  /* Program order: producers are placed before their users look. */
  for (size_t i = 0; i < n && ok; ++i) {
    if (tx8l_is_layout_op(ctx->registry, ops[i]))
      ok = align_op(ops[i]);
  }
  free(ops);
  return ok;
}

static bool op_fail(MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* "tx8-layout-align-to-npu: 'tx8be.gemm' <why>" at the op. */
static bool op_fail(MlirOperation op, const char *fmt, ...) {
  char name[TX8L_NAME_CAP], msg[320];
  tx8l_op_name(op, name, sizeof name);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  npuc_pass_error(op, "'%s' %s", name, msg);
  return false;
}

/* ---- one op
 * ------------------------------------------------------------------- */

static bool align_operands(MlirOperation op, const npuc_tx8_op_attr *a,
                           const char *layout, npuc_tx8_layout_mode *out);

static bool align_op(MlirOperation op) {
  npuc_tx8_layout_mode out;
  char layout[TX8L_NAME_CAP], why[160];
  npuc_tx8_dev_attr dev;
  if (npuc_tx8_op_dev_attr(op, &dev) == NPUC_TX8_ATTR_MALFORMED)
    return false; /* reported at the op by the reader */
  if (npuc_op_is(op, "tx8be.channel_norm")) {
    /* Placed already: its result is what it converts to. */
    if (!tx8l_channel_norm_target(op, &out))
      return op_fail(op, "has no valid layout");
    tx8l_set_mem_layout(op, out);
    return true;
  }
  if (!tx8l_layout_known(op, layout, sizeof layout))
    return op_fail(op, "has no layout_str: run tx8-layout-init and "
                       "tx8-layout-transmit first");
  if (!tx8l_layout_valid(op, layout, why, sizeof why))
    return op_fail(op, "has an invalid layout_str: %s", why);
  npuc_tx8_shape result;
  if (!tx8l_static_shape(mlirValueGetType(mlirOperationGetResult(op, 0)),
                         &result))
    return op_fail(op, "has a result without a static shape: memory "
                       "layouts place static tensors only");
  npuc_tx8_op_attr a = npuc_tx8_query_op(op);
  if (!align_operands(op, &a, layout, &out))
    return false;
  tx8l_set_mem_layout(op, out);
  return true;
}

/* The layout name the op expects operand `i` (of rank `rank`) in: for gemm
 * and conv the component naming it (the bias has none: a [N] vector), for
 * other ops their own layout for the operands of the result's rank. */
static void expected_name(const npuc_tx8_op_attr *a, const char *layout,
                          intptr_t i, int rank, int result_rank, char *out,
                          size_t cap) {
  if (a->layout_rule == NPUC_TX8_LAYOUT_SOURCE) {
    if (i >= 2 || !npuc_tx8_layout_component(layout, (int)i, out, cap))
      snprintf(out, cap, "Tensor");
    return;
  }
  snprintf(out, cap, "%s", rank == result_rank ? layout : "Tensor");
}

static bool align_all(MlirOperation op, const npuc_tx8_op_attr *a,
                      const char *layout, bool aligned,
                      npuc_tx8_layout_mode *out);
static bool follow_lead(MlirOperation op, const char *layout,
                        npuc_tx8_layout_mode *out);

static bool align_operands(MlirOperation op, const npuc_tx8_op_attr *a,
                           const char *layout, npuc_tx8_layout_mode *out) {
  switch (a->align_mode) {
  case NPUC_TX8_ALIGN_ALIGNED: return align_all(op, a, layout, true, out);
  case NPUC_TX8_ALIGN_COMPACT: return align_all(op, a, layout, false, out);
  default: return follow_lead(op, layout, out);
  }
}

/* An op that takes one kind of layout only: each tensor operand in that
 * kind (its own family of N or not), the result in the kind of its name. */
static bool align_all(MlirOperation op, const npuc_tx8_op_attr *a,
                      const char *layout, bool aligned,
                      npuc_tx8_layout_mode *out) {
  int result_rank = tx8l_rank(mlirValueGetType(mlirOperationGetResult(op, 0)));
  user_conversions uc = {.user = op};
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    int rank = tx8l_rank(mlirValueGetType(v));
    if (rank < 0)
      continue; /* none (an absent bias) or a tuple: nothing to place */
    char name[TX8L_NAME_CAP];
    expected_name(a, layout, i, rank, result_rank, name, sizeof name);
    if (!convert_operand(&uc, i, npuc_tx8_mem_layout_of(name, aligned)))
      return false;
  }
  char result_name[TX8L_NAME_CAP];
  if (!npuc_tx8_layout_component(layout,
                                 npuc_tx8_layout_num_components(layout) - 1,
                                 result_name, sizeof result_name))
    return op_fail(op, "has an invalid layout_str '%s'", layout);
  *out = npuc_tx8_mem_layout_of(result_name, aligned);
  if (aligned &&
      !tx8l_alignable(mlirValueGetType(mlirOperationGetResult(op, 0))))
    return op_fail(op,
                   "needs its result aligned (%s), but Cx/NCx hold f16, "
                   "bf16, f32 and i8 only",
                   npuc_tx8_layout_name(*out));
  return true;
}

/* The first tensor operand of the result's rank, or -1. */
static intptr_t lead_operand(MlirOperation op) {
  int result_rank = tx8l_rank(mlirValueGetType(mlirOperationGetResult(op, 0)));
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    if (tx8l_rank(mlirValueGetType(mlirOperationGetOperand(op, i))) ==
        result_rank)
      return i;
  return -1;
}

/* Does the op place its result itself: a source without operands
 * (constants), or a DMA (load_var, store_var), which converts layouts as
 * it copies? */
static bool places_own_result(MlirOperation op, intptr_t lead) {
  npuc_tx8_engine e = npuc_tx8_query_op(op).engine;
  return lead < 0 || e == NPUC_TX8_ENGINE_LOAD || e == NPUC_TX8_ENGINE_STORE;
}

/* An op that runs on either kind: it keeps the layout its lead operand
 * arrives in, and the others follow. An op that places its own result
 * keeps the layout its dev_info gives, else starts compact, as the graph's
 * inputs do. */
static bool follow_lead(MlirOperation op, const char *layout,
                        npuc_tx8_layout_mode *out) {
  intptr_t lead = lead_operand(op);
  if (places_own_result(op, lead)) {
    npuc_tx8_dev_attr dev;
    if (npuc_tx8_op_dev_attr(op, &dev) == NPUC_TX8_ATTR_PRESENT)
      *out = dev.mem_layout;
    else
      *out = npuc_tx8_mem_layout_of(layout, false);
    return true;
  }
  *out = mode_of(mlirOperationGetOperand(op, lead));
  int result_rank = tx8l_rank(mlirValueGetType(mlirOperationGetResult(op, 0)));
  user_conversions uc = {.user = op};
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    int rank = tx8l_rank(mlirValueGetType(mlirOperationGetOperand(op, i)));
    if (i == lead || rank < 0)
      continue;
    npuc_tx8_layout_mode want = rank == result_rank         ? *out
                                : npuc_tx8_is_aligned(*out) ? NPUC_TX8_CX
                                                            : NPUC_TX8_TENSOR;
    if (!convert_operand(&uc, i, want))
      return false;
  }
  return true;
}

/* ---- values
 * --------------------------------------------------------------------- */

/* The memory layout `v` is in: its producer's dev_info (read already,
 * in program order); graph inputs and results of ops without one (group,
 * call, ...) are compact. */
static npuc_tx8_layout_mode mode_of(MlirValue v) {
  return mlirValueIsAOpResult(v)
             ? npuc_tx8_op_mem_layout(mlirOpResultGetOwner(v))
             : NPUC_TX8_TENSOR;
}

/* The layout_str a channel_norm of `v` carries: its producer's result
 * layout (the data is the same; only its placement changes), else the
 * compact name of the target. */
static void converted_layout_str(MlirValue v, npuc_tx8_layout_mode want,
                                 char *out, size_t cap) {
  if (mlirValueIsAOpResult(v) &&
      tx8l_result_layout(mlirOpResultGetOwner(v), out, cap))
    return;
  snprintf(out, cap, "%s", npuc_tx8_layout_name(npuc_tx8_compact_of(want)));
}

/* Makes operand `index` of uc->user arrive in `want`: nothing when it
 * already does (or the two place it at the same bytes), else a
 * channel_norm before the user. */
static bool convert_operand(user_conversions *uc, intptr_t index,
                            npuc_tx8_layout_mode want) {
  MlirOperation user = uc->user;
  MlirValue v = mlirOperationGetOperand(user, index);
  npuc_tx8_layout_mode have = mode_of(v);
  npuc_tx8_shape shape;
  if (!tx8l_static_shape(mlirValueGetType(v), &shape))
    return op_fail(user,
                   "has operand %ld without a static shape: memory "
                   "layouts place static tensors only",
                   (long)index);
  if (npuc_tx8_layouts_coincide(have, want, shape.dims, shape.rank))
    return true;
  /* Tensor and NTensor are the same bytes: back to compact stays in the
   * source's family, so the conversion keeps its (N, HW, C) view. */
  if (!npuc_tx8_is_aligned(want))
    want = npuc_tx8_compact_of(have);
  if (npuc_tx8_is_aligned(want) && !tx8l_alignable(mlirValueGetType(v)))
    return op_fail(user,
                   "needs operand %ld in %s, but Cx/NCx hold f16, "
                   "bf16, f32 and i8 only",
                   (long)index, npuc_tx8_layout_name(want));
  for (int i = 0; i < uc->num_done; ++i)
    if (mlirValueEqual(uc->done[i].from, v) && uc->done[i].want == want) {
      mlirOperationSetOperand(user, index, uc->done[i].to);
      return true;
    }
  char layout[TX8L_NAME_CAP];
  converted_layout_str(v, want, layout, sizeof layout);
  /* Every channel_norm converts between a compact and an aligned layout
   * of one (N, HW, C) view; Cx <-> NCx of several batches goes through
   * the compact form. */
  MlirValue from = v;
  if (npuc_tx8_is_aligned(have) && npuc_tx8_is_aligned(want))
    from = tx8l_build_channel_norm(user, v, npuc_tx8_compact_of(have), layout);
  MlirValue cn = tx8l_build_channel_norm(user, from, want, layout);
  mlirOperationSetOperand(user, index, cn);
  if (uc->num_done < MAX_CONVERSIONS) {
    uc->done[uc->num_done].from = v;
    uc->done[uc->num_done].to = cn;
    uc->done[uc->num_done].want = want;
    uc->num_done++;
  }
  return true;
}
