/* arith, math and affine ops on scalars. Integers live in int64_t holding
 * the sign-extended value; each result is narrowed with npuc_sext to its
 * width (KernelPrelude.h), which gives wrap-around without C's undefined
 * behaviour. f16/bf16 scalars live in float and are rounded after each op. */
#include "npuc/CEmit.h"

#include <mlir-c/AffineExpr.h>
#include <mlir-c/AffineMap.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static bool emit_constant(emitter *em, MlirOperation op);
static bool emit_int_binary(emitter *em, MlirOperation op, const char *name);
static bool emit_float_binary(emitter *em, MlirOperation op, const char *name);
static bool emit_compare(emitter *em, MlirOperation op, const char *name);
static bool emit_conversion(emitter *em, MlirOperation op, const char *name);
static bool emit_math(emitter *em, MlirOperation op, const char *name);
static bool emit_affine(emitter *em, MlirOperation op, const char *name);

bool npuc_em_scalar_op(emitter *em, MlirOperation op, const char *name) {
  if (npuc_em_name_is(name, "arith.constant"))
    return emit_constant(em, op);
  if (npuc_em_name_is(name, "arith.select")) {
    MlirValue r = mlirOperationGetResult(op, 0);
    const char *c = npuc_em_name(em, mlirOperationGetOperand(op, 0));
    const char *a = npuc_em_name(em, mlirOperationGetOperand(op, 1));
    const char *b = npuc_em_name(em, mlirOperationGetOperand(op, 2));
    MlirType t = mlirValueGetType(r);
    npuc_em_line(em, "%s %s = %s ? %s : %s;", npuc_em_ctype(t),
                 npuc_em_define(em, r), c, a, b);
    return true;
  }
  return emit_int_binary(em, op, name) || emit_float_binary(em, op, name) ||
         emit_compare(em, op, name) || emit_conversion(em, op, name) ||
         emit_math(em, op, name) || emit_affine(em, op, name);
}

/* ---- helpers ------------------------------------------------------------- */

static const char *operand(emitter *em, MlirOperation op, intptr_t i) {
  return npuc_em_name(em, mlirOperationGetOperand(op, i));
}

static MlirType result_type(MlirOperation op) {
  return mlirValueGetType(mlirOperationGetResult(op, 0));
}

static MlirType operand_type(MlirOperation op, intptr_t i) {
  return mlirValueGetType(mlirOperationGetOperand(op, i));
}

/* Rounds a float expression to the precision of `t` (f16, bf16). */
static void float_result(emitter *em, MlirOperation op, const char *expr) {
  MlirType t = result_type(op);
  const char *name = npuc_em_define(em, mlirOperationGetResult(op, 0));
  if (mlirTypeIsAF16(t))
    npuc_em_line(em, "float %s = npuc_round_f16((float)(%s));", name, expr);
  else if (mlirTypeIsABF16(t))
    npuc_em_line(em, "float %s = npuc_round_bf16((float)(%s));", name, expr);
  else
    npuc_em_line(em, "%s %s = %s;", npuc_em_ctype(t), name, expr);
}

static void int_result(emitter *em, MlirOperation op, const char *expr) {
  int bits = npuc_em_int_bits(result_type(op));
  const char *name = npuc_em_define(em, mlirOperationGetResult(op, 0));
  if (bits >= 64)
    npuc_em_line(em, "int64_t %s = (int64_t)(%s);", name, expr);
  else
    npuc_em_line(em, "int64_t %s = npuc_sext((uint64_t)(%s), %d);", name, expr,
                 bits);
}

static void float_literal(char *buf, size_t cap, double v) {
  if (isnan(v))
    snprintf(buf, cap, "NAN");
  else if (isinf(v))
    snprintf(buf, cap, v < 0 ? "(-INFINITY)" : "INFINITY");
  else
    snprintf(buf, cap, "%.17g", v);
}

/* ---- constants ------------------------------------------------------------
 */

static bool emit_dense_constant(emitter *em, MlirOperation op, MlirAttribute v);

