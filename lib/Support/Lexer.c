/* MLIR token lexer: spans only, no copies. See npuc/Lexer.h. */
#include "npuc/Lexer.h"

static void skip_trivia(npuc_lexer *lx, bool *saw_newline);
static npuc_token lex_token(npuc_lexer *lx);
static npuc_token make(npuc_lexer *lx, npuc_tok_kind kind, const char *start);
static const char *scan_suffix_id(const char *p, const char *end);
static const char *scan_number(const char *p, const char *end, bool *is_float);
static const char *scan_string(const char *p, const char *end);

void npuc_lexer_init(npuc_lexer *lx, const char *buf, size_t len,
                     int first_line) {
  lx->buf = buf;
  lx->end = buf + len;
  lx->cur = buf;
  lx->line_begin = buf;
  lx->line = first_line > 0 ? first_line : 1;
  lx->peeked = false;
}

void npuc_lex_fill(npuc_lexer *lx) {
  /* Lexing reads and moves cur, line and line_begin: it runs on a copy of
   * them, which becomes the lookahead's end position. */
  npuc_lexer at;
  at.buf = lx->buf;
  at.end = lx->end;
  at.cur = lx->cur;
  at.line_begin = lx->line_begin;
  at.line = lx->line;
  /* A token is first on its line if trivia with a newline precedes it, or
   * nothing does (the start of the buffer or span). */
  bool newline = at.cur == at.buf;
  skip_trivia(&at, &newline);
  lx->peek_tok = lex_token(&at);
  lx->peek_tok.line_start = newline;
  lx->peek_cur = at.cur;
  lx->peek_line = at.line;
  lx->peek_line_begin = at.line_begin;
  lx->peeked = true;
}

npuc_token npuc_peek2(const npuc_lexer *lx) {
  npuc_lexer copy = *lx;
  npuc_lex(&copy);
  return npuc_peek(&copy);
}

static void skip_trivia(npuc_lexer *lx, bool *saw_newline) {
  const char *p = lx->cur;
  while (p < lx->end) {
    char c = *p;
    if (c == '\n') {
      ++p;
      lx->line++;
      lx->line_begin = p;
      *saw_newline = true;
    } else if (c == ' ' || c == '\t' || c == '\r') {
      ++p;
    } else if (c == '/' && p + 1 < lx->end && p[1] == '/') {
      while (p < lx->end && *p != '\n')
        ++p;
    } else {
      break;
    }
  }
  lx->cur = p;
}

/* Character classes, one table lookup per byte: identifiers are most of
 * the text, and every byte of them is tested. */
enum { ID_START = 1, ID_CHAR = 2, DIGIT = 4 };
enum { C_LET = ID_START | ID_CHAR, C_DIG = ID_CHAR | DIGIT, C_SYM = ID_CHAR };
static const unsigned char char_class[256] = {
    ['a'] = C_LET, ['b'] = C_LET, ['c'] = C_LET, ['d'] = C_LET, ['e'] = C_LET,
    ['f'] = C_LET, ['g'] = C_LET, ['h'] = C_LET, ['i'] = C_LET, ['j'] = C_LET,
    ['k'] = C_LET, ['l'] = C_LET, ['m'] = C_LET, ['n'] = C_LET, ['o'] = C_LET,
    ['p'] = C_LET, ['q'] = C_LET, ['r'] = C_LET, ['s'] = C_LET, ['t'] = C_LET,
    ['u'] = C_LET, ['v'] = C_LET, ['w'] = C_LET, ['x'] = C_LET, ['y'] = C_LET,
    ['z'] = C_LET, ['A'] = C_LET, ['B'] = C_LET, ['C'] = C_LET, ['D'] = C_LET,
    ['E'] = C_LET, ['F'] = C_LET, ['G'] = C_LET, ['H'] = C_LET, ['I'] = C_LET,
    ['J'] = C_LET, ['K'] = C_LET, ['L'] = C_LET, ['M'] = C_LET, ['N'] = C_LET,
    ['O'] = C_LET, ['P'] = C_LET, ['Q'] = C_LET, ['R'] = C_LET, ['S'] = C_LET,
    ['T'] = C_LET, ['U'] = C_LET, ['V'] = C_LET, ['W'] = C_LET, ['X'] = C_LET,
    ['Y'] = C_LET, ['Z'] = C_LET, ['_'] = C_LET, ['0'] = C_DIG, ['1'] = C_DIG,
    ['2'] = C_DIG, ['3'] = C_DIG, ['4'] = C_DIG, ['5'] = C_DIG, ['6'] = C_DIG,
    ['7'] = C_DIG, ['8'] = C_DIG, ['9'] = C_DIG, ['$'] = C_SYM, ['.'] = C_SYM,
};

