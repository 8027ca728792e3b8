/* The YAML op-table loader and the format compiler: what a table may say,
 * and every error a malformed table gets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "npuc/OpTable.h"

#include <stdio.h>
#include <stdlib.h>
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

static npuc_op_registry *load(const char *yaml, collected *c) {
  memset(c, 0, sizeof *c);
  npuc_diag_sink sink = {collect, c};
  npuc_op_registry *reg = npuc_op_registry_create();
  npuc_op_registry_load_yaml(reg, yaml, strlen(yaml), "t.yaml", &sink);
  return reg;
}

static const char *kGood =
    "dialect: toy\n"
    "op_prefixes: [toy.]\n"
    "classes:\n"
    "  unary:\n"
    "    traits: [elementwise, destination-style]\n"
    "    inits: dst\n"
    "    operands:\n"
    "      - {name: src, kind: tensor}\n"
    "      - {name: dst, kind: tensor}\n"
    "    results:\n"
    "      - {name: result, kind: tensor, variadic: true}\n"
    "    format: attr-dict `ins` `(` $src `:` type($src) `)` `outs` `(` $dst "
    "`:` type($dst) `)` (`->` type($result)^)?\n"
    "ops:\n"
    "  - names: [toy.neg, toy.abs]\n"
    "    class: unary\n"
    "  - name: toy.flag\n"
    "    operands:\n"
    "      - {name: v, kind: integer, optional: true, type: i64}\n"
    "    attributes:\n"
    "      - {name: f, kind: int, optional: true}\n"
    "      - {name: mode, kind: enum, enum: '#toy.mode', values: [a, b]}\n"
    "    format: attr-dict $mode `flag` `=` ($v | $f)\n";

static void loads_classes_and_names(void **state) {
  (void)state;
  collected c;
  npuc_op_registry *reg = load(kGood, &c);
  assert_int_equal(c.errors, 0);
  const npuc_op_def *neg = npuc_op_lookup(reg, "toy.neg", 7);
  const npuc_op_def *abs_op = npuc_op_lookup(reg, "toy.abs", 7);
  assert_non_null(neg);
  assert_non_null(abs_op);
  assert_true(npuc_op_has_trait(neg, NPUC_TRAIT_ELEMENTWISE));
  assert_true(npuc_op_has_trait(abs_op, NPUC_TRAIT_DPS));
  assert_int_equal(neg->dps_inits, 1);
  assert_int_equal(neg->num_operands, 2);
  /* attr-dict `ins` `(` $src `:` type `)` `outs` `(` $dst `:` type `)` (..)? */
  assert_int_equal(neg->format_len, 14);
  assert_int_equal(neg->format[13].kind, NPUC_FMT_OPTIONAL);
  assert_true(neg->format[13].children[1].anchor);
  assert_null(npuc_op_lookup(reg, "toy.nope", 8));
  assert_non_null(npuc_op_owner(reg, "toy.nope", 8));
  assert_true(npuc_is_table_dialect(reg, "toy", 3));
  npuc_op_registry_destroy(reg);
}

static void compiles_alternatives_and_fixed_types(void **state) {
  (void)state;
  collected c;
  npuc_op_registry *reg = load(kGood, &c);
  const npuc_op_def *flag = npuc_op_lookup(reg, "toy.flag", 8);
  assert_non_null(flag);
  assert_string_equal(flag->operands[0].fixed_type, "i64");
  const npuc_fmt_elem *alt = &flag->format[flag->format_len - 1];
  assert_int_equal(alt->kind, NPUC_FMT_ALTERNATIVES);
  assert_int_equal(alt->num_branches, 2);
  assert_int_equal(flag->attrs[1].kind, NPUC_AK_ENUM);
  assert_string_equal(flag->attrs[1].enum_values[1], "b");
  assert_false(flag->uses_segments);
  npuc_op_registry_destroy(reg);
}

