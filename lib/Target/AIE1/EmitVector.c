/* The aievec, aievec_aie1 and vector ops of a vectorized kernel, as calls
 * into libnpuc_aie1_rt (include/npuc/Aie1Runtime.h). A vector value is an
 * npuc_aie1_vec; every call is checked, and a refused one stops the run at
 * the op's location (npuc_aie1_fail). What the library cannot know, the
 * memref addressing, is computed here: upd and transfer_write take the
 * element's linear position in the buffer. */
#include "Aie1Internal.h"

#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  emitter *em;
  MlirOperation op;
  char loc[600];
  bool aieml; /* the kernel runs on an AIE-ML core */
} vop;

static bool emit_upd(vop *v);
static bool emit_store(vop *v);
static bool emit_ups(vop *v);
static bool emit_srs(vop *v);
static bool emit_concat(vop *v);
static bool emit_ext(vop *v, const char *attr_name);
static bool emit_shift(vop *v);
static bool emit_pack(vop *v);
static bool emit_lane_op(vop *v, const char *fn, int nvec);
static bool emit_select(vop *v);
static bool emit_aieml_mul(vop *v, const char *op_name, bool has_acc,
                           bool conv);
static bool emit_legacyshuffle(vop *v);
static bool emit_cast(vop *v);
static bool refuse_vector_arith(vop *v, const char *name);

static bool vector_op(vop v, const char *name);

bool aie1_em_vector_op(emitter *em, MlirOperation op, const char *name) {
  return vector_op((vop){em, op, "", false}, name);
}

bool aie1_em_vector_op_aieml(emitter *em, MlirOperation op, const char *name) {
  return vector_op((vop){em, op, "", true}, name);
}

static bool vector_op(vop v, const char *name) {
  npuc_em_loc(v.em, v.op, v.loc, sizeof v.loc);
  if (npuc_em_name_is(name, "aievec.upd"))
    return emit_upd(&v);
  if (npuc_em_name_is(name, "vector.transfer_write"))
    return emit_store(&v);
  if (npuc_em_name_is(name, "aievec.ups"))
    return emit_ups(&v);
  if (npuc_em_name_is(name, "aievec.srs"))
    return emit_srs(&v);
  if (npuc_em_name_is(name, "aievec.concat"))
    return emit_concat(&v);
  if (npuc_em_name_is(name, "aievec.ext") ||
      npuc_em_name_is(name, "aievec_aie1.ext"))
    return emit_ext(&v, "index");
  if (npuc_em_name_is(name, "aievec.broadcast"))
    return emit_ext(&v, "idx");
  if (npuc_em_name_is(name, "aievec.shift"))
    return emit_shift(&v);
  if (npuc_em_name_is(name, "aievec.pack"))
    return emit_pack(&v);
  if (npuc_em_name_is(name, "aievec_aie1.mul"))
    return emit_lane_op(&v, "mul", 2);
  if (npuc_em_name_is(name, "aievec_aie1.mac"))
    return emit_lane_op(&v, "mac", 3);
  if (npuc_em_name_is(name, "aievec_aie1.add"))
    return emit_lane_op(&v, "add", 2);
  if (npuc_em_name_is(name, "aievec_aie1.sub"))
    return emit_lane_op(&v, "sub", 2);
  if (npuc_em_name_is(name, "aievec.select") ||
      npuc_em_name_is(name, "aievec_aie1.select"))
    return emit_select(&v);
  if (npuc_em_name_is(name, "aievec.mac_elem"))
    return emit_aieml_mul(&v, "mac_elem", true, false);
  if (npuc_em_name_is(name, "aievec.mul_elem"))
    return emit_aieml_mul(&v, "mul_elem", false, false);
  if (npuc_em_name_is(name, "aievec.mul_conv"))
    return emit_aieml_mul(&v, "mul_conv", false, true);
  if (npuc_em_name_is(name, "aievec.fma_conv"))
    return emit_aieml_mul(&v, "fma_conv", true, true);
  if (npuc_em_name_is(name, "aievec.legacyshuffle"))
    return emit_legacyshuffle(&v);
  if (npuc_em_name_is(name, "aievec.cast"))
    return emit_cast(&v);
  return refuse_vector_arith(&v, name);
}

