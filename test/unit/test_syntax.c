/* The syntax engine on strings: lexer, both directions, the source map,
 * and coverage of the built-in tables by the round-trip lit tests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "npuc/Lexer.h"
#include "npuc/Syntax.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const npuc_op_registry *registry(void) {
  const npuc_op_registry *reg = npuc_builtin_op_registry(NULL);
  assert_non_null(reg);
  return reg;
}

static void quiet(void *user, npuc_severity sev, const char *file, int line,
                  int col, const char *msg) {
  (void)sev;
  (void)file;
  int *pos = user;
  pos[0] = line;
  pos[1] = col;
  (void)msg;
}

static char *to_mlir(const char *text, npuc_source_form *form,
                     npuc_srcmap **map, int *err_pos) {
  npuc_diag_sink sink = {quiet, err_pos};
  npuc_syntax_options opts = {registry(), "t.mlir", 1, &sink, NULL, NULL};
  return npuc_syntax_to_mlir(&opts, text, strlen(text), form, map);
}

static void lexer_spans(void **state) {
  (void)state;
  const char *s =
      "%0:2 = \"a.b\"(%x#1) : (tensor<4x?xf32>) -> i1 // c\n  ^bb0 >= {-# #-}";
  npuc_lexer lx;
  npuc_lexer_init(&lx, s, strlen(s), 1);
  npuc_tok_kind want[] = {
      NPUC_TOK_PERCENT_ID, NPUC_TOK_PUNCT,      NPUC_TOK_INTEGER,
      NPUC_TOK_PUNCT,      NPUC_TOK_STRING,     NPUC_TOK_PUNCT,
      NPUC_TOK_PERCENT_ID, NPUC_TOK_PUNCT,      NPUC_TOK_PUNCT,
      NPUC_TOK_PUNCT,      NPUC_TOK_BARE_ID,    NPUC_TOK_PUNCT,
      NPUC_TOK_INTEGER,    NPUC_TOK_BARE_ID,    NPUC_TOK_PUNCT,
      NPUC_TOK_BARE_ID,    NPUC_TOK_PUNCT,      NPUC_TOK_PUNCT,
      NPUC_TOK_ARROW,      NPUC_TOK_BARE_ID,    NPUC_TOK_CARET_ID,
      NPUC_TOK_GE,         NPUC_TOK_META_BEGIN, NPUC_TOK_META_END,
      NPUC_TOK_EOF};
  for (size_t i = 0; i < sizeof want / sizeof *want; ++i) {
    npuc_token t = npuc_lex(&lx);
    if (t.kind != want[i])
      fail_msg("token %zu: kind %d, want %d ('%.*s')", i, t.kind, want[i],
               (int)t.len, t.start);
    if (t.kind == NPUC_TOK_CARET_ID) {
      assert_int_equal(t.line, 2);
      assert_int_equal(t.col, 3);
      assert_true(t.line_start);
    }
  }
}

static void lexer_errors_do_not_stop(void **state) {
  (void)state;
  const char *s = "\"open\n ` ok";
  npuc_lexer lx;
  npuc_lexer_init(&lx, s, strlen(s), 1);
  assert_int_equal(npuc_lex(&lx).kind, NPUC_TOK_ERROR);
}

/* The lookahead: a peeked token is the one npuc_lex returns next, peeking
 * does not move the lexer, npuc_peek2 sees one further, and a lexer moved
 * by hand (cur set, `peeked` cleared) lexes from where it was put. */
