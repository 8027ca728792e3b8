/* tx8-move-constant: the seed's MoveConstantPass. Every tx8be.constant
 * moves its data into the module's constant container
 * (tx8be.const_container, Tx8ConstContainer.h) and each of its uses reads
 * it through a tx8be.load_const[id] of its own, placed before the user
 * (ConstantToLoadConst). A load_const whose user does not load that
 * operand (the user's need_load mask, from the op library) gets
 * `bypasscodegen`. Entries over a DDR bank per tile (4 KiB x 16) come
 * first, then the rest, each in order of appearance (updateConstContainer).
 * A `dense_resource` value (npuc-import's text keeps weights in the
 * file's resource section) is read into dense elements first; a blob that
 * is missing (printed with --elide-weights) or of the wrong size is an
 * error at the constant. docs/passes/tx8-move-constant.md. */
#include "Tx8Options.h"
#include "Tx8ConstContainer.h"
#include "Tx8Graph.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"
#include "npuc/Alloc.h"
#include "npuc/Checked.h"
#include "npuc/MlirSupport.h"
#include "npuc/StringBuilder.h"

#include <stddef.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdlib.h>
#include <string.h>

#define MOVE_CONSTANT_OPTIONS(X, T)                                            \
  TX8_OPTION_TARGET_CONFIG(X, T)                                               \
  TX8_OPTION_ALIGNED_DATA(X, T, "whose dev_info says Cx/NCx")
NPUC_PASS_OPTIONS(move_constant_options, MOVE_CONSTANT_OPTIONS);

NPUC_PASS_DEFINE(
    npuc_pass_tx8_move_constant, "tx8-move-constant",
    "Move tx8be constants into the constant container, read by load_const",
    "builtin.module", move_constants,
    NPUC_PASS_OPTIONS_OF(move_constant_options));

static bool check_load_consts(MlirOperation module, size_t entries);
static bool entry_value(MlirOperation constant, bool aligned_data,
                        MlirAttribute *value);
