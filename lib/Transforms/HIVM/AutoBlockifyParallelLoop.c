/* auto-blockify-parallel-loop: a kernel written for one block per logical
 * block (its count marked `annotation.mark %n {logical_block_num}`, its
 * block read with `hivm.hir.get_block_idx`) is launched on at most the
 * physical cores, and loops over the logical blocks each core owns:
 *
 *   mode=strided (default)  scf.for %i = %block_idx to %n step %P
 *   mode=ceildiv            scf.for %o = 0 to ceildiv(%n, %P)
 *                             %i = %o * %P + %block_idx; scf.if %i < %n
 *
 * The ops the count depends on, the mark and get_block_idx stay before the
 * loop; everything else moves into it, reading %i for the block index. The
 * function gets `npuc.physical_block_num`, so the host launches
 * min(logical, physical) blocks. Blocks must be independent: a body that
 * synchronises blocks, updates memory atomically or reads the block count
 * is left alone with a warning. See docs/passes/auto-blockify-parallel-loop.md
 * for where this differs from AscendNPU-IR's pass. */
#include "npuc/BuildOps.h"
#include "npuc/IR.h"
#include "npuc/OpList.h"
#include "npuc/Pass.h"
#include "npuc/PtrSet.h"
#include "npuc/TargetSpec.h"

#include <stddef.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <mlir-c/Diagnostics.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const modes[] = {"strided", "ceildiv", NULL};

#define BLOCKIFY_OPTIONS(X, T)                                                 \
  X(T, const char *, mode, "mode", NPUC_OPT_ENUM, "strided", modes,            \
    "strided: from the block index to the logical count, step physical; "      \
    "ceildiv: ceildiv(logical, physical) rounds, out-of-range blocks skipped") \
  X(T, int64_t, physical_block_num, "physical-block-num", NPUC_OPT_INT, "0",   \
    NULL, "physical block count; when given, wins over the target spec")       \
  X(T, bool, emit_remarks, "emit-remarks", NPUC_OPT_BOOL, "false", NULL,       \
    "also remark on functions left alone (bishengir says nothing)")
NPUC_PASS_OPTIONS(blockify_options, BLOCKIFY_OPTIONS);

NPUC_PASS_DEFINE(
    npuc_pass_auto_blockify_parallel_loop, "auto-blockify-parallel-loop",
    "Loop device entries over their logical blocks on the physical cores",
    "builtin.module", auto_blockify, NPUC_PASS_OPTIONS_OF(blockify_options));

typedef struct {
  const npuc_op_registry *reg; /* may be null: no table traits then */
  bool ceildiv;
  int64_t physical_option; /* 0: from the target spec */
  bool remarks;            /* emit-remarks */
} config;

/* Operand `index` of `owner`: one use of the block index. */
typedef struct {
  MlirOperation owner;
  intptr_t index;
} use_ref;

/* What the survey needs to know of an op, decided once per op name. */
typedef enum {
  KIND_OTHER,
  KIND_BLOCK_IDX,
  KIND_MARK,
  KIND_STORE, /* atomic or not, by its attribute */
  KIND_TIED,  /* ties blocks together, whatever its attributes */
} op_kind;

typedef struct {
  const void *name; /* the op name's identifier */
  op_kind kind;
  const char *why; /* KIND_TIED */
} kind_entry;

#define NUM_KIND_SLOTS 64

typedef struct {
  const config *cfg;
  MlirOperation func;
  MlirBlock entry;
  MlirOperation mark;     /* annotation.mark %n {logical_block_num} */
  MlirValue logical;      /* %n */
  npuc_op_list block_idx; /* every get_block_idx of the body, walk order */
  MlirOperation illegal;  /* the first op that ties blocks together */
  const char *why_illegal;
  int64_t physical;
  int64_t size;           /* auto_blockify_size: blocks per iteration */
  npuc_ptr_map kept;      /* entry-block ops that stay before the loop */
  MlirOperation kept_idx; /* the get_block_idx that stays, or null */
  kind_entry kinds[NUM_KIND_SLOTS]; /* survey's cache, by op name */
} kernel;

/* The loop nest the body moves into. */
typedef struct {
  MlirOperation loop; /* the outer scf.for: autoblockify.subloop */
  npuc_builder body;  /* before the innermost terminator */
  MlirValue index;    /* the logical block index there (type of %n) */
} loop_nest;

