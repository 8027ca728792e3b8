/* Op tables: our dialects (hivm, annotation, hacc, scope, memref_ext, and
 * later tx8be, aievec) are unregistered for MLIR. Each is described once, as
 * YAML under lib/Dialect/tables/; this component loads those tables into the
 * structures below. The syntax engine (Syntax.h) and the verifier (Verify.h)
 * are driven only by them. The YAML schema is documented in
 * docs/op-tables.md. */
#ifndef NPUC_OPTABLE_H
#define NPUC_OPTABLE_H

#include "npuc/Diagnostics.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* What an operand's or result's type may be. */
typedef enum {
  NPUC_VK_ANY,
  NPUC_VK_TENSOR,
  NPUC_VK_MEMREF,
  NPUC_VK_SHAPED,  /* tensor or memref */
  NPUC_VK_SCALAR,  /* integer, index or float */
  NPUC_VK_INTEGER, /* integer or index */
  NPUC_VK_SHAPED_OR_SCALAR,
  NPUC_VK_TENSOR_OR_SCALAR,
  NPUC_VK_VECTOR,
} npuc_value_kind;

typedef enum {
  NPUC_AK_ANY,       /* copied as written */
  NPUC_AK_UNIT,      /* presence only */
  NPUC_AK_BOOL,      /* true | false */
  NPUC_AK_INT,       /* 2  <->  2 : i64 (int_type gives the width) */
  NPUC_AK_I64_ARRAY, /* [0, 1]  <->  array<i64: 0, 1> */
  NPUC_AK_I32_ARRAY, /* [0, 1]  <->  array<i32: 0, 1> */
  NPUC_AK_ENUM,      /* <sum>  <->  #hivm.reduce_op<sum> */
  NPUC_AK_STRING,    /* "text" */
  NPUC_AK_KEYWORD,   /* t8_8x8  <->  "t8_8x8" (a bare word, kept as a string) */
  NPUC_AK_SYMBOL_NAME, /* @name  <->  "name" (an op's own symbol, sym_name) */
} npuc_attr_kind;

typedef enum {
  NPUC_VAR_OPERAND,
  NPUC_VAR_RESULT,
  NPUC_VAR_ATTR,
  NPUC_VAR_REGION,
} npuc_var_class;

typedef struct {
  char *name;
  npuc_value_kind kind;
  bool variadic;    /* zero or more */
  bool optional;    /* zero or one */
  char *fixed_type; /* a type the syntax never prints ("index"), or NULL */
  /* The type is that of another operand or result group, never printed
   * (aievec.upd's vector has the result's type). -1: none. */
  int type_of;
  bool type_of_result; /* type_of indexes the results, not the operands */
  /* A variadic group whose values share one type, printed once. */
  bool same_type;
  /* The type must equal another group's, though both are printed
   * (`same_as: NAME`; aievec.band's operands). -1: none. */
  int same_as;
  bool same_as_result;
} npuc_value_def;

typedef struct {
  char *name;
  npuc_attr_kind kind;
  char *enum_prefix;  /* NPUC_AK_ENUM: "#hivm.reduce_op" */
  char *int_type;     /* NPUC_AK_INT: "i64" by default */
  char **enum_values; /* optional closed set, NULL-terminated */
  bool optional;
  bool in_format; /* the format shows it; else it lives in attr-dict */
  /* `default: TEXT`: the value the op means when the attribute is absent
   * (ODS DefaultValuedAttr), as MLIR writes it generically; printed
   * neither in its optional group nor in attr-dict when equal. NULL: none. */
  char *default_text;
} npuc_attr_def;

/* The assembly format, compiled from the table's directive string. */
typedef enum {
  NPUC_FMT_LITERAL,      /* `ins`, `(`, `->` */
  NPUC_FMT_VAR,          /* $name: operand group, attribute or region */
  NPUC_FMT_TYPE,         /* type($name): types of an operand or result group */
  NPUC_FMT_ATTR_DICT,    /* attr-dict */
  NPUC_FMT_ATTR_DICT_KW, /* attr-dict-with-keyword */
  NPUC_FMT_OPTIONAL,     /* ( ... )? */
  NPUC_FMT_ALTERNATIVES, /* ( a | b ), our extension: first that matches */
  /* dynamic-index-list($ops, $attr): `[4, %n, 8]`, the SSA entries in the
   * index operand group $ops, all entries in the i64-array $attr with
   * INT64_MIN (MLIR's ShapedType::kDynamic) where an SSA value stands. */
  NPUC_FMT_DYN_INDEX_LIST,
  /* region-args($region): `(%a : T, %b : U)`, the arguments of the
   * region's entry block written as a signature before it (mlir-aie's
   * aie.runtime_sequence); the region itself is still placed by $region. */
  NPUC_FMT_REGION_ARGS,
} npuc_fmt_kind;