static void lexer_lookahead(void **state) {
  (void)state;
  const char *s = "a (\n  %b -> c";
  npuc_lexer lx;
  npuc_lexer_init(&lx, s, strlen(s), 7);
  npuc_token a = npuc_peek(&lx);
  assert_true(lx.cur == s);
  assert_true(npuc_tok_keyword(a, "a"));
  assert_true(npuc_tok_punct(npuc_peek2(&lx), '('));
  assert_true(npuc_tok_keyword(npuc_peek(&lx), "a")); /* still next */
  npuc_token got = npuc_lex(&lx);
  assert_true(got.start == a.start && got.len == a.len);
  assert_true(got.line_start);
  assert_true(lx.cur == s + 1);
  npuc_lexer copy = lx; /* a copy carries the lookahead along */
  assert_true(npuc_tok_punct(npuc_peek(&lx), '('));
  assert_true(npuc_tok_punct(npuc_lex(&copy), '('));
  assert_true(npuc_tok_punct(npuc_lex(&lx), '('));
  npuc_token b = npuc_peek(&lx); /* across the newline */
  assert_int_equal(b.kind, NPUC_TOK_PERCENT_ID);
  assert_int_equal(b.line, 8);
  assert_int_equal(b.col, 3);
  assert_true(b.line_start);
  assert_int_equal(lx.line, 7); /* peeking moved nothing */
  npuc_lex(&lx);
  assert_int_equal(lx.line, 8);
  assert_int_equal(npuc_peek(&lx).kind, NPUC_TOK_ARROW);
  lx.cur = s; /* moved by hand: the lookahead is dropped */
  lx.line = 7;
  lx.line_begin = s;
  lx.peeked = false;
  assert_true(npuc_tok_keyword(npuc_lex(&lx), "a"));
  while (npuc_lex(&lx).kind != NPUC_TOK_EOF)
    ;
  assert_int_equal(npuc_peek(&lx).kind, NPUC_TOK_EOF); /* and stays there */
  assert_int_equal(npuc_lex(&lx).kind, NPUC_TOK_EOF);
}

static void custom_to_generic(void **state) {
  (void)state;
  const char *in = "%0 = hivm.hir.vbrc ins(%a : f32) outs(%e : tensor<4xf32>) "
                   "broadcast_dims = [0] -> tensor<4xf32>\n";
  npuc_source_form form;
  int pos[2] = {0, 0};
  char *out = to_mlir(in, &form, NULL, pos);
  assert_non_null(out);
  assert_string_equal(
      out, "%0 = \"hivm.hir.vbrc\"(%a, %e) {broadcast_dims = array<i64: 0>, "
           "operandSegmentSizes = array<i32: 1, 1, 0>} : (f32, tensor<4xf32>) "
           "-> tensor<4xf32>\n");
  free(out);
}

/* Memory-space values are skipped a byte at a time where that ends where
 * the token loop ends (brackets, `->`, strings, newlines), by the token
 * loop otherwise (a comment): the same spaces are quoted either way. */
static void memory_spaces_read_alike(void **state) {
  (void)state;
  const char *in = "func.func @f(%a: memref<4xf32, affine_map<(d0) -> (d0)>, "
                   "#hivm.address_space<ub>>,\n"
                   "  %b: memref<4xf32, strided<[1], offset: ?>,\n"
                   "    #hivm.address_space<gm>>,\n"
                   "  %c: memref<4xf32, #hivm.address_space<cbuf> // l1\n"
                   "  >, %d: memref<4xf32, \"#hivm.address_space<ub>\">)\n";
  int pos[2] = {0, 0};
  char *out = to_mlir(in, NULL, NULL, pos);
  assert_non_null(out);
  assert_string_equal(
      out, "func.func @f(%a: memref<4xf32, affine_map<(d0) -> (d0)>, "
           "\"#hivm.address_space<ub>\">,\n"
           "  %b: memref<4xf32, strided<[1], offset: ?>,\n"
           "    \"#hivm.address_space<gm>\">,\n"
           "  %c: memref<4xf32, \"#hivm.address_space<cbuf>\" // l1\n"
           "  >, %d: memref<4xf32, \"#hivm.address_space<ub>\">)\n");
  free(out);
}

static void keeps_lines(void **state) {
  (void)state;
  const char *in = "hivm.hir.set_ctrl\n  true\n  at ctrl[1]\n%x = foo\n";
  int pos[2] = {0, 0};
  char *out = to_mlir(in, NULL, NULL, pos);
  assert_non_null(out);
  assert_string_equal(out, "\"hivm.hir.set_ctrl\"() {enable = true, idx = 1 : "
                           "i64} : () -> ()\n\n\n%x = foo\n");
  free(out);
}

/* A rewrite earlier on the line moves the op: it then carries its
 * original position explicitly. */
static void shifted_op_keeps_its_location(void **state) {
  (void)state;
  const char *in = "func.func @f(%a: memref<4xf32, #hivm.address_space<ub>>) { "
                   "%1 = hivm.hir.get_block_idx -> i64\n  return\n}\n";
  int pos[2] = {0, 0};
  char *out = to_mlir(in, NULL, NULL, pos);
  assert_non_null(out);
  char want[128];
  snprintf(want, sizeof want,
           "\"hivm.hir.get_block_idx\"() : () -> i64 "
           "loc(\"t.mlir\":1:%d)",
           (int)(strstr(in, "hivm.hir") - in) + 1);
  assert_non_null(strstr(out, want));
  free(out);
}

