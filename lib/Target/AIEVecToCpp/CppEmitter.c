/* The text, names and types of the aievec-to-cpp translation
 * (CppEmitter.h). Names are numbered per function in the order they are
 * first asked for, as aie-translate numbers them, so that the output is
 * the anchor's text; types are spelt as the AIE intrinsic headers spell
 * them. */
#include "CppEmitter.h"
#include "npuc/Alloc.h"
#include "npuc/IR.h"
#include "npuc/MlirSupport.h"

#include <ctype.h>
#include <math.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- text ---------------------------------------------------------------- */

static void write_piece(cpp_emitter *e, const char *s, size_t n) {
  if (e->at_line_start)
    for (int i = 0; i < e->indent; i++)
      npuc_sb_append(e->out, "  ", 2);
  npuc_sb_append(e->out, s, n);
}

static bool blank(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isspace((unsigned char)s[i]))
      return false;
  return true;
}

void cpp_write(cpp_emitter *e, const char *text) {
  const char *s = text;
  while (*s) {
    const char *nl = strchr(s, '\n');
    if (!nl) {
      write_piece(e, s, strlen(s));
      e->at_line_start = false;
      return;
    }
    if (!blank(s, (size_t)(nl - s)))
      write_piece(e, s, (size_t)(nl - s));
    npuc_sb_append(e->out, "\n", 1);
    e->at_line_start = true;
    s = nl + 1;
  }
}

void cpp_printf(cpp_emitter *e, const char *fmt, ...) {
  npuc_sb sb = {0};
  va_list ap;
  va_start(ap, fmt);
  npuc_sb_vprintf(&sb, fmt, ap);
  va_end(ap);
  if (sb.data)
    cpp_write(e, sb.data);
  npuc_sb_free(&sb);
}

void cpp_error(cpp_emitter *e, MlirOperation op, const char *fmt, ...) {
  npuc_sb msg = {0};
  va_list ap;
  va_start(ap, fmt);
  npuc_sb_vprintf(&msg, fmt, ap);
  va_end(ap);
  npuc_emit_diagnostic(mlirOperationGetLocation(op),
                       e->errors_as_warnings ? NPUC_SEV_WARNING
                                             : NPUC_SEV_ERROR,
                       "%s", msg.data ? msg.data : "");
  npuc_sb_free(&msg);
}

/* ---- names --------------------------------------------------------------- */

static const char *keep(cpp_emitter *e, char *s) {
  e->pool = npuc_xreallocarray(e->pool, e->pool_len + 1, sizeof *e->pool);
  e->pool[e->pool_len++] = s;
  return s;
}

bool cpp_has_name(const cpp_emitter *e, MlirValue v) {
  uintptr_t got;
  return npuc_ptr_map_get(&e->names, v.ptr, &got);
}

const char *cpp_new_name(cpp_emitter *e, const char *prefix) {
  char buf[64];
  snprintf(buf, sizeof buf, "%s%lld", prefix, (long long)++e->counter);
  return keep(e, npuc_xstrdup(buf));
}

const char *cpp_name_prefixed(cpp_emitter *e, MlirValue v, const char *prefix) {
  uintptr_t got;
  if (npuc_ptr_map_get(&e->names, v.ptr, &got))
    return (const char *)got;
  const char *name = cpp_new_name(e, prefix);
  cpp_set_name(e, v, name);
  return name;
}

const char *cpp_name(cpp_emitter *e, MlirValue v) {
  return cpp_name_prefixed(e, v, "v");
}

void cpp_set_name(cpp_emitter *e, MlirValue v, const char *name) {
  if (!npuc_ptr_map_put(&e->names, v.ptr, (uintptr_t)name))
    npuc_die("out of memory");
}

void cpp_end_function(cpp_emitter *e) {
  npuc_ptr_map_free(&e->names);
  memset(&e->names, 0, sizeof e->names);
  free(e->dims);
  e->dims = NULL;
  e->num_dims = 0;
  e->counter = 0;
}

void cpp_emitter_free(cpp_emitter *e) {
  cpp_end_function(e);
  for (size_t i = 0; i < e->pool_len; i++)
    free(e->pool[i]);
  free(e->pool);
  e->pool = NULL;
  e->pool_len = 0;
}

const char *cpp_dim_param_get(const cpp_emitter *e, MlirValue memref,
                              intptr_t dim) {
  for (size_t i = 0; i < e->num_dims; i++)
    if (e->dims[i].memref == memref.ptr && e->dims[i].dim == dim)
      return e->dims[i].name;
  return NULL;
}

