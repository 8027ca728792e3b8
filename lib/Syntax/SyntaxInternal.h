/* Pieces shared by both directions of the syntax engine. Not public. */
#ifndef NPUC_SYNTAX_INTERNAL_H
#define NPUC_SYNTAX_INTERNAL_H

#include "npuc/Lexer.h"
#include "npuc/OpTable.h"
#include "npuc/Syntax.h"

#include <stdbool.h>
#include <stddef.h>

/* ---- output text with position tracking -------------------------------- */

typedef struct {
  int gen_line, gen_col;   /* position in the rewritten text */
  int orig_line, orig_col; /* the same point in the user's source */
} npuc_anchor;

struct npuc_srcmap {
  npuc_anchor *anchors;
  size_t len, cap;
  /* Alias definitions moved line `prefix_line` right by `prefix_cols`. */
  int prefix_line, prefix_cols;
};

typedef struct {
  char *data;
  size_t len, cap;
  int line, col;    /* position of the next byte appended (with a map) */
  npuc_srcmap *map; /* NULL: positions are not tracked */
} npuc_textbuf;

void npuc_tb_init(npuc_textbuf *tb, size_t reserve, int first_line,
                  npuc_srcmap *map);
void npuc_tb_append(npuc_textbuf *tb, const char *s, size_t n);
/* Inline, so the length of a literal is known when compiling. */
static inline void npuc_tb_puts(npuc_textbuf *tb, const char *s) {
  npuc_tb_append(tb, s, __builtin_strlen(s));
}
void npuc_tb_putc(npuc_textbuf *tb, char c);
/* Records that the next byte appended comes from orig_line:orig_col. */
void npuc_tb_anchor(npuc_textbuf *tb, int orig_line, int orig_col);
char *npuc_tb_take(npuc_textbuf *tb, size_t *len);
void npuc_tb_free(npuc_textbuf *tb);

/* ---- token-level scanning ---------------------------------------------- */

/* Skips a balanced construct opened by `open` (already consumed): returns
 * the closing token, or an EOF/ERROR token when unbalanced. */
npuc_token npuc_skip_balanced(npuc_lexer *lx, char open);
/* Skips one type starting at the next token; returns false if none. The span
 * is [*start, *end). */
bool npuc_skip_type(npuc_lexer *lx, const char **start, const char **end);
/* Skips one attribute value (stops before ',' ')' ']' '}' '>' at depth 0,
 * and before a bare `:` only when `stop_at_colon`). */
bool npuc_skip_attr_value(npuc_lexer *lx, const char **start, const char **end,
                          bool stop_at_colon);

/* Is a '{' that was just consumed the start of a region (not a dict)? */
bool npuc_brace_opens_region(const npuc_lexer *lx, const npuc_op_registry *reg);
/* Does an op name (bare id) belong to one of our tables' op prefixes? */
bool npuc_is_table_op_name(const npuc_op_registry *reg, npuc_token tok);

/* ---- bracket context --------------------------------------------------- */

typedef struct {
  char *kinds; /* '(' '[' '<' 'r' (region) 'd' (dict) */
  size_t len, cap;
} npuc_ctx_stack;

void npuc_ctx_push(npuc_ctx_stack *s, char kind);
char npuc_ctx_top(const npuc_ctx_stack *s); /* 'r' when empty (top level) */
void npuc_ctx_pop(npuc_ctx_stack *s);
void npuc_ctx_free(npuc_ctx_stack *s);

/* ---- type and attribute text rewrites ---------------------------------- */

typedef enum { NPUC_TO_MLIR, NPUC_FROM_MLIR } npuc_direction;

/* Checks each attribute of a dialect with attrdefs where the text writes
 * it (AttrScan.c); reports the first invalid one at its line and column. */
bool npuc_syntax_check_attrs(const npuc_syntax_options *opts, const char *text,
                             size_t len);

/* Copies [start, end) to `out`, rewriting what MLIR 22 cannot take (or
 * restoring it, FROM_MLIR): memory spaces of our dialects inside memref<..>
 * are quoted as strings, and the legacy DLTI target spec is modernised. */
void npuc_rewrite_span(npuc_textbuf *out, const char *start, const char *end,
                       int line, int col, npuc_direction dir,
                       const npuc_op_registry *reg, npuc_source_form *form);

/* Counts newlines in [start, end). */
int npuc_count_lines(const char *start, const char *end);

/* ---- older upstream ops (LegacyOps.c) ---------------------------------- */

#include "npuc/StringBuilder.h"

/* Is `name` an op MLIR 22 dropped that we modernise on reading? */
bool npuc_legacy_op_name(const char *name, size_t n);
/* Could `name` be the MLIR 22 op a modernised one became? */
bool npuc_legacy_printed_name(const char *name, size_t n);
/* After `linalg.elementwise`: false, with the reason in `why`, when MLIR
 * 22 cannot build the op (its parser would crash); true otherwise,
 * including text it does not recognise. Does not move lx. */
bool npuc_legacy_check_elementwise(npuc_lexer *lx, npuc_sb *why);
/* Reads the old op after `name` (lx just past it): on success `out` holds
 * the MLIR 22 text replacing [name.start, lx->cur) and lx is advanced;
 * `form` records what was seen. On failure `out` holds the error to report
 * at the name (what MLIR 22 replaced the op by, what was expected). */
bool npuc_legacy_modernise(npuc_token name, npuc_lexer *lx, npuc_sb *out,
                           npuc_source_form *form);
/* The alias definitions (`#map = ...`) at the top of MLIR's printout. */
typedef struct npuc_legacy_aliases npuc_legacy_aliases;
npuc_legacy_aliases *npuc_legacy_aliases_new(const char *text, size_t len);
void npuc_legacy_aliases_free(npuc_legacy_aliases *al);
bool npuc_legacy_aliases_dropped(const npuc_legacy_aliases *al);
/* The reverse of npuc_legacy_modernise on MLIR's printout, when `form` says
 * the input was old and the op is one the old op could express. */
bool npuc_legacy_restore(npuc_token name, npuc_lexer *lx,
                         const npuc_source_form *form, npuc_legacy_aliases *al,
                         npuc_sb *out);
/* Removes alias lines nothing refers to any more; returns the new length. */
size_t npuc_legacy_drop_unused_aliases(npuc_legacy_aliases *al, char *text,
                                       size_t len);

#endif
