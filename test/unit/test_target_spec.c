/* Reading DLTI target-spec entries from parsed modules, in both the legacy
 * (#hacc.target_device_spec) and the MLIR 22 form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "npuc/IR.h"
#include "npuc/TargetSpec.h"

#include <string.h>

static const char *kLegacy =
    "module attributes {dlti.target_system_spec = #dlti.target_system_spec<"
    "\"NPU\" : #hacc.target_device_spec<#dlti.dl_entry<\"CUBE_CORE_COUNT\", "
    "20 : i32>, #dlti.dl_entry<\"VECTOR_CORE_COUNT\", 40 : i32>>>} {\n"
    "  func.func @f() {\n    return\n  }\n}\n";

static const char *kModern =
    "module attributes {dlti.target_system_spec = #dlti.target_system_spec<"
    "\"CPU\" = #dlti.target_device_spec<\"VECTOR_CORE_COUNT\" = 4 : i32>, "
    "\"NPU\" = #dlti.target_device_spec<\"VECTOR_CORE_COUNT\" = 48 : i64, "
    "\"OFFSET\" = -3 : i32>>} {\n}\n";

static npuc_module parse(MlirContext ctx, const char *text) {
  npuc_module m;
  assert_true(npuc_module_parse(ctx, npuc_builtin_op_registry(NULL), text,
                                strlen(text), "t.mlir", 1, NULL, &m));
  return m;
}

static void reads_legacy_spec(void **state) {
  (void)state;
  MlirContext ctx = npuc_context_create();
  npuc_module m = parse(ctx, kLegacy);
  int64_t v = 0;
  assert_true(npuc_target_spec_int(m.op, "NPU", "VECTOR_CORE_COUNT", &v));
  assert_int_equal(v, 40);
  assert_true(npuc_target_spec_int(m.op, NULL, "CUBE_CORE_COUNT", &v));
  assert_int_equal(v, 20);
  assert_false(npuc_target_spec_int(m.op, NULL, "UB_SIZE", &v));
  /* From an op nested in the module. */
  MlirRegion body = mlirOperationGetRegion(m.op, 0);
  MlirOperation func =
      mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(body));
  assert_true(npuc_target_spec_int(func, NULL, "VECTOR_CORE_COUNT", &v));
  assert_int_equal(v, 40);
  npuc_module_destroy(&m);
  npuc_context_destroy(ctx);
}

static void picks_the_named_device(void **state) {
  (void)state;
  MlirContext ctx = npuc_context_create();
  npuc_module m = parse(ctx, kModern);
  int64_t v = 0;
  assert_true(npuc_target_spec_int(m.op, "NPU", "VECTOR_CORE_COUNT", &v));
  assert_int_equal(v, 48);
  assert_true(npuc_target_spec_int(m.op, "CPU", "VECTOR_CORE_COUNT", &v));
  assert_int_equal(v, 4);
  assert_true(npuc_target_spec_int(m.op, NULL, "VECTOR_CORE_COUNT", &v));
  assert_int_equal(v, 4);
  assert_true(npuc_target_spec_int(m.op, "NPU", "OFFSET", &v));
  assert_int_equal(v, -3);
  assert_false(npuc_target_spec_int(m.op, "CPU", "OFFSET", &v));
  assert_false(npuc_target_spec_int(m.op, "GPU", "VECTOR_CORE_COUNT", &v));
  npuc_module_destroy(&m);
  npuc_context_destroy(ctx);
}

static void no_spec(void **state) {
  (void)state;
  MlirContext ctx = npuc_context_create();
  npuc_module m = parse(ctx, "module {\n}\n");
  int64_t v = 7;
  assert_false(npuc_target_spec_int(m.op, NULL, "VECTOR_CORE_COUNT", &v));
  assert_int_equal(v, 7);
  npuc_module_destroy(&m);
  npuc_context_destroy(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(reads_legacy_spec),
      cmocka_unit_test(picks_the_named_device),
      cmocka_unit_test(no_spec),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