/* A second memref.dim of the same dimension takes over, as in the anchor's
 * release builds. */
void cpp_dim_param_set(cpp_emitter *e, MlirValue memref, intptr_t dim,
                       const char *name) {
  for (size_t i = 0; i < e->num_dims; i++)
    if (e->dims[i].memref == memref.ptr && e->dims[i].dim == dim) {
      e->dims[i].name = name;
      return;
    }
  e->dims = npuc_xreallocarray(e->dims, e->num_dims + 1, sizeof *e->dims);
  e->dims[e->num_dims++] = (cpp_dim_param){memref.ptr, dim, name};
}

/* ---- types --------------------------------------------------------------- */

int64_t cpp_vector_elements(MlirType t) {
  int64_t n = 1;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++)
    n *= mlirShapedTypeGetDimSize(t, d);
  return n;
}

int64_t cpp_vector_lanes(MlirType t) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t n = rank > 0 ? mlirShapedTypeGetDimSize(t, rank - 1) : 1;
  return n > 1 ? n : 1;
}

static int64_t scalar_bits(MlirType t) {
  if (mlirTypeIsAInteger(t))
    return mlirIntegerTypeGetWidth(t);
  if (mlirTypeIsAFloat(t))
    return mlirFloatTypeGetWidth(t);
  return 0;
}

int64_t cpp_element_bits(MlirType t) {
  return scalar_bits(mlirTypeIsAShaped(t) ? mlirShapedTypeGetElementType(t)
                                          : t);
}

bool cpp_is_float(MlirType t) {
  return mlirTypeIsAFloat(mlirTypeIsAShaped(t) ? mlirShapedTypeGetElementType(t)
                                               : t);
}

static bool scalar_spelling(MlirType t, bool stdint_type, npuc_sb *sb) {
  if (mlirTypeIsAInteger(t)) {
    unsigned w = mlirIntegerTypeGetWidth(t);
    if (w == 1)
      return npuc_sb_printf(sb, "bool"), true;
    if (w == 8 || w == 16 || w == 32 || w == 64) {
      npuc_sb_printf(sb, "%sint%u%s", mlirIntegerTypeIsUnsigned(t) ? "u" : "",
                     w, stdint_type ? "_t" : "");
      return true;
    }
    if (w == 48 || w == 80)
      return npuc_sb_printf(sb, "acc%u", w), true;
    return false;
  }
  if (mlirTypeIsAF32(t))
    return npuc_sb_printf(sb, "float"), true;
  /* Not f16: the anchor writes it as bfloat16, another format. */
  if (mlirTypeIsABF16(t))
    return npuc_sb_printf(sb, "bfloat16"), true;
  if (mlirTypeIsAF64(t))
    return npuc_sb_printf(sb, "double"), true;
  if (mlirTypeIsAIndex(t))
    return npuc_sb_printf(sb, "size_t"), true;
  return false;
}

/* AIE2 accumulators: v16acc32, v16acc64, v32acc32, v16accfloat. */
static bool aie2_acc_spelling(MlirType elem, int64_t n, npuc_sb *sb) {
  if (mlirTypeIsAFloat(elem))
    return (n == 8 || n == 16 || n == 32) &&
           (npuc_sb_printf(sb, "accfloat"), true);
  int64_t w = scalar_bits(elem);
  if ((n == 16 && w == 64) || (n == 32 && w == 32) || (n == 16 && w == 32))
    return npuc_sb_printf(sb, "acc%lld", (long long)w), true;
  return false;
}

/* A vector type the AIE compiler has: data in a 128-, 256-, 512- or
 * 1024-bit register, AIE1 accumulator lanes (i48, i80) 4, 8 or 16 at a
 * time. The anchor writes any `vN<type>`, which then does not build. */
static bool vector_has_register(MlirType elem, int64_t n) {
  int64_t w = scalar_bits(elem);
  if (mlirTypeIsAInteger(elem) && (w == 48 || w == 80))
    return n == 4 || n == 8 || n == 16;
  int64_t bits = n * w;
  return w > 0 && (bits == 128 || bits == 256 || bits == 512 || bits == 1024);
}

/* bf16 is AIE-ML's (--aie2); AIE1 has no type for it. */
static bool has_bf16(MlirType t) {
  return mlirTypeIsABF16(mlirTypeIsAShaped(t) ? mlirShapedTypeGetElementType(t)
                                              : t);
}

