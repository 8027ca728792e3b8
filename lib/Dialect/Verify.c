/* Verifies table-described ops against their table entry: operand groups,
 * kinds, attributes, regions, then the entry's `verify:` rules; and every
 * attribute of our dialects (on any op, and as a memref memory space)
 * against its dialect's `attrdefs:`. */
#include "npuc/Verify.h"
#include "npuc/MlirSupport.h"
#include "npuc/PtrSet.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  npuc_op_def_cache names;
  npuc_group_sizes_cache groups;
  npuc_rule_names_cache rule_names;
  npuc_ptr_set good_attrs; /* attributes of ours already found valid */
  bool any_attr_specs;     /* some dialect declares attrdefs */
  bool ok;
} verify_state;

static MlirWalkResult verify_one(MlirOperation op, void *user);
static bool verify_op(verify_state *st, const npuc_op_def *def,
                      MlirOperation op);
static void report_unknown(const npuc_op_registry *reg, MlirOperation op,
                           MlirStringRef name);
static bool verify_dialect_attrs(verify_state *st, MlirOperation op);

bool npuc_verify_table_ops(const npuc_op_registry *reg, MlirOperation root) {
  verify_state st;
  npuc_op_def_cache_init(&st.names, reg);
  memset(&st.groups, 0, sizeof st.groups);
  memset(&st.rule_names, 0, sizeof st.rule_names);
  memset(&st.good_attrs, 0, sizeof st.good_attrs);
  st.any_attr_specs = false;
  for (size_t i = 0; i < npuc_op_registry_num_dialects(reg); ++i)
    st.any_attr_specs |= npuc_op_registry_dialect(reg, i)->num_attr_specs > 0;
  st.ok = true;
  mlirOperationWalk(root, verify_one, &st, MlirWalkPreOrder);
  npuc_ptr_set_free(&st.good_attrs);
  return st.ok;
}

static MlirWalkResult verify_one(MlirOperation op, void *user) {
  verify_state *st = user;
  const npuc_op_def_slot *e = npuc_op_def_slot_of(&st->names, op);
  if (e->def && !verify_op(st, e->def, op))
    st->ok = false;
  if (e->owned) {
    report_unknown(st->names.reg, op,
                   mlirIdentifierStr(mlirOperationGetName(op)));
    st->ok = false;
  }
  if (st->any_attr_specs && !verify_dialect_attrs(st, op))
    st->ok = false;
  return MlirWalkResultAdvance;
}

void npuc_op_def_cache_init(npuc_op_def_cache *c, const npuc_op_registry *reg) {
  memset(c, 0, sizeof *c);
  c->reg = reg;
}

const npuc_op_def *npuc_op_def_of(npuc_op_def_cache *c, MlirOperation op) {
  return npuc_op_def_slot_of(c, op)->def;
}

const npuc_op_def_slot *npuc_op_def_slot_of(npuc_op_def_cache *c,
                                            MlirOperation op) {
  MlirIdentifier id = mlirOperationGetName(op);
  uintptr_t key = (uintptr_t)id.ptr;
  npuc_op_def_slot *e = &c->slots[(key ^ (key >> 7) ^ (key >> 13)) &
                                  (NPUC_OP_DEF_CACHE_SIZE - 1)];
  if (e->name != id.ptr) {
    MlirStringRef name = mlirIdentifierStr(id);
    e->name = id.ptr;
    e->def = npuc_op_lookup(c->reg, name.data, name.length);
    e->owned = !e->def && npuc_op_owner(c->reg, name.data, name.length);
  }
  return e;
}

/* Generic form bypasses the custom-syntax reader: catch unknown names of
 * our dialects here, as the reader does. */
static void report_unknown(const npuc_op_registry *reg, MlirOperation op,
                           MlirStringRef name) {
  const npuc_dialect_def *d = npuc_op_owner(reg, name.data, name.length);
  char hint[256];
  npuc_op_suggest_hint(reg, name.data, name.length, hint, sizeof hint);
  npuc_op_error(op, "unknown op '%.*s' in dialect '%s'%s", (int)name.length,
                name.data, d->name, hint);
}

MlirAttribute npuc_table_op_attr(MlirOperation op, const char *name,
                                 size_t len) {
  return mlirOperationGetDiscardableAttributeByName(
      op, mlirStringRefCreate(name, len));
}

