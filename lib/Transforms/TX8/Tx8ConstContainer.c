/* The TX8 constant container; see Tx8ConstContainer.h. */
#include "Tx8ConstContainer.h"
#include "npuc/Checked.h"
#include "npuc/IR.h"
#include "npuc/Alloc.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Dialect/Func.h>
#include <stdlib.h>
#include <string.h>

static MlirStringRef ref(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

static bool is_dense_number(MlirAttribute a) {
  return mlirAttributeIsADenseIntElements(a) ||
         mlirAttributeIsADenseFPElements(a);
}

static bool read_container(MlirOperation module, const char *pass,
                           tx8_const_container *c);

bool tx8_container_open(MlirOperation module, const char *pass,
                        const char *config, tx8_const_container *c,
                        int64_t *threshold_bytes) {
  npuc_tx8_target target;
  int32_t dx, dy;
  if (!tx8_pass_target_mesh(module, pass, config, &target, &dx, &dy) ||
      !read_container(module, pass, c))
    return false;
  /* The mesh comes from the module's attributes (tx8-group-mapping checks
   * it against the target later): computed checked. */
  if (!npuc_checked_mul(target.ddr_bank_bytes, dx, threshold_bytes) ||
      !npuc_checked_mul(*threshold_bytes, dy, threshold_bytes)) {
    npuc_op_error(module,
                  "%s: the tile mesh %dx%d (tx8be.tile_dx x tx8be.tile_dy) "
                  "times chip.ddr_bank_bytes (%lld) overflows int64",
                  pass, dx, dy, (long long)target.ddr_bank_bytes);
    tx8_container_free(c);
    return false;
  }
  return true;
}

/* The module's container (empty when it has none). False, with an error
 * at the module, when the attribute is not an array of dense integer or
 * float elements. */
static bool read_container(MlirOperation module, const char *pass,
                           tx8_const_container *c) {
  memset(c, 0, sizeof *c);
  MlirAttribute arr =
      mlirOperationGetAttributeByName(module, ref(TX8_CONST_CONTAINER_ATTR));
  if (mlirAttributeIsNull(arr))
    return true;
  if (!mlirAttributeIsAArray(arr)) {
    npuc_op_error(module, "%s: %s must be an array of dense elements", pass,
                  TX8_CONST_CONTAINER_ATTR);
    return false;
  }
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(arr); i++) {
    MlirAttribute v = mlirArrayAttrGetElement(arr, i);
    if (!is_dense_number(v)) {
      npuc_op_error(module,
                    "%s: entry %ld of %s is not dense integer or float "
                    "elements",
                    pass, (long)i, TX8_CONST_CONTAINER_ATTR);
      tx8_container_free(c);
      return false;
    }
    tx8_container_add(c, v);
  }
  return true;
}

size_t tx8_container_add(tx8_const_container *c, MlirAttribute value) {
  if (c->count == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 16;
    MlirAttribute *v = npuc_xrealloc(c->values, cap * sizeof *v);
    c->values = v;
    c->cap = cap;
  }
  c->values[c->count] = value;
  return c->count++;
}

void tx8_container_free(tx8_const_container *c) {
  free(c->values);
  memset(c, 0, sizeof *c);
}

int32_t *tx8_container_commit(MlirOperation module, tx8_const_container *c,
                              const bool *live, int64_t threshold_bytes) {
  int32_t *map = npuc_xmalloc((c->count ? c->count : 1) * sizeof *map);
  MlirAttribute *kept = npuc_xmalloc((c->count ? c->count : 1) * sizeof *kept);
  bool had = !mlirAttributeIsNull(
      mlirOperationGetAttributeByName(module, ref(TX8_CONST_CONTAINER_ATTR)));
  size_t n = 0;
  /* Two stable passes: the large entries, then the rest. */
  for (int large = 1; large >= 0; large--)
    for (size_t i = 0; i < c->count; i++) {
      if (!live[i]) {
        map[i] = -1;
        continue;
      }
      bool is_large = tx8_container_entry_bytes(c->values[i]) > threshold_bytes;
      if (is_large == (large == 1)) {
        map[i] = (int32_t)n;
        kept[n++] = c->values[i];
      }
    }
  /* A module without constants stays without a container. */
  MlirContext ctx = mlirOperationGetContext(module);
  if (had || n > 0)
    mlirOperationSetAttributeByName(module, ref(TX8_CONST_CONTAINER_ATTR),
                                    mlirArrayAttrGet(ctx, (intptr_t)n, kept));
  free(kept);
  return map;
}

static int64_t element_bits(MlirType t) {
  if (mlirTypeIsAInteger(t))
    return mlirIntegerTypeGetWidth(t);
  if (mlirTypeIsAFloat(t))
    return mlirFloatTypeGetWidth(t);
  return 0;
}

int64_t tx8_container_entry_bytes(MlirAttribute value) {
  MlirType t = mlirAttributeGetType(value);
  int64_t bits = element_bits(mlirShapedTypeGetElementType(t));
  return mlirElementsAttrGetNumElements(value) * ((bits + 7) / 8);
}

/* ---- load_const ops ---------------------------------------------------- */

int32_t tx8_load_const_id(MlirOperation op) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, ref("const_map_id"));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a)
             ? (int32_t)mlirIntegerAttrGetValueInt(a)
             : -1;
}

void tx8_set_load_const_id(MlirOperation op, int32_t id) {
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetAttributeByName(
      op, ref("const_map_id"),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), id));
}

