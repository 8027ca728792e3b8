/* Compiles an op table's assembly format string into npuc_fmt_elem trees.
 *
 *   format   := elem*
 *   elem     := `literal` | $name ['^'] | type($name) ['^'] | attr-dict
 *             | function-results($name) (a result group's types as a
 *               function type writes them: `()`, `T`, `(T, U)`)
 *             | attr-dict-with-keyword | group
 *             | dynamic-index-list($operands, $attr) (`[4, %n]`: static
 *               entries in an i64-array, SSA ones in an index operand group)
 *             | `` (an empty literal: no space before what follows)
 *             | region-args($region) (`(%a : T, ...)`: the region's entry
 *               block arguments written as a signature before it)
 *             | stripped-type($name, `prefix`) (the one type of a group,
 *               which may be written without `prefix`: `<1>`, as ODS
 *               prints `!llvm.ptr<1>` where it knows the type's class)
 *   group    := '(' elem+ ('|' elem+)* ')' ['?']
 *
 * A group with '?' is optional (present when its anchor is); a group with
 * '|' is a choice among alternatives, decided by the first element of each.
 * The language follows ODS assemblyFormat; docs/op-tables.md has examples. */
#include "OpTableInternal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *p;
  npuc_op_def *op;
  const char *file;
  int line;
  const npuc_diag_sink *sink;
  bool ok;
  /* How often each operand/result/attr/region is referenced. */
  int *operand_seen, *operand_typed, *result_typed, *attr_seen, *region_seen;
} fmt_parser;

typedef struct {
  npuc_fmt_elem *items;
  size_t len, cap;
} elem_list;

static bool parse_elems(fmt_parser *fp, elem_list *out, bool in_group);
static bool parse_group(fmt_parser *fp, npuc_fmt_elem *out);
static bool resolve_var(fmt_parser *fp, npuc_fmt_elem *e, bool for_type);
static void check_coverage(fmt_parser *fp);
static void fmt_error(fmt_parser *fp, const char *fmt, const char *arg);

bool npuc_format_compile(npuc_op_def *op, const char *file, int line,
                         const npuc_diag_sink *sink) {
  fmt_parser fp = {op->format_text,
                   op,
                   file,
                   line,
                   sink,
                   true,
                   NULL,
                   NULL,
                   NULL,
                   NULL,
                   NULL};
  size_t n =
      op->num_operands + op->num_results + op->num_attrs + op->num_regions + 5;
  int *counts = calloc(n * 2, sizeof(int));
  fp.operand_seen = counts;
  fp.operand_typed = fp.operand_seen + op->num_operands + 1;
  fp.result_typed = fp.operand_typed + op->num_operands + 1;
  fp.attr_seen = fp.result_typed + op->num_results + 1;
  fp.region_seen = fp.attr_seen + op->num_attrs + 1;
  elem_list list = {0};
  parse_elems(&fp, &list, false);
  op->format = list.items;
  op->format_len = list.len;
  if (fp.ok)
    check_coverage(&fp);
  free(counts);
  return fp.ok;
}

static void free_contents(npuc_fmt_elem *e) {
  free(e->text);
  free(e->type_prefix);
  npuc_format_free(e->children, e->num_children);
  free(e->branch_ends);
  memset(e, 0, sizeof *e);
}

void npuc_format_free(npuc_fmt_elem *elems, size_t n) {
  for (size_t i = 0; i < n; ++i)
    free_contents(&elems[i]);
  free(elems);
}

