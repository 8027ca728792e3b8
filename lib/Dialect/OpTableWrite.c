/* Writes a loaded registry as C data: the records of npuc/OpTable.h as
 * static initializers, and `npuc_generated_dialects` /
 * `npuc_generated_num_dialects` naming them. The build runs it once
 * (lib/Dialect/tables/TableGen.c) so the tools start without parsing YAML;
 * the YAML tables stay the one description and this reader the one reader.
 * It writes data only: every array as the loader left it (NULL stays NULL,
 * an empty calloc'd array stays a one-element zero array), so a registry
 * and its generated copy print the same (test_optable compares them). */
#include "OpTableInternal.h"
#include "npuc/Alloc.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A record that gains a field must gain it here too: these sizes stop the
 * build until it does. */
static_assert(sizeof(npuc_op_def) == 176, "npuc_op_def changed: write it");
static_assert(sizeof(npuc_value_def) == 40, "npuc_value_def changed");
static_assert(sizeof(npuc_attr_def) == 56, "npuc_attr_def changed");
static_assert(sizeof(npuc_fmt_elem) == 72, "npuc_fmt_elem changed");
static_assert(sizeof(npuc_sig_key) == 32, "npuc_sig_key changed");
static_assert(sizeof(npuc_verify_rule) == 192, "npuc_verify_rule changed");
static_assert(sizeof(npuc_attr_spec) == 40, "npuc_attr_spec changed");
static_assert(sizeof(npuc_attr_field) == 56, "npuc_attr_field changed");
static_assert(sizeof(npuc_dialect_def) == 56, "npuc_dialect_def changed");

typedef struct {
  FILE *out;
  unsigned next; /* names of the arrays written: a0, a1, ... */
} writer;

static void write_dialect(writer *w, const npuc_dialect_def *d, unsigned id);

bool npuc_op_registry_write_c(const npuc_op_registry *reg, FILE *out) {
  writer w = {out, 0};
  fprintf(out, "/* Generated from the op tables by npuc-tablegen. */\n"
               "#include \"npuc/OpTable.h\"\n\n");
  for (size_t i = 0; i < reg->num_dialects; ++i)
    write_dialect(&w, reg->dialects[i], (unsigned)i);
  fprintf(out, "npuc_dialect_def *npuc_generated_dialects[] = {");
  for (size_t i = 0; i < reg->num_dialects; ++i)
    fprintf(out, "%s&d%zu", i ? ", " : "", i);
  fprintf(out, "%s};\nconst size_t npuc_generated_num_dialects = %zu;\n",
          reg->num_dialects ? "" : "0", reg->num_dialects);
  return !ferror(out);
}

/* ---- scalars ------------------------------------------------------------ */

static void write_str(FILE *out, const char *s) {
  if (!s) {
    fputs("NULL", out);
    return;
  }
  fputc('"', out);
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c < 0x20 || c >= 0x7f)
      fprintf(out, "\\%03o", c); /* octal: never swallows a following digit */
    else
      fputc(c, out);
  }
  fputc('"', out);
}

static const char *boolean(bool b) { return b ? "1" : "0"; }

/* LLONG_MIN has no literal of its own. */
static void write_ll(FILE *out, long long v) {
  if (v == LLONG_MIN)
    fputs("(-9223372036854775807LL - 1)", out);
  else
    fprintf(out, "%lldLL", v);
}

/* `aN` or NULL, for a pointer field. */
static void write_ref(FILE *out, int id) {
  if (id < 0)
    fputs("NULL", out);
  else
    fprintf(out, "a%d", id);
}

/* ---- arrays: each returns its name's number, or -1 for NULL -------------- */

/* A NULL-terminated list of strings. */
static int write_strlist(writer *w, char *const *list) {
  if (!list)
    return -1;
  int id = (int)w->next++;
  fprintf(w->out, "static char *a%d[] = {", id);
  for (; *list; ++list) {
    write_str(w->out, *list);
    fputs(", ", w->out);
  }
  fputs("NULL};\n", w->out);
  return id;
}

/* n strings, not terminated (regions, signature values). */
static int write_strings(writer *w, char *const *list, size_t n) {
  if (!list)
    return -1;
  int id = (int)w->next++;
  fprintf(w->out, "static char *a%d[] = {", id);
  for (size_t i = 0; i < n; ++i) {
    write_str(w->out, list[i]);
    fputs(", ", w->out);
  }
  fputs(n ? "};\n" : "NULL};\n", w->out);
  return id;
}