static bool emit_constant(emitter *em, MlirOperation op) {
  MlirAttribute v = npuc_em_attr(op, "value");
  MlirType t = result_type(op);
  if (npuc_em_class(t) == NPUC_VAL_BUF)
    return emit_dense_constant(em, op, v);
  char expr[64];
  if (mlirAttributeIsAInteger(v)) {
    snprintf(expr, sizeof expr, "%lldLL",
             (long long)mlirIntegerAttrGetValueInt(v));
    int_result(em, op, expr);
  } else if (mlirAttributeIsABool(v)) {
    int_result(em, op, mlirBoolAttrGetValue(v) ? "-1" : "0");
  } else if (mlirAttributeIsAFloat(v)) {
    float_literal(expr, sizeof expr, mlirFloatAttrGetValueDouble(v));
    float_result(em, op, expr);
  } else {
    npuc_em_error(em, op, "unsupported constant for --target=%s",
                  npuc_em_target(em));
  }
  return true;
}

/* Tensor constants: a buffer filled from a splat or element by element. */
static bool emit_dense_constant(emitter *em, MlirOperation op,
                                MlirAttribute v) {
  MlirType t = result_type(op);
  int dt;
  char loc[600];
  npuc_em_loc(em, op, loc, sizeof loc);
  if (!mlirAttributeIsADenseElements(v) || !npuc_em_dtype(t, &dt) ||
      !mlirShapedTypeHasStaticShape(t)) {
    npuc_em_error(em, op,
                  "unsupported tensor constant for --target=ascend-cmodel");
    return true;
  }
  intptr_t rank = mlirShapedTypeGetRank(t);
  const char *r = npuc_em_define(em, mlirOperationGetResult(op, 0));
  npuc_em_line(em, "npuc_buf %s;", r);
  npuc_em_line(em, "{");
  em->indent++;
  npuc_sb sizes = {0};
  for (intptr_t d = 0; d < rank; ++d)
    npuc_sb_printf(&sizes, "%s%lld", d ? ", " : "",
                   (long long)mlirShapedTypeGetDimSize(t, d));
  npuc_em_line(em, "const int64_t sz[] = {%s0};", sizes.data ? sizes.data : "");
  npuc_sb_free(&sizes);
  npuc_em_line(em, "%s = npuc_rt_alloc(%s, %zd, sz, %s);", r,
               npuc_em_dtype_name(dt), (ssize_t)rank, loc);
  MlirType elt = mlirShapedTypeGetElementType(t);
  bool is_float = npuc_em_class(elt) == NPUC_VAL_FLOAT;
  intptr_t n =
      mlirDenseElementsAttrIsSplat(v) ? 1 : mlirElementsAttrGetNumElements(v);
  npuc_em_line(em, "static const %s vals[] = {",
               is_float ? "double" : "int64_t");
  for (intptr_t i = 0; i < n; ++i) {
    char lit[64];
    if (is_float) {
      double x = mlirDenseElementsAttrIsSplat(v)
                     ? mlirFloatAttrGetValueDouble(
                           mlirDenseElementsAttrGetSplatValue(v))
                     : (mlirTypeIsAF64(elt)
                            ? mlirDenseElementsAttrGetDoubleValue(v, i)
                            : (double)mlirDenseElementsAttrGetFloatValue(v, i));
      float_literal(lit, sizeof lit, x);
    } else {
      MlirAttribute e = mlirDenseElementsAttrIsSplat(v)
                            ? mlirDenseElementsAttrGetSplatValue(v)
                            : mlirAttributeGetNull();
      long long x =
          !mlirAttributeIsNull(e)
              ? (mlirAttributeIsABool(e) ? (mlirBoolAttrGetValue(e) ? -1 : 0)
                                         : mlirIntegerAttrGetValueInt(e))
              : (long long)mlirDenseElementsAttrGetInt64Value(v, i);
      snprintf(lit, sizeof lit, "%lldLL", x);
    }
    npuc_sb_printf(em->out, "%s%s", i ? ", " : "    ", lit);
  }
  npuc_sb_printf(em->out, "\n");
  npuc_em_line(em, "};");
  if (n == 1) {
    npuc_em_line(em,
                 "npuc_operand s = {.is_scalar = true, .f = (double)vals[0], "
                 ".i = (int64_t)vals[0], .dtype = %s};",
                 npuc_em_dtype_name(dt));
    npuc_em_line(em, "npuc_rt_broadcast(&%s, &s, %s);", r, loc);
  } else {
    npuc_em_line(em, "int64_t idx[%zd] = {0};", (ssize_t)(rank ? rank : 1));
    npuc_em_line(em,
                 "for (size_t k = 0; k < sizeof vals / sizeof vals[0]; ++k) {");
    npuc_em_line(em, "  size_t rem = k;");
    npuc_em_line(em,
                 "  for (int d = %zd - 1; d >= 0; --d) { idx[d] = "
                 "(int64_t)(rem %% (size_t)sz[d]); rem /= (size_t)sz[d]; }",
                 (ssize_t)rank);
    npuc_em_line(em, "  npuc_rt_store_%s(&%s, idx, vals[k], %s);",
                 is_float ? "f" : "i", r, loc);
    npuc_em_line(em, "}");
  }
  em->indent--;
  npuc_em_line(em, "}");
  return true;
}

