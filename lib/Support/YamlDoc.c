/* Small accessors over libyaml's document API. See npuc/YamlDoc.h. */
#include "npuc/YamlDoc.h"

#include <string.h>

const char *npuc_yaml_scalar(const yaml_node_t *n) {
  return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value
                                          : NULL;
}

yaml_node_t *npuc_yaml_get(const npuc_yaml *y, const yaml_node_t *map,
                           const char *key) {
  if (!map || map->type != YAML_MAPPING_NODE)
    return NULL;
  for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
       p < map->data.mapping.pairs.top; ++p) {
    const char *k = npuc_yaml_scalar(yaml_document_get_node(y->doc, p->key));
    if (k && strcmp(k, key) == 0)
      return yaml_document_get_node(y->doc, p->value);
  }
  return NULL;
}

size_t npuc_yaml_len(const yaml_node_t *seq) {
  return seq && seq->type == YAML_SEQUENCE_NODE
             ? (size_t)(seq->data.sequence.items.top -
                        seq->data.sequence.items.start)
             : 0;
}

yaml_node_t *npuc_yaml_at(const npuc_yaml *y, const yaml_node_t *seq,
                          size_t i) {
  return yaml_document_get_node(y->doc, seq->data.sequence.items.start[i]);
}

void npuc_yaml_error(npuc_yaml *y, const yaml_node_t *at, const char *fmt,
                     ...) {
  va_list ap;
  va_start(ap, fmt);
  npuc_diag_vemit(y->sink, NPUC_SEV_ERROR, y->file,
                  at ? (int)at->start_mark.line + 1 : 0,
                  at ? (int)at->start_mark.column + 1 : 0, fmt, ap);
  va_end(ap);
  y->ok = false;
}
