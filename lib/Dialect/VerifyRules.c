/* The `verify:` rules of op tables (docs/op-tables.md, "Verifier rules"):
 * relations between an op's operands, results and attributes that kinds
 * alone cannot say, each written once here and named by any table as a
 * mapping such as
 *   - {check: divides, attr: group, operands: [input, output], dim: 3}
 * OpTableRules.c loads them (resolving every name, so a rule naming
 * nothing of its op is a table error); Verify.c runs them after an op's
 * kinds. Rules see only static dimensions: a dynamic one passes, as MLIR's
 * shaped-type verifiers do, and a rule on an absent optional attribute
 * passes (its default is valid). The first rule that fails is reported at
 * the op: with the table's `message` when it gives one (worded as
 * bishengir words it where we follow its verifier), else with what the
 * check found. */
#include "npuc/Alloc.h"
#include "npuc/Checked.h"
#include "npuc/MlirSupport.h"
#include "npuc/StringBuilder.h"
#include "npuc/Verify.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

typedef struct {
  npuc_rule_names_cache *names;
  const npuc_op_def *def;
  MlirOperation op;
  const int32_t *sizes;
  char *detail; /* what a check found, for its report without `message` */
} rule_ctx;

#define DETAIL_CAP 320

static bool rule_applies(const rule_ctx *c, const npuc_verify_rule *r);
static bool rule_holds(const rule_ctx *c, const npuc_verify_rule *r);
static void rule_report(const rule_ctx *c, const npuc_verify_rule *r);

bool npuc_verify_rules_run(npuc_rule_names_cache *names, const npuc_op_def *def,
                           MlirOperation op, const int32_t *sizes) {
  char detail[DETAIL_CAP];
  rule_ctx c = {names, def, op, sizes, detail};
  for (size_t i = 0; i < def->num_rules; ++i) {
    const npuc_verify_rule *r = &def->rules[i];
    detail[0] = '\0';
    if (rule_applies(&c, r) && !rule_holds(&c, r)) {
      rule_report(&c, r);
      return false;
    }
  }
  return true;
}

/* Which operand group (>= 0) or result group (-1 - index) a rule's name
 * is, or NPUC_NO_GROUP; cached in `names`. */
#define NPUC_NO_GROUP INT32_MIN

static int group_index(npuc_rule_names_cache *names, const npuc_op_def *def,
                       const char *name) {
  uintptr_t key = (uintptr_t)name ^ ((uintptr_t)def >> 3);
  size_t at = (key ^ (key >> 9)) & (NPUC_RULE_NAMES_CACHE_SIZE - 1);
  if (names->slots[at].def == def && names->slots[at].name == name)
    return names->slots[at].group;
  int g = npuc_op_find_operand(def, name);
  if (g < 0) {
    g = NPUC_NO_GROUP;
    for (size_t i = 0; i < def->num_results && g == NPUC_NO_GROUP; ++i)
      if (strcmp(def->results[i].name, name) == 0)
        g = -1 - (int)i;
  }
  names->slots[at].def = def;
  names->slots[at].name = name;
  names->slots[at].group = g;
  return g;
}

/* The values of operand or result group `name`: first index and count
 * (0 when the name is no group or the group is empty); *results tells
 * which. Result groups: one variadic or optional group takes the rest. */
static intptr_t group_of(const rule_ctx *c, const char *name, intptr_t *first,
                         bool *results) {
  int g = group_index(c->names, c->def, name);
  *first = 0;
  *results = false;
  if (g >= 0) {
    for (int i = 0; i < g; ++i)
      *first += c->sizes[i];
    return c->sizes[g];
  }
  if (g == NPUC_NO_GROUP)
    return 0;
  intptr_t nres = mlirOperationGetNumResults(c->op), fixed = 0;
  for (size_t i = 0; i < c->def->num_results; ++i)
    fixed += !(c->def->results[i].variadic || c->def->results[i].optional);
  for (int i = 0; i <= -1 - g; ++i) {
    const npuc_value_def *v = &c->def->results[i];
    intptr_t n = v->variadic || v->optional ? nres - fixed : 1;
    if (i == -1 - g) {
      *results = true;
      return *first + n <= nres ? n : 0;
    }
    *first += n;
  }
  return 0;
}

static MlirType value_type(const rule_ctx *c, bool results, intptr_t i) {
  return mlirValueGetType(results ? mlirOperationGetResult(c->op, i)
                                  : mlirOperationGetOperand(c->op, i));
}

static MlirAttribute attr_of(const rule_ctx *c, const char *name) {
  return npuc_table_op_attr(c->op, name, strlen(name));
}

/* An attribute, or an operand group standing in for it, is there. */
static bool present(const rule_ctx *c, const char *name) {
  intptr_t first;
  bool results;
  if (mlirAttributeIsNull(attr_of(c, name)) &&
      group_of(c, name, &first, &results) == 0)
    return false;
  return true;
}

/* The text an attribute's value is compared by: an enum case
 * (#hivm.padmode<PadValue> -> PadValue), a string, an integer. */
static void enum_case(MlirStringRef d, char *buf, size_t cap) {
  const char *lt = memchr(d.data, '<', d.length);
  size_t from = lt ? (size_t)(lt - d.data) + 1 : 0, to = d.length;
  if (lt && to > from && d.data[to - 1] == '>')
    --to;
  snprintf(buf, cap, "%.*s", (int)(to - from), d.data + from);
}

/* Memory spaces of our dialects are kept as strings ("#hivm.address_space
 * <ub>": MLIR 22 refuses opaque ones), so a string naming one of our
 * attributes compares by its case too. */
