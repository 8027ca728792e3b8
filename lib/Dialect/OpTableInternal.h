/* Shared between the table loader and the format compiler; not public. */
#ifndef NPUC_OPTABLE_INTERNAL_H
#define NPUC_OPTABLE_INTERNAL_H

#include "npuc/OpTable.h"

typedef struct npuc_op_bucket {
  npuc_op_def *op;
  size_t name_len; /* strlen(op->name): a lookup compares lengths first */
  npuc_dialect_def *dialect;
  struct npuc_op_bucket *next;
} npuc_op_bucket;

/* An op-name prefix and its dialect, for npuc_op_owner. */
typedef struct {
  const char *prefix;
  size_t len;
  npuc_dialect_def *dialect;
} npuc_op_prefix;

struct npuc_op_registry {
  npuc_dialect_def **dialects;
  size_t num_dialects;
  npuc_op_bucket **buckets;
  size_t bucket_count; /* a power of two */
  char **files;
  size_t num_files;
  /* Of every dialect, grouped by first byte, in dialect order within a
   * group: the prefixes a name may start with are
   * [by_first[c], by_first[c + 1]) for its first byte c. */
  npuc_op_prefix *prefixes;
  size_t num_prefixes;
  size_t by_first[257];
  bool borrowed; /* the dialects are not ours to free */
};

/* Compiles op->format_text into op->format, resolving $names against the
 * op's operands, results, attributes and regions. Errors name the table
 * file and line. */
bool npuc_format_compile(npuc_op_def *op, const char *file, int line,
                         const npuc_diag_sink *sink);
/* The verifier's data (OpTableRules.c): an op's `verify:` list and a
 * dialect's `attrdefs:` mapping. */
#include "npuc/YamlDoc.h"
bool npuc_load_verify_rules(npuc_yaml *ld, npuc_op_def *op, yaml_node_t *list);
bool npuc_load_attr_specs(npuc_yaml *ld, npuc_dialect_def *d, yaml_node_t *map);
void npuc_verify_rules_free(npuc_op_def *op);
void npuc_attr_specs_free(npuc_dialect_def *d);
void npuc_format_free(npuc_fmt_elem *elems, size_t n);
void npuc_dialect_free(npuc_dialect_def *d);

#endif
