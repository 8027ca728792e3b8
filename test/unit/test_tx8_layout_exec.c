/* Layouts change where data lives, not what it is: runs a small CNN
 * (conv -> batchnorm -> relu -> gemm -> add of a [C] bias) on the TX8 C
 * model (libnpuc_tx8_rt) twice, once as written with every tensor compact
 * and once after the four tx8-layout passes, with every value placed in
 * the memory layout its producer's dev_info names and every channel_norm
 * executed by op_channel_norm. The outputs must be the same bits. The
 * transformed run also checks the passes' contract: the aligned-only ops
 * (conv, batchnorm, gemm) see only Cx/NCx operands, the CGRA ops get
 * operands and result in one layout. The result is stored to compact DDR
 * (op_dma_store) as a graph output is.
 * A second test round-trips the inserted channel_norms (compact -> aligned
 * -> compact gives the input back, padding and all). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "npuc/Passes.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"
#include "npuc/TX8.h"
#include "npuc/Tx8Ir.h"
#include "npuc/Tx8Runtime.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

/* C = 40 input channels (one padded row), 72 after the conv (a 64-channel
 * block plus C0 = 8): both shapes of NCx. Two batches. */
static const char *kGraph =
    "func.func @main(%x: tensor<2x6x6x40xf16>, %w: tensor<3x3x72x40xf16>,\n"
    "    %s: tensor<72xf32>, %o: tensor<72xf32>, %m: tensor<72xf32>,\n"
    "    %v: tensor<72xf32>, %gw: tensor<72x24xf16>, %bias: tensor<24xf16>)\n"
    "    -> tensor<2x6x6x24xf16> {\n"
    "  %none = tx8be.none : none\n"
    "  %0 = tx8be.conv %x, %w, %none strides = [1, 1] pads = [1, 1, 1, 1] "
    "dilations = [1, 1] : tensor<2x6x6x40xf16>, tensor<3x3x72x40xf16>, none "
    "-> tensor<2x6x6x72xf16>\n"
    "  %1 = tx8be.batchnorm_inference %0, %s, %o, %m, %v {epsilon = 1.0e-5 : "
    "f32} : tensor<2x6x6x72xf16>, tensor<72xf32>, tensor<72xf32>, "
    "tensor<72xf32>, tensor<72xf32> -> tensor<2x6x6x72xf16>\n"
    "  %2 = tx8be.relu %1 : tensor<2x6x6x72xf16> -> tensor<2x6x6x72xf16>\n"
    "  %3 = tx8be.gemm %2, %gw, %none : tensor<2x6x6x72xf16>, "
    "tensor<72x24xf16>, none -> tensor<2x6x6x24xf16>\n"
    "  %4 = tx8be.add %3, %bias : tensor<2x6x6x24xf16>, tensor<24xf16> -> "
    "tensor<2x6x6x24xf16>\n"
    "  return %4 : tensor<2x6x6x24xf16>\n"
    "}\n";

static const char *kPipeline =
    "builtin.module(func.func(tx8-layout-init,tx8-layout-transmit,"
    "tx8-layout-align-to-npu,tx8-layout-align-opt))";

/* ---- values and their placement
 * ---------------------------------------------- */

#define MAX_SLOTS 64

/* A value of the graph in the C model: its bytes in one layout. */
typedef struct {
  MlirValue v;
  npuc_tx8_tsr t;
  int64_t shape[NPUC_TX8_MAX_RANK];
  int rank;
} slot;

typedef struct {
  bool transformed; /* placed by the passes (dev_info) or all compact */
  slot slots[MAX_SLOTS];
  int n;
  int channel_norms;
} machine;

static npuc_tx8_dtype dtype_of(MlirType t) {
  MlirType e = mlirShapedTypeGetElementType(t);
  if (mlirTypeIsAF16(e))
    return NPUC_TX8_F16;
  if (mlirTypeIsABF16(e))
    return NPUC_TX8_BF16;
  assert_true(mlirTypeIsAF32(e));
  return NPUC_TX8_F32;
}

static npuc_tx8_tsr view(const slot *s, npuc_tx8_layout_mode mode) {
  return npuc_tx8_tsr_make(s->t.data,
                           npuc_tx8_dims_of_shape(s->shape, s->rank, mode),
                           s->t.layout.dtype, mode);
}

/* The same bytes seen in `mode`, which must place them identically: a
 * conflict the passes left would fail here. */
static npuc_tx8_tsr view_as(const slot *s, npuc_tx8_layout_mode mode) {
  assert_true(
      npuc_tx8_layouts_coincide(s->t.layout.mode, mode, s->shape, s->rank));
  return view(s, mode);
}