/* ---- helpers ------------------------------------------------------------ */

static const char *operand(vop *v, intptr_t i) {
  return npuc_em_name(v->em, mlirOperationGetOperand(v->op, i));
}

static MlirType operand_type(vop *v, intptr_t i) {
  return mlirValueGetType(mlirOperationGetOperand(v->op, i));
}

static int64_t int_attr(vop *v, const char *name, int64_t fallback) {
  MlirAttribute a = npuc_em_attr(v->op, name);
  return !mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a)
             ? mlirIntegerAttrGetValueInt(a)
             : fallback;
}

/* A one-dimensional vector of an element the emulator has; else a located
 * error. */
static bool vector_shape(vop *v, MlirType t, const char **elem,
                         int64_t *lanes) {
  if (!mlirTypeIsAVector(t) || mlirShapedTypeGetRank(t) != 1 ||
      !(*elem = aie1_elem_constant(mlirShapedTypeGetElementType(t))) ||
      (!v->aieml && strcmp(*elem, "NPUC_AIE1_I64") == 0)) {
    npuc_em_error(v->em, v->op,
                  "type not supported by --target=aie1-cmodel: vectors are "
                  "1-D of i8, i16, i32, f32, i48 or i80 (and i64, AIE-ML's "
                  "accumulator, with 'aieml: true')");
    return false;
  }
  *lanes = mlirShapedTypeGetDimSize(t, 0);
  return true;
}

/* Declares the op's (first) result as a vector and returns its C name. */
static const char *define_result(vop *v, const char **elem, int64_t *lanes) {
  MlirValue r = mlirOperationGetResult(v->op, 0);
  if (!vector_shape(v, mlirValueGetType(r), elem, lanes))
    return NULL;
  const char *name = npuc_em_define(v->em, r);
  npuc_em_line(v->em, "npuc_aie1_vec %s;", name);
  return name;
}

