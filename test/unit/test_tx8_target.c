/* The TX8 compiler-side data: the target description (built-in, the
 * shipped YAML, overrides, every error), the op library's queryOpAttr
 * metadata read from the tx8be table, and the shape/layout inference
 * rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "npuc/OpTable.h"
#include "npuc/TX8.h"

#include <libgen.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  int errors;
  char last[512];
  int line;
} collected;

static void collect(void *user, npuc_severity sev, const char *file, int line,
                    int col, const char *msg) {
  collected *c = user;
  (void)file;
  (void)col;
  if (sev == NPUC_SEV_ERROR)
    c->errors++;
  snprintf(c->last, sizeof c->last, "%s", msg);
  c->line = line;
}

/* ======================================================================
 * Target description
 * ====================================================================== */

/* Field by field: a difference names the field. */
static void assert_same_target(const npuc_tx8_target *a,
                               const npuc_tx8_target *b) {
  assert_int_equal(a->chips, b->chips);
  assert_int_equal(a->tiles_x, b->tiles_x);
  assert_int_equal(a->tiles_y, b->tiles_y);
  assert_int_equal(a->spm_bytes, b->spm_bytes);
  assert_int_equal(a->ddr_bytes, b->ddr_bytes);
  assert_int_equal(a->ddr_bank_bytes, b->ddr_bank_bytes);
  assert_true(a->ddr_gbytes_per_s == b->ddr_gbytes_per_s);
  assert_true(a->clock_ghz == b->clock_ghz);
  assert_int_equal(a->ne_m, b->ne_m);
  assert_int_equal(a->ne_k, b->ne_k);
  assert_int_equal(a->ne_n, b->ne_n);
  assert_true(a->ne_tflops_int8 == b->ne_tflops_int8);
  assert_true(a->ne_tflops_fp16 == b->ne_tflops_fp16);
  assert_true(a->ne_tflops_bf16 == b->ne_tflops_bf16);
  assert_true(a->ne_tflops_fp32 == b->ne_tflops_fp32);
  assert_int_equal(a->ct_bytes_per_cycle, b->ct_bytes_per_cycle);
  assert_int_equal(a->tdma_bytes_per_cycle, b->tdma_bytes_per_cycle);
  assert_int_equal(a->op_overhead_cycles, b->op_overhead_cycles);
  assert_int_equal(a->noc_link_bytes_per_cycle, b->noc_link_bytes_per_cycle);
  assert_int_equal(a->multi_buf, b->multi_buf);
  assert_int_equal(a->noc_hop_cycles, b->noc_hop_cycles);
}

/* The seed's figures, as the built-in description states them. */
static void builtin_target(void **state) {
  (void)state;
  npuc_tx8_target t = npuc_tx8_target_builtin();
  assert_int_equal(t.tiles_x * t.tiles_y, 16);
  assert_int_equal(t.ddr_bank_bytes, 4096);
  assert_true(t.ddr_gbytes_per_s == 200.0);
  assert_true(t.ne_tflops_bf16 == 128.0);
  assert_true(t.ne_tflops_fp32 == 21.0);
  assert_true(t.ne_tflops_int8 == 256.0);
  assert_int_equal(t.ne_m * 100 + t.ne_k * 10 + t.ne_n, 8 * 100 + 16 * 10 + 8);
  assert_int_equal(t.ddr_bytes, 64ll << 30);
}

/* lib/TX8/tx8_target.yaml sets every field, to the built-in value. */
static void shipped_yaml_is_the_builtin(void **state) {
  (void)state;
  char here[4096], path[4200];
  snprintf(here, sizeof here, "%s", __FILE__);
  snprintf(path, sizeof path, "%s/../lib/TX8/tx8_target.yaml",
           dirname(dirname(here)));
  npuc_tx8_target t;
  memset(&t, 0, sizeof t);
  collected c = {0};
  npuc_diag_sink sink = {collect, &c};
  assert_true(npuc_tx8_target_load_file(&t, path, &sink));
  assert_int_equal(c.errors, 0);
  npuc_tx8_target builtin = npuc_tx8_target_builtin();
  assert_same_target(&t, &builtin);
}