static slot *new_slot(machine *m, MlirValue v, npuc_tx8_layout_mode mode) {
  assert_true(m->n < MAX_SLOTS);
  slot *s = &m->slots[m->n++];
  MlirType t = mlirValueGetType(v);
  s->v = v;
  s->rank = (int)mlirShapedTypeGetRank(t);
  for (int i = 0; i < s->rank; ++i)
    s->shape[i] = mlirShapedTypeGetDimSize(t, i);
  npuc_tx8_dims d = npuc_tx8_dims_of_shape(s->shape, s->rank, mode);
  npuc_tx8_layout l = npuc_tx8_layout_of(d, dtype_of(t), mode);
  s->t =
      npuc_tx8_tsr_make(calloc(1, (size_t)l.total_bytes), d, dtype_of(t), mode);
  assert_non_null(s->t.data);
  return s;
}

static slot *slot_of(machine *m, MlirValue v) {
  for (int i = 0; i < m->n; ++i)
    if (mlirValueEqual(m->slots[i].v, v))
      return &m->slots[i];
  fail_msg("a value used before it was computed");
  return NULL;
}

static void free_slots(machine *m) {
  for (int i = 0; i < m->n; ++i)
    free(m->slots[i].t.data);
}

/* ---- running ops
 * ----------------------------------------------------------------- */

static MlirAttribute attr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op,
                                         mlirStringRefCreateFromCString(name));
}

