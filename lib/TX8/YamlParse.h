/* Private to lib/TX8: the parse-then-walk frame the TX8 YAML loaders share. */
#ifndef NPUC_TX8_YAML_PARSE_H
#define NPUC_TX8_YAML_PARSE_H

#include "npuc/YamlDoc.h"

#include <stdbool.h>
#include <stddef.h>

/* Parses `text` (named `file` in diagnostics, which go to `sink`) and hands
 * its root node (NULL for an empty document) to `walk`, which reports
 * problems through npuc_yaml_error. True when the text parsed and `walk`
 * reported nothing. */
bool npuc_tx8_yaml_parse(
    const char *text, size_t len, const char *file, const npuc_diag_sink *sink,
    void (*walk)(npuc_yaml *y, yaml_node_t *root, void *ctx), void *ctx);

#endif