static int write_values(writer *w, const npuc_value_def *v, size_t n) {
  if (!v)
    return -1;
  int id = (int)w->next++;
  fprintf(w->out, "static npuc_value_def a%d[] = {", id);
  for (size_t i = 0; i < n; ++i) {
    fputs("{", w->out);
    write_str(w->out, v[i].name);
    fprintf(w->out, ", %d, %s, %s, ", (int)v[i].kind, boolean(v[i].variadic),
            boolean(v[i].optional));
    write_str(w->out, v[i].fixed_type);
    fprintf(w->out, ", %d, %s, %s, %d, %s},\n", v[i].type_of,
            boolean(v[i].type_of_result), boolean(v[i].same_type), v[i].same_as,
            boolean(v[i].same_as_result));
  }
  fputs(n ? "};\n" : "{0}};\n", w->out);
  return id;
}

static int write_attrs(writer *w, const npuc_attr_def *a, size_t n) {
  if (!a)
    return -1;
  int *values = npuc_xcalloc(n ? n : 1, sizeof *values);
  for (size_t i = 0; i < n; ++i)
    values[i] = write_strlist(w, a[i].enum_values);
  int id = (int)w->next++;
  fprintf(w->out, "static npuc_attr_def a%d[] = {", id);
  for (size_t i = 0; i < n; ++i) {
    fputs("{", w->out);
    write_str(w->out, a[i].name);
    fprintf(w->out, ", %d, ", (int)a[i].kind);
    write_str(w->out, a[i].enum_prefix);
    fputs(", ", w->out);
    write_str(w->out, a[i].int_type);
    fputs(", ", w->out);
    write_ref(w->out, values[i]);
    fprintf(w->out, ", %s, %s, ", boolean(a[i].optional),
            boolean(a[i].in_format));
    write_str(w->out, a[i].default_text);
    fputs("},\n", w->out);
  }
  fputs(n ? "};\n" : "{0}};\n", w->out);
  free(values);
  return id;
}

static int write_sizes(writer *w, const size_t *v, size_t n) {
  if (!v)
    return -1;
  int id = (int)w->next++;
  fprintf(w->out, "static size_t a%d[] = {", id);
  for (size_t i = 0; i < n; ++i)
    fprintf(w->out, "%zu, ", v[i]);
  fputs(n ? "};\n" : "0};\n", w->out);
  return id;
}

/* Children first, so each array is defined before a parent names it. The
 * depth is the format's nesting, bounded by the format compiler. */
static int write_format(writer *w, const npuc_fmt_elem *e, size_t n) {
  if (!e)
    return -1;
  int *children = npuc_xcalloc(n ? n : 1, sizeof *children);
  int *ends = npuc_xcalloc(n ? n : 1, sizeof *ends);
  for (size_t i = 0; i < n; ++i) {
    children[i] = write_format(w, e[i].children, e[i].num_children);
    ends[i] = write_sizes(w, e[i].branch_ends, e[i].num_branches);
  }
  int id = (int)w->next++;
  fprintf(w->out, "static npuc_fmt_elem a%d[] = {", id);
  for (size_t i = 0; i < n; ++i) {
    fprintf(w->out, "{%d, ", (int)e[i].kind);
    write_str(w->out, e[i].text);
    fprintf(w->out, ", %d, %d, %d, %s, %s, ", (int)e[i].var_class,
            e[i].var_index, e[i].attr_index, boolean(e[i].anchor),
            boolean(e[i].function_results));
    write_ref(w->out, children[i]);
    fprintf(w->out, ", %zu, ", e[i].num_children);
    write_ref(w->out, ends[i]);
    fprintf(w->out, ", %zu, ", e[i].num_branches);
    write_str(w->out, e[i].type_prefix);
    fputs("},\n", w->out);
  }
  fputs(n ? "};\n" : "{0}};\n", w->out);
  free(children);
  free(ends);
  return id;
}

static int write_signatures(writer *w, const npuc_signature *s, size_t n) {
  if (!s)
    return -1;
  int *keys = npuc_xcalloc(n ? n : 1, sizeof *keys);
  for (size_t i = 0; i < n; ++i) {
    const npuc_sig_key *k = s[i].keys;
    if (!k) {
      keys[i] = -1;
      continue;
    }
    size_t nk = s[i].num_keys;
    int *values = npuc_xcalloc(nk ? nk : 1, sizeof *values);
    for (size_t j = 0; j < nk; ++j)
      values[j] = write_strings(w, k[j].values, k[j].num_values);
    keys[i] = (int)w->next++;
    fprintf(w->out, "static npuc_sig_key a%d[] = {", keys[i]);
    for (size_t j = 0; j < nk; ++j) {
      fputs("{", w->out);
      write_str(w->out, k[j].name);
      fprintf(w->out, ", %d, %d, ", (int)k[j].var_class, k[j].index);
      write_ref(w->out, values[j]);
      fprintf(w->out, ", %zu},\n", k[j].num_values);
    }
    fputs(nk ? "};\n" : "{0}};\n", w->out);
    free(values);
  }
  int id = (int)w->next++;
  fprintf(w->out, "static npuc_signature a%d[] = {", id);
  for (size_t i = 0; i < n; ++i) {
    fputs("{", w->out);
    write_ref(w->out, keys[i]);
    fprintf(w->out, ", %zu},\n", s[i].num_keys);
  }
  fputs(n ? "};\n" : "{0}};\n", w->out);
  free(keys);
  return id;
}