static void attr_word(MlirAttribute a, char *buf, size_t cap) {
  buf[0] = '\0';
  if (mlirAttributeIsAOpaque(a)) {
    enum_case(mlirOpaqueAttrGetData(a), buf, cap);
  } else if (mlirAttributeIsAString(a)) {
    MlirStringRef v = mlirStringAttrGetValue(a);
    if (v.length > 0 && v.data[0] == '#')
      enum_case(v, buf, cap);
    else
      snprintf(buf, cap, "%.*s", (int)v.length, v.data);
  } else if (mlirAttributeIsAInteger(a)) {
    snprintf(buf, cap, "%lld", (long long)mlirIntegerAttrGetValueInt(a));
  } else if (mlirAttributeIsABool(a)) {
    snprintf(buf, cap, "%s", mlirBoolAttrGetValue(a) ? "true" : "false");
  }
}

static bool in_list(char *const *list, const char *word) {
  for (char *const *p = list; p && *p; ++p)
    if (strcmp(*p, word) == 0)
      return true;
  return false;
}

/* The word `when: NAME, is: [...]` compares: an attribute's (attr_word);
 * for an operand group, its first value's container: `tensor`, `scalar`,
 * a memref's memory space (`gm`, `ub`, ...) or `memref` without one. */
static void condition_word(const rule_ctx *c, const char *name, char *buf,
                           size_t cap) {
  MlirAttribute a = attr_of(c, name);
  intptr_t first;
  bool results;
  buf[0] = '\0';
  if (!mlirAttributeIsNull(a)) {
    attr_word(a, buf, cap);
    return;
  }
  if (group_of(c, name, &first, &results) == 0)
    return;
  MlirType t = value_type(c, results, first);
  MlirAttribute space = mlirTypeIsAMemRef(t) ? mlirMemRefTypeGetMemorySpace(t)
                                             : (MlirAttribute){NULL};
  if (!mlirAttributeIsNull(space))
    attr_word(space, buf, cap);
  else
    snprintf(buf, cap, "%s",
             mlirTypeIsATensor(t)   ? "tensor"
             : mlirTypeIsAShaped(t) ? "memref"
                                    : "scalar");
}

static MlirType first_type(const rule_ctx *c, const char *name);

static bool shaped_group(const rule_ctx *c, const char *name) {
  MlirType t = first_type(c, name);
  return !mlirTypeIsNull(t) && mlirTypeIsAShaped(t);
}

static bool rule_applies(const rule_ctx *c, const npuc_verify_rule *r) {
  /* `ops:` / `except:` were applied as the table loaded (OpTableRules.c). */
  if (r->unless_attr && present(c, r->unless_attr))
    return false;
  if (r->when_shaped && !shaped_group(c, r->when_shaped))
    return false;
  if (r->when_scalar && shaped_group(c, r->when_scalar))
    return false;
  if (!r->when_attr)
    return true;
  if (!present(c, r->when_attr))
    return false;
  if (!r->when_values)
    return true;
  char word[128];
  condition_word(c, r->when_attr, word, sizeof word);
  return in_list(r->when_values, word);
}

/* ---- operand facts ---- */

static bool ranked(MlirType t) {
  return (mlirTypeIsATensor(t) || mlirTypeIsAMemRef(t)) &&
         mlirShapedTypeHasRank(t);
}

static MlirType element_type(MlirType t) {
  return mlirTypeIsAShaped(t) ? mlirShapedTypeGetElementType(t) : t;
}

/* The type of the first value of group `name`, or null. */
static MlirType first_type(const rule_ctx *c, const char *name) {
  intptr_t first;
  bool results;
  if (!name || group_of(c, name, &first, &results) == 0)
    return (MlirType){NULL};
  return value_type(c, results, first);
}

/* Calls `fn` on each value type of the rule's groups (only the one at
 * r->index of each group when given) until it returns false. */
static bool each_value(const rule_ctx *c, const npuc_verify_rule *r,
                       bool (*fn)(const npuc_verify_rule *, MlirType, void *),
                       void *user) {
  for (char **g = r->operands; g && *g; ++g) {
    intptr_t first;
    bool results;
    intptr_t n = group_of(c, *g, &first, &results);
    for (intptr_t i = 0; i < n; ++i)
      if ((r->index < 0 || i == r->index) &&
          !fn(r, value_type(c, results, first + i), user))
        return false;
  }
  return true;
}

typedef enum { CMP_ELEMENT, CMP_RANK, CMP_SHAPE } compare_what;

static bool same_shape(MlirType a, MlirType b) {
  if (mlirShapedTypeGetRank(a) != mlirShapedTypeGetRank(b))
    return false;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(a); ++d) {
    int64_t x = mlirShapedTypeGetDimSize(a, d);
    int64_t y = mlirShapedTypeGetDimSize(b, d);
    if (x != y && !mlirShapedTypeIsDynamicSize(x) &&
        !mlirShapedTypeIsDynamicSize(y))
      return false;
  }
  return true;
}

static bool types_agree(compare_what what, MlirType a, MlirType b) {
  if (what == CMP_ELEMENT)
    return mlirTypeEqual(element_type(a), element_type(b));
  if (!ranked(a) || !ranked(b))
    return true; /* scalars and unranked values have no rank to compare */
  if (what == CMP_RANK)
    return mlirShapedTypeGetRank(a) == mlirShapedTypeGetRank(b);
  return same_shape(a, b);
}

typedef struct {
  compare_what what;
  MlirType base;
} agree_state;

static bool agrees(const npuc_verify_rule *r, MlirType t, void *user) {
  (void)r;
  agree_state *st = user;
  /* Most often the very type of the first: it agrees whatever is
   * compared (a base is only kept when it could be compared). */
  if (mlirTypeEqual(st->base, t))
    return true;
  if (st->what != CMP_ELEMENT && !ranked(t))
    return true;
  if (mlirTypeIsNull(st->base)) {
    st->base = t;
    return true;
  }
  return types_agree(st->what, st->base, t);
}