static void yaml_overrides(void **state) {
  (void)state;
  npuc_tx8_target t = npuc_tx8_target_builtin();
  const char *y = "chips: 2\n"
                  "tile: {clock_ghz: 1.5}\n"
                  "chip:\n  tiles: {x: 2}\n  ddr_bank_bytes: 0x2000\n";
  assert_true(npuc_tx8_target_load_yaml(&t, y, strlen(y), "o.yaml", NULL));
  assert_int_equal(t.chips, 2);
  assert_true(t.clock_ghz == 1.5);
  assert_int_equal(t.tiles_x, 2);
  assert_int_equal(t.tiles_y, 4);
  assert_int_equal(t.ddr_bank_bytes, 8192);
  assert_int_equal(t.spm_bytes, 3 << 20);
}

static void expect_target_error(const char *yaml, const char *fragment,
                                int line) {
  npuc_tx8_target t = npuc_tx8_target_builtin();
  collected c = {0};
  npuc_diag_sink sink = {collect, &c};
  assert_false(
      npuc_tx8_target_load_yaml(&t, yaml, strlen(yaml), "e.yaml", &sink));
  if (!strstr(c.last, fragment))
    fail_msg("expected '%s' in '%s'", fragment, c.last);
  assert_int_equal(c.line, line);
  npuc_tx8_target builtin = npuc_tx8_target_builtin();
  assert_same_target(&t, &builtin); /* unchanged on error */
}

static void target_errors(void **state) {
  (void)state;
  expect_target_error("chips: 2\nchip:\n  tile: {x: 2}\n",
                      "unknown TX8 target key 'chip.tile.x'", 3);
  expect_target_error("chip: {tiles: {x: 0}}\n",
                      "'chip.tiles.x' must be a positive integer, not '0'", 1);
  expect_target_error("tile:\n  clock_ghz: fast\n",
                      "'tile.clock_ghz' must be a positive number, not 'fast'",
                      2);
  expect_target_error("chips: 3000000000\n", "must be a positive integer", 1);
  expect_target_error("chips: [1]\n",
                      "'chips' must be a positive integer, not '(a list)'", 1);
  expect_target_error("- 1\n", "must be a mapping", 1);
  expect_target_error("chips: [1\n", "invalid YAML", 2);
  collected c = {0};
  npuc_diag_sink sink = {collect, &c};
  npuc_tx8_target t = npuc_tx8_target_builtin();
  assert_false(npuc_tx8_target_load_file(&t, "/nonexistent/t.yaml", &sink));
  assert_non_null(strstr(c.last, "cannot read"));
}

/* ======================================================================
 * Op library (queryOpAttr)
 * ====================================================================== */

/* The seed's BatchNorm_InferenceOp::queryOpAttr: NPU_ALIGN, preset to the
 * NPU, Tensor for a batch of 1 and NTensor otherwise. */
static void batchnorm_attr(void **state) {
  (void)state;
  npuc_tx8_op_attr a = npuc_tx8_query_op_attr("tx8be.batchnorm_inference");
  assert_true(a.known);
  assert_int_equal(a.align_mode, NPUC_TX8_ALIGN_ALIGNED);
  assert_true(a.need_preset_to_npu);
  assert_int_equal(a.engine, NPUC_TX8_ENGINE_CT);
  assert_int_equal(npuc_tx8_default_layout_of(&a, 1), NPUC_TX8_TENSOR);
  assert_int_equal(npuc_tx8_default_layout_of(&a, 4), NPUC_TX8_NTENSOR);
  assert_int_equal(a.shape_rule, NPUC_TX8_SHAPE_SAME);
  assert_int_equal(a.layout_rule, NPUC_TX8_LAYOUT_SAME);
  /* Keys the table leaves out keep the seed's OpAttr defaults. */
  assert_false(a.mem_inplace);
  assert_true(a.parallel);
  assert_true(a.align_cx);
  assert_true(a.need_load == ~(uint64_t)0);
}