/* ---- re-laying out data ------------------------------------------------- */

static npuc_tx8_layout placement(MlirType type, npuc_tx8_dtype dt,
                                 npuc_tx8_layout_mode mode) {
  int rank = (int)mlirShapedTypeGetRank(type);
  int64_t shape[NPUC_TX8_MAX_RANK];
  for (int i = 0; i < rank; i++)
    shape[i] = mlirShapedTypeGetDimSize(type, i);
  return npuc_tx8_layout_of(npuc_tx8_dims_of_shape(shape, rank, mode), dt,
                            mode);
}

/* The bytes of a dense value, a splat expanded to `bytes`. */
static char *raw_bytes(MlirAttribute value, int64_t elem_bytes, int64_t bytes) {
  char *buf = malloc(bytes ? (size_t)bytes : 1);
  if (!buf)
    abort(); /* out of memory */
  const char *raw = mlirDenseElementsAttrGetRawData(value);
  if (mlirDenseElementsAttrIsSplat(value))
    for (int64_t at = 0; at < bytes; at += elem_bytes)
      memcpy(buf + at, raw, (size_t)elem_bytes);
  else
    memcpy(buf, raw, (size_t)bytes);
  return buf;
}

/* Element i of the row-major order as (n, hw, c) of `d`. */
static void coords(const npuc_tx8_dims *d, int64_t i, int64_t *n, int64_t *hw,
                   int64_t *c) {
  *c = i % d->c;
  int64_t row = i / d->c;
  *hw = row % d->hw;
  *n = row / d->hw;
}

bool tx8_relayout(MlirAttribute value, MlirType type, npuc_tx8_layout_mode from,
                  npuc_tx8_layout_mode to, MlirAttribute *out,
                  const char **why) {
  MlirType elem = mlirShapedTypeGetElementType(type);
  npuc_tx8_dtype dt;
  if (!npuc_tx8_dtype_of_type(elem, &dt)) {
    *why = "its element type has no TX8 layout (f16, bf16, f32 or i8)";
    return false;
  }
  if (!mlirShapedTypeHasStaticShape(type) ||
      mlirShapedTypeGetRank(type) > NPUC_TX8_MAX_RANK) {
    *why = "its shape is not static of rank at most 8";
    return false;
  }
  npuc_tx8_layout src = placement(type, dt, from);
  npuc_tx8_layout dst = placement(type, dt, to);
  int64_t eb = src.elem_bytes;
  if (tx8_container_entry_bytes(value) != src.total_bytes) {
    *why = "its data does not fill the layout it is said to be in";
    return false;
  }
  char *in = raw_bytes(value, eb, src.total_bytes);
  char *res = calloc(dst.total_bytes ? (size_t)dst.total_bytes : 1, 1);
  if (!res)
    abort(); /* out of memory */
  int64_t numel = src.dims.n * src.dims.hw * src.dims.c;
  for (int64_t i = 0; i < numel; i++) {
    int64_t sn, shw, sc, dn, dhw, dc;
    coords(&src.dims, i, &sn, &shw, &sc);
    coords(&dst.dims, i, &dn, &dhw, &dc);
    memcpy(res + npuc_tx8_offset(&dst, dn, dhw, dc),
           in + npuc_tx8_offset(&src, sn, shw, sc), (size_t)eb);
  }
  MlirType out_type = type;
  if (npuc_tx8_is_aligned(to)) {
    int64_t len = dst.total_bytes / eb;
    out_type = mlirRankedTensorTypeGet(1, &len, elem, mlirAttributeGetNull());
  }
  *out =
      mlirDenseElementsAttrRawBufferGet(out_type, (size_t)dst.total_bytes, res);
  free(in);
  free(res);
  return true;
}

/* ---- DDR layouts of a graph's inputs and constants */

void tx8_set_arg_ddr_layout(MlirOperation func, intptr_t arg,
                            npuc_tx8_layout_mode mode) {
  MlirContext ctx = mlirOperationGetContext(func);
  mlirFuncSetArgAttr(func, arg, ref(NPUC_TX8_ARG_DDR_LAYOUT_ATTR),
                     mlirStringAttrGet(ctx, ref(npuc_tx8_layout_name(mode))));
}

static bool reads_as_weight(MlirOpOperand use, int depth) {
  MlirOperation user = mlirOpOperandGetOwner(use);
  if (npuc_op_is(user, "tx8be.gemm"))
    return mlirOpOperandGetOperandNumber(use) == 1 &&
           mlirAttributeIsNull(
               mlirOperationGetAttributeByName(user, ref("transpose_b")));
  npuc_tx8_layout_mode to;
  if (depth > 0 || !npuc_op_is(user, "tx8be.channel_norm") ||
      !npuc_tx8_channel_norm_layout(user, &to) || !npuc_tx8_is_aligned(to))
    return false;
  MlirValue r = mlirOperationGetResult(user, 0);
  MlirOpOperand u = mlirValueGetFirstUse(r);
  if (mlirOpOperandIsNull(u))
    return false;
  for (; !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    if (!reads_as_weight(u, depth + 1))
      return false;
  return true;
}

bool tx8_value_is_gemm_weight(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) != 2)
    return false;
  MlirOpOperand u = mlirValueGetFirstUse(v);
  if (mlirOpOperandIsNull(u))
    return false;
  for (; !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    if (!reads_as_weight(u, 0))
      return false;
  return true;
}
