/* The tx8be facts the TX8 passes read off MLIR operations (Tx8Ir.h). */
#include "npuc/Tx8Ir.h"
#include "npuc/BuildOps.h"
#include "npuc/IR.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <string.h>

static MlirStringRef ref(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

/* The data of an opaque attribute is `mnemonic<...>`: returns its `<...>`
 * (length in *len), which the tx8be attribute readers take, or NULL when
 * `a` is not an opaque attribute with that mnemonic. */
static const char *opaque_params(MlirAttribute a, const char *mnemonic,
                                 size_t *len) {
  if (!mlirAttributeIsAOpaque(a))
    return NULL;
  MlirStringRef d = mlirOpaqueAttrGetData(a);
  const char *lt = memchr(d.data, '<', d.length);
  size_t m = strlen(mnemonic);
  if (!lt || (size_t)(lt - d.data) != m || memcmp(d.data, mnemonic, m) != 0)
    return NULL;
  *len = d.length - m;
  return lt;
}

/* Sets attribute `name` of `op` to the attribute `text` parses to. */
static void set_parsed(MlirOperation op, const char *name, const char *text) {
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetAttributeByName(op, ref(name),
                                  mlirAttributeParseGet(ctx, ref(text)));
}

npuc_tx8_attr_status npuc_tx8_op_dev_attr(MlirOperation op,
                                          npuc_tx8_dev_attr *out) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, ref("dev_info"));
  if (mlirAttributeIsNull(a))
    return NPUC_TX8_ATTR_ABSENT;
  char err[256] = "not a #tx8be.dev_attr";
  size_t len;
  const char *params = opaque_params(a, "dev_attr", &len);
  if (params && npuc_tx8_parse_dev_attr(params, len, out, err, sizeof err))
    return NPUC_TX8_ATTR_PRESENT;
  npuc_op_error(op, "malformed dev_info: %s", err);
  return NPUC_TX8_ATTR_MALFORMED;
}

void npuc_tx8_op_set_dev_attr(MlirOperation op, const npuc_tx8_dev_attr *a) {
  char text[1024];
  size_t n = npuc_tx8_print_dev_attr(a, text, sizeof text);
  if (n < sizeof text) /* at most 8 entries per list: never this long */
    set_parsed(op, "dev_info", text);
}

npuc_tx8_attr_status npuc_tx8_op_parallel_attr(MlirOperation op,
                                               const char *name,
                                               npuc_tx8_parallel_attr *out) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, ref(name));
  if (mlirAttributeIsNull(a))
    return NPUC_TX8_ATTR_ABSENT;
  char err[256] = "not a #tx8be.parallel_attr";
  size_t len;
  const char *params = opaque_params(a, "parallel_attr", &len);
  if (params && npuc_tx8_parse_parallel_attr(params, len, out, err, sizeof err))
    return NPUC_TX8_ATTR_PRESENT;
  npuc_op_error(op, "malformed %s: %s", name, err);
  return NPUC_TX8_ATTR_MALFORMED;
}

void npuc_tx8_op_set_parallel_attr(MlirOperation op, const char *name,
                                   const npuc_tx8_parallel_attr *a) {
  char text[1024];
  size_t n = npuc_tx8_print_parallel_attr(a, text, sizeof text);
  if (n < sizeof text) /* at most 8 entries per list: never this long */
    set_parsed(op, name, text);
}

npuc_tx8_dev_attr npuc_tx8_dev_attr_with_layout(npuc_tx8_layout_mode mode) {
  npuc_tx8_dev_attr a;
  memset(&a, 0, sizeof a);
  a.mem_layout = mode;
  a.multi_buf_num = 1;
  return a;
}

npuc_tx8_layout_mode npuc_tx8_op_mem_layout(MlirOperation op) {
  npuc_tx8_dev_attr a;
  MlirAttribute raw = mlirOperationGetAttributeByName(op, ref("dev_info"));
  npuc_tx8_layout_mode norm;
  if (mlirAttributeIsNull(raw) && npuc_tx8_channel_norm_layout(op, &norm))
    return norm;
  if (mlirAttributeIsNull(raw) || !mlirAttributeIsAOpaque(raw))
    return NPUC_TX8_TENSOR;
  MlirStringRef d = mlirOpaqueAttrGetData(raw);
  const char *lt = memchr(d.data, '<', d.length);
  if (!lt || !npuc_tx8_parse_dev_attr(lt, d.length - (size_t)(lt - d.data), &a,
                                      NULL, 0))
    return NPUC_TX8_TENSOR;
  return a.mem_layout;
}