static void suggests_close_names(void **state) {
  (void)state;
  collected c;
  npuc_op_registry *reg = load(kGood, &c);
  const char *near[3];
  size_t n = npuc_op_suggest(reg, "toy.nag", 7, near, 3);
  assert_true(n >= 1);
  assert_string_equal(near[0], "toy.neg");
  npuc_op_registry_destroy(reg);
}

/* Each malformed table: the message, and that it is an error. */
static void expect_error(const char *yaml, const char *fragment) {
  collected c;
  npuc_op_registry *reg = load(yaml, &c);
  if (c.errors == 0 || !strstr(c.last, fragment))
    fail_msg("expected an error containing \"%s\", got %d errors, last \"%s\"",
             fragment, c.errors, c.last);
  npuc_op_registry_destroy(reg);
}

#define OP_HEAD "dialect: toy\nops:\n  - name: toy.x\n"

static void reports_table_errors(void **state) {
  (void)state;
  expect_error("dialect: [\n", "invalid YAML");
  expect_error("- a\n", "must be a mapping");
  expect_error("ops: []\n", "has no 'dialect' name");
  expect_error("dialect: toy\nops: {}\n", "'ops' in t.yaml must be a list");
  expect_error("dialect: toy\nops:\n  - format: attr-dict\n",
               "has no 'name' or 'names'");
  expect_error(OP_HEAD, "has no 'format'");
  expect_error(OP_HEAD "    class: nope\n    format: attr-dict\n",
               "unknown class 'nope'");
  expect_error(OP_HEAD "    traits: [shiny]\n    format: attr-dict\n",
               "unknown trait 'shiny'");
  expect_error(OP_HEAD "    operands: [{name: a, kind: blob}]\n"
                       "    format: $a type($a)\n",
               "unknown value kind 'blob'");
  expect_error(OP_HEAD "    attributes: [{name: a, kind: blob}]\n"
                       "    format: $a\n",
               "unknown attribute kind 'blob'");
  expect_error(OP_HEAD "    attributes: [{name: a, kind: enum}]\n"
                       "    format: $a\n",
               "needs 'enum: #dialect.name'");
  /* A default is what an absent attribute means: a required one has none. */
  expect_error(OP_HEAD
               "    attributes: [{name: a, kind: bool, default: \"true\"}]\n"
               "    format: $a\n",
               "has a default but is not optional");
  expect_error(OP_HEAD "    inits: z\n    format: attr-dict\n",
               "'inits' names no operand");
  expect_error(OP_HEAD "    format: attr-dict\n  - name: toy.x\n"
                       "    format: attr-dict\n",
               "declared twice");
  expect_error(OP_HEAD "    operands: [{name: a, same_as: b}]\n"
                       "    format: $a type($a)\n",
               "'same_as' names no operand or result: b");
  expect_error(OP_HEAD "    operands: [{name: a}]\n"
                       "    signatures: [{b: [i32]}]\n"
                       "    format: $a type($a)\n",
               "signature key 'b' names no operand, result or attribute");
}

/* `verify:` rules are checked against the op's names when loaded. */
static void reports_verify_rule_errors(void **state) {
  (void)state;
  expect_error(OP_HEAD "    verify: [{check: shiny}]\n    format: attr-dict\n",
               "unknown verify check 'shiny' in toy.x");
  expect_error(OP_HEAD "    verify: [\"min(a)\"]\n    format: attr-dict\n",
               "a verify rule of toy.x must be a mapping {check: ...}");
  expect_error(OP_HEAD "    verify: [{check: min, attr: z}]\n"
                       "    format: attr-dict\n",
               "verify rule of toy.x names no attribute 'z'");
  expect_error(OP_HEAD "    verify: [{check: symbol}]\n"
                       "    format: attr-dict\n",
               "verify check 'symbol' of toy.x needs 'attr'");
  expect_error(OP_HEAD "    operands: [{name: a}]\n"
                       "    verify: [{check: same-element-count, "
                       "operands: [a]}]\n"
                       "    format: $a type($a)\n",
               "needs two 'operands'");
  expect_error(OP_HEAD "    operands: [{name: a}]\n"
                       "    attributes: [{name: g, kind: int}]\n"
                       "    verify: [{check: divides, attr: g, "
                       "operands: [a], dim: x}]\n"
                       "    format: $a $g type($a)\n",
               "dim must be 0..64");
  expect_error(OP_HEAD "    operands: [{name: a}]\n"
                       "    attributes: [{name: p, kind: i64-array}]\n"
                       "    verify: [{check: permutation, attr: p, of: a, "
                       "into: b}]\n"
                       "    format: $a $p type($a)\n",
               "'into' names no operand 'b'");
  expect_error(OP_HEAD "    attributes: [{name: p, kind: any}]\n"
                       "    verify: [{check: same-length, attr: p, with: q}]\n"
                       "    format: $p\n",
               "'with' names no operand or attribute 'q'");
  expect_error(OP_HEAD "    operands: [{name: a}]\n"
                       "    verify: [{check: dim-size, operands: [a], "
                       "of_dim: 99}]\n"
                       "    format: $a type($a)\n",
               "of_dim must be 0..64");
}

