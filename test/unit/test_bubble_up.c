/* The bubble-up library interface (include/npuc/BubbleUp.h), as sub-block
 * tiling will use it: runs without diagnostics and a report of what stopped
 * bubbling, the pattern table, and pattern sets with only some patterns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "npuc/BubbleUp.h"
#include "npuc/IR.h"

#include <stdio.h>
#include <string.h>

static const char *kChain =
    "func.func @f(%a: tensor<8xf32>, %o: index) -> tensor<4xf32> {\n"
    "  %e = tensor.empty() : tensor<8xf32>\n"
    "  %0 = hivm.hir.vexp ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) "
    "-> tensor<8xf32>\n"
    "  %1 = hivm.hir.vabs ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) "
    "-> tensor<8xf32>\n"
    "  %2 = tensor.extract_slice %1[%o] [4] [1] {to_be_bubbled_slice} : "
    "tensor<8xf32> to tensor<4xf32>\n"
    "  return %2 : tensor<4xf32>\n"
    "}\n";

static const char *kStuck =
    "func.func @f(%a: tensor<8xf32>) -> tensor<4xf32> {\n"
    "  %0 = math.sqrt %a : tensor<8xf32>\n"
    "  %1 = tensor.extract_slice %0[0] [4] [1] {to_be_bubbled_slice} : "
    "tensor<8xf32> to tensor<4xf32>\n"
    "  return %1 : tensor<4xf32>\n"
    "}\n";

static const char *kReduced =
    "func.func @f(%a: tensor<8x16xf32>, %o: index) -> tensor<8x1xf32> {\n"
    "  %e = tensor.empty() : tensor<8x1xf32>\n"
    "  %0 = hivm.hir.vreduce <sum> ins(%a : tensor<8x16xf32>) "
    "outs(%e : tensor<8x1xf32>) reduce_dims = [1] -> tensor<8x1xf32>\n"
    "  %1 = tensor.extract_slice %0[0, %o] [8, 1] [1, 1] {to_be_bubbled_slice} "
    ": tensor<8x1xf32> to tensor<8x1xf32>\n"
    "  return %1 : tensor<8x1xf32>\n"
    "}\n";

typedef struct {
  MlirContext ctx;
  npuc_module m;
} fixture;

static void parse(fixture *f, const char *text) {
  f->ctx = npuc_context_create();
  assert_true(npuc_module_parse(f->ctx, npuc_builtin_op_registry(NULL), text,
                                strlen(text), "t.mlir", 1, NULL, &f->m));
}

static void done(fixture *f) {
  npuc_module_destroy(&f->m);
  npuc_context_destroy(f->ctx);
}

static bool name_is(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && memcmp(n.data, name, n.length) == 0;
}

/* Counts the ops named `name` under `op`. */
typedef struct {
  const char *name;
  int n;
} counter;

static MlirWalkResult count_op(MlirOperation op, void *user) {
  counter *c = user;
  c->n += name_is(op, c->name);
  return MlirWalkResultAdvance;
}

static int count(MlirOperation root, const char *name) {
  counter c = {name, 0};
  mlirOperationWalk(root, count_op, &c, MlirWalkPreOrder);
  return c.n;
}

static const npuc_bubble_options kOptions = {false, 2, false, false};

static void bubbles_a_chain(void **state) {
  (void)state;
  fixture f;
  parse(&f, kChain);
  npuc_bubble_report rep;
  assert_true(npuc_bubble_up_slices(f.m.op, npuc_builtin_op_registry(NULL),
                                    &kOptions, &rep));
  assert_int_equal(rep.num_stuck, 0);
  assert_true(mlirOperationIsNull(rep.first_stuck));
  /* vabs, vexp: one rewrite each; the slices of %e become empty tensors
   * without a rewrite of their own. */
  assert_int_equal(rep.num_rewrites, 2);
  assert_int_equal(count(f.m.op, "hivm.hir.vexp"), 1);
  assert_int_equal(count(f.m.op, "tensor.extract_slice"), 1);
  done(&f);
}

static void reports_where_it_stopped(void **state) {
  (void)state;
  fixture f;
  parse(&f, kStuck);
  npuc_bubble_report rep;
  assert_false(npuc_bubble_up_slices(f.m.op, npuc_builtin_op_registry(NULL),
                                     &kOptions, &rep));
  assert_int_equal(rep.num_stuck, 1);
  assert_true(npuc_bubble_is_marked(rep.first_stuck));
  assert_true(name_is(rep.blocker, "math.sqrt"));
  assert_null(rep.reason); /* no pattern for math.sqrt */
  done(&f);
}