/* The string lists of one rule, in field order. */
enum {
  RULE_OPERANDS,
  RULE_VALUES,
  RULE_WHEN_VALUES,
  RULE_ONLY_OPS,
  RULE_EXCEPT_OPS,
  RULE_KEY,
  RULE_LISTS
};

static void write_rule(writer *w, const npuc_verify_rule *r, const int *lists) {
  FILE *out = w->out;
  fprintf(out, "{%d, ", (int)r->kind);
  write_ref(out, lists[RULE_OPERANDS]);
  const char *texts[] = {r->attr, r->of,    r->into,
                         r->with, r->field, r->require};
  for (size_t i = 0; i < sizeof texts / sizeof *texts; ++i) {
    fputs(", ", out);
    write_str(out, texts[i]);
  }
  fprintf(out, ", %d, %d, ", r->dim, r->of_dim);
  write_ref(out, lists[RULE_VALUES]);
  fprintf(out, ", %s, ", boolean(r->negate));
  write_ll(out, r->min);
  fputs(", ", out);
  write_ll(out, r->max);
  fputs(", ", out);
  write_str(out, r->when_attr);
  fputs(", ", out);
  write_ref(out, lists[RULE_WHEN_VALUES]);
  const char *conds[] = {r->unless_attr, r->when_shaped, r->when_scalar};
  for (size_t i = 0; i < sizeof conds / sizeof *conds; ++i) {
    fputs(", ", out);
    write_str(out, conds[i]);
  }
  fprintf(out, ", %d, ", r->index);
  write_ref(out, lists[RULE_ONLY_OPS]);
  fputs(", ", out);
  write_ref(out, lists[RULE_EXCEPT_OPS]);
  fputs(", ", out);
  write_ref(out, lists[RULE_KEY]);
  fputs(", ", out);
  write_str(out, r->message);
  fprintf(out, ", %d},\n", r->line);
}

static int write_rules(writer *w, const npuc_verify_rule *r, size_t n) {
  if (!r)
    return -1;
  int(*lists)[RULE_LISTS] = npuc_xcalloc(n ? n : 1, sizeof *lists);
  for (size_t i = 0; i < n; ++i) {
    lists[i][RULE_OPERANDS] = write_strlist(w, r[i].operands);
    lists[i][RULE_VALUES] = write_strlist(w, r[i].values);
    lists[i][RULE_WHEN_VALUES] = write_strlist(w, r[i].when_values);
    lists[i][RULE_ONLY_OPS] = write_strlist(w, r[i].only_ops);
    lists[i][RULE_EXCEPT_OPS] = write_strlist(w, r[i].except_ops);
    lists[i][RULE_KEY] = write_strlist(w, r[i].key);
  }
  int id = (int)w->next++;
  fprintf(w->out, "static npuc_verify_rule a%d[] = {", id);
  for (size_t i = 0; i < n; ++i)
    write_rule(w, &r[i], lists[i]);
  fputs(n ? "};\n" : "{0}};\n", w->out);
  free(lists);
  return id;
}