static bool resource_to_dense(MlirOperation constant, MlirAttribute *value);
static bool check_users(MlirOperation constant);
static void replace_uses(MlirOperation constant, int32_t id);
static void renumber(MlirOperation module, const int32_t *map);
static MlirStringRef ref(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

static bool move_constants(MlirOperation module, const npuc_pass_options *opts,
                           const npuc_pass_context *ctx) {
  (void)ctx;
  tx8_const_container cc;
  int64_t threshold;
  if (!tx8_container_open(
          module, npuc_pass_tx8_move_constant.name,
          NPUC_PASS_OPTS(move_constant_options, opts)->target_config, &cc,
          &threshold))
    return false;
  tx8_op_list constants;
  tx8_collect_ops(module, "tx8be.constant", &constants);
  MlirAttribute *values = npuc_xcalloc(constants.count + 1, sizeof *values);
  /* Check everything first: on an error the module stays as it was. */
  bool ok = check_load_consts(module, cc.count);
  for (size_t i = 0; i < constants.count; i++) {
    ok = entry_value(constants.ops[i],
                     NPUC_PASS_OPTS(move_constant_options, opts)->aligned_data,
                     &values[i]) &&
         ok;
    ok = check_users(constants.ops[i]) && ok;
  }
  for (size_t i = 0; ok && i < constants.count; i++) {
    MlirOperation c = constants.ops[i];
    /* A constant nobody reads gets no entry. */
    if (!mlirOpOperandIsNull(
            mlirValueGetFirstUse(mlirOperationGetResult(c, 0))))
      replace_uses(c, (int32_t)tx8_container_add(&cc, values[i]));
    mlirOperationDestroy(c);
  }
  if (ok) {
    bool *live = npuc_xmalloc((cc.count + 1) * sizeof *live);
    for (size_t i = 0; i < cc.count; i++)
      live[i] = true;
    int32_t *map = tx8_container_commit(module, &cc, live, threshold);
    renumber(module, map);
    free(map);
    free(live);
  }
  free(values);
  tx8_op_list_free(&constants);
  tx8_container_free(&cc);
  return ok;
}

/* load_consts already in the module (a second run, hand-written input)
 * keep their data: their ids must name entries. */
static bool check_load_consts(MlirOperation module, size_t entries) {
  tx8_op_list loads;
  tx8_collect_ops(module, "tx8be.load_const", &loads);
  bool ok = true;
  for (size_t i = 0; i < loads.count; i++) {
    int32_t id = tx8_load_const_id(loads.ops[i]);
    if (id < 0 || (size_t)id >= entries) {
      npuc_pass_error(loads.ops[i],
                      "load_const[%d] has no entry in the constant "
                      "container (%zu entries)",
                      id, entries);
      ok = false;
    }
  }
  tx8_op_list_free(&loads);
  return ok;
}

/* The container entry of a constant: its value; with aligned-data, laid
 * out as its dev_info says (an aligned constant as the aligned image). */
static bool entry_value(MlirOperation constant, bool aligned_data,
                        MlirAttribute *value) {
  MlirAttribute v = mlirOperationGetAttributeByName(constant, ref("value"));
  MlirType type = mlirValueGetType(mlirOperationGetResult(constant, 0));
  if (mlirAttributeIsNull(v)) {
    npuc_pass_error(constant, "constant has no 'value'");
    return false;
  }
  if (mlirAttributeIsADenseResourceElements(v) &&
      !resource_to_dense(constant, &v))
    return false;
  if (!mlirAttributeIsADenseIntElements(v) &&
      !mlirAttributeIsADenseFPElements(v)) {
    npuc_pass_error(constant,
                    "unsupported constant kind: 'value' must be dense "
                    "integer or float elements");
    return false;
  }
  if (!mlirTypeEqual(mlirAttributeGetType(v), type)) {
    npuc_pass_error(constant,
                    "the type of 'value' differs from the result type");
    return false;
  }
  MlirType elem = mlirShapedTypeGetElementType(type);
  if (mlirTypeIsAInteger(elem) ? mlirIntegerTypeGetWidth(elem) % 8 != 0
                               : mlirFloatTypeGetWidth(elem) % 8 != 0) {
    npuc_pass_error(constant, "unsupported constant kind: elements are not a "
                              "whole number of bytes");
    return false;
  }
  npuc_tx8_dev_attr dev;
  npuc_tx8_attr_status st = npuc_tx8_op_dev_attr(constant, &dev);
  if (st == NPUC_TX8_ATTR_MALFORMED)
    return false;
  *value = v;
  if (!aligned_data || st == NPUC_TX8_ATTR_ABSENT ||
      !npuc_tx8_is_aligned(dev.mem_layout))
    return true;
  const char *why = "";
  if (tx8_relayout(v, type, npuc_tx8_compact_of(dev.mem_layout), dev.mem_layout,
                   value, &why))
    return true;
  npuc_pass_error(constant, "cannot lay the constant out in %s: %s",
                  npuc_tx8_layout_name(dev.mem_layout), why);
  return false;
}

/* ---- dense_resource values ------------------------------------------------
 * The C API reads a resource blob element by element for f32, f64 and
 * integer types only (not f16/bf16, which --tx8-dtype writes), and cannot
 * tell whether the blob is there or as long as the type says: its getters
 * read a missing or short blob out of bounds. MLIR's printer knows: a
 * detached op prints with the file's resource section, each blob it has
 * as "0x" + its alignment (4 bytes, little-endian) + its bytes in hex.
 * So the constant is cloned, printed, and the blob decoded from that. */

static const char *find_blob_hex(const char *text, const char **name,
                                 size_t *name_len);
static bool decode_hex(const char *hex, size_t bytes, char *out);

static bool resource_to_dense(MlirOperation constant, MlirAttribute *value) {
  MlirType type = mlirAttributeGetType(*value);
  MlirType elem = mlirShapedTypeGetElementType(type);
  bool is_int = mlirTypeIsAInteger(elem);
  if (!is_int && !mlirTypeIsAFloat(elem)) {
    npuc_pass_error(constant, "unsupported constant kind: a dense_resource of "
                              "neither integers nor floats");
    return false;
  }
  if (!mlirShapedTypeHasStaticShape(type)) {
    npuc_pass_error(constant, "a dense_resource constant needs a static shape");
    return false;
  }
  int64_t width =
      is_int ? mlirIntegerTypeGetWidth(elem) : mlirFloatTypeGetWidth(elem);
  int64_t bytes = width / 8;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(type) && width % 8 == 0; ++d)
    if (!npuc_checked_mul(bytes, mlirShapedTypeGetDimSize(type, d), &bytes))
      width = 1;
  if (width % 8 != 0) {
    npuc_pass_error(constant, "unsupported constant kind: elements are not a "
                              "whole number of bytes");
    return false;
  }
  /* Detached, the clone prints the resource section after itself. */
  MlirOperation clone = mlirOperationClone(constant);
  npuc_sb text = {0};
  mlirOperationPrint(clone, npuc_sb_append_mlir, &text);
  mlirOperationDestroy(clone);
  const char *name = "";
  size_t name_len = 0;
  const char *hex =
      text.data ? find_blob_hex(text.data, &name, &name_len) : NULL;
  size_t hex_len = hex ? strcspn(hex, "\"") : 0;
  char *buf = npuc_xmalloc((size_t)bytes + 1);
  bool ok = false;
  if (!hex)
    npuc_pass_error(constant,
                    "dense_resource<%.*s> has no data in the file (a "
                    "graph printed with --elide-weights cannot be compiled)",
                    (int)name_len, name);
  else if (hex_len != 8 + 2 * (size_t)bytes)
    npuc_pass_error(constant,
                    "dense_resource<%.*s> holds %zu bytes, its type needs "
                    "%lld",
                    (int)name_len, name, hex_len < 8 ? 0 : (hex_len - 8) / 2,
                    (long long)bytes);
  else if (!decode_hex(hex + 8, (size_t)bytes, buf))
    npuc_pass_error(constant, "dense_resource<%.*s>: its data is not hex",
                    (int)name_len, name);
  else
    ok = true;
  if (ok)
    *value = mlirDenseElementsAttrRawBufferGet(type, (size_t)bytes, buf);
  free(buf);
  npuc_sb_free(&text);
  return ok;
}

