/* Checks every attribute of a dialect with `attrdefs:` (`#hivm.pipe<..>`)
 * where the text writes it, before MLIR parses the text: bishengir's parser
 * verifies its attributes as it reads them and reports an invalid one at
 * its own line (an alias definition, an entry of a dictionary on a line of
 * its own), where the verifier, which runs on the parsed IR, can only
 * point at the op holding it. Comments and strings are skipped; an
 * attribute spanning lines is left to the verifier. Linear in the text. */
#include "SyntaxInternal.h"

#include <string.h>

#define MAX_SPEC_DIALECTS 16

typedef struct {
  const npuc_syntax_options *opts;
  const char *text, *end;
  const char *line_start; /* of the line holding `counted` */
  const char *counted;    /* lines are counted up to here */
  int line;
} attr_scan;

static bool in_comment_or_string(const char *line_start, const char *at);
static const char *attr_end(const char *p, const char *end);
static void advance_lines(attr_scan *sc, const char *to);

bool npuc_syntax_check_attrs(const npuc_syntax_options *opts, const char *text,
                             size_t len) {
  const npuc_op_registry *reg = opts->registry;
  attr_scan sc = {opts, text, text + len,
                  text, text, opts->first_line > 0 ? opts->first_line : 1};
  bool ok = true;
  for (const char *p = text; ok && p < sc.end;) {
    const char *hash = memchr(p, '#', (size_t)(sc.end - p));
    if (!hash)
      break;
    p = hash + 1;
    const char *name = p;
    while (p < sc.end &&
           ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
            (*p >= '0' && *p <= '9') || *p == '_'))
      ++p;
    const npuc_dialect_def *d =
        p < sc.end && *p == '.' && p > name
            ? npuc_attr_dialect(reg, name, (size_t)(p - name))
            : NULL;
    if (!d)
      continue;
    const char *data = p + 1, *stop = attr_end(data, sc.end);
    advance_lines(&sc, hash);
    if (!stop || memchr(data, '\n', (size_t)(stop - data)) ||
        in_comment_or_string(sc.line_start, hash))
      continue;
    char msg[256];
    if (!npuc_attr_check_text(d, data, (size_t)(stop - data), msg,
                              sizeof msg)) {
      npuc_diag_emit(opts->sink, NPUC_SEV_ERROR, opts->filename, sc.line,
                     (int)(hash - sc.line_start) + 1, "%s", msg);
      ok = false;
    }
    p = stop;
  }
  return ok;
}

/* The end of `mnemonic` or `mnemonic<...>` (nested <>, `->` inside and
 * strings skipped); NULL when the brackets do not close. */
static const char *attr_end(const char *p, const char *end) {
  while (p < end &&
         ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
          (*p >= '0' && *p <= '9') || *p == '_' || *p == '.' || *p == '$'))
    ++p;
  if (p == end || *p != '<')
    return p;
  size_t depth = 0;
  for (; p < end; ++p) {
    if (*p == '"') {
      for (++p; p < end && *p != '"'; ++p)
        p += *p == '\\' && p + 1 < end;
      continue;
    }
    if (*p == '<')
      ++depth;
    else if (*p == '>' && p[-1] != '-' && --depth == 0)
      return p + 1;
  }
  return NULL;
}

/* Counts the lines from the last position counted up to `to`. */
static void advance_lines(attr_scan *sc, const char *to) {
  for (const char *nl;
       sc->counted < to &&
       (nl = memchr(sc->counted, '\n', (size_t)(to - sc->counted))) != NULL;) {
    ++sc->line;
    sc->line_start = sc->counted = nl + 1;
  }
  sc->counted = to;
}

/* Is `at` inside a `//` comment or a string of its line? */
static bool in_comment_or_string(const char *line_start, const char *at) {
  bool in_string = false;
  for (const char *p = line_start; p < at; ++p) {
    if (in_string) {
      if (*p == '\\')
        ++p;
      else if (*p == '"')
        in_string = false;
    } else if (*p == '"') {
      in_string = true;
    } else if (*p == '/' && p[1] == '/') {
      return true;
    }
  }
  return in_string;
}