/* ---- integer arithmetic
 * ------------------------------------------------------ */

static bool emit_int_binary(emitter *em, MlirOperation op, const char *name) {
  static const struct {
    const char *name;
    const char *fmt;
    int kind; /* 0: a op b wrapped; 1: signed fn; 2: unsigned fn; 3: shift */
  } ops[] = {
      {"arith.addi", "(uint64_t)%s + (uint64_t)%s", 0},
      {"arith.subi", "(uint64_t)%s - (uint64_t)%s", 0},
      {"arith.muli", "(uint64_t)%s * (uint64_t)%s", 0},
      {"arith.andi", "%s & %s", 0},
      {"arith.ori", "%s | %s", 0},
      {"arith.xori", "%s ^ %s", 0},
      {"arith.divsi", "npuc_divs", 1},
      {"arith.remsi", "npuc_rems", 1},
      {"arith.floordivsi", "npuc_floordiv", 1},
      {"arith.ceildivsi", "npuc_ceildiv", 1},
      {"arith.divui", "npuc_divu", 2},
      {"arith.remui", "npuc_remu", 2},
      {"arith.shli", "npuc_shl", 3},
      {"arith.shrsi", "npuc_shrs", 3},
      {"arith.shrui", "npuc_shru", 3},
  };
  char expr[2048], loc[600];
  intptr_t n = mlirOperationGetNumOperands(op);
  for (size_t i = 0; i < sizeof ops / sizeof *ops; ++i) {
    if (!npuc_em_name_is(name, ops[i].name))
      continue;
    if (n != 2 || npuc_em_class(result_type(op)) != NPUC_VAL_INT)
      return false;
    const char *a = operand(em, op, 0), *b = operand(em, op, 1);
    int bits = npuc_em_int_bits(result_type(op));
    npuc_em_loc(em, op, loc, sizeof loc);
    switch (ops[i].kind) {
    case 0: snprintf(expr, sizeof expr, ops[i].fmt, a, b); break;
    case 1:
      snprintf(expr, sizeof expr, "%s(%s, %s, %s)", ops[i].fmt, a, b, loc);
      break;
    case 2:
      snprintf(expr, sizeof expr,
               "%s(npuc_zext((uint64_t)%s, %d), "
               "npuc_zext((uint64_t)%s, %d), %s)",
               ops[i].fmt, a, bits, b, bits, loc);
      break;
    default:
      snprintf(expr, sizeof expr,
               "%s(%s, (int64_t)npuc_zext((uint64_t)%s, %d), %d)", ops[i].fmt,
               a, b, bits, bits);
    }
    int_result(em, op, expr);
    return true;
  }
  static const char *const minmax[] = {"arith.minsi", "arith.maxsi",
                                       "arith.minui", "arith.maxui"};
  for (int i = 0; i < 4; ++i) {
    if (!npuc_em_name_is(name, minmax[i]))
      continue;
    const char *a = operand(em, op, 0), *b = operand(em, op, 1);
    int bits = npuc_em_int_bits(result_type(op));
    const char *cmp = (i & 1) ? ">" : "<";
    if (i < 2)
      snprintf(expr, sizeof expr, "%s %s %s ? %s : %s", a, cmp, b, a, b);
    else
      snprintf(expr, sizeof expr,
               "npuc_zext((uint64_t)%s, %d) %s npuc_zext((uint64_t)%s, %d) ? "
               "%s : %s",
               a, bits, cmp, b, bits, a, b);
    int_result(em, op, expr);
    return true;
  }
  if (npuc_em_name_is(name, "arith.ceildivui")) {
    const char *a = operand(em, op, 0), *b = operand(em, op, 1);
    int bits = npuc_em_int_bits(result_type(op));
    npuc_em_loc(em, op, loc, sizeof loc);
    snprintf(expr, sizeof expr,
             "npuc_divu(npuc_zext((uint64_t)%s, %d), npuc_zext((uint64_t)%s, "
             "%d), %s) + "
             "(npuc_remu(npuc_zext((uint64_t)%s, %d), npuc_zext((uint64_t)%s, "
             "%d), %s) != 0)",
             a, bits, b, bits, loc, a, bits, b, bits, loc);
    int_result(em, op, expr);
    return true;
  }
  return false;
}