static bool blockify_entry(MlirOperation func, const config *cfg);

static bool auto_blockify(MlirOperation module, const npuc_pass_options *opts,
                          const npuc_pass_context *ctx) {
  config cfg = {
      ctx ? ctx->registry : NULL,
      strcmp(NPUC_PASS_OPTS(blockify_options, opts)->mode, "ceildiv") == 0,
      NPUC_PASS_OPTS(blockify_options, opts)->physical_block_num,
      NPUC_PASS_OPTS(blockify_options, opts)->emit_remarks};
  if (npuc_pass_opt_given_field(
          opts, offsetof(blockify_options, physical_block_num)) &&
      cfg.physical_option <= 0) {
    npuc_pass_error(module, "physical-block-num must be positive, got %lld",
                    (long long)cfg.physical_option);
    return false;
  }
  size_t n;
  MlirOperation *entries = npuc_device_entries(module, &n);
  bool ok = true;
  for (size_t i = 0; i < n; i++)
    ok = blockify_entry(entries[i], &cfg) && ok;
  free(entries);
  return ok;
}

/* ---- one device entry ------------------------------------------------ */

static bool already_blockified(kernel *k);
static void survey(kernel *k);
static bool physical_block_num(kernel *k);
static bool blockify_size(kernel *k);
static bool refused(kernel *k);
static bool nothing_to_gain(kernel *k);
static bool keep_logical_slice(kernel *k);
static void rewrite(kernel *k);

/* False only on errors; refusals and no-ops leave the function as it was
 * and succeed. */
static bool blockify_entry(MlirOperation func, const config *cfg) {
  kernel k = {0};
  k.cfg = cfg;
  k.func = func;
  k.entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  k.size = 1;
  if (mlirBlockIsNull(k.entry) || already_blockified(&k))
    return true;
  survey(&k);
  bool ok = true;
  if (k.block_idx.count == 0) {
    /* No block index: every block does the same, nothing to distribute. */
  } else if (mlirOperationIsNull(k.mark)) {
    npuc_pass_error(func, "logical block number not found: mark it with "
                          "annotation.mark %%n {logical_block_num}");
    ok = false;
  } else if (!physical_block_num(&k) || !blockify_size(&k)) {
    ok = false;
  } else if (!refused(&k) && !nothing_to_gain(&k) && keep_logical_slice(&k)) {
    rewrite(&k);
  }
  free(k.block_idx.ops);
  npuc_ptr_map_free(&k.kept);
  return ok;
}

static MlirStringRef func_name(MlirOperation func) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("sym_name"));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAString(a)
             ? mlirStringAttrGetValue(a)
             : mlirStringRefCreateFromCString("?");
}

static MlirAttribute attr_of(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op,
                                         mlirStringRefCreateFromCString(name));
}

/* Running twice would loop over the loop: the marker says it was done. */
static bool already_blockified(kernel *k) {
  if (mlirAttributeIsNull(attr_of(k->func, "npuc.physical_block_num")))
    return false;
  MlirStringRef name = func_name(k->func);
  if (k->cfg->remarks)
    npuc_pass_remark(k->func,
                     "@%.*s is already blockified (npuc.physical_block_num)",
                     (int)name.length, name.data);
  return true;
}

/* ---- survey: one walk over the body --------------------------------- */

static kind_entry classify(MlirIdentifier name, const npuc_op_registry *reg);
static const char *atomic_store(MlirOperation op);

static MlirWalkResult survey_op(MlirOperation op, void *user) {
  kernel *k = user;
  if (mlirOperationEqual(op, k->func))
    return MlirWalkResultAdvance;
  MlirIdentifier name = mlirOperationGetName(op);
  /* A walk sees few distinct names: remember them by identifier. */
  size_t slot = ((uintptr_t)name.ptr >> 4) % NUM_KIND_SLOTS;
  kind_entry *e = &k->kinds[slot];
  if (e->name != name.ptr)
    *e = classify(name, k->cfg->reg);
  const char *why = e->kind == KIND_TIED    ? e->why
                    : e->kind == KIND_STORE ? atomic_store(op)
                                            : NULL;
  if (e->kind == KIND_BLOCK_IDX)
    npuc_op_list_push(&k->block_idx, op);
  else if (e->kind == KIND_MARK && mlirOperationIsNull(k->mark) &&
           mlirOperationGetNumOperands(op) == 1 &&
           !mlirAttributeIsNull(attr_of(op, "logical_block_num")))
    k->mark = op;
  if (why && mlirOperationIsNull(k->illegal)) {
    k->illegal = op;
    k->why_illegal = why;
  }
  return MlirWalkResultAdvance;
}