static void reports_why_a_pattern_refused(void **state) {
  (void)state;
  fixture f;
  parse(&f, kReduced);
  npuc_bubble_report rep;
  assert_false(npuc_bubble_up_slices(f.m.op, npuc_builtin_op_registry(NULL),
                                     NULL, &rep));
  assert_int_equal(rep.num_stuck, 1);
  assert_true(name_is(rep.blocker, "hivm.hir.vreduce"));
  assert_non_null(rep.reason);
  assert_string_equal(rep.reason, "the slice cuts a reduced dimension");
  done(&f);
}

static void lists_the_patterns(void **state) {
  (void)state;
  size_t n = npuc_bubble_num_patterns();
  assert_true(n >= 20);
  bool elementwise = false, loop = false;
  for (size_t i = 0; i < n; i++) {
    const char *name = npuc_bubble_pattern_name(i);
    assert_non_null(name);
    assert_non_null(npuc_bubble_pattern_summary(i));
    for (size_t j = 0; j < i; j++)
      assert_string_not_equal(name, npuc_bubble_pattern_name(j));
    elementwise |= strcmp(name, "elementwise") == 0;
    loop |= strcmp(name, "scf.for") == 0;
  }
  assert_true(elementwise && loop);
  assert_null(npuc_bubble_pattern_name(n));
}

/* A pattern set with only the empty-tensor pattern: the slice of vabs does
 * not move, and the check reports it. */
static void runs_some_patterns(void **state) {
  (void)state;
  fixture f;
  parse(&f, kChain);
  npuc_bubble_ctx *bc =
      npuc_bubble_ctx_create(f.ctx, npuc_builtin_op_registry(NULL), &kOptions);
  MlirRewritePatternSet set = mlirRewritePatternSetCreate(f.ctx);
  const char *const bad[] = {"no-such-pattern", NULL};
  assert_false(npuc_bubble_populate_patterns(bc, set, bad));
  const char *const only[] = {"empty", NULL};
  assert_true(npuc_bubble_populate_patterns(bc, set, only));
  MlirFrozenRewritePatternSet frozen = mlirFreezeRewritePattern(set);
  mlirRewritePatternSetDestroy(set);
  MlirGreedyRewriteDriverConfig cfg = mlirGreedyRewriteDriverConfigCreate();
  mlirApplyPatternsAndFoldGreedilyWithOp(f.m.op, frozen, cfg);
  mlirGreedyRewriteDriverConfigDestroy(cfg);
  mlirFrozenRewritePatternSetDestroy(frozen);
  npuc_bubble_report rep;
  npuc_bubble_check(bc, f.m.op, &rep);
  assert_int_equal(rep.num_rewrites, 0);
  assert_int_equal(rep.num_stuck, 1);
  assert_true(name_is(rep.blocker, "hivm.hir.vabs"));
  npuc_bubble_ctx_destroy(bc);
  done(&f);
}

/* ---- npuc_bubble_certain: on the value a function returns ---------------- */

static MlirWalkResult find_return(MlirOperation op, void *user) {
  if (!name_is(op, "func.return"))
    return MlirWalkResultAdvance;
  *(MlirOperation *)user = op;
  return MlirWalkResultInterrupt;
}

static bool certain(const char *text) {
  fixture f;
  parse(&f, text);
  MlirOperation ret = {NULL};
  mlirOperationWalk(f.m.op, find_return, &ret, MlirWalkPreOrder);
  assert_false(mlirOperationIsNull(ret));
  MlirValue v[2] = {mlirOperationGetOperand(ret, 0),
                    mlirOperationGetOperand(ret, 0)};
  bool yes = npuc_bubble_certain(f.ctx, npuc_builtin_op_registry(NULL), v, 2);
  done(&f);
  return yes;
}

#define T8 "tensor<8xf32>"
#define FUNC(args) "func.func @f(" args ") -> " T8 " {\n"
#define EMPTY "  %e = tensor.empty() : " T8 "\n"
#define RET(v) "  return " v " : " T8 "\n}\n"

/* Elementwise ops up to block arguments, tensor.empty and to_tensor, a
 * scalar operand on the way. */
static void certain_for_an_elementwise_chain(void **state) {
  (void)state;
  assert_true(certain(
      FUNC("%a: " T8 ", %m: memref<8xf32>, %s: f32") EMPTY
      "  %t = bufferization.to_tensor %m restrict writable : memref<8xf32> "
      "to " T8 "\n"
      "  %0 = hivm.hir.vexp ins(%a : " T8 ") outs(%e : " T8 ") -> " T8 "\n"
      "  %1 = hivm.hir.vadd ins(%0, %t : " T8 ", " T8 ") outs(%e : " T8
      ") -> " T8 "\n"
      "  %2 = hivm.hir.vmul ins(%1, %s : " T8 ", f32) outs(%e : " T8 ") -> " T8
      "\n" RET("%2")));
  assert_true(certain(FUNC("%a: " T8) RET("%a"))); /* nothing to climb */
}

