/* Pipelines with npuc passes running inside MLIR's pass manager: implicit
 * nesting under func.func, options reaching the pass (also in the clones
 * MLIR makes per thread), failures, and anchors that do not fit. */
#include "Pass/PassInternal.h"
#include "npuc/Passes.h"
#include "npuc/IR.h"
#include "npuc/OpTable.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>
#include <mlir-c/IR.h>
#include <mlir-c/RegisterEverything.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* ---- Test passes ---------------------------------------------------- */

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static char run_log[4096]; /* "tag:@sym " per run, in run order */

static void log_run(const char *tag, MlirOperation op) {
  MlirAttribute sym = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("sym_name"));
  MlirStringRef name = mlirAttributeIsNull(sym)
                           ? mlirStringRefCreateFromCString("module")
                           : mlirStringAttrGetValue(sym);
  pthread_mutex_lock(&log_lock);
  size_t len = strlen(run_log);
  snprintf(run_log + len, sizeof run_log - len, "%s:%.*s ", tag,
           (int)name.length, name.data);
  pthread_mutex_unlock(&log_lock);
}

static void break_first_op(MlirOperation func);

typedef struct {
  const char *tag;
  bool fail, break_it, claim_verified;
} record_options_t;

static bool record_run(MlirOperation op, const npuc_pass_options *opts,
                       const npuc_pass_context *ctx) {
  (void)ctx;
  const record_options_t *o = NPUC_PASS_OPTS(record_options_t, opts);
  log_run(o->tag, op);
  if (o->fail) {
    mlirEmitError(mlirOperationGetLocation(op), "test pass failed");
    return false;
  }
  if (o->break_it)
    break_first_op(op);
  if (o->claim_verified)
    npuc_pass_verified(op);
  return true;
}

/* The first op of a function gets a result type its operands do not have
 * (arith.addi of i32 giving i64): the function no longer verifies. */
static void break_first_op(MlirOperation func) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirOperation first = mlirBlockGetFirstOperation(body);
  if (mlirOperationGetNumResults(first) > 0)
    mlirValueSetType(mlirOperationGetResult(first, 0),
                     mlirIntegerTypeGet(mlirOperationGetContext(func), 64));
}

static const npuc_pass_option_def record_options[] = {
    {.name = "tag",
     .type = NPUC_OPT_STRING,
     .default_value = "none",
     .help = "written to the log",
     .field = offsetof(record_options_t, tag)},
    {.name = "fail",
     .type = NPUC_OPT_BOOL,
     .default_value = "false",
     .help = "fail after logging",
     .field = offsetof(record_options_t, fail)},
    {.name = "break",
     .type = NPUC_OPT_BOOL,
     .default_value = "false",
     .help = "leave the function invalid",
     .field = offsetof(record_options_t, break_it)},
    {.name = "claim-verified",
     .type = NPUC_OPT_BOOL,
     .default_value = "false",
     .help = "say the op was left verified (npuc_pass_verified)",
     .field = offsetof(record_options_t, claim_verified)},
};

#define NUM_RECORD_OPTIONS (sizeof record_options / sizeof record_options[0])

#define RECORD_PASS(flag, what, op_name)                                       \
  {                                                                            \
    .name = flag, .summary = what, .anchor = op_name,                          \
    .options = record_options, .num_options = NUM_RECORD_OPTIONS,              \
    .run = record_run, .options_size = sizeof(record_options_t)                \
  }
static const npuc_pass_def func_pass =
    RECORD_PASS("npuc-test-func", "logs each function", "func.func");
static const npuc_pass_def module_pass =
    RECORD_PASS("npuc-test-module", "logs the module", "builtin.module");
static const npuc_pass_def any_pass =
    RECORD_PASS("npuc-test-any", "logs any op", "any");

/* ---- Fixture -------------------------------------------------------- */

static const char module_text[] = "module {\n"
                                  "  func.func @f(%x: i32) -> i32 {\n"
                                  "    %a = arith.addi %x, %x : i32\n"
                                  "    %b = arith.addi %x, %x : i32\n"
                                  "    %c = arith.addi %a, %b : i32\n"
                                  "    return %c : i32\n"
                                  "  }\n"
                                  "  func.func @g() {\n"
                                  "    return\n"
                                  "  }\n"
                                  "}\n";

