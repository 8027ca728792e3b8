/* The aievec and aievec_aie1 ops of --aievec-to-cpp, each as the AIE
 * intrinsic call aie-translate writes for it: upd as a vector load (and
 * upd_w for the halves of a wide one), ups / srs, the lane-addressed
 * mul16 / mac16 / lmac8 / fpmac families with their attributes as
 * arguments, select32, pack, ext_w, concat, and the AIE-ML (--aie2)
 * element-wise, conv and matmul intrinsics. A multiply-accumulate updates
 * its accumulator in place (`acc = mac16(acc, ...)`) and its result takes
 * the accumulator's name, as in the anchor. */
#include "CppEmitter.h"
#include "npuc/BuildOps.h"
#include "npuc/MlirSupport.h"

#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MlirValue operand(MlirOperation op, intptr_t i) {
  return mlirOperationGetOperand(op, i);
}

static MlirType operand_type(MlirOperation op, intptr_t i) {
  return mlirValueGetType(operand(op, i));
}

static MlirType result_type(MlirOperation op) {
  return mlirValueGetType(mlirOperationGetResult(op, 0));
}

static MlirType elem(MlirType t) {
  return mlirTypeIsAShaped(t) ? mlirShapedTypeGetElementType(t) : t;
}

static bool is_int(MlirType t) { return mlirTypeIsAInteger(elem(t)); }

/* ---- memref addressing ------------------------------------------------------
 */

bool cpp_linear_access(cpp_emitter *e, MlirOperation op, intptr_t memref_at,
                       intptr_t first_index, npuc_sb *access) {
  MlirValue mem = operand(op, memref_at);
  MlirType t = mlirValueGetType(mem);
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (mlirOperationGetNumOperands(op) < first_index + rank) {
    cpp_error(e, op, "the access has fewer indices than its memref's rank");
    return false;
  }
  /* Innermost first, as the strides grow; joined outermost first. */
  char **parts = calloc((size_t)rank + 1, sizeof *parts);
  npuc_sb param = {0};
  int64_t num = 1;
  bool ok = true;
  for (intptr_t d = rank - 1; d >= 0 && ok; d--) {
    const char *idx = cpp_operand(e, op, first_index + d);
    ok = idx != NULL;
    if (!ok)
      break;
    npuc_sb cur = {0};
    if (param.data)
      npuc_sb_printf(&cur, "%s*", param.data);
    if (num > 1)
      npuc_sb_printf(&cur, "%lld*", (long long)num);
    npuc_sb_printf(&cur, "%s", idx);
    parts[d] = npuc_sb_take(&cur);
    if (mlirShapedTypeIsDynamicDim(t, d)) {
      const char *p = cpp_dim_param_get(e, mem, d);
      npuc_sb grown = {0};
      npuc_sb_printf(&grown, "%s%s%s", p ? p : "?", param.data ? "*" : "",
                     param.data ? param.data : "");
      npuc_sb_free(&param);
      param = grown;
    } else {
      num *= mlirShapedTypeGetDimSize(t, d);
    }
  }
  for (intptr_t d = 0; d < rank && ok; d++)
    npuc_sb_printf(access, "%s%s", d ? "+" : "", parts[d]);
  if (ok && rank == 0)
    npuc_sb_printf(access, "0");
  for (intptr_t d = 0; d < rank; d++)
    free(parts[d]);
  free(parts);
  npuc_sb_free(&param);
  return ok;
}

/* ---- loads ------------------------------------------------------------------
 */

/* Is the memref only read (no vector.transfer_write into it)? Then the
 * halves of a wide upd are read through a restrict pointer. */
