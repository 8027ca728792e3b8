/* aie-vectorize: one AIE1 op per node, with the lane-addressing attributes
 * of its scheme, and the accumulator conversions around it:
 *  - 32-bit (i32 -> i80 accumulators, f32 unchanged): X of 16 lanes (a
 *    256-bit X is doubled with aievec.concat), Z of 8; start = the
 *    element's position in its AIE vector, offsets i*accIncr per lane
 *    ("0x76543210", or "0x00000000" for a splat);
 *  - 16-bit (i16 -> i48): see the i16 helpers below;
 *  - add/sub: lane-wise ("simple") when both operands are whole aligned
 *    vectors, else the start/offset form.
 * ups converts an accumulator aie_operand that is not one already; srs
 * converts a result that something other than an AIE multiply uses. */
#include "AieVectorizeInternal.h"
#include "npuc/IR.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MlirValue plain_value(aie_state *s, aie_node *n);
static void generate_mul_like(aie_state *s, aie_node *n);
static void generate_add_sub(aie_state *s, aie_node *n);
static void generate_mul_8(aie_state *s, aie_node *n);
static MlirValue plain_value_8(aie_state *s, aie_node *n);
static MlirValue add_initial_value_8(aie_state *s, npuc_builder *b, aie_node *n,
                                     MlirValue low);
static bool needs_plain_result(const aie_state *s, MlirValue v);
static bool is_replaced_op(const aie_state *s, MlirOperation op);
static void erase_replaced(aie_state *s);

bool aie_generate_ops(aie_state *s) {
  for (size_t i = 0; i < s->num_nodes; i++) {
    aie_node *n = &s->nodes[i];
    if (n->dead)
      continue;
    if (s->aieml)
      aie_generate_aieml(s, n);
    else if ((n->kind == AIE_MUL || n->kind == AIE_FMA) && n->elem_bits == 8)
      generate_mul_8(s, n);
    else if (n->kind == AIE_MUL || n->kind == AIE_FMA)
      generate_mul_like(s, n);
    else
      generate_add_sub(s, n);
  }
  /* What else uses the old results now uses the new ones. */
  for (size_t i = 0; i < s->num_nodes; i++) {
    aie_node *n = &s->nodes[i];
    MlirValue old = mlirOperationGetResult(n->op, 0);
    size_t live = n->dead ? n->rep : i;
    if (live != SIZE_MAX && s->nodes[live].narrowed)
      aie_replace_narrowed_uses(s, &s->nodes[live], old);
    if (live != SIZE_MAX && needs_plain_result(s, old))
      mlirValueReplaceAllUsesOfWith(old, plain_value(s, &s->nodes[live]));
  }
  for (size_t i = 0; i < s->num_reads; i++) {
    aie_read *r = &s->reads[i];
    MlirValue old = mlirOperationGetResult(r->op, 0);
    if (r->analysed && needs_plain_result(s, old) && r->start == 0 &&
        mlirTypeEqual(mlirValueGetType(old), mlirValueGetType(r->vec)))
      mlirValueReplaceAllUsesOfWith(old, r->vec);
  }
  erase_replaced(s);
  return true;
}

/* ---- Operands --------------------------------------------------------- */

aie_operand aie_plain_operand(aie_state *s, MlirValue orig) {
  size_t r = aie_read_of_value(s, orig);
  if (r != SIZE_MAX && s->reads[r].analysed)
    return (aie_operand){s->reads[r].vec, s->reads[r].start, s->reads[r].splat};
  size_t n = aie_live_node_of_value(s, orig);
  if (n != SIZE_MAX && !s->nodes[n].dead && s->nodes[n].new_op.ptr)
    return (aie_operand){plain_value(s, &s->nodes[n]), 0, false};
  return (aie_operand){orig, 0, false};
}

MlirType aie_acc_type(aie_state *s, const aie_node *n) {
  MlirType elem = mlirShapedTypeGetElementType(
      mlirValueGetType(mlirOperationGetResult(n->op, 0)));
  if (s->aieml)
    elem = mlirIntegerTypeGet(s->ctx, aie_ml_acc_bits(n));
  else if (!n->is_float)
    elem = mlirIntegerTypeGet(s->ctx, n->elem_bits == 32 ? 80 : 48);
  int64_t lanes = n->lanes;
  return mlirVectorTypeGet(1, &lanes, elem);
}