typedef struct npuc_fmt_elem npuc_fmt_elem;
struct npuc_fmt_elem {
  npuc_fmt_kind kind;
  char *text; /* LITERAL: the literal; VAR/TYPE: the variable name */
  npuc_var_class var_class;
  int var_index;           /* index into operands/results/attrs/regions */
  int attr_index;          /* DYN_INDEX_LIST: the static attribute */
  bool anchor;             /* marked with ^ inside an optional group */
  bool function_results;   /* TYPE from function-results($name): `()`, `T`
                              or `(T, U)`, as a function type writes them */
  npuc_fmt_elem *children; /* OPTIONAL: the group; ALTERNATIVES: branches */
  size_t num_children;
  size_t *branch_ends; /* ALTERNATIVES: end index of each branch */
  size_t num_branches;
  /* TYPE from stripped-type($name, `prefix`): the type may be written
   * without its prefix (`<1>` for `!llvm.ptr<1>`, nothing for `!llvm.ptr`),
   * as ODS prints a dialect type it knows the class of; NULL otherwise. */
  char *type_prefix;
};

/* One allowed combination of types and attribute values (`signatures:`):
 * each key names an operand or result group or an attribute and lists the
 * types (as MLIR prints them) or values it may take; "none" stands for an
 * absent optional group or attribute. An op with signatures must fit one. */
typedef struct {
  char *name;
  npuc_var_class var_class; /* OPERAND, RESULT or ATTR */
  int index;
  char **values;
  size_t num_values;
} npuc_sig_key;

typedef struct {
  npuc_sig_key *keys;
  size_t num_keys;
} npuc_signature;

/* Trait bits the passes query. */
enum {
  NPUC_TRAIT_ELEMENTWISE = 1u << 0,
  NPUC_TRAIT_BROADCASTABLE = 1u << 1,
  NPUC_TRAIT_REDUCTION = 1u << 2,
  NPUC_TRAIT_STORE_LIKE = 1u << 3,
  NPUC_TRAIT_LOAD_LIKE = 1u << 4,
  NPUC_TRAIT_SIDE_EFFECTS = 1u << 5,
  NPUC_TRAIT_DPS = 1u << 6, /* destination style: results mirror tensor outs */
  NPUC_TRAIT_BLOCK_DEPENDENT = 1u << 7, /* cross-block sync or atomics */
  NPUC_TRAIT_TERMINATOR = 1u << 8,
  NPUC_TRAIT_TRANSPOSE = 1u << 9,
  NPUC_TRAIT_CAST = 1u << 10,
  NPUC_TRAIT_SYNC = 1u << 11,
};

/* A constraint of the op's `verify:` list (docs/op-tables.md, "Verifier
 * rules"): a check over named operand (or result) groups and attributes,
 * applied when its condition holds, reported with its message. */
typedef enum {
  NPUC_RULE_SAME_ELEMENT_TYPE,  /* operands: element types equal */
  NPUC_RULE_SAME_RANK,          /* operands: ranks equal */
  NPUC_RULE_SAME_SHAPE,         /* operands: compatible shapes */
  NPUC_RULE_RANK,               /* operands: rank in [min, max] */
  NPUC_RULE_PERMUTATION,        /* attr: a permutation of 0..rank(of)-1
                                   (mapping `of` onto `into` when given) */
  NPUC_RULE_DIMS_IN_RANK,       /* attr: every entry in [0, rank(of)) */
  NPUC_RULE_UNIQUE,             /* attr: no entry (or entry `key`) twice */
  NPUC_RULE_NONEMPTY,           /* attr: present and not empty */
  NPUC_RULE_MIN,                /* attr: every entry >= min */
  NPUC_RULE_LENGTH_IS_RANK,     /* attr: as many entries as rank(of) */
  NPUC_RULE_REQUIRED,           /* operands/attr: present */
  NPUC_RULE_ABSENT,             /* operands/attr: not present */
  NPUC_RULE_MEMORY_SPACE,       /* operands: memref space in/not in values */
  NPUC_RULE_PARENT,             /* the parent op is one of values */
  NPUC_RULE_REGION_BLOCKS,      /* every region has [min, max] blocks */
  NPUC_RULE_YIELD_TYPES,        /* region 0's terminator yields result types */
  NPUC_RULE_SHAPED,             /* operands (or the one at index): shaped */
  NPUC_RULE_COUNT,              /* operands: group size in [min, max] */
  NPUC_RULE_TYPE,               /* operands: type spelled as one of values */
  NPUC_RULE_SAME_CONTAINER,     /* operands: all tensors or all memrefs */
  NPUC_RULE_STATIC_SHAPE,       /* operands: no dynamic dimension */
  NPUC_RULE_DYNAMIC_DIMS,       /* operands: as many as dynamic dims of `of` */
  NPUC_RULE_AT_MOST_RANK,       /* attr: at most rank(of) entries */
  NPUC_RULE_DIMS_UNIT,          /* attr: dims of `of` it names have size 1 */
  NPUC_RULE_SWAPS,              /* attr: a permutation whose transposition
                                   count is in values ("N" or "rank:N") */
  NPUC_RULE_SAME_ELEMENT_COUNT, /* operands: static element counts equal */
  NPUC_RULE_DIVIDES,     /* attr: one integer > 0 dividing dim `dim` of each */
  NPUC_RULE_SYMBOL,      /* attr: a flat symbol reference (@name) */
  NPUC_RULE_DIM_SIZE,    /* operands: dim `dim` in [min, max] or = `of`'s */
  NPUC_RULE_SAME_LENGTH, /* attr: as many entries as `with` has */
  NPUC_RULE_OPERAND_MAP, /* attr: per-value dicts whose `field` indexes `of` */
  NPUC_RULE_IS_SHAPE,    /* attr: the static shape of `of` */
  NPUC_RULE_IN_BOUNDS,   /* attr (offsets), with (strides): `into` read
                            from `of` stays inside it */
} npuc_rule_kind;