bool cpp_type_spelling(const cpp_emitter *e, MlirType t, bool stdint_type,
                       bool acc, npuc_sb *sb) {
  if (!e->aie2 && has_bf16(t))
    return false;
  if (mlirTypeIsAMemRef(t)) {
    if (!scalar_spelling(mlirShapedTypeGetElementType(t), true, sb))
      return false;
    npuc_sb_printf(sb, " * restrict");
    return true;
  }
  if (!mlirTypeIsAVector(t))
    return scalar_spelling(t, stdint_type, sb);
  MlirType elem = mlirShapedTypeGetElementType(t);
  int64_t n = cpp_vector_elements(t);
  npuc_sb_printf(sb, "v%lld", (long long)n);
  bool int_elem = mlirTypeIsAInteger(elem);
  if (e->aie2 && (acc || (int_elem && scalar_bits(elem) == 64)) &&
      (int_elem || mlirTypeIsAFloat(elem)))
    return aie2_acc_spelling(elem, n, sb);
  return vector_has_register(elem, n) && scalar_spelling(elem, false, sb);
}

bool cpp_emit_type(cpp_emitter *e, MlirOperation op, MlirType t,
                   bool stdint_type, bool acc) {
  npuc_sb sb = {0};
  bool ok = cpp_type_spelling(e, t, stdint_type, acc, &sb);
  if (ok) {
    cpp_write(e, sb.data);
  } else {
    npuc_sb_free(&sb);
    mlirTypePrint(t, npuc_sb_append_mlir, &sb);
    cpp_error(e, op, "cannot emit type %s in C++ for the AIE compiler%s",
              sb.data ? sb.data : "?",
              !e->aie2 && has_bf16(t) ? " (bf16 is AIE-ML's: pass --aie2)"
                                      : "");
  }
  npuc_sb_free(&sb);
  return ok;
}

/* ---- declarations -------------------------------------------------------- */

bool cpp_declare(cpp_emitter *e, MlirOperation op, MlirValue v, bool semicolon,
                 bool acc) {
  if (cpp_has_name(e, v)) {
    cpp_error(e, op, "result variable for the operation already declared");
    return false;
  }
  if (!cpp_emit_type(e, op, mlirValueGetType(v), true, acc))
    return false;
  cpp_printf(e, " %s", cpp_name(e, v));
  if (semicolon)
    cpp_write(e, ";\n");
  return true;
}

bool cpp_assign_prefix(cpp_emitter *e, MlirOperation op, bool acc) {
  intptr_t n = mlirOperationGetNumResults(op);
  if (n == 0)
    return true;
  if (n == 1) {
    if (!cpp_declare(e, op, mlirOperationGetResult(op, 0), false, acc))
      return false;
    cpp_write(e, " = ");
    return true;
  }
  for (intptr_t i = 0; i < n; i++)
    if (!cpp_declare(e, op, mlirOperationGetResult(op, i), true, false))
      return false;
  cpp_write(e, "std::tie(");
  for (intptr_t i = 0; i < n; i++)
    cpp_printf(e, "%s%s", i ? ", " : "",
               cpp_name(e, mlirOperationGetResult(op, i)));
  cpp_write(e, ") = ");
  return true;
}

const char *cpp_operand(cpp_emitter *e, MlirOperation op, intptr_t i) {
  if (i >= mlirOperationGetNumOperands(op)) {
    cpp_error(e, op, "operand %lld is missing", (long long)i);
    return NULL;
  }
  MlirValue v = mlirOperationGetOperand(op, i);
  if (!cpp_has_name(e, v)) {
    cpp_error(e, op,
              "operand %lld is not defined before this op in the "
              "emitted C++",
              (long long)i);
    return NULL;
  }
  return cpp_name(e, v);
}

/* ---- attributes ---------------------------------------------------------- */

MlirStringRef cpp_string_attr(MlirOperation op, const char *name) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
    return mlirStringRefCreate("", 0);
  return mlirStringAttrGetValue(a);
}

int64_t cpp_int_attr(MlirOperation op, const char *name, int64_t fallback) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a))
    return fallback;
  if (mlirAttributeIsABool(a))
    return mlirBoolAttrGetValue(a);
  if (mlirAttributeIsAInteger(a))
    return mlirIntegerAttrGetValueInt(a);
  return fallback;
}

