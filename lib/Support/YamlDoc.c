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

bool npuc_yaml_load_string(npuc_yaml *y, yaml_document_t *doc, const char *text,
                         size_t len, const char *file,
                         const npuc_diag_sink *sink) {
  yaml_parser_t parser;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  y->doc = doc;
  y->file = file;
  y->sink = sink;
  y->ok = yaml_parser_load(&parser, doc) != 0;
  if (!y->ok)
    npuc_diag_emit(sink, NPUC_SEV_ERROR, file,
                   (int)parser.problem_mark.line + 1,
                   (int)parser.problem_mark.column + 1, "invalid YAML: %s",
                   parser.problem ? parser.problem : "parse error");
  yaml_parser_delete(&parser);
  return y->ok;
}

size_t npuc_yaml_pairs(const yaml_node_t *map) {
  return map && map->type == YAML_MAPPING_NODE
             ? (size_t)(map->data.mapping.pairs.top -
                        map->data.mapping.pairs.start)
             : 0;
}

const char *npuc_yaml_key(const npuc_yaml *y, const yaml_node_t *map,
                               size_t i) {
  return npuc_yaml_scalar(
      yaml_document_get_node(y->doc, map->data.mapping.pairs.start[i].key));
}

yaml_node_t *npuc_yaml_value(const npuc_yaml *y, const yaml_node_t *map,
                                  size_t i) {
  return yaml_document_get_node(y->doc, map->data.mapping.pairs.start[i].value);
}