static void op_attrs_from_classes(void **state) {
  (void)state;
  npuc_tx8_op_attr add = npuc_tx8_query_op_attr("tx8be.add");
  assert_true(add.known);
  assert_int_equal(add.align_mode, NPUC_TX8_ALIGN_BOTH);
  assert_true(add.mem_inplace);
  assert_int_equal(add.shape_rule, NPUC_TX8_SHAPE_BROADCAST);
  npuc_tx8_op_attr gemm = npuc_tx8_query_op_attr("tx8be.gemm");
  assert_int_equal(gemm.engine, NPUC_TX8_ENGINE_NE);
  assert_int_equal(gemm.shape_rule, NPUC_TX8_SHAPE_GEMM);
  assert_int_equal(gemm.layout_rule, NPUC_TX8_LAYOUT_SOURCE);
  npuc_tx8_op_attr ret = npuc_tx8_query_op_attr("tx8be.subgraph_return");
  assert_int_equal(ret.engine, NPUC_TX8_ENGINE_NONE);
  assert_true(ret.need_load == 0 && ret.need_store == 0);
  assert_false(ret.parallel);
  assert_int_equal(npuc_tx8_query_op_attr("tx8be.reshape").layout_rule,
                   NPUC_TX8_LAYOUT_STOP);
  assert_int_equal(npuc_tx8_query_op_attr("tx8be.store_var").engine,
                   NPUC_TX8_ENGINE_STORE);
  npuc_tx8_op_attr none = npuc_tx8_query_op_attr("tx8be.nope");
  assert_false(none.known);
  assert_int_equal(none.align_mode, NPUC_TX8_ALIGN_UNKNOWN);
}

/* Every op the tx8be table declares has library metadata, and nothing
 * else does. */
static void every_tx8be_op_has_metadata(void **state) {
  (void)state;
  const npuc_op_registry *reg = npuc_builtin_op_registry(NULL);
  assert_non_null(reg);
  size_t ops = 0;
  for (size_t d = 0; d < npuc_op_registry_num_dialects(reg); ++d) {
    const npuc_dialect_def *dial = npuc_op_registry_dialect(reg, d);
    if (strcmp(dial->name, "tx8be") != 0)
      continue;
    for (size_t i = 0; i < dial->num_ops; ++i) {
      if (!npuc_tx8_query_op_attr(dial->ops[i].name).known)
        fail_msg("no library entry for %s", dial->ops[i].name);
      ++ops;
    }
  }
  assert_true(ops >= 30);
}

static npuc_tx8_op_library *load_lib(const char *yaml, collected *c) {
  memset(c, 0, sizeof *c);
  npuc_diag_sink sink = {collect, c};
  return npuc_tx8_op_library_load(yaml, strlen(yaml), "l.yaml", &sink);
}

/* A class's keys apply unless the class below it or the op sets them. */
static void library_merges_class_chains(void **state) {
  (void)state;
  const char *y =
      "classes:\n"
      "  base: {library: {engine: ne, parallel: false}}\n"
      "  mid: {class: base, library: {engine: tdma}, infer: {shape: conv}}\n"
      "ops:\n"
      "  - names: [t.a, t.b]\n"
      "    class: mid\n"
      "    library: {need_store: 0x5}\n"
      "  - name: t.c\n";
  collected c;
  npuc_tx8_op_library *lib = load_lib(y, &c);
  assert_non_null(lib);
  assert_int_equal(npuc_tx8_op_library_size(lib), 3);
  npuc_tx8_op_attr b = npuc_tx8_op_library_query(lib, "t.b");
  assert_int_equal(b.engine, NPUC_TX8_ENGINE_TDMA);
  assert_false(b.parallel);
  assert_int_equal(b.need_store, 5);
  assert_int_equal(b.shape_rule, NPUC_TX8_SHAPE_CONV);
  npuc_tx8_op_attr cc = npuc_tx8_op_library_query(lib, "t.c");
  assert_true(cc.known);
  assert_int_equal(cc.engine, NPUC_TX8_ENGINE_CT);
  npuc_tx8_op_library_destroy(lib);
}

