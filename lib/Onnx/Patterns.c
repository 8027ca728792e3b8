/* Subgraphs the importer recognises as one tx8be op: exporters decompose
 * ops ONNX lacks (or lacked before opset 17), and tx8be has the whole op.
 *
 *   gelu:      y = (x * (erf(x / sqrt 2) + 1)) * 0.5      -> tx8be.gelu
 *   layernorm: d = x - mean(x); y = d / sqrt(mean(d^2) + eps) [* g] [+ b]
 *              (the opset-13 form, over the last axis)     -> tx8be.layernorm
 *
 * Requires count_uses (uses, consumer, producer of every value). A match
 * needs every inner value read only inside the pattern; it marks the inner
 * nodes skipped and the last node as the pattern's, which builds the op
 * when the walk reaches it (its inputs are defined by then). tx8be has no
 * erf, so an Erf outside the gelu form is reported by its op rule. */
#include "OnnxFold.h"

#include <math.h>
#include <string.h>

static const Onnx__NodeProto *node_at(importer *im, int i) {
  return i >= 0 ? im->graph->node[i] : NULL;
}

/* The node alone reading `name` (its output read once), if its op_type is
 * `op`. */
static int only_consumer(importer *im, const char *name, const char *op) {
  oval *v = onnx_value(im, name);
  if (!v || v->uses != 1 || v->consumer < 0)
    return -1;
  const Onnx__NodeProto *c = node_at(im, v->consumer);
  return strcmp(c->op_type, op) == 0 && c->n_output >= 1 ? v->consumer : -1;
}

/* The input of binary node `n` that is not `name`, if the other is. */
static const char *other_input(const Onnx__NodeProto *n, const char *name) {
  if (n->n_input != 2)
    return NULL;
  if (!strcmp(n->input[0], name))
    return n->input[1];
  if (!strcmp(n->input[1], name))
    return n->input[0];
  return NULL;
}

/* Is `name` a constant whose every element is within 1e-4 of v? */
static bool const_near(importer *im, const char *name, double v) {
  oval *c = name ? onnx_value(im, name) : NULL;
  if (!c || !onnx_is_const(c) || c->count < 1)
    return false;
  for (int64_t k = 0; k < c->count; ++k)
    if (fabs(onnx_get(c, k) - v) > 1e-4 * (fabs(v) > 1 ? fabs(v) : 1))
      return false;
  return true;
}

static int producer(importer *im, const char *name) {
  oval *v = onnx_value(im, name);
  return v ? v->producer : -1;
}

static void match_gelu(importer *im, int erf) {
  const Onnx__NodeProto *e = node_at(im, erf);
  if (e->n_input != 1 || e->n_output != 1)
    return;
  int div = producer(im, e->input[0]);
  const Onnx__NodeProto *d = node_at(im, div);
  if (!d || d->n_input != 2 || only_consumer(im, d->output[0], "Erf") != erf)
    return;
  const char *x = d->input[0];
  bool scaled =
      (!strcmp(d->op_type, "Div") && const_near(im, d->input[1], sqrt(2.0))) ||
      (!strcmp(d->op_type, "Mul") && const_near(im, d->input[1], sqrt(0.5)));
  int add = only_consumer(im, e->output[0], "Add");
  if (!scaled || add < 0 ||
      !const_near(im, other_input(node_at(im, add), e->output[0]), 1))
    return;
  int mul = only_consumer(im, node_at(im, add)->output[0], "Mul");
  if (mul < 0)
    return;
  const char *mx = other_input(node_at(im, mul), node_at(im, add)->output[0]);
  int half = only_consumer(im, node_at(im, mul)->output[0], "Mul");
  if (!mx || strcmp(mx, x) || half < 0 ||
      !const_near(
          im, other_input(node_at(im, half), node_at(im, mul)->output[0]), 0.5))
    return;
  im->skip[div] = im->skip[erf] = im->skip[add] = im->skip[mul] = true;
  im->patterns[half] = (onnx_pattern){PATTERN_GELU, x, NULL, NULL, 0, 0};
}

/* Does ReduceMean node r reduce one axis of x, keeping it? Shapes are
 * not known yet: the emission checks it is the last. */
static bool mean_of_one(importer *im, int r, const char *x, int64_t *axis) {
  const Onnx__NodeProto *n = node_at(im, r);
  int64_t axes[MAX_RANK];
  if (!n || strcmp(n->op_type, "ReduceMean"))
    return false;
  int na = onnx_attr_ints(n, "axes", axes, MAX_RANK);
  *axis = na == 1 ? axes[0] : 0;
  return na == 1 && onnx_attr_i(n, "keepdims", 1) == 1 && n->n_input >= 1 &&
         !strcmp(n->input[0], x);
}

/* The node reading `name` with op `op` as its input `k`, scanning from
 * node `from` (a value read twice has no single consumer). */