/* The accumulator of an fma: the result of an AIE multiply as it is, or
 * any other vector moved up into an accumulator (ups; floats need none).
 * A null value for any other node. */
MlirValue aie_acc_operand(aie_state *s, aie_node *n, npuc_builder *b) {
  if (n->kind != AIE_FMA)
    return (MlirValue){NULL};
  size_t d = aie_live_node_of_value(s, n->acc);
  if (d != SIZE_MAX && !s->nodes[d].dead && s->nodes[d].new_op.ptr &&
      (s->nodes[d].kind == AIE_MUL || s->nodes[d].kind == AIE_FMA))
    return s->nodes[d].acc_value;
  aie_operand p = aie_plain_operand(s, n->acc);
  if (n->is_float)
    return p.v;
  MlirType type = aie_acc_type(s, n);
  MlirNamedAttribute shift =
      aie_named(s->ctx, "shift",
                mlirIntegerAttrGet(mlirIntegerTypeGet(s->ctx, 8), s->shift));
  return mlirOperationGetResult(
      npuc_build_op(b, "aievec.ups", 1, &p.v, 1, &type, 1, &shift), 0);
}

/* The result as a plain vector: srs from the accumulator, made once,
 * right after the op. */
static MlirValue plain_value(aie_state *s, aie_node *n) {
  if (n->srs_value.ptr)
    return n->srs_value;
  if (n->is_float || n->kind == AIE_ADD || n->kind == AIE_SUB) {
    n->srs_value = n->acc_value;
    return n->srs_value;
  }
  if (s->aieml)
    return aie_plain_value_ml(
        s, n, mlirValueGetType(mlirOperationGetResult(n->op, 0)));
  if (n->elem_bits == 8)
    return plain_value_8(s, n);
  npuc_builder b = npuc_builder_before(n->op);
  MlirValue shift =
      npuc_build_int_constant(&b, mlirIntegerTypeGet(s->ctx, 32), s->shift);
  MlirValue operands[2] = {n->acc_value, shift};
  MlirType type = mlirValueGetType(mlirOperationGetResult(n->op, 0));
  n->srs_value = mlirOperationGetResult(
      npuc_build_op(&b, "aievec.srs", 2, operands, 1, &type, 0, NULL), 0);
  return n->srs_value;
}

MlirValue aie_concat_self(aie_state *s, npuc_builder *b, MlirValue v) {
  MlirType t = mlirValueGetType(v);
  int64_t lanes = 2 * mlirShapedTypeGetDimSize(t, 0);
  MlirType wide = mlirVectorTypeGet(1, &lanes, mlirShapedTypeGetElementType(t));
  MlirValue operands[2] = {v, v};
  (void)s;
  return mlirOperationGetResult(
      npuc_build_op(b, "aievec.concat", 2, operands, 1, &wide, 0, NULL), 0);
}

int64_t aie_lanes_of(MlirValue v) {
  return mlirShapedTypeGetDimSize(mlirValueGetType(v), 0);
}

/* ---- Attributes ------------------------------------------------------- */

typedef struct {
  MlirNamedAttribute list[16];
  intptr_t count;
} attr_list;

static void add_str(aie_state *s, attr_list *a, const char *name,
                    const char *value) {
  a->list[a->count++] = aie_named(s->ctx, name, aie_str_attr(s->ctx, value));
}

static void add_int(aie_state *s, attr_list *a, const char *name,
                    int64_t value) {
  char buf[24];
  snprintf(buf, sizeof buf, "%lld", (long long)value);
  add_str(s, a, name, buf);
}

/* Offsets of a 32-bit operand: lane i reads element start + i*accIncr. */
static void offsets_32(char *buf, size_t cap, int64_t lanes, bool splat) {
  size_t at = (size_t)snprintf(buf, cap, "0x");
  for (int64_t i = (lanes < 8 ? lanes : 8) - 1; i >= 0 && at < cap; i--)
    at += (size_t)snprintf(buf + at, cap - at, "%x", splat ? 0 : (int)i);
}