static void expect_library_error(const char *yaml, const char *fragment,
                                 int line) {
  collected c;
  npuc_tx8_op_library *lib = load_lib(yaml, &c);
  assert_null(lib);
  if (!strstr(c.last, fragment))
    fail_msg("expected '%s' in '%s'", fragment, c.last);
  assert_int_equal(c.line, line);
}

static void library_errors(void **state) {
  (void)state;
  expect_library_error("ops:\n  - name: t.a\n    library: {engin: ne}\n",
                       "unknown library key 'engin'", 3);
  expect_library_error("ops:\n  - name: t.a\n    library: {engine: gpu}\n",
                       "'gpu' is not a valid value of 'engine'", 3);
  expect_library_error(
      "ops:\n  - name: t.a\n    library:\n      need_load: -1\n",
      "'need_load' must be a bit mask, not '-1'", 4);
  expect_library_error("ops:\n  - name: t.a\n    infer: {shape: guess}\n",
                       "'guess' is not a valid value of 'shape'", 3);
  expect_library_error("ops:\n  - name: t.a\n    infer: {layot: same}\n",
                       "unknown infer key 'layot'", 3);
  expect_library_error("ops: [\n", "invalid YAML", 2);
}

/* ======================================================================
 * Structured attributes
 * ====================================================================== */

/* As test/lit/Dialect/tx8be/roundtrip.mlir writes them: read, printed
 * back byte for byte. */
static void attrs_round_trip(void **state) {
  (void)state;
  const char *par =
      "#tx8be.parallel_attr<parallel = dp_tp, is_dp_inner = false, "
      "dp_dim_x = 2, dp_dim_y = 1, dp_dim_z = 1, tp_dim_x = 2, tp_dim_y = 4, "
      "tp_dim_z = 1, sharding_is_given = true, "
      "shape_spatial_sharding = [2, 2, 4, 1]>";
  const char *dev =
      "#tx8be.dev_attr<imm_size = 0, mem_layout = NCx, multi_buf_en = true, "
      "multi_buf_num = 2, out_shape_buf_idx = [], temporal_mem_slice = [1, 4, "
      "8, 131], source_type = 0, imm_addr = 0, mem_addr = [0, 34816]>";
  const char *region = "#tx8be.region_attr<tile_dx = 4, tile_dy = 4>";
  char err[160], out[512];
  npuc_tx8_parallel_attr p;
  assert_true(
      npuc_tx8_parse_parallel_attr(par, strlen(par), &p, err, sizeof err));
  assert_int_equal(p.parallel, NPUC_TX8_PAR_DP_TP);
  assert_int_equal(p.tp_dim[1], 4);
  assert_int_equal(p.shape_spatial_sharding.len, 4);
  assert_int_equal(npuc_tx8_print_parallel_attr(&p, out, sizeof out),
                   strlen(par));
  assert_string_equal(out, par);
  npuc_tx8_dev_attr d;
  assert_true(npuc_tx8_parse_dev_attr(dev, strlen(dev), &d, err, sizeof err));
  assert_int_equal(d.mem_layout, NPUC_TX8_NCX);
  assert_int_equal(d.out_shape_buf_idx.len, 0);
  assert_int_equal(d.mem_addr.v[1], 34816);
  npuc_tx8_print_dev_attr(&d, out, sizeof out);
  assert_string_equal(out, dev);
  npuc_tx8_region_attr r;
  assert_true(
      npuc_tx8_parse_region_attr(region, strlen(region), &r, err, sizeof err));
  npuc_tx8_print_region_attr(&r, out, sizeof out);
  assert_string_equal(out, region);
  /* Fields in any order and the bare <...> body read the same. */
  const char *body = "<tile_dy = -1, tile_dx = 0x10>";
  assert_true(
      npuc_tx8_parse_region_attr(body, strlen(body), &r, err, sizeof err));
  assert_int_equal(r.tile_dx, 16);
  assert_int_equal(r.tile_dy, -1);
  /* Printing into a short buffer truncates and reports the full length. */
  char small[8];
  assert_int_equal(npuc_tx8_print_region_attr(&r, small, sizeof small),
                   strlen("#tx8be.region_attr<tile_dx = 16, tile_dy = -1>"));
  assert_string_equal(small, "#tx8be.");
}