void npuc_dialect_free(npuc_dialect_def *d) {
  for (size_t i = 0; i < d->num_ops; ++i) {
    npuc_op_def *op = &d->ops[i];
    free(op->name);
    free((char *)op->summary);
    free((char *)op->format_text);
    for (size_t j = 0; j < op->num_operands; ++j) {
      free(op->operands[j].name);
      free(op->operands[j].fixed_type);
    }
    free(op->operands);
    for (size_t j = 0; j < op->num_results; ++j) {
      free(op->results[j].name);
      free(op->results[j].fixed_type);
    }
    free(op->results);
    for (size_t j = 0; j < op->num_attrs; ++j) {
      free(op->attrs[j].name);
      free(op->attrs[j].enum_prefix);
      free(op->attrs[j].int_type);
      free(op->attrs[j].default_text);
      for (char **v = op->attrs[j].enum_values; v && *v; ++v)
        free(*v);
      free(op->attrs[j].enum_values);
    }
    free(op->attrs);
    for (size_t j = 0; j < op->num_regions; ++j)
      free(op->regions[j]);
    free(op->regions);
    npuc_format_free(op->format, op->format_len);
    for (size_t j = 0; j < op->num_signatures; ++j) {
      npuc_signature *s = &op->signatures[j];
      for (size_t k = 0; k < s->num_keys; ++k) {
        free(s->keys[k].name);
        for (size_t v = 0; v < s->keys[k].num_values; ++v)
          free(s->keys[k].values[v]);
        free(s->keys[k].values);
      }
      free(s->keys);
    }
    free(op->signatures);
    npuc_verify_rules_free(op);
  }
  free(d->ops);
  npuc_attr_specs_free(d);
  for (size_t i = 0; i < d->num_op_prefixes; ++i)
    free(d->op_prefixes[i]);
  free(d->op_prefixes);
  free(d->name);
  free(d);
}

/* ---- parsing ----------------------------------------------------------- */

static void push(elem_list *l, npuc_fmt_elem e) {
  if (l->len == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 8;
    l->items = realloc(l->items, l->cap * sizeof *l->items);
  }
  l->items[l->len++] = e;
}

static void skip_space(fmt_parser *fp) {
  while (*fp->p && isspace((unsigned char)*fp->p))
    fp->p++;
}

static char *read_name(fmt_parser *fp) {
  const char *start = fp->p;
  while (*fp->p && (isalnum((unsigned char)*fp->p) || *fp->p == '_'))
    fp->p++;
  if (fp->p == start)
    return NULL;
  return strndup(start, (size_t)(fp->p - start));
}

static bool starts_with(const char *p, const char *word) {
  size_t n = strlen(word);
  return strncmp(p, word, n) == 0 &&
         !(isalnum((unsigned char)p[n]) || p[n] == '-' || p[n] == '_');
}

/* `word($name`: the directive's first variable, resolved into e. */
static bool directive_var(fmt_parser *fp, npuc_fmt_elem *e, const char *word,
                          const char *usage, bool for_type) {
  fp->p += strlen(word);
  skip_space(fp);
  if (fp->p[0] != '(' || fp->p[1] != '$') {
    fmt_error(fp, usage, fp->op->name);
    return false;
  }
  fp->p += 2;
  e->kind = for_type ? NPUC_FMT_TYPE : NPUC_FMT_VAR;
  if (for_type)
    e->attr_index = -1;
  e->text = read_name(fp);
  return e->text && resolve_var(fp, e, for_type);
}

/* dynamic-index-list($ops, $attr): $ops an operand group of fixed type
 * (index), $attr an i64-array attribute. */
static bool parse_dyn_index_list(fmt_parser *fp, npuc_fmt_elem *e) {
  if (!directive_var(fp, e, "dynamic-index-list",
                     "expected dynamic-index-list($operands, $attr) in '%s'",
                     false))
    return false;
  e->kind = NPUC_FMT_DYN_INDEX_LIST;
  skip_space(fp);
  if (*fp->p == ',')
    fp->p++;
  skip_space(fp);
  char *attr = *fp->p == '$' ? (fp->p++, read_name(fp)) : NULL;
  int a = attr ? npuc_op_find_attr(fp->op, attr) : -1;
  free(attr);
  if (e->var_class != NPUC_VAR_OPERAND || a < 0 || *fp->p != ')' ||
      fp->op->attrs[a].kind != NPUC_AK_I64_ARRAY ||
      !fp->op->operands[e->var_index].fixed_type) {
    fmt_error(fp,
              "dynamic-index-list in '%s' takes an operand group of fixed "
              "type and an i64-array attribute",
              fp->op->name);
    return false;
  }
  fp->p++;
  e->attr_index = a;
  fp->attr_seen[a]++;
  return true;
}