static void source_map_points_back(void **state) {
  (void)state;
  /* The type of %e moves left in the generic form; a position inside it
   * must map to where the user wrote it. */
  const char *in = "%0 = hivm.hir.vexp ins(%a : tensor<4xf32>)\n"
                   "    outs(%e : tensor<4xf32>) -> tensor<4xf32>\n";
  npuc_srcmap *map = NULL;
  int pos[2] = {0, 0};
  char *out = to_mlir(in, NULL, &map, pos);
  assert_non_null(out);
  const char *e = strstr(out, ", %e)");
  assert_non_null(e);
  int gen_col = (int)(e + 2 - out) + 1;
  int line, col;
  npuc_srcmap_lookup(map, 1, gen_col, &line, &col);
  assert_int_equal(line, 2);
  assert_int_equal(col, 10);
  npuc_srcmap_free(map);
  free(out);
}

static void reports_error_position(void **state) {
  (void)state;
  int pos[2] = {0, 0};
  char *out =
      to_mlir("\n  hivm.hir.set_ctrl true at ctl[1]\n", NULL, NULL, pos);
  assert_null(out);
  assert_int_equal(pos[0], 2); /* at `ctl`: expected `ctrl` */
  assert_int_equal(pos[1], 29);
}

/* parses_alone for the alias test: every text but those naming `bad`. */
static bool parses_unless_bad(void *user, const char *text, size_t len,
                              bool is_type) {
  (void)is_type;
  ++*(int *)user;
  for (size_t i = 0; i + 3 <= len; ++i)
    if (memcmp(text + i, "bad", 3) == 0)
      return false;
  return true;
}

/* Types and attributes with parameters are defined once as aliases in
 * front of the first line (asked about once each); the first line's
 * positions map back past them; a text that does not parse alone stays in
 * place. */
static void aliases_defined_once(void **state) {
  (void)state;
  int asked = 0;
  npuc_syntax_options opts = {registry(), "t.mlir",          1,
                              NULL,       parses_unless_bad, &asked};
  const char *in = "func.func @f(%a: tensor<4xf32>) {\n"
                   "  %0 = hivm.hir.vexp ins(%a : tensor<4xf32>) outs(%a : "
                   "tensor<4xf32>) -> tensor<4xf32>\n"
                   "  %1 = hivm.hir.vexp ins(%a : tensor<4xf32>) outs(%a : "
                   "tensor<4xf32>) -> tensor<4xf32>\n"
                   "  %2 = hivm.hir.vexp ins(%a : tensor<4xbad>) outs(%a : "
                   "tensor<4xbad>) -> tensor<4xbad>\n"
                   "}\n";
  npuc_srcmap *map = NULL;
  char *out = npuc_syntax_to_mlir(&opts, in, strlen(in), NULL, &map);
  assert_non_null(out);
  const char *defs = "#__npuc_0 = array<i32: 1, 1, 0> !__npuc_1 = "
                     "(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> ";
  assert_memory_equal(out, defs, strlen(defs));
  assert_non_null(strstr(out, "%0 = \"hivm.hir.vexp\"(%a, %a) "
                              "{operandSegmentSizes = #__npuc_0} : "
                              "!__npuc_1\n"));
  assert_non_null(strstr(out, "%1 = \"hivm.hir.vexp\"(%a, %a) "
                              "{operandSegmentSizes = #__npuc_0} : "
                              "!__npuc_1\n"));
  assert_non_null(strstr(out, ": (tensor<4xbad>, tensor<4xbad>) -> "
                              "tensor<4xbad>\n"));
  /* The sizes and the signature, then the bad signature and its type. */
  assert_int_equal(asked, 4);
  int line, col;
  npuc_srcmap_lookup(map, 1, (int)strlen(defs) + 14, &line, &col);
  assert_int_equal(line, 1);
  assert_int_equal(col, 14); /* %a */
  npuc_srcmap_free(map);
  free(out);
}

static void generic_to_custom(void **state) {
  (void)state;
  const char *in =
      "    %1 = \"hivm.hir.vreduce\"(%0, %e) {arith = "
      "#hivm.reduce_op<max>, operandSegmentSizes = array<i32: 1, 1, 0, 0>,"
      " reduce_dims = array<i64: 1>, tag} : (tensor<4x8xf32>, "
      "tensor<4x1xf32>) -> tensor<4x1xf32>\n";
  char *out = npuc_syntax_from_mlir(registry(), in, strlen(in), NULL, NULL);
  assert_string_equal(out, "    %1 = hivm.hir.vreduce {tag} <max> ins(%0 : "
                           "tensor<4x8xf32>) outs(%e : tensor<4x1xf32>) "
                           "reduce_dims = [1] -> tensor<4x1xf32>\n");
  free(out);
}