static void expect_attr_error(const char *text, const char *message) {
  char err[160];
  npuc_tx8_dev_attr d;
  assert_false(
      npuc_tx8_parse_dev_attr(text, strlen(text), &d, err, sizeof err));
  assert_string_equal(err, message);
}

static void attr_errors(void **state) {
  (void)state;
  expect_attr_error("#tx8be.parallel_attr<parallel = dp>",
                    "#tx8be.dev_attr: not this attribute");
  expect_attr_error("<imm_size = 0>",
                    "#tx8be.dev_attr: missing field 'mem_layout'");
  expect_attr_error("<imm_size = 0, imm_size = 1>",
                    "#tx8be.dev_attr: field 'imm_size' given twice");
  expect_attr_error("<imm_sz = 0>", "#tx8be.dev_attr: unknown field 'imm_sz'");
  expect_attr_error("<mem_layout = NCHW>",
                    "#tx8be.dev_attr: malformed value of 'mem_layout'");
  expect_attr_error("<imm_size = -1>",
                    "#tx8be.dev_attr: malformed value of 'imm_size'");
  expect_attr_error("<multi_buf_num = 4294967296>",
                    "#tx8be.dev_attr: malformed value of 'multi_buf_num'");
  expect_attr_error("<mem_addr = [1, 2, 3, 4, 5, 6, 7, 8, 9]>",
                    "#tx8be.dev_attr: malformed value of 'mem_addr'");
  expect_attr_error("<multi_buf_en = yes>",
                    "#tx8be.dev_attr: malformed value of 'multi_buf_en'");
  expect_attr_error("<imm_size 0>",
                    "#tx8be.dev_attr: expected '=' after 'imm_size'");
  expect_attr_error("<imm_size = 0; x>",
                    "#tx8be.dev_attr: expected ',' or '>' after a field");
  expect_attr_error("imm_size = 0", "#tx8be.dev_attr: expected '<'");
}

/* ======================================================================
 * Inference
 * ====================================================================== */

static npuc_tx8_shape shape(int rank, ...) {
  npuc_tx8_shape s = {rank, {0}};
  va_list ap;
  va_start(ap, rank);
  for (int i = 0; i < rank; ++i)
    s.dims[i] = va_arg(ap, int64_t);
  va_end(ap);
  return s;
}

static void assert_shape(const npuc_tx8_shape *s, int rank,
                         const int64_t *dims) {
  assert_int_equal(s->rank, rank);
  for (int i = 0; i < rank; ++i)
    assert_int_equal(s->dims[i], dims[i]);
}

