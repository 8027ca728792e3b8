/* The group pattern trie of tx8-group-pattern (lib/TX8/PatternTrie.c):
 * OR alternatives, X* as a self-loop (no copies: the trie does not grow
 * with the repeats it matches), shared prefixes, priorities, the
 * built-in sets and the errors of patterns and pattern files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "npuc/Tx8Pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int32_t sym(const npuc_tx8_patterns *t, const char *name) {
  return npuc_tx8_patterns_symbol(t, name, strlen(name));
}

/* The one node `node` reaches on `name` (fails on none or several). */
static int32_t step1(const npuc_tx8_patterns *t, int32_t node,
                     const char *name) {
  int32_t out[4];
  size_t n = npuc_tx8_patterns_step(t, node, sym(t, name), out, 4);
  assert_int_equal(n, 1);
  return out[0];
}

static npuc_tx8_patterns *make(const char *text, int64_t priority) {
  npuc_tx8_patterns *t = npuc_tx8_patterns_new();
  char err[256] = "";
  assert_true(npuc_tx8_patterns_add(t, text, priority, true, err, sizeof err));
  return t;
}

static void star_is_a_self_loop(void **state) {
  (void)state;
  npuc_tx8_patterns *t = make("exp add* relu", 7);
  /* root, exp, add*, relu: nothing per repeat */
  assert_int_equal(npuc_tx8_patterns_nodes(t), 4);
  int32_t n = step1(t, NPUC_TX8_PATTERN_ROOT, "tx8be.exp");
  int32_t a = step1(t, n, "tx8be.add");
  for (int i = 0; i < 25; i++)
    assert_int_equal(step1(t, a, "tx8be.add"), a);
  int32_t r = step1(t, a, "tx8be.relu");
  assert_int_equal(npuc_tx8_patterns_priority(t, r), 7);
  assert_int_equal(npuc_tx8_patterns_priority(t, a), -1);
  /* `*` is one or more: exp relu is no path */
  int32_t out[4];
  assert_int_equal(npuc_tx8_patterns_step(t, n, sym(t, "tx8be.relu"), out, 4),
                   0);
  npuc_tx8_patterns_free(t);
}

static void star_detached_and_attached(void **state) {
  (void)state;
  npuc_tx8_patterns *t = make("exp *", 1);
  int32_t e = step1(t, NPUC_TX8_PATTERN_ROOT, "tx8be.exp");
  assert_int_equal(step1(t, e, "tx8be.exp"), e);
  npuc_tx8_patterns_free(t);
}

/* X X* and X*: different nodes, and a node with both a self-loop and a
 * child of the same op reaches two nodes. */
static void star_and_plain_share_no_node(void **state) {
  (void)state;
  npuc_tx8_patterns *t = make("add add* OR add* mul OR add add", 1);
  int32_t out[4];
  size_t n = npuc_tx8_patterns_step(t, NPUC_TX8_PATTERN_ROOT,
                                    sym(t, "tx8be.add"), out, 4);
  assert_int_equal(n, 2); /* add, add* */
  npuc_tx8_patterns_free(t);
}

static void or_and_shared_prefixes(void **state) {
  (void)state;
  npuc_tx8_patterns *t = make("exp relu OR exp relu abs OR log", 3);
  char err[256];
  assert_true(npuc_tx8_patterns_add(t, "tx8be.exp tx8be.relu", 9, true, err,
                                    sizeof err));
  assert_int_equal(npuc_tx8_patterns_count(t), 4);
  /* root, exp, relu, abs, log */
  assert_int_equal(npuc_tx8_patterns_nodes(t), 5);
  int32_t r =
      step1(t, step1(t, NPUC_TX8_PATTERN_ROOT, "tx8be.exp"), "tx8be.relu");
  assert_int_equal(npuc_tx8_patterns_priority(t, r), 9); /* the highest */
  assert_int_equal(npuc_tx8_patterns_priority(t, step1(t, r, "tx8be.abs")), 3);
  assert_int_equal(sym(t, "tx8be.tanh"), -1);
  npuc_tx8_patterns_free(t);
}

