/* Compiling the `verify:` rules of op tables (see VerifyRules.c, which
 * checks ops against them, and docs/op-tables.md): "rule(arg, ...)" with
 * each argument resolved to an operand or result group or an attribute of
 * the op. No MLIR here: the table loader links without it. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "OpTableInternal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Indexed by npuc_check_rule. */
static const struct {
  const char *name;
  size_t min_args, max_args;
} rules[] = {
    [NPUC_CHECK_SAME_ELEMENT_COUNT] = {"same-element-count", 2, 2},
    [NPUC_CHECK_PERMUTATION] = {"permutation", 2, 3},
    [NPUC_CHECK_DIVIDES] = {"divides", 2, NPUC_CHECK_MAX_ARGS},
    [NPUC_CHECK_POSITIVE] = {"positive", 1, 1},
    [NPUC_CHECK_NON_NEGATIVE] = {"non-negative", 1, 1},
    [NPUC_CHECK_SYMBOL] = {"symbol", 1, 1},
};

#define NUM_RULES (sizeof rules / sizeof rules[0])

static bool parse_arg(const npuc_op_def *op, const char *text, size_t len,
                      npuc_check_arg *arg, char *err, size_t cap);
static bool args_fit(const npuc_op_check *c, char *err, size_t cap);

/* ---- Compiling "rule(arg, ...)" ----------------------------------------- */

bool npuc_check_compile(const npuc_op_def *op, const char *text,
                        npuc_op_check *out, char *err, size_t cap) {
  memset(out, 0, sizeof *out);
  const char *open = strchr(text, '(');
  size_t text_len = strlen(text);
  if (!open || text_len == 0 || text[text_len - 1] != ')') {
    snprintf(err, cap, "verify rule '%s' is not written rule(args)", text);
    return false;
  }
  size_t name_len = (size_t)(open - text);
  size_t rule = NUM_RULES;
  for (size_t i = 0; i < NUM_RULES; i++)
    if (strlen(rules[i].name) == name_len &&
        memcmp(rules[i].name, text, name_len) == 0)
      rule = i;
  out->rule = (npuc_check_rule)rule;
  if (rule == NUM_RULES) {
    snprintf(err, cap, "unknown verify rule '%.*s'", (int)name_len, text);
    return false;
  }
  const char *p = open + 1, *end = text + text_len - 1;
  while (p < end) {
    const char *comma = memchr(p, ',', (size_t)(end - p));
    const char *stop = comma ? comma : end;
    if (out->num_args == NPUC_CHECK_MAX_ARGS) {
      snprintf(err, cap, "verify rule '%s' has too many arguments", text);
      return false;
    }
    if (!parse_arg(op, p, (size_t)(stop - p), &out->args[out->num_args++], err,
                   cap))
      return false;
    p = comma ? comma + 1 : end;
  }
  out->text = strdup(text);
  return out->text && args_fit(out, err, cap);
}

/* "name" or "name[N]", spaces around allowed. */
static bool parse_arg(const npuc_op_def *op, const char *text, size_t len,
                      npuc_check_arg *arg, char *err, size_t cap) {
  while (len && isspace((unsigned char)*text))
    text++, len--;
  while (len && isspace((unsigned char)text[len - 1]))
    len--;
  const char *bracket = memchr(text, '[', len);
  size_t name_len = bracket ? (size_t)(bracket - text) : len;
  arg->dim = -1;
  if (bracket) {
    char *after;
    long dim = strtol(bracket + 1, &after, 10);
    if (after == bracket + 1 || *after != ']' || after != text + len - 1 ||
        dim < 0 || dim > 64) {
      snprintf(err, cap, "bad dimension in verify argument '%.*s'", (int)len,
               text);
      return false;
    }
    arg->dim = (int)dim;
  }
  char name[128];
  snprintf(name, sizeof name, "%.*s", (int)name_len, text);
  arg->index = npuc_op_find_operand(op, name);
  arg->cls = NPUC_VAR_OPERAND;
  for (size_t r = 0; arg->index < 0 && r < op->num_results; r++)
    if (strcmp(op->results[r].name, name) == 0)
      arg->index = (int)r, arg->cls = NPUC_VAR_RESULT;
  if (arg->index < 0 && (arg->index = npuc_op_find_attr(op, name)) >= 0)
    arg->cls = NPUC_VAR_ATTR;
  if (arg->index < 0) {
    snprintf(err, cap,
             "verify argument '%s' names no operand, result or "
             "attribute of '%s'",
             name, op->name);
    return false;
  }
  return true;
}

/* The rule's first argument is an attribute where it takes one. */
static bool args_fit(const npuc_op_check *c, char *err, size_t cap) {
  size_t n = c->num_args;
  if (n < rules[c->rule].min_args || n > rules[c->rule].max_args) {
    snprintf(err, cap, "verify rule '%s' takes %zu to %zu arguments", c->text,
             rules[c->rule].min_args, rules[c->rule].max_args);
    return false;
  }
  bool attr_first = c->rule != NPUC_CHECK_SAME_ELEMENT_COUNT;
  for (size_t i = 0; i < n; i++)
    if ((c->args[i].cls == NPUC_VAR_ATTR) != (attr_first && i == 0)) {
      snprintf(err, cap, "verify rule '%s': argument %zu must be %s", c->text,
               i + 1, attr_first && i == 0 ? "an attribute" : "a value");
      return false;
    }
  return true;
}

void npuc_checks_free(npuc_op_check *checks, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(checks[i].text);
  free(checks);
}