static void infer_broadcast_and_gemm(void **state) {
  (void)state;
  char err[128];
  npuc_tx8_shape r;
  npuc_tx8_shape bn[] = {
      shape(4, (int64_t)2, (int64_t)4, (int64_t)8, (int64_t)131),
      shape(1, (int64_t)131)};
  assert_true(npuc_tx8_infer_shape(NPUC_TX8_SHAPE_BROADCAST, bn, 2, NULL, &r,
                                   err, sizeof err));
  assert_shape(&r, 4, (int64_t[]){2, 4, 8, 131});
  npuc_tx8_shape ones[] = {shape(2, (int64_t)4, (int64_t)1),
                           shape(2, (int64_t)1, (int64_t)5)};
  assert_true(npuc_tx8_infer_shape(NPUC_TX8_SHAPE_BROADCAST, ones, 2, NULL, &r,
                                   err, sizeof err));
  assert_shape(&r, 2, (int64_t[]){4, 5});
  npuc_tx8_shape bad[] = {shape(2, (int64_t)4, (int64_t)3),
                          shape(1, (int64_t)5)};
  assert_false(npuc_tx8_infer_shape(NPUC_TX8_SHAPE_BROADCAST, bad, 2, NULL, &r,
                                    err, sizeof err));
  assert_string_equal(err, "dimension 1: 3 and 5 do not broadcast");
  npuc_tx8_shape mm[] = {shape(3, (int64_t)2, (int64_t)64, (int64_t)32),
                         shape(2, (int64_t)16, (int64_t)32)};
  npuc_tx8_infer_attrs tb = {.transpose_b = true};
  assert_true(npuc_tx8_infer_shape(NPUC_TX8_SHAPE_GEMM, mm, 2, &tb, &r, err,
                                   sizeof err));
  assert_shape(&r, 3, (int64_t[]){2, 64, 16});
  assert_false(npuc_tx8_infer_shape(NPUC_TX8_SHAPE_GEMM, mm, 2, NULL, &r, err,
                                    sizeof err));
  assert_string_equal(err, "gemm contracts 32 with 16");
}

/* The round-trip test's convs: 16x16 by 3x3, padded 1 stride 1, and
 * unpadded stride 2 (7x7). */
static void infer_conv_shapes(void **state) {
  (void)state;
  char err[128];
  npuc_tx8_shape r;
  npuc_tx8_shape ops[] = {
      shape(4, (int64_t)1, (int64_t)16, (int64_t)16, (int64_t)8),
      shape(4, (int64_t)3, (int64_t)3, (int64_t)16, (int64_t)8)};
  int64_t s1[] = {1, 1}, s2[] = {2, 2}, p1[] = {1, 1, 1, 1},
          p0[] = {0, 0, 0, 0};
  npuc_tx8_infer_attrs a = {.strides = s1, .pads = p1, .dilations = s1};
  assert_true(npuc_tx8_infer_shape(NPUC_TX8_SHAPE_CONV, ops, 2, &a, &r, err,
                                   sizeof err));
  assert_shape(&r, 4, (int64_t[]){1, 16, 16, 16});
  a.strides = s2;
  a.pads = p0;
  assert_true(npuc_tx8_infer_shape(NPUC_TX8_SHAPE_CONV, ops, 2, &a, &r, err,
                                   sizeof err));
  assert_shape(&r, 4, (int64_t[]){1, 7, 7, 16});
  /* Two groups of 8 input channels take weights of 8 per group: 16 in. */
  ops[0].dims[3] = 16;
  a.group = 2;
  assert_true(npuc_tx8_infer_shape(NPUC_TX8_SHAPE_CONV, ops, 2, &a, &r, err,
                                   sizeof err));
  a.group = 3;
  assert_false(npuc_tx8_infer_shape(NPUC_TX8_SHAPE_CONV, ops, 2, &a, &r, err,
                                    sizeof err));
  assert_non_null(strstr(err, "in 3 groups"));
  /* Pads or a dilation past int64 (issue 15): an error naming them, not
   * a signed overflow. */
  a.group = 2;
  int64_t huge_pads[] = {INT64_MAX, 1, 0, 0}, huge_dil[] = {1, INT64_MAX};
  a.pads = huge_pads;
  assert_false(npuc_tx8_infer_shape(NPUC_TX8_SHAPE_CONV, ops, 2, &a, &r, err,
                                    sizeof err));
  assert_non_null(strstr(err, "dimension 1 overflows int64: pads "
                              "9223372036854775807 and 1"));
  a.pads = p0;
  a.dilations = huge_dil;
  assert_false(npuc_tx8_infer_shape(NPUC_TX8_SHAPE_CONV, ops, 2, &a, &r, err,
                                    sizeof err));
  assert_non_null(strstr(err, "dimension 2 overflows int64"));
  /* Weights' channels times groups past int64: not the input's channels. */
  a.dilations = s1;
  a.group = INT64_MAX / 4;
  assert_false(npuc_tx8_infer_shape(NPUC_TX8_SHAPE_CONV, ops, 2, &a, &r, err,
                                    sizeof err));
  assert_non_null(strstr(err, "cannot take weights"));
}