bool npuc_table_op_bare(const npuc_op_def *def, MlirOperation op) {
  return mlirOperationGetNumDiscardableAttributes(op) ==
         (def->uses_segments ? 1 : 0);
}

/* ---- operand groups ------------------------------------------------------ */

static bool decode_segments(const npuc_op_def *def, MlirAttribute seg,
                            intptr_t nops, int32_t *sizes);

static bool segment_sizes(const npuc_op_def *def, MlirOperation op,
                          int32_t *sizes) {
  return decode_segments(def, npuc_table_op_attr_lit(op, "operandSegmentSizes"),
                         mlirOperationGetNumOperands(op), sizes);
}

/* The group sizes from operandSegmentSizes `seg` (null: from the operand
 * count `nops`, when at most one group is variadic or optional). */
static bool decode_segments(const npuc_op_def *def, MlirAttribute seg,
                            intptr_t nops, int32_t *sizes) {
  if (!mlirAttributeIsNull(seg)) {
    if (!mlirAttributeIsADenseI32Array(seg) ||
        (size_t)mlirDenseArrayGetNumElements(seg) != def->num_operands)
      return false;
    intptr_t total = 0;
    for (size_t i = 0; i < def->num_operands; ++i) {
      sizes[i] = mlirDenseI32ArrayGetElement(seg, (intptr_t)i);
      if (sizes[i] < 0)
        return false;
      total += sizes[i];
    }
    return total == nops;
  }
  if (def->uses_segments)
    return false;
  intptr_t total = nops, fixed = 0;
  int flexible = -1;
  for (size_t i = 0; i < def->num_operands; ++i) {
    if (def->operands[i].variadic || def->operands[i].optional)
      flexible = (int)i;
    else
      ++fixed;
  }
  if (total < fixed || (flexible < 0 && total != fixed))
    return false;
  for (size_t i = 0; i < def->num_operands; ++i)
    sizes[i] = (int)i == flexible ? (int32_t)(total - fixed) : 1;
  return true;
}

bool npuc_operand_group(const npuc_op_def *def, MlirOperation op, int group,
                        intptr_t *first, intptr_t *count) {
  int32_t sizes[64];
  if (group < 0 || (size_t)group >= def->num_operands ||
      def->num_operands > 64 || !segment_sizes(def, op, sizes))
    return false;
  intptr_t at = 0;
  for (int i = 0; i < group; ++i)
    at += sizes[i];
  *first = at;
  *count = sizes[group];
  return true;
}

bool npuc_operand_group_sizes_cached(npuc_group_sizes_cache *c,
                                     const npuc_op_def *def, MlirOperation op,
                                     int32_t *sizes) {
  if (def->num_operands > 64)
    return false;
  MlirAttribute seg = npuc_table_op_attr_lit(op, "operandSegmentSizes");
  intptr_t nops = mlirOperationGetNumOperands(op);
  size_t cap = sizeof c->slots[0].sizes / sizeof c->slots[0].sizes[0];
  size_t at =
      (((uintptr_t)def >> 4) + ((uintptr_t)seg.ptr >> 4) + (size_t)nops) %
      NPUC_GROUP_SIZES_CACHE_SIZE;
  if (c->slots[at].def == def && c->slots[at].segments == seg.ptr &&
      c->slots[at].nops == nops) {
    memcpy(sizes, c->slots[at].sizes, sizeof(int32_t) * def->num_operands);
    return true;
  }
  if (!decode_segments(def, seg, nops, sizes))
    return false;
  if (def->num_operands <= cap) {
    c->slots[at].def = def;
    c->slots[at].segments = seg.ptr;
    c->slots[at].nops = nops;
    memcpy(c->slots[at].sizes, sizes, sizeof(int32_t) * def->num_operands);
  }
  return true;
}

/* ---- kinds --------------------------------------------------------------- */

static bool is_scalar(MlirType t) {
  return mlirTypeIsAInteger(t) || mlirTypeIsAIndex(t) || mlirTypeIsAFloat(t);
}