static void scheme_32(aie_state *s, attr_list *a, char which, aie_operand o,
                      int64_t lanes) {
  char name[16], offs[24];
  offsets_32(offs, sizeof offs, lanes, o.splat);
  snprintf(name, sizeof name, "%coffsets", which);
  add_str(s, a, name, offs);
  snprintf(name, sizeof name, "%cstart", which);
  add_int(s, a, name, o.start);
}

/* The 16-bit X operand: xstart even (an odd start shifts the square),
 * pair p of lanes at 32-bit word p*accIncr, and a 2x2 square whose
 * columns are `col` elements apart. */
static void scheme_16_x(aie_state *s, attr_list *a, aie_operand o,
                        int64_t col) {
  int64_t incr = o.splat ? 0 : 1, m = o.start & 1;
  int64_t o_step = col > incr ? col : incr;
  unsigned odd = o_step <= 1 ? 0 : (unsigned)(o_step - 2) / 2;
  uint32_t lo = 0, hi = 0;
  for (unsigned p = 0; p < 8; p++) {
    uint32_t pair = ((uint32_t)(p * incr) & 0xf) | (odd & 0xf) << 4;
    if (p < 4)
      lo |= pair << (8 * p);
    else
      hi |= pair << (8 * (p - 4));
  }
  int64_t astep = incr < 2 ? incr : 2, cstep = col < 2 ? col : 2;
  unsigned square = (unsigned)((astep + cstep + m) << 12 | (astep + m) << 8 |
                               (cstep + m) << 4 | m);
  char buf[24];
  snprintf(buf, sizeof buf, "0x%08x", lo);
  add_str(s, a, "xoffsets", buf);
  snprintf(buf, sizeof buf, "0x%08x", hi);
  add_str(s, a, "xoffsets_hi", buf);
  snprintf(buf, sizeof buf, "0x%04x", square);
  add_str(s, a, "xsquare", buf);
  add_int(s, a, "xstart", o.start - m);
}

/* The 16-bit Z operand: one element per lane (none for a splat); the
 * second column is `zstep` elements on. Unfused, it hits a zero of the
 * filter, the next position of zero-offset (AieVectorizeOddTap.c decides
 * when that zero is proven). */
static void scheme_16_z(aie_state *s, attr_list *a, aie_operand o,
                        const aie_node *n) {
  add_str(s, a, "zoffsets", o.splat ? "0" : "0x76543210");
  add_str(s, a, "zoffsets_hi", o.splat ? "0" : "0xfedcba98");
  add_int(s, a, "zstart", o.start);
  add_int(s, a, "zstep", n->fused ? n->col_offset_z : aie_i16_zstep(s, o));
}

/* The 16-bit add/sub (RA_16, aie1-lane-semantics.md 5.2): output quad q
 * takes elements start + 2*ne .. +1 and start + 2*(ne + no + 1) .. +1,
 * where ne / no are the offset nibbles 2q / 2q+1 (in 32-bit words). Lane
 * s = 4q+k reads element s when ne = 2q and no = 0: 0x06040200 and
 * 0x0e0c0a08 with square 0x3210. mlir-aie emits 0x03020100 / 0x07060504
 * (ne = q), which makes lane 4q+k read element 2q+k: only lanes 0..3 are
 * right (its test_add_i16). A splat reads element start everywhere. */
static void scheme_16_add(aie_state *s, attr_list *a, char which,
                          aie_operand o) {
  char name[16];
  snprintf(name, sizeof name, "%coffsets", which);
  add_str(s, a, name, o.splat ? "0" : "0x06040200");
  snprintf(name, sizeof name, "%coffsets_hi", which);
  add_str(s, a, name, o.splat ? "0" : "0x0e0c0a08");
  snprintf(name, sizeof name, "%csquare", which);
  add_str(s, a, name, o.splat ? "0" : "0x3210");
  snprintf(name, sizeof name, "%cstart", which);
  add_int(s, a, name, o.start);
}

/* ---- mul / fma -------------------------------------------------------- */

