/* tx8-const-norm{aligned-data=true} lays a constant out at compile time:
 * the container entry it writes must be, byte for byte, what
 * op_channel_norm of the C model (libnpuc_tx8_rt) produces from the
 * original data at run time — both directions, every dtype, C on both
 * sides of the block width, N > 1, and random shapes. */
#include "npuc/Passes.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"
#include "npuc/Tx8Runtime.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/IR.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <cmocka.h>

typedef struct {
  npuc_tx8_dtype dt;
  int rank;
  int64_t shape[4];
  npuc_tx8_layout_mode mode; /* the aligned layout */
} config;

static const char *elem_name(npuc_tx8_dtype dt) {
  switch (dt) {
  case NPUC_TX8_F16: return "f16";
  case NPUC_TX8_BF16: return "bf16";
  case NPUC_TX8_F32: return "f32";
  case NPUC_TX8_I8: return "i8";
  }
  return "?";
}

static void append(char **buf, size_t *len, size_t *cap, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int n = vsnprintf(*buf + *len, *cap - *len, fmt, ap);
    va_end(ap);
    if ((size_t)n < *cap - *len) {
      *len += (size_t)n;
      return;
    }
    *cap = 2 * *cap + (size_t)n;
    *buf = realloc(*buf, *cap);
    assert_non_null(*buf);
  }
}

static void type_text(const config *c, int64_t flat, char *out, size_t cap) {
  int at = snprintf(out, cap, "tensor<");
  if (flat > 0)
    at += snprintf(out + at, cap - (size_t)at, "%lldx", (long long)flat);
  else
    for (int i = 0; i < c->rank; i++)
      at +=
          snprintf(out + at, cap - (size_t)at, "%lldx", (long long)c->shape[i]);
  snprintf(out + at, cap - (size_t)at, "%s>", elem_name(c->dt));
}

/* A module whose entry 0 holds `bytes` in layout `from`, read by a
 * load_const and converted by a channel_norm to `to` (generic form). */
static char *module_text(const config *c, const unsigned char *bytes,
                         int64_t nbytes, npuc_tx8_layout_mode from,
                         npuc_tx8_layout_mode to) {
  char logical[128], entry[128];
  type_text(c, 0, logical, sizeof logical);
  int64_t eb = npuc_tx8_dtype_bytes(c->dt);
  type_text(c, npuc_tx8_is_aligned(from) ? nbytes / eb : 0, entry,
            sizeof entry);
  size_t len = 0, cap = 1024;
  char *buf = malloc(cap);
  assert_non_null(buf);
  append(&buf, &len, &cap,
         "module attributes {tx8be.const_container = [dense<\"0x");
  for (int64_t i = 0; i < nbytes; i++)
    append(&buf, &len, &cap, "%02X", bytes[i]);
  append(&buf, &len, &cap, "\"> : %s]} {\n", entry);
  append(&buf, &len, &cap, "func.func @main() -> %s {\n", logical);
  append(&buf, &len, &cap,
         "%%c = \"tx8be.load_const\"() {const_map_id = 0 : i32, dev_info = "
         "#tx8be.dev_attr<imm_size = 0, mem_layout = %s, multi_buf_en = false, "
         "multi_buf_num = 1, out_shape_buf_idx = [], temporal_mem_slice = [], "
         "source_type = 0, imm_addr = 0, mem_addr = []>} : () -> %s\n",
         npuc_tx8_layout_name(from), logical);
  append(&buf, &len, &cap,
         "%%n = \"tx8be.channel_norm\"(%%c) {layout = #tx8be.layout_mode<%s>} "
         ": (%s) -> %s\n",
         npuc_tx8_layout_name(to), logical, logical);
  append(&buf, &len, &cap, "\"func.return\"(%%n) : (%s) -> ()\n}\n}\n",
         logical);
  return buf;
}

static void fill_random(unsigned char *p, int64_t n, npuc_tx8_dtype dt) {
  for (int64_t i = 0; i < n; i++)
    p[i] = (unsigned char)(rand() & 0xff);
  /* Keep floats finite so the printed module reads back the same bits. */
  if (dt == NPUC_TX8_F32)
    for (int64_t i = 3; i < n; i += 4)
      p[i] &= 0x3f;
  if (dt == NPUC_TX8_F16 || dt == NPUC_TX8_BF16)
    for (int64_t i = 1; i < n; i += 2)
      p[i] &= 0x3f;
}

/* Runs tx8-const-norm on the module and returns the bytes of the entry
 * the load_const reads afterwards (malloc'd, *len bytes; `eb` bytes an
 * element). */