/* Every value of the named groups agrees with the first one. */
static bool operands_agree(const rule_ctx *c, const npuc_verify_rule *r,
                           compare_what what) {
  agree_state st = {what, {NULL}};
  return each_value(c, r, agrees, &st);
}

static bool rank_within(const npuc_verify_rule *r, MlirType t, void *user) {
  (void)user;
  intptr_t rank = ranked(t) ? mlirShapedTypeGetRank(t) : -1;
  return rank < 0 || (rank >= r->min && (r->max < 0 || rank <= r->max));
}

/* Memory spaces are #hivm.address_space<gm> and alike: the case word. */
static bool space_ok(const npuc_verify_rule *r, MlirType t, void *user) {
  (void)user;
  if (!mlirTypeIsAMemRef(t))
    return true;
  MlirAttribute space = mlirMemRefTypeGetMemorySpace(t);
  if (mlirAttributeIsNull(space))
    return true;
  char word[64];
  attr_word(space, word, sizeof word);
  return in_list(r->values, word) != r->negate;
}

static bool is_shaped(const npuc_verify_rule *r, MlirType t, void *user) {
  (void)r;
  (void)user;
  return mlirTypeIsAShaped(t);
}

static void print_to_buffer(MlirStringRef s, void *user) {
  char *buf = user;
  size_t used = strlen(buf);
  snprintf(buf + used, 128 - used, "%.*s", (int)s.length, s.data);
}

static bool type_listed(const npuc_verify_rule *r, MlirType t, void *user) {
  (void)user;
  char buf[128] = "";
  mlirTypePrint(t, print_to_buffer, buf);
  return in_list(r->values, buf);
}

static bool static_shape(const npuc_verify_rule *r, MlirType t, void *user) {
  (void)r;
  (void)user;
  return !mlirTypeIsAShaped(t) || mlirShapedTypeHasStaticShape(t);
}

/* 1: tensor, 2: memref; all values alike. */
static bool same_container(const npuc_verify_rule *r, MlirType t, void *user) {
  (void)r;
  int *seen = user, kind = mlirTypeIsATensor(t)   ? 1
                           : mlirTypeIsAMemRef(t) ? 2
                                                  : 0;
  if (!kind)
    return true;
  if (!*seen)
    *seen = kind;
  return *seen == kind;
}

static bool count_within(const rule_ctx *c, const npuc_verify_rule *r) {
  for (char **g = r->operands; g && *g; ++g) {
    intptr_t first;
    bool results;
    intptr_t n = group_of(c, *g, &first, &results);
    if (n < r->min || (r->max >= 0 && n > r->max))
      return false;
  }
  return true;
}

/* The groups hold one value per dynamic dimension of `of`. */
static bool dynamic_dims_match(const rule_ctx *c, const npuc_verify_rule *r) {
  MlirType t = first_type(c, r->of);
  if (mlirTypeIsNull(t) || !ranked(t))
    return true;
  intptr_t dynamic = 0, given = 0;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); ++d)
    dynamic += mlirShapedTypeIsDynamicDim(t, d);
  for (char **g = r->operands; g && *g; ++g) {
    intptr_t first;
    bool results;
    given += group_of(c, *g, &first, &results);
  }
  return given == dynamic;
}

/* Dimension `dim` of a ranked value is within [min, max] or, with `of`,
 * dimension `of_dim` of `of`'s first value; dynamic sizes and values of
 * lower rank pass (a rank rule says those). */
static bool dim_size_ok(const npuc_verify_rule *r, MlirType t, void *user) {
  const rule_ctx *c = user;
  int dim = r->dim < 0 ? 0 : r->dim;
  if (!ranked(t) || dim >= mlirShapedTypeGetRank(t))
    return true;
  int64_t size = mlirShapedTypeGetDimSize(t, dim);
  if (mlirShapedTypeIsDynamicSize(size))
    return true;
  if (!r->of)
    return size >= r->min && (r->max < 0 || size <= r->max);
  MlirType of = first_type(c, r->of);
  int of_dim = r->of_dim < 0 ? 0 : r->of_dim;
  if (mlirTypeIsNull(of) || !ranked(of) || of_dim >= mlirShapedTypeGetRank(of))
    return true;
  int64_t want = mlirShapedTypeGetDimSize(of, of_dim);
  return mlirShapedTypeIsDynamicSize(want) || size == want;
}

/* The static element count, or -1 (dynamic, absent, or too large: then
 * the rule cannot tell and passes). */
static int64_t static_elements(MlirType t) {
  if (mlirTypeIsNull(t) || !ranked(t) || !mlirShapedTypeHasStaticShape(t))
    return -1;
  int64_t dims[64], n;
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (rank > 64)
    return -1;
  for (intptr_t i = 0; i < rank; i++)
    dims[i] = mlirShapedTypeGetDimSize(t, i);
  return npuc_checked_product(dims, (int)rank, &n) ? n : -1;
}

/* The first values of the groups hold as many elements. */
static bool element_counts_agree(const rule_ctx *c, const npuc_verify_rule *r) {
  const char *base = NULL;
  int64_t want = -1;
  for (char **g = r->operands; g && *g; ++g) {
    int64_t n = static_elements(first_type(c, *g));
    if (n < 0)
      continue;
    if (want < 0) {
      base = *g, want = n;
      continue;
    }
    if (n == want)
      continue;
    snprintf(c->detail, DETAIL_CAP,
             "'%s' must keep the element count: '%s' has %lld elements, '%s' "
             "%lld",
             c->def->name, base, (long long)want, *g, (long long)n);
    return false;
  }
  return true;
}