static bool kind_ok(npuc_value_kind kind, MlirType t) {
  switch (kind) {
  case NPUC_VK_ANY: return true;
  case NPUC_VK_TENSOR: return mlirTypeIsATensor(t);
  case NPUC_VK_MEMREF:
    return mlirTypeIsAMemRef(t) || mlirTypeIsAUnrankedMemRef(t);
  case NPUC_VK_SHAPED:
    return mlirTypeIsATensor(t) || mlirTypeIsAMemRef(t) ||
           mlirTypeIsAUnrankedMemRef(t);
  case NPUC_VK_SCALAR: return is_scalar(t);
  case NPUC_VK_INTEGER: return mlirTypeIsAInteger(t) || mlirTypeIsAIndex(t);
  case NPUC_VK_SHAPED_OR_SCALAR:
    return kind_ok(NPUC_VK_SHAPED, t) || is_scalar(t);
  case NPUC_VK_TENSOR_OR_SCALAR: return mlirTypeIsATensor(t) || is_scalar(t);
  case NPUC_VK_VECTOR: return mlirTypeIsAVector(t);
  }
  return true;
}

static const char *kind_name(npuc_value_kind kind) {
  static const char *const names[] = {"any type",
                                      "a tensor",
                                      "a memref",
                                      "a tensor or memref",
                                      "an integer, index or float",
                                      "an integer or index",
                                      "a tensor, memref or scalar",
                                      "a tensor or scalar",
                                      "a vector"};
  return names[kind];
}

static bool attr_kind_ok(const npuc_attr_def *a, MlirAttribute attr) {
  switch (a->kind) {
  case NPUC_AK_ANY: return true;
  case NPUC_AK_UNIT: return mlirAttributeIsAUnit(attr);
  case NPUC_AK_BOOL: return mlirAttributeIsABool(attr);
  case NPUC_AK_INT: return mlirAttributeIsAInteger(attr);
  case NPUC_AK_I64_ARRAY: return mlirAttributeIsADenseI64Array(attr);
  case NPUC_AK_I32_ARRAY: return mlirAttributeIsADenseI32Array(attr);
  case NPUC_AK_STRING:
  case NPUC_AK_KEYWORD:
  case NPUC_AK_SYMBOL_NAME: return mlirAttributeIsAString(attr);
  case NPUC_AK_ENUM: {
    /* An opaque attribute of our dialect: #hivm.reduce_op<sum> */
    if (!mlirAttributeIsAOpaque(attr))
      return false;
    MlirStringRef ns = mlirOpaqueAttrGetDialectNamespace(attr);
    MlirStringRef data = mlirOpaqueAttrGetData(attr);
    const char *prefix = a->enum_prefix + 1; /* skip '#' */
    size_t n = strlen(prefix);
    return ns.length < n && memcmp(prefix, ns.data, ns.length) == 0 &&
           prefix[ns.length] == '.' && data.length > n - ns.length - 1 &&
           memcmp(prefix + ns.length + 1, data.data, n - ns.length - 1) == 0;
  }
  }
  return true;
}

/* ---- the checks ---------------------------------------------------------- */

static bool verify_operands(const npuc_op_def *def, MlirOperation op,
                            const int32_t *sizes) {
  intptr_t at = 0;
  for (size_t g = 0; g < def->num_operands; ++g) {
    const npuc_value_def *v = &def->operands[g];
    if (!v->variadic && sizes[g] > 1) {
      npuc_op_error(op, "'%s' takes at most one '%s' operand, got %d",
                    def->name, v->name, sizes[g]);
      return false;
    }
    if (!v->variadic && !v->optional && sizes[g] != 1) {
      npuc_op_error(op, "'%s' needs operand '%s'", def->name, v->name);
      return false;
    }
    for (int32_t i = 0; i < sizes[g]; ++i, ++at) {
      MlirType t = mlirValueGetType(mlirOperationGetOperand(op, at));
      if (!kind_ok(v->kind, t)) {
        npuc_op_error(op, "operand '%s' of '%s' must be %s", v->name, def->name,
                      kind_name(v->kind));
        return false;
      }
      if (v->same_type && i > 0 &&
          !mlirTypeEqual(
              t, mlirValueGetType(mlirOperationGetOperand(op, at - 1)))) {
        npuc_op_error(op, "operands '%s' of '%s' must all have one type",
                      v->name, def->name);
        return false;
      }
    }
  }
  return true;
}

