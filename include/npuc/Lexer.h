/* A lexer for MLIR's textual IR. It never copies: tokens are spans of the
 * input, so the syntax engine can reproduce any piece of the source exactly.
 * It knows just enough of MLIR's token grammar to find balanced types and
 * attributes; it does not interpret them. */
#ifndef NPUC_LEXER_H
#define NPUC_LEXER_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
  NPUC_TOK_EOF,
  NPUC_TOK_ERROR,      /* unterminated string, stray byte, ... */
  NPUC_TOK_BARE_ID,    /* foo, foo.bar, i32, x8xf32 */
  NPUC_TOK_PERCENT_ID, /* %x, %0, %x#1, %x:2 is PERCENT_ID PUNCT(:) INT */
  NPUC_TOK_HASH_ID,    /* #map, #hivm.address_space */
  NPUC_TOK_BANG_ID,    /* !llvm.ptr */
  NPUC_TOK_CARET_ID,   /* ^bb0 */
  NPUC_TOK_AT_ID,      /* @sym, @"sym" */
  NPUC_TOK_INTEGER,
  NPUC_TOK_FLOAT,
  NPUC_TOK_STRING,     /* "..." including the quotes */
  NPUC_TOK_ARROW,      /* -> */
  NPUC_TOK_GE,         /* >= (affine sets), so it never closes a '<' */
  NPUC_TOK_META_BEGIN, /* {-# */
  NPUC_TOK_META_END,   /* #-} */
  NPUC_TOK_PUNCT,      /* one character: ( ) [ ] { } < > : , = ? * + - | */
} npuc_tok_kind;

typedef struct {
  npuc_tok_kind kind;
  const char *start;
  size_t len;
  int line;        /* 1-based */
  int col;         /* 1-based, in bytes */
  bool line_start; /* first token on its line */
} npuc_token;

/* The lexer holds one token of lookahead: npuc_peek lexes the next token
 * into it, npuc_lex hands it over, so each token is lexed once however
 * often it is peeked. Code that moves `cur` (or `line`, `line_begin`)
 * itself clears `peeked`. */
typedef struct {
  const char *buf;
  const char *end;
  const char *cur;
  const char *line_begin;
  int line;
  bool peeked;
  npuc_token peek_tok;
  /* Where the lexer stands after peek_tok. */
  const char *peek_cur, *peek_line_begin;
  int peek_line;
} npuc_lexer;

void npuc_lexer_init(npuc_lexer *lx, const char *buf, size_t len,
                     int first_line);
/* Lexes the next token into the lookahead (npuc_peek and npuc_lex call it
 * when it is empty). */
void npuc_lex_fill(npuc_lexer *lx);
npuc_token npuc_peek2(const npuc_lexer *lx);

/* Next token, consumed. */
static inline npuc_token npuc_lex(npuc_lexer *lx) {
  if (!lx->peeked)
    npuc_lex_fill(lx);
  lx->peeked = false;
  lx->cur = lx->peek_cur;
  lx->line = lx->peek_line;
  lx->line_begin = lx->peek_line_begin;
  return lx->peek_tok;
}

/* Next token without consuming it. Lexers are never const objects; the
 * lookahead does not change what the lexer returns, only how fast. */
static inline npuc_token npuc_peek(const npuc_lexer *lx) {
  if (!lx->peeked)
    npuc_lex_fill((npuc_lexer *)lx);
  return lx->peek_tok;
}

static inline bool npuc_tok_is(npuc_token t, npuc_tok_kind kind,
                               const char *text) {
  size_t n = __builtin_strlen(text); /* folded for the usual literal */
  return t.kind == kind && t.len == n &&
         __builtin_memcmp(t.start, text, n) == 0;
}

static inline bool npuc_tok_punct(npuc_token t, char c) {
  return t.kind == NPUC_TOK_PUNCT && t.start[0] == c;
}

static inline bool npuc_tok_keyword(npuc_token t, const char *word) {
  return npuc_tok_is(t, NPUC_TOK_BARE_ID, word);
}

#endif