typedef struct {
  MlirContext ctx;
  MlirOperation module;
  npuc_pass_context pass_ctx;
  char errors[2048];
} fixture;

static void collect_error(void *user, npuc_severity sev, const char *file,
                          int line, int col, const char *message) {
  (void)sev, (void)file, (void)line, (void)col;
  fixture *f = user;
  size_t len = strlen(f->errors);
  snprintf(f->errors + len, sizeof f->errors - len, "%s\n", message);
}

static MlirLogicalResult ignore_diagnostic(MlirDiagnostic d, void *user) {
  (void)d, (void)user;
  return mlirLogicalResultSuccess();
}

static int setup(void **state) {
  static bool registered;
  if (!registered) {
    registered = npuc_pass_register(&func_pass) &&
                 npuc_pass_register(&module_pass) &&
                 npuc_pass_register(&any_pass);
    if (!registered)
      return -1;
  }
  fixture *f = calloc(1, sizeof *f);
  f->ctx = mlirContextCreateWithThreading(false);
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(f->ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(f->ctx, ignore_diagnostic, NULL, NULL);
  f->module = mlirOperationCreateParse(
      f->ctx, mlirStringRefCreateFromCString(module_text),
      mlirStringRefCreateFromCString("test.mlir"));
  if (mlirOperationIsNull(f->module))
    return -1;
  f->pass_ctx.context = f->ctx;
  run_log[0] = '\0';
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  mlirOperationDestroy(f->module);
  mlirContextDestroy(f->ctx);
  free(f);
  return 0;
}

/* Builds `pipeline` and runs it; returns the run's success. Build errors
 * land in f->errors and make it return false. */
static bool run_pipeline(fixture *f, const char *pipeline) {
  npuc_diag_sink sink = {collect_error, f};
  MlirPassManager pm = mlirPassManagerCreate(f->ctx);
  bool ok = npuc_pipeline_parse(pm, pipeline, &f->pass_ctx, &sink);
  if (ok)
    ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, f->module));
  mlirPassManagerDestroy(pm);
  return ok;
}

/* run_pipeline, with verification after each pass left to our passes
 * when the pipeline allows it (npuc_pass_manager_verify_each). */
static bool run_verifying_each(fixture *f, const char *pipeline,
                               npuc_verify_each *v) {
  npuc_diag_sink sink = {collect_error, f};
  *v = (npuc_verify_each){false, false};
  f->pass_ctx.verify_each = v;
  MlirPassManager pm = mlirPassManagerCreate(f->ctx);
  bool ok = npuc_pipeline_parse(pm, pipeline, &f->pass_ctx, &sink);
  if (ok) {
    npuc_pass_manager_verify_each(pm, v);
    ok = mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, f->module));
  }
  mlirPassManagerDestroy(pm);
  f->pass_ctx.verify_each = NULL;
  return ok;
}

/* ---- Tests ---------------------------------------------------------- */

static void test_func_pass_nests_implicitly(void **state) {
  fixture *f = *state;
  assert_true(run_pipeline(f, "builtin.module(npuc-test-func{tag=a})"));
  assert_string_equal(run_log, "a:f a:g ");
}

static void test_explicit_nesting_and_any(void **state) {
  fixture *f = *state;
  assert_true(run_pipeline(
      f, "builtin.module(func.func(npuc-test-func{tag=b}),npuc-test-any{tag=c},"
         "func.func(npuc-test-any{tag=d}))"));
  assert_string_equal(run_log, "b:f b:g c:module d:f d:g ");
}

static void test_bare_list_is_module_level(void **state) {
  fixture *f = *state;
  assert_true(run_pipeline(f, "npuc-test-module{tag=m}, npuc-test-func"));
  assert_string_equal(run_log, "m:module none:f none:g ");
}

static void test_mixed_with_upstream(void **state) {
  fixture *f = *state;
  assert_true(run_pipeline(
      f,
      "builtin.module(cse,npuc-test-module{tag=x},canonicalize,"
      "func.func(cse,npuc-test-func{tag=y},canonicalize{max-iterations=2}))"));
  assert_string_equal(run_log, "x:module y:f y:g ");
  /* cse ran: one of the two identical additions is gone. */
  char printed[1024] = "";
  size_t n = 0;
  MlirOperation func = mlirBlockGetFirstOperation(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(f->module, 0)));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    n++;
  snprintf(printed, sizeof printed, "%zu", n);
  assert_string_equal(printed, "3"); /* addi, addi, return */
}