static bool read_only(MlirValue mem) {
  for (MlirOpOperand u = mlirValueGetFirstUse(mem); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (npuc_op_is(mlirOpOperandGetOwner(u), "vector.transfer_write"))
      return false;
  return true;
}

static bool emit_upd_half(cpp_emitter *e, MlirOperation op, const char *src,
                          const char *access, int64_t bits, bool has_prev) {
  MlirValue res = mlirOperationGetResult(op, 0);
  MlirType rt = mlirValueGetType(res);
  if (!has_prev && !cpp_declare(e, op, res, true, false))
    return false;
  const char *name = cpp_name(e, res);
  bool ro = read_only(operand(op, 0));
  char prefix[160] = "";
  if (ro)
    snprintf(prefix, sizeof prefix, "r_%s_", name);
  if (ro && !has_prev) {
    if (!cpp_emit_type(e, op, operand_type(op, 0), true, false))
      return false;
    cpp_printf(e, " %s%s = %s;\n", prefix, src, src);
  }
  int64_t half = cpp_vector_lanes(rt) / 2;
  MlirType ht = mlirVectorTypeGet(1, &half, elem(rt));
  cpp_printf(e, "%s = %s(%s, %lld, *(", name,
             bits == 256   ? "upd_v"
             : bits == 512 ? "upd_w"
                           : "upd_x",
             name, (long long)cpp_int_attr(op, "index", 0));
  if (!cpp_emit_type(e, op, ht, true, false))
    return false;
  cpp_printf(e, " *)(%s%s + %s))", prefix, src, access);
  return true;
}

/* A vector of at most 256 bits (AIE2: 1024) is one load; a wider one is
 * filled by halves, the second upd naming the first's vector. */
static bool emit_upd(cpp_emitter *e, MlirOperation op) {
  const char *src = cpp_operand(e, op, 0);
  if (!src)
    return false;
  MlirType rt = result_type(op);
  intptr_t rank = mlirShapedTypeGetRank(operand_type(op, 0));
  bool has_prev = mlirOperationGetNumOperands(op) > 1 + rank;
  int64_t eb = cpp_element_bits(rt), bits = cpp_vector_lanes(rt) * eb;
  int64_t offset = cpp_int_attr(op, "offset", 0);
  if (offset % eb) {
    cpp_error(e, op, "upd offset %lld is not a whole number of elements",
              (long long)offset);
    return false;
  }
  npuc_sb access = {0};
  bool ok = cpp_linear_access(e, op, 0, 1, &access);
  if (ok && offset)
    npuc_sb_printf(&access, " %c %lld", offset > 0 ? '+' : '-',
                   (long long)llabs(offset / eb));
  if (ok && has_prev && !cpp_has_name(e, operand(op, 1 + rank)))
    ok = cpp_operand(e, op, 1 + rank) != NULL;
  if (ok && bits <= (e->aie2 ? 1024 : 256)) {
    ok = cpp_assign_prefix(e, op, false);
    if (ok)
      cpp_write(e, "*(");
    ok = ok && cpp_emit_type(e, op, rt, true, false);
    if (ok)
      cpp_printf(e, " *)(%s + %s)", src, access.data);
  } else if (ok) {
    if (has_prev)
      cpp_set_name(e, mlirOperationGetResult(op, 0),
                   cpp_name(e, operand(op, 1 + rank)));
    ok = emit_upd_half(e, op, src, access.data, bits, has_prev);
  }
  npuc_sb_free(&access);
  return ok;
}

/* ---- accumulators
 * ------------------------------------------------------------ */

static bool emit_ups(cpp_emitter *e, MlirOperation op) {
  const char *src = cpp_operand(e, op, 0);
  if (!src || !cpp_assign_prefix(e, op, true))
    return false;
  MlirType rt = result_type(op), et = elem(rt);
  bool fl = mlirTypeIsAFloat(et);
  if (!e->aie2 && fl) {
    cpp_write(e, src);
    return true;
  }
  if (!fl && mlirIntegerTypeGetWidth(et) == 80)
    cpp_write(e, "l");
  if (!fl && e->aie2)
    cpp_printf(e, "ups_to_v%lldacc%u", (long long)cpp_vector_lanes(rt),
               mlirIntegerTypeGetWidth(et));
  else
    cpp_write(e, fl ? "ups_to_v16accfloat" : "ups");
  cpp_printf(e, "(%s", src);
  if (!(fl && e->aie2))
    cpp_printf(e, ", %lld", (long long)cpp_int_attr(op, "shift", 0));
  cpp_write(e, ")");
  return true;
}

/* The anchor's lsrs / bsrs prefixes compare the accumulator's width with
 * itself and never apply: always srs. */
static bool emit_srs(cpp_emitter *e, MlirOperation op) {
  const char *src = cpp_operand(e, op, 0);
  if (!src || !cpp_assign_prefix(e, op, false))
    return false;
  MlirType rt = result_type(op);
  if (cpp_is_float(operand_type(op, 0))) {
    int64_t w = cpp_element_bits(rt);
    if (e->aie2)
      cpp_printf(e, "%s(%s)",
                 w == 32   ? "srs"
                 : w == 16 ? "to_v16bfloat16"
                           : "",
                 src);
    else
      cpp_write(e, src);
    return true;
  }
  const char *shift = cpp_operand(e, op, 1);
  if (!shift)
    return false;
  if (e->aie2)
    cpp_printf(e, "srs_to_v%lldint%lld", (long long)cpp_vector_lanes(rt),
               (long long)cpp_element_bits(rt));
  else
    cpp_write(e, "srs");
  MlirType st = operand_type(op, 1);
  bool cast = !(mlirTypeIsAInteger(st) && mlirIntegerTypeGetWidth(st) == 32);
  cpp_printf(e, "(%s, %s%s)", src, cast ? "(int32_t)" : "", shift);
  return true;
}

/* AIE2 only: v16accfloat(x), v32acc32(x), v16float(acc), v32int32(acc). */
static bool emit_cast(cpp_emitter *e, MlirOperation op) {
  if (!e->aie2) {
    cpp_error(e, op, "aievec.cast has a C++ form for AIE2 only (--aie2)");
    return false;
  }
  const char *src = cpp_operand(e, op, 0);
  bool to_acc = cpp_int_attr(op, "isResAcc", 0) != 0;
  if (!src || !cpp_assign_prefix(e, op, to_acc))
    return false;
  MlirType rt = result_type(op), et = elem(rt);
  long long n = (long long)cpp_vector_elements(rt);
  long long w = (long long)cpp_element_bits(rt);
  if (to_acc && mlirTypeIsAFloat(et))
    cpp_printf(e, "v%lldaccfloat", n);
  else if (to_acc)
    cpp_printf(e, "v%lldacc%lld", n, w);
  else if (mlirTypeIsAFloat(et))
    cpp_printf(e, "v%lld%s", n, w == 16 ? "bfloat16" : "float");
  else
    cpp_printf(e, "v%lldint%lld", n, w);
  cpp_printf(e, "(%s)", src);
  return true;
}

/* ---- data movement
 * ------------------------------------------------------------ */

/* name(operand 0[, operand 1 ...]) with the op's result declared. */
static bool emit_call(cpp_emitter *e, MlirOperation op, const char *fn,
                      bool acc) {
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; i++)
    if (!cpp_operand(e, op, i))
      return false;
  if (!cpp_assign_prefix(e, op, acc))
    return false;
  cpp_printf(e, "%s(", fn);
  for (intptr_t i = 0; i < n; i++)
    cpp_printf(e, "%s%s", i ? ", " : "", cpp_operand(e, op, i));
  cpp_write(e, ")");
  return true;
}