/* ---- float arithmetic
 * -------------------------------------------------------- */

/* An op name and the C text it becomes; `lookup` finds a name's text. */
typedef struct {
  const char *name;
  const char *text;
} name_text;

static const char *lookup(const name_text *table, size_t n, const char *name) {
  for (size_t i = 0; i < n; ++i)
    if (npuc_em_name_is(name, table[i].name))
      return table[i].text;
  return NULL;
}

static bool emit_float_binary(emitter *em, MlirOperation op, const char *name) {
  static const name_text ops[] = {
      {"arith.addf", "%s + %s"},
      {"arith.subf", "%s - %s"},
      {"arith.mulf", "%s * %s"},
      {"arith.divf", "%s / %s"},
      {"arith.remf", "fmod(%s, %s)"},
      {"arith.maximumf", "npuc_maximumf(%s, %s)"},
      {"arith.minimumf", "npuc_minimumf(%s, %s)"},
      {"arith.maxnumf", "fmax(%s, %s)"},
      {"arith.minnumf", "fmin(%s, %s)"},
  };
  char expr[256];
  const char *fmt = lookup(ops, sizeof ops / sizeof *ops, name);
  if (fmt) {
    if (npuc_em_class(result_type(op)) != NPUC_VAL_FLOAT)
      return false;
    snprintf(expr, sizeof expr, fmt, operand(em, op, 0), operand(em, op, 1));
    float_result(em, op, expr);
    return true;
  }
  if (npuc_em_name_is(name, "arith.negf")) {
    snprintf(expr, sizeof expr, "-%s", operand(em, op, 0));
    float_result(em, op, expr);
    return true;
  }
  return false;
}

/* ---- comparisons
 * ---------------------------------------------------------------- */

static bool emit_compare(emitter *em, MlirOperation op, const char *name) {
  char expr[512];
  if (npuc_em_name_is(name, "arith.cmpi")) {
    static const char *const preds[] = {"==", "!=", "<",  "<=", ">",
                                        ">=", "<",  "<=", ">",  ">="};
    int64_t p = mlirIntegerAttrGetValueInt(npuc_em_attr(op, "predicate"));
    if (p < 0 || p > 9)
      return false;
    const char *a = operand(em, op, 0), *b = operand(em, op, 1);
    int bits = npuc_em_int_bits(operand_type(op, 0));
    if (p >= 6)
      snprintf(
          expr, sizeof expr,
          "npuc_zext((uint64_t)%s, %d) %s npuc_zext((uint64_t)%s, %d) ? -1 : 0",
          a, bits, preds[p], b, bits);
    else
      snprintf(expr, sizeof expr, "%s %s %s ? -1 : 0", a, preds[p], b);
    int_result(em, op, expr);
    return true;
  }
  if (npuc_em_name_is(name, "arith.cmpf")) {
    /* false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true */
    static const char *const fmts[] = {"0",
                                       "%1$s == %2$s",
                                       "%1$s > %2$s",
                                       "%1$s >= %2$s",
                                       "%1$s < %2$s",
                                       "%1$s <= %2$s",
                                       "(%1$s < %2$s || %1$s > %2$s)",
                                       "(%1$s == %1$s && %2$s == %2$s)",
                                       "!(%1$s < %2$s || %1$s > %2$s)",
                                       "!(%1$s <= %2$s)",
                                       "!(%1$s < %2$s)",
                                       "!(%1$s >= %2$s)",
                                       "!(%1$s > %2$s)",
                                       "!(%1$s == %2$s)",
                                       "(%1$s != %1$s || %2$s != %2$s)",
                                       "1"};
    int64_t p = mlirIntegerAttrGetValueInt(npuc_em_attr(op, "predicate"));
    if (p < 0 || p > 15)
      return false;
    const char *a = operand(em, op, 0), *b = operand(em, op, 1);
    char cond[400];
    /* Positional arguments are POSIX printf; spell them out instead. */
    const char *f = fmts[p];
    size_t at = 0;
    for (const char *c = f; *c && at + 40 < sizeof cond; ++c) {
      if (c[0] == '%' && (c[1] == '1' || c[1] == '2') && c[2] == '$' &&
          c[3] == 's') {
        at += (size_t)snprintf(cond + at, sizeof cond - at, "%s",
                               c[1] == '1' ? a : b);
        c += 3;
      } else {
        cond[at++] = *c;
      }
    }
    cond[at] = '\0';
    snprintf(expr, sizeof expr, "(%s) ? -1 : 0", cond);
    int_result(em, op, expr);
    return true;
  }
  return false;
}