/* ---- attribute facts ---- */

/* The integers of an i64/i32 array, an array of integers or an integer
 * attribute: count, or -1 when it is none of these. At most `cap` kept. */
static intptr_t attr_ints(MlirAttribute a, int64_t *out, intptr_t cap) {
  intptr_t n = -1;
  if (mlirAttributeIsADenseI64Array(a) || mlirAttributeIsADenseI32Array(a)) {
    n = mlirDenseArrayGetNumElements(a);
    bool wide = mlirAttributeIsADenseI64Array(a);
    for (intptr_t i = 0; i < n && i < cap; ++i)
      out[i] = wide ? mlirDenseI64ArrayGetElement(a, i)
                    : mlirDenseI32ArrayGetElement(a, i);
  } else if (mlirAttributeIsAArray(a)) {
    n = mlirArrayAttrGetNumElements(a);
    for (intptr_t i = 0; i < n; ++i) {
      MlirAttribute e = mlirArrayAttrGetElement(a, i);
      if (!mlirAttributeIsAInteger(e))
        return -1;
      if (i < cap)
        out[i] = mlirIntegerAttrGetValueInt(e);
    }
  } else if (mlirAttributeIsAInteger(a)) {
    n = 1;
    out[0] = mlirIntegerAttrGetValueInt(a);
  }
  return n;
}

#define MAX_RULE_INTS 64

/* Transpositions making up permutation `v` (sum of cycle length - 1);
 * `v` is already known to be a permutation of 0..n-1. */
static intptr_t swaps_of(const int64_t *v, intptr_t n) {
  bool seen[MAX_RULE_INTS] = {false};
  intptr_t swaps = 0;
  for (intptr_t i = 0; i < n; ++i) {
    intptr_t len = 0;
    for (intptr_t j = i; !seen[j]; j = (intptr_t)v[j], ++len)
      seen[j] = true;
    swaps += len > 0 ? len - 1 : 0;
  }
  return swaps;
}

/* values: "N" allows N swaps at any rank, "R:N" at rank R only. */
static bool swaps_allowed(const npuc_verify_rule *r, intptr_t swaps,
                          intptr_t rank) {
  char any[32], at_rank[48];
  snprintf(any, sizeof any, "%zd", (ssize_t)swaps);
  snprintf(at_rank, sizeof at_rank, "%zd:%zd", (ssize_t)rank, (ssize_t)swaps);
  return in_list(r->values, any) || in_list(r->values, at_rank);
}

static bool is_permutation(const int64_t *v, intptr_t n) {
  for (intptr_t i = 0; i < n; ++i) {
    if (v[i] < 0 || v[i] >= n)
      return false;
    for (intptr_t j = 0; j < i; ++j)
      if (v[i] == v[j])
        return false;
  }
  return true;
}

static bool ints_hold(const npuc_verify_rule *r, const int64_t *v, intptr_t n,
                      MlirType of) {
  intptr_t rank =
      !mlirTypeIsNull(of) && ranked(of) ? mlirShapedTypeGetRank(of) : -1;
  switch (r->kind) {
  case NPUC_RULE_NONEMPTY: return n > 0;
  case NPUC_RULE_LENGTH_IS_RANK: return rank < 0 || n == rank;
  case NPUC_RULE_AT_MOST_RANK: return rank < 0 || n <= rank;
  case NPUC_RULE_MIN:
    for (intptr_t i = 0; i < n; ++i)
      if (v[i] < r->min)
        return false;
    return true;
  case NPUC_RULE_DIMS_IN_RANK:
  case NPUC_RULE_DIMS_UNIT:
    for (intptr_t i = 0; i < n; ++i) {
      if (v[i] < 0 || (rank >= 0 && v[i] >= rank))
        return r->kind == NPUC_RULE_DIMS_UNIT; /* dims-in-rank reports it */
      if (r->kind == NPUC_RULE_DIMS_UNIT && rank >= 0 &&
          mlirShapedTypeGetDimSize(of, (intptr_t)v[i]) != 1)
        return false;
    }
    return true;
  case NPUC_RULE_UNIQUE:
    for (intptr_t i = 0; i < n; ++i)
      for (intptr_t j = 0; j < i; ++j)
        if (v[i] == v[j])
          return false;
    return true;
  case NPUC_RULE_SWAPS:
    return !is_permutation(v, n) || swaps_allowed(r, swaps_of(v, n), n);
  default: return true;
  }
}

static bool permutation_holds(const rule_ctx *c, const npuc_verify_rule *r,
                              const int64_t *perm, intptr_t n);
static bool divides_holds(const rule_ctx *c, const npuc_verify_rule *r,
                          const int64_t *v, intptr_t n);

/* ---- unique with a key ---------------------------------------------------
 * The entries of an array of dialect attributes (`#d.x<p0, p1, ..>`, opaque
 * to MLIR) agreeing on every parameter the key names: custom_macro's
 * sync_event_slots may not reserve one event id twice for a pipe pair. The
 * keys are sorted, so n entries cost n log n. */

enum { MAX_KEY_PARAMS = 64 };

/* The parameters of `name<p0, p1, ..>` at nesting depth 0, trimmed. */
static size_t split_params(MlirStringRef data, MlirStringRef *out) {
  const char *p = memchr(data.data, '<', data.length);
  const char *end = data.data + data.length;
  if (!p || end[-1] != '>')
    return 0;
  ++p;
  --end;
  size_t count = 0;
  while (p < end && count < MAX_KEY_PARAMS) {
    const char *start = p;
    size_t depth = 0;
    for (; p < end && (depth || *p != ','); ++p) {
      depth += *p == '<' || *p == '[' || *p == '(' || *p == '{';
      depth -= depth && (*p == '>' || *p == ']' || *p == ')' || *p == '}');
    }
    const char *e = p;
    while (start < e && *start == ' ')
      ++start;
    while (e > start && e[-1] == ' ')
      --e;
    out[count++] = mlirStringRefCreate(start, (size_t)(e - start));
    p += p < end; /* the comma */
  }
  return count;
}