static bool is_id_start(char c) {
  return char_class[(unsigned char)c] & ID_START;
}

static bool is_id_char(char c) {
  return char_class[(unsigned char)c] & ID_CHAR;
}

static bool is_digit(char c) { return char_class[(unsigned char)c] & DIGIT; }

static npuc_token lex_sigil_id(npuc_lexer *lx, const char *p);
static npuc_token lex_hash(npuc_lexer *lx, const char *p);
static npuc_token lex_string(npuc_lexer *lx, const char *start,
                             const char *quote, npuc_tok_kind kind);
static npuc_token lex_punct(npuc_lexer *lx, const char *p);
static bool is_punct(char c);

static npuc_token lex_token(npuc_lexer *lx) {
  const char *p = lx->cur, *end = lx->end;
  if (p >= end)
    return make(lx, NPUC_TOK_EOF, p);
  char c = *p;
  if (is_id_start(c)) {
    const char *q = p + 1;
    while (q < end && is_id_char(*q))
      ++q;
    lx->cur = q;
    return make(lx, NPUC_TOK_BARE_ID, p);
  }
  if (is_digit(c)) {
    bool is_float = false;
    lx->cur = scan_number(p, end, &is_float);
    return make(lx, is_float ? NPUC_TOK_FLOAT : NPUC_TOK_INTEGER, p);
  }
  switch (c) {
  case '%':
  case '^':
  case '!':
  case '@': return lex_sigil_id(lx, p);
  case '#': return lex_hash(lx, p);
  case '"': return lex_string(lx, p, p, NPUC_TOK_STRING);
  default: return lex_punct(lx, p);
  }
}

/* %value, ^block, !type, @symbol or @"symbol"; %x#1 names one result of a
 * multi-result op. */
static npuc_token lex_sigil_id(npuc_lexer *lx, const char *p) {
  const char *end = lx->end;
  char c = *p;
  if (c == '@' && p + 1 < end && p[1] == '"')
    return lex_string(lx, p, p + 1, NPUC_TOK_AT_ID);
  const char *q = scan_suffix_id(p + 1, end);
  if (q == p + 1) {
    lx->cur = p + 1;
    return make(lx, NPUC_TOK_ERROR, p);
  }
  if (c == '%' && q < end && *q == '#' && q + 1 < end && is_digit(q[1])) {
    ++q;
    while (q < end && is_digit(*q))
      ++q;
  }
  lx->cur = q;
  npuc_tok_kind kind = c == '%'   ? NPUC_TOK_PERCENT_ID
                       : c == '^' ? NPUC_TOK_CARET_ID
                       : c == '!' ? NPUC_TOK_BANG_ID
                                  : NPUC_TOK_AT_ID;
  return make(lx, kind, p);
}

/* #attr, or the end of a {-# ... #-} block. */
static npuc_token lex_hash(npuc_lexer *lx, const char *p) {
  const char *end = lx->end;
  if (p + 1 < end && p[1] == '-' && p + 2 < end && p[2] == '}') {
    lx->cur = p + 3;
    return make(lx, NPUC_TOK_META_END, p);
  }
  const char *q = scan_suffix_id(p + 1, end);
  lx->cur = q == p + 1 ? p + 1 : q;
  return make(lx, q == p + 1 ? NPUC_TOK_ERROR : NPUC_TOK_HASH_ID, p);
}