typedef struct {
  npuc_rule_kind kind;
  char **operands; /* operand group names, NULL-terminated (or NULL) */
  char *attr;      /* the attribute checked, or NULL */
  char *of;        /* the operand group whose rank counts, or NULL */
  char *into;      /* permutation: the group `of` is permuted into */
  char *with;      /* same-length: the attribute or group compared */
  char *field;     /* operand-map: the dictionary entry holding the index */
  char *require;   /* operand-map: in-range, unique, same-type, same-value */
  int dim;         /* divides, dim-size: the dimension (default 0) */
  int of_dim;      /* dim-size: the dimension of `of` it equals */
  char **values;   /* memory spaces / parent ops, NULL-terminated */
  bool negate;     /* memory-space: not in values */
  long long min, max;
  /* Condition: when_attr present (and, with when_values, its value or
   * enum case among them); unless_attr absent. */
  char *when_attr;
  char **when_values;
  char *unless_attr;
  char *when_shaped; /* applies when this group's first value is shaped */
  char *when_scalar; /* ... or when it is not */
  int index;         /* shaped: only the group's value at this index */
  char **only_ops;   /* the rule holds for these ops only (a class's) */
  char **except_ops; /* ... or for all but these */
  /* unique over an array of dialect attributes (`#d.x<p0, p1, ..>`): the
   * parameter positions ("0", "1", ...) that may not repeat together;
   * entries with fewer parameters are not compared. NULL: whole entries. */
  char **key;
  char *message;
  int line; /* in the table, for errors about the rule itself */
} npuc_verify_rule;

/* A dialect attribute the verifier knows (`attrdefs:`): `#hivm.pipe<..>`
 * with parameters any, none, one of `values`, or `k = v` `fields`. */
typedef struct {
  char *name;
  long long min;
  bool has_min;
  bool integer;
  bool boolean; /* `true` or `false` */
  /* With a case before the fields (`#hivm.data_layout<dotA_ND,
   * transpose = true>`): the field must be given for the cases of
   * `required_for`, and may be only for those of `only_for` (NULL: any),
   * else the message (NULL-terminated lists). */
  char **required_for, **only_for;
  char *required_message, *only_message;
} npuc_attr_field;

typedef struct {
  char *mnemonic;
  enum {
    NPUC_PARAMS_NONE,
    NPUC_PARAMS_ANY,
    NPUC_PARAMS_ENUM,
    NPUC_PARAMS_FIELDS,
    NPUC_PARAMS_CASE_FIELDS /* one of `values`, then `, k = v` fields */
  } params;
  bool params_optional; /* `#hivm.block` as well as `#hivm.block<..>` */
  char **values;        /* NPUC_PARAMS_ENUM: NULL-terminated */
  npuc_attr_field *fields;
  size_t num_fields;
} npuc_attr_spec;