static void elementwise_class(void **state) {
  (void)state;
  assert_true(npuc_tx8_pattern_is_elementwise("tx8be.add"));
  assert_true(npuc_tx8_pattern_is_elementwise("tx8be.gelu"));
  assert_false(npuc_tx8_pattern_is_elementwise("tx8be.gemm"));
  assert_false(npuc_tx8_pattern_is_elementwise("tx8be.channel_norm"));
  npuc_tx8_patterns *t = make("gemm ELEMENTWISE*", 1);
  assert_true(sym(t, NPUC_TX8_PATTERN_ELEMENTWISE) >= 0);
  npuc_tx8_patterns_free(t);
}

static void pattern_errors(void **state) {
  (void)state;
  static const struct {
    const char *text;
    const char *message;
  } cases[] = {
      {"", "empty pattern"},
      {"   ", "empty pattern"},
      {"* exp", "'*' repeats no op"},
      {"exp * *", "'*' repeats no op"},
      {"OR exp", "'OR' with no op before it"},
      {"exp OR OR relu", "'OR' with no op before it"},
      {"exp OR", "'OR' with no op after it"},
      {"exp frob", "unknown op 'tx8be.frob'"},
      {"exp re-lu", "'re-lu' is not an op name"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    npuc_tx8_patterns *t = npuc_tx8_patterns_new();
    char err[256] = "";
    assert_false(
        npuc_tx8_patterns_add(t, cases[i].text, 1, true, err, sizeof err));
    if (!strstr(err, cases[i].message))
      fail_msg("'%s': got '%s', want '%s'", cases[i].text, err,
               cases[i].message);
    /* nothing inserted */
    assert_int_equal(npuc_tx8_patterns_count(t), 0);
    assert_int_equal(npuc_tx8_patterns_nodes(t), 1);
    npuc_tx8_patterns_free(t);
  }
  npuc_tx8_patterns *t = npuc_tx8_patterns_new();
  char err[256];
  assert_false(npuc_tx8_patterns_add(t, "exp", -1, true, err, sizeof err));
  assert_false(npuc_tx8_patterns_add(
      t, "exp", NPUC_TX8_PATTERN_MAX_PRIORITY + 1, true, err, sizeof err));
  /* unknown ops pass when not checked (the built-in sets name ops to come) */
  assert_true(
      npuc_tx8_patterns_add(t, "gemm softmax gemm", 1, false, err, sizeof err));
  npuc_tx8_patterns_free(t);
}

static void too_many_tokens(void **state) {
  (void)state;
  char text[8 * (NPUC_TX8_PATTERN_MAX_TOKENS + 2)] = "";
  for (int i = 0; i <= NPUC_TX8_PATTERN_MAX_TOKENS; i++)
    strcat(text, "exp ");
  npuc_tx8_patterns *t = npuc_tx8_patterns_new();
  char err[256] = "";
  assert_false(npuc_tx8_patterns_add(t, text, 1, true, err, sizeof err));
  assert_non_null(strstr(err, "ops in one alternative"));
  npuc_tx8_patterns_free(t);
}

static void builtin_sets(void **state) {
  (void)state;
  for (int64_t s = 0; s < NPUC_TX8_PATTERN_SETS; s++) {
    npuc_tx8_patterns *t = npuc_tx8_patterns_new();
    assert_true(npuc_tx8_patterns_builtin(t, s));
    if (s == 0)
      assert_int_equal(npuc_tx8_patterns_count(t), 0);
    else
      assert_true(npuc_tx8_patterns_count(t) > 0);
    npuc_tx8_patterns_free(t);
  }
  npuc_tx8_patterns *t = npuc_tx8_patterns_new();
  assert_false(npuc_tx8_patterns_builtin(t, NPUC_TX8_PATTERN_SETS));
  assert_false(npuc_tx8_patterns_builtin(t, -1));
  /* the default set: conv-batchnorm-relu-add-relu is a path */
  assert_true(npuc_tx8_patterns_builtin(t, 1));
  int32_t n = NPUC_TX8_PATTERN_ROOT;
  const char *ops[] = {"tx8be.conv", "tx8be.batchnorm_inference", "tx8be.relu",
                       "tx8be.add", "tx8be.relu"};
  for (size_t i = 0; i < 5; i++) {
    int32_t out[4];
    assert_true(npuc_tx8_patterns_step(t, n, sym(t, ops[i]), out, 4) >= 1);
    n = out[0];
  }
  assert_true(npuc_tx8_patterns_priority(t, n) >= 0);
  npuc_tx8_patterns_free(t);
}

typedef struct {
  int errors;
  int lines[16];
} collected;

static void collect(void *user, npuc_severity sev, const char *file, int line,
                    int col, const char *msg) {
  collected *c = user;
  (void)file;
  (void)col;
  (void)msg;
  if (sev == NPUC_SEV_ERROR && c->errors < 16)
    c->lines[c->errors++] = line;
}

static void yaml_files(void **state) {
  (void)state;
  const char *good = "patterns:\n"
                     "  - {ops: \"exp relu\", priority: 2}\n"
                     "  - ops: [log, abs, \"*\"]\n";
  npuc_tx8_patterns *t = npuc_tx8_patterns_new();
  collected c = {0};
  npuc_diag_sink sink = {collect, &c};
  assert_true(
      npuc_tx8_patterns_load_yaml(t, good, strlen(good), "p.yaml", &sink));
  assert_int_equal(npuc_tx8_patterns_count(t), 2);
  int32_t a =
      step1(t, step1(t, NPUC_TX8_PATTERN_ROOT, "tx8be.log"), "tx8be.abs");
  assert_int_equal(step1(t, a, "tx8be.abs"), a);
  assert_int_equal(npuc_tx8_patterns_priority(t, a), 0); /* the default */
  npuc_tx8_patterns_free(t);

  const char *bad = "patterns:\n"
                    "  - {ops: \"exp\", priority: x}\n"
                    "  - {ops: \"OR\"}\n"
                    "  - 3\n";
  t = npuc_tx8_patterns_new();
  assert_false(
      npuc_tx8_patterns_load_yaml(t, bad, strlen(bad), "p.yaml", &sink));
  assert_int_equal(c.errors, 3); /* every entry's problem, at its line */
  assert_int_equal(c.lines[0], 2);
  assert_int_equal(c.lines[1], 3);
  assert_int_equal(c.lines[2], 4);
  npuc_tx8_patterns_free(t);
}

/* A file of more patterns than a set may hold: one error, not one per
 * entry left. */
static void too_many_patterns(void **state) {
  (void)state;
  size_t n = NPUC_TX8_PATTERN_MAX_COUNT + 10, len = 0;
  char *text = malloc(16 + n * 24);
  assert_non_null(text);
  len += (size_t)sprintf(text + len, "patterns:\n");
  for (size_t i = 0; i < n; i++)
    len += (size_t)sprintf(text + len, "  - {ops: exp}\n");
  npuc_tx8_patterns *t = npuc_tx8_patterns_new();
  collected c = {0};
  npuc_diag_sink sink = {collect, &c};
  assert_false(npuc_tx8_patterns_load_yaml(t, text, len, "p.yaml", &sink));
  assert_int_equal(c.errors, 1);
  assert_int_equal(c.lines[0], NPUC_TX8_PATTERN_MAX_COUNT + 2);
  assert_int_equal(npuc_tx8_patterns_count(t), NPUC_TX8_PATTERN_MAX_COUNT);
  npuc_tx8_patterns_free(t);
  free(text);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(star_is_a_self_loop),
      cmocka_unit_test(star_detached_and_attached),
      cmocka_unit_test(star_and_plain_share_no_node),
      cmocka_unit_test(or_and_shared_prefixes),
      cmocka_unit_test(elementwise_class),
      cmocka_unit_test(pattern_errors),
      cmocka_unit_test(too_many_tokens),
      cmocka_unit_test(builtin_sets),
      cmocka_unit_test(yaml_files),
      cmocka_unit_test(too_many_patterns),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