static void survey(kernel *k) {
  mlirOperationWalk(k->func, survey_op, k, MlirWalkPreOrder);
  if (!mlirOperationIsNull(k->mark))
    k->logical = mlirOperationGetOperand(k->mark, 0);
}

static bool name_is(MlirStringRef s, const char *name) {
  return s.length == strlen(name) && memcmp(s.data, name, s.length) == 0;
}

/* Which ops could make running a block in a loop on another core change
 * what the kernel computes, and why. */
static kind_entry classify(MlirIdentifier name, const npuc_op_registry *reg) {
  MlirStringRef n = mlirIdentifierStr(name);
  kind_entry e = {name.ptr, KIND_OTHER, NULL};
  const npuc_op_def *def = reg ? npuc_op_lookup(reg, n.data, n.length) : NULL;
  if (name_is(n, "hivm.hir.get_block_idx"))
    e.kind = KIND_BLOCK_IDX;
  else if (name_is(n, "annotation.mark"))
    e.kind = KIND_MARK;
  else if (name_is(n, "hivm.hir.store"))
    e.kind = KIND_STORE;
  else if (def && npuc_op_has_trait(def, NPUC_TRAIT_BLOCK_DEPENDENT))
    e.kind = KIND_TIED,
    e.why = "synchronises with other blocks or shares a lock with them";
  else if (npuc_strref_contains(n, "atomic"))
    e.kind = KIND_TIED,
    e.why = "is an atomic update, which combines the results of blocks";
  else if (name_is(n, "hivm.hir.get_block_num"))
    e.kind = KIND_TIED,
    e.why = "reads the launched block count, which blockifying changes";
  return e;
}

static const char *atomic_store(MlirOperation op) {
  MlirAttribute kind = attr_of(op, "atomic_kind");
  if (mlirAttributeIsNull(kind))
    return NULL;
  if (mlirAttributeIsAOpaque(kind)) {
    MlirStringRef d = mlirOpaqueAttrGetData(kind);
    static const char none[] = "<none>";
    if (d.length >= sizeof none - 1 &&
        memcmp(d.data + d.length - (sizeof none - 1), none, sizeof none - 1) ==
            0)
      return NULL;
  }
  return "is an atomic store, which combines the results of blocks";
}

/* ---- the physical block count ----------------------------------------- */

static const char *core_count_key(MlirOperation func);

/* The option wins; otherwise the target spec's count of the cores the
 * kernel runs on. */
static bool physical_block_num(kernel *k) {
  if (k->cfg->physical_option > 0) {
    k->physical = k->cfg->physical_option;
    return true;
  }
  MlirStringRef name = func_name(k->func);
  MlirLocation loc = mlirOperationGetLocation(k->func);
  const char *key = core_count_key(k->func);
  if (!key) {
    npuc_pass_error_at(loc,
                       "physical block number cannot be inferred: @%.*s "
                       "has no hivm.func_core_type and its module no "
                       "hivm.module_core_type; pass physical-block-num=N",
                       (int)name.length, name.data);
    return false;
  }
  if (!npuc_target_spec_int(k->func, NULL, key, &k->physical) ||
      k->physical <= 0) {
    npuc_pass_error_at(loc,
                       "physical block number cannot be inferred: the "
                       "target spec has no positive %s for @%.*s; pass "
                       "physical-block-num=N",
                       key, (int)name.length, name.data);
    return false;
  }
  return true;
}

/* AIV kernels run on vector cores; AIC and mix kernels, and the vector half
 * of a mix kernel, count blocks in cube cores (one cube core and its vector
 * cores form a block). NULL when the core type is unknown. */