/* Emits `call` checked: a refused op stops the run at this op. */
static void checked(vop *v, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void checked(vop *v, const char *fmt, ...) {
  char call[4096]; /* two locations (600) and an index list (1024) fit */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(call, sizeof call, fmt, ap);
  va_end(ap);
  npuc_em_line(v->em, "NPUC_AIE1_CHECK(&npuc_ctx, %s, %s);", call, v->loc);
}

/* "(const int64_t[]){i, j}" of operands first..first+rank-1. */
static void index_list(vop *v, intptr_t first, intptr_t rank, char *buf,
                       size_t cap) {
  size_t at = (size_t)snprintf(buf, cap, "(const int64_t[]){");
  for (intptr_t i = 0; i < rank && at < cap; ++i)
    at += (size_t)snprintf(buf + at, cap - at, "%s%s", i ? ", " : "",
                           operand(v, first + i));
  if (at < cap)
    snprintf(buf + at, cap - at, "%s}", rank ? "" : "0");
}

/* ---- memory ------------------------------------------------------------- */

/* aievec.upd %m[%i, %j] (, %prev)? {index, offset}: the element at the
 * indices, plus offset bits, in the buffer's storage. */
static bool emit_upd(vop *v) {
  MlirType mt = operand_type(v, 0);
  intptr_t rank = mlirShapedTypeGetRank(mt);
  bool has_prev = mlirOperationGetNumOperands(v->op) == 2 + rank;
  const char *elem;
  int64_t lanes;
  char idx[1024], prev[64] = "NULL";
  if (has_prev)
    snprintf(prev, sizeof prev, "&%s", operand(v, 1 + rank));
  index_list(v, 1, rank, idx, sizeof idx);
  const char *buf = operand(v, 0);
  const char *r = define_result(v, &elem, &lanes);
  if (!r)
    return true;
  checked(v,
          "npuc_aie1_upd(&npuc_ctx, &%s, %s, %s.data, %s.extent, %s, %lld, "
          "npuc_aie1_linear(&%s, %s, %s), %lld, %lld)",
          r, prev, buf, buf, elem, (long long)lanes, buf, idx, v->loc,
          (long long)int_attr(v, "offset", 0),
          (long long)int_attr(v, "index", 0));
  return true;
}

static bool minor_identity(MlirOperation op, intptr_t rank) {
  MlirAttribute a = npuc_em_attr(op, "permutation_map");
  if (mlirAttributeIsNull(a))
    return true;
  MlirAffineMap m = mlirAffineMapAttrGetValue(a);
  return mlirAffineMapGetNumResults(m) == 1 &&
         mlirAffineMapGetNumDims(m) == rank &&
         mlirAffineExprIsADim(mlirAffineMapGetResult(m, 0)) &&
         mlirAffineDimExprGetPosition(mlirAffineMapGetResult(m, 0)) == rank - 1;
}

/* vector.transfer_write %v, %m[%i, %j]: lanes along the last dimension;
 * those past its end are not written unless in_bounds says they cannot
 * be. */
static bool emit_store(vop *v) {
  MlirType mt = operand_type(v, 1);
  if (!mlirTypeIsAMemRef(mt)) {
    npuc_em_error(v->em, v->op,
                  "transfer_write to a tensor is not supported "
                  "by --target=aie1-cmodel");
    return true;
  }
  intptr_t rank = mlirShapedTypeGetRank(mt);
  if (rank < 1 || mlirOperationGetNumOperands(v->op) != 2 + rank ||
      !minor_identity(v->op, rank)) {
    npuc_em_error(v->em, v->op,
                  "--target=aie1-cmodel supports transfer_write along the "
                  "last dimension, without mask");
    return true;
  }
  const char *elem;
  int64_t lanes;
  if (!vector_shape(v, operand_type(v, 0), &elem, &lanes))
    return true;
  MlirAttribute ib = npuc_em_attr(v->op, "in_bounds");
  bool in_bounds = !mlirAttributeIsNull(ib) && mlirAttributeIsAArray(ib) &&
                   mlirArrayAttrGetNumElements(ib) == 1 &&
                   mlirBoolAttrGetValue(mlirArrayAttrGetElement(ib, 0));
  char idx[1024];
  index_list(v, 2, rank, idx, sizeof idx);
  const char *buf = operand(v, 1);
  npuc_em_line(v->em, "{");
  v->em->indent++;
  npuc_em_line(v->em, "int32_t n = npuc_aie1_store_count(&%s, %s, %lld, %s);",
               buf, operand(v, 1 + rank), (long long)lanes,
               in_bounds ? "true" : "false");
  npuc_em_line(v->em, "if (n > 0)");
  v->em->indent++;
  checked(v,
          "npuc_aie1_store(&npuc_ctx, &%s, %s.data, %s.extent, "
          "npuc_aie1_linear(&%s, %s, %s), n)",
          operand(v, 0), buf, buf, buf, idx, v->loc);
  v->em->indent -= 2;
  npuc_em_line(v->em, "}");
  return true;
}

/* ---- accumulators and lanes ---------------------------------------------- */

static bool emit_ups(vop *v) {
  const char *elem;
  int64_t lanes;
  const char *src = operand(v, 0);
  const char *r = define_result(v, &elem, &lanes);
  if (r)
    checked(v, "npuc_aie1_ups(&npuc_ctx, &%s, &%s, %s, %lld)", r, src, elem,
            (long long)int_attr(v, "shift", 0));
  return true;
}

/* srs %acc, %shift (the shift is an operand; older output had it as an
 * attribute). `sign = 0` saturates unsigned. */
static bool emit_srs(vop *v) {
  const char *elem;
  int64_t lanes;
  char shift[64];
  if (mlirOperationGetNumOperands(v->op) > 1)
    snprintf(shift, sizeof shift, "(int32_t)%s", operand(v, 1));
  else
    snprintf(shift, sizeof shift, "%lld", (long long)int_attr(v, "shift", 0));
  const char *src = operand(v, 0);
  const char *r = define_result(v, &elem, &lanes);
  if (r)
    checked(v, "npuc_aie1_srs(&npuc_ctx, &%s, &%s, %s, %s, %s)", r, src, elem,
            shift, int_attr(v, "sign", 1) ? "true" : "false");
  return true;
}

static bool emit_concat(vop *v) {
  const char *elem;
  int64_t lanes;
  intptr_t n = mlirOperationGetNumOperands(v->op);
  npuc_sb list = {0};
  for (intptr_t i = 0; i < n; ++i)
    npuc_sb_printf(&list, "%s&%s", i ? ", " : "", operand(v, i));
  const char *r = define_result(v, &elem, &lanes);
  if (r)
    checked(
        v,
        "npuc_aie1_concat(&npuc_ctx, &%s, (const npuc_aie1_vec *const[]){%s}, "
        "%lld)",
        r, list.data ? list.data : "", (long long)n);
  npuc_sb_free(&list);
  return true;
}

/* ext (index-th slice of the result's width) and broadcast (lane idx). */
static bool emit_ext(vop *v, const char *attr_name) {
  const char *elem;
  int64_t lanes;
  const char *src = operand(v, 0);
  int64_t k = int_attr(v, attr_name, 0);
  const char *r = define_result(v, &elem, &lanes);
  if (!r)
    return true;
  if (strcmp(attr_name, "idx") == 0)
    checked(v, "npuc_aie1_broadcast(&npuc_ctx, &%s, &%s, %lld)", r, src,
            (long long)k);
  else
    checked(v, "npuc_aie1_ext(&npuc_ctx, &%s, &%s, %lld, %lld)", r, src,
            (long long)lanes, (long long)k);
  return true;
}

static bool emit_shift(vop *v) {
  const char *elem;
  int64_t lanes;
  const char *lhs = operand(v, 0), *rhs = operand(v, 1), *by = operand(v, 2);
  const char *r = define_result(v, &elem, &lanes);
  if (r)
    checked(v, "npuc_aie1_shift(&npuc_ctx, &%s, &%s, &%s, (int32_t)%s)", r, lhs,
            rhs, by);
  return true;
}

static bool emit_pack(vop *v) {
  const char *elem;
  int64_t lanes;
  const char *src = operand(v, 0);
  const char *r = define_result(v, &elem, &lanes);
  if (r)
    checked(v, "npuc_aie1_pack(&npuc_ctx, &%s, &%s, false)", r, src);
  return true;
}

/* ---- lane-addressed ops ----------------------------------------------------
 */

static bool is_param_name(const char *n) {
  static const char *const names[] = {
      "xstart", "xoffsets", "xoffsets_hi", "xsquare", "xstep",
      "zstart", "zoffsets", "zoffsets_hi", "zsquare", "zstep",
      "ystart", "yoffsets", "yoffsets_hi", "ysquare", "select"};
  for (size_t i = 0; i < sizeof names / sizeof *names; ++i)
    if (strcmp(n, names[i]) == 0)
      return true;
  return false;
}

static bool plain_number(MlirStringRef s) {
  for (size_t i = 0; i < s.length; ++i) {
    char c = s.data[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
          (c >= 'A' && c <= 'F') || c == 'x' || c == 'X'))
      return false;
  }
  return true;
}