/* Destination style: one result per tensor init, of the init's type. */
static bool verify_dps_results(const npuc_op_def *def, MlirOperation op,
                               const int32_t *sizes) {
  intptr_t first = 0;
  for (int i = 0; i < def->dps_inits; ++i)
    first += sizes[i];
  intptr_t nres = mlirOperationGetNumResults(op), r = 0;
  for (int32_t i = 0; i < sizes[def->dps_inits]; ++i) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, first + i));
    if (!mlirTypeIsATensor(t))
      continue;
    if (r >= nres) {
      npuc_op_error(op,
                    "'%s' needs a result for each tensor in outs: %zd results "
                    "for more tensor outs",
                    def->name, (ssize_t)nres);
      return false;
    }
    MlirType rt = mlirValueGetType(mlirOperationGetResult(op, r));
    if (!mlirTypeEqual(t, rt)) {
      npuc_op_error(op,
                    "result #%zd of '%s' must have the type of its outs "
                    "operand",
                    (ssize_t)r, def->name);
      return false;
    }
    ++r;
  }
  if (r != nres) {
    npuc_op_error(op, "'%s' has %zd results but %zd tensor outs", def->name,
                  (ssize_t)nres, (ssize_t)r);
    return false;
  }
  return true;
}

static bool verify_results(const npuc_op_def *def, MlirOperation op) {
  intptr_t nres = mlirOperationGetNumResults(op), fixed = 0;
  bool flexible = false;
  for (size_t i = 0; i < def->num_results; ++i) {
    if (def->results[i].variadic || def->results[i].optional)
      flexible = true;
    else
      ++fixed;
  }
  if (nres < fixed || (!flexible && nres != fixed)) {
    npuc_op_error(op, "'%s' expects %s%zd result%s, got %zd", def->name,
                  flexible ? "at least " : "", (ssize_t)fixed,
                  fixed == 1 ? "" : "s", (ssize_t)nres);
    return false;
  }
  if (def->num_results == 1)
    for (intptr_t i = 0; i < nres; ++i)
      if (!kind_ok(def->results[0].kind,
                   mlirValueGetType(mlirOperationGetResult(op, i)))) {
        npuc_op_error(op, "result of '%s' must be %s", def->name,
                      kind_name(def->results[0].kind));
        return false;
      }
  return true;
}

static bool verify_attrs(const npuc_op_def *def, MlirOperation op) {
  for (size_t i = 0; i < def->num_attrs; ++i) {
    const npuc_attr_def *a = &def->attrs[i];
    MlirAttribute attr = npuc_table_op_attr(op, a->name, strlen(a->name));
    if (mlirAttributeIsNull(attr)) {
      if (a->optional)
        continue;
      npuc_op_error(op, "'%s' needs attribute '%s'", def->name, a->name);
      return false;
    }
    if (!attr_kind_ok(a, attr)) {
      npuc_op_error(op, "attribute '%s' of '%s' has the wrong kind", a->name,
                    def->name);
      return false;
    }
  }
  return true;
}

static bool verify_type_of(const npuc_op_def *def, MlirOperation op,
                           const int32_t *sizes);
static bool verify_signatures(const npuc_op_def *def, MlirOperation op,
                              const int32_t *sizes);

static bool verify_op(verify_state *st, const npuc_op_def *def,
                      MlirOperation op) {
  int32_t sizes[64];
  if (!npuc_operand_group_sizes_cached(&st->groups, def, op, sizes)) {
    npuc_op_error(op,
                  "'%s' has %zd operands, which do not fit its operand "
                  "groups%s",
                  def->name, (ssize_t)mlirOperationGetNumOperands(op),
                  def->uses_segments ? " (operandSegmentSizes missing or wrong)"
                                     : "");
    return false;
  }
  if (!verify_operands(def, op, sizes) || !verify_attrs(def, op))
    return false;
  if (!verify_type_of(def, op, sizes) || !verify_signatures(def, op, sizes))
    return false;
  if ((size_t)mlirOperationGetNumRegions(op) != def->num_regions) {
    npuc_op_error(op, "'%s' expects %zu region%s", def->name, def->num_regions,
                  def->num_regions == 1 ? "" : "s");
    return false;
  }
  bool results_ok = (def->traits & NPUC_TRAIT_DPS) && def->dps_inits >= 0
                        ? verify_dps_results(def, op, sizes)
                        : verify_results(def, op);
  return results_ok && npuc_verify_rules_run(&st->rule_names, def, op, sizes);
}

/* ---- attributes of our dialects ------------------------------------------
 * Every attribute of every op, and every memref memory space, that names a
 * dialect with `attrdefs:` must be one of them with valid parameters.
 * Arrays and dictionaries are searched; depth is bounded. */

#define MAX_ATTR_DEPTH 32

static bool check_attr(verify_state *st, MlirOperation op, MlirAttribute a,
                       int depth);

static bool check_text(verify_state *st, MlirOperation op, MlirStringRef ns,
                       MlirStringRef data);