/* The key of one entry (its named parameters, each followed by a unit
 * separator), or NULL when it is not such an attribute or lacks one. */
static char *entry_key(MlirAttribute e, char *const *key) {
  if (!mlirAttributeIsAOpaque(e))
    return NULL;
  MlirStringRef params[MAX_KEY_PARAMS];
  size_t n = split_params(mlirOpaqueAttrGetData(e), params);
  npuc_sb text = {0};
  for (char *const *k = key; *k; ++k) {
    size_t pos = (size_t)strtoul(*k, NULL, 10);
    if (pos >= n) {
      npuc_sb_free(&text);
      return NULL;
    }
    npuc_sb_append(&text, params[pos].data, params[pos].length);
    npuc_sb_append(&text, "\x1f", 1);
  }
  return npuc_sb_take(&text);
}

static int compare_keys(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool keys_unique(MlirAttribute array, char *const *key) {
  intptr_t n = mlirArrayAttrGetNumElements(array);
  char **keys = npuc_xcalloc(n > 0 ? (size_t)n : 1, sizeof *keys);
  size_t m = 0;
  for (intptr_t i = 0; i < n; ++i)
    if ((keys[m] = entry_key(mlirArrayAttrGetElement(array, i), key)))
      ++m;
  qsort(keys, m, sizeof *keys, compare_keys);
  bool unique = true;
  for (size_t i = 1; i < m && unique; ++i)
    unique = strcmp(keys[i - 1], keys[i]) != 0;
  for (size_t i = 0; i < m; ++i)
    free(keys[i]);
  free(keys);
  return unique;
}

static bool attr_rule_holds(const rule_ctx *c, const npuc_verify_rule *r) {
  MlirAttribute a = attr_of(c, r->attr);
  MlirType of = first_type(c, r->of);
  int64_t v[MAX_RULE_INTS];
  intptr_t n;
  if (mlirAttributeIsNull(a)) {
    /* Absent: only nonempty fails. An operand group named as the rule's
     * attribute (varange's strides) counts by its length. */
    intptr_t first;
    bool results;
    bool group = npuc_op_find_attr(c->def, r->attr) < 0;
    bool length_rule = r->kind == NPUC_RULE_NONEMPTY ||
                       r->kind == NPUC_RULE_LENGTH_IS_RANK ||
                       r->kind == NPUC_RULE_AT_MOST_RANK;
    if (!group || !length_rule)
      return r->kind != NPUC_RULE_NONEMPTY;
    return ints_hold(r, v, group_of(c, r->attr, &first, &results), of);
  }
  if (r->kind == NPUC_RULE_SYMBOL)
    return mlirAttributeIsAFlatSymbolRef(a);
  if (r->kind == NPUC_RULE_UNIQUE && r->key && mlirAttributeIsAArray(a))
    return keys_unique(a, r->key);
  n = attr_ints(a, v, MAX_RULE_INTS);
  if (r->kind == NPUC_RULE_DIVIDES)
    return divides_holds(c, r, v, n);
  if (n < 0)
    return true; /* the kind check reports a wrong kind */
  if (n > MAX_RULE_INTS)
    return r->kind == NPUC_RULE_NONEMPTY || r->kind == NPUC_RULE_MIN;
  if (r->kind == NPUC_RULE_PERMUTATION)
    return permutation_holds(c, r, v, n);
  return ints_hold(r, v, n, of);
}

/* `attr` permutes 0..rank(of)-1; with `into`, dimension i of `into` is
 * dimension attr[i] of `of` (static sizes only). */
static bool permutation_holds(const rule_ctx *c, const npuc_verify_rule *r,
                              const int64_t *perm, intptr_t n) {
  MlirType in = first_type(c, r->of);
  bool in_ranked = !mlirTypeIsNull(in) && ranked(in);
  intptr_t rank = in_ranked ? mlirShapedTypeGetRank(in) : n;
  if (n != rank || !is_permutation(perm, n)) {
    snprintf(c->detail, DETAIL_CAP,
             "attribute '%s' of '%s' must be a permutation of 0..%ld (the "
             "dimensions of '%s')",
             r->attr, c->def->name, (long)rank - 1,
             r->of ? r->of : "its input");
    return false;
  }
  MlirType out = first_type(c, r->into);
  if (!in_ranked || mlirTypeIsNull(out) || !ranked(out))
    return true;
  if (mlirShapedTypeGetRank(out) != rank) {
    snprintf(c->detail, DETAIL_CAP,
             "'%s': '%s' must have the rank of '%s' (%ld)", c->def->name,
             r->into, r->of, (long)rank);
    return false;
  }
  for (intptr_t i = 0; i < n; ++i) {
    int64_t want = mlirShapedTypeGetDimSize(in, (intptr_t)perm[i]);
    int64_t got = mlirShapedTypeGetDimSize(out, i);
    if (mlirShapedTypeIsDynamicSize(want) || mlirShapedTypeIsDynamicSize(got) ||
        want == got)
      continue;
    snprintf(c->detail, DETAIL_CAP,
             "'%s' dimension %ld of '%s' is %lld, but dimension %lld of '%s' "
             "is %lld",
             c->def->name, (long)i, r->into, (long long)got, (long long)perm[i],
             r->of, (long long)want);
    return false;
  }
  return true;
}

/* `attr` is one positive integer dividing dimension `dim` of the first
 * value of each of the groups (dynamic sizes pass). */
static bool divides_holds(const rule_ctx *c, const npuc_verify_rule *r,
                          const int64_t *v, intptr_t n) {
  if (n != 1 || v[0] <= 0) {
    snprintf(c->detail, DETAIL_CAP,
             "attribute '%s' of '%s' must be a positive integer", r->attr,
             c->def->name);
    return false;
  }
  int dim = r->dim < 0 ? 0 : r->dim;
  for (char **g = r->operands; g && *g; ++g) {
    MlirType t = first_type(c, *g);
    if (mlirTypeIsNull(t) || !ranked(t) || dim >= mlirShapedTypeGetRank(t))
      continue;
    int64_t size = mlirShapedTypeGetDimSize(t, dim);
    if (mlirShapedTypeIsDynamicSize(size) || size % v[0] == 0)
      continue;
    snprintf(c->detail, DETAIL_CAP,
             "attribute '%s' of '%s' (%lld) must divide dimension %d of '%s' "
             "(%lld)",
             r->attr, c->def->name, (long long)v[0], dim, *g, (long long)size);
    return false;
  }
  return true;
}

/* ---- windows (tx8be.slice) ---- */

/* The integers of attribute `name` when it is an integer list of exactly
 * `rank` entries: true; false with a detail when it has another length;
 * *absent when it is not there (or of another kind, which the kind check
 * reports). */
static bool rank_ints(const rule_ctx *c, const char *name, const char *of,
                      intptr_t rank, int64_t *v, bool *absent) {
  MlirAttribute a = attr_of(c, name);
  intptr_t n = mlirAttributeIsNull(a) ? -1 : attr_ints(a, v, MAX_RULE_INTS);
  *absent = n < 0;
  if (n < 0 || n == rank)
    return true;
  snprintf(c->detail, DETAIL_CAP,
           "attribute '%s' of '%s' must have one entry per dimension of '%s' "
           "(%ld), not %ld",
           name, c->def->name, of, (long)rank, (long)n);
  return false;
}

/* `attr` lists the shape of `of` (dynamic dimensions match anything). */
static bool is_shape_holds(const rule_ctx *c, const npuc_verify_rule *r) {
  MlirType t = first_type(c, r->of);
  if (mlirTypeIsNull(t) || !ranked(t) || mlirShapedTypeGetRank(t) > 64)
    return true;
  int64_t v[MAX_RULE_INTS];
  bool absent;
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (!rank_ints(c, r->attr, r->of, rank, v, &absent))
    return false;
  for (intptr_t d = 0; !absent && d < rank; ++d) {
    int64_t size = mlirShapedTypeGetDimSize(t, d);
    if (mlirShapedTypeIsDynamicSize(size) || size == v[d])
      continue;
    snprintf(c->detail, DETAIL_CAP,
             "attribute '%s' of '%s' must be the shape of '%s': entry %ld is "
             "%lld, the dimension %lld",
             r->attr, c->def->name, r->of, (long)d, (long long)v[d],
             (long long)size);
    return false;
  }
  return true;
}

static bool window_dim_holds(const rule_ctx *c, const npuc_verify_rule *r,
                             intptr_t d, int64_t offset, int64_t stride);

/* `into` is read from `of` at attr[d] + i * with[d], i < into's size d:
 * offsets not negative, strides positive, and the last index read inside
 * `of` (computed checked: offsets and strides near 2^63 are errors, not
 * wrapped indices). A dimension of size 0 reads nothing, its offset may be
 * the dimension's size. Static sizes only. */
static bool in_bounds_holds(const rule_ctx *c, const npuc_verify_rule *r) {
  MlirType in = first_type(c, r->of), out = first_type(c, r->into);
  if (mlirTypeIsNull(in) || mlirTypeIsNull(out) || !ranked(in) ||
      !ranked(out) || mlirShapedTypeGetRank(in) > 64)
    return true;
  intptr_t rank = mlirShapedTypeGetRank(in);
  if (mlirShapedTypeGetRank(out) != rank) {
    snprintf(c->detail, DETAIL_CAP,
             "'%s': '%s' must have the rank of '%s' (%ld)", c->def->name,
             r->into, r->of, (long)rank);
    return false;
  }
  int64_t offsets[MAX_RULE_INTS], strides[MAX_RULE_INTS];
  bool no_offsets, no_strides;
  if (!rank_ints(c, r->attr, r->of, rank, offsets, &no_offsets) ||
      !rank_ints(c, r->with, r->of, rank, strides, &no_strides))
    return false;
  for (intptr_t d = 0; !no_offsets && !no_strides && d < rank; ++d)
    if (!window_dim_holds(c, r, d, offsets[d], strides[d]))
      return false;
  return true;
}

static bool window_dim_holds(const rule_ctx *c, const npuc_verify_rule *r,
                             intptr_t d, int64_t offset, int64_t stride) {
  MlirType in = first_type(c, r->of), out = first_type(c, r->into);
  int64_t dim = mlirShapedTypeGetDimSize(in, d);
  int64_t size = mlirShapedTypeGetDimSize(out, d), last = 0;
  if (offset < 0 || stride < 1) {
    snprintf(c->detail, DETAIL_CAP,
             "'%s' dimension %ld: the offset (%lld) must not be negative and "
             "the stride (%lld) must be positive",
             c->def->name, (long)d, (long long)offset, (long long)stride);
    return false;
  }
  if (mlirShapedTypeIsDynamicSize(dim) || mlirShapedTypeIsDynamicSize(size))
    return true;
  bool computed = size == 0 || (npuc_checked_mul(size - 1, stride, &last) &&
                                npuc_checked_add(last, offset, &last));
  if (size == 0)
    last = offset;
  if (computed && (size == 0 ? last <= dim : last < dim))
    return true;
  if (computed)
    snprintf(c->detail, DETAIL_CAP,
             "'%s' reads outside '%s' along dimension %ld: offset %lld, size "
             "%lld and stride %lld reach index %lld, the dimension has %lld",
             c->def->name, r->of, (long)d, (long long)offset, (long long)size,
             (long long)stride, (long long)last, (long long)dim);
  else
    snprintf(c->detail, DETAIL_CAP,
             "'%s' reads outside '%s' along dimension %ld: offset %lld, size "
             "%lld and stride %lld reach an index beyond int64, the "
             "dimension has %lld",
             c->def->name, r->of, (long)d, (long long)offset, (long long)size,
             (long long)stride, (long long)dim);
  return false;
}

/* The entries of an attribute (any array, or 1 for another attribute, 0
 * when absent) or, for an operand group, its size. */
static intptr_t length_of(const rule_ctx *c, const char *name) {
  if (npuc_op_find_attr(c->def, name) < 0) {
    intptr_t first;
    bool results;
    return group_of(c, name, &first, &results);
  }
  MlirAttribute a = attr_of(c, name);
  if (mlirAttributeIsNull(a))
    return 0;
  if (mlirAttributeIsAArray(a))
    return mlirArrayAttrGetNumElements(a);
  if (mlirAttributeIsADenseI64Array(a) || mlirAttributeIsADenseI32Array(a))
    return mlirDenseArrayGetNumElements(a);
  return 1;
}

static bool lengths_agree(const rule_ctx *c, const npuc_verify_rule *r) {
  intptr_t want = length_of(c, r->attr), got = length_of(c, r->with);
  if (want == got)
    return true;
  snprintf(c->detail, DETAIL_CAP,
           "'%s' op '%s' should be of size %ld (one per entry of '%s')",
           c->def->name, r->with, (long)want, r->attr);
  return false;
}

/* The index entry i of an operand-map attribute gives (-1: none; -2: not
 * an integer). */
static int64_t map_target(MlirAttribute map, intptr_t i, const char *field) {
  MlirAttribute dict = mlirArrayAttrGetElement(map, i);
  if (!mlirAttributeIsADictionary(dict))
    return -1;
  MlirAttribute v = mlirDictionaryAttrGetElementByName(
      dict, mlirStringRefCreateFromCString(field));
  if (mlirAttributeIsNull(v))
    return -1;
  return mlirAttributeIsAInteger(v) ? mlirIntegerAttrGetValueInt(v) : -2;
}

/* `attr` holds one dictionary per value of the first `operands` group;
 * entry `field` of dictionary i, when there, is the index of a value of
 * `of` that value i maps to (bishengir's inplace_outs). `require` says
 * what must hold of each mapping: in-range, unique (no two map to one),
 * same-type (identical tensor or memref types), same-value (one SSA
 * value). */
static bool operand_map_holds(const rule_ctx *c, const npuc_verify_rule *r) {
  MlirAttribute map = attr_of(c, r->attr);
  if (mlirAttributeIsNull(map) || !mlirAttributeIsAArray(map))
    return true;
  intptr_t in_first, out_first;
  bool in_res, out_res;
  intptr_t nin = group_of(c, r->operands[0], &in_first, &in_res);
  intptr_t nout = group_of(c, r->of, &out_first, &out_res);
  if (in_res || out_res)
    return true;
  intptr_t n = mlirArrayAttrGetNumElements(map);
  /* The loader accepted only these four words. */
  char kind = strcmp(r->require, "in-range") == 0     ? 'r'
              : strcmp(r->require, "same-type") == 0  ? 't'
              : strcmp(r->require, "same-value") == 0 ? 'v'
                                                      : 'u';
  for (intptr_t i = 0; i < n && i < nin; ++i) {
    int64_t to = map_target(map, i, r->field);
    if (to == -1)
      continue;
    bool in_range = to >= 0 && to < nout;
    if (kind == 'r' && !in_range)
      return false;
    if (!in_range)
      continue;
    for (intptr_t j = 0; kind == 'u' && j < i; ++j)
      if (map_target(map, j, r->field) == to)
        return false;
    MlirValue in = mlirOperationGetOperand(c->op, in_first + i);
    MlirValue out = mlirOperationGetOperand(c->op, out_first + to);
    MlirType ti = mlirValueGetType(in), to_type = mlirValueGetType(out);
    if (kind == 't' && (!ranked(ti) || !mlirTypeEqual(ti, to_type)))
      return false;
    if (kind == 'v' && !mlirValueEqual(in, out))
      return false;
  }
  return true;
}

/* ---- structure ---- */

static bool parent_ok(const rule_ctx *c, const npuc_verify_rule *r) {
  MlirOperation parent = mlirOperationGetParentOperation(c->op);
  if (mlirOperationIsNull(parent))
    return false;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(parent));
  char buf[128];
  snprintf(buf, sizeof buf, "%.*s", (int)name.length, name.data);
  return in_list(r->values, buf);
}

