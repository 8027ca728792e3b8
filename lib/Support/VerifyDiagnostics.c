/* mlir-opt's --verify-diagnostics in C, with its rules for where an
 * expectation applies (mlir/lib/IR/Diagnostics.cpp): a comment line
 *   // expected-error {{text}}
 * expects a diagnostic on its own line; @+N / @-N shift that, @above is the
 * last line that carries no expectation, @below the next such line, and
 * @unknown matches diagnostics without a file location. A diagnostic
 * matches when the line agrees and the text is a substring of its message
 * (a regex for -re); one expectation may match several diagnostics. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* strdup, strndup */
#endif
#include "npuc/VerifyDiagnostics.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  npuc_severity sev;
  int line;     /* the file line it applies to; 0 for @unknown */
  int src_line; /* where the comment is, for "was not produced" */
  int src_col;
  char *text;
  bool is_regex;
  regex_t regex;
  bool regex_ok;
  bool unknown_loc;
  bool pending_below; /* @below, still waiting for its line */
  bool matched;
} expectation;

typedef struct {
  npuc_severity sev;
  char *file;
  int line, col;
  char *message;
} actual_diag;

struct npuc_diag_verifier {
  char *filename;
  expectation *expected;
  size_t num_expected;
  actual_diag *actual;
  size_t num_actual;
  npuc_diag_sink sink;
  bool malformed; /* an expectation could not be used */
};

/* One parsed `expected-*` designator. */
typedef struct {
  npuc_severity sev;
  bool is_regex;
  enum { AT_HERE, AT_OFFSET, AT_ABOVE, AT_BELOW, AT_UNKNOWN } where;
  int offset;
  size_t col; /* 0-based column of "expected-" */
  const char *text;
  size_t text_len;
} designator;

static void scan_expectations(npuc_diag_verifier *v, const char *text,
                              size_t len, int first_line,
                              const npuc_diag_sink *report);
static void resolve_below(npuc_diag_verifier *v, int line);
static bool parse_designator(const char *line, size_t len, designator *d);
static bool add_expectation(npuc_diag_verifier *v, const designator *d,
                            int target_line, int src_line,
                            const npuc_diag_sink *report);
static void record(void *user, npuc_severity sev, const char *file, int line,
                   int col, const char *message);
static bool check_actual(npuc_diag_verifier *v, const actual_diag *a,
                         const npuc_diag_sink *report);
static bool text_matches(const expectation *e, const char *message);
static bool compile_regex(expectation *e);

/* ---- Public entry points -------------------------------------------- */

npuc_diag_verifier *npuc_diag_verifier_create(const char *filename,
                                              const char *text, size_t len,
                                              int first_line,
                                              const npuc_diag_sink *report) {
  npuc_diag_verifier *v = calloc(1, sizeof *v);
  if (!v)
    return NULL;
  v->filename = strdup(filename ? filename : "-");
  v->sink.fn = record;
  v->sink.user = v;
  scan_expectations(v, text, len, first_line, report);
  return v;
}

const npuc_diag_sink *npuc_diag_verifier_sink(npuc_diag_verifier *v) {
  return &v->sink;
}

bool npuc_diag_verifier_finish(npuc_diag_verifier *v,
                               const npuc_diag_sink *report) {
  bool ok = !v->malformed;
  for (size_t i = 0; i < v->num_actual; i++)
    ok &= check_actual(v, &v->actual[i], report);
  for (size_t i = 0; i < v->num_expected; i++) {
    expectation *e = &v->expected[i];
    if (e->matched || (e->is_regex && !e->regex_ok))
      continue;
    npuc_diag_emit(report, NPUC_SEV_ERROR, v->filename, e->src_line, e->src_col,
                   "expected %s \"%s\" was not produced",
                   npuc_severity_name(e->sev), e->text);
    ok = false;
  }
  return ok;
}

void npuc_diag_verifier_destroy(npuc_diag_verifier *v) {
  if (!v)
    return;
  for (size_t i = 0; i < v->num_expected; i++) {
    if (v->expected[i].regex_ok)
      regfree(&v->expected[i].regex);
    free(v->expected[i].text);
  }
  for (size_t i = 0; i < v->num_actual; i++) {
    free(v->actual[i].file);
    free(v->actual[i].message);
  }
  free(v->expected);
  free(v->actual);
  free(v->filename);
  free(v);
}