/* Ops whose pattern makes no promise, or an elementwise op it does not
 * cover: a broadcast operand, an empty tensor, an op without a pattern, a
 * reduction, a loop. */
static void not_certain_elsewhere(void **state) {
  (void)state;
  assert_false(certain(
      "func.func @f(%a: tensor<1x8xf32>, %b: tensor<4x8xf32>) -> "
      "tensor<4x8xf32> {\n"
      "  %e = tensor.empty() : tensor<4x8xf32>\n"
      "  %0 = hivm.hir.vadd ins(%a, %b : tensor<1x8xf32>, tensor<4x8xf32>) "
      "outs(%e : tensor<4x8xf32>) broadcast = [0] -> tensor<4x8xf32>\n"
      "  return %0 : tensor<4x8xf32>\n}\n"));
  assert_false(
      certain(/* the same, implicit */
              "func.func @f(%a: tensor<1x8xf32>, %b: tensor<4x8xf32>) -> "
              "tensor<4x8xf32> {\n"
              "  %e = tensor.empty() : tensor<4x8xf32>\n"
              "  %0 = hivm.hir.vadd ins(%a, %b : tensor<1x8xf32>, "
              "tensor<4x8xf32>) "
              "outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>\n"
              "  return %0 : tensor<4x8xf32>\n}\n"));
  assert_false(
      certain(/* a slice of it would not verify */
              "func.func @f(%a: tensor<8x0xf32>) -> tensor<8x0xf32> {\n"
              "  %e = tensor.empty() : tensor<8x0xf32>\n"
              "  %0 = hivm.hir.vexp ins(%a : tensor<8x0xf32>) "
              "outs(%e : tensor<8x0xf32>) -> tensor<8x0xf32>\n"
              "  return %0 : tensor<8x0xf32>\n}\n"));
  assert_false(certain(FUNC("%a: " T8) EMPTY "  %0 = math.sqrt %a : " T8 "\n"
                                             "  %1 = hivm.hir.vexp ins(%0 : " T8
                                             ") outs(%e : " T8 ") -> " T8
                                             "\n" RET("%1")));
  assert_false(certain(
      "func.func @f(%a: tensor<8x16xf32>) -> tensor<8x1xf32> {\n"
      "  %e = tensor.empty() : tensor<8x1xf32>\n"
      "  %0 = hivm.hir.vreduce <sum> ins(%a : tensor<8x16xf32>) "
      "outs(%e : tensor<8x1xf32>) reduce_dims = [1] -> tensor<8x1xf32>\n"
      "  return %0 : tensor<8x1xf32>\n}\n"));
  assert_false(certain(
      FUNC("%a: " T8 ", %n: index") EMPTY
      "  %c0 = arith.constant 0 : index\n"
      "  %c1 = arith.constant 1 : index\n"
      "  %0 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> (" T8
      ") {\n"
      "    %y = hivm.hir.vexp ins(%x : " T8 ") outs(%e : " T8 ") -> " T8 "\n"
      "    scf.yield %y : " T8 "\n  }\n" RET("%0")));
}

/* Each value read twice, 48 deep: each op is checked once (without the
 * set of checked ops, 2^48 paths). */
static void certain_on_a_dag_in_linear_time(void **state) {
  (void)state;
  char text[8192];
  size_t len =
      (size_t)snprintf(text, sizeof text, "%s", FUNC("%v0: " T8) EMPTY);
  for (int i = 0; i < 48; i++)
    len += (size_t)snprintf(text + len, sizeof text - len,
                            "  %%v%d = hivm.hir.vadd ins(%%v%d, %%v%d : " T8
                            ", " T8 ") outs(%%e : " T8 ") -> " T8 "\n",
                            i + 1, i, i);
  snprintf(text + len, sizeof text - len, "%s", RET("%v48"));
  assert_true(certain(text));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bubbles_a_chain),
      cmocka_unit_test(reports_where_it_stopped),
      cmocka_unit_test(reports_why_a_pattern_refused),
      cmocka_unit_test(lists_the_patterns),
      cmocka_unit_test(runs_some_patterns),
      cmocka_unit_test(certain_for_an_elementwise_chain),
      cmocka_unit_test(not_certain_elsewhere),
      cmocka_unit_test(certain_on_a_dag_in_linear_time),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