/* A memory space of ours is a string "#hivm.address_space<ub>" (see
 * attr_word): check the attribute it spells. */
static bool check_space(verify_state *st, MlirOperation op, MlirAttribute a) {
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
    return check_attr(st, op, a, 0);
  MlirStringRef v = mlirStringAttrGetValue(a);
  const char *dot =
      v.length > 1 && v.data[0] == '#' ? memchr(v.data, '.', v.length) : NULL;
  if (!dot || !npuc_ptr_set_insert(&st->good_attrs, a.ptr))
    return true;
  MlirStringRef ns = {v.data + 1, (size_t)(dot - v.data) - 1};
  MlirStringRef data = {dot + 1, v.length - (size_t)(dot - v.data) - 1};
  return check_text(st, op, ns, data);
}

static bool check_type_space(verify_state *st, MlirOperation op, MlirType t) {
  if (mlirTypeIsAMemRef(t))
    return check_space(st, op, mlirMemRefTypeGetMemorySpace(t));
  if (mlirTypeIsAUnrankedMemRef(t))
    return check_space(st, op, mlirUnrankedMemrefGetMemorySpace(t));
  return true;
}

static bool verify_dialect_attrs(verify_state *st, MlirOperation op) {
  bool ok = true;
  /* Counted once: for an op with properties each call builds the op's
   * whole attribute dictionary. */
  intptr_t num_attrs = mlirOperationGetNumAttributes(op);
  for (intptr_t i = 0; ok && i < num_attrs; ++i)
    ok = check_attr(st, op, mlirOperationGetAttribute(op, i).attribute, 0);
  for (intptr_t i = 0; ok && i < mlirOperationGetNumResults(op); ++i)
    ok = check_type_space(st, op,
                          mlirValueGetType(mlirOperationGetResult(op, i)));
  for (intptr_t r = 0; ok && r < mlirOperationGetNumRegions(op); ++r)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         ok && !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
      for (intptr_t i = 0; ok && i < mlirBlockGetNumArguments(b); ++i)
        ok = check_type_space(st, op,
                              mlirValueGetType(mlirBlockGetArgument(b, i)));
  return ok;
}

static bool check_opaque(verify_state *st, MlirOperation op, MlirAttribute a) {
  return check_text(st, op, mlirOpaqueAttrGetDialectNamespace(a),
                    mlirOpaqueAttrGetData(a));
}

/* `#<ns>.<data>`: data is `mnemonic` or `mnemonic<params>`. */
static bool check_text(verify_state *st, MlirOperation op, MlirStringRef ns,
                       MlirStringRef data) {
  const npuc_dialect_def *d =
      npuc_attr_dialect(st->names.reg, ns.data, ns.length);
  char msg[256];
  if (!d || npuc_attr_check_text(d, data.data, data.length, msg, sizeof msg))
    return true;
  npuc_op_error(op, "%s", msg);
  return false;
}

static bool check_attr(verify_state *st, MlirOperation op, MlirAttribute a,
                       int depth) {
  if (mlirAttributeIsNull(a) || depth > MAX_ATTR_DEPTH)
    return true;
  if (mlirAttributeIsAArray(a)) {
    for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(a); ++i)
      if (!check_attr(st, op, mlirArrayAttrGetElement(a, i), depth + 1))
        return false;
    return true;
  }
  if (mlirAttributeIsADictionary(a)) {
    for (intptr_t i = 0; i < mlirDictionaryAttrGetNumElements(a); ++i)
      if (!check_attr(st, op, mlirDictionaryAttrGetElement(a, i).attribute,
                      depth + 1))
        return false;
    return true;
  }
  if (!mlirAttributeIsAOpaque(a))
    return true;
  /* Attributes are uniqued: each distinct one is checked once. */
  if (!npuc_ptr_set_insert(&st->good_attrs, a.ptr))
    return true;
  return check_opaque(st, op, a);
}

/* ---- implied types and signatures ------------------------------------------
 * A group with `type_of:` must have the other group's type (the syntax
 * prints it once); an op with `signatures:` must fit one of them. */

/* The first value of operand (or result) group `g`, or a null value. */
static MlirValue group_value(const npuc_op_def *def, MlirOperation op,
                             const int32_t *sizes, bool result, int g) {
  if (result)
    return g < mlirOperationGetNumResults(op) ? mlirOperationGetResult(op, g)
                                              : (MlirValue){NULL};
  intptr_t at = 0;
  for (int i = 0; i < g; ++i)
    at += sizes[i];
  return sizes[g] > 0 && (size_t)g < def->num_operands
             ? mlirOperationGetOperand(op, at)
             : (MlirValue){NULL};
}