/* The blob's hex digits (after "0x") in the printed op: the attribute
 * names it, dense_resource<NAME> (NAME bare or a quoted string, printed
 * the same in both places), the resource section has `NAME: "0x...`. */
static const char *find_blob_hex(const char *text, const char **name,
                                 size_t *name_len) {
  static const char open[] = "dense_resource<";
  const char *n = strstr(text, open);
  if (!n)
    return NULL;
  n += sizeof open - 1;
  const char *end = n;
  if (*end == '"') {
    for (++end; *end && *end != '"'; ++end)
      if (*end == '\\' && end[1])
        ++end;
    end += *end == '"';
  } else
    end += strcspn(end, ">");
  *name = n, *name_len = (size_t)(end - n);
  const char *section = strstr(end, "dialect_resources");
  for (const char *p = section; p && (p = strstr(p, "0x")) != NULL; p += 2) {
    /* p - 3 is the end of `NAME: "`, preceded by white space. */
    size_t at = (size_t)(p - section);
    if (at >= *name_len + 4 && !strncmp(p - 3, ": \"", 3) &&
        !strncmp(p - 3 - *name_len, n, *name_len) &&
        strchr(" \t\n", p[-4 - (ptrdiff_t)*name_len]))
      return p + 2;
  }
  return NULL;
}