/* region-args($region): the region is still placed once by $region. */
static bool parse_region_args(fmt_parser *fp, npuc_fmt_elem *e) {
  if (!directive_var(fp, e, "region-args",
                     "expected region-args($region) in '%s'", false))
    return false;
  skip_space(fp);
  if (e->var_class != NPUC_VAR_REGION || *fp->p != ')') {
    fmt_error(fp, "region-args in '%s' takes one region", fp->op->name);
    return false;
  }
  fp->p++;
  fp->region_seen[e->var_index]--;
  e->kind = NPUC_FMT_REGION_ARGS;
  return true;
}

/* stripped-type($name, `!llvm.ptr`): the one type of a non-variadic
 * operand or result group, read with or without the prefix. */
static bool parse_stripped_type(fmt_parser *fp, npuc_fmt_elem *e) {
  const char *usage = "expected stripped-type($name, `prefix`) in '%s'";
  if (!directive_var(fp, e, "stripped-type", usage, true))
    return false;
  skip_space(fp);
  const char *open = NULL;
  if (*fp->p == ',') {
    fp->p++;
    skip_space(fp);
    open = *fp->p == '`' ? fp->p : NULL;
  }
  const char *close = open ? strchr(open + 1, '`') : NULL;
  if (!close || close == open + 1 || open[1] != '!') {
    fmt_error(fp, usage, fp->op->name);
    return false;
  }
  e->type_prefix = strndup(open + 1, (size_t)(close - open - 1));
  fp->p = close + 1;
  skip_space(fp);
  if (*fp->p != ')') {
    fmt_error(fp, usage, fp->op->name);
    return false;
  }
  fp->p++;
  const npuc_value_def *v = e->var_class == NPUC_VAR_RESULT
                                ? &fp->op->results[e->var_index]
                                : &fp->op->operands[e->var_index];
  if (v->variadic) {
    fmt_error(fp, "stripped-type in '%s' takes a group of one value",
              fp->op->name);
    return false;
  }
  return true;
}

/* type($group, $attr): after each type of the group an optional attribute
 * dictionary, all of them kept in the array attribute $attr (bishengir's
 * custom ops: `ins(%a : tensor<4xf32> {inplace_outs = 0 : i32})`). */
static bool type_attrs(fmt_parser *fp, npuc_fmt_elem *e) {
  fp->p++; /* ',' */
  skip_space(fp);
  char *attr = *fp->p == '$' ? (fp->p++, read_name(fp)) : NULL;
  int a = attr ? npuc_op_find_attr(fp->op, attr) : -1;
  free(attr);
  skip_space(fp);
  if (a < 0 || fp->op->attrs[a].kind != NPUC_AK_ANY) {
    fmt_error(fp, "type($group, $attr) in '%s' takes an attribute of kind any",
              fp->op->name);
    return false;
  }
  e->attr_index = a;
  fp->attr_seen[a]++;
  return true;
}