static const char *core_count_key(MlirOperation func) {
  MlirAttribute core = attr_of(func, "hivm.func_core_type");
  for (MlirOperation p = mlirOperationGetParentOperation(func);
       mlirAttributeIsNull(core) && !mlirOperationIsNull(p);
       p = mlirOperationGetParentOperation(p))
    core = attr_of(p, "hivm.module_core_type");
  if (npuc_opaque_attr_contains(core, "<AIC>") ||
      npuc_opaque_attr_contains(core, "<MIX>"))
    return "CUBE_CORE_COUNT";
  if (npuc_opaque_attr_contains(core, "<AIV>"))
    return mlirAttributeIsNull(attr_of(func, "hivm.part_of_mix"))
               ? "VECTOR_CORE_COUNT"
               : "CUBE_CORE_COUNT";
  return NULL;
}

static int64_t type_max(MlirType t);

/* auto_blockify_size on the function: how many consecutive logical blocks
 * one iteration runs. The loop steps by physical * size in the count's
 * type, so that product must fit it. */
static bool blockify_size(kernel *k) {
  MlirAttribute a = attr_of(k->func, "auto_blockify_size");
  MlirLocation loc = mlirOperationGetLocation(k->func);
  if (!mlirAttributeIsNull(a)) {
    if (!mlirAttributeIsAInteger(a) || mlirIntegerAttrGetValueInt(a) <= 0) {
      npuc_pass_error_at(loc, "auto_blockify_size must be a positive integer");
      return false;
    }
    k->size = mlirIntegerAttrGetValueInt(a);
  }
  int64_t max = type_max(mlirValueGetType(k->logical));
  if (k->size > max / k->physical) {
    npuc_pass_error_at(loc,
                       "%lld physical blocks of %lld logical blocks each "
                       "do not fit the type of the logical block number",
                       (long long)k->physical, (long long)k->size);
    return false;
  }
  return true;
}

/* The largest value of an integer or index type (INT64_MAX otherwise: the
 * type is refused later). */
static int64_t type_max(MlirType t) {
  unsigned width = mlirTypeIsAInteger(t) ? mlirIntegerTypeGetWidth(t) : 64;
  return width >= 64 ? INT64_MAX : (int64_t)((UINT64_C(1) << (width - 1)) - 1);
}

/* ---- refusals ------------------------------------------------------------ */

static void refuse(kernel *k, MlirOperation at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static MlirOperation top_level_op(MlirValue v, MlirBlock entry);

/* Shapes this pass does not rewrite, and bodies whose blocks depend on each
 * other. Warns and returns true when the function must stay as it is. */
static bool refused(kernel *k) {
  if (!mlirOperationIsNull(k->illegal)) {
    MlirStringRef op = mlirIdentifierStr(mlirOperationGetName(k->illegal));
    refuse(k, k->illegal, "%.*s %s", (int)op.length, op.data, k->why_illegal);
    return true;
  }
  MlirType t = mlirValueGetType(k->logical);
  if (!mlirTypeIsAInteger(t) && !mlirTypeIsAIndex(t)) {
    refuse(k, k->mark, "the logical block number is not an integer");
    return true;
  }
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(k->entry))) {
    refuse(k, k->func, "the body has more than one block");
    return true;
  }
  MlirOperation ret = mlirBlockGetTerminator(k->entry);
  if (mlirOperationIsNull(ret) || !npuc_op_is(ret, "func.return") ||
      mlirOperationGetNumOperands(ret)) {
    refuse(k, mlirOperationIsNull(ret) ? k->func : ret,
           "the body must end in a func.return without operands");
    return true;
  }
  MlirBlock home =
      mlirValueIsABlockArgument(k->logical)
          ? mlirBlockArgumentGetOwner(k->logical)
          : mlirOperationGetBlock(mlirOpResultGetOwner(k->logical));
  if (!mlirBlockEqual(home, k->entry)) {
    /* It must be there before the loop starts. */
    refuse(k, k->mark,
           "the logical block number is computed inside a "
           "region, not in the function body");
    return true;
  }
  return false;
}

/* Constant counts no larger than the physical one already get a core each. */
static bool nothing_to_gain(kernel *k) {
  int64_t n;
  if (!npuc_constant_int(k->logical, &n) || n > k->physical)
    return false;
  MlirStringRef name = func_name(k->func);
  if (k->cfg->remarks)
    npuc_pass_remark(k->mark,
                     "@%.*s left unchanged: its %lld logical blocks fit on "
                     "%lld physical blocks, nothing to gain",
                     (int)name.length, name.data, (long long)n,
                     (long long)k->physical);
  return true;
}