static bool region_blocks_ok(const rule_ctx *c, const npuc_verify_rule *r) {
  for (intptr_t i = 0; i < mlirOperationGetNumRegions(c->op); ++i) {
    long long n = 0;
    MlirRegion reg = mlirOperationGetRegion(c->op, i);
    for (MlirBlock b = mlirRegionGetFirstBlock(reg); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      ++n;
    if (n < r->min || (r->max >= 0 && n > r->max))
      return false;
  }
  return true;
}

/* Region 0's terminator passes values of the op's result types. */
static bool yield_types_ok(const rule_ctx *c) {
  if (mlirOperationGetNumRegions(c->op) == 0)
    return true;
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(c->op, 0));
  if (mlirBlockIsNull(b))
    return true;
  /* Our terminators are unregistered: MLIR cannot name them, so take the
   * block's last op. */
  MlirOperation term = mlirBlockGetFirstOperation(b);
  if (mlirOperationIsNull(term))
    return true;
  for (MlirOperation next = mlirOperationGetNextInBlock(term);
       !mlirOperationIsNull(next); next = mlirOperationGetNextInBlock(next))
    term = next;
  intptr_t n = mlirOperationGetNumResults(c->op);
  if (mlirOperationGetNumOperands(term) != n)
    return false;
  for (intptr_t i = 0; i < n; ++i)
    if (!mlirTypeEqual(mlirValueGetType(mlirOperationGetOperand(term, i)),
                       mlirValueGetType(mlirOperationGetResult(c->op, i))))
      return false;
  return true;
}

