/* Helpers shared by the tx8-layout passes (Tx8LayoutSupport.h). */
#include "Tx8LayoutSupport.h"

#include "npuc/BuildOps.h"
#include "npuc/OpList.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- ops --------------------------------------------------------------------
 */

static unsigned not_root(MlirOperation op, void *root) {
  return mlirOperationEqual(op, *(MlirOperation *)root) ? NPUC_OP_PASS
                                                        : NPUC_OP_KEEP;
}

MlirOperation *tx8l_collect_ops(MlirOperation func, size_t *count) {
  npuc_op_list l = {0};
  npuc_op_list_collect(func, MlirWalkPreOrder, not_root, &func, &l);
  *count = l.count;
  return l.ops;
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

/* ---- layout_str
 * ----------------------------------------------------------------- */

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
  return npuc_tx8_query_op(op).layout_rule == NPUC_TX8_LAYOUT_SOURCE;
}

bool tx8l_result_layout(MlirOperation op, char *out, size_t cap) {
  char own[TX8L_NAME_CAP];
  if (!tx8l_layout_known(op, own, sizeof own))
    return false;
  if (!is_source(op))
    return snprintf(out, cap, "%s", own) < (int)cap;
  return npuc_tx8_layout_component(own, npuc_tx8_layout_num_components(own) - 1,
                                   out, cap);
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
             "(three names joined by '-')",
             layout);
    return false;
  }
  return component_valid(
             layout, 0,
             tx8l_rank(mlirValueGetType(mlirOperationGetOperand(op, 0))),
             "input", why, why_cap) &&
         component_valid(
             layout, 1,
             tx8l_rank(mlirValueGetType(mlirOperationGetOperand(op, 1))),
             "weight", why, why_cap) &&
         component_valid(layout, 2, result_rank, "result", why, why_cap);
}

/* ---- types
 * -------------------------------------------------------------------- */

bool tx8l_is_ranked_tensor(MlirType t) { return mlirTypeIsARankedTensor(t); }

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

bool tx8l_alignable(MlirType t) {
  npuc_tx8_dtype dt;
  return tx8l_is_ranked_tensor(t) &&
         npuc_tx8_dtype_of_type(mlirShapedTypeGetElementType(t), &dt);
}

void tx8l_set_mem_layout(MlirOperation op, npuc_tx8_layout_mode mode) {
  npuc_tx8_dev_attr a;
  if (npuc_tx8_op_dev_attr(op, &a) != NPUC_TX8_ATTR_PRESENT)
    a = npuc_tx8_dev_attr_with_layout(mode);
  a.mem_layout = mode;
  npuc_tx8_op_set_dev_attr(op, &a);
}

/* ---- channel_norm
 * ------------------------------------------------------------------ */

bool tx8l_channel_norm_target(MlirOperation op, npuc_tx8_layout_mode *out) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("layout"));
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
  MlirNamedAttribute attrs[] = {
      named(ctx, "layout", layout_mode_attr(ctx, mode)),
      named(ctx, "layout_str",
            mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(layout_str))),
  };
  npuc_builder b = npuc_builder_before(before);
  MlirType t = mlirValueGetType(v);
  MlirOperation cn = npuc_build_op(&b, "tx8be.channel_norm", 1, &v, 1, &t,
                                   sizeof attrs / sizeof attrs[0], attrs);
  npuc_tx8_dev_attr dev = npuc_tx8_dev_attr_with_layout(mode);
  npuc_tx8_op_set_dev_attr(cn, &dev);
  return mlirOperationGetResult(cn, 0);
}