static void generate_mul_like(aie_state *s, aie_node *n) {
  npuc_builder b = npuc_builder_before(n->op);
  MlirValue acc = aie_acc_operand(s, n, &b);
  aie_operand x = aie_plain_operand(s, n->x);
  aie_operand z = aie_plain_operand(s, n->z);
  attr_list a = {.count = 0};
  if (n->fmsub)
    a.list[a.count++] = aie_named(s->ctx, "fmsub", mlirBoolAttrGet(s->ctx, 1));
  bool simple = aie_simple_candidate(s, n) && x.start == 0 && z.start == 0 &&
                aie_lanes_of(x.v) == n->lanes && aie_lanes_of(z.v) == n->lanes;
  if (!simple && n->elem_bits == 16 && !n->fused &&
      !aie_i16_pairs_with_zero(s, n, z)) {
    /* No proven zero for a second column: one column, lane-wise. */
    x.v = aie_i16_lanes_from(s, &b, x, n->lanes);
    z.v = aie_i16_lanes_from(s, &b, z, n->lanes);
    simple = true;
  }
  if (!simple) {
    /* The advanced schemes read X of twice Z's lanes. */
    if (aie_lanes_of(x.v) < 2 * n->lanes)
      x.v = aie_concat_self(s, &b, x.v);
    if (n->elem_bits == 16) {
      scheme_16_x(s, &a, x, n->fused ? n->col_offset_x : 1);
      scheme_16_z(s, &a, z, n);
    } else {
      scheme_32(s, &a, 'x', x, n->lanes);
      scheme_32(s, &a, 'z', z, n->lanes);
    }
  }
  MlirValue operands[3] = {x.v, z.v, acc};
  MlirType type = aie_acc_type(s, n);
  n->new_op = npuc_build_op(
      &b, n->kind == AIE_FMA ? "aievec_aie1.mac" : "aievec_aie1.mul",
      n->kind == AIE_FMA ? 3 : 2, operands, 1, &type, a.count, a.list);
  n->acc_value = mlirOperationGetResult(n->new_op, 0);
}

/* ---- 8-bit mul / fma --------------------------------------------------- */

/* X = the filter, duplicated dup-factor times (each 16-bit half holds one
 * value twice): words 4 bytes apart per column pair, square 0x1010.
 * Z = the image: pair p of lanes at p, p + (distance+1)/2 (16-bit words),
 * square 0x2110, two bytes per column pair. */
static void scheme_8(aie_state *s, attr_list *a, aie_operand x, aie_operand z,
                     const aie_node *n, int64_t zstart) {
  int64_t xcol = n->fused ? n->col_offset_z : s->dup_factor;
  int64_t zcol = n->fused ? n->col_offset_x : 1;
  int64_t xstep = 2 * xcol, rem = x.start % 4, r = 1;
  int64_t incr = z.splat ? 0 : 1;
  uint32_t xoffs = 0, zoffs = 0;
  for (unsigned p = 0; p < 4; p++) {
    uint32_t odd = (uint32_t)(xstep / 4 - 1) & 0xf;
    xoffs |= odd << (8 * p + 4);
    zoffs |= ((uint32_t)(p * incr) & 0xf) << (8 * p);
    zoffs |= ((uint32_t)(p * incr + (zcol + 1) / 2) & 0xf) << (8 * p + 4);
  }
  unsigned xsq = (unsigned)((r + rem) << 12 | rem << 8 | (r + rem) << 4 | rem);
  unsigned zsq = (unsigned)((incr + r) << 12 | incr << 8 | r << 4);
  char buf[24];
  snprintf(buf, sizeof buf, "0x%08x", xoffs);
  add_str(s, a, "xoffsets", buf);
  snprintf(buf, sizeof buf, "0x%04x", xsq);
  add_str(s, a, "xsquare", buf);
  add_int(s, a, "xstart", x.start - rem);
  add_int(s, a, "xstep", xstep);
  snprintf(buf, sizeof buf, "0x%08x", zoffs);
  add_str(s, a, "zoffsets", buf);
  snprintf(buf, sizeof buf, "0x%04x", zsq);
  add_str(s, a, "zsquare", buf);
  add_int(s, a, "zstart", zstart);
  add_int(s, a, "zstep", 2 * (zcol < 0 ? -zcol : zcol));
}