static bool parse_one(fmt_parser *fp, npuc_fmt_elem *e) {
  memset(e, 0, sizeof *e);
  const char *p = fp->p;
  if (*p == '`') {
    const char *end = strchr(p + 1, '`');
    if (end == p + 1) { /* `` : no space before the next element */
      e->kind = NPUC_FMT_LITERAL;
      e->text = strdup("");
      fp->p = end + 1;
      return true;
    }
    if (!end) {
      fmt_error(fp, "unterminated or empty literal in format of '%s'",
                fp->op->name);
      return false;
    }
    e->kind = NPUC_FMT_LITERAL;
    e->text = strndup(p + 1, (size_t)(end - p - 1));
    fp->p = end + 1;
    return true;
  }
  if (*p == '$') {
    fp->p++;
    e->kind = NPUC_FMT_VAR;
    e->text = read_name(fp);
    return e->text ? resolve_var(fp, e, false)
                   : (fmt_error(fp, "'$' without a name in '%s'", fp->op->name),
                      false);
  }
  if (starts_with(p, "stripped-type"))
    return parse_stripped_type(fp, e);
  bool function_results = starts_with(p, "function-results");
  if (function_results || starts_with(p, "type")) {
    fp->p += function_results ? strlen("function-results") : 4;
    skip_space(fp);
    if (*fp->p != '(' || fp->p[1] != '$') {
      fmt_error(fp, "expected type($name) in format of '%s'", fp->op->name);
      return false;
    }
    fp->p += 2;
    e->kind = NPUC_FMT_TYPE;
    e->function_results = function_results;
    e->text = read_name(fp);
    e->attr_index = -1;
    skip_space(fp);
    if (e->text && *fp->p == ',' && !function_results && !type_attrs(fp, e))
      return false;
    if (!e->text || *fp->p != ')') {
      fmt_error(fp, "malformed type($name) in format of '%s'", fp->op->name);
      return false;
    }
    fp->p++;
    if (!resolve_var(fp, e, true))
      return false;
    if (e->attr_index >= 0 && e->var_class != NPUC_VAR_OPERAND) {
      fmt_error(fp, "type($group, $attr) in '%s' takes an operand group",
                fp->op->name);
      return false;
    }
    return true;
  }
  if (starts_with(p, "dynamic-index-list"))
    return parse_dyn_index_list(fp, e);
  if (starts_with(p, "region-args"))
    return parse_region_args(fp, e);
  if (starts_with(p, "attr-dict-with-keyword")) {
    fp->p += strlen("attr-dict-with-keyword");
    e->kind = NPUC_FMT_ATTR_DICT_KW;
    return true;
  }
  if (starts_with(p, "attr-dict")) {
    fp->p += strlen("attr-dict");
    e->kind = NPUC_FMT_ATTR_DICT;
    return true;
  }
  if (*p == '(')
    return parse_group(fp, e);
  fmt_error(fp, "unexpected text in format of '%s'", fp->op->name);
  return false;
}

static bool parse_elems(fmt_parser *fp, elem_list *out, bool in_group) {
  for (;;) {
    skip_space(fp);
    char c = *fp->p;
    if (!c || (in_group && (c == ')' || c == '|')))
      return fp->ok;
    npuc_fmt_elem e;
    if (!parse_one(fp, &e)) {
      free_contents(&e);
      fp->ok = false;
      return false;
    }
    skip_space(fp);
    if (*fp->p == '^') {
      e.anchor = true;
      fp->p++;
    }
    push(out, e);
  }
}

static bool parse_group(fmt_parser *fp, npuc_fmt_elem *out) {
  fp->p++; /* '(' */
  elem_list all = {0};
  size_t *ends = NULL, num_branches = 0;
  for (;;) {
    if (!parse_elems(fp, &all, true)) {
      npuc_format_free(all.items, all.len);
      free(ends);
      return false;
    }
    ends = realloc(ends, (num_branches + 1) * sizeof *ends);
    ends[num_branches++] = all.len;
    if (*fp->p == '|') {
      fp->p++;
      continue;
    }
    break;
  }
  if (*fp->p != ')') {
    fmt_error(fp, "unbalanced group in format of '%s'", fp->op->name);
    npuc_format_free(all.items, all.len);
    free(ends);
    return false;
  }
  fp->p++;
  bool optional = *fp->p == '?';
  if (optional)
    fp->p++;
  npuc_fmt_elem group = {0};
  group.children = all.items;
  group.num_children = all.len;
  if (num_branches > 1) {
    group.kind = NPUC_FMT_ALTERNATIVES;
    group.branch_ends = ends;
    group.num_branches = num_branches;
  } else {
    free(ends);
    group.kind = NPUC_FMT_OPTIONAL;
    if (!optional) {
      fmt_error(fp, "a group without '|' must be optional '( ... )?' in '%s'",
                fp->op->name);
      npuc_format_free(group.children, group.num_children);
      return false;
    }
  }
  if (optional && num_branches > 1) {
    /* ( a | b )? is an optional group around the choice. */
    npuc_fmt_elem *inner = malloc(sizeof *inner);
    *inner = group;
    memset(out, 0, sizeof *out);
    out->kind = NPUC_FMT_OPTIONAL;
    out->children = inner;
    out->num_children = 1;
    return true;
  }
  *out = group;
  return true;
}

