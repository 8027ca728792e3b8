/* Small accessors over libyaml's document API. See npuc/YamlDoc.h. */
#include "npuc/YamlDoc.h"
#include "npuc/Alloc.h"

#include <stdint.h>
#include <stdlib.h>
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

/* Before loading: nesting at most NPUC_YAML_MAX_DEPTH deep, at most
 * NPUC_YAML_MAX_ANCHORS anchors, and the document, with every alias
 * expanded, at most NPUC_YAML_MAX_NODES nodes. libyaml shares an aliased
 * node, but whoever walks the document meets it once per alias, so a
 * "billion laughs" of nested aliases would walk forever. Counted on the
 * event stream, in time linear in the text. */
typedef struct {
  const char *anchor; /* of the open collection, or NULL */
  uint64_t nodes;     /* expanded nodes inside it so far */
} yaml_frame;

typedef struct {
  char *name;
  uint64_t nodes;
} yaml_anchor;

typedef struct {
  yaml_frame stack[NPUC_YAML_MAX_DEPTH + 1];
  int depth;
  yaml_anchor anchors[NPUC_YAML_MAX_ANCHORS];
  size_t num_anchors;
  const char *file;
  const npuc_diag_sink *sink;
} yaml_budget;

static bool budget_event(yaml_budget *b, const yaml_event_t *e);
static bool budget_add(yaml_budget *b, const yaml_event_t *e,
                       const yaml_char_t *anchor, uint64_t nodes);
static bool budget_fail(yaml_budget *b, const yaml_event_t *e, const char *fmt,
                        unsigned long long n);

static bool check_yaml_budget(const char *text, size_t len, const char *file,
                              const npuc_diag_sink *sink) {
  yaml_parser_t parser;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  yaml_budget *b = npuc_xcalloc(1, sizeof *b);
  b->file = file;
  b->sink = sink;
  bool ok = true, done = false;
  while (ok && !done) {
    yaml_event_t e;
    if (!yaml_parser_parse(&parser, &e))
      break; /* the loader reports syntax errors */
    done = e.type == YAML_STREAM_END_EVENT;
    ok = budget_event(b, &e);
    yaml_event_delete(&e);
  }
  for (size_t i = 0; i < b->num_anchors; i++)
    free(b->anchors[i].name);
  free(b);
  yaml_parser_delete(&parser);
  return ok;
}

static bool budget_event(yaml_budget *b, const yaml_event_t *e) {
  switch (e->type) {
  case YAML_SCALAR_EVENT: return budget_add(b, e, e->data.scalar.anchor, 1);
  case YAML_ALIAS_EVENT:
    for (size_t i = 0; i < b->num_anchors; i++)
      if (strcmp(b->anchors[i].name, (const char *)e->data.alias.anchor) == 0)
        return budget_add(b, e, NULL, b->anchors[i].nodes);
    return true; /* undefined: the loader reports it */
  case YAML_SEQUENCE_START_EVENT:
  case YAML_MAPPING_START_EVENT:
    if (b->depth == NPUC_YAML_MAX_DEPTH)
      return budget_fail(b, e, "YAML nested deeper than %llu levels",
                         NPUC_YAML_MAX_DEPTH);
    b->stack[++b->depth] =
        (yaml_frame){(const char *)(e->type == YAML_SEQUENCE_START_EVENT
                                        ? e->data.sequence_start.anchor
                                        : e->data.mapping_start.anchor),
                     0};
    if (b->stack[b->depth].anchor)
      b->stack[b->depth].anchor = npuc_xstrdup(b->stack[b->depth].anchor);
    return true;
  case YAML_SEQUENCE_END_EVENT:
  case YAML_MAPPING_END_EVENT: {
    yaml_frame f = b->stack[b->depth--];
    bool ok = budget_add(b, e, (const yaml_char_t *)f.anchor, f.nodes + 1);
    free((char *)f.anchor);
    return ok;
  }
  default: return true;
  }
}

/* `nodes` more in the open collection; an anchored node is remembered. */
static bool budget_add(yaml_budget *b, const yaml_event_t *e,
                       const yaml_char_t *anchor, uint64_t nodes) {
  if (anchor) {
    if (b->num_anchors == NPUC_YAML_MAX_ANCHORS)
      return budget_fail(b, e, "YAML with more than %llu anchors",
                         NPUC_YAML_MAX_ANCHORS);
    b->anchors[b->num_anchors++] =
        (yaml_anchor){npuc_xstrdup((const char *)anchor), nodes};
  }
  b->stack[b->depth].nodes += nodes;
  if (b->stack[b->depth].nodes > NPUC_YAML_MAX_NODES)
    return budget_fail(b, e,
                       "YAML whose aliases expand to more than %llu nodes",
                       NPUC_YAML_MAX_NODES);
  return true;
}

static bool budget_fail(yaml_budget *b, const yaml_event_t *e, const char *fmt,
                        unsigned long long n) {
  npuc_diag_emit(b->sink, NPUC_SEV_ERROR, b->file, (int)e->start_mark.line + 1,
                 (int)e->start_mark.column + 1, fmt, n);
  return false;
}

bool npuc_yaml_load_string(npuc_yaml *y, yaml_document_t *doc, const char *text,
                           size_t len, const char *file,
                           const npuc_diag_sink *sink) {
  y->doc = doc;
  y->file = file;
  y->sink = sink;
  y->ok = false;
  if (!check_yaml_budget(text, len, file, sink))
    return false;
  yaml_parser_t parser;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
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