bool npuc_tx8_channel_norm_layout(MlirOperation op, npuc_tx8_layout_mode *out) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length != strlen("tx8be.channel_norm") ||
      memcmp(name.data, "tx8be.channel_norm", name.length) != 0)
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(op, ref("layout"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAOpaque(a))
    return false;
  MlirStringRef d = mlirOpaqueAttrGetData(a);
  for (int m = NPUC_TX8_TENSOR; m <= NPUC_TX8_NCX; m++) {
    char want[32];
    snprintf(want, sizeof want, "layout_mode<%s>",
             npuc_tx8_layout_name((npuc_tx8_layout_mode)m));
    if (d.length == strlen(want) && memcmp(d.data, want, d.length) == 0) {
      *out = (npuc_tx8_layout_mode)m;
      return true;
    }
  }
  return false;
}

npuc_tx8_op_attr npuc_tx8_query_op(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  char buf[128];
  if (name.length >= sizeof buf) {
    npuc_tx8_op_attr unknown;
    memset(&unknown, 0, sizeof unknown);
    return unknown;
  }
  memcpy(buf, name.data, name.length);
  buf[name.length] = '\0';
  return npuc_tx8_query_op_attr(buf);
}

bool npuc_tx8_mask_bit(uint64_t mask, intptr_t index) {
  return (mask >> (index < 63 ? index : 63)) & 1u;
}

bool npuc_tx8_dtype_of_type(MlirType t, npuc_tx8_dtype *out) {
  if (mlirTypeIsAF16(t))
    *out = NPUC_TX8_F16;
  else if (mlirTypeIsABF16(t))
    *out = NPUC_TX8_BF16;
  else if (mlirTypeIsAF32(t))
    *out = NPUC_TX8_F32;
  else if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 8)
    *out = NPUC_TX8_I8;
  else
    return false;
  return true;
}

static bool mesh_dim(MlirOperation module, const char *name, int32_t dflt,
                     int32_t *out) {
  MlirAttribute a = mlirOperationGetAttributeByName(module, ref(name));
  if (mlirAttributeIsNull(a)) {
    *out = dflt;
    return true;
  }
  if (mlirAttributeIsAInteger(a)) {
    int64_t v = mlirIntegerAttrGetValueInt(a);
    if (v > 0 && v <= INT32_MAX) {
      *out = (int32_t)v;
      return true;
    }
  }
  npuc_op_error(module, "%s must be a positive integer", name);
  return false;
}

bool npuc_tx8_module_tile_mesh(MlirOperation module, const npuc_tx8_target *t,
                               int32_t *dx, int32_t *dy) {
  bool ok = mesh_dim(module, "tx8be.tile_dx", t->tiles_x, dx);
  return mesh_dim(module, "tx8be.tile_dy", t->tiles_y, dy) && ok;
}

/* Keeps the first diagnostic of the target loader, and where it is. */
typedef struct {
  char text[512];
  char file[4096];
  int line, col;
  bool have;
} first_diag;

static void keep_first(void *user, npuc_severity sev, const char *file,
                       int line, int col, const char *message) {
  first_diag *f = user;
  if (f->have || sev != NPUC_SEV_ERROR)
    return;
  f->have = true;
  snprintf(f->text, sizeof f->text, "%s", message);
  snprintf(f->file, sizeof f->file, "%s", file ? file : "");
  f->line = line;
  f->col = col > 0 ? col : 1;
}

/* A bad config is an error at its own file:line:col (the user edits the
 * config, not the .mlir), with a note at the op the pass was running on. */