static int hex_digit(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                : -1;
}

static bool decode_hex(const char *hex, size_t bytes, char *out) {
  for (size_t i = 0; i < bytes; ++i) {
    int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0)
      return false;
    out[i] = (char)(hi << 4 | lo);
  }
  return true;
}

/* The op library says for tx8be ops whether they load an operand; a graph
 * output (func.return) and a tuple never do. Other ops are unknown. */
static bool check_users(MlirOperation constant) {
  bool ok = true;
  for (MlirOpOperand u =
           mlirValueGetFirstUse(mlirOperationGetResult(constant, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (!npuc_op_is(user, "func.return") &&
        !tx8_require_known(user, "reads a tx8be constant but is no tx8be op: "
                                 "whether it loads it is unknown"))
      ok = false;
  }
  return ok;
}

static bool user_loads(MlirOperation user, intptr_t operand) {
  if (npuc_op_is(user, "func.return") || npuc_op_is(user, "tx8be.tuple"))
    return false;
  return npuc_tx8_mask_bit(npuc_tx8_query_op(user).need_load, operand);
}

typedef struct {
  MlirOperation owner;
  intptr_t index;
} use_ref;

static void replace_uses(MlirOperation constant, int32_t id) {
  MlirValue result = mlirOperationGetResult(constant, 0);
  size_t n = 0, cap = 4;
  use_ref *uses = npuc_xmalloc(cap * sizeof *uses);
  for (MlirOpOperand u = mlirValueGetFirstUse(result); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    if (n == cap)
      uses = npuc_xrealloc(uses, (cap *= 2) * sizeof *uses);
    uses[n++] = (use_ref){mlirOpOperandGetOwner(u),
                          (intptr_t)mlirOpOperandGetOperandNumber(u)};
  }
  MlirContext ctx = mlirOperationGetContext(constant);
  MlirType type = mlirValueGetType(result);
  MlirAttribute layout_str =
      mlirOperationGetAttributeByName(constant, ref("layout_str"));
  MlirAttribute dev_info =
      mlirOperationGetAttributeByName(constant, ref("dev_info"));
  /* MLIR lists uses last first; give the load_consts program order. */
  for (size_t k = n; k-- > 0;) {
    MlirOperationState st = mlirOperationStateGet(
        ref("tx8be.load_const"), mlirOperationGetLocation(constant));
    MlirNamedAttribute attrs[4];
    intptr_t na = 0;
    attrs[na++] = mlirNamedAttributeGet(
        mlirIdentifierGet(ctx, ref("const_map_id")),
        mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), id));
    if (!user_loads(uses[k].owner, uses[k].index))
      attrs[na++] =
          mlirNamedAttributeGet(mlirIdentifierGet(ctx, ref("bypasscodegen")),
                                mlirBoolAttrGet(ctx, 1));
    if (!mlirAttributeIsNull(layout_str))
      attrs[na++] = mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, ref("layout_str")), layout_str);
    if (!mlirAttributeIsNull(dev_info))
      attrs[na++] = mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, ref("dev_info")), dev_info);
    mlirOperationStateAddAttributes(&st, na, attrs);
    mlirOperationStateAddResults(&st, 1, &type);
    MlirOperation load = mlirOperationCreate(&st);
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(uses[k].owner),
                                        uses[k].owner, load);
    mlirOperationSetOperand(uses[k].owner, uses[k].index,
                            mlirOperationGetResult(load, 0));
  }
  free(uses);
}

static void renumber(MlirOperation module, const int32_t *map) {
  tx8_op_list loads;
  tx8_collect_ops(module, "tx8be.load_const", &loads);
  for (size_t i = 0; i < loads.count; i++)
    tx8_set_load_const_id(loads.ops[i], map[tx8_load_const_id(loads.ops[i])]);
  tx8_op_list_free(&loads);
}