/* The op's lane-addressing attributes as one npuc_aie1_params, set up the
 * first time the op runs (the library parses mlir-aie's strings). Returns
 * its C name. */
static const char *emit_params(vop *v, char *name, size_t cap) {
  snprintf(name, cap, "npuc_p%d", v->em->next_id++);
  npuc_em_line(v->em, "static npuc_aie1_params %s;", name);
  npuc_em_line(v->em, "static bool %s_ready;", name);
  npuc_em_line(v->em, "if (!%s_ready) {", name);
  v->em->indent++;
  npuc_em_line(v->em, "npuc_aie1_params_init(&%s);", name);
  for (intptr_t i = 0; i < mlirOperationGetNumAttributes(v->op); ++i) {
    MlirNamedAttribute na = mlirOperationGetAttribute(v->op, i);
    MlirStringRef key = mlirIdentifierStr(na.name);
    char k[32];
    snprintf(k, sizeof k, "%.*s", (int)key.length, key.data);
    if (strcmp(k, "fmsub") == 0 && mlirAttributeIsABool(na.attribute)) {
      checked(v, "npuc_aie1_params_set(&npuc_ctx, &%s, \"fmsub\", \"%s\")",
              name, mlirBoolAttrGetValue(na.attribute) ? "true" : "false");
      continue;
    }
    if (!is_param_name(k))
      continue;
    MlirStringRef s = mlirAttributeIsAString(na.attribute)
                          ? mlirStringAttrGetValue(na.attribute)
                          : (MlirStringRef){"?", 1};
    if (!plain_number(s)) {
      npuc_em_error(v->em, v->op,
                    "attribute '%s' is not a decimal or 0x hexadecimal string",
                    k);
      return NULL;
    }
    checked(v, "npuc_aie1_params_set(&npuc_ctx, &%s, \"%s\", \"%.*s\")", name,
            k, (int)s.length, s.data);
  }
  npuc_em_line(v->em, "%s_ready = true;", name);
  v->em->indent--;
  npuc_em_line(v->em, "}");
  return name;
}

