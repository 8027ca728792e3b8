/* Option parsing of npuc passes and the pipeline tokenizer. */
#include "Pass/PassInternal.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static const char *const modes[] = {"fast", "exact", NULL};

typedef struct {
  const char *keep;
  int64_t count;
  bool verbose;
  const char *mode;
} test_opts;

static const npuc_pass_option_def test_options[] = {
    {.name = "keep",
     .type = NPUC_OPT_STRING,
     .default_value = "",
     .help = "names to keep",
     .field = offsetof(test_opts, keep)},
    {.name = "count",
     .type = NPUC_OPT_INT,
     .default_value = "4",
     .help = "how many",
     .field = offsetof(test_opts, count)},
    {.name = "verbose",
     .type = NPUC_OPT_BOOL,
     .default_value = "false",
     .help = "talk",
     .field = offsetof(test_opts, verbose)},
    {.name = "mode",
     .type = NPUC_OPT_ENUM,
     .help = "how",
     .enum_values = modes,
     .field = offsetof(test_opts, mode)},
};

/* The parsed struct of `o`. */
static const test_opts *fields(const npuc_pass_options *o) {
  return npuc_pass_opts(o);
}

static bool never_run(MlirOperation op, const npuc_pass_options *o,
                      const npuc_pass_context *c) {
  (void)op, (void)o, (void)c;
  return false;
}

static const npuc_pass_def test_pass = {.name = "npuc-test",
                                        .summary = "a pass for tests",
                                        .anchor = "any",
                                        .options = test_options,
                                        .num_options = sizeof test_options /
                                                       sizeof test_options[0],
                                        .run = never_run,
                                        .options_size = sizeof(test_opts)};

/* Parses `text`, expecting success. */
static npuc_pass_options *parse_ok(const char *text) {
  char *error = NULL;
  npuc_pass_options *o = npuc_pass_options_parse(&test_pass, text, &error);
  if (!o)
    fail_msg("parse of '%s' failed: %s", text, error ? error : "?");
  assert_null(error);
  return o;
}

/* Parses `text`, expecting an error mentioning every `needles` string. */
static void parse_fails(const char *text, const char *needle1,
                        const char *needle2) {
  char *error = NULL;
  npuc_pass_options *o = npuc_pass_options_parse(&test_pass, text, &error);
  assert_null(o);
  assert_non_null(error);
  if (!strstr(error, needle1) || (needle2 && !strstr(error, needle2)))
    fail_msg("error for '%s' lacks '%s'/'%s': %s", text, needle1,
             needle2 ? needle2 : "", error);
  free(error);
}

static void test_defaults(void **state) {
  (void)state;
  npuc_pass_options *o = parse_ok(NULL);
  assert_string_equal(fields(o)->keep, "");
  assert_int_equal(fields(o)->count, 4);
  assert_false(fields(o)->verbose);
  assert_string_equal(fields(o)->mode, "fast");
  assert_false(npuc_pass_opt_given_field(o, offsetof(test_opts, count)));
  npuc_pass_options_free(o);
}

static void test_flag_form(void **state) {
  (void)state;
  npuc_pass_options *o = parse_ok("count=-12 verbose=true");
  assert_int_equal(fields(o)->count, -12);
  assert_true(fields(o)->verbose);
  assert_true(npuc_pass_opt_given_field(o, offsetof(test_opts, count)));
  assert_false(npuc_pass_opt_given_field(o, offsetof(test_opts, keep)));
  npuc_pass_options_free(o);
}

static void test_braced_forms(void **state) {
  (void)state;
  const char *forms[] = {"{count=7 mode=exact}", "{count=7,mode=exact}",
                         "{ count=7 , mode=exact }"};
  for (size_t i = 0; i < 3; i++) {
    npuc_pass_options *o = parse_ok(forms[i]);
    assert_int_equal(fields(o)->count, 7);
    assert_string_equal(fields(o)->mode, "exact");
    npuc_pass_options_free(o);
  }
}

/* A comma belongs to the value unless an option follows it. */
static void test_comma_in_value(void **state) {
  (void)state;
  npuc_pass_options *o = parse_ok("{keep=a,b,c count=1}");
  assert_string_equal(fields(o)->keep, "a,b,c");
  assert_int_equal(fields(o)->count, 1);
  npuc_pass_options_free(o);
  o = parse_ok("keep=a,b,verbose");
  assert_string_equal(fields(o)->keep, "a,b");
  assert_true(fields(o)->verbose);
  npuc_pass_options_free(o);
}

static void test_quoted_values(void **state) {
  (void)state;
  npuc_pass_options *o = parse_ok("keep=\"x y, z\" count='3'");
  assert_string_equal(fields(o)->keep, "x y, z");
  assert_int_equal(fields(o)->count, 3);
  npuc_pass_options_free(o);
  o = parse_ok("{keep={a b} verbose}");
  assert_string_equal(fields(o)->keep, "{a b}");
  assert_true(fields(o)->verbose);
  npuc_pass_options_free(o);
}

static void test_bool_spellings(void **state) {
  (void)state;
  const char *on[] = {"verbose=true", "verbose=True", "verbose=1", "verbose"};
  const char *off[] = {"verbose=false", "verbose=False", "verbose=0"};
  for (size_t i = 0; i < 4; i++) {
    npuc_pass_options *o = parse_ok(on[i]);
    assert_true(fields(o)->verbose);
    npuc_pass_options_free(o);
  }
  for (size_t i = 0; i < 3; i++) {
    npuc_pass_options *o = parse_ok(off[i]);
    assert_false(fields(o)->verbose);
    npuc_pass_options_free(o);
  }
}