/* name(source, <integer attribute>). */
static bool emit_with_int(cpp_emitter *e, MlirOperation op, const char *fn,
                          const char *attr) {
  const char *src = cpp_operand(e, op, 0);
  if (!src || !cpp_assign_prefix(e, op, false))
    return false;
  cpp_printf(e, "%s(%s, %lld)", fn, src, (long long)cpp_int_attr(op, attr, 0));
  return true;
}

static void elem_suffix(cpp_emitter *e, MlirType t) {
  long long w = (long long)cpp_element_bits(t);
  if (is_int(t))
    cpp_printf(e, "int%lld", w);
  else
    cpp_write(e, w == 16 ? "bfloat16" : "float");
}

static bool emit_ext(cpp_emitter *e, MlirOperation op, bool aie1_op) {
  if (aie1_op == e->aie2) {
    cpp_error(e, op, "%s",
              aie1_op ? "aievec_aie1.ext is AIE1's: drop --aie2"
                      : "aievec.ext is AIE2's: pass --aie2");
    return false;
  }
  MlirType rt = result_type(op);
  int64_t bits = cpp_vector_lanes(rt) * cpp_element_bits(rt);
  if (!e->aie2 && bits != 128 && bits != 256 && bits != 512) {
    cpp_error(e, op, "AIE1 extracts 128, 256 or 512 bits, not %lld",
              (long long)bits);
    return false;
  }
  const char *src = cpp_operand(e, op, 0);
  if (!src || !cpp_assign_prefix(e, op, false))
    return false;
  if (e->aie2) {
    cpp_printf(e, "extract_v%lld", (long long)cpp_vector_lanes(rt));
    elem_suffix(e, rt);
  } else {
    cpp_write(e, bits == 128 ? "ext_v" : bits == 256 ? "ext_w" : "ext_x");
  }
  cpp_printf(e, "(%s, %lld)", src, (long long)cpp_int_attr(op, "index", 0));
  return true;
}