/* mul %x, %z / mac %x, %z, %acc / add, sub %x, %z. */
static bool emit_lane_op(vop *v, const char *fn, int nvec) {
  const char *elem;
  int64_t lanes;
  const char *x = operand(v, 0), *z = operand(v, 1);
  const char *acc = nvec == 3 ? operand(v, 2) : NULL;
  char pname[32];
  if (!emit_params(v, pname, sizeof pname))
    return true;
  const char *r = define_result(v, &elem, &lanes);
  if (!r)
    return true;
  if (strcmp(fn, "mul") == 0)
    checked(v, "npuc_aie1_mul(&npuc_ctx, &%s, &%s, &%s, %s, %lld, &%s)", r, x,
            z, elem, (long long)lanes, pname);
  else if (acc)
    checked(v, "npuc_aie1_mac(&npuc_ctx, &%s, &%s, &%s, &%s, &%s)", r, x, z,
            acc, pname);
  else
    checked(v, "npuc_aie1_%s(&npuc_ctx, &%s, &%s, &%s, &%s)", fn, r, x, z,
            pname);
  return true;
}

/* select %xbuff (, %ybuff)? */
static bool emit_select(vop *v) {
  const char *elem;
  int64_t lanes;
  const char *x = operand(v, 0);
  char y[64] = "NULL";
  if (mlirOperationGetNumOperands(v->op) > 1)
    snprintf(y, sizeof y, "&%s", operand(v, 1));
  char pname[32];
  if (!emit_params(v, pname, sizeof pname))
    return true;
  const char *r = define_result(v, &elem, &lanes);
  if (r)
    checked(v, "npuc_aie1_select(&npuc_ctx, &%s, &%s, %s, &%s)", r, x, y,
            pname);
  return true;
}

/* ---- AIE-ML ------------------------------------------------------------- */

/* An AIE-ML op on an AIE1 core: a located error (and false). */
static bool needs_aieml(vop *v, const char *op_name) {
  if (v->aieml)
    return true;
  npuc_em_error(v->em, v->op,
                "aievec.%s is an AIE-ML op: emulating it needs 'aieml: "
                "true' in --target-config",
                op_name);
  return false;
}

static bool bool_attr(vop *v, const char *name) {
  MlirAttribute a = npuc_em_attr(v->op, name);
  return !mlirAttributeIsNull(a) && mlirAttributeIsABool(a) &&
         mlirBoolAttrGetValue(a);
}