/* attrdefs with a case and fields: required_for / only_for name cases of
 * the attribute's values and come with their message. */
static void reports_attrdef_errors(void **state) {
  (void)state;
#define ATTR_HEAD                                                              \
  "dialect: toy\nops: []\nattrdefs:\n  layout:\n    values: [a, b]\n"
  expect_error(ATTR_HEAD "    fields: [{name: t, required_for: [a]}]\n",
               "required_for/only_for need the attribute's values and a "
               "message each");
  expect_error(ATTR_HEAD "    fields: [{name: t, only_for: [c], "
                         "only_message: no}]\n",
               "attrdef 'layout': 'c' is not one of its values");
  expect_error("dialect: toy\nops: []\nattrdefs:\n  layout:\n"
               "    fields: [{name: t, required_for: [a], "
               "required_message: m}]\n",
               "required_for/only_for need the attribute's values");
#undef ATTR_HEAD
}

static void reports_format_errors(void **state) {
  (void)state;
  expect_error(OP_HEAD "    operands: [{name: a, variadic: true}]\n"
                       "    attributes: [{name: d, kind: int}]\n"
                       "    format: $a type($a, $d)\n",
               "takes an attribute of kind any");
  expect_error(OP_HEAD "    results: [{name: r}]\n"
                       "    attributes: [{name: d, kind: any}]\n"
                       "    format: type($r, $d)\n",
               "takes an operand group");
  expect_error(OP_HEAD "    format: \"`ins\"\n",
               "unterminated or empty literal");
  expect_error(OP_HEAD "    format: $\n", "'$' without a name");
  expect_error(OP_HEAD "    format: type(x)\n", "expected type($name)");
  expect_error(OP_HEAD "    format: $nothing\n", "unknown variable 'nothing'");
  expect_error(OP_HEAD "    format: (`a`\n", "unbalanced group");
  expect_error(OP_HEAD "    format: (`a`)\n", "must be optional");
  expect_error(OP_HEAD "    format: \"%\"\n", "unexpected text");
  expect_error(OP_HEAD "    operands: [{name: a}]\n    format: type($a)\n",
               "operand 'a' must appear exactly once");
  expect_error(OP_HEAD "    operands: [{name: a}]\n    format: $a\n",
               "operand 'a' needs exactly one type($name)");
  expect_error(OP_HEAD "    operands: [{name: a, type: index}]\n"
                       "    format: $a type($a)\n",
               "operand 'a' has a fixed or implied type");
  expect_error(OP_HEAD "    results: [{name: r}]\n    format: attr-dict\n",
               "result 'r' needs exactly one type($name)");
  expect_error(OP_HEAD "    results: [{name: r}]\n    format: $r\n",
               "result 'r' may only appear as type($name)");
  expect_error(OP_HEAD "    regions: [body]\n    format: attr-dict\n",
               "region 'body' must appear exactly once");
  /* region-args($r) does not place the region itself. */
  expect_error(OP_HEAD "    regions: [body]\n    format: region-args($body)\n",
               "region 'body' must appear exactly once");
  expect_error(OP_HEAD "    attributes: [{name: d, kind: any}]\n"
                       "    format: region-args($d) $d\n",
               "region-args in 'toy.x' takes one region");
  expect_error(OP_HEAD
               "    regions: [body]\n    format: region-args(body) $body\n",
               "expected region-args($region)");
  /* stripped-type($name, `!prefix`): one value's type, a `!` prefix. */
  expect_error(OP_HEAD "    operands: [{name: a}]\n"
                       "    format: $a stripped-type($a)\n",
               "expected stripped-type($name, `prefix`)");
  expect_error(OP_HEAD "    operands: [{name: a}]\n"
                       "    format: $a stripped-type($a, `llvm.ptr`)\n",
               "expected stripped-type($name, `prefix`)");
  expect_error(OP_HEAD "    operands: [{name: a}]\n"
                       "    format: $a stripped-type($a, `!llvm.ptr` x)\n",
               "expected stripped-type($name, `prefix`)");
  expect_error(OP_HEAD "    operands: [{name: a, variadic: true}]\n"
                       "    format: $a stripped-type($a, `!llvm.ptr`)\n",
               "stripped-type in 'toy.x' takes a group of one value");
  expect_error(OP_HEAD "    operands: [{name: a}]\n"
                       "    format: $a type($a) stripped-type($a, `!p`)\n",
               "operand 'a' needs exactly one type($name)");
}

