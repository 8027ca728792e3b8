/* Verification rules: relations between an op's operands, results and
 * attributes that kinds alone cannot say, written in its table entry as
 *   verify: ["same-element-count(input, output)",
 *            "divides(group, input[3], output[3])"]
 * and checked by the table verifier after the op's kinds. Each rule is
 * written once here and named by any table; docs/op-tables.md lists them.
 * An argument is an operand or result group (its first value) or an
 * attribute, by name; `name[N]` is dimension N of a shaped value. Rules
 * see only static dimensions: a dynamic one passes, as MLIR's shaped-type
 * verifiers do. The rules are compiled from the tables by
 * OpTableChecks.c. */
#include "npuc/Checked.h"
#include "npuc/MlirSupport.h"
#include "npuc/Verify.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <string.h>

/* ---- Checking an op ------------------------------------------------------ */

typedef struct {
  const npuc_op_def *def;
  MlirOperation op;
  const int32_t *sizes; /* operand group sizes */
} check_ctx;

static bool run_check(const check_ctx *c, const npuc_op_check *check);

bool npuc_checks_run(const npuc_op_def *def, MlirOperation op,
                     const int32_t *sizes) {
  check_ctx c = {def, op, sizes};
  for (size_t i = 0; i < def->num_checks; i++)
    if (!run_check(&c, &def->checks[i]))
      return false;
  return true;
}

/* The shaped type of a value argument, or a null type (absent group,
 * unranked, not shaped). */
static MlirType arg_type(const check_ctx *c, const npuc_check_arg *a) {
  MlirType none = {NULL};
  MlirValue v = {NULL};
  if (a->cls == NPUC_VAR_RESULT) {
    /* Rules name results of ops whose result groups are single values. */
    if (a->index < mlirOperationGetNumResults(c->op))
      v = mlirOperationGetResult(c->op, a->index);
  } else {
    intptr_t at = 0;
    for (int g = 0; g < a->index; g++)
      at += c->sizes[g];
    if (c->sizes[a->index] > 0)
      v = mlirOperationGetOperand(c->op, at);
  }
  if (mlirValueIsNull(v))
    return none;
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsAShaped(t) && mlirShapedTypeHasRank(t) ? t : none;
}

static MlirAttribute arg_attr(const check_ctx *c, const npuc_check_arg *a) {
  const char *name = c->def->attrs[a->index].name;
  return npuc_table_op_attr(c->op, name, strlen(name));
}

static const char *arg_name(const check_ctx *c, const npuc_check_arg *a) {
  return a->cls == NPUC_VAR_ATTR     ? c->def->attrs[a->index].name
         : a->cls == NPUC_VAR_RESULT ? c->def->results[a->index].name
                                     : c->def->operands[a->index].name;
}

/* Up to 64 integer elements of an int or integer array attribute. */
static size_t attr_ints(MlirAttribute a, int64_t *out, bool *ok) {
  *ok = true;
  if (mlirAttributeIsAInteger(a)) {
    out[0] = mlirIntegerAttrGetValueInt(a);
    return 1;
  }
  if (mlirAttributeIsADenseI64Array(a) || mlirAttributeIsADenseI32Array(a)) {
    bool i64 = mlirAttributeIsADenseI64Array(a);
    intptr_t n = mlirDenseArrayGetNumElements(a);
    *ok = n <= 64;
    for (intptr_t i = 0; *ok && i < n; i++)
      out[i] = i64 ? mlirDenseI64ArrayGetElement(a, i)
                   : mlirDenseI32ArrayGetElement(a, i);
    return *ok ? (size_t)n : 0;
  }
  *ok = false;
  return 0;
}

static bool check_element_count(const check_ctx *c, const npuc_op_check *k);
static bool check_permutation(const check_ctx *c, const npuc_op_check *k);
static bool check_divides(const check_ctx *c, const npuc_op_check *k);
static bool check_bound(const check_ctx *c, const npuc_op_check *k,
                        int64_t least);

static bool run_check(const check_ctx *c, const npuc_op_check *check) {
  if (check->args[0].cls == NPUC_VAR_ATTR &&
      mlirAttributeIsNull(arg_attr(c, &check->args[0])))
    return true; /* an absent optional attribute: its default is valid */
  switch (check->rule) {
  case NPUC_CHECK_SAME_ELEMENT_COUNT: return check_element_count(c, check);
  case NPUC_CHECK_PERMUTATION: return check_permutation(c, check);
  case NPUC_CHECK_DIVIDES: return check_divides(c, check);
  case NPUC_CHECK_POSITIVE: return check_bound(c, check, 1);
  case NPUC_CHECK_NON_NEGATIVE: return check_bound(c, check, 0);
  case NPUC_CHECK_SYMBOL:
    if (mlirAttributeIsAFlatSymbolRef(arg_attr(c, &check->args[0])))
      return true;
    npuc_op_error(c->op, "attribute '%s' of '%s' must be a symbol (@name)",
                  arg_name(c, &check->args[0]), c->def->name);
    return false;
  }
  return true;
}

/* The static element count, or -1 (dynamic, absent, or too large: then
 * the rule cannot tell and passes). */