/* The digits LLVM's APFloat::toString gives with its natural precision
 * (bits * 59 / 196 + 2 significant digits), never truncating zeros. */
static void print_float(cpp_emitter *e, MlirType t, double v) {
  if (isnan(v)) {
    cpp_write(e, "NAN");
    return;
  }
  if (isinf(v)) {
    cpp_write(e, v < 0 ? "-INFINITY" : "INFINITY");
    return;
  }
  int bits = mlirTypeIsAF64(t) ? 53 : mlirTypeIsAF32(t) ? 24 : 8;
  if (mlirTypeIsAF16(t))
    bits = 11;
  int digits = bits * 59 / 196 + 2;
  char buf[64];
  snprintf(buf, sizeof buf, "%.*e", digits - 1, v);
  cpp_printf(e, "%s%s",
             mlirTypeIsAF32(t)   ? "(float)"
             : mlirTypeIsAF64(t) ? "(double)"
                                 : "",
             buf);
}

static void print_int(cpp_emitter *e, MlirType t, int64_t v) {
  if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 1)
    cpp_write(e, v ? "true" : "false");
  else if (mlirTypeIsAInteger(t) && mlirIntegerTypeIsUnsigned(t))
    cpp_printf(e, "%llu", (unsigned long long)v);
  else
    cpp_printf(e, "%lld", (long long)v);
}

static int64_t dense_int(MlirAttribute a, MlirType elem, intptr_t i) {
  if (mlirTypeIsAIndex(elem))
    return (int64_t)mlirDenseElementsAttrGetIndexValue(a, i);
  switch (scalar_bits(elem)) {
  case 1: return mlirDenseElementsAttrGetBoolValue(a, i);
  case 8: return mlirDenseElementsAttrGetInt8Value(a, i);
  case 16: return mlirDenseElementsAttrGetInt16Value(a, i);
  case 32: return mlirDenseElementsAttrGetInt32Value(a, i);
  default: return mlirDenseElementsAttrGetInt64Value(a, i);
  }
}

/* Element i of a dense float attribute. The C API's raw getters read f32 or
 * f64 storage only, so a splat (and any 16-bit element: bf16, f16) goes
 * through its FloatAttr. */
static double dense_float(MlirAttribute a, MlirType elem, intptr_t i) {
  if (mlirDenseElementsAttrIsSplat(a))
    return mlirFloatAttrGetValueDouble(mlirDenseElementsAttrGetSplatValue(a));
  if (mlirTypeIsAF64(elem))
    return mlirDenseElementsAttrGetDoubleValue(a, i);
  if (mlirTypeIsAF32(elem))
    return mlirDenseElementsAttrGetFloatValue(a, i);
  MlirType t = mlirAttributeGetType(a);
  intptr_t rank = mlirShapedTypeGetRank(t);
  uint64_t idx[8] = {0};
  if (rank > 8)
    return 0;
  for (intptr_t d = rank - 1; d >= 0; --d) {
    int64_t n = mlirShapedTypeGetDimSize(t, d);
    idx[d] = (uint64_t)(i % n);
    i /= n;
  }
  return mlirFloatAttrGetValueDouble(mlirElementsAttrGetValue(a, rank, idx));
}

static bool emit_dense(cpp_emitter *e, MlirOperation op, MlirAttribute a);

bool cpp_emit_attribute(cpp_emitter *e, MlirOperation op, MlirAttribute a) {
  if (mlirAttributeIsAFloat(a)) {
    print_float(e, mlirAttributeGetType(a), mlirFloatAttrGetValueDouble(a));
    return true;
  }
  if (mlirAttributeIsABool(a)) {
    cpp_write(e, mlirBoolAttrGetValue(a) ? "true" : "false");
    return true;
  }
  if (mlirAttributeIsAInteger(a)) {
    MlirType t = mlirAttributeGetType(a);
    print_int(e, t,
              mlirTypeIsAInteger(t) && mlirIntegerTypeIsUnsigned(t)
                  ? (int64_t)mlirIntegerAttrGetValueUInt(a)
                  : mlirIntegerAttrGetValueInt(a));
    return true;
  }
  if (mlirAttributeIsADenseElements(a) &&
      !mlirAttributeIsADenseResourceElements(a))
    return emit_dense(e, op, a);
  cpp_error(e, op, "cannot emit this constant's value in C++");
  return false;
}

