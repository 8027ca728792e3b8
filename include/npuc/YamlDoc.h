/* YamlDoc: reading libyaml documents (op tables, run specs, target
 * descriptions) with errors located at the node: file:line:col. */
#ifndef NPUC_YAMLDOC_H
#define NPUC_YAMLDOC_H

#include "npuc/Diagnostics.h"
#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

typedef struct {
  yaml_document_t *doc;
  const char *file;
  const npuc_diag_sink *sink;
  bool ok; /* false once an error was reported */
} npuc_yaml;

/* The text of a scalar node; NULL for NULL, sequences and mappings. */
const char *npuc_yaml_scalar(const yaml_node_t *n);
/* The value under `key` in a mapping node; NULL when absent or not a map. */
yaml_node_t *npuc_yaml_get(const npuc_yaml *y, const yaml_node_t *map,
                           const char *key);
/* Items of a sequence node (0 for anything else). */
size_t npuc_yaml_len(const yaml_node_t *seq);
yaml_node_t *npuc_yaml_at(const npuc_yaml *y, const yaml_node_t *seq, size_t i);
/* Reports an error at the node (or the file) and clears y->ok. */
void npuc_yaml_error(npuc_yaml *y, const yaml_node_t *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* What a document may hold (configs, specs and op tables alike): nesting
 * depth, anchors, and nodes once every alias is expanded. */
#define NPUC_YAML_MAX_DEPTH 64ULL
#define NPUC_YAML_MAX_ANCHORS 1024ULL
#define NPUC_YAML_MAX_NODES 1000000ULL

/* Parses `text` into *doc and points *y at it; false (reported at the
 * problem's position) when it is not YAML or is over a limit above. On
 * success the caller ends with yaml_document_delete(doc). */
bool npuc_yaml_load_string(npuc_yaml *y, yaml_document_t *doc, const char *text,
                           size_t len, const char *file,
                           const npuc_diag_sink *sink);

/* Pairs of a mapping node (0 for anything else), in order: pair i's key
 * text and value. */
size_t npuc_yaml_pairs(const yaml_node_t *map);
const char *npuc_yaml_key(const npuc_yaml *y, const yaml_node_t *map, size_t i);
yaml_node_t *npuc_yaml_value(const npuc_yaml *y, const yaml_node_t *map,
                             size_t i);

#endif
