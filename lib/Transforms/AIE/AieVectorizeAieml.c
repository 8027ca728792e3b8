/* AIE-ML schemes of aie-vectorize (aieml=true):
 *  - conv: mul_conv / fma_conv over a filter row, the filter prepared once
 *    per vector (concat for 16-bit, legacyshuffle for duplicated 8-bit)
 *    and shifted per row;
 *  - element-wise (i32 x 16 lanes, i16 x 32 lanes): mul_elem / mac_elem
 *    of whole vectors, a splat operand broadcast from the AIE vector that
 *    holds it (aievec.broadcast {idx = its position}) instead of loaded on
 *    its own: the row of A in a gemm is one load for all its elements;
 * and the accumulator back down by srs or cast. */
#include "AieVectorizeInternal.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include "npuc/IR.h"

#include <stdint.h>
#include <stdio.h>

int64_t aie_conv_columns(const aie_node *n) {
  return n->elem_bits == 8 ? 8 : 4;
}

static MlirNamedAttribute i32_attr(aie_state *s, const char *name, int64_t v) {
  return aie_named(s->ctx, name,
                   mlirIntegerAttrGet(mlirIntegerTypeGet(s->ctx, 32), v));
}

/* The filter as the conv ops read it: the 16-bit filter doubled by a
 * concat, the 8-bit one (each value twice, dup-factor 2) compacted by
 * legacyshuffle mode 0; a filter row further on is shifted into place
 * (aievec.shift, in bytes). */
static MlirValue conv_filter(aie_state *s, npuc_builder *b, aie_node *n,
                             aie_operand z) {
  MlirValue base = z.v;
  int64_t start = z.start;
  if (n->elem_bits == 8 && s->dup_factor == 2)
    start /= 2;
  /* One concat/shuffle per filter vector, shared by its rows. */
  size_t cached = aie_index_of(&s->filter_base, z.v.ptr);
  if (cached != SIZE_MAX) {
    base.ptr = (void *)(uintptr_t)cached;
  } else {
    if (n->elem_bits == 16 && aie_lanes_of(base) < 2 * n->lanes) {
      base = aie_concat_self(s, b, base);
    } else if (n->elem_bits == 8 && s->dup_factor == 2) {
      MlirType t = mlirValueGetType(base);
      MlirNamedAttribute mode = i32_attr(s, "mode", 0);
      base = mlirOperationGetResult(
          npuc_build_op(b, "aievec.legacyshuffle", 1, &base, 1, &t, 1, &mode),
          0);
    }
    (void)npuc_ptr_map_put(&s->filter_base, z.v.ptr, (uintptr_t)base.ptr);
  }
  int64_t bytes = start * (n->elem_bits / 8);
  if (bytes == 0)
    return base;
  MlirValue amount =
      npuc_build_int_constant(b, mlirIntegerTypeGet(s->ctx, 32), bytes);
  MlirValue operands[3] = {base, base, amount};
  MlirType t = mlirValueGetType(base);
  MlirNamedAttribute is_acc =
      aie_named(s->ctx, "isAcc", mlirBoolAttrGet(s->ctx, 0));
  return mlirOperationGetResult(
      npuc_build_op(b, "aievec.shift", 3, operands, 1, &t, 1, &is_acc), 0);
}

static void generate_elem(aie_state *s, aie_node *n);
static void generate_conv(aie_state *s, aie_node *n);

void aie_generate_aieml(aie_state *s, aie_node *n) {
  if (aie_ml_elementwise(n))
    generate_elem(s, n);
  else
    generate_conv(s, n);
}

/* AIE-ML multiplies lane by lane at full width (i32 -> acc64, i16 ->
 * acc32); the conv ops take narrow data (i16 -> acc64, i8 -> acc32). */
bool aie_ml_elementwise(const aie_node *n) {
  return (n->kind == AIE_MUL || n->kind == AIE_FMA) && !n->is_float &&
         !n->narrowed &&
         ((n->elem_bits == 32 && n->lanes == 16) ||
          (n->elem_bits == 16 && n->lanes == 32));
}

int64_t aie_ml_acc_bits(const aie_node *n) {
  if (aie_ml_elementwise(n))
    return 2 * n->elem_bits;
  return n->elem_bits == 16 ? 64 : 32;
}

/* mul_conv / fma_conv: M output lanes, each the dot product of N
 * consecutive image elements with the filter row. */
static void generate_conv(aie_state *s, aie_node *n) {
  npuc_builder b = npuc_builder_before(n->op);
  MlirValue acc = aie_acc_operand(s, n, &b);
  aie_operand x = aie_plain_operand(s, n->x);
  aie_operand z = aie_plain_operand(s, n->z);
  MlirValue filter = conv_filter(s, &b, n, z);
  if (aie_lanes_of(x.v) < aie_lanes_of(filter))
    x.v = aie_concat_self(s, &b, x.v);
  MlirNamedAttribute attrs[2] = {i32_attr(s, "M", n->lanes),
                                 i32_attr(s, "N", aie_conv_columns(n))};
  MlirValue operands[3] = {x.v, filter, acc};
  MlirType type = aie_acc_type(s, n);
  n->new_op = npuc_build_op(
      &b, n->kind == AIE_FMA ? "aievec.fma_conv" : "aievec.mul_conv",
      n->kind == AIE_FMA ? 3 : 2, operands, 1, &type, 2, attrs);
  n->acc_value = mlirOperationGetResult(n->new_op, 0);
}

/* ---- Element-wise -------------------------------------------------------- */