/* An AIE2 float splat: broadcast_zero_float(), broadcast_to_v16float(
 * (float)1.500000), or the 16-lane bfloat16 form through a 32-lane one.
 * Infinities become the largest finite value, as the anchor writes them. */
static void emit_aie2_float_splat(cpp_emitter *e, MlirType vt, MlirType ft,
                                  double v) {
  int64_t lanes = cpp_vector_lanes(vt);
  bool bf = mlirFloatTypeGetWidth(ft) == 16;
  char val[64];
  if (isinf(v))
    snprintf(val, sizeof val, "%f",
             (v < 0 ? -1 : 1) *
                 (bf ? 0x1.FEp+127 : 3.40282346638528859812e+38));
  else
    snprintf(val, sizeof val, "%f", (double)(float)v);
  bool zero = v == 0;
  const char *fname = bf ? "bfloat16" : "float";
  if (!bf || lanes == 32) {
    if (zero)
      cpp_printf(e, "broadcast_zero_%s()", fname);
    else
      cpp_printf(e, "broadcast_to_v%lld%s((%s)%s)",
                 (long long)cpp_vector_elements(vt), fname, fname, val);
  } else if (lanes == 16) {
    if (zero)
      cpp_write(e, "extract_v16bfloat16(broadcast_zero_bfloat16(), 0)");
    else
      cpp_printf(
          e, "extract_v16bfloat16(broadcast_to_v32bfloat16((bfloat16)%s), 0)",
          val);
  }
}

static bool emit_dense_ints(cpp_emitter *e, MlirOperation op, MlirAttribute a,
                            MlirType t, MlirType elem) {
  intptr_t n = mlirElementsAttrGetNumElements(a);
  bool all_zero = true;
  for (intptr_t i = 0; i < n && all_zero; i++)
    all_zero = dense_int(a, elem, i) == 0;
  int64_t w = scalar_bits(elem);
  if (mlirTypeIsAVector(t) && mlirTypeIsAInteger(elem) && all_zero) {
    if (e->aie2 && w * cpp_vector_lanes(t) == 1024)
      cpp_printf(e, "concat(broadcast_zero_s%lld(), broadcast_zero_s%lld())",
                 (long long)w, (long long)w);
    else if (e->aie2)
      cpp_printf(e, "broadcast_zero_s%lld()", (long long)w);
    else {
      cpp_write(e, "null_");
      if (!cpp_emit_type(e, op, t, true, false))
        return false;
      cpp_write(e, "()");
    }
    return true;
  }
  if (mlirTypeIsAVector(t) && mlirTypeIsAInteger(elem) && e->aie2 &&
      mlirDenseElementsAttrIsSplat(a)) {
    cpp_write(e, "broadcast_to_");
    if (!cpp_emit_type(e, op, t, true, false))
      return false;
    cpp_write(e, "((");
    if (!cpp_emit_type(e, op, elem, true, false))
      return false;
    cpp_printf(e, ")%lld)", (long long)dense_int(a, elem, 0));
    return true;
  }
  cpp_write(e, "{");
  for (intptr_t i = 0; i < n; i++) {
    cpp_write(e, i ? ", " : "");
    print_int(e, elem, dense_int(a, elem, i));
  }
  cpp_write(e, "}");
  return true;
}

static bool emit_dense(cpp_emitter *e, MlirOperation op, MlirAttribute a) {
  MlirType t = mlirAttributeGetType(a);
  MlirType elem = mlirShapedTypeGetElementType(t);
  if (mlirTypeIsAFloat(elem)) {
    if (e->aie2 && mlirTypeIsAVector(t) && mlirDenseElementsAttrIsSplat(a)) {
      emit_aie2_float_splat(e, t, elem, dense_float(a, elem, 0));
      return true;
    }
    if (e->aie2) { /* the anchor writes nothing here: C++ that cannot build */
      cpp_error(e, op,
                "cannot emit a non-splat float vector constant for "
                "AIE2 in C++");
      return false;
    }
    cpp_write(e, "{");
    for (intptr_t i = 0; i < mlirElementsAttrGetNumElements(a); i++) {
      cpp_write(e, i ? ", " : "");
      print_float(e, elem, dense_float(a, elem, i));
    }
    cpp_write(e, "}");
    return true;
  }
  if (mlirTypeIsAInteger(elem) || mlirTypeIsAIndex(elem))
    return emit_dense_ints(e, op, a, t, elem);
  cpp_error(e, op, "cannot emit this constant's value in C++");
  return false;
}