static bool emit_broadcast_scalar(cpp_emitter *e, MlirOperation op) {
  const char *src = cpp_operand(e, op, 0);
  if (!src || !cpp_assign_prefix(e, op, false))
    return false;
  MlirType rt = result_type(op);
  cpp_printf(e, "broadcast_to_v%lld", (long long)cpp_vector_lanes(rt));
  elem_suffix(e, rt);
  cpp_printf(e, "(%s)", src);
  return true;
}

static bool emit_shift(cpp_emitter *e, MlirOperation op) {
  const char *l = cpp_operand(e, op, 0), *r = l ? cpp_operand(e, op, 1) : NULL,
             *s = r ? cpp_operand(e, op, 2) : NULL;
  if (!s || !cpp_assign_prefix(e, op, cpp_int_attr(op, "isAcc", 0) != 0))
    return false;
  cpp_printf(e, "shift_bytes(%s, %s, static_cast<uint32_t>(%s))", l, r, s);
  return true;
}

static bool emit_pack(cpp_emitter *e, MlirOperation op) {
  MlirType st = elem(operand_type(op, 0));
  return emit_call(e, op,
                   mlirTypeIsAInteger(st) && mlirIntegerTypeIsUnsigned(st)
                       ? "upack"
                       : "pack",
                   false);
}

/* Appends ", <attr>" for each non-empty attribute of the list. */
static void emit_attr_args(cpp_emitter *e, MlirOperation op,
                           const char *const *names) {
  for (; *names; names++) {
    MlirStringRef s = cpp_string_attr(op, *names);
    if (s.length)
      cpp_printf(e, ", %.*s", (int)s.length, s.data);
  }
}

/* select32 (i16), select16 (i32, f32), select8 (64-bit lanes). */
static bool emit_select(cpp_emitter *e, MlirOperation op) {
  static const char *const x[] = {"xstart", "xoffsets", "xoffsets_hi",
                                  "xsquare", NULL};
  static const char *const y[] = {"ystart", "yoffsets", "yoffsets_hi",
                                  "ysquare", NULL};
  MlirStringRef sel = cpp_string_attr(op, "select");
  int64_t w = cpp_element_bits(operand_type(op, 0));
  if (!sel.length || (w != 16 && w != 32 && w != 64)) {
    cpp_error(e, op,
              "select needs a 'select' attribute and 16-, 32- or "
              "64-bit lanes");
    return false;
  }
  const char *xb = cpp_operand(e, op, 0);
  bool has_y = mlirOperationGetNumOperands(op) > 1;
  const char *yb = has_y ? cpp_operand(e, op, 1) : "";
  if (!xb || !yb || !cpp_assign_prefix(e, op, false))
    return false;
  cpp_printf(e, "%s(%.*s, %s",
             w == 16   ? "select32"
             : w == 32 ? "select16"
                       : "select8",
             (int)sel.length, sel.data, xb);
  emit_attr_args(e, op, x);
  if (has_y)
    cpp_printf(e, ", %s", yb);
  emit_attr_args(e, op, y);
  cpp_write(e, ")");
  return true;
}

/* ---- aievec_aie1 multiplies, adds
 * --------------------------------------------- */

static const char *const x_attrs[] = {"xstart", "xoffsets", "xoffsets_hi",
                                      "xstep",  "xsquare",  NULL};
static const char *const z_attrs[] = {"zstart", "zoffsets", "zoffsets_hi",
                                      "zstep",  "zsquare",  NULL};
static const char *const x_add_attrs[] = {"xstart", "xoffsets", "xoffsets_hi",
                                          "xsquare", NULL};
static const char *const z_add_attrs[] = {"zstart", "zoffsets", "zoffsets_hi",
                                          "zsquare", NULL};