/* The AIE-ML multiplies, on a core the configuration made AIE-ML:
 * mul_elem %lhs, %rhs / mac_elem %lhs, %rhs, %acc {fmsub} lane by lane
 * (lib/Runtime/aie1/aieml.c); mul_conv %lhs, %rhs {M, N} / fma_conv %lhs,
 * %rhs, %acc {M, N, fmsub} sliding (conv.c), their M and N checked by the
 * library when the op runs, against the forms it models. */
static bool emit_aieml_mul(vop *v, const char *op_name, bool has_acc,
                           bool conv) {
  const char *elem;
  int64_t lanes;
  const char *lhs = operand(v, 0), *rhs = operand(v, 1);
  const char *acc = has_acc ? operand(v, 2) : NULL;
  if (!needs_aieml(v, op_name))
    return true;
  const char *sub = bool_attr(v, "fmsub") ? "true" : "false";
  char sizes[64] = "";
  if (conv)
    snprintf(sizes, sizeof sizes, "%lld, %lld", (long long)int_attr(v, "M", 0),
             (long long)int_attr(v, "N", 0));
  const char *r = define_result(v, &elem, &lanes);
  if (!r)
    return true;
  if (has_acc)
    checked(v, "npuc_aie1_%s(&npuc_ctx, &%s, &%s, &%s, &%s, %s%s%s)",
            conv ? "fma_conv" : "mac_elem", r, lhs, rhs, acc, sizes,
            conv ? ", " : "", sub);
  else
    checked(v, "npuc_aie1_%s(&npuc_ctx, &%s, &%s, &%s, %s)",
            conv ? "mul_conv" : "mul_elem", r, lhs, rhs, conv ? sizes : elem);
  return true;
}

/* legacyshuffle %src {mode}: modes 0-5 as the library models them; another
 * mode is refused when the op runs. */
static bool emit_legacyshuffle(vop *v) {
  const char *elem;
  int64_t lanes;
  const char *src = operand(v, 0);
  if (!needs_aieml(v, "legacyshuffle"))
    return true;
  long long mode = (long long)int_attr(v, "mode", -1);
  const char *r = define_result(v, &elem, &lanes);
  if (r)
    checked(v, "npuc_aie1_legacyshuffle(&npuc_ctx, &%s, &%s, %lld)", r, src,
            mode);
  return true;
}

/* cast %src {isResAcc}: moves lanes between an accumulator and a vector
 * register, bits unchanged. The emulator holds both as the same lanes
 * (an AIE-ML vector<32xi32> accumulator is I32 lanes), so a cast whose
 * source and result types are equal is a copy; any other cast would
 * change the lanes and is not modelled. */
static bool emit_cast(vop *v) {
  const char *elem;
  int64_t lanes;
  if (!needs_aieml(v, "cast"))
    return true;
  if (!mlirTypeEqual(operand_type(v, 0),
                     mlirValueGetType(mlirOperationGetResult(v->op, 0)))) {
    npuc_em_error(v->em, v->op,
                  "AIE-ML op aievec.cast is emulated by --target=aie1-cmodel "
                  "only between equal types (accumulator and register lanes "
                  "of one type)");
    return true;
  }
  const char *src = operand(v, 0);
  const char *r = define_result(v, &elem, &lanes);
  if (r)
    npuc_em_line(v->em, "%s = %s;", r, src);
  return true;
}

/* The shared scalar family would read an arith or math op on vectors as a
 * scalar one; what aie-vectorize leaves unconverted is an error here. */
static bool refuse_vector_arith(vop *v, const char *name) {
  bool vector = false;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(v->op); ++i)
    vector |=
        mlirTypeIsAVector(mlirValueGetType(mlirOperationGetResult(v->op, i)));
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(v->op); ++i)
    vector |= mlirTypeIsAVector(operand_type(v, i));
  bool arith =
      strncmp(name, "arith.", 6) == 0 || strncmp(name, "math.", 5) == 0;
  if (!vector || !arith)
    return false; /* to the shared families, or to "unsupported op" */
  npuc_em_error(v->em, v->op,
                "unsupported op %s on vectors for --target=aie1-cmodel (only "
                "aievec and aievec_aie1 ops are emulated)",
                name);
  return true;
}
