/* AIE-ML conv scheme of aie-vectorize (aieml=true): mul_conv / fma_conv
 * over a filter row, the filter prepared once per vector (concat for
 * 16-bit, legacyshuffle for duplicated 8-bit) and shifted per row, and the
 * accumulator back down by srs or cast. */
#include "AieVectorizeInternal.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdint.h>

int64_t aie_conv_columns(const aie_node *n) {
  return n->elem_bits == 8 ? 8 : 4;
}

static MlirNamedAttribute i32_attr(aie_state *s, const char *name,
                                   int64_t v) {
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
  if (!s->filter_base.keys && !aie_ptrmap_init(&s->filter_base, 8))
    return base;
  size_t cached = aie_ptrmap_get(&s->filter_base, z.v.ptr);
  if (cached != SIZE_MAX) {
    base.ptr = (void *)(uintptr_t)cached;
  } else {
    if (n->elem_bits == 16 && aie_lanes_of(base) < 2 * n->lanes) {
      base = aie_concat_self(s, b, base);
    } else if (n->elem_bits == 8 && s->dup_factor == 2) {
      MlirType t = mlirValueGetType(base);
      MlirNamedAttribute mode = i32_attr(s, "mode", 0);
      base = mlirOperationGetResult(
          npuc_build_op(b, "aievec.legacyshuffle", 1, &base, 1, &t, 1,
                        &mode),
          0);
    }
    (void)aie_ptrmap_put(&s->filter_base, z.v.ptr, (size_t)(uintptr_t)base.ptr);
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

/* mul_conv / fma_conv: M output lanes, each the dot product of N
 * consecutive image elements with the filter row. */
void aie_generate_conv(aie_state *s, aie_node *n) {
  npuc_builder b = npuc_builder_before(n->op);
  MlirValue acc = {NULL};
  if (n->kind == AIE_FMA)
    acc = aie_acc_operand(s, n, &b);
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

/* The accumulator down to `out`: srs, or a cast when the widths agree
 * (the 8-bit conv accumulates in i32). */
MlirValue aie_plain_value_ml(aie_state *s, aie_node *n, MlirType out) {
  npuc_builder b = npuc_builder_before(n->op);
  MlirType acc = mlirValueGetType(n->acc_value);
  if (mlirTypeEqual(mlirShapedTypeGetElementType(acc),
                    mlirShapedTypeGetElementType(out))) {
    MlirNamedAttribute res_acc =
        aie_named(s->ctx, "isResAcc", mlirBoolAttrGet(s->ctx, 0));
    return mlirOperationGetResult(
        npuc_build_op(&b, "aievec.cast", 1, &n->acc_value, 1, &out, 1,
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
    if (!aie_op_is(user, "arith.trunci"))
      continue;
    MlirValue res = mlirOperationGetResult(user, 0);
    MlirValue plain = aie_plain_value_ml(s, n, mlirValueGetType(res));
    mlirValueReplaceAllUsesOfWith(res, plain);
    mlirOperationDestroy(user);
  }
}