typedef struct {
  char *name; /* full name: "hivm.hir.vadd" */
  const char *summary;
  unsigned traits;
  npuc_value_def *operands;
  size_t num_operands;
  npuc_value_def *results;
  size_t num_results;
  npuc_attr_def *attrs;
  size_t num_attrs;
  char **regions;
  size_t num_regions;
  int dps_inits; /* index of the operand group that holds the inits, or -1 */
  npuc_fmt_elem *format;
  size_t format_len;
  const char *format_text;
  bool uses_segments; /* more than one variadic/optional operand group */
  const char *table;  /* the table file it came from */
  int table_line;
  npuc_signature *signatures; /* allowed type/attribute combinations */
  size_t num_signatures;
  npuc_verify_rule *rules; /* the `verify:` list */
  size_t num_rules;
} npuc_op_def;

typedef struct {
  char *name;         /* "hivm" */
  char **op_prefixes; /* op name prefixes it owns: "hivm.hir." */
  size_t num_op_prefixes;
  npuc_op_def *ops;
  size_t num_ops;
  /* `attrdefs:`: when any is given, every #<dialect>.x attribute must be
   * one of them. */
  npuc_attr_spec *attr_specs;
  size_t num_attr_specs;
} npuc_dialect_def;

typedef struct npuc_op_registry npuc_op_registry;

/* The registry of every table built into npuc. Loaded once, never freed
 * before exit (it is immutable after load). NULL after a table error, which
 * is reported on `sink`. */
const npuc_op_registry *npuc_builtin_op_registry(const npuc_diag_sink *sink);

/* Loading from text, for tests and --op-table overrides. */
npuc_op_registry *npuc_op_registry_create(void);
bool npuc_op_registry_load_yaml(npuc_op_registry *reg, const char *yaml,
                                size_t len, const char *filename,
                                const npuc_diag_sink *sink);
void npuc_op_registry_destroy(npuc_op_registry *reg);
/* A registry over dialects that live elsewhere (the generated tables):
 * indexed, not copied; destroying it leaves the dialects alone. */
npuc_op_registry *npuc_op_registry_over(npuc_dialect_def **dialects,
                                        size_t count);
/* Writes the registry as C data (lib/Dialect/OpTableWrite.c): what the
 * build compiles in place of parsing the YAML tables at start-up. */
bool npuc_op_registry_write_c(const npuc_op_registry *reg, FILE *out);

/* Lookup by full op name; NULL when unknown. O(1) average. */
const npuc_op_def *npuc_op_lookup(const npuc_op_registry *reg, const char *name,
                                  size_t len);
/* The dialect that owns names with this prefix ("hivm.hir.foo" -> hivm). */
const npuc_dialect_def *npuc_op_owner(const npuc_op_registry *reg,
                                      const char *name, size_t len);
/* Up to `max` known op names closest (edit distance) to `name`. */
size_t npuc_op_suggest(const npuc_op_registry *reg, const char *name,
                       size_t len, const char **out, size_t max);
/* The end of an "unknown op" message: "; did you mean 'a' or 'b'?" with
 * the closest names, or "" when none is close. Truncated to `cap`. */
void npuc_op_suggest_hint(const npuc_op_registry *reg, const char *name,
                          size_t len, char *hint, size_t cap);
size_t npuc_op_registry_num_dialects(const npuc_op_registry *reg);
const npuc_dialect_def *npuc_op_registry_dialect(const npuc_op_registry *reg,
                                                 size_t i);
/* Does this dialect name ("hivm") belong to one of our tables? */
bool npuc_is_table_dialect(const npuc_op_registry *reg, const char *ns,
                           size_t len);

/* The dialect named `ns` (len bytes) if it declares `attrdefs:`, else
 * NULL: its attributes are not checked. */
const npuc_dialect_def *npuc_attr_dialect(const npuc_op_registry *reg,
                                          const char *ns, size_t len);
/* Checks `data`, the text after `#<ns>.` (`pipe<PIPE_V>`), against d's
 * attrdefs; false with a message in msg (truncated to cap). */
bool npuc_attr_check_text(const npuc_dialect_def *d, const char *data,
                          size_t len, char *msg, size_t cap);
/* Is v (len bytes) one of the spec's `values`? */
bool npuc_attr_spec_has_value(const npuc_attr_spec *s, const char *v,
                              size_t len);
/* The dialect's spec of attribute `#<ns>.<mnemonic>`: NULL when the
 * dialect declares none of that name. */
const npuc_attr_spec *npuc_attr_spec_find(const npuc_dialect_def *d,
                                          const char *mnemonic, size_t len);

int npuc_op_find_operand(const npuc_op_def *op, const char *name);
int npuc_op_find_attr(const npuc_op_def *op, const char *name);
bool npuc_op_has_trait(const npuc_op_def *op, unsigned trait);
unsigned npuc_trait_from_name(const char *name);

#endif
