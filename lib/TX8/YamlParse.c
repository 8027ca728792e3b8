/* The parse-then-walk frame the TX8 YAML loaders (target description, op
 * library, patterns) share. */
#include "YamlParse.h"

bool npuc_tx8_yaml_parse(
    const char *text, size_t len, const char *file, const npuc_diag_sink *sink,
    void (*walk)(npuc_yaml *y, yaml_node_t *root, void *ctx), void *ctx) {
  npuc_yaml y;
  yaml_document_t doc;
  if (!npuc_yaml_load_string(&y, &doc, text, len, file, sink))
    return false;
  walk(&y, yaml_document_get_root_node(&doc), ctx);
  bool ok = y.ok;
  yaml_document_delete(&doc);
  return ok;
}
