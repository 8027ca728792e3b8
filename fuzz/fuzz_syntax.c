/* libFuzzer harness for the MLIR-free half of npuc: the text checks, the
 * `// -----` splitter and both directions of the syntax engine. It follows
 * what npuc-opt does with a file (check text, split, rewrite each chunk for
 * MLIR) and then prints back, both from the engine's own output and from
 * the raw chunk, since npuc_syntax_from_mlir must not crash on any text. */
#include "npuc/OpTable.h"
#include "npuc/Syntax.h"
#include "npuc/ToolSupport.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void discard(void *user, npuc_severity sev, const char *file, int line,
                    int col, const char *message) {
  (void)user, (void)sev, (void)file, (void)line, (void)col, (void)message;
}

static const npuc_diag_sink quiet = {discard, NULL};

/* An exact-size copy, so ASan sees any read past `len` (in the tool the
 * next chunk's bytes would follow and hide it). */
static char *exact_copy(const char *s, size_t len) {
  char *p = malloc(len ? len : 1);
  if (len)
    memcpy(p, s, len);
  return p;
}

static void run_chunk(const npuc_op_registry *reg, const npuc_chunk *c) {
  char *text = exact_copy(c->text, c->len);
  npuc_syntax_options opts = {reg,    "fuzz.mlir", c->first_line,
                              &quiet, NULL,        NULL};
  npuc_source_form form;
  npuc_srcmap *map = NULL;
  char *mlir = npuc_syntax_to_mlir(&opts, text, c->len, &form, &map);
  if (mlir) {
    /* The source map must answer for any position, in range or not. */
    int line, col;
    npuc_srcmap_lookup(map, c->first_line, 1, &line, &col);
    npuc_srcmap_lookup(map, c->first_line + 1000, 7, &line, &col);
    size_t n = strlen(mlir);
    char *back_in = exact_copy(mlir, n);
    size_t back_len;
    free(npuc_syntax_from_mlir(reg, back_in, n, &form, &back_len));
    free(back_in);
    free(mlir);
    npuc_srcmap_free(map);
  } else {
    memset(&form, 0, sizeof form);
  }
  size_t out_len;
  free(npuc_syntax_from_mlir(reg, text, c->len, &form, &out_len));
  free(npuc_syntax_from_mlir(reg, text, c->len, NULL, &out_len));
  free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const npuc_op_registry *reg;
  if (!reg && !(reg = npuc_builtin_op_registry(NULL)))
    abort(); /* the built-in tables must load */
  /* npuc-opt hands the engine only text: NUL-terminated, UTF-8, no NUL. */
  char *buf = malloc(size + 1);
  memcpy(buf, data, size);
  buf[size] = '\0';
  if (npuc_check_text(buf, size, "fuzz.mlir", &quiet)) {
    npuc_chunk *chunks = NULL;
    size_t n =
        npuc_split_input(buf, size, "// -----", "fuzz.mlir", &quiet, &chunks);
    for (size_t i = 0; i < n; i++)
      run_chunk(reg, &chunks[i]);
    free(chunks);
  }
  free(buf);
  return 0;
}