static bool op_is(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

/* The layout the op's result takes: dev_info's after the passes, else
 * the compact layout of the family given. */
static npuc_tx8_layout_mode result_mode(machine *m, MlirOperation op,
                                        npuc_tx8_layout_mode compact) {
  if (!m->transformed)
    return compact;
  npuc_tx8_dev_attr dev;
  assert_int_equal(npuc_tx8_op_dev_attr(op, &dev), NPUC_TX8_ATTR_PRESENT);
  return dev.mem_layout;
}

static slot *operand(machine *m, MlirOperation op, intptr_t i) {
  return slot_of(m, mlirOperationGetOperand(op, i));
}

/* An aligned-only op's operand: aligned after the passes. */
static npuc_tx8_tsr aligned_operand(machine *m, MlirOperation op, intptr_t i,
                                    bool batched) {
  slot *s = operand(m, op, i);
  npuc_tx8_layout_mode want = batched ? NPUC_TX8_NTENSOR : NPUC_TX8_TENSOR;
  if (m->transformed) {
    assert_true(npuc_tx8_is_aligned(s->t.layout.mode));
    want = npuc_tx8_aligned_of(want);
  }
  return view_as(s, want);
}

static int64_t i64_at(MlirOperation op, const char *name, intptr_t i) {
  return mlirDenseI64ArrayGetElement(attr(op, name), i);
}

static void run_conv(machine *m, MlirOperation op) {
  npuc_tx8_tsr in = aligned_operand(m, op, 0, true);
  npuc_tx8_tsr w = aligned_operand(m, op, 1, false);
  slot *x = operand(m, op, 0), *ws = operand(m, op, 1);
  slot *out = new_slot(m, mlirOperationGetResult(op, 0),
                       result_mode(m, op, NPUC_TX8_NTENSOR));
  npuc_tx8_conv_param p = {.in_h = (int32_t)x->shape[1],
                           .in_w = (int32_t)x->shape[2],
                           .kernel_h = (int32_t)ws->shape[0],
                           .kernel_w = (int32_t)ws->shape[1],
                           .stride_h = (int32_t)i64_at(op, "strides", 0),
                           .stride_w = (int32_t)i64_at(op, "strides", 1),
                           .pad_top = (int32_t)i64_at(op, "pads", 0),
                           .pad_left = (int32_t)i64_at(op, "pads", 2),
                           .dilation_h = (int32_t)i64_at(op, "dilations", 0),
                           .dilation_w = (int32_t)i64_at(op, "dilations", 1),
                           .out_h = (int32_t)out->shape[1],
                           .out_w = (int32_t)out->shape[2],
                           .groups = 1};
  op_conv(&p, &in, &w, NULL, &out->t);
}

static void run_batchnorm(machine *m, MlirOperation op) {
  npuc_tx8_tsr v[5];
  v[0] = aligned_operand(m, op, 0, true);
  for (int i = 1; i < 5; ++i)
    v[i] = aligned_operand(m, op, i, false);
  slot *out = new_slot(m, mlirOperationGetResult(op, 0),
                       result_mode(m, op, v[0].layout.mode));
  npuc_tx8_batchnorm_param p = {
      (float)mlirFloatAttrGetValueDouble(attr(op, "epsilon"))};
  void *imm = malloc((size_t)npuc_tx8_batchnorm_imm_bytes(&v[0]));
  op_batchnorm_inference(&p, &v[0], &v[1], &v[2], &v[3], &v[4], imm, &out->t);
  free(imm);
}

static void run_gemm(machine *m, MlirOperation op) {
  npuc_tx8_tsr a = aligned_operand(m, op, 0, true);
  npuc_tx8_tsr b = aligned_operand(m, op, 1, false);
  slot *out = new_slot(m, mlirOperationGetResult(op, 0),
                       result_mode(m, op, a.layout.mode));
  npuc_tx8_tsr o = view_as(out, a.layout.mode); /* a's batches */
  npuc_tx8_gemm_param p = {false, false, 1};
  op_gemm(&p, &a, &b, NULL, &o);
}

/* CGRA ops: the result in the lead operand's layout, the others in it
 * too, a [C] vector as it is. */
static void run_cgra(machine *m, MlirOperation op) {
  slot *lead = operand(m, op, 0);
  if (mlirOperationGetNumOperands(op) == 2 && lead->rank == 1)
    lead = operand(m, op, 1);
  npuc_tx8_layout_mode mode = lead->t.layout.mode;
  slot *out =
      new_slot(m, mlirOperationGetResult(op, 0), result_mode(m, op, mode));
  assert_int_equal(out->t.layout.mode, mode);
  if (op_is(op, "tx8be.relu")) {
    op_unary(NPUC_TX8_RELU, &lead->t, &out->t);
    return;
  }
  slot *a = operand(m, op, 0), *b = operand(m, op, 1);
  npuc_tx8_tsr ta = a->rank == 1 ? a->t : view_as(a, mode);
  npuc_tx8_tsr tb = b->rank == 1 ? b->t : view_as(b, mode);
  op_binary(NPUC_TX8_ADD, &ta, &tb, &out->t);
}

/* op_channel_norm converts between layouts of the same (N, HW, C) view;
 * the compact side takes the aligned side's family (same bytes). */
static void run_channel_norm(machine *m, MlirOperation op) {
  slot *in = operand(m, op, 0);
  npuc_tx8_layout_mode to = result_mode(m, op, NPUC_TX8_TENSOR);
  slot *out = new_slot(m, mlirOperationGetResult(op, 0), to);
  npuc_tx8_layout_mode from = in->t.layout.mode;
  assert_true(npuc_tx8_is_aligned(from) != npuc_tx8_is_aligned(to));
  npuc_tx8_tsr src =
      npuc_tx8_is_aligned(from) ? in->t : view_as(in, npuc_tx8_compact_of(to));
  npuc_tx8_tsr dst = npuc_tx8_is_aligned(to)
                         ? out->t
                         : view_as(out, npuc_tx8_compact_of(from));
  op_channel_norm(&dst, &src);
  m->channel_norms++;
}

/* The graph output in DDR: compact, converted by the store. */
static slot *store_output(machine *m, slot *r) {
  npuc_tx8_layout_mode mode = npuc_tx8_compact_of(r->t.layout.mode);
  slot *out = new_slot(m, r->v, mode);
  op_dma_store(&out->t, &r->t);
  return out;
}

/* Runs @main's body; returns the stored output. */
static slot *run(machine *m, MlirOperation func) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (op_is(op, "tx8be.none"))
      continue;
    else if (op_is(op, "tx8be.conv"))
      run_conv(m, op);
    else if (op_is(op, "tx8be.batchnorm_inference"))
      run_batchnorm(m, op);
    else if (op_is(op, "tx8be.gemm"))
      run_gemm(m, op);
    else if (op_is(op, "tx8be.relu") || op_is(op, "tx8be.add"))
      run_cgra(m, op);
    else if (op_is(op, "tx8be.channel_norm"))
      run_channel_norm(m, op);
    else if (op_is(op, "func.return"))
      return store_output(m, operand(m, op, 0));
    else
      fail_msg("unexpected op in the graph");
  }
  fail_msg("no return");
  return NULL;
}

/* ---- inputs
 * ------------------------------------------------------------------------ */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double uniform(double lo, double hi) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

/* Random compact inputs: the batchnorm variance (argument 5) positive. */
static void fill_inputs(machine *m, MlirOperation func, uint64_t seed) {
  rng = seed;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); ++i) {
    slot *s = new_slot(m, mlirBlockGetArgument(body, i), NPUC_TX8_TENSOR);
    npuc_tx8_dims d = s->t.layout.dims;
    for (int64_t hw = 0; hw < d.hw; ++hw)
      for (int64_t c = 0; c < d.c; ++c)
        npuc_tx8_set(&s->t, 0, hw, c,
                     i == 5 ? uniform(0.5, 2.0) : uniform(-1.0, 1.0));
  }
}

/* ---- fixture
 * ------------------------------------------------------------------------- */

typedef struct {
  MlirContext ctx;
  npuc_module m;
} graph;