/* The seed's example: 3x4x5x6 NCHW through transpose (0, 2, 3, 1) is
 * 3x5x6x4 NHWC. */
static void infer_transpose_and_layouts(void **state) {
  (void)state;
  char err[128], layout[32];
  npuc_tx8_shape r;
  npuc_tx8_shape in = shape(4, (int64_t)3, (int64_t)4, (int64_t)5, (int64_t)6);
  int64_t perm[] = {0, 2, 3, 1};
  npuc_tx8_infer_attrs a = {.permutation = perm};
  assert_true(npuc_tx8_infer_shape(NPUC_TX8_SHAPE_TRANSPOSE, &in, 1, &a, &r,
                                   err, sizeof err));
  assert_shape(&r, 4, (int64_t[]){3, 5, 6, 4});
  assert_true(npuc_tx8_infer_layout(NPUC_TX8_LAYOUT_PERMUTE, "NCHW", perm, 4,
                                    layout, sizeof layout));
  assert_string_equal(layout, "NHWC");
  assert_false(npuc_tx8_infer_layout(NPUC_TX8_LAYOUT_PERMUTE, "Tensor", perm, 4,
                                     layout, sizeof layout));
  int64_t dup[] = {0, 0, 1, 2};
  a.permutation = dup;
  assert_false(npuc_tx8_infer_shape(NPUC_TX8_SHAPE_TRANSPOSE, &in, 1, &a, &r,
                                    err, sizeof err));
  assert_true(npuc_tx8_infer_layout(NPUC_TX8_LAYOUT_SAME, "NTensor", NULL, 0,
                                    layout, sizeof layout));
  assert_string_equal(layout, "NTensor");
  assert_true(npuc_tx8_infer_layout(NPUC_TX8_LAYOUT_SOURCE,
                                    "Tensor-Tensor-Tensor", NULL, 0, layout,
                                    sizeof layout));
  assert_string_equal(layout, "Tensor");
  assert_false(npuc_tx8_infer_layout(NPUC_TX8_LAYOUT_STOP, "NHWC", NULL, 0,
                                     layout, sizeof layout));
  assert_false(npuc_tx8_infer_shape(NPUC_TX8_SHAPE_GIVEN, &in, 1, NULL, &r, err,
                                    sizeof err));
  assert_string_equal(err, "the op states its result type");
}

/* Backward inference (the layout an operand has, given the op's), the
 * components of gemm/conv layout strings and their memory layouts. */