/* mul / mac / msc, lane-addressed: l- for 80-bit accumulators, fp- for
 * floats, and the lane count for integers (lmac8, mac16, fpmac). */
static void mul_name(MlirOperation op, const char *base, char *buf,
                     size_t cap) {
  MlirType rt = result_type(op), et = elem(rt);
  bool simple = cpp_string_attr(op, "xstart").length == 0;
  bool fl = mlirTypeIsAFloat(et);
  const char *pre = simple                              ? ""
                    : fl                                ? "fp"
                    : mlirIntegerTypeGetWidth(et) == 80 ? "l"
                                                        : "";
  if (simple || fl)
    snprintf(buf, cap, "%s%s", pre, base);
  else
    snprintf(buf, cap, "%s%s%lld", pre, base, (long long)cpp_vector_lanes(rt));
}

/* x operand and its attributes, then z and its attributes. */
static bool emit_lane_operands(cpp_emitter *e, MlirOperation op,
                               const char *const *xa, const char *const *za) {
  const char *x = cpp_operand(e, op, 0), *z = x ? cpp_operand(e, op, 1) : NULL;
  if (!z)
    return false;
  cpp_write(e, x);
  emit_attr_args(e, op, xa);
  cpp_printf(e, ", %s", z);
  emit_attr_args(e, op, za);
  cpp_write(e, ")");
  return true;
}

static bool emit_mul(cpp_emitter *e, MlirOperation op) {
  char name[32];
  mul_name(op, "mul", name, sizeof name);
  if (!cpp_operand(e, op, 0) || !cpp_operand(e, op, 1) ||
      !cpp_assign_prefix(e, op, false))
    return false;
  cpp_printf(e, "%s(", name);
  return emit_lane_operands(e, op, x_attrs, z_attrs);
}

/* The accumulator is updated in place; the result takes its name. */
static bool emit_mac(cpp_emitter *e, MlirOperation op) {
  char name[32];
  mul_name(op, cpp_int_attr(op, "fmsub", 0) ? "msc" : "mac", name, sizeof name);
  const char *acc = cpp_operand(e, op, 2);
  if (!acc)
    return false;
  cpp_printf(e, "%s = %s(%s, ", acc, name, acc);
  if (!emit_lane_operands(e, op, x_attrs, z_attrs))
    return false;
  cpp_set_name(e, mlirOperationGetResult(op, 0), acc);
  return true;
}

/* Lane-wise: fpadd(a, b) or a + b; lane-addressed: add16 / add32 /
 * fpadd with the operands' attributes. */
static bool emit_add_sub(cpp_emitter *e, MlirOperation op, bool add) {
  const char *l = cpp_operand(e, op, 0), *r = l ? cpp_operand(e, op, 1) : NULL;
  if (!r || !cpp_assign_prefix(e, op, false))
    return false;
  MlirType rt = result_type(op);
  bool fl = cpp_is_float(rt);
  const char *base = add ? "add" : "sub";
  if (cpp_string_attr(op, "xstart").length == 0) {
    if (fl)
      cpp_printf(e, "fp%s(%s, %s)", base, l, r);
    else
      cpp_printf(e, "%s %s %s", l, add ? "+" : "-", r);
    return true;
  }
  if (fl)
    cpp_printf(e, "fp%s(", base);
  else
    cpp_printf(e, "%s%lld(", base, (long long)cpp_vector_lanes(rt));
  return emit_lane_operands(e, op, x_add_attrs, z_add_attrs);
}

/* ---- AIE-ML multiplies
 * ----------------------------------------------------------- */

/* Operands narrower than 512 bits are widened with undefined lanes, on a
 * line of their own: v32int16 v5 = concat(v1, undef_v16int16()). */
