/* Helpers shared by the tx8-layout passes (Tx8LayoutSupport.h). */
#include "Tx8LayoutSupport.h"

#include "../BuildOps.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- ops -------------------------------------------------------------------- */

typedef struct {
  MlirOperation root;
  MlirOperation *ops;
  size_t len, cap;
} op_list;

static MlirWalkResult collect_one(MlirOperation op, void *user) {
  op_list *l = user;
  if (mlirOperationEqual(op, l->root))
    return MlirWalkResultAdvance;
  if (l->len == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 64;
    MlirOperation *grown = realloc(l->ops, cap * sizeof *grown);
    if (!grown)
      abort();
    l->ops = grown;
    l->cap = cap;
  }
  l->ops[l->len++] = op;
  return MlirWalkResultAdvance;
}

MlirOperation *tx8l_collect_ops(MlirOperation func, size_t *count) {
  op_list l = {func, NULL, 0, 0};
  mlirOperationWalk(func, collect_one, &l, MlirWalkPreOrder);
  *count = l.len;
  return l.ops;
}

bool tx8l_op_is(MlirOperation op, const char *name) {
  return npuc_op_is(op, name);
}

void tx8l_op_name(MlirOperation op, char *buf, size_t cap) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  snprintf(buf, cap, "%.*s", (int)n.length, n.data);
}

bool tx8l_is_layout_op(const npuc_op_registry *reg, MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  if (n.length < 6 || memcmp(n.data, "tx8be.", 6) != 0 || !reg)
    return false;
  const npuc_op_def *def = npuc_op_lookup(reg, n.data, n.length);
  return def && npuc_op_find_attr(def, "layout_str") >= 0 &&
         mlirOperationGetNumResults(op) == 1;
}

npuc_tx8_op_attr tx8l_query(MlirOperation op) {
  char name[TX8L_NAME_CAP];
  tx8l_op_name(op, name, sizeof name);
  return npuc_tx8_query_op_attr(name);
}

/* ---- layout_str ----------------------------------------------------------------- */

bool tx8l_layout_str(MlirOperation op, char *out, size_t cap) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("layout_str"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
    return false;
  MlirStringRef s = mlirStringAttrGetValue(a);
  if (s.length + 1 > cap)
    return false;
  memcpy(out, s.data, s.length);
  out[s.length] = '\0';
  return true;
}

void tx8l_set_layout_str(MlirOperation op, const char *layout) {
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetAttributeByName(
      op, mlirStringRefCreateFromCString("layout_str"),
      mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(layout)));
}

bool tx8l_layout_known(MlirOperation op, char *out, size_t cap) {
  return tx8l_layout_str(op, out, cap) && strcmp(out, TX8L_UNKNOWN) != 0;
}

static bool is_source(MlirOperation op) {
  return tx8l_query(op).layout_rule == NPUC_TX8_LAYOUT_SOURCE;
}

bool tx8l_result_layout(MlirOperation op, char *out, size_t cap) {
  char own[TX8L_NAME_CAP];
  if (!tx8l_layout_known(op, own, sizeof own))
    return false;
  if (!is_source(op))
    return snprintf(out, cap, "%s", own) < (int)cap;
  return npuc_tx8_layout_component(
      own, npuc_tx8_layout_num_components(own) - 1, out, cap);
}

static bool component_valid(const char *layout, int index, int rank,
                            const char *what, char *why, size_t why_cap) {
  char name[TX8L_NAME_CAP];
  if (!npuc_tx8_layout_component(layout, index, name, sizeof name) ||
      !npuc_tx8_layout_name_valid(name, rank)) {
    snprintf(why, why_cap, "'%s' does not name a layout of the rank-%d %s",
             name, rank, what);
    return false;
  }
  return true;
}

bool tx8l_layout_valid(MlirOperation op, const char *layout, char *why,
                       size_t why_cap) {
  int result_rank = tx8l_rank(mlirValueGetType(mlirOperationGetResult(op, 0)));
  if (!is_source(op)) {
    if (npuc_tx8_layout_num_components(layout) == 1)
      return component_valid(layout, 0, result_rank, "result", why, why_cap);
    snprintf(why, why_cap,
             "'%s' joins several layouts, which only gemm and conv do", layout);
    return false;
  }
  if (npuc_tx8_layout_num_components(layout) != 3) {
    snprintf(why, why_cap,
             "'%s' must name the input, weight and result layouts "
             "(three names joined by '-')", layout);
    return false;
  }
  return component_valid(
             layout, 0, tx8l_rank(mlirValueGetType(mlirOperationGetOperand(op, 0))),
             "input", why, why_cap) &&
         component_valid(
             layout, 1, tx8l_rank(mlirValueGetType(mlirOperationGetOperand(op, 1))),
             "weight", why, why_cap) &&
         component_valid(layout, 2, result_rank, "result", why, why_cap);
}

/* ---- types -------------------------------------------------------------------- */

bool tx8l_is_ranked_tensor(MlirType t) {
  return mlirTypeIsARankedTensor(t);
}

int tx8l_rank(MlirType t) {
  return tx8l_is_ranked_tensor(t) ? (int)mlirShapedTypeGetRank(t) : -1;
}

bool tx8l_static_shape(MlirType t, npuc_tx8_shape *out) {
  if (!tx8l_is_ranked_tensor(t) || !mlirShapedTypeHasStaticShape(t) ||
      mlirShapedTypeGetRank(t) > NPUC_TX8_MAX_RANK)
    return false;
  out->rank = (int)mlirShapedTypeGetRank(t);
  for (int i = 0; i < out->rank; ++i)
    out->dims[i] = mlirShapedTypeGetDimSize(t, i);
  return true;
}