/* ---- Reading the expectations --------------------------------------- */

static void scan_expectations(npuc_diag_verifier *v, const char *text,
                              size_t len, int first_line,
                              const npuc_diag_sink *report) {
  int last_plain_line = first_line; /* last line without a designator */
  const char *p = text, *end = text + len;
  int line = first_line;
  for (;; line++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t line_len = (size_t)((nl ? nl : end) - p);
    designator d;
    if (!parse_designator(p, line_len, &d)) {
      resolve_below(v, line); /* the @below ones above apply here */
      last_plain_line = line;
    } else {
      int target = d.where == AT_OFFSET  ? line + d.offset
                   : d.where == AT_ABOVE ? last_plain_line
                                         : line;
      add_expectation(v, &d, target, line, report);
    }
    if (!nl)
      break;
    p = nl + 1;
  }
  /* Dangling @below: like mlir-opt, they point at the last line. */
  resolve_below(v, line);
}

static void resolve_below(npuc_diag_verifier *v, int line) {
  for (size_t i = 0; i < v->num_expected; i++)
    if (v->expected[i].pending_below) {
      v->expected[i].line = line;
      v->expected[i].pending_below = false;
    }
}

static bool starts_with(const char *p, const char *end, const char *word) {
  size_t n = strlen(word);
  return (size_t)(end - p) >= n && memcmp(p, word, n) == 0;
}

/* Matches mlir-opt's pattern, anywhere in the line:
 *   expected-(error|note|remark|warning)(-re)? *
 *     (@([+-][0-9]+|above|below|unknown))? *{{(.*)}}$           */
static bool parse_at(const char *p, const char *end, designator *d) {
  static const struct {
    const char *word;
    npuc_severity sev;
  } kinds[] = {{"error", NPUC_SEV_ERROR},
               {"note", NPUC_SEV_NOTE},
               {"remark", NPUC_SEV_REMARK},
               {"warning", NPUC_SEV_WARNING}};
  p += strlen("expected-");
  size_t k = 0;
  while (k < 4 && !starts_with(p, end, kinds[k].word))
    k++;
  if (k == 4)
    return false;
  d->sev = kinds[k].sev;
  p += strlen(kinds[k].word);
  d->is_regex = starts_with(p, end, "-re");
  if (d->is_regex)
    p += 3;
  while (p < end && *p == ' ')
    p++;
  d->where = AT_HERE;
  if (p < end && *p == '@') {
    p++;
    if (p < end && (*p == '+' || *p == '-')) {
      int sign = *p++ == '-' ? -1 : 1, n = 0;
      if (p == end || *p < '0' || *p > '9')
        return false;
      while (p < end && *p >= '0' && *p <= '9')
        n = n * 10 + (*p++ - '0');
      d->where = AT_OFFSET;
      d->offset = sign * n;
    } else if (starts_with(p, end, "above")) {
      d->where = AT_ABOVE, p += 5;
    } else if (starts_with(p, end, "below")) {
      d->where = AT_BELOW, p += 5;
    } else if (starts_with(p, end, "unknown")) {
      d->where = AT_UNKNOWN, p += 7;
    } else {
      return false;
    }
  }
  while (p < end && *p == ' ')
    p++;
  if (!starts_with(p, end, "{{") || end - p < 4 || end[-1] != '}' ||
      end[-2] != '}')
    return false;
  d->text = p + 2;
  d->text_len = (size_t)(end - 2 - d->text);
  return true;
}