static unsigned char *entry_after_pass(const char *text, int64_t eb,
                                       int64_t *len) {
  MlirContext ctx = npuc_context_create();
  MlirOperation module =
      mlirOperationCreateParse(ctx, mlirStringRefCreateFromCString(text),
                               mlirStringRefCreateFromCString("test.mlir"));
  assert_false(mlirOperationIsNull(module));
  npuc_pass_context pctx = {NULL, ctx, NULL};
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  assert_true(npuc_pipeline_parse(
      pm, "builtin.module(tx8-const-norm{aligned-data=true})", &pctx, NULL));
  assert_true(mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, module)));
  mlirPassManagerDestroy(pm);
  /* The channel_norm is gone; the load_const feeds the return. */
  MlirOperation func = mlirBlockGetFirstOperation(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)));
  MlirOperation load = mlirBlockGetFirstOperation(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)));
  MlirOperation ret = mlirOperationGetNextInBlock(load);
  assert_string_equal(mlirIdentifierStr(mlirOperationGetName(ret)).data,
                      "func.return");
  int64_t id = mlirIntegerAttrGetValueInt(mlirOperationGetAttributeByName(
      load, mlirStringRefCreateFromCString("const_map_id")));
  MlirAttribute arr = mlirOperationGetAttributeByName(
      module, mlirStringRefCreateFromCString("tx8be.const_container"));
  assert_int_equal(mlirArrayAttrGetNumElements(arr), 1);
  MlirAttribute entry = mlirArrayAttrGetElement(arr, (intptr_t)id);
  *len = mlirElementsAttrGetNumElements(entry) * eb;
  unsigned char *out = malloc((size_t)*len);
  assert_non_null(out);
  memcpy(out, mlirDenseElementsAttrGetRawData(entry), (size_t)*len);
  mlirOperationDestroy(module);
  npuc_context_destroy(ctx);
  return out;
}

static bool check_one(const config *c) {
  npuc_tx8_layout_mode compact = npuc_tx8_compact_of(c->mode);
  npuc_tx8_dims dims = npuc_tx8_dims_of_shape(c->shape, c->rank, c->mode);
  npuc_tx8_layout cl = npuc_tx8_layout_of(dims, c->dt, compact);
  npuc_tx8_layout al = npuc_tx8_layout_of(dims, c->dt, c->mode);
  unsigned char *orig = malloc((size_t)cl.total_bytes);
  unsigned char *aligned = malloc((size_t)al.total_bytes);
  assert_non_null(orig);
  assert_non_null(aligned);
  fill_random(orig, cl.total_bytes, c->dt);
  /* What the C model's channel_norm gives at run time. */
  npuc_tx8_tsr src = npuc_tx8_tsr_make(orig, dims, c->dt, compact);
  npuc_tx8_tsr dst = npuc_tx8_tsr_make(aligned, dims, c->dt, c->mode);
  op_channel_norm(&dst, &src);

  /* Compact -> aligned at compile time. */
  char *text = module_text(c, orig, cl.total_bytes, compact, c->mode);
  int64_t len;
  unsigned char *got =
      entry_after_pass(text, npuc_tx8_dtype_bytes(c->dt), &len);
  bool ok = len == al.total_bytes && memcmp(got, aligned, (size_t)len) == 0;
  free(text);
  free(got);
  /* And back: the aligned image read as compact is the original. */
  text = module_text(c, aligned, al.total_bytes, c->mode, compact);
  got = entry_after_pass(text, npuc_tx8_dtype_bytes(c->dt), &len);
  ok = ok && len == cl.total_bytes && memcmp(got, orig, (size_t)len) == 0;
  free(text);
  free(got);
  free(orig);
  free(aligned);
  return ok;
}

static void test_fixed_configs(void **state) {
  (void)state;
  static const config cases[] = {
      /* The seed's example: Cx = 2, C0 = 3 -> 4, batch 1 at byte 768. */
      {NPUC_TX8_F16, 4, {2, 1, 2, 131}, NPUC_TX8_NCX},
      {NPUC_TX8_F16, 4, {2, 1, 2, 131}, NPUC_TX8_CX},
      {NPUC_TX8_BF16, 2, {5, 20}, NPUC_TX8_CX},
      {NPUC_TX8_BF16, 2, {3, 32}, NPUC_TX8_NCX},
      {NPUC_TX8_F32, 2, {3, 70}, NPUC_TX8_NCX},
      {NPUC_TX8_F32, 3, {2, 2, 64}, NPUC_TX8_NCX},
      {NPUC_TX8_F32, 1, {33}, NPUC_TX8_CX},
      {NPUC_TX8_I8, 3, {2, 3, 130}, NPUC_TX8_NCX},
      {NPUC_TX8_I8, 1, {7}, NPUC_TX8_CX},
      {NPUC_TX8_I8, 2, {4, 65}, NPUC_TX8_CX},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    if (!check_one(&cases[i]))
      fail_msg("case %zu (%s, %s) differs from op_channel_norm", i,
               elem_name(cases[i].dt), npuc_tx8_layout_name(cases[i].mode));
}

static void test_random_configs(void **state) {
  (void)state;
  srand(6);
  for (int i = 0; i < 40; i++) {
    config c;
    c.dt = (npuc_tx8_dtype)(rand() % 4);
    c.rank = 1 + rand() % 4;
    for (int d = 0; d < c.rank; d++)
      c.shape[d] = 1 + rand() % 3;
    c.shape[c.rank - 1] = 1 + rand() % 200;
    c.mode = rand() % 2 ? NPUC_TX8_NCX : NPUC_TX8_CX;
    if (!check_one(&c))
      fail_msg("random case %d (%s, rank %d, C %lld, %s) differs", i,
               elem_name(c.dt), c.rank, (long long)c.shape[c.rank - 1],
               npuc_tx8_layout_name(c.mode));
  }
}

int main(void) {
  npuc_register_passes();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fixed_configs),
      cmocka_unit_test(test_random_configs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