static bool rule_holds(const rule_ctx *c, const npuc_verify_rule *r) {
  int seen = 0;
  switch (r->kind) {
  case NPUC_RULE_SAME_ELEMENT_TYPE: return operands_agree(c, r, CMP_ELEMENT);
  case NPUC_RULE_SAME_RANK: return operands_agree(c, r, CMP_RANK);
  case NPUC_RULE_SAME_SHAPE: return operands_agree(c, r, CMP_SHAPE);
  case NPUC_RULE_RANK: return each_value(c, r, rank_within, NULL);
  case NPUC_RULE_MEMORY_SPACE: return each_value(c, r, space_ok, NULL);
  case NPUC_RULE_SHAPED: return each_value(c, r, is_shaped, NULL);
  case NPUC_RULE_TYPE: return each_value(c, r, type_listed, NULL);
  case NPUC_RULE_STATIC_SHAPE: return each_value(c, r, static_shape, NULL);
  case NPUC_RULE_SAME_CONTAINER: return each_value(c, r, same_container, &seen);
  case NPUC_RULE_COUNT: return count_within(c, r);
  case NPUC_RULE_DYNAMIC_DIMS: return dynamic_dims_match(c, r);
  case NPUC_RULE_SAME_ELEMENT_COUNT: return element_counts_agree(c, r);
  case NPUC_RULE_DIM_SIZE: return each_value(c, r, dim_size_ok, (void *)c);
  case NPUC_RULE_SAME_LENGTH: return lengths_agree(c, r);
  case NPUC_RULE_OPERAND_MAP: return operand_map_holds(c, r);
  case NPUC_RULE_IS_SHAPE: return is_shape_holds(c, r);
  case NPUC_RULE_IN_BOUNDS: return in_bounds_holds(c, r);
  case NPUC_RULE_REQUIRED:
  case NPUC_RULE_ABSENT: {
    bool all = true;
    for (char **g = r->operands; g && *g; ++g)
      all &= present(c, *g) == (r->kind == NPUC_RULE_REQUIRED);
    if (r->attr) {
      /* An empty list is as absent as none. */
      int64_t v[1];
      bool there =
          present(c, r->attr) && attr_ints(attr_of(c, r->attr), v, 1) != 0;
      all &= there == (r->kind == NPUC_RULE_REQUIRED);
    }
    return all;
  }
  case NPUC_RULE_PARENT: return parent_ok(c, r);
  case NPUC_RULE_REGION_BLOCKS: return region_blocks_ok(c, r);
  case NPUC_RULE_YIELD_TYPES: return yield_types_ok(c);
  default: return attr_rule_holds(c, r);
  }
}