/* Each op yields 8 useful lanes (lane 4p+h holds pixel 2p+h, copied into
 * lane 4p+2+h), so a node is a pair of ops: pixels 0..7 and 8..15.
 * An initial value that is not such a pair cannot enter the accumulators:
 * ups(C) would give lane L the value C[L], not C of lane L's pixel
 * (aie1-lane-semantics.md 7.3). So the chain starts with mul and the
 * value is added after the post-processing, in pixel order (init8; a
 * subtracting first op is refused in aie_check_supported). */
static void generate_mul_8(aie_state *s, aie_node *n) {
  npuc_builder b = npuc_builder_before(n->op);
  MlirValue acc[2] = {{NULL}, {NULL}};
  bool mac = false;
  if (n->kind == AIE_FMA) {
    size_t d = aie_live_node_of_value(s, n->acc);
    aie_node *def = d != SIZE_MAX ? &s->nodes[d] : NULL;
    if (def && !def->dead && def->new_op2.ptr) {
      acc[0] = def->acc_value;
      acc[1] = def->acc_value2;
      n->init8 = def->init8;
      mac = true;
    } else {
      n->init8 = aie_plain_operand(s, n->acc).v;
    }
  }
  aie_operand x = aie_plain_operand(s, n->z), z = aie_plain_operand(s, n->x);
  if (aie_lanes_of(z.v) < 2 * n->lanes)
    z.v = aie_concat_self(s, &b, z.v);
  if (aie_lanes_of(x.v) < 2 * aie_lanes_of(z.v))
    x.v = aie_concat_self(s, &b, x.v);
  MlirType type = aie_acc_type(s, n);
  for (int half = 0; half < 2; half++) {
    attr_list a = {.count = 0};
    if (n->fmsub)
      a.list[a.count++] =
          aie_named(s->ctx, "fmsub", mlirBoolAttrGet(s->ctx, 1));
    scheme_8(s, &a, x, z, n, z.start + 8 * half);
    MlirValue operands[3] = {x.v, z.v, acc[half]};
    MlirOperation op =
        npuc_build_op(&b, mac ? "aievec_aie1.mac" : "aievec_aie1.mul",
                      mac ? 3 : 2, operands, 1, &type, a.count, a.list);
    if (half == 0) {
      n->new_op = op;
      n->acc_value = mlirOperationGetResult(op, 0);
    } else {
      n->new_op2 = op;
      n->acc_value2 = mlirOperationGetResult(op, 0);
    }
  }
}

/* The pair back to 16 bytes: srs both to i16, concat, select lanes
 * {0,1,4,5,...} of each, keep the low half, pack to i8. */
static MlirValue plain_value_8(aie_state *s, aie_node *n) {
  npuc_builder b = npuc_builder_before(n->op);
  MlirValue shift =
      npuc_build_int_constant(&b, mlirIntegerTypeGet(s->ctx, 32), s->shift);
  int64_t lanes = n->lanes, wide = 2 * n->lanes;
  MlirType i16 = mlirIntegerTypeGet(s->ctx, 16);
  MlirType v16 = mlirVectorTypeGet(1, &lanes, i16);
  MlirType v32 = mlirVectorTypeGet(1, &wide, i16);
  MlirValue halves[2];
  for (int h = 0; h < 2; h++) {
    MlirValue ops[2] = {h ? n->acc_value2 : n->acc_value, shift};
    halves[h] = mlirOperationGetResult(
        npuc_build_op(&b, "aievec.srs", 2, ops, 1, &v16, 0, NULL), 0);
  }
  MlirValue cat = mlirOperationGetResult(
      npuc_build_op(&b, "aievec.concat", 2, halves, 1, &v32, 0, NULL), 0);
  attr_list a = {.count = 0};
  add_str(s, &a, "select", "0xcccccccc");
  add_str(s, &a, "xoffsets", "0x0c080400");
  add_str(s, &a, "xoffsets_hi", "0x0");
  add_str(s, &a, "xsquare", "0x1010");
  add_str(s, &a, "xstart", "0");
  add_str(s, &a, "yoffsets", "0x0c080400");
  add_str(s, &a, "yoffsets_hi", "0x0");
  add_str(s, &a, "ysquare", "0x1010");
  add_str(s, &a, "ystart", "4");
  MlirValue sel =
      mlirOperationGetResult(npuc_build_op(&b, "aievec_aie1.select", 1, &cat, 1,
                                           &v32, a.count, a.list),
                             0);
  MlirNamedAttribute index = aie_named(
      s->ctx, "index", mlirIntegerAttrGet(mlirIntegerTypeGet(s->ctx, 8), 0));
  MlirValue low = mlirOperationGetResult(
      npuc_build_op(&b, "aievec_aie1.ext", 1, &sel, 1, &v16, 1, &index), 0);
  if (n->init8.ptr)
    low = add_initial_value_8(s, &b, n, low);
  MlirType out = mlirValueGetType(mlirOperationGetResult(n->op, 0));
  n->srs_value = mlirOperationGetResult(
      npuc_build_op(&b, "aievec.pack", 1, &low, 1, &out, 0, NULL), 0);
  return n->srs_value;
}