static const char *widen_to_512(cpp_emitter *e, MlirOperation op, intptr_t i) {
  const char *name = cpp_operand(e, op, i);
  MlirType t = operand_type(op, i);
  int64_t n = cpp_vector_elements(t), w = cpp_element_bits(t);
  if (!name || n * w >= 512)
    return name;
  const char *fresh = cpp_new_name(e, "v");
  int64_t wide_n = 512 / w, quarter = 256 / w;
  MlirType et = elem(t);
  MlirType wide = mlirVectorTypeGet(1, &wide_n, et),
           flat = mlirVectorTypeGet(1, &n, et),
           half = mlirVectorTypeGet(1, &quarter, et);
  npuc_sb wn = {0}, on = {0}, hn = {0};
  bool ok = cpp_type_spelling(e, wide, false, false, &wn) &&
            cpp_type_spelling(e, flat, false, false, &on) &&
            cpp_type_spelling(e, half, false, false, &hn);
  if (ok && wide_n / n == 4)
    cpp_printf(e, "%s %s = concat(concat(%s, undef_%s()), undef_%s());\n",
               wn.data, fresh, name, on.data, hn.data);
  else if (ok)
    cpp_printf(e, "%s %s = concat(%s, undef_%s());\n", wn.data, fresh, name,
               on.data);
  else
    cpp_error(e, op, "cannot widen operand %lld to 512 bits in C++",
              (long long)i);
  npuc_sb_free(&wn);
  npuc_sb_free(&on);
  npuc_sb_free(&hn);
  return ok ? fresh : NULL;
}

/* _16_2 for i32 and bf16, _32 for i16, _32_2 for i8, _16 for f32. */
static const char *elem_suffix_of(MlirType t) {
  int64_t w = cpp_element_bits(t);
  if (is_int(t))
    return w == 32 ? "_16_2" : w == 16 ? "_32" : w == 8 ? "_32_2" : "";
  return w == 32 ? "_16" : w == 16 ? "_16_2" : "";
}

static bool emit_mul_elem(cpp_emitter *e, MlirOperation op) {
  const char *l = widen_to_512(e, op, 0),
             *r = l ? widen_to_512(e, op, 1) : NULL;
  if (!r || !cpp_assign_prefix(e, op, true))
    return false;
  MlirType lt = operand_type(op, 0);
  bool wide_int = is_int(lt) && cpp_element_bits(lt) == 32;
  cpp_printf(e, "mul_elem%s(%s%s ,%s%s)", elem_suffix_of(lt), l,
             wide_int ? " ,undef_v16int32()" : "", r,
             wide_int ? " , broadcast_zero_s32()" : "");
  return true;
}

/* i8 operands are widened as mul_elem's are: mac_elem_32_2 takes v64int8
 * (mlir-aie's own output has them 512 bits wide already). */
static bool emit_mac_elem(cpp_emitter *e, MlirOperation op) {
  MlirType lt = operand_type(op, 0);
  bool narrow = is_int(lt) && cpp_element_bits(lt) == 8;
  const char *l = narrow ? widen_to_512(e, op, 0) : cpp_operand(e, op, 0);
  const char *r = !l       ? NULL
                  : narrow ? widen_to_512(e, op, 1)
                           : cpp_operand(e, op, 1);
  const char *acc = r ? cpp_operand(e, op, 2) : NULL;
  if (!acc)
    return false;
  bool wide_int = is_int(lt) && cpp_element_bits(lt) == 32;
  cpp_printf(e, "%s = %s%s(%s%s, %s%s, %s)", acc,
             cpp_int_attr(op, "fmsub", 0) ? "msc_elem" : "mac_elem",
             elem_suffix_of(lt), r, wide_int ? ", broadcast_zero_s32()" : "", l,
             wide_int ? ", undef_v16int32()" : "", acc);
  cpp_set_name(e, mlirOperationGetResult(op, 0), acc);
  return true;
}

/* mul_conv_MxN / mac_conv_MxN / msc_conv_MxN on i8 and i16 data. */
static bool emit_conv(cpp_emitter *e, MlirOperation op, bool mac) {
  MlirType lt = operand_type(op, 0);
  int64_t w = cpp_element_bits(lt);
  if (!is_int(lt) || (w != 16 && w != 8)) {
    cpp_error(e, op, "the conv intrinsics take i8 or i16 data");
    return false;
  }
  const char *l = cpp_operand(e, op, 0), *r = l ? cpp_operand(e, op, 1) : NULL;
  const char *acc = mac && r ? cpp_operand(e, op, 2) : "";
  if (!r || !acc)
    return false;
  long long m = cpp_int_attr(op, "M", 0), n = cpp_int_attr(op, "N", 0);
  if (!mac) {
    if (!cpp_assign_prefix(e, op, true))
      return false;
    cpp_printf(e, "mul_conv_%lldx%lld(%s, %s)", m, n, l, r);
    return true;
  }
  cpp_printf(e, "%s = %s_conv_%lldx%lld(%s, %s, %s)", acc,
             cpp_int_attr(op, "fmsub", 0) ? "msc" : "mac", m, n, l, r, acc);
  cpp_set_name(e, mlirOperationGetResult(op, 0), acc);
  return true;
}