static MlirValue elem_operand(aie_state *s, npuc_builder *b, aie_node *n,
                              MlirValue orig);

/* mac_elem lhs, rhs, acc (fmsub: minus) or mul_elem lhs, rhs, in the
 * accumulator type; a splat operand is broadcast first. */
static void generate_elem(aie_state *s, aie_node *n) {
  npuc_builder b = npuc_builder_before(n->op);
  MlirValue acc = aie_acc_operand(s, n, &b);
  MlirValue operands[3] = {elem_operand(s, &b, n, n->x),
                           elem_operand(s, &b, n, n->z), acc};
  MlirNamedAttribute fmsub =
      aie_named(s->ctx, "fmsub", mlirBoolAttrGet(s->ctx, 1));
  MlirType type = aie_acc_type(s, n);
  bool fma = n->kind == AIE_FMA;
  n->new_op =
      npuc_build_op(&b, fma ? "aievec.mac_elem" : "aievec.mul_elem",
                    fma ? 3 : 2, operands, 1, &type, n->fmsub ? 1 : 0, &fmsub);
  n->acc_value = mlirOperationGetResult(n->new_op, 0);
}

/* A whole vector as it is; a splat as every lane taking its element from
 * the AIE vector that holds it (aie_check_operands_elem made sure that
 * vector is one of the node's width). */
static MlirValue elem_operand(aie_state *s, npuc_builder *b, aie_node *n,
                              MlirValue orig) {
  aie_operand o = aie_plain_operand(s, orig);
  if (!o.splat)
    return o.v;
  MlirType type = mlirVectorTypeGet(
      1, &n->lanes, mlirShapedTypeGetElementType(mlirValueGetType(o.v)));
  MlirNamedAttribute idx =
      aie_named(s->ctx, "idx",
                mlirIntegerAttrGet(mlirIntegerTypeGet(s->ctx, 8), o.start));
  return mlirOperationGetResult(
      npuc_build_op(b, "aievec.broadcast", 1, &o.v, 1, &type, 1, &idx), 0);
}

static bool elem_operand_fits(aie_state *s, aie_node *n, MlirValue v,
                              const char *role);

/* Lane i of an element-wise op reads lane i of its operands: a streaming
 * operand must be a whole AIE vector starting at its first element, and a
 * broadcast takes a vector of the node's width. */
bool aie_check_operands_elem(aie_state *s, aie_node *n) {
  return elem_operand_fits(s, n, n->x, "first") &&
         elem_operand_fits(s, n, n->z, "second") &&
         (n->kind != AIE_FMA || elem_operand_fits(s, n, n->acc, "accumulator"));
}

static bool elem_operand_fits(aie_state *s, aie_node *n, MlirValue v,
                              const char *role) {
  size_t r = aie_read_of_value(s, v);
  if (r == SIZE_MAX || !s->reads[r].analysed)
    return true;
  int64_t lo, hi, vec = n->lanes * n->elem_bits;
  npuc_reuse_interval(s->reuse, r, &lo, &hi);
  int64_t start = (npuc_reuse_start_bits(s->reuse, r) - lo) / n->elem_bits;
  bool splat = s->reads[r].splat;
  if (hi - lo == vec && (splat || start == 0))
    return true;
  /* The extents are aligned to the vector's size, so a streaming read of
   * one whole vector that starts inside it spans two. */
  char why[200];
  snprintf(why, sizeof why,
           "the element-wise AIE-ML scheme takes the %s operand from a "
           "%lld-bit AIE vector, the reads around it make it %lld bits",
           role, (long long)vec, (long long)(hi - lo));
  npuc_pass_remark(n->op,
                   "%s; the function is left as the "
                   "super-vectorizer produced it",
                   why);
  return false;
}

/* ---- Conversions -------------------------------------------------------- */

/* The accumulator down to `out`: srs, or a cast when the widths agree
 * (the 8-bit conv accumulates in i32). */
MlirValue aie_plain_value_ml(aie_state *s, aie_node *n, MlirType out) {
  npuc_builder b = npuc_builder_before(n->op);
  MlirType acc = mlirValueGetType(n->acc_value);
  if (mlirTypeEqual(mlirShapedTypeGetElementType(acc),
                    mlirShapedTypeGetElementType(out))) {
    MlirNamedAttribute res_acc =
        aie_named(s->ctx, "isResAcc", mlirBoolAttrGet(s->ctx, 0));
    return mlirOperationGetResult(npuc_build_op(&b, "aievec.cast", 1,
                                                &n->acc_value, 1, &out, 1,
                                                &res_acc),
                                  0);
  }
  MlirValue shift =
      npuc_build_int_constant(&b, mlirIntegerTypeGet(s->ctx, 32), s->shift);
  MlirValue operands[2] = {n->acc_value, shift};
  return mlirOperationGetResult(
      npuc_build_op(&b, "aievec.srs", 2, operands, 1, &out, 0, NULL), 0);
}

/* A narrowed node's result truncated back to the reads' width: the
 * truncation becomes the srs itself. */
void aie_replace_narrowed_uses(aie_state *s, aie_node *n, MlirValue old) {
  MlirOpOperand u = mlirValueGetFirstUse(old);
  while (!mlirOpOperandIsNull(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    u = mlirOpOperandGetNextUse(u);
    if (!npuc_op_is(user, "arith.trunci"))
      continue;
    MlirValue res = mlirOperationGetResult(user, 0);
    MlirValue plain = aie_plain_value_ml(s, n, mlirValueGetType(res));
    mlirValueReplaceAllUsesOfWith(res, plain);
    mlirOperationDestroy(user);
  }
}