static int reader(importer *im, const char *name, const char *op, size_t k,
                  int from) {
  for (size_t i = (size_t)from; i < im->graph->n_node; ++i) {
    const Onnx__NodeProto *n = im->graph->node[i];
    if (!strcmp(n->op_type, op) && n->n_input > k && !strcmp(n->input[k], name))
      return (int)i;
  }
  return -1;
}

/* The node `op` alone reading node `from`'s output with a constant as its
 * other operand (*c, else NULL). */
static int const_operand_after(importer *im, int from, const char *op,
                               const char **c) {
  const char *out = node_at(im, from)->output[0];
  int next = only_consumer(im, out, op);
  const char *other = next < 0 ? NULL : other_input(node_at(im, next), out);
  *c = other && onnx_is_const(onnx_value(im, other)) ? other : NULL;
  return next;
}

static void match_layernorm(importer *im, int mean) {
  const Onnx__NodeProto *m = node_at(im, mean);
  const char *x = m->input[0];
  int64_t axis, axis2;
  if (!mean_of_one(im, mean, x, &axis))
    return;
  int sub = only_consumer(im, m->output[0], "Sub");
  if (sub < 0 || strcmp(node_at(im, sub)->input[0], x) ||
      strcmp(node_at(im, sub)->input[1], m->output[0]))
    return;
  const char *d = node_at(im, sub)->output[0];
  oval *dv = onnx_value(im, d);
  int pow = reader(im, d, "Pow", 0, sub), div = reader(im, d, "Div", 0, sub);
  if (!dv || dv->uses != 2 || pow < 0 || div < 0 ||
      !const_near(im, node_at(im, pow)->input[1], 2))
    return;
  int var = only_consumer(im, node_at(im, pow)->output[0], "ReduceMean");
  if (var < 0 || !mean_of_one(im, var, node_at(im, pow)->output[0], &axis2) ||
      axis2 != axis)
    return;
  int add = only_consumer(im, node_at(im, var)->output[0], "Add");
  const char *eps =
      add < 0 ? NULL
              : other_input(node_at(im, add), node_at(im, var)->output[0]);
  oval *ev = eps ? onnx_value(im, eps) : NULL;
  if (!ev || !onnx_is_const(ev) || ev->count != 1)
    return;
  int sqrt_n = only_consumer(im, node_at(im, add)->output[0], "Sqrt");
  if (sqrt_n < 0 ||
      only_consumer(im, node_at(im, sqrt_n)->output[0], "Div") != div ||
      strcmp(node_at(im, div)->input[1], node_at(im, sqrt_n)->output[0]))
    return;
  int last = div;
  const char *scale = NULL, *bias = NULL;
  int mul = const_operand_after(im, last, "Mul", &scale);
  last = scale ? mul : last;
  int badd = const_operand_after(im, last, "Add", &bias);
  last = bias ? badd : last;
  int nodes[] = {mean, sub, pow, var, add, sqrt_n, div, mul, badd};
  for (size_t k = 0; k < sizeof nodes / sizeof nodes[0]; ++k)
    if (nodes[k] >= 0 && nodes[k] != last && (nodes[k] != mul || scale) &&
        (nodes[k] != badd || bias))
      im->skip[nodes[k]] = true;
  im->patterns[last] = (onnx_pattern){PATTERN_LAYERNORM,      x,   scale, bias,
                                      (float)onnx_get(ev, 0), axis};
}

void onnx_find_patterns(importer *im) {
  for (size_t i = 0; i < im->graph->n_node; ++i) {
    const Onnx__NodeProto *n = im->graph->node[i];
    if (!strcmp(n->op_type, "Erf"))
      match_gelu(im, (int)i);
    else if (!strcmp(n->op_type, "ReduceMean") && n->n_input >= 1 &&
             n->n_output >= 1 && !im->skip[i])
      match_layernorm(im, (int)i);
  }
}

bool onnx_emit_pattern(importer *im, const Onnx__NodeProto *n, int index) {
  const onnx_pattern *p = &im->patterns[index];
  oval *x = onnx_value(im, p->x), *o = onnx_out(im, n, 0);
  if (!x || x->pending || onnx_is_const(x))
    return onnx_error(im, n, "the pattern's input is not a run-time tensor");
  if (p->kind == PATTERN_GELU) {
    onnx_build_unary(im, "tx8be.gelu", x, o);
    return true;
  }
  if (p->axis != -1 && p->axis != x->rank - 1)
    return onnx_error(im, n,
                      "the layer norm decomposition normalises axis "
                      "%lld, not the last",
                      (long long)p->axis);
  return onnx_build_layernorm(
      im, n, x, p->scale ? onnx_value(im, p->scale) : NULL,
      p->bias ? onnx_value(im, p->bias) : NULL, p->eps, o);
}