/* mac_4x8_8x4(a, b, acc): the shapes of the operands name the intrinsic. */
static bool emit_matmul(cpp_emitter *e, MlirOperation op) {
  const char *acc = cpp_operand(e, op, 2);
  const char *l = acc ? widen_to_512(e, op, 0) : NULL,
             *r = l ? widen_to_512(e, op, 1) : NULL;
  MlirType lt = operand_type(op, 0), rt = operand_type(op, 1);
  if (!r || mlirShapedTypeGetRank(lt) != 2 || mlirShapedTypeGetRank(rt) != 2) {
    if (r)
      cpp_error(e, op, "aievec.matmul takes 2-D operands");
    return false;
  }
  cpp_printf(e, "%s = mac_%lldx%lld_%lldx%lld(%s, %s, %s)", acc,
             (long long)mlirShapedTypeGetDimSize(lt, 0),
             (long long)mlirShapedTypeGetDimSize(lt, 1),
             (long long)mlirShapedTypeGetDimSize(rt, 0),
             (long long)mlirShapedTypeGetDimSize(rt, 1), l, r, acc);
  cpp_set_name(e, mlirOperationGetResult(op, 0), acc);
  return true;
}

/* ---- AIE-ML compares, element-wise
 * ------------------------------------------------ */

static bool aie2_only(cpp_emitter *e, MlirOperation op) {
  if (!e->aie2)
    cpp_error(e, op, "this op has a C++ form for AIE2 only (--aie2)");
  return e->aie2;
}

/* eq, ne, lt, le, gt, ge; unsigned predicates view the lanes as uint. */
static bool emit_cmp(cpp_emitter *e, MlirOperation op) {
  static const char *const preds[][2] = {
      {"eq", "eq"},  {"ne", "ne"},  {"slt", "lt"}, {"ult", "lt"},
      {"sle", "le"}, {"ule", "le"}, {"sgt", "gt"}, {"ugt", "gt"},
      {"sge", "ge"}, {"uge", "ge"}};
  if (!aie2_only(e, op))
    return false;
  MlirStringRef p = cpp_string_attr(op, "pred");
  const char *fn = NULL;
  for (size_t i = 0; i < sizeof preds / sizeof preds[0]; i++)
    if (p.length == strlen(preds[i][0]) &&
        memcmp(p.data, preds[i][0], p.length) == 0)
      fn = preds[i][1];
  const char *l = cpp_operand(e, op, 0), *r = l ? cpp_operand(e, op, 1) : NULL;
  if (!fn) {
    cpp_error(e, op, "unknown comparison predicate '%.*s'", (int)p.length,
              p.data);
    return false;
  }
  if (!r || !cpp_assign_prefix(e, op, false))
    return false;
  MlirType t = operand_type(op, 0);
  if (is_int(t) && p.data[0] == 'u') {
    long long n = (long long)cpp_vector_lanes(t),
              w = (long long)cpp_element_bits(t);
    cpp_printf(e, "%s(v%llduint%lld(%s), v%llduint%lld(%s))", fn, n, w, l, n, w,
               r);
  } else {
    cpp_printf(e, "%s(%s, %s)", fn, l, r);
  }
  return true;
}

static bool emit_sel(cpp_emitter *e, MlirOperation op) {
  const char *l = cpp_operand(e, op, 0), *r = l ? cpp_operand(e, op, 1) : NULL,
             *s = r ? cpp_operand(e, op, 2) : NULL;
  if (!aie2_only(e, op) || !s || !cpp_assign_prefix(e, op, false))
    return false;
  cpp_printf(e, "sel(%s, %s, %s)", r, l, s);
  return true;
}