static bool resolve_var(fmt_parser *fp, npuc_fmt_elem *e, bool for_type) {
  npuc_op_def *op = fp->op;
  for (size_t i = 0; i < op->num_operands; ++i)
    if (strcmp(op->operands[i].name, e->text) == 0) {
      e->var_class = NPUC_VAR_OPERAND;
      e->var_index = (int)i;
      (for_type ? fp->operand_typed : fp->operand_seen)[i]++;
      return true;
    }
  for (size_t i = 0; i < op->num_results; ++i)
    if (strcmp(op->results[i].name, e->text) == 0) {
      e->var_class = NPUC_VAR_RESULT;
      e->var_index = (int)i;
      if (!for_type) {
        fmt_error(fp, "result '%s' may only appear as type($name)", e->text);
        return false;
      }
      fp->result_typed[i]++;
      return true;
    }
  if (!for_type) {
    for (size_t i = 0; i < op->num_attrs; ++i)
      if (strcmp(op->attrs[i].name, e->text) == 0) {
        e->var_class = NPUC_VAR_ATTR;
        e->var_index = (int)i;
        fp->attr_seen[i]++;
        return true;
      }
    for (size_t i = 0; i < op->num_regions; ++i)
      if (strcmp(op->regions[i], e->text) == 0) {
        e->var_class = NPUC_VAR_REGION;
        e->var_index = (int)i;
        fp->region_seen[i]++;
        return true;
      }
  }
  fmt_error(fp, "format names unknown variable '%s'", e->text);
  return false;
}

/* Every operand needs its value and its type in the format, every result
 * its type, every region a place; otherwise text could not round-trip. */
static void check_coverage(fmt_parser *fp) {
  npuc_op_def *op = fp->op;
  for (size_t i = 0; i < op->num_operands; ++i) {
    if (fp->operand_seen[i] != 1)
      fmt_error(fp, "operand '%s' must appear exactly once in the format",
                op->operands[i].name);
    bool implied = op->operands[i].fixed_type || op->operands[i].type_of >= 0;
    if (fp->operand_typed[i] != (implied ? 0 : 1))
      fmt_error(
          fp,
          implied ? "operand '%s' has a fixed or implied type: no type($name) "
                    "for it"
                  : "operand '%s' needs exactly one type($name) in the format",
          op->operands[i].name);
  }
  for (size_t i = 0; i < op->num_results; ++i) {
    bool implied = op->results[i].fixed_type || op->results[i].type_of >= 0;
    if (fp->result_typed[i] != (implied ? 0 : 1))
      fmt_error(fp,
                implied ? "result '%s' has a fixed or implied type: no "
                          "type($name) for it"
                        : "result '%s' needs exactly one type($name) in the "
                          "format",
                op->results[i].name);
  }
  for (size_t i = 0; i < op->num_attrs; ++i)
    op->attrs[i].in_format = fp->attr_seen[i] > 0;
  for (size_t i = 0; i < op->num_regions; ++i)
    if (fp->region_seen[i] != 1)
      fmt_error(fp, "region '%s' must appear exactly once in the format",
                op->regions[i]);
}

static void fmt_error(fmt_parser *fp, const char *fmt, const char *arg) {
  npuc_diag_emit(fp->sink, NPUC_SEV_ERROR, fp->file, fp->line, 1, fmt, arg);
  fp->ok = false;
}