static void infer_operand_layouts_and_mem_layouts(void **state) {
  (void)state;
  char layout[32];
  int64_t perm[] = {0, 2, 3, 1};
  /* Backward through the seed's transpose: NHWC out means NCHW in. */
  assert_true(npuc_tx8_infer_operand_layout(NPUC_TX8_LAYOUT_PERMUTE, "NHWC", 0,
                                            4, 4, perm, layout, sizeof layout));
  assert_string_equal(layout, "NCHW");
  assert_true(npuc_tx8_infer_operand_layout(NPUC_TX8_LAYOUT_SOURCE,
                                            "NHWC-HWOI-NHWC", 1, 4, 4, NULL,
                                            layout, sizeof layout));
  assert_string_equal(layout, "HWOI");
  /* The bias is not named; a rank-1 operand of a SAME op broadcasts. */
  assert_false(npuc_tx8_infer_operand_layout(NPUC_TX8_LAYOUT_SOURCE,
                                             "NHWC-HWOI-NHWC", 2, 1, 4, NULL,
                                             layout, sizeof layout));
  assert_false(npuc_tx8_infer_operand_layout(NPUC_TX8_LAYOUT_SAME, "NHWC", 1, 1,
                                             4, NULL, layout, sizeof layout));
  assert_true(npuc_tx8_infer_operand_layout(NPUC_TX8_LAYOUT_SAME, "NHWC", 1, 4,
                                            4, NULL, layout, sizeof layout));
  assert_false(npuc_tx8_infer_operand_layout(
      NPUC_TX8_LAYOUT_STOP, "Tensor", 0, 2, 1, NULL, layout, sizeof layout));
  assert_int_equal(npuc_tx8_layout_num_components("Tensor-Tensor-Tensor"), 3);
  assert_true(
      npuc_tx8_layout_component("NHWC-HWOI-NHWC", 2, layout, sizeof layout));
  assert_string_equal(layout, "NHWC");
  assert_false(npuc_tx8_layout_component("NHWC", 1, layout, sizeof layout));
  assert_true(npuc_tx8_layout_name_valid("NTensor", 2));
  assert_true(npuc_tx8_layout_name_valid("HWOI", 4));
  assert_false(npuc_tx8_layout_name_valid("NHW", 4));
  assert_false(npuc_tx8_layout_name_valid("NHHC", 4));
  assert_false(npuc_tx8_layout_name_valid("Cx", 2));
  assert_int_equal(npuc_tx8_mem_layout_of("NHWC", true), NPUC_TX8_NCX);
  assert_int_equal(npuc_tx8_mem_layout_of("HWOI", true), NPUC_TX8_CX);
  assert_int_equal(npuc_tx8_mem_layout_of("NTensor", false), NPUC_TX8_NTENSOR);
  assert_int_equal(npuc_tx8_mem_layout_of("Tensor", false), NPUC_TX8_TENSOR);
  npuc_tx8_layout_mode m;
  assert_true(npuc_tx8_layout_mode_parse("NCx", 3, &m));
  assert_int_equal(m, NPUC_TX8_NCX);
  assert_false(npuc_tx8_layout_mode_parse("NCxx", 4, &m));
  int64_t batched[] = {2, 4, 40}, single[] = {1, 4, 40};
  assert_true(
      npuc_tx8_layouts_coincide(NPUC_TX8_TENSOR, NPUC_TX8_NTENSOR, batched, 3));
  assert_false(
      npuc_tx8_layouts_coincide(NPUC_TX8_CX, NPUC_TX8_NCX, batched, 3));
  assert_true(npuc_tx8_layouts_coincide(NPUC_TX8_CX, NPUC_TX8_NCX, single, 3));
  assert_false(
      npuc_tx8_layouts_coincide(NPUC_TX8_TENSOR, NPUC_TX8_CX, single, 3));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(builtin_target),
      cmocka_unit_test(shipped_yaml_is_the_builtin),
      cmocka_unit_test(yaml_overrides),
      cmocka_unit_test(target_errors),
      cmocka_unit_test(batchnorm_attr),
      cmocka_unit_test(op_attrs_from_classes),
      cmocka_unit_test(every_tx8be_op_has_metadata),
      cmocka_unit_test(library_merges_class_chains),
      cmocka_unit_test(library_errors),
      cmocka_unit_test(attrs_round_trip),
      cmocka_unit_test(attr_errors),
      cmocka_unit_test(infer_broadcast_and_gemm),
      cmocka_unit_test(infer_conv_shapes),
      cmocka_unit_test(infer_transpose_and_layouts),
      cmocka_unit_test(infer_operand_layouts_and_mem_layouts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