bool npuc_tx8_pass_target(MlirOperation anchor, const char *pass,
                          const char *config_path, npuc_tx8_target *out) {
  *out = npuc_tx8_target_builtin();
  if (!config_path || !*config_path)
    return true;
  first_diag f = {"", "", 0, 0, false};
  npuc_diag_sink sink = {keep_first, &f};
  if (npuc_tx8_target_load_file(out, config_path, &sink))
    return true;
  if (!f.have || f.line <= 0) {
    npuc_op_error(anchor, "%s: bad target description: %s%s%s", pass,
                  f.have ? f.file : config_path, f.have ? ": " : "",
                  f.have ? f.text : "");
    return false;
  }
  MlirLocation at = mlirLocationFileLineColGet(
      mlirOperationGetContext(anchor), mlirStringRefCreateFromCString(f.file),
      (unsigned)f.line, (unsigned)f.col);
  npuc_emit_diagnostic(at, NPUC_SEV_ERROR, "%s: bad target description: %s",
                       pass, f.text);
  npuc_emit_diagnostic(mlirOperationGetLocation(anchor), NPUC_SEV_NOTE,
                       "%s read the target description '%s' here", pass,
                       config_path);
  return false;
}

/* ---- DDR layouts of a graph's inputs and constants (Tx8Ir.h) */

static MlirOperation enclosing_module(MlirOperation op) {
  while (!mlirOperationIsNull(op) && !npuc_op_is(op, "builtin.module"))
    op = mlirOperationGetParentOperation(op);
  return op;
}

static npuc_tx8_layout_mode arg_ddr_layout(MlirValue arg) {
  MlirOperation func =
      mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(arg));
  if (mlirOperationIsNull(func) || !npuc_op_is(func, "func.func"))
    return NPUC_TX8_TENSOR;
  MlirAttribute all = mlirOperationGetAttributeByName(func, ref("arg_attrs"));
  intptr_t i = mlirBlockArgumentGetArgNumber(arg);
  if (mlirAttributeIsNull(all) || !mlirAttributeIsAArray(all) ||
      i >= mlirArrayAttrGetNumElements(all))
    return NPUC_TX8_TENSOR;
  MlirAttribute dict = mlirArrayAttrGetElement(all, i);
  if (!mlirAttributeIsADictionary(dict))
    return NPUC_TX8_TENSOR;
  MlirAttribute a = mlirDictionaryAttrGetElementByName(
      dict, ref(NPUC_TX8_ARG_DDR_LAYOUT_ATTR));
  npuc_tx8_layout_mode mode;
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
    return NPUC_TX8_TENSOR;
  MlirStringRef s = mlirStringAttrGetValue(a);
  return npuc_tx8_layout_mode_parse(s.data, s.length, &mode) ? mode
                                                             : NPUC_TX8_TENSOR;
}

/* A load_const's entry is its aligned layout's image when its type is
 * not the load_const's (docs/passes/tx8-const-norm.md). */
static npuc_tx8_layout_mode load_const_ddr_layout(MlirOperation load) {
  npuc_tx8_dev_attr dev;
  if (npuc_tx8_op_dev_attr(load, &dev) != NPUC_TX8_ATTR_PRESENT ||
      !npuc_tx8_is_aligned(dev.mem_layout))
    return NPUC_TX8_TENSOR;
  MlirOperation module = enclosing_module(load);
  MlirAttribute c = mlirOperationIsNull(module)
                        ? (MlirAttribute){NULL}
                        : mlirOperationGetAttributeByName(
                              module, ref("tx8be.const_container"));
  MlirAttribute ida =
      mlirOperationGetAttributeByName(load, ref("const_map_id"));
  int64_t id =
      mlirAttributeIsAInteger(ida) ? mlirIntegerAttrGetValueInt(ida) : -1;
  if (mlirAttributeIsNull(c) || !mlirAttributeIsAArray(c) || id < 0 ||
      id >= mlirArrayAttrGetNumElements(c))
    return NPUC_TX8_TENSOR;
  MlirAttribute entry = mlirArrayAttrGetElement(c, id);
  MlirType result = mlirValueGetType(mlirOperationGetResult(load, 0));
  return mlirTypeEqual(mlirAttributeGetType(entry), result) ? NPUC_TX8_TENSOR
                                                            : dev.mem_layout;
}

npuc_tx8_layout_mode npuc_tx8_value_ddr_layout(MlirValue v) {
  if (mlirValueIsABlockArgument(v))
    return arg_ddr_layout(v);
  MlirOperation def = mlirOpResultGetOwner(v);
  return npuc_op_is(def, "tx8be.load_const") ? load_const_ddr_layout(def)
                                             : NPUC_TX8_TENSOR;
}