static int write_attr_specs(writer *w, const npuc_attr_spec *s, size_t n) {
  if (!s)
    return -1;
  int *values = npuc_xcalloc(n ? n : 1, sizeof *values);
  int *fields = npuc_xcalloc(n ? n : 1, sizeof *fields);
  for (size_t i = 0; i < n; ++i) {
    values[i] = write_strlist(w, s[i].values);
    fields[i] = -1;
    if (!s[i].fields)
      continue;
    size_t nf = s[i].num_fields;
    int *lists = npuc_xcalloc(nf ? 2 * nf : 1, sizeof *lists);
    for (size_t j = 0; j < nf; ++j) {
      lists[2 * j] = write_strlist(w, s[i].fields[j].required_for);
      lists[2 * j + 1] = write_strlist(w, s[i].fields[j].only_for);
    }
    fields[i] = (int)w->next++;
    fprintf(w->out, "static npuc_attr_field a%d[] = {", fields[i]);
    for (size_t j = 0; j < nf; ++j) {
      const npuc_attr_field *f = &s[i].fields[j];
      fputs("{", w->out);
      write_str(w->out, f->name);
      fputs(", ", w->out);
      write_ll(w->out, f->min);
      fprintf(w->out, ", %s, %s, %s, ", boolean(f->has_min),
              boolean(f->integer), boolean(f->boolean));
      write_ref(w->out, lists[2 * j]);
      fputs(", ", w->out);
      write_ref(w->out, lists[2 * j + 1]);
      fputs(", ", w->out);
      write_str(w->out, f->required_message);
      fputs(", ", w->out);
      write_str(w->out, f->only_message);
      fputs("},\n", w->out);
    }
    free(lists);
    fputs(s[i].num_fields ? "};\n" : "{0}};\n", w->out);
  }
  int id = (int)w->next++;
  fprintf(w->out, "static npuc_attr_spec a%d[] = {", id);
  for (size_t i = 0; i < n; ++i) {
    fputs("{", w->out);
    write_str(w->out, s[i].mnemonic);
    fprintf(w->out, ", %d, %s, ", (int)s[i].params,
            boolean(s[i].params_optional));
    write_ref(w->out, values[i]);
    fputs(", ", w->out);
    write_ref(w->out, fields[i]);
    fprintf(w->out, ", %zu},\n", s[i].num_fields);
  }
  fputs(n ? "};\n" : "{0}};\n", w->out);
  free(values);
  free(fields);
  return id;
}

/* ---- ops and dialects --------------------------------------------------- */

/* The arrays one op points to, written before the op's record. */
typedef struct {
  int operands, results, attrs, regions, format, signatures, rules;
} op_arrays;

static op_arrays write_op_arrays(writer *w, const npuc_op_def *op) {
  op_arrays a;
  a.operands = write_values(w, op->operands, op->num_operands);
  a.results = write_values(w, op->results, op->num_results);
  a.attrs = write_attrs(w, op->attrs, op->num_attrs);
  a.regions = write_strings(w, op->regions, op->num_regions);
  a.format = write_format(w, op->format, op->format_len);
  a.signatures = write_signatures(w, op->signatures, op->num_signatures);
  a.rules = write_rules(w, op->rules, op->num_rules);
  return a;
}

static void write_op(FILE *out, const npuc_op_def *op, const op_arrays *a) {
  fputs("{", out);
  write_str(out, op->name);
  fputs(", ", out);
  write_str(out, op->summary);
  fprintf(out, ", %uu, ", op->traits);
  write_ref(out, a->operands);
  fprintf(out, ", %zu, ", op->num_operands);
  write_ref(out, a->results);
  fprintf(out, ", %zu, ", op->num_results);
  write_ref(out, a->attrs);
  fprintf(out, ", %zu, ", op->num_attrs);
  write_ref(out, a->regions);
  fprintf(out, ", %zu, %d, ", op->num_regions, op->dps_inits);
  write_ref(out, a->format);
  fprintf(out, ", %zu, ", op->format_len);
  write_str(out, op->format_text);
  fprintf(out, ", %s, ", boolean(op->uses_segments));
  write_str(out, op->table);
  fprintf(out, ", %d, ", op->table_line);
  write_ref(out, a->signatures);
  fprintf(out, ", %zu, ", op->num_signatures);
  write_ref(out, a->rules);
  fprintf(out, ", %zu},\n", op->num_rules);
}

static void write_dialect(writer *w, const npuc_dialect_def *d, unsigned id) {
  op_arrays *arrays = npuc_xcalloc(d->num_ops ? d->num_ops : 1, sizeof *arrays);
  for (size_t i = 0; i < d->num_ops; ++i)
    arrays[i] = write_op_arrays(w, &d->ops[i]);
  int ops = -1;
  if (d->ops) {
    ops = (int)w->next++;
    fprintf(w->out, "static npuc_op_def a%d[] = {", ops);
    for (size_t i = 0; i < d->num_ops; ++i)
      write_op(w->out, &d->ops[i], &arrays[i]);
    fputs(d->num_ops ? "};\n" : "{0}};\n", w->out);
  }
  free(arrays);
  int prefixes = write_strings(w, d->op_prefixes, d->num_op_prefixes);
  int specs = write_attr_specs(w, d->attr_specs, d->num_attr_specs);
  fprintf(w->out, "static npuc_dialect_def d%u = {", id);
  write_str(w->out, d->name);
  fputs(", ", w->out);
  write_ref(w->out, prefixes);
  fprintf(w->out, ", %zu, ", d->num_op_prefixes);
  write_ref(w->out, ops);
  fprintf(w->out, ", %zu, ", d->num_ops);
  write_ref(w->out, specs);
  fprintf(w->out, ", %zu};\n\n", d->num_attr_specs);
}