static void refuse(kernel *k, MlirOperation at, const char *fmt, ...) {
  char why[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  MlirStringRef name = func_name(k->func);
  npuc_pass_warning(at,
                    "cannot blockify @%.*s: %s; the function is left "
                    "unchanged",
                    (int)name.length, name.data, why);
}

/* ---- what stays before the loop ------------------------------------------ */

static bool set_insert(npuc_ptr_map *s, MlirOperation op);
static bool set_has(const npuc_ptr_map *s, MlirOperation op);
static MlirWalkResult keep_operands(MlirOperation op, void *user);

typedef struct {
  kernel *k;
  npuc_op_list *work;
} slice_walk;

/* Keeps the backward slice of the logical count (through the regions of
 * kept ops too), the mark and one get_block_idx. A count that depends on
 * the block index cannot be hoisted: refused. */
static bool keep_logical_slice(kernel *k) {
  npuc_op_list work = {0};
  slice_walk w = {k, &work};
  MlirOperation root = top_level_op(k->logical, k->entry);
  if (!mlirOperationIsNull(root) && set_insert(&k->kept, root))
    npuc_op_list_push(&work, root);
  while (work.count)
    mlirOperationWalk(work.ops[--work.count], keep_operands, &w,
                      MlirWalkPreOrder);
  free(work.ops);
  for (size_t i = 0; i < k->block_idx.count; i++) {
    MlirOperation idx = k->block_idx.ops[i];
    MlirOperation top = top_level_op(mlirOperationGetResult(idx, 0), k->entry);
    if (set_has(&k->kept, top)) {
      refuse(k, k->mark,
             "the logical block number depends on the block "
             "index");
      return false;
    }
    if (mlirOperationIsNull(k->kept_idx) && mlirOperationEqual(top, idx))
      k->kept_idx = idx;
  }
  if (mlirBlockEqual(mlirOperationGetBlock(k->mark), k->entry))
    set_insert(&k->kept, k->mark);
  if (!mlirOperationIsNull(k->kept_idx))
    set_insert(&k->kept, k->kept_idx);
  return true;
}

static MlirWalkResult keep_operands(MlirOperation op, void *user) {
  slice_walk *w = user;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirOperation top =
        top_level_op(mlirOperationGetOperand(op, i), w->k->entry);
    if (!mlirOperationIsNull(top) && set_insert(&w->k->kept, top))
      npuc_op_list_push(w->work, top);
  }
  return MlirWalkResultAdvance;
}

/* The op of `entry` that defines `v` or contains its definition; null for
 * the arguments of `entry`. */
static MlirOperation top_level_op(MlirValue v, MlirBlock entry) {
  MlirOperation op;
  if (mlirValueIsABlockArgument(v)) {
    MlirBlock owner = mlirBlockArgumentGetOwner(v);
    if (mlirBlockEqual(owner, entry))
      return (MlirOperation){NULL};
    op = mlirBlockGetParentOperation(owner);
  } else {
    op = mlirOpResultGetOwner(v);
  }
  while (!mlirOperationIsNull(op) &&
         !mlirBlockEqual(mlirOperationGetBlock(op), entry))
    op = mlirOperationGetParentOperation(op);
  return op;
}

/* ---- the rewrite ----------------------------------------------------------
 */

static loop_nest build_strided(kernel *k, npuc_builder *b, MlirValue idx);
static loop_nest build_ceildiv(kernel *k, npuc_builder *b, MlirValue idx);
static void collect_uses(MlirValue v, use_ref **uses, size_t *count);
static MlirValue *index_values(kernel *k, loop_nest *nest, MlirValue idx,
                               size_t nuses);
static void mark_blockified(kernel *k, MlirOperation loop);

/* Builds the loop nest before the return, moves every op that does not
 * stay into it, and points the block index at the loop's. */