static void test_errors_name_pass_option_and_valid_ones(void **state) {
  (void)state;
  parse_fails("cout=3", "pass 'npuc-test'", "unknown option 'cout'");
  parse_fails("cout=3", "valid options: keep=<string>, count=<int>", NULL);
  parse_fails("count=three", "option 'count' expects an integer", "three");
  parse_fails("count=99999999999999999999", "expects an integer", NULL);
  parse_fails("count=", "expects an integer", NULL);
  parse_fails("verbose=yes", "option 'verbose' expects true or false", "yes");
  parse_fails("mode=slow", "option 'mode' does not accept 'slow'",
              "mode=<fast|exact>");
  parse_fails("count", "option 'count' needs a value", NULL);
  parse_fails("{=3}", "pass 'npuc-test'", NULL);
}

static void test_clone_copies_values(void **state) {
  (void)state;
  npuc_pass_options *o = parse_ok("keep=abc count=9");
  npuc_pass_options *c = npuc_pass_options_clone(o);
  npuc_pass_options_free(o);
  assert_string_equal(fields(c)->keep, "abc");
  assert_int_equal(fields(c)->count, 9);
  assert_true(npuc_pass_opt_given_field(c, offsetof(test_opts, keep)));
  assert_false(npuc_pass_opt_given_field(c, offsetof(test_opts, verbose)));
  npuc_pass_options_free(c);
}

/* ---- Tokenizer ------------------------------------------------------ */

static npuc_pipeline tokenize_ok(const char *text) {
  npuc_pipeline p;
  char *error = NULL;
  if (!npuc_pipeline_tokenize(text, &p, &error))
    fail_msg("tokenize '%s' failed: %s", text, error ? error : "?");
  return p;
}

static void tokenize_fails(const char *text, const char *needle) {
  npuc_pipeline p;
  char *error = NULL;
  assert_false(npuc_pipeline_tokenize(text, &p, &error));
  assert_non_null(error);
  if (!strstr(error, needle))
    fail_msg("error for '%s' lacks '%s': %s", text, needle, error);
  free(error);
}

static void test_tokenize_nested(void **state) {
  (void)state;
  npuc_pipeline p = tokenize_ok(
      "builtin.module(func.func(cse, npuc-x{opt=1 b=\"a,b)\"}),canonicalize)");
  assert_int_equal(p.count, 1);
  npuc_pipeline_elem *mod = &p.elems[0];
  assert_string_equal(mod->name, "builtin.module");
  assert_true(mod->nested);
  assert_int_equal(mod->num_children, 2);
  npuc_pipeline_elem *func = &mod->children[0];
  assert_string_equal(func->name, "func.func");
  assert_int_equal(func->num_children, 2);
  assert_string_equal(func->children[0].name, "cse");
  assert_null(func->children[0].options);
  assert_string_equal(func->children[1].name, "npuc-x");
  assert_string_equal(func->children[1].options, "opt=1 b=\"a,b)\"");
  assert_string_equal(mod->children[1].name, "canonicalize");
  assert_false(mod->children[1].nested);
  char *text = npuc_pipeline_elem_text(&func->children[1]);
  assert_string_equal(text, "npuc-x{opt=1 b=\"a,b)\"}");
  free(text);
  npuc_pipeline_free(&p);
}

static void test_tokenize_flat_and_empty(void **state) {
  (void)state;
  npuc_pipeline p = tokenize_ok("  cse ,canonicalize{max-iterations=2}  ");
  assert_int_equal(p.count, 2);
  assert_string_equal(p.elems[1].options, "max-iterations=2");
  assert_int_equal(p.elems[1].offset, 7);
  npuc_pipeline_free(&p);
  p = tokenize_ok("");
  assert_int_equal(p.count, 0);
  npuc_pipeline_free(&p);
  p = tokenize_ok("func.func()");
  assert_int_equal(p.count, 1);
  assert_true(p.elems[0].nested);
  assert_int_equal(p.elems[0].num_children, 0);
  npuc_pipeline_free(&p);
  p = tokenize_ok("a{x={y z}}");
  assert_string_equal(p.elems[0].options, "x={y z}");
  npuc_pipeline_free(&p);
}

static void test_tokenize_errors(void **state) {
  (void)state;
  tokenize_fails("builtin.module(cse", "expected ')'");
  tokenize_fails("cse)", "expected ',' between passes");
  tokenize_fails("cse,,canonicalize", "expected a pass or operation name");
  tokenize_fails("cse{a=1", "unbalanced '{'");
  tokenize_fails("cse{a=\"1}", "unterminated string");
  tokenize_fails("func.func{a=1}(cse)", "takes no options");
  tokenize_fails("cse canonicalize", "expected ','");
}

/* The caret points at the offending byte. */
static void test_tokenize_error_caret(void **state) {
  (void)state;
  npuc_pipeline p;
  char *error = NULL;
  assert_false(npuc_pipeline_tokenize("cse,!x", &p, &error));
  assert_non_null(strstr(error, "\n  cse,!x\n      ^"));
  free(error);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_defaults),
      cmocka_unit_test(test_flag_form),
      cmocka_unit_test(test_braced_forms),
      cmocka_unit_test(test_comma_in_value),
      cmocka_unit_test(test_quoted_values),
      cmocka_unit_test(test_bool_spellings),
      cmocka_unit_test(test_errors_name_pass_option_and_valid_ones),
      cmocka_unit_test(test_clone_copies_values),
      cmocka_unit_test(test_tokenize_nested),
      cmocka_unit_test(test_tokenize_flat_and_empty),
      cmocka_unit_test(test_tokenize_errors),
      cmocka_unit_test(test_tokenize_error_caret),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