/* add / sub of whole vectors: in an accumulator for floats and 1024 bits. */
static bool emit_elementwise(cpp_emitter *e, MlirOperation op, const char *fn) {
  MlirType rt = result_type(op);
  bool acc =
      cpp_is_float(rt) || cpp_element_bits(rt) * cpp_vector_lanes(rt) == 1024;
  return emit_call(e, op, fn, acc);
}

/* ---- dispatch
 * --------------------------------------------------------------------- */

static int emit_aie1_op(cpp_emitter *e, MlirOperation op) {
  if (npuc_op_is(op, "aievec_aie1.mul"))
    return emit_mul(e, op);
  if (npuc_op_is(op, "aievec_aie1.mac"))
    return emit_mac(e, op);
  if (npuc_op_is(op, "aievec_aie1.add"))
    return emit_add_sub(e, op, true);
  if (npuc_op_is(op, "aievec_aie1.sub"))
    return emit_add_sub(e, op, false);
  /* aievec.select is the spelling the op had before mlir-aie moved it. */
  if (npuc_op_is(op, "aievec_aie1.select") || npuc_op_is(op, "aievec.select"))
    return emit_select(e, op);
  if (npuc_op_is(op, "aievec_aie1.ext"))
    return emit_ext(e, op, true);
  return -1;
}

static int emit_aie2_op(cpp_emitter *e, MlirOperation op) {
  if (npuc_op_is(op, "aievec.mul_elem"))
    return emit_mul_elem(e, op);
  if (npuc_op_is(op, "aievec.mac_elem"))
    return emit_mac_elem(e, op);
  if (npuc_op_is(op, "aievec.mul_conv"))
    return emit_conv(e, op, false);
  if (npuc_op_is(op, "aievec.fma_conv"))
    return emit_conv(e, op, true);
  if (npuc_op_is(op, "aievec.matmul"))
    return emit_matmul(e, op);
  if (npuc_op_is(op, "aievec.cmp"))
    return emit_cmp(e, op);
  if (npuc_op_is(op, "aievec.sel"))
    return emit_sel(e, op);
  if (npuc_op_is(op, "aievec.add_elem"))
    return emit_elementwise(e, op, "add");
  if (npuc_op_is(op, "aievec.sub_elem"))
    return emit_elementwise(e, op, "sub");
  if (npuc_op_is(op, "aievec.ext"))
    return emit_ext(e, op, false);
  if (npuc_op_is(op, "aievec.cast"))
    return emit_cast(e, op);
  if (npuc_op_is(op, "aievec.broadcast_scalar"))
    return emit_broadcast_scalar(e, op);
  return -1;
}

/* The ops that are one call of their operands. */
static const struct {
  const char *op, *fn;
  bool acc;
} plain_calls[] = {
    {"aievec.concat", "concat", false},
    {"aievec.min", "min", false},
    {"aievec.max", "max", false},
    {"aievec.neg", "neg", true},
    {"aievec.bneg", "bneg", false},
    {"aievec.bxor", "bxor", false},
    {"aievec.band", "band", false},
    {"aievec.bor", "bor", false},
    {"aievec.unpack", "unpack", false},
    {"aievec.ext_elem", "extract_elem", false},
};

int cpp_emit_aievec_op(cpp_emitter *e, MlirOperation op) {
  for (size_t i = 0; i < sizeof plain_calls / sizeof plain_calls[0]; i++)
    if (npuc_op_is(op, plain_calls[i].op))
      return emit_call(e, op, plain_calls[i].fn, plain_calls[i].acc);
  if (npuc_op_is(op, "aievec.upd"))
    return emit_upd(e, op);
  if (npuc_op_is(op, "aievec.ups"))
    return emit_ups(e, op);
  if (npuc_op_is(op, "aievec.srs"))
    return emit_srs(e, op);
  if (npuc_op_is(op, "aievec.broadcast"))
    return emit_with_int(e, op, "broadcast_elem", "idx");
  if (npuc_op_is(op, "aievec.legacyshuffle"))
    return emit_with_int(e, op, "shuffle", "mode");
  if (npuc_op_is(op, "aievec.shift"))
    return emit_shift(e, op);
  if (npuc_op_is(op, "aievec.pack"))
    return emit_pack(e, op);
  int done = emit_aie1_op(e, op);
  return done >= 0 ? done : emit_aie2_op(e, op);
}