/* The tables built into npuc load without a single error. */
static void builtin_tables_load(void **state) {
  (void)state;
  collected c = {0};
  npuc_diag_sink sink = {collect, &c};
  const npuc_op_registry *reg = npuc_builtin_op_registry(&sink);
  assert_non_null(reg);
  assert_int_equal(c.errors, 0);
  assert_non_null(npuc_op_lookup(reg, "hivm.hir.vadd", 13));
  assert_non_null(npuc_op_lookup(reg, "annotation.mark", 15));
  assert_true(npuc_is_table_dialect(reg, "hacc", 4));
}

/* The built-in registry is the generated C form of the YAML tables
 * (npuc-tablegen): reading the embedded YAML again gives a registry that
 * writes out byte for byte the same, every field of every record. */
struct npuc_embedded_table {
  const char *name;
  const char *text;
  size_t len;
};
extern const struct npuc_embedded_table npuc_embedded_tables[];

static char *written(const npuc_op_registry *reg) {
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  assert_non_null(out);
  assert_true(npuc_op_registry_write_c(reg, out));
  fclose(out);
  return text;
}

static void generated_tables_match_the_yaml(void **state) {
  (void)state;
  collected c = {0};
  npuc_diag_sink sink = {collect, &c};
  npuc_op_registry *yaml = npuc_op_registry_create();
  size_t tables = 0;
  for (const struct npuc_embedded_table *t = npuc_embedded_tables; t->name;
       ++t, ++tables)
    assert_true(
        npuc_op_registry_load_yaml(yaml, t->text, t->len, t->name, &sink));
  assert_true(tables > 10);
  char *from_yaml = written(yaml);
  char *builtin = written(npuc_builtin_op_registry(&sink));
  assert_int_equal(c.errors, 0);
  assert_true(strlen(from_yaml) > 100000);
  assert_string_equal(from_yaml, builtin);
  free(from_yaml);
  free(builtin);
  npuc_op_registry_destroy(yaml);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(loads_classes_and_names),
      cmocka_unit_test(compiles_alternatives_and_fixed_types),
      cmocka_unit_test(suggests_close_names),
      cmocka_unit_test(reports_table_errors),
      cmocka_unit_test(reports_verify_rule_errors),
      cmocka_unit_test(reports_format_errors),
      cmocka_unit_test(reports_attrdef_errors),
      cmocka_unit_test(builtin_tables_load),
      cmocka_unit_test(generated_tables_match_the_yaml),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