static bool parse_designator(const char *line, size_t len, designator *d) {
  const char *end = line + len;
  while (end > line && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
    end--;
  for (const char *p = line; p < end; p++) {
    if (*p == 'e' && starts_with(p, end, "expected-") && parse_at(p, end, d)) {
      d->col = (size_t)(p - line);
      return true;
    }
  }
  return false;
}

static bool add_expectation(npuc_diag_verifier *v, const designator *d,
                            int target_line, int src_line,
                            const npuc_diag_sink *report) {
  expectation *grown =
      realloc(v->expected, (v->num_expected + 1) * sizeof *grown);
  if (!grown)
    return false;
  v->expected = grown;
  expectation *e = &v->expected[v->num_expected];
  memset(e, 0, sizeof *e);
  e->sev = d->sev;
  e->line = target_line;
  e->src_line = src_line;
  e->src_col = (int)d->col + 1;
  e->text = strndup(d->text, d->text_len);
  e->is_regex = d->is_regex;
  e->unknown_loc = d->where == AT_UNKNOWN;
  e->pending_below = d->where == AT_BELOW;
  if (!e->text)
    return false;
  v->num_expected++;
  if (e->is_regex && !compile_regex(e)) {
    npuc_diag_emit(report, NPUC_SEV_ERROR, v->filename, e->src_line, e->src_col,
                   "invalid regex in expected-%s-re {{%s}}",
                   npuc_severity_name(e->sev), e->text);
    v->malformed = true;
  }
  return true;
}

/* ---- Matching ------------------------------------------------------- */

static void record(void *user, npuc_severity sev, const char *file, int line,
                   int col, const char *message) {
  npuc_diag_verifier *v = user;
  actual_diag *grown = realloc(v->actual, (v->num_actual + 1) * sizeof *grown);
  if (!grown)
    return;
  v->actual = grown;
  actual_diag *a = &v->actual[v->num_actual++];
  a->sev = sev;
  a->file = file ? strdup(file) : NULL;
  a->line = file ? line : 0;
  a->col = col;
  a->message = strdup(message ? message : "");
}

/* True when `a` was expected; otherwise reports it, as mlir-opt does: a
 * right text at the right line with another severity is a near miss. */
static bool check_actual(npuc_diag_verifier *v, const actual_diag *a,
                         const npuc_diag_sink *report) {
  bool located = a->file && a->line > 0 && strcmp(a->file, v->filename) == 0;
  const expectation *near_miss = NULL;
  for (size_t i = 0; i < v->num_expected; i++) {
    expectation *e = &v->expected[i];
    bool same_place = located ? (!e->unknown_loc && e->line == a->line)
                              : (e->unknown_loc && !(a->file && a->line > 0));
    if (!same_place || !text_matches(e, a->message))
      continue;
    if (e->sev == a->sev) {
      e->matched = true;
      return true;
    }
    near_miss = e;
  }
  if (near_miss)
    npuc_diag_emit(
        report, NPUC_SEV_ERROR, v->filename, near_miss->src_line,
        near_miss->src_col, "'%s' diagnostic emitted when expecting a '%s'",
        npuc_severity_name(a->sev), npuc_severity_name(near_miss->sev));
  else
    npuc_diag_emit(report, NPUC_SEV_ERROR, a->file, a->line, a->col,
                   "unexpected %s: %s", npuc_severity_name(a->sev), a->message);
  return false;
}

static bool text_matches(const expectation *e, const char *message) {
  if (!e->is_regex)
    return strstr(message, e->text) != NULL;
  return e->regex_ok && regexec(&e->regex, message, 0, NULL, 0) == 0;
}

/* "literal {{regex}} literal" -> one POSIX extended regex, as FileCheck. */
static bool compile_regex(expectation *e) {
  size_t len = strlen(e->text);
  char *pattern = malloc(2 * len + 1);
  if (!pattern)
    return false;
  size_t n = 0;
  for (const char *p = e->text; *p;) {
    if (p[0] == '{' && p[1] == '{') {
      const char *close = strstr(p + 2, "}}");
      if (!close) {
        free(pattern);
        return false;
      }
      memcpy(pattern + n, p + 2, (size_t)(close - p - 2));
      n += (size_t)(close - p - 2);
      p = close + 2;
      continue;
    }
    if (strchr(".[]{}()\\*+?^$|", *p))
      pattern[n++] = '\\';
    pattern[n++] = *p++;
  }
  pattern[n] = '\0';
  e->regex_ok = regcomp(&e->regex, pattern, REG_EXTENDED | REG_NOSUB) == 0;
  free(pattern);
  return e->regex_ok;
}