static void rewrite(kernel *k) {
  npuc_builder b = npuc_builder_before(mlirBlockGetTerminator(k->entry));
  b.loc = mlirOperationGetLocation(k->mark);
  MlirValue idx;
  use_ref *uses = NULL;
  size_t nuses = 0;
  if (mlirOperationIsNull(k->kept_idx)) {
    /* Every get_block_idx is nested: read the index once before the loop. */
    MlirType i64 = mlirIntegerTypeGet(mlirOperationGetContext(k->func), 64);
    idx = mlirOperationGetResult(
        npuc_build_op(&b, "hivm.hir.get_block_idx", 0, NULL, 1, &i64, 0, NULL),
        0);
  } else {
    idx = mlirOperationGetResult(k->kept_idx, 0);
    collect_uses(idx, &uses, &nuses); /* all in moved ops, none ours yet */
  }
  loop_nest nest =
      k->cfg->ceildiv ? build_ceildiv(k, &b, idx) : build_strided(k, &b, idx);
  MlirValue *repl = index_values(k, &nest, idx, nuses);
  /* Everything before the ops just built moves, but what stays. */
  MlirOperation next;
  for (MlirOperation op = mlirBlockGetFirstOperation(k->entry);
       !mlirOperationEqual(op, b.first); op = next) {
    next = mlirOperationGetNextInBlock(op);
    if (!set_has(&k->kept, op))
      mlirOperationMoveBefore(op, nest.body.before);
  }
  for (size_t i = 0; i < nuses; i++)
    mlirOperationSetOperand(uses[i].owner, uses[i].index,
                            repl[k->block_idx.count]);
  /* The other get_block_idx ops moved with the body: they read %i now. */
  for (size_t i = 0; i < k->block_idx.count; i++) {
    MlirOperation other = k->block_idx.ops[i];
    if (mlirOperationEqual(other, k->kept_idx))
      continue;
    if (!mlirValueIsNull(repl[i]))
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(other, 0), repl[i]);
    mlirOperationDestroy(other);
  }
  mark_blockified(k, nest.loop);
  free(repl);
  free(uses);
}

/* What each get_block_idx with uses reads from now on: the loop's index,
 * cast to its type once per type at the top of the innermost body (so
 * before the ops that move there). Entry i for block_idx.ops[i], the last
 * for the kept index. */
static MlirValue *index_values(kernel *k, loop_nest *nest, MlirValue idx,
                               size_t nuses) {
  size_t n = k->block_idx.count;
  MlirValue *repl = calloc(n + 1, sizeof *repl);
  MlirValue *cache = calloc(n + 1, sizeof *cache); /* one per type */
  if (!repl || !cache)
    abort(); /* out of memory: no way to leave the IR consistent */
  size_t ncache = 0;
  for (size_t i = 0; i <= n; i++) {
    MlirValue v = i < n ? mlirOperationGetResult(k->block_idx.ops[i], 0) : idx;
    bool kept = i < n && mlirOperationEqual(k->block_idx.ops[i], k->kept_idx);
    bool used =
        i < n ? !mlirOpOperandIsNull(mlirValueGetFirstUse(v)) : nuses > 0;
    if (kept || !used)
      continue;
    MlirType type = mlirValueGetType(v);
    size_t c = 0;
    while (c < ncache && !mlirTypeEqual(mlirValueGetType(cache[c]), type))
      c++;
    if (c == ncache)
      cache[ncache++] = npuc_build_int_cast(&nest->body, nest->index, type);
    repl[i] = cache[c];
  }
  free(cache);
  return repl;
}

/* The loop for later passes (the anchor's marker), the count for the
 * host's launch. */
static void mark_blockified(kernel *k, MlirOperation loop) {
  MlirContext ctx = mlirOperationGetContext(k->func);
  mlirOperationSetAttributeByName(
      loop, mlirStringRefCreateFromCString("autoblockify.subloop"),
      mlirUnitAttrGet(ctx));
  mlirOperationSetAttributeByName(
      k->func, mlirStringRefCreateFromCString("npuc.physical_block_num"),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), k->physical));
}

/* for %i = %idx*S to %n step P*S; with S > 1 an inner loop runs
 * %i .. min(%i + S, %n). Every index it yields is below %n. */