static bool verify_type_of(const npuc_op_def *def, MlirOperation op,
                           const int32_t *sizes) {
  for (size_t g = 0; g < def->num_operands + def->num_results; ++g) {
    bool res = g >= def->num_operands;
    const npuc_value_def *v =
        res ? &def->results[g - def->num_operands] : &def->operands[g];
    int of = v->type_of >= 0 ? v->type_of : v->same_as;
    bool of_result = v->type_of >= 0 ? v->type_of_result : v->same_as_result;
    if (of < 0)
      continue;
    MlirValue mine = group_value(def, op, sizes, res,
                                 (int)(res ? g - def->num_operands : g));
    MlirValue other = group_value(def, op, sizes, of_result, of);
    if (mlirValueIsNull(mine) || mlirValueIsNull(other) ||
        mlirTypeEqual(mlirValueGetType(mine), mlirValueGetType(other)))
      continue;
    const char *other_name =
        of_result ? def->results[of].name : def->operands[of].name;
    npuc_op_error(op, "'%s' of '%s' must have the type of '%s'", v->name,
                  def->name, other_name);
    return false;
  }
  return true;
}

typedef struct {
  char text[256];
  size_t len;
  bool truncated;
} text_buf;

static void append_text(MlirStringRef s, void *user) {
  text_buf *b = user;
  if (b->len + s.length >= sizeof b->text) {
    b->truncated = true;
    return;
  }
  memcpy(b->text + b->len, s.data, s.length);
  b->len += s.length;
  b->text[b->len] = '\0';
}

/* The text a signature key compares: the group's type, the attribute's
 * string value (or printed form), or "none" when absent. */
static void key_text(const npuc_op_def *def, MlirOperation op,
                     const int32_t *sizes, const npuc_sig_key *key,
                     text_buf *b) {
  memset(b, 0, sizeof *b);
  if (key->var_class == NPUC_VAR_ATTR) {
    const char *name = def->attrs[key->index].name;
    MlirAttribute a = npuc_table_op_attr(op, name, strlen(name));
    if (mlirAttributeIsNull(a))
      append_text(mlirStringRefCreateFromCString("none"), b);
    else if (mlirAttributeIsAString(a))
      append_text(mlirStringAttrGetValue(a), b);
    else
      mlirAttributePrint(a, append_text, b);
    return;
  }
  MlirValue v = group_value(def, op, sizes, key->var_class == NPUC_VAR_RESULT,
                            key->index);
  if (mlirValueIsNull(v))
    append_text(mlirStringRefCreateFromCString("none"), b);
  else
    mlirTypePrint(mlirValueGetType(v), append_text, b);
}

static bool signature_fits(const npuc_op_def *def, MlirOperation op,
                           const int32_t *sizes, const npuc_signature *s) {
  for (size_t k = 0; k < s->num_keys; ++k) {
    text_buf b;
    key_text(def, op, sizes, &s->keys[k], &b);
    bool found = false;
    for (size_t v = 0; v < s->keys[k].num_values && !found; ++v)
      found = !b.truncated && strcmp(s->keys[k].values[v], b.text) == 0;
    if (!found)
      return false;
  }
  return true;
}

static bool verify_signatures(const npuc_op_def *def, MlirOperation op,
                              const int32_t *sizes) {
  if (!def->num_signatures)
    return true;
  for (size_t i = 0; i < def->num_signatures; ++i)
    if (signature_fits(def, op, sizes, &def->signatures[i]))
      return true;
  /* Name what the op has, by the keys of the first signature. */
  char what[512] = "";
  size_t used = 0;
  const npuc_signature *s = &def->signatures[0];
  for (size_t k = 0; k < s->num_keys && used < sizeof what; ++k) {
    text_buf b;
    key_text(def, op, sizes, &s->keys[k], &b);
    int n = snprintf(what + used, sizeof what - used, "%s%s %s", k ? ", " : "",
                     s->keys[k].name, b.text);
    used += n > 0 ? (size_t)n : 0;
  }
  npuc_op_error(op, "'%s' does not support %s (see its signatures in %s)",
                def->name, what, def->table ? def->table : "its op table");
  return false;
}