/* A token from `start` ending with the quoted string at `quote`;
 * unterminated, the rest of the input is an error. */
static npuc_token lex_string(npuc_lexer *lx, const char *start,
                             const char *quote, npuc_tok_kind kind) {
  const char *q = scan_string(quote, lx->end);
  lx->cur = q ? q : lx->end;
  return make(lx, q ? kind : NPUC_TOK_ERROR, start);
}

/* ->, >=, {-#, or one punctuation character; anything else is an error. */
static npuc_token lex_punct(npuc_lexer *lx, const char *p) {
  const char *end = lx->end;
  char c = *p, next = p + 1 < end ? p[1] : '\0';
  if (c == '-' && next == '>') {
    lx->cur = p + 2;
    return make(lx, NPUC_TOK_ARROW, p);
  }
  if (c == '>' && next == '=') {
    lx->cur = p + 2;
    return make(lx, NPUC_TOK_GE, p);
  }
  if (c == '{' && next == '-' && p + 2 < end && p[2] == '#') {
    lx->cur = p + 3;
    return make(lx, NPUC_TOK_META_BEGIN, p);
  }
  lx->cur = p + 1;
  return make(lx, is_punct(c) ? NPUC_TOK_PUNCT : NPUC_TOK_ERROR, p);
}

static bool is_punct(char c) {
  switch (c) {
  case '(':
  case ')':
  case '[':
  case ']':
  case '{':
  case '}':
  case '<':
  case '>':
  case ':':
  case ',':
  case '=':
  case '?':
  case '*':
  case '+':
  case '-':
  case '|':
  case '.': return true;
  default: return false;
  }
}

static npuc_token make(npuc_lexer *lx, npuc_tok_kind kind, const char *start) {
  npuc_token t;
  t.kind = kind;
  t.start = start;
  t.len = (size_t)(lx->cur - start);
  t.line = lx->line;
  t.col = (int)(start - lx->line_begin) + 1;
  t.line_start = false;
  return t;
}

/* Suffix ids: %0, %arg, %foo.bar, %"quoted" is not MLIR; digits or ids. */
static const char *scan_suffix_id(const char *p, const char *end) {
  const char *q = p;
  if (q < end && is_digit(*q)) {
    while (q < end && is_digit(*q))
      ++q;
    return q;
  }
  if (q < end && (is_id_start(*q) || *q == '$' || *q == '.' || *q == '-')) {
    ++q;
    while (q < end && (is_id_char(*q) || *q == '-')) {
      if (*q == '-' && q + 1 < end && q[1] == '>')
        break;
      ++q;
    }
  }
  return q;
}

static const char *scan_number(const char *p, const char *end, bool *is_float) {
  const char *q = p;
  if (q + 2 < end && q[0] == '0' && q[1] == 'x' &&
      ((q[2] >= '0' && q[2] <= '9') || (q[2] >= 'a' && q[2] <= 'f') ||
       (q[2] >= 'A' && q[2] <= 'F'))) {
    q += 2;
    while (q < end && ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f') ||
                       (*q >= 'A' && *q <= 'F')))
      ++q;
    return q;
  }
  while (q < end && is_digit(*q))
    ++q;
  if (q < end && *q == '.') {
    *is_float = true;
    ++q;
    while (q < end && is_digit(*q))
      ++q;
    if (q < end && (*q == 'e' || *q == 'E')) {
      const char *r = q + 1;
      if (r < end && (*r == '+' || *r == '-'))
        ++r;
      if (r < end && is_digit(*r)) {
        q = r;
        while (q < end && is_digit(*q))
          ++q;
      }
    }
  }
  return q;
}

static const char *scan_string(const char *p, const char *end) {
  const char *q = p + 1;
  while (q < end) {
    if (*q == '\\') {
      q += 2;
      continue;
    }
    if (*q == '"')
      return q + 1;
    if (*q == '\n')
      return NULL;
    ++q;
  }
  return NULL;
}