static int64_t static_elements(MlirType t) {
  if (mlirTypeIsNull(t) || !mlirShapedTypeHasStaticShape(t))
    return -1;
  int64_t dims[64], n;
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (rank > 64)
    return -1;
  for (intptr_t i = 0; i < rank; i++)
    dims[i] = mlirShapedTypeGetDimSize(t, i);
  return npuc_checked_product(dims, (int)rank, &n) ? n : -1;
}

static bool check_element_count(const check_ctx *c, const npuc_op_check *k) {
  int64_t a = static_elements(arg_type(c, &k->args[0]));
  int64_t b = static_elements(arg_type(c, &k->args[1]));
  if (a < 0 || b < 0 || a == b)
    return true;
  npuc_op_error(c->op,
                "'%s' must keep the element count: '%s' has %lld elements, "
                "'%s' %lld",
                c->def->name, arg_name(c, &k->args[0]), (long long)a,
                arg_name(c, &k->args[1]), (long long)b);
  return false;
}

static bool check_permutation(const check_ctx *c, const npuc_op_check *k) {
  int64_t perm[64];
  bool ok;
  size_t n = attr_ints(arg_attr(c, &k->args[0]), perm, &ok);
  MlirType in = arg_type(c, &k->args[1]);
  intptr_t rank = mlirTypeIsNull(in) ? (intptr_t)n : mlirShapedTypeGetRank(in);
  bool seen[64] = {false};
  ok = ok && rank <= 64;
  for (size_t i = 0; ok && i < n; i++) {
    ok = perm[i] >= 0 && perm[i] < rank && !seen[perm[i]];
    if (ok)
      seen[perm[i]] = true;
  }
  if (!ok || (intptr_t)n != rank) {
    npuc_op_error(c->op,
                  "attribute '%s' of '%s' must be a permutation of 0..%ld "
                  "(the dimensions of '%s')",
                  arg_name(c, &k->args[0]), c->def->name, (long)rank - 1,
                  arg_name(c, &k->args[1]));
    return false;
  }
  MlirType out = k->num_args > 2 ? arg_type(c, &k->args[2]) : (MlirType){0};
  if (mlirTypeIsNull(in) || mlirTypeIsNull(out))
    return true;
  for (size_t i = 0; i < n && mlirShapedTypeGetRank(out) == rank; i++) {
    int64_t want = mlirShapedTypeGetDimSize(in, perm[i]);
    int64_t got = mlirShapedTypeGetDimSize(out, (intptr_t)i);
    if (mlirShapedTypeIsDynamicSize(want) || mlirShapedTypeIsDynamicSize(got) ||
        want == got)
      continue;
    npuc_op_error(c->op,
                  "'%s' dimension %zu of '%s' is %lld, but dimension %lld of "
                  "'%s' is %lld",
                  c->def->name, i, arg_name(c, &k->args[2]), (long long)got,
                  (long long)perm[i], arg_name(c, &k->args[1]),
                  (long long)want);
    return false;
  }
  if (mlirShapedTypeGetRank(out) == rank)
    return true;
  npuc_op_error(c->op, "'%s': '%s' must have the rank of '%s' (%ld)",
                c->def->name, arg_name(c, &k->args[2]),
                arg_name(c, &k->args[1]), (long)rank);
  return false;
}

static bool check_divides(const check_ctx *c, const npuc_op_check *k) {
  int64_t v[64];
  bool ok;
  size_t n = attr_ints(arg_attr(c, &k->args[0]), v, &ok);
  if (!ok || n != 1 || v[0] <= 0) {
    npuc_op_error(c->op, "attribute '%s' of '%s' must be a positive integer",
                  arg_name(c, &k->args[0]), c->def->name);
    return false;
  }
  for (size_t i = 1; i < k->num_args; i++) {
    MlirType t = arg_type(c, &k->args[i]);
    int dim = k->args[i].dim < 0 ? 0 : k->args[i].dim;
    if (mlirTypeIsNull(t) || dim >= mlirShapedTypeGetRank(t))
      continue;
    int64_t size = mlirShapedTypeGetDimSize(t, dim);
    if (mlirShapedTypeIsDynamicSize(size) || size % v[0] == 0)
      continue;
    npuc_op_error(c->op,
                  "attribute '%s' of '%s' (%lld) must divide dimension %d of "
                  "'%s' (%lld)",
                  arg_name(c, &k->args[0]), c->def->name, (long long)v[0], dim,
                  arg_name(c, &k->args[i]), (long long)size);
    return false;
  }
  return true;
}

static bool check_bound(const check_ctx *c, const npuc_op_check *k,
                        int64_t least) {
  int64_t v[64];
  bool ok;
  size_t n = attr_ints(arg_attr(c, &k->args[0]), v, &ok);
  for (size_t i = 0; ok && i < n; i++)
    ok = v[i] >= least;
  if (ok)
    return true;
  npuc_op_error(c->op, "attribute '%s' of '%s' must hold %s integers",
                arg_name(c, &k->args[0]), c->def->name,
                least > 0 ? "positive" : "non-negative");
  return false;
}