static void test_flag_form(void **state) {
  fixture *f = *state;
  npuc_diag_sink sink = {collect_error, f};
  MlirPassManager pm = mlirPassManagerCreate(f->ctx);
  assert_true(npuc_pipeline_add_flag(pm, "npuc-test-func", "tag=p",
                                     &f->pass_ctx, &sink));
  assert_true(npuc_pipeline_add_flag(pm, "cse", NULL, &f->pass_ctx, &sink));
  assert_true(npuc_pipeline_add_flag(pm, "npuc-test-module", "{tag=q}",
                                     &f->pass_ctx, &sink));
  assert_true(
      mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, f->module)));
  mlirPassManagerDestroy(pm);
  assert_string_equal(run_log, "p:f p:g q:module ");
}

static void test_failing_pass_fails_the_run(void **state) {
  fixture *f = *state;
  assert_false(run_pipeline(f, "builtin.module(npuc-test-module{fail=true})"));
  assert_string_equal(f->errors, "");
  assert_string_equal(run_log, "none:module ");
}

/* Only npuc passes: the pass manager's verifier is off, and our pass
 * verifies the function it broke. */
static void test_our_passes_verify_after_themselves(void **state) {
  fixture *f = *state;
  npuc_verify_each v;
  assert_true(run_verifying_each(f, "npuc-test-func{tag=a}", &v));
  assert_true(v.by_passes);
  assert_false(run_verifying_each(f, "npuc-test-func{break=true}", &v));
  assert_true(v.by_passes);
}

/* A pass that says it left its op verified is not verified again: here it
 * says so wrongly, and the broken function gets through (the pass manager
 * would have caught it). */
static void test_a_pass_verified_is_not_verified_again(void **state) {
  fixture *f = *state;
  npuc_verify_each v;
  assert_true(run_verifying_each(
      f, "npuc-test-func{break=true claim-verified=true}", &v));
  assert_true(v.by_passes);
}

/* With an upstream pass in the pipeline the pass manager keeps verifying:
 * the claim of our pass does not stop it. */
static void test_upstream_passes_keep_the_pass_manager_verifier(void **state) {
  fixture *f = *state;
  npuc_verify_each v;
  assert_false(run_verifying_each(
      f, "func.func(cse,npuc-test-func{break=true claim-verified=true})", &v));
  assert_true(v.upstream_passes);
  assert_false(v.by_passes);
}

static void test_anchor_mismatch_is_reported(void **state) {
  fixture *f = *state;
  assert_false(run_pipeline(f, "builtin.module(func.func(npuc-test-module))"));
  assert_non_null(strstr(f->errors,
                         "pass 'npuc-test-module' runs on 'builtin.module' "
                         "ops and cannot be scheduled under 'func.func'"));
  assert_string_equal(run_log, "");
}

static void test_bad_option_is_reported(void **state) {
  fixture *f = *state;
  assert_false(run_pipeline(f, "builtin.module(npuc-test-func{tga=1})"));
  assert_non_null(strstr(f->errors, "pass 'npuc-test-func': unknown option "
                                    "'tga'; valid options: tag=<string>, "
                                    "fail=<bool>"));
}

/* With threads, MLIR runs functions in parallel on clones of the pass; the
 * clones must carry the options. */
static void test_clones_keep_options(void **state) {
  fixture *f = *state;
  mlirContextEnableMultithreading(f->ctx, true);
  assert_true(
      run_pipeline(f, "builtin.module(func.func(npuc-test-func{tag=t}))"));
  assert_true(strcmp(run_log, "t:f t:g ") == 0 ||
              strcmp(run_log, "t:g t:f ") == 0);
}