/* ---- conversions
 * ------------------------------------------------------------------- */

static bool emit_conversion(emitter *em, MlirOperation op, const char *name) {
  char expr[256];
  if (mlirOperationGetNumOperands(op) != 1 ||
      mlirOperationGetNumResults(op) != 1)
    return false;
  MlirType from = operand_type(op, 0), to = result_type(op);
  const char *a = operand(em, op, 0);
  int fbits = npuc_em_int_bits(from), tbits = npuc_em_int_bits(to);
  if (npuc_em_name_is(name, "arith.index_cast") ||
      npuc_em_name_is(name, "arith.extsi") ||
      npuc_em_name_is(name, "arith.trunci")) {
    int_result(em, op, a);
  } else if (npuc_em_name_is(name, "arith.index_castui") ||
             npuc_em_name_is(name, "arith.extui")) {
    snprintf(expr, sizeof expr, "npuc_zext((uint64_t)%s, %d)", a, fbits);
    int_result(em, op, expr);
  } else if (npuc_em_name_is(name, "arith.sitofp")) {
    snprintf(expr, sizeof expr, "(double)%s", a);
    float_result(em, op, expr);
  } else if (npuc_em_name_is(name, "arith.uitofp")) {
    snprintf(expr, sizeof expr, "(double)npuc_zext((uint64_t)%s, %d)", a,
             fbits);
    float_result(em, op, expr);
  } else if (npuc_em_name_is(name, "arith.fptosi")) {
    snprintf(expr, sizeof expr, "npuc_fptosi((double)%s, %d)", a, tbits);
    int_result(em, op, expr);
  } else if (npuc_em_name_is(name, "arith.fptoui")) {
    snprintf(expr, sizeof expr, "npuc_fptoui((double)%s, %d)", a, tbits);
    int_result(em, op, expr);
  } else if (npuc_em_name_is(name, "arith.extf") ||
             npuc_em_name_is(name, "arith.truncf")) {
    float_result(em, op, a);
  } else {
    return false;
  }
  return true;
}

/* ---- math
 * ------------------------------------------------------------------------- */

static bool emit_math(emitter *em, MlirOperation op, const char *name) {
  static const name_text ops[] = {
      {"math.exp", "exp"},     {"math.log", "log"},
      {"math.sqrt", "sqrt"},   {"math.absf", "fabs"},
      {"math.tanh", "tanh"},   {"math.exp2", "exp2"},
      {"math.log2", "log2"},   {"math.sin", "sin"},
      {"math.cos", "cos"},     {"math.erf", "erf"},
      {"math.floor", "floor"}, {"math.ceil", "ceil"},
      {"math.round", "round"}, {"math.roundeven", "rint"},
      {"math.trunc", "trunc"}, {"math.log1p", "log1p"},
      {"math.expm1", "expm1"},
  };
  char expr[256];
  if (strncmp(name, "math.", 5) != 0)
    return false;
  MlirType t = result_type(op);
  bool f64 = mlirTypeIsAF64(t);
  const char *fn = lookup(ops, sizeof ops / sizeof *ops, name);
  if (fn) {
    /* f32 math in float so results match a C reference written in float. */
    snprintf(expr, sizeof expr, "%s%s(%s)", fn, f64 ? "" : "f",
             operand(em, op, 0));
    float_result(em, op, expr);
    return true;
  }
  if (npuc_em_name_is(name, "math.rsqrt")) {
    snprintf(expr, sizeof expr, f64 ? "1.0 / sqrt(%s)" : "1.0f / sqrtf(%s)",
             operand(em, op, 0));
    float_result(em, op, expr);
    return true;
  }
  if (npuc_em_name_is(name, "math.powf")) {
    snprintf(expr, sizeof expr, "pow%s(%s, %s)", f64 ? "" : "f",
             operand(em, op, 0), operand(em, op, 1));
    float_result(em, op, expr);
    return true;
  }
  if (npuc_em_name_is(name, "math.fma")) {
    snprintf(expr, sizeof expr, "fma%s(%s, %s, %s)", f64 ? "" : "f",
             operand(em, op, 0), operand(em, op, 1), operand(em, op, 2));
    float_result(em, op, expr);
    return true;
  }
  if (npuc_em_name_is(name, "math.absi")) {
    const char *a = operand(em, op, 0);
    snprintf(expr, sizeof expr,
             "%s < 0 ? (uint64_t)0 - (uint64_t)%s : (uint64_t)%s", a, a, a);
    int_result(em, op, expr);
    return true;
  }
  return false;
}