static loop_nest build_strided(kernel *k, npuc_builder *b, MlirValue idx) {
  MlirType t = mlirValueGetType(k->logical);
  MlirValue step = npuc_build_int_constant(b, t, k->physical * k->size);
  MlirValue lb = npuc_build_int_cast(b, idx, t);
  MlirValue size = {NULL};
  if (k->size > 1) {
    size = npuc_build_int_constant(b, t, k->size);
    lb = npuc_build_binary(b, "arith.muli", lb, size);
  }
  loop_nest nest;
  nest.loop = npuc_build_for(b, lb, k->logical, step);
  nest.body = npuc_builder_in_body(nest.loop, 0);
  nest.index = mlirBlockGetArgument(nest.body.block, 0);
  if (k->size > 1) {
    MlirValue end = npuc_build_binary(
        &nest.body, "arith.minsi",
        npuc_build_binary(&nest.body, "arith.addi", nest.index, size),
        k->logical);
    MlirValue one = npuc_build_int_constant(&nest.body, t, 1);
    MlirOperation inner = npuc_build_for(&nest.body, nest.index, end, one);
    nest.body = npuc_builder_in_body(inner, 0);
    nest.index = mlirBlockGetArgument(nest.body.block, 0);
  }
  return nest;
}

/* The seed's form: for %o = 0 to ceildiv(%n, P*S), block %o*P + %idx, its
 * S logical blocks from (%o*P + %idx)*S. The last round may run past %n,
 * so the body is guarded with %i < %n unless %n is a constant multiple of
 * P*S. */
static loop_nest build_ceildiv(kernel *k, npuc_builder *b, MlirValue idx) {
  MlirType t = mlirValueGetType(k->logical);
  MlirValue zero = npuc_build_int_constant(b, t, 0);
  MlirValue phys = npuc_build_int_constant(b, t, k->physical);
  MlirValue chunk = phys, size = {NULL};
  if (k->size > 1) {
    size = npuc_build_int_constant(b, t, k->size);
    chunk = npuc_build_int_constant(b, t, k->physical * k->size);
  }
  MlirValue rounds = npuc_build_binary(b, "arith.ceildivsi", k->logical, chunk);
  MlirValue one = npuc_build_int_constant(b, t, 1);
  MlirValue block = npuc_build_int_cast(b, idx, t);
  loop_nest nest;
  nest.loop = npuc_build_for(b, zero, rounds, one);
  nest.body = npuc_builder_in_body(nest.loop, 0);
  nest.index = npuc_build_binary(
      &nest.body, "arith.addi",
      npuc_build_binary(&nest.body, "arith.muli",
                        mlirBlockGetArgument(nest.body.block, 0), phys),
      block);
  if (k->size > 1) {
    MlirValue base =
        npuc_build_binary(&nest.body, "arith.muli", nest.index, size);
    MlirOperation inner = npuc_build_for(&nest.body, zero, size, one);
    nest.body = npuc_builder_in_body(inner, 0);
    nest.index = npuc_build_binary(&nest.body, "arith.addi", base,
                                   mlirBlockGetArgument(nest.body.block, 0));
  }
  int64_t n;
  bool exact =
      npuc_constant_int(k->logical, &n) && n % (k->physical * k->size) == 0;
  if (!exact) {
    MlirValue in_range =
        npuc_build_cmpi(&nest.body, NPUC_CMPI_SLT, nest.index, k->logical);
    MlirOperation guard = npuc_build_if(&nest.body, in_range);
    nest.body = npuc_builder_in_body(guard, 0);
  }
  return nest;
}

static void collect_uses(MlirValue v, use_ref **uses, size_t *count) {
  size_t cap = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    if (*count == cap) {
      cap = cap ? 2 * cap : 8;
      use_ref *grown = realloc(*uses, cap * sizeof *grown);
      if (!grown)
        abort(); /* out of memory: no way to leave the IR consistent */
      *uses = grown;
    }
    (*uses)[(*count)++] =
        (use_ref){mlirOpOperandGetOwner(u), mlirOpOperandGetOperandNumber(u)};
  }
}

/* ---- small helpers ----------------------------------------------------- */

/* Adds `op`; false when it was there already. */
static bool set_insert(npuc_ptr_map *s, MlirOperation op) {
  uintptr_t seen;
  if (mlirOperationIsNull(op))
    return true;
  if (npuc_ptr_map_get(s, op.ptr, &seen))
    return false;
  if (!npuc_ptr_map_put(s, op.ptr, 1))
    abort(); /* out of memory: no way to leave the IR consistent */
  return true;
}

static bool set_has(const npuc_ptr_map *s, MlirOperation op) {
  uintptr_t seen;
  return !mlirOperationIsNull(op) && npuc_ptr_map_get(s, op.ptr, &seen);
}