/* low + the initial value widened to i16 (srs(ups(C, 0), 0): sign
 * extension), lane-wise. Under floor rounding and no saturation
 * srs(ups(C, s) + S, s) = C + srs(S, s) (mod 2^16, and mod 2^8 after the
 * pack), so this equals accumulating from ups(C) in the right lanes. */
static MlirValue add_initial_value_8(aie_state *s, npuc_builder *b, aie_node *n,
                                     MlirValue low) {
  MlirType type = aie_acc_type(s, n);
  MlirNamedAttribute no_shift = aie_named(
      s->ctx, "shift", mlirIntegerAttrGet(mlirIntegerTypeGet(s->ctx, 8), 0));
  MlirValue up = mlirOperationGetResult(
      npuc_build_op(b, "aievec.ups", 1, &n->init8, 1, &type, 1, &no_shift), 0);
  MlirValue zero =
      npuc_build_int_constant(b, mlirIntegerTypeGet(s->ctx, 32), 0);
  MlirValue srs_ops[2] = {up, zero};
  MlirType v16 = mlirValueGetType(low);
  MlirValue wide = mlirOperationGetResult(
      npuc_build_op(b, "aievec.srs", 2, srs_ops, 1, &v16, 0, NULL), 0);
  MlirValue add_ops[2] = {low, wide};
  return mlirOperationGetResult(
      npuc_build_op(b, "aievec_aie1.add", 2, add_ops, 1, &v16, 0, NULL), 0);
}

/* ---- add / sub -------------------------------------------------------- */

static void generate_add_sub(aie_state *s, aie_node *n) {
  npuc_builder b = npuc_builder_before(n->op);
  aie_operand x = aie_plain_operand(s, n->x);
  aie_operand z = aie_plain_operand(s, n->z);
  attr_list a = {.count = 0};
  bool simple = !x.splat && !z.splat && x.start == 0 && z.start == 0;
  if (!simple && n->elem_bits == 16) {
    scheme_16_add(s, &a, 'x', x);
    scheme_16_add(s, &a, 'z', z);
  } else if (!simple) {
    scheme_32(s, &a, 'x', x, n->lanes);
    scheme_32(s, &a, 'z', z, n->lanes);
  }
  MlirValue operands[2] = {x.v, z.v};
  MlirType type = mlirValueGetType(mlirOperationGetResult(n->op, 0));
  n->new_op = npuc_build_op(
      &b, n->kind == AIE_ADD ? "aievec_aie1.add" : "aievec_aie1.sub", 2,
      operands, 1, &type, a.count, a.list);
  n->acc_value = n->srs_value = mlirOperationGetResult(n->new_op, 0);
}

/* ---- Checks before rewriting ------------------------------------------ */

static int64_t interval_bits(const aie_state *s, MlirValue v, bool *is_read) {
  size_t r = aie_read_of_value(s, v);
  *is_read = r != SIZE_MAX && s->reads[r].analysed;
  if (!*is_read)
    return 0;
  int64_t lo, hi;
  npuc_reuse_interval(s->reuse, r, &lo, &hi);
  return hi - lo;
}