bool tx8l_dtype(MlirType tensor, npuc_tx8_dtype *out) {
  if (!tx8l_is_ranked_tensor(tensor))
    return false;
  MlirType e = mlirShapedTypeGetElementType(tensor);
  if (mlirTypeIsAF16(e))
    *out = NPUC_TX8_F16;
  else if (mlirTypeIsABF16(e))
    *out = NPUC_TX8_BF16;
  else if (mlirTypeIsAF32(e))
    *out = NPUC_TX8_F32;
  else if (mlirTypeIsAInteger(e) && mlirIntegerTypeGetWidth(e) == 8)
    *out = NPUC_TX8_I8;
  else
    return false;
  return true;
}

/* ---- dev_info ----------------------------------------------------------------- */

typedef struct {
  char *buf;
  size_t len, cap;
} text_buf;

static void append_text(MlirStringRef s, void *user) {
  text_buf *t = user;
  if (t->len + s.length + 1 > t->cap) {
    size_t cap = 2 * (t->len + s.length + 1);
    char *grown = realloc(t->buf, cap);
    if (!grown)
      abort();
    t->buf = grown;
    t->cap = cap;
  }
  memcpy(t->buf + t->len, s.data, s.length);
  t->len += s.length;
  t->buf[t->len] = '\0';
}

static MlirAttribute named_attr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op,
                                         mlirStringRefCreateFromCString(name));
}

bool tx8l_dev_info(MlirOperation op, npuc_tx8_dev_attr *out, bool *present,
                   char *err, size_t err_cap) {
  MlirAttribute a = named_attr(op, "dev_info");
  *present = !mlirAttributeIsNull(a);
  if (!*present)
    return true;
  text_buf t = {NULL, 0, 0};
  mlirAttributePrint(a, append_text, &t);
  bool ok = t.buf && npuc_tx8_parse_dev_attr(t.buf, t.len, out, err, err_cap);
  if (!t.buf)
    snprintf(err, err_cap, "empty attribute");
  free(t.buf);
  return ok;
}

npuc_tx8_dev_attr tx8l_dev_info_default(npuc_tx8_layout_mode mode) {
  npuc_tx8_dev_attr a;
  memset(&a, 0, sizeof a);
  a.mem_layout = mode;
  a.multi_buf_num = 1;
  return a;
}

MlirAttribute tx8l_dev_info_attr(MlirContext ctx, const npuc_tx8_dev_attr *a) {
  char text[1024];
  size_t n = npuc_tx8_print_dev_attr(a, text, sizeof text);
  if (n >= sizeof text)
    abort(); /* eight-entry lists of int64 fit with room to spare */
  return mlirAttributeParseGet(ctx, mlirStringRefCreate(text, n));
}

bool tx8l_set_mem_layout(MlirOperation op, npuc_tx8_layout_mode mode) {
  npuc_tx8_dev_attr a;
  bool present;
  char err[128];
  if (!tx8l_dev_info(op, &a, &present, err, sizeof err))
    return false;
  if (!present)
    a = tx8l_dev_info_default(mode);
  a.mem_layout = mode;
  mlirOperationSetAttributeByName(
      op, mlirStringRefCreateFromCString("dev_info"),
      tx8l_dev_info_attr(mlirOperationGetContext(op), &a));
  return true;
}

/* ---- channel_norm ------------------------------------------------------------------ */

bool tx8l_channel_norm_target(MlirOperation op, npuc_tx8_layout_mode *out) {
  MlirAttribute a = named_attr(op, "layout");
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAOpaque(a))
    return false;
  /* The opaque data is `layout_mode<NCx>`. */
  MlirStringRef d = mlirOpaqueAttrGetData(a);
  const char *open = memchr(d.data, '<', d.length);
  const char *close = d.length ? d.data + d.length - 1 : NULL;
  if (!open || !close || *close != '>' || close <= open)
    return false;
  return npuc_tx8_layout_mode_parse(open + 1, (size_t)(close - open - 1), out);
}

static MlirAttribute layout_mode_attr(MlirContext ctx,
                                      npuc_tx8_layout_mode mode) {
  char text[48];
  int n = snprintf(text, sizeof text, "#tx8be.layout_mode<%s>",
                   npuc_tx8_layout_name(mode));
  return mlirAttributeParseGet(ctx, mlirStringRefCreate(text, (size_t)n));
}

static MlirNamedAttribute named(MlirContext ctx, const char *name,
                                MlirAttribute a) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

MlirValue tx8l_build_channel_norm(MlirOperation before, MlirValue v,
                                  npuc_tx8_layout_mode mode,
                                  const char *layout_str) {
  MlirContext ctx = mlirOperationGetContext(before);
  npuc_tx8_dev_attr dev = tx8l_dev_info_default(mode);
  MlirNamedAttribute attrs[] = {
      named(ctx, "layout", layout_mode_attr(ctx, mode)),
      named(ctx, "layout_str",
            mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(layout_str))),
      named(ctx, "dev_info", tx8l_dev_info_attr(ctx, &dev)),
  };
  npuc_builder b = npuc_builder_before(before);
  MlirType t = mlirValueGetType(v);
  MlirOperation cn = npuc_build_op(&b, "tx8be.channel_norm", 1, &v, 1, &t,
                                   sizeof attrs / sizeof attrs[0], attrs);
  return mlirOperationGetResult(cn, 0);
}