static MlirOperation parse(graph *g, bool transform) {
  g->ctx = npuc_context_create();
  const npuc_op_registry *reg = npuc_builtin_op_registry(NULL);
  assert_true(npuc_module_parse(g->ctx, reg, kGraph, strlen(kGraph), "g.mlir",
                                1, NULL, &g->m));
  if (transform) {
    npuc_pass_context pc = {reg, g->ctx, NULL};
    MlirPassManager pm = mlirPassManagerCreate(g->ctx);
    assert_true(npuc_pipeline_parse(pm, kPipeline, &pc, NULL));
    assert_true(
        mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, g->m.op)));
    mlirPassManagerDestroy(pm);
  }
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(g->m.op, 0));
  return mlirBlockGetFirstOperation(top);
}

static void done(graph *g) {
  npuc_module_destroy(&g->m);
  npuc_context_destroy(g->ctx);
}

/* ---- tests
 * ------------------------------------------------------------------------------
 */

static void same_bits_before_and_after_layouts(void **state) {
  (void)state;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    graph g0, g1;
    machine m0 = {.transformed = false}, m1 = {.transformed = true};
    MlirOperation f0 = parse(&g0, false), f1 = parse(&g1, true);
    fill_inputs(&m0, f0, seed);
    fill_inputs(&m1, f1, seed);
    slot *r0 = run(&m0, f0), *r1 = run(&m1, f1);
    /* x to NCx, the conv weight and gemm weight to Cx, four batchnorm
     * vectors and the bias to Cx: 8 conversions. */
    assert_int_equal(m0.channel_norms, 0);
    assert_int_equal(m1.channel_norms, 8);
    assert_int_equal(r0->t.layout.total_bytes, r1->t.layout.total_bytes);
    assert_memory_equal(r0->t.data, r1->t.data,
                        (size_t)r0->t.layout.total_bytes);
    free_slots(&m0);
    free_slots(&m1);
    done(&g0);
    done(&g1);
  }
}

/* Compact -> aligned -> compact is the identity on every shape the graph
 * converts, and the aligned form zeroes its padding. */
static void channel_norm_round_trips(void **state) {
  (void)state;
  static const int64_t shapes[][4] = {
      {2, 6, 6, 40}, {2, 6, 6, 72}, {3, 3, 72, 40}, {72, 24}, {72}};
  static const int ranks[] = {4, 4, 4, 2, 1};
  for (size_t k = 0; k < sizeof ranks / sizeof ranks[0]; ++k) {
    int rank = ranks[k];
    const int64_t *shape = shapes[k];
    npuc_tx8_layout_mode aligned =
        rank >= 3 && shape[0] > 1 ? NPUC_TX8_NCX : NPUC_TX8_CX;
    npuc_tx8_layout_mode compact = npuc_tx8_compact_of(aligned);
    npuc_tx8_dims dc = npuc_tx8_dims_of_shape(shape, rank, compact);
    npuc_tx8_dims da = npuc_tx8_dims_of_shape(shape, rank, aligned);
    npuc_tx8_layout lc = npuc_tx8_layout_of(dc, NPUC_TX8_F16, compact);
    npuc_tx8_layout la = npuc_tx8_layout_of(da, NPUC_TX8_F16, aligned);
    uint16_t *in = malloc((size_t)lc.total_bytes);
    uint16_t *back = malloc((size_t)lc.total_bytes);
    unsigned char *mid = malloc((size_t)la.total_bytes);
    memset(mid, 0xAB, (size_t)la.total_bytes);
    for (int64_t i = 0; i < lc.total_bytes / 2; ++i)
      in[i] = (uint16_t)(0x3C00 + i % 0x50); /* no byte is 0xAB */
    npuc_tx8_tsr tin = npuc_tx8_tsr_make(in, dc, NPUC_TX8_F16, compact);
    npuc_tx8_tsr tmid = npuc_tx8_tsr_make(mid, da, NPUC_TX8_F16, aligned);
    npuc_tx8_tsr tback = npuc_tx8_tsr_make(back, dc, NPUC_TX8_F16, compact);
    op_channel_norm(&tmid, &tin);
    op_channel_norm(&tback, &tmid);
    assert_memory_equal(in, back, (size_t)lc.total_bytes);
    /* Every aligned byte was written: an element or zeroed padding. */
    int64_t untouched = 0;
    for (int64_t i = 0; i < la.total_bytes; ++i)
      untouched += mid[i] == 0xAB;
    assert_int_equal(untouched, 0);
    free(in);
    free(back);
    free(mid);
  }
}

int main(void) {
  npuc_register_passes();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(same_bits_before_and_after_layouts),
      cmocka_unit_test(channel_norm_round_trips),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