/* ---- affine
 * ------------------------------------------------------------------------- */

static void affine_expr(emitter *em, MlirOperation op, MlirAffineExpr e,
                        intptr_t ndims, const char *loc, npuc_sb *sb) {
  if (mlirAffineExprIsADim(e)) {
    npuc_sb_printf(sb, "%s", operand(em, op, mlirAffineDimExprGetPosition(e)));
  } else if (mlirAffineExprIsASymbol(e)) {
    npuc_sb_printf(sb, "%s",
                   operand(em, op, ndims + mlirAffineSymbolExprGetPosition(e)));
  } else if (mlirAffineExprIsAConstant(e)) {
    npuc_sb_printf(sb, "%lldLL", (long long)mlirAffineConstantExprGetValue(e));
  } else {
    MlirAffineExpr l = mlirAffineBinaryOpExprGetLHS(e);
    MlirAffineExpr r = mlirAffineBinaryOpExprGetRHS(e);
    const char *fn = mlirAffineExprIsAMod(e)        ? "npuc_mod"
                     : mlirAffineExprIsAFloorDiv(e) ? "npuc_floordiv"
                     : mlirAffineExprIsACeilDiv(e)  ? "npuc_ceildiv"
                                                    : NULL;
    if (fn) {
      npuc_sb_printf(sb, "%s(", fn);
      affine_expr(em, op, l, ndims, loc, sb);
      npuc_sb_printf(sb, ", ");
      affine_expr(em, op, r, ndims, loc, sb);
      npuc_sb_printf(sb, ", %s)", loc);
      return;
    }
    npuc_sb_printf(sb, "(int64_t)((uint64_t)(");
    affine_expr(em, op, l, ndims, loc, sb);
    npuc_sb_printf(sb, ") %s (uint64_t)(", mlirAffineExprIsAAdd(e) ? "+" : "*");
    affine_expr(em, op, r, ndims, loc, sb);
    npuc_sb_printf(sb, "))");
  }
}

static bool emit_affine(emitter *em, MlirOperation op, const char *name) {
  bool apply = npuc_em_name_is(name, "affine.apply");
  bool is_min = npuc_em_name_is(name, "affine.min");
  if (!apply && !is_min && !npuc_em_name_is(name, "affine.max"))
    return false;
  MlirAffineMap map = mlirAffineMapAttrGetValue(npuc_em_attr(op, "map"));
  intptr_t ndims = mlirAffineMapGetNumDims(map);
  intptr_t nres = mlirAffineMapGetNumResults(map);
  char loc[600];
  npuc_em_loc(em, op, loc, sizeof loc);
  const char *r = npuc_em_define(em, mlirOperationGetResult(op, 0));
  for (intptr_t i = 0; i < nres; ++i) {
    npuc_sb sb = {0};
    affine_expr(em, op, mlirAffineMapGetResult(map, i), ndims, loc, &sb);
    if (i == 0)
      npuc_em_line(em, "int64_t %s = %s;", r, sb.data);
    else
      npuc_em_line(em, "{ int64_t t = %s; if (t %s %s) %s = t; }", sb.data,
                   is_min ? "<" : ">", r, r);
    npuc_sb_free(&sb);
  }
  return true;
}