static bool operand_fits(aie_state *s, aie_node *n, MlirValue v,
                         int64_t min_bits, int64_t max_bits, const char *role) {
  bool is_read;
  int64_t bits = interval_bits(s, v, &is_read);
  if (!is_read || (bits >= min_bits && bits <= max_bits))
    return true;
  char why[160];
  snprintf(why, sizeof why,
           "the %s operand would need a %lld-bit AIE vector, the scheme "
           "takes %lld..%lld bits",
           role, (long long)bits, (long long)min_bits, (long long)max_bits);
  npuc_pass_remark(n->op,
                   "%s; the function is left as the "
                   "super-vectorizer produced it",
                   why);
  return false;
}

bool aie_check_operands(aie_state *s) {
  for (size_t i = 0; i < s->num_nodes; i++) {
    aie_node *n = &s->nodes[i];
    if (n->dead)
      continue;
    int64_t vec = n->lanes * n->elem_bits;
    bool ok;
    if (s->aieml && aie_ml_elementwise(n))
      ok = aie_check_operands_elem(s, n);
    else if (s->aieml)
      ok = operand_fits(s, n, n->x, 256, 512, "image") &&
           operand_fits(s, n, n->z, 128, 512, "filter") &&
           (n->kind != AIE_FMA ||
            operand_fits(s, n, n->acc, vec, vec, "accumulator"));
    else if ((n->kind == AIE_MUL || n->kind == AIE_FMA) && n->elem_bits == 8)
      ok = operand_fits(s, n, n->z, 256, 512, "X (filter)") &&
           operand_fits(s, n, n->x, 128, 256, "Z (image)") &&
           (n->kind != AIE_FMA ||
            operand_fits(s, n, n->acc, vec, vec, "accumulator"));
    else if (n->kind == AIE_MUL || n->kind == AIE_FMA)
      ok = operand_fits(s, n, n->x, vec, 2 * vec, "X") &&
           operand_fits(s, n, n->z, vec, vec, "Z") &&
           (n->kind != AIE_FMA ||
            operand_fits(s, n, n->acc, vec, vec, "accumulator"));
    else
      ok = operand_fits(s, n, n->x, vec, vec, "first") &&
           operand_fits(s, n, n->z, vec, vec, "second");
    if (!ok)
      return false;
  }
  return true;
}

/* ---- Clean-up --------------------------------------------------------- */

/* Users that are themselves replaced (node ops, fused muls) do not need
 * the old value converted. */
static bool needs_plain_result(const aie_state *s, MlirValue v) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (!is_replaced_op(s, user))
      return true;
  }
  return false;
}

static bool is_replaced_op(const aie_state *s, MlirOperation op) {
  size_t n = aie_index_of(&s->node_of, op.ptr);
  if (n != SIZE_MAX)
    return true;
  /* A cast feeding a node is replaced with it. */
  if ((npuc_op_is(op, "arith.extsi") || npuc_op_is(op, "arith.trunci")) &&
      mlirOperationGetNumResults(op) == 1) {
    MlirValue r = mlirOperationGetResult(op, 0);
    for (MlirOpOperand u = mlirValueGetFirstUse(r); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u))
      if (!is_replaced_op(s, mlirOpOperandGetOwner(u)))
        return false;
    return true;
  }
  return false;
}

/* Old ops go last-first, so each is unused when its turn comes. Casts
 * between reads and nodes die with them. */
static void erase_replaced(aie_state *s) {
  for (size_t i = s->num_nodes; i-- > 0;) {
    MlirOperation op = s->nodes[i].op;
    if (npuc_op_results_unused(op)) {
      MlirValue ins[2] = {mlirOperationGetOperand(op, 0),
                          mlirOperationGetOperand(op, 1)};
      mlirOperationDestroy(op);
      for (int k = 0; k < 2; k++)
        if (mlirValueIsAOpResult(ins[k])) {
          MlirOperation def = mlirOpResultGetOwner(ins[k]);
          if ((npuc_op_is(def, "arith.extsi") ||
               npuc_op_is(def, "arith.trunci")) &&
              npuc_op_results_unused(def))
            mlirOperationDestroy(def);
        }
    }
  }
  for (size_t i = s->num_reads; i-- > 0;)
    if (s->reads[i].analysed && npuc_op_results_unused(s->reads[i].op))
      mlirOperationDestroy(s->reads[i].op);
}