static void unfit_generic_stays_generic(void **state) {
  (void)state;
  /* Without operandSegmentSizes the groups are unknown: keep it generic. */
  const char *in =
      "%1 = \"hivm.hir.vadd\"(%0, %0, %0) : (f32, f32, f32) -> f32\n";
  char *out = npuc_syntax_from_mlir(registry(), in, strlen(in), NULL, NULL);
  assert_string_equal(out, in);
  free(out);
}

static void legacy_forms_round_trip(void **state) {
  (void)state;
  const char *in = "%t = bufferization.to_tensor %m restrict : memref<4x?xf32, "
                   "strided<[?, 1]>, #hivm.address_space<ub>>\n";
  npuc_source_form form;
  int pos[2] = {0, 0};
  char *mlir = to_mlir(in, &form, NULL, pos);
  assert_non_null(mlir);
  assert_true(form.legacy_to_tensor);
  assert_false(form.legacy_target_spec);
  assert_string_equal(mlir,
                      "%t = bufferization.to_tensor %m restrict : "
                      "memref<4x?xf32, strided<[?, 1]>, "
                      "\"#hivm.address_space<ub>\"> to tensor<4x?xf32>\n");
  char *back =
      npuc_syntax_from_mlir(registry(), mlir, strlen(mlir), &form, NULL);
  assert_string_equal(back, in);
  free(back);
  free(mlir);
}

/* Every op of every table is exercised by a round-trip lit test. */
static void every_op_has_a_round_trip_test(void **state) {
  (void)state;
  char here[4096];
  snprintf(here, sizeof here, "%s", __FILE__);
  char *test_dir = dirname(dirname(here));
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "cat %s/lit/Dialect/*/roundtrip*.mlir 2>/dev/null",
           test_dir);
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  size_t cap = 1 << 16, len = 0;
  char *all = malloc(cap);
  size_t n;
  while ((n = fread(all + len, 1, cap - len - 1, p)) > 0) {
    len += n;
    if (len + 1 == cap)
      all = realloc(all, cap *= 2);
  }
  all[len] = '\0';
  pclose(p);
  const npuc_op_registry *reg = registry();
  int missing = 0;
  for (size_t d = 0; d < npuc_op_registry_num_dialects(reg); ++d) {
    const npuc_dialect_def *dial = npuc_op_registry_dialect(reg, d);
    for (size_t i = 0; i < dial->num_ops; ++i) {
      char needle[256];
      snprintf(needle, sizeof needle, "%s ", dial->ops[i].name);
      char needle2[256];
      snprintf(needle2, sizeof needle2, "%s\n", dial->ops[i].name);
      char needle3[256];
      snprintf(needle3, sizeof needle3, "%s[", dial->ops[i].name);
      char needle4[256];
      snprintf(needle4, sizeof needle4, "%s(", dial->ops[i].name);
      char needle5[256]; /* aie.connect<South : 0, Core : 1> */
      snprintf(needle5, sizeof needle5, "%s<", dial->ops[i].name);
      if (!strstr(all, needle) && !strstr(all, needle2) &&
          !strstr(all, needle3) && !strstr(all, needle4) &&
          !strstr(all, needle5)) {
        fprintf(stderr, "no round-trip test uses %s\n", dial->ops[i].name);
        ++missing;
      }
    }
  }
  free(all);
  assert_int_equal(missing, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(lexer_spans),
      cmocka_unit_test(lexer_errors_do_not_stop),
      cmocka_unit_test(lexer_lookahead),
      cmocka_unit_test(custom_to_generic),
      cmocka_unit_test(memory_spaces_read_alike),
      cmocka_unit_test(keeps_lines),
      cmocka_unit_test(shifted_op_keeps_its_location),
      cmocka_unit_test(source_map_points_back),
      cmocka_unit_test(reports_error_position),
      cmocka_unit_test(aliases_defined_once),
      cmocka_unit_test(generic_to_custom),
      cmocka_unit_test(unfit_generic_stays_generic),
      cmocka_unit_test(legacy_forms_round_trip),
      cmocka_unit_test(every_op_has_a_round_trip_test),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