static void test_names_known(void **state) {
  (void)state;
  assert_true(npuc_pass_name_known("npuc-strip-annotations"));
  assert_true(npuc_pass_name_known("npuc-test-func"));
  assert_true(npuc_pass_name_known("canonicalize"));
  assert_false(npuc_pass_name_known("canonicalise"));
  const char *close[3];
  size_t n = npuc_pass_suggest("npuc-test-fun", close, 3);
  assert_true(n >= 1 && n <= 3);
  assert_string_equal(close[0], "npuc-test-func");
  n = npuc_pass_suggest("canonicalise", close, 3);
  assert_true(n >= 1);
  assert_string_equal(close[0], "canonicalize");
  assert_int_equal(npuc_pass_suggest("zzqqxxyyww", close, 3), 0);
}

static void test_upstream_anchors(void **state) {
  (void)state;
  assert_string_equal(npuc_upstream_anchor_of("cse"), "");
  assert_string_equal(npuc_upstream_anchor_of("canonicalize{max-iterations=2}"),
                      "");
  assert_string_equal(npuc_upstream_anchor_of("affine-super-vectorize"),
                      "func.func");
  assert_string_equal(npuc_upstream_anchor_of("convert-func-to-llvm"),
                      "builtin.module");
  assert_string_equal(npuc_upstream_anchor_of("convert-gpu-to-nvvm"),
                      "gpu.module");
  char *error = NULL;
  assert_false(npuc_upstream_check("cse{nope=1}", &error));
  assert_string_equal(error, "no such option nope");
  free(error);
}

/* Our ops are checked against their tables after the passes; as the
 * input was checked when read, an op that fails is a pass's bug, and the
 * report says so. Here a vadd's result no longer fits its init. */
static void test_table_errors_after_passes_are_internal(void **state) {
  (void)state;
  static const char text[] =
      "func.func @f(%a: tensor<8xf32>) -> tensor<8xf32> {\n"
      "  %e = tensor.empty() : tensor<8xf32>\n"
      "  %0 = hivm.hir.vabs ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>)"
      " -> tensor<8xf32>\n"
      "  return %0 : tensor<8xf32>\n"
      "}\n";
  fixture f = {0};
  MlirContext ctx = npuc_context_create();
  const npuc_op_registry *reg = npuc_builtin_op_registry(NULL);
  npuc_module m;
  assert_true(npuc_module_parse(ctx, reg, text, sizeof text - 1, "t.mlir", 1,
                                NULL, &m));
  npuc_diag_sink sink = {collect_error, &f};
  npuc_context_set_sink(ctx, &sink, NULL);
  assert_true(npuc_verify_after_passes(reg, m.op));
  assert_string_equal(f.errors, "");
  MlirOperation func = mlirBlockGetFirstOperation(
      mlirModuleGetBody(mlirModuleFromOperation(m.op)));
  MlirOperation empty = mlirBlockGetFirstOperation(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)));
  MlirOperation vabs = mlirOperationGetNextInBlock(empty);
  mlirValueSetType(mlirOperationGetResult(vabs, 0),
                   mlirRankedTensorTypeGet(1, (int64_t[]){4},
                                           mlirF32TypeGet(ctx),
                                           mlirAttributeGetNull()));
  assert_false(npuc_verify_after_passes(reg, m.op));
  assert_non_null(strstr(f.errors, "hivm.hir.vabs"));
  assert_non_null(strstr(f.errors, "internal error: the passes left ops that "
                                   "do not verify against their op tables"));
  npuc_context_set_sink(ctx, NULL, NULL);
  npuc_module_destroy(&m);
  npuc_context_destroy(ctx);
}

int main(void) {
  npuc_register_passes();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_func_pass_nests_implicitly, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_explicit_nesting_and_any, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_bare_list_is_module_level, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_mixed_with_upstream, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_flag_form, setup, teardown),
      cmocka_unit_test_setup_teardown(test_failing_pass_fails_the_run, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_our_passes_verify_after_themselves,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(
          test_a_pass_verified_is_not_verified_again, setup, teardown),
      cmocka_unit_test_setup_teardown(
          test_upstream_passes_keep_the_pass_manager_verifier, setup, teardown),
      cmocka_unit_test_setup_teardown(test_anchor_mismatch_is_reported, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_bad_option_is_reported, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_clones_keep_options, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_names_known, setup, teardown),
      cmocka_unit_test(test_upstream_anchors),
      cmocka_unit_test(test_table_errors_after_passes_are_internal),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