static void rule_report(const rule_ctx *c, const npuc_verify_rule *r) {
  if (r->message) {
    npuc_op_error(c->op, "'%s' op %s", c->def->name, r->message);
    return;
  }
  if (c->detail[0]) {
    npuc_op_error(c->op, "%s", c->detail);
    return;
  }
  if (r->kind == NPUC_RULE_MIN && r->attr && r->min >= 0 && r->min <= 1) {
    npuc_op_error(c->op, "attribute '%s' of '%s' must hold %s integers",
                  r->attr, c->def->name,
                  r->min == 1 ? "positive" : "non-negative");
    return;
  }
  if (r->kind == NPUC_RULE_SYMBOL) {
    npuc_op_error(c->op, "attribute '%s' of '%s' must be a symbol (@name)",
                  r->attr, c->def->name);
    return;
  }
  static const char *const what[] = {
      "operands must have one element type",
      "operands must have one rank",
      "operands must have one shape",
      "operand rank out of range",
      "attribute is not a permutation of the dimensions",
      "attribute names a dimension out of range",
      "attribute repeats an entry",
      "attribute must not be empty",
      "attribute entry below its minimum",
      "attribute must have one entry per dimension",
      "a required operand or attribute is missing",
      "an operand or attribute must not be given",
      "operand in a memory space it cannot use",
      "op in the wrong parent",
      "region has the wrong number of blocks",
      "region yields values of other types than the results",
      "operand must be a tensor or memref",
      "wrong number of operands in a group",
      "operand of the wrong type",
      "operands must be all tensors or all memrefs",
      "operand must have a static shape",
      "one operand per dynamic dimension needed",
      "attribute has more entries than dimensions",
      "attribute names a dimension whose size is not 1",
      "permutation swaps more axes than supported",
      "operands must hold as many elements",
      "attribute must divide the dimensions",
      "attribute must be a symbol",
      "operand dimension of the wrong size",
      "attribute and operands of different lengths",
      "attribute maps operands wrongly",
      "attribute is not the shape of its operand",
      "the window reads outside its operand"};
  npuc_op_error(c->op, "'%s' op %s%s%s%s", c->def->name, what[r->kind],
                r->attr ? " ('" : "", r->attr ? r->attr : "",
                r->attr ? "')" : "");
}
