/* tx8-sharding: splits each tx8be.group over the tiles and in time by a
 * cost-model search (the seed's GroupCostPass with DataSplit). A group
 * holds a DAG of compute ops; its plan (npuc/Tx8Group.h) names the anchor
 * output whose slices drive the loop and the anchor dimensions every op
 * of the group allows to split across tiles (shard) and in time (split).
 * Per group:
 *   1. the sharding space: every factorization of the group's tiles over
 *      the shardable anchor dimensions (each clipped to the dimension),
 *      plus no sharding, ordered by the tiles they keep busy; a
 *      tile_parallel with sharding_is_given = true is the only one (after
 *      checking it);
 *   2. per sharding, the temporal splits: the largest slice that fits SPM
 *      (outermost dimension first), then every split of the splittable
 *      dimensions into 1, 2, 4, ... slices per tile;
 *   3. each candidate is dropped when one slice's buffers do not fit SPM,
 *      else costed: the busiest tile's cycles with load, compute and
 *      store overlapped per slice (group_cost); the cheapest wins, the
 *      earlier on a tie (deterministic);
 *   4. a group with the same ops, operand and result types and attributes
 *      as one searched before (the seed's GroupKey / template_id) takes
 *      that one's decision without a search.
 * Writes tile_parallel (shape_spatial_sharding) and dev_info
 * (temporal_mem_slice) on the anchor's compute op, dev_info (mem_addr, the
 * slice of its result) on every compute op and spm_alloc_size on the
 * group; skips DDR-only groups (group_tag 2 without a compute op).
 * docs/passes/tx8-sharding.md. */
#include "Tx8Options.h"
#include "Tx8SpmAllocGroup.h"
#include "npuc/Alloc.h"
#include "npuc/BuildOps.h"
#include "npuc/Checked.h"
#include "npuc/IR.h"
#include "npuc/OpList.h"
#include "npuc/Pass.h"
#include "npuc/PtrSet.h"
#include "npuc/StringBuilder.h"
#include "npuc/Tx8DdrCost.h"
#include "npuc/Tx8Group.h"
#include "npuc/Tx8LoopCost.h"
#include "npuc/Tx8NocCost.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHARDING_OPTIONS(X, T)                                                 \
  TX8_OPTION_TARGET_CONFIG(X, T)                                               \
  TX8_OPTION_SPM_BYTES(X, T)                                                   \
  X(T, int64_t, search_budget, "search-budget", NPUC_OPT_INT, "4096", NULL,    \
    "candidates (sharding x split) costed per group at most; past it the "     \
    "search keeps the best one found (at least 1)")                            \
  X(T, bool, search_report, "search-report", NPUC_OPT_BOOL, "false", NULL,     \
    "print each group's candidates and their estimated cycles to stderr")
NPUC_PASS_OPTIONS(sharding_options, SHARDING_OPTIONS);

NPUC_PASS_DEFINE(
    npuc_pass_tx8_sharding, "tx8-sharding",
    "Split each TX8 group across the tiles and into temporal slices that "
    "fit SPM, by a cost-model search",
    "builtin.module", run_sharding, NPUC_PASS_OPTIONS_OF(sharding_options));

typedef struct {
  int32_t sharding[NPUC_TX8_MAX_RANK];
  int32_t slice[NPUC_TX8_MAX_RANK];
  int32_t k_slice; /* the reduce split's K slice; 0: none */
  int32_t k_ways;  /* its tiles across K (reduce_sharding); 1: none */
  int64_t spm_bytes;
  int64_t offsets[NPUC_TX8_MAX_BUFFERS + 1];
} decision;

/* One group's search: its inputs, the best candidate so far, and the
 * smallest SPM need seen (for the error when nothing fits). */
typedef struct {
  const npuc_tx8_group_plan *p;
  npuc_tx8_group_plan *kp;      /* p with its gemm's K split, or NULL */
  npuc_tx8_group_plan *k_store; /* room for kp */
  int k_op;                     /* the gemm that may be K-split, or -1 */
  MlirOperation ways_op;        /* the gemm of a given reduce_sharding */
  const npuc_tx8_target *t;
  int64_t spm, budget, tried;
  int32_t tiles;
  bool report;
  double best_cost;
  int32_t best_sharding[NPUC_TX8_MAX_RANK], best_slice[NPUC_TX8_MAX_RANK];
  int32_t best_k, best_ways;
  bool best_staged;   /* the code generator's staged loop (sp_stage_num 3) */
  int32_t given_ways; /* a given reduce_sharding (with a given sharding) */
  int64_t least_bytes;
  int32_t least_sharding[NPUC_TX8_MAX_RANK], least_slice[NPUC_TX8_MAX_RANK];
  /* The DDR layout of each group operand (the first NPUC_TX8_MAX_BUFFERS)
   * and each stored result: the DMA's cost depends on it. */
  npuc_tx8_layout_mode operand_mode[NPUC_TX8_MAX_BUFFERS];
  npuc_tx8_layout_mode store_mode[NPUC_TX8_MAX_STORES];
} search;

/* The template cache: a key per searched group (its text, hashed) to its
 * decision. */
typedef struct {
  char *key;
  int32_t sharding[NPUC_TX8_MAX_RANK], slice[NPUC_TX8_MAX_RANK], k_slice;
  int32_t k_ways;
  bool staged;
  MlirOperation group; /* the group searched */
} template_entry;

typedef struct {
  npuc_ptr_map by_hash; /* hash | 1 -> entry index + 1 */
  template_entry *entries;
  size_t count, cap;
} template_cache;

typedef struct {
  const npuc_tx8_target *t;
  int64_t spm, budget;
  bool report;
  template_cache cache;
} run_state;

static unsigned group_op(MlirOperation op, void *user);
static bool check_options(MlirOperation module, const sharding_options *o);
static bool shard_group(MlirOperation group, run_state *rs);
static void cache_free(template_cache *c);

static bool run_sharding(MlirOperation module, const npuc_pass_options *opts,
                         const npuc_pass_context *ctx) {
  (void)ctx;
  const sharding_options *o = NPUC_PASS_OPTS(sharding_options, opts);
  npuc_tx8_target target;
  if (!check_options(module, o) ||
      !npuc_tx8_pass_target(module, "tx8-sharding", o->target_config, &target))
    return false;
  run_state rs = {&target,
                  o->spm_bytes > 0 ? o->spm_bytes : target.spm_bytes,
                  o->search_budget,
                  o->search_report,
                  {{0}, NULL, 0, 0}};
  npuc_op_list list = {0};
  npuc_op_list_collect(module, MlirWalkPreOrder, group_op, NULL, &list);
  bool ok = true;
  for (size_t i = 0; i < list.count && ok; ++i)
    ok = shard_group(list.ops[i], &rs);
  npuc_op_list_free(&list);
  cache_free(&rs.cache);
  return ok;
}

static unsigned group_op(MlirOperation op, void *user) {
  (void)user;
  char name[64];
  if (strcmp(npuc_tx8_op_name(op, name, sizeof name), "tx8be.group") != 0)
    return NPUC_OP_PASS;
  return NPUC_OP_KEEP | NPUC_OP_SKIP_REGIONS; /* groups do not nest */
}

static bool check_options(MlirOperation module, const sharding_options *o) {
  if (o->spm_bytes < 0) {
    npuc_pass_error(module,
                    "spm-bytes must be 0 (the target's) or "
                    "positive, not %lld",
                    (long long)o->spm_bytes);
    return false;
  }
  if (o->search_budget < 1) {
    npuc_pass_error(module,
                    "search-budget must be at least 1, not "
                    "%lld",
                    (long long)o->search_budget);
    return false;
  }
  return true;
}

/* ---- one group
 * ----------------------------------------------------------------- */

static bool template_key(MlirOperation group, npuc_sb *key);
static const template_entry *cache_find(const template_cache *c,
                                        const char *key, uint64_t *hash);
static void cache_add(template_cache *c, char *key, uint64_t hash,
                      const search *s, MlirOperation group);
static bool search_group(search *s);
static void report_group(const search *s, const template_entry *hit);
static bool finish_decision(const npuc_tx8_group_plan *p, int64_t spm,
                            decision *d);
static void write_attrs(const npuc_tx8_group_plan *p, const decision *d,
                        int32_t tiles);

static bool decide(search *s, MlirOperation group, run_state *rs);
static bool apply_decision(const search *s, MlirOperation group, run_state *rs);
static void ddr_modes(search *s, MlirOperation group);

/* The K ways across tiles a gemm of the group carries
 * (`reduce_sharding`; -1 when not a positive integer, 0 when absent),
 * taken off every op: this pass decides them again unless the sharding is
 * given (then they are given too). */
static int32_t take_reduce_sharding(MlirOperation op, MlirOperation *where) {
  int32_t ways = 0;
  MlirStringRef name = mlirStringRefCreateFromCString("reduce_sharding");
  for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute a = mlirOperationGetAttributeByName(op, name);
    if (mlirAttributeIsNull(a))
      continue;
    int64_t v = mlirAttributeIsAInteger(a) ? mlirIntegerAttrGetValueInt(a) : -1;
    ways = v < 1 || v > INT32_MAX ? -1 : (int32_t)v;
    *where = op;
    mlirOperationRemoveAttributeByName(op, name);
  }
  return ways;
}

/* An earlier run's tile_parallel (not given) is searched again: off the
 * ops before the plan is built, which would otherwise read its decision
 * (the buffers it keeps invariant: a whole-output decision, such as K
 * across all the tiles, would make every load look invariant to the
 * search). write_attrs writes the new one. False after the located
 * error of a malformed one. */
static bool drop_searched_sharding(MlirOperation op) {
  for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    npuc_tx8_parallel_attr par;
    npuc_tx8_attr_status st =
        npuc_tx8_op_parallel_attr(op, "tile_parallel", &par);
    if (st == NPUC_TX8_ATTR_MALFORMED)
      return false;
    if (st == NPUC_TX8_ATTR_PRESENT && !par.sharding_is_given)
      mlirOperationRemoveAttributeByName(
          op, mlirStringRefCreateFromCString("tile_parallel"));
  }
  return true;
}

/* The anchor's tile_parallel says sharding_is_given = true. */
static bool sharding_given(const npuc_tx8_group_plan *p) {
  npuc_tx8_parallel_attr given;
  return npuc_tx8_op_parallel_attr(p->compute, "tile_parallel", &given) ==
             NPUC_TX8_ATTR_PRESENT &&
         given.sharding_is_given;
}

/* The plans live on the heap: each holds up to 128 buffers. */
static bool shard_group(MlirOperation group, run_state *rs) {
  if (npuc_tx8_group_is_ddr_only(group))
    return true; /* works in DDR: no tiles, no SPM */
  /* This pass decides the reduce split: an earlier run's is searched
   * again. */
  MlirOperation gemm = npuc_tx8_group_compute_op(group), ways_op = {NULL};
  int32_t ways = take_reduce_sharding(gemm, &ways_op);
  if (!drop_searched_sharding(gemm))
    return false; /* a malformed tile_parallel, reported */
  for (; !mlirOperationIsNull(gemm); gemm = mlirOperationGetNextInBlock(gemm))
    mlirOperationRemoveAttributeByName(
        gemm, mlirStringRefCreateFromCString("reduce_split"));
  npuc_tx8_group_plan *plan = npuc_xmalloc(2 * sizeof *plan);
  bool ok = npuc_tx8_group_plan_build(group, &plan[0]);
  int32_t tiles = ok ? npuc_tx8_group_tiles(group, rs->t) : 0;
  search s = {.p = &plan[0],
              .t = rs->t,
              .spm = rs->spm,
              .budget = rs->budget,
              .tiles = tiles,
              .report = rs->report,
              .best_cost = -1,
              .least_bytes = -1,
              .k_store = &plan[1],
              .k_op = ok ? npuc_tx8_group_reduce_candidate(&plan[0]) : -1};
  if (ok)
    ddr_modes(&s, group);
  if (ok && ways != 0 && sharding_given(&plan[0])) {
    s.given_ways = ways;
    s.ways_op = ways_op;
  }
  ok =
      ok && tiles > 0 && decide(&s, group, rs) && apply_decision(&s, group, rs);
  free(plan);
  return ok;
}

/* The template's decision, else the search's; the report. */
static bool decide(search *s, MlirOperation group, run_state *rs) {
  npuc_sb key = {0};
  uint64_t hash = 0;
  const template_entry *hit = NULL;
  if (template_key(group, &key)) {
    npuc_sb_printf(&key, "reduce_sharding=%d;", (int)s->given_ways);
    hit = cache_find(&rs->cache, key.data, &hash);
  }
  if (hit) {
    memcpy(s->best_sharding, hit->sharding, sizeof s->best_sharding);
    memcpy(s->best_slice, hit->slice, sizeof s->best_slice);
    s->best_k = hit->k_slice;
    s->best_ways = hit->k_ways;
    s->best_staged = hit->staged;
    s->best_cost = 0;
  } else {
    /* The plan with a K split only for a search: a template needs none. */
    bool ok = s->k_op < 0 ||
              npuc_tx8_group_plan_build_reduce(group, s->k_op, 1, s->k_store);
    s->kp = s->k_op >= 0 ? s->k_store : NULL;
    if (!ok || !search_group(s)) {
      npuc_sb_free(&key);
      return false;
    }
  }
  if (s->report)
    report_group(s, hit);
  if (!hit && key.data)
    cache_add(&rs->cache, npuc_sb_take(&key), hash, s, group);
  npuc_sb_free(&key);
  return true;
}

/* The software pipeline's stages on the group (the seed's sp_stage_num):
 * 3 when the estimate chose the code generator's staged loop
 * (npuc_tx8_loop_stage_cut), else none (the loop of one stage and a
 * retracted head). */
static void write_stages(MlirOperation group, bool staged) {
  MlirStringRef name = mlirStringRefCreateFromCString("sp_stage_num");
  if (!staged) {
    mlirOperationRemoveAttributeByName(group, name);
    return;
  }
  MlirContext ctx = mlirOperationGetContext(group);
  mlirOperationSetAttributeByName(
      group, name, mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), 3));
}

/* The attributes of the chosen candidate, on the plan with its reduce
 * split (rebuilt from the gemm's reduce_split) when it has one. */
static bool apply_decision(const search *s, MlirOperation group,
                           run_state *rs) {
  decision d;
  memset(&d, 0, sizeof d);
  memcpy(d.sharding, s->best_sharding, sizeof d.sharding);
  memcpy(d.slice, s->best_slice, sizeof d.slice);
  d.k_slice = s->best_k;
  d.k_ways = s->best_ways > 1 ? s->best_ways : 1;
  const npuc_tx8_group_plan *p = s->p;
  if (d.k_slice > 0 && s->k_op >= 0) {
    npuc_tx8_group_plan *kp = s->k_store;
    MlirOperation gemm = s->p->ops[s->k_op].op;
    MlirContext ctx = mlirOperationGetContext(gemm);
    mlirOperationSetAttributeByName(
        gemm, mlirStringRefCreateFromCString("reduce_split"),
        mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), d.k_slice));
    if (d.k_ways > 1)
      mlirOperationSetAttributeByName(
          gemm, mlirStringRefCreateFromCString("reduce_sharding"),
          mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), d.k_ways));
    if (!npuc_tx8_group_plan_build(group, kp))
      return false;
    p = kp;
  }
  if (!finish_decision(p, rs->spm, &d))
    return false;
  write_stages(group, s->best_staged);
  write_attrs(p, &d, s->tiles);
  return true;
}

/* The DDR layout of what the group reads and writes: a group's result as
 * its tx8be.store_var keeps it, a graph input or constant as
 * tx8-const-norm laid it out (npuc_tx8_value_ddr_layout: weights in Cx),
 * as the code generator places them. */
static npuc_tx8_layout_mode value_ddr_mode(MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return npuc_tx8_value_ddr_layout(v);
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!npuc_op_is(def, "tx8be.group"))
    return npuc_tx8_value_ddr_layout(v);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(def, 0));
  /* The last op: tx8be.return (mlirBlockGetTerminator wants a registered
   * terminator, which an op of ours is not: it found none, and every
   * group result read as compact). */
  MlirOperation ret = {NULL};
  for (MlirOperation op = mlirBlockIsNull(body)
                              ? (MlirOperation){NULL}
                              : mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    ret = op;
  intptr_t r = mlirOpResultGetResultNumber(v);
  if (mlirOperationIsNull(ret) || r >= mlirOperationGetNumOperands(ret))
    return NPUC_TX8_TENSOR;
  MlirValue stored = mlirOperationGetOperand(ret, r);
  return mlirValueIsAOpResult(stored)
             ? npuc_tx8_op_mem_layout(mlirOpResultGetOwner(stored))
             : NPUC_TX8_TENSOR;
}

static void ddr_modes(search *s, MlirOperation group) {
  intptr_t n = mlirOperationGetNumOperands(group);
  for (intptr_t i = 0; i < n && i < NPUC_TX8_MAX_BUFFERS; ++i)
    s->operand_mode[i] = value_ddr_mode(mlirOperationGetOperand(group, i));
  for (int st = 0; st < s->p->num_stores; ++st)
    s->store_mode[st] = npuc_tx8_op_mem_layout(s->p->stores[st].op);
}

static int32_t ceil_div(int64_t a, int64_t b) {
  return (int32_t)((a + b - 1) / b);
}

/* Ways a dimension of `size` splits over `tiles` in equal chunks. */
static int32_t ways_over(int64_t size, int32_t tiles) {
  int32_t chunk = ceil_div(size, tiles);
  return ceil_div(size, chunk);
}

static void slice_text(char *buf, size_t cap, const int32_t *v, int rank) {
  size_t n = 0;
  buf[0] = '\0';
  for (int i = 0; i < rank && n < cap; ++i)
    n += (size_t)snprintf(buf + n, cap - n, "%s%d", i ? "x" : "", v[i]);
}

/* The decision's SPM bytes and offsets (the bump placement the code
 * generator falls back on); the cache's decision is checked against this
 * SPM too (another spm-bytes, another fit). */
static bool finish_decision(const npuc_tx8_group_plan *p, int64_t spm,
                            decision *d) {
  d->spm_bytes = npuc_tx8_group_spm_bytes(p, d->slice, d->offsets);
  if (d->spm_bytes <= spm && d->spm_bytes <= UINT32_MAX)
    return true;
  char slice[128];
  slice_text(slice, sizeof slice, d->slice, p->out.rank);
  npuc_pass_error(p->compute,
                  "%s: the group does not fit SPM: a %s slice needs %lld "
                  "bytes per tile, SPM has %lld",
                  p->compute_name, slice, (long long)d->spm_bytes,
                  (long long)spm);
  return false;
}

/* ---- the search
 * ---------------------------------------------------------------- */

static bool check_given(const npuc_tx8_group_plan *p,
                        const npuc_tx8_parallel_attr *given, int32_t tiles,
                        int32_t *sharding);
static int sharding_space(const search *s, int32_t (*out)[NPUC_TX8_MAX_RANK],
                          int cap);
static void search_splits(search *s, const int32_t *sharding);
static bool search_k_ways(search *s, const int32_t *given,
                          int32_t (*space)[NPUC_TX8_MAX_RANK], int cap);
static void no_fit_error(const search *s);

/* Every sharding of the space (or the given one), every split of each. */
static bool search_group(search *s) {
  const npuc_tx8_group_plan *p = s->p;
  npuc_tx8_parallel_attr given;
  enum { SPACE_CAP = 512 };
  int32_t(*space)[NPUC_TX8_MAX_RANK] = npuc_xcalloc(SPACE_CAP, sizeof *space);
  int n = 0;
  switch (npuc_tx8_op_parallel_attr(p->compute, "tile_parallel", &given)) {
  case NPUC_TX8_ATTR_MALFORMED: free(space); return false;
  case NPUC_TX8_ATTR_PRESENT:
    if (given.sharding_is_given) {
      if (!check_given(p, &given, s->tiles, space[0])) {
        free(space);
        return false;
      }
      n = 1;
    }
    break;
  case NPUC_TX8_ATTR_ABSENT: break;
  }
  bool is_given = n > 0;
  if (n == 0)
    n = sharding_space(s, space, SPACE_CAP);
  for (int i = 0; i < n && s->given_ways == 0; ++i)
    search_splits(s, space[i]);
  if ((s->given_ways != 0 || (!is_given && s->kp)) &&
      !search_k_ways(s, is_given ? space[0] : NULL, space, SPACE_CAP)) {
    free(space);
    return false;
  }
  free(space);
  if (s->best_cost >= 0)
    return true;
  no_fit_error(s);
  return false;
}

static void no_fit_error(const search *s) {
  const npuc_tx8_group_plan *p = s->p;
  char sharding[128], slice[128];
  slice_text(sharding, sizeof sharding, s->least_sharding, p->out.rank);
  slice_text(slice, sizeof slice, s->least_slice, p->out.rank);
  npuc_pass_error(p->compute,
                  "%s: the group does not fit SPM even at the finest split: "
                  "of %lld candidates the smallest (sharding %s, a %s slice) "
                  "needs %lld bytes per tile, SPM has %lld",
                  p->compute_name, (long long)s->tried, sharding, slice,
                  (long long)s->least_bytes, (long long)s->spm);
}

/* ---- the sharding space (the seed's getShardings and getFactor) */

typedef struct {
  const npuc_tx8_group_plan *p;
  int32_t tiles;
  int32_t cur[NPUC_TX8_MAX_RANK];
  int32_t (*out)[NPUC_TX8_MAX_RANK];
  int count, cap;
} factorizer;

static int32_t busy_tiles(const npuc_tx8_group_plan *p, const int32_t *ways);

/* Adds cur, each dimension clipped to its length, unless already there. */
static void add_sharding(factorizer *f) {
  int rank = f->p->out.rank;
  int32_t ways[NPUC_TX8_MAX_RANK];
  for (int d = 0; d < rank; ++d)
    ways[d] = ways_over(f->p->out.dims[d], f->cur[d]);
  for (int i = 0; i < f->count; ++i)
    if (!memcmp(f->out[i], ways, (size_t)rank * sizeof ways[0]))
      return;
  if (f->count < f->cap)
    memcpy(f->out[f->count++], ways, sizeof ways);
}

/* Every cur with the product of its entries `left` ways over dimensions
 * d.. (shardable ones only): depth at most the rank. */
static void factorize(factorizer *f, int d, int32_t left) {
  int rank = f->p->out.rank;
  if (d == rank) {
    if (left == 1)
      add_sharding(f);
    return;
  }
  if (!(f->p->shard_axes & (1u << d))) {
    f->cur[d] = 1;
    factorize(f, d + 1, left);
    return;
  }
  for (int32_t w = left; w >= 1; --w) /* the outer dimensions first */
    if (left % w == 0) {
      f->cur[d] = w;
      factorize(f, d + 1, left / w);
    }
  f->cur[d] = 1;
}

/* The shardings, the most busy tiles first (stable: generation order on
 * a tie, the outer dimensions sharded first). */
static int sharding_space(const search *s, int32_t (*out)[NPUC_TX8_MAX_RANK],
                          int cap) {
  factorizer f = {.p = s->p, .tiles = s->tiles, .out = out, .cap = cap};
  for (int d = 0; d < NPUC_TX8_MAX_RANK; ++d)
    f.cur[d] = 1;
  factorize(&f, 0, s->tiles);
  for (int d = 0; d < NPUC_TX8_MAX_RANK; ++d)
    f.cur[d] = 1;
  add_sharding(&f);                   /* no sharding */
  for (int i = 1; i < f.count; ++i) { /* insertion sort: stable, small */
    int32_t key[NPUC_TX8_MAX_RANK];
    memcpy(key, out[i], sizeof key);
    int32_t busy = busy_tiles(s->p, key);
    int j = i - 1;
    while (j >= 0 && busy_tiles(s->p, out[j]) < busy) {
      memcpy(out[j + 1], out[j], sizeof key);
      --j;
    }
    memcpy(out[j + 1], key, sizeof key);
  }
  return f.count;
}

static int32_t busy_tiles(const npuc_tx8_group_plan *p, const int32_t *ways) {
  int32_t n = 1;
  for (int d = 0; d < p->out.rank; ++d)
    n *= ways[d];
  return n;
}

static bool check_given(const npuc_tx8_group_plan *p,
                        const npuc_tx8_parallel_attr *given, int32_t tiles,
                        int32_t *sharding) {
  const npuc_tx8_shape *out = &p->out;
  const npuc_tx8_list *s = &given->shape_spatial_sharding;
  if (s->len != out->rank) {
    npuc_pass_error(p->compute,
                    "%s: the given shape_spatial_sharding has %d "
                    "entries for a rank-%d result",
                    p->compute_name, s->len, out->rank);
    return false;
  }
  int64_t product = 1;
  for (int i = 0; i < out->rank; ++i) {
    if (s->v[i] < 1 || s->v[i] > out->dims[i] ||
        (s->v[i] > 1 && !(p->shard_axes & (1u << i)))) {
      npuc_pass_error(p->compute,
                      "%s: the given sharding splits dimension %d "
                      "%lld ways, which the slice rules of the group's "
                      "ops do not allow",
                      p->compute_name, i, (long long)s->v[i]);
      return false;
    }
    sharding[i] = (int32_t)s->v[i];
    product *= s->v[i];
  }
  if (product > tiles) {
    npuc_pass_error(p->compute,
                    "%s: the given sharding needs %lld tiles, the "
                    "group has %d",
                    p->compute_name, (long long)product, tiles);
    return false;
  }
  return true;
}

/* ---- the splits of one sharding (the seed's TileSplit, getNextSplit) */

static void try_candidate(search *s, const int32_t *sharding,
                          const int32_t *slice);
static void try_candidate_on(search *s, const npuc_tx8_group_plan *p,
                             const int32_t *sharding, const int32_t *slice);
static void try_k_splits(search *s, const int32_t *sharding,
                         const int32_t *slice);
static void largest_fitting_split(const search *s, const int32_t *sharding,
                                  int32_t *slice);

/* Slice counts a stageable group tries one by one, past them doubling. */
#define FINE_COUNTS 8

/* The count after `count` slices of a part of `part`: doubling, or with
 * `fine` the next one up to FINE_COUNTS whose slices are shorter. */
static int32_t next_count(int32_t part, int32_t count, bool fine) {
  int32_t n = count * 2;
  if (fine && count < FINE_COUNTS) {
    n = count + 1;
    while (n < part && ceil_div(part, n) == ceil_div(part, count))
      ++n;
  }
  return n < part ? n : part;
}

/* The next split in an odometer over the splittable dimensions, each cut
 * into 1, 2, 4, ... slices of the tile's part (`fine`: 1, 2, 3, ... 8,
 * then 16, 32, ...): false after the last. */
static bool next_split(const search *s, const int32_t *part, int32_t *count,
                       bool fine) {
  const npuc_tx8_group_plan *p = s->p;
  for (int d = p->out.rank - 1; d >= 0; --d) {
    if (!(p->split_axes & (1u << d)) || part[d] <= 1)
      continue;
    if (count[d] < part[d]) {
      count[d] = next_count(part[d], count[d], fine);
      return true;
    }
    count[d] = 1;
  }
  return false;
}

static void search_splits(search *s, const int32_t *sharding) {
  const npuc_tx8_group_plan *p = s->p;
  int rank = p->out.rank;
  int32_t part[NPUC_TX8_MAX_RANK], count[NPUC_TX8_MAX_RANK];
  int32_t slice[NPUC_TX8_MAX_RANK];
  if (s->tried >= s->budget && s->best_cost >= 0)
    return; /* the budget is spent */
  /* The staged loop walks balanced slices (npuc_tx8_gshape_balance), so
   * a count between two powers of two is no longer a short last slice:
   * 28 rows in 5 slices are 5, 5, 6, 6, 6. */
  bool fine = npuc_tx8_loop_stage_cut(p) >= 0;
  for (int d = 0; d < rank; ++d) {
    part[d] = ceil_div(p->out.dims[d], sharding[d]);
    count[d] = 1;
  }
  /* The coarsest slice that fits first: always a feasible candidate. */
  int32_t first[NPUC_TX8_MAX_RANK];
  largest_fitting_split(s, sharding, first);
  try_candidate(s, sharding, first);
  do {
    if (s->tried >= s->budget && s->best_cost >= 0)
      return;
    for (int d = 0; d < rank; ++d)
      slice[d] = ceil_div(part[d], count[d]);
    if (memcmp(slice, first, (size_t)rank * sizeof *slice) != 0)
      try_candidate(s, sharding, slice);
    try_k_splits(s, sharding, slice);
  } while (next_split(s, part, count, fine));
}

/* The gemm's K in 2, 4, ... slices of at least one NE instruction's K
 * (the seed's reduceSplit, partial sums in SPM), with this split. */
static void try_k_splits(search *s, const int32_t *sharding,
                         const int32_t *slice) {
  if (!s->kp)
    return;
  int32_t len = s->kp->reduce_len;
  s->kp->reduce_ways = 1;
  for (int32_t n = 2; n <= len; n *= 2) {
    int32_t k = ceil_div(len, n);
    if (k < s->t->ne_k || (s->tried >= s->budget && s->best_cost >= 0))
      return;
    s->kp->reduce_slice = k;
    try_candidate_on(s, s->kp, sharding, slice);
  }
}

/* ---- the reduce split across tiles (the seed's SHARDING_MODE 1 and 2) */

static bool check_given_ways(const search *s, const int32_t *given);
static void search_k_splits(search *s, const int32_t *sharding, int32_t ways);

/* K over a team of `ways` tiles (the group's tiles down to 2, dividing
 * them: the fewest shardings of the rest first, as the budget may end the
 * search), each tile's part of K at least one NE instruction's K, with
 * every sharding of the rest of the tiles over the output (or the given
 * one and the given ways): the candidates a tile's partial sums are
 * reduced across its team for. False after a located error (an
 * impossible given reduce_sharding). */
static bool search_k_ways(search *s, const int32_t *given,
                          int32_t (*space)[NPUC_TX8_MAX_RANK], int cap) {
  int32_t fixed[NPUC_TX8_MAX_RANK], tiles = s->tiles;
  if (given)
    memcpy(fixed, given, sizeof fixed);
  if (s->given_ways != 0 && !check_given_ways(s, given))
    return false;
  int32_t len = s->kp->reduce_len;
  for (int32_t w = tiles; w >= 2; --w) {
    int32_t part = ceil_div(len, w);
    bool fits = s->given_ways ? w == s->given_ways
                              : tiles % w == 0 && part >= s->t->ne_k &&
                                    (int64_t)(w - 1) * part < len;
    if (!fits)
      continue;
    int n = 1;
    if (given)
      memcpy(space[0], fixed, sizeof fixed);
    else {
      s->tiles = tiles / w;
      n = sharding_space(s, space, cap);
      s->tiles = tiles;
    }
    for (int i = 0; i < n; ++i)
      search_k_splits(s, space[i], w);
  }
  s->kp->reduce_ways = 1;
  return true;
}

/* How an error names the K of the op carrying a reduce_sharding. */
static const char *k_dimension(MlirOperation op) {
  if (npuc_op_is(op, "tx8be.conv"))
    return "the input channels, the last dimension of the conv's input";
  return "the last dimension of the gemm's a";
}

/* A given reduce_sharding: on a gemm or conv the group can K-split, 2 or more
 * ways, each tile's part of K not empty, the given sharding's tiles times
 * the ways within the group's. */
static bool check_given_ways(const search *s, const int32_t *given) {
  const npuc_tx8_group_plan *p = s->p;
  MlirOperation at = s->ways_op;
  int64_t w = s->given_ways;
  const char *k_dim = k_dimension(at);
  if (!s->kp) {
    npuc_pass_error(at,
                    "the given reduce_sharding %lld splits K (%s) across "
                    "tiles, but the group cannot split this K (its only "
                    "gemm or conv: a gemm not batched nor transpose_a, a "
                    "conv not grouped; its operands 0 and 1 loads read by "
                    "it alone)",
                    (long long)w, k_dim);
    return false;
  }
  int64_t len = s->kp->reduce_len, part = w > 0 ? (len + w - 1) / w : 0;
  if (w < 2 || w > len || (w - 1) * part >= len) {
    npuc_pass_error(at,
                    "the given reduce_sharding %lld cannot split K (%s, "
                    "%lld long) across tiles: 2 to %lld ways, each tile's "
                    "part not empty",
                    (long long)w, k_dim, (long long)len, (long long)len);
    return false;
  }
  int64_t need = w;
  for (int d = 0; d < p->out.rank; ++d)
    need *= given[d];
  if (need > s->tiles) {
    npuc_pass_error(at,
                    "the given sharding with reduce_sharding %lld (K "
                    "across tiles) needs %lld tiles, the group has %d",
                    (long long)w, (long long)need, (int)s->tiles);
    return false;
  }
  return true;
}

/* Every split of the team's part of the output (as search_splits), each
 * with the tile's part of K in 1, 2, 4, ... slices of at least one NE
 * instruction's K, up to the second that fits SPM (a finer K slice only
 * adds per-call overheads and DMA runs). */
static void search_k_splits(search *s, const int32_t *sharding, int32_t ways) {
  const npuc_tx8_group_plan *p = s->p;
  int rank = p->out.rank;
  int32_t part[NPUC_TX8_MAX_RANK], count[NPUC_TX8_MAX_RANK];
  int32_t slice[NPUC_TX8_MAX_RANK];
  for (int d = 0; d < rank; ++d) {
    part[d] = ceil_div(p->out.dims[d], sharding[d]);
    count[d] = 1;
  }
  s->kp->reduce_ways = ways;
  int32_t kpart = npuc_tx8_reduce_part(s->kp);
  do {
    for (int d = 0; d < rank; ++d)
      slice[d] = ceil_div(part[d], count[d]);
    int fitting = 0;
    for (int32_t n = 1; n <= kpart && fitting < 2; n *= 2) {
      int32_t k = ceil_div(kpart, n);
      if ((n > 1 && k < s->t->ne_k) ||
          (s->tried >= s->budget && s->best_cost >= 0))
        break;
      s->kp->reduce_slice = k;
      fitting += npuc_tx8_group_spm_bytes(s->kp, slice, NULL) <= s->spm;
      try_candidate_on(s, s->kp, sharding, slice);
    }
  } while (!(s->tried >= s->budget && s->best_cost >= 0) &&
           next_split(s, part, count, false)); /* never staged */
}

/* Largest slice of dimension `dim` in [1, slice[dim]] that fits, others
 * fixed: bytes grow with the slice, so bisect. 0 if none. */
static int32_t largest_fitting(const search *s, int32_t *slice, int dim) {
  int32_t lo = 1, hi = slice[dim], best = 0;
  while (lo <= hi) {
    int32_t mid = lo + (hi - lo) / 2;
    slice[dim] = mid;
    if (npuc_tx8_group_spm_bytes(s->p, slice, NULL) <= s->spm)
      best = mid, lo = mid + 1;
    else
      hi = mid - 1;
  }
  slice[dim] = best ? best : 1;
  return best;
}

/* The tile's part, shrunk along the outermost splittable dimension, then
 * the next, until it fits (the finest when nothing does). */
static void largest_fitting_split(const search *s, const int32_t *sharding,
                                  int32_t *slice) {
  const npuc_tx8_group_plan *p = s->p;
  for (int d = 0; d < p->out.rank; ++d)
    slice[d] = ceil_div(p->out.dims[d], sharding[d]);
  bool fits = npuc_tx8_group_spm_bytes(p, slice, NULL) <= s->spm;
  for (int d = 0; d < p->out.rank && !fits; ++d)
    if (p->split_axes & (1u << d))
      fits = largest_fitting(s, slice, d) > 0;
}

/* ---- the cost of one candidate */

typedef struct {
  double load, store, ne, ct, once; /* cycles: per slice, and once */
  double noc; /* per slice: the shared loads' gathers over the NoC */
  int64_t slices, spm;
  /* Per slice after the first, what each load with copies saves by
   * keeping the rows the slice before holds (halo_saving). */
  double kept_of[NPUC_TX8_MAX_BUFFERS];
  /* Per slice, each per-slice load's cycles by the buffer that would hold
   * its copies (its own, or the channel_norm's it fills), each store's
   * by the buffer stored. */
  double load_of[NPUC_TX8_MAX_BUFFERS], store_of[NPUC_TX8_MAX_BUFFERS];
  /* Per slice, each compute op's and channel_norm's / extract's cycles,
   * for the chain's spans per engine (chain_span). */
  double op_cyc[NPUC_TX8_MAX_GROUP_OPS], move_cyc[NPUC_TX8_MAX_BUFFERS];
  /* `once` as the code generator orders it: what the first compute op
   * reads goes before the slice loop (head: its DDR reads, and when that
   * op may start, each load's NoC gather overlapping the next one's
   * read), the rest after slice 0's loads (late: DDR and NoC busy time
   * that overlaps the slice loop). */
  double head_ddr, head_ready, late_ddr, late_noc;
  double late_tail;  /* the chain from the first op reading a late one */
  double load_ready; /* a slice's loads in, from the first's read */
  /* With a reduce split, one K slice's: the loads of the NE op's K slices
   * (DDR, NoC) and its chain (their channel_norms, the NE op); each is in
   * the totals above once per K slice of the tile. */
  double k_load, k_noc, k_ready, k_chain;
} cost_parts;

static void estimate(const search *s, const npuc_tx8_group_plan *p,
                     const int32_t *sharding, const int32_t *slice,
                     cost_parts *c);

/* The pipelined schedule with the copies tx8-spm-alloc gives (`fit`),
 * played out as the code generator issues it and the C model's timeline
 * runs it (npuc_tx8_loop_cycles, lib/TX8/LoopCost.c): a slice's compute
 * ops form a chain; the loads are issued a slice ahead when every
 * per-slice one has copies (else a slice's loads wait for the chain
 * before), the stores a slice late when every one has (else the next
 * slice's chain waits for them); a later slice's load with copies reads
 * only the rows the slice before does not hold (kept_of: the code
 * generator's op_dma_load_slice_after). With a reduce split the same
 * loop holds a K loop per slice (k_loop_cost). What is loaded once per
 * tile comes first. */
static double chain_span(const npuc_tx8_group_plan *p, const cost_parts *c,
                         const npuc_tx8_spm_fit *fit);
static bool staged(const npuc_tx8_group_plan *p, const npuc_tx8_spm_fit *fit);
static double k_loop_cost(const npuc_tx8_group_plan *p, const cost_parts *c,
                          int copies, int store_copies, int k_copies);

/* Sets *staged when the staged loop is the cheaper (it may be taken). */
static double group_cost(const npuc_tx8_group_plan *p, const cost_parts *c,
                         const npuc_tx8_spm_fit *fit, bool *staged_loop) {
  double single = 0, single_load = 0; /* Ls + Ss, Ls */
  for (int i = 0; i < NPUC_TX8_MAX_BUFFERS; ++i)
    if (!fit->multi[i] &&
        !(i < p->num_buffers && npuc_tx8_buffer_in_reduce(p, i)))
      single += c->load_of[i] + c->store_of[i], single_load += c->load_of[i];
  int copies = fit->copies > 1 ? fit->copies : 1;
  int load_copies = single_load == 0 ? copies : 1;
  int store_copies = single == single_load ? copies : 1;
  *staged_loop = false;
  if (p->reduce_op >= 0)
    return k_loop_cost(p, c, load_copies, store_copies, fit->k_copies);
  double kept = 0; /* a later slice's loads: the rows kept */
  for (int i = 0; i < NPUC_TX8_MAX_BUFFERS; ++i)
    kept += fit->multi[i] ? c->kept_of[i] : 0;
  npuc_tx8_loop l = {
      c->head_ddr,           c->head_ready, c->late_ddr,    c->late_noc,
      c->late_tail,          c->load,       c->noc,         c->ne + c->ct,
      chain_span(p, c, fit), c->store,      c->load_ready,  c->slices,
      load_copies,           store_copies,  c->load - kept, false};
  double cost = npuc_tx8_loop_cycles(&l);
  if (!staged(p, fit))
    return cost;
  l.staged = true; /* the busier of the NE and the SPM port */
  l.span = c->ne > c->ct ? c->ne : c->ct;
  double st = npuc_tx8_loop_cycles(&l);
  *staged_loop = st < cost;
  return st < cost ? st : cost;
}

/* A reduce split's: the slice loop with a K loop in each slice
 * (npuc_tx8_k_loop_cycles): the K slices' loads stream through
 * `k_copies` copies of their buffers (two: K slice j + 1's issued before
 * K slice j's NE op, EmitGroup.c's pipelined K loop; one: after it), the
 * NE op adds each K slice's product to the partial sums, and the rest of
 * the slice (the conversion, a team's reduction, the ops after the NE
 * op) and its stores follow the last K slice. */
static double k_loop_cost(const npuc_tx8_group_plan *p, const cost_parts *c,
                          int copies, int store_copies, int k_copies) {
  double ks = npuc_tx8_reduce_slices(p);
  double load = c->load - ks * c->k_load, noc = c->noc - ks * c->k_noc;
  double tail = c->ne + c->ct - ks * c->k_chain;
  npuc_tx8_loop l = {c->head_ddr,
                     c->head_ready,
                     c->late_ddr,
                     c->late_noc,
                     0,
                     load > 0 ? load : 0,
                     noc > 0 ? noc : 0,
                     tail > 0 ? tail : 0,
                     tail > 0 ? tail : 0,
                     c->store,
                     load + noc,
                     c->slices,
                     copies,
                     store_copies,
                     load,
                     false};
  npuc_tx8_k_loop k = {(int64_t)ks, c->k_load,  c->k_noc,
                       c->k_ready,  c->k_chain, k_copies};
  return npuc_tx8_k_loop_cycles(&l, &k);
}

static bool head_step(const npuc_tx8_group_plan *p, const npuc_tx8_spm_fit *fit,
                      bool *early, int i);
static bool ne_step(const npuc_tx8_group_plan *p, int i);

/* What the next slice's ops wait for of this slice's chain (the compute
 * ops, channel_norms and extracts in step order). With every per-slice
 * intermediate in copies (tx8-spm-alloc), the code generator issues the
 * next slice's head (channel_norms, extracts of buffers loaded ahead)
 * during this slice, and each engine runs its ops in issue order, so the
 * next slice's first op on an engine waits only for this slice's last
 * one there: the steady slice is the longest stretch of the chain from an
 * engine's first op to its last (NE; CT and TDMA, one SPM port), the
 * head aside, and never less than that engine's total. Otherwise (or
 * with a reduce split, or without an NE op, where nothing is retracted)
 * the whole chain. */
static double chain_span(const npuc_tx8_group_plan *p, const cost_parts *c,
                         const npuc_tx8_spm_fit *fit) {
  double chain = c->ne + c->ct;
  bool early[NPUC_TX8_MAX_BUFFERS] = {false};
  int first[2] = {-1, -1}, last[2] = {-1, -1};
  if (!fit->intermediates || p->reduce_op >= 0)
    return chain;
  for (int i = 0; i < p->num_steps; ++i) {
    const npuc_tx8_step *st = &p->steps[i];
    if (st->kind == NPUC_TX8_STEP_LOAD) {
      const npuc_tx8_buffer *b = &p->buffers[st->index];
      int into = b->load_into >= 0 ? b->load_into : st->index;
      early[into] = fit->multi[into];
      continue;
    }
    if ((st->kind != NPUC_TX8_STEP_COMPUTE && st->kind != NPUC_TX8_STEP_NORM &&
         st->kind != NPUC_TX8_STEP_EXTRACT) ||
        head_step(p, fit, early, i) ||
        (st->kind == NPUC_TX8_STEP_NORM &&
         p->buffers[p->buffers[st->index].source].load_into == st->index))
      continue; /* the head, or a channel_norm its load fills */
    int e = ne_step(p, i) ? 0 : 1;
    if (first[e] < 0)
      first[e] = i;
    last[e] = i;
  }
  if (first[0] < 0)
    return chain; /* nothing retracted */
  double span = c->ne > c->ct ? c->ne : c->ct;
  for (int e = 0; e < 2; ++e) {
    double sum = 0;
    for (int i = first[e]; i >= 0 && i <= last[e]; ++i) {
      const npuc_tx8_step *st = &p->steps[i];
      if (st->kind == NPUC_TX8_STEP_COMPUTE)
        sum += c->op_cyc[st->index];
      else if (st->kind == NPUC_TX8_STEP_NORM ||
               st->kind == NPUC_TX8_STEP_EXTRACT)
        sum += head_step(p, fit, early, i) ? 0 : c->move_cyc[st->index];
    }
    span = sum > span ? sum : span;
  }
  return span < chain ? span : chain;
}

/* The code generator's staged loop (npuc_tx8_loop_stage_cut; EmitGroup.c
 * runs it when every per-slice buffer has three copies): slices k - 1 to
 * k + 2 in flight, each engine's queue holding the next slice's work
 * before this slice's last op on it. */
static bool staged(const npuc_tx8_group_plan *p, const npuc_tx8_spm_fit *fit) {
  return fit->copies >= 3 && fit->intermediates && fit->stores &&
         npuc_tx8_loop_stage_cut(p) >= 0;
}

/* A channel_norm or extract of a buffer loaded ahead (or of such a
 * step's buffer), both in copies: the code generator's retracted head
 * (marks its buffer in `early`, which the caller fills in step order). */
static bool head_step(const npuc_tx8_group_plan *p, const npuc_tx8_spm_fit *fit,
                      bool *early, int i) {
  const npuc_tx8_step *st = &p->steps[i];
  if (st->kind != NPUC_TX8_STEP_NORM && st->kind != NPUC_TX8_STEP_EXTRACT)
    return false;
  int src = p->buffers[st->index].source;
  bool head = fit->multi[st->index] && src >= 0 && early[src];
  early[st->index] = early[st->index] || head;
  return head;
}

static bool ne_step(const npuc_tx8_group_plan *p, int i) {
  const npuc_tx8_step *st = &p->steps[i];
  return st->kind == NPUC_TX8_STEP_COMPUTE &&
         (p->ops[st->index].slice.kind == NPUC_TX8_KIND_GEMM ||
          p->ops[st->index].slice.kind == NPUC_TX8_KIND_CONV);
}

static void report_candidate(const search *s, const npuc_tx8_group_plan *p,
                             const int32_t *sharding, const int32_t *slice,
                             const cost_parts *c, double cost);
static bool fit_copies(const search *s, const npuc_tx8_group_plan *p,
                       const int32_t *sharding, const int32_t *slice,
                       npuc_tx8_spm_fit *fit);

static void try_candidate(search *s, const int32_t *sharding,
                          const int32_t *slice) {
  try_candidate_on(s, s->p, sharding, slice);
}

/* On plan `p`: the group's, or with its reduce split (s->kp). The
 * allocator's copies are asked only of a candidate that could win with
 * the most of them. */
static void try_candidate_on(search *s, const npuc_tx8_group_plan *p,
                             const int32_t *sharding, const int32_t *slice) {
  int rank = p->out.rank;
  s->tried++;
  cost_parts c;
  estimate(s, p, sharding, slice, &c);
  bool fits = c.spm >= 0 && c.spm <= s->spm;
  npuc_tx8_spm_fit fit = {s->t->multi_buf,
                          true,
                          c.spm,
                          {0},
                          s->t->multi_buf > 1,
                          s->t->multi_buf > 1 ? 2 : 1};
  memset(fit.multi, s->t->multi_buf > 1, sizeof fit.multi);
  bool st = false;
  double cost = fits ? group_cost(p, &c, &fit, &st) : -1;
  if (fits && (s->best_cost < 0 || cost < s->best_cost || s->report)) {
    if (fit_copies(s, p, sharding, slice, &fit))
      cost = group_cost(p, &c, &fit, &st);
  }
  if (s->report)
    report_candidate(s, p, sharding, slice, &c, cost);
  if (!fits) {
    if (c.spm >= 0 && (s->least_bytes < 0 || c.spm < s->least_bytes)) {
      s->least_bytes = c.spm;
      memcpy(s->least_sharding, sharding, (size_t)rank * sizeof *sharding);
      memcpy(s->least_slice, slice, (size_t)rank * sizeof *slice);
    }
    return;
  }
  if (s->best_cost >= 0 && cost >= s->best_cost)
    return;
  s->best_cost = cost;
  s->best_staged = st;
  s->best_k = p->reduce_op >= 0 ? p->reduce_slice : 0;
  s->best_ways = p->reduce_op >= 0 ? p->reduce_ways : 1;
  memcpy(s->best_sharding, sharding, (size_t)rank * sizeof *sharding);
  memcpy(s->best_slice, slice, (size_t)rank * sizeof *slice);
}

/* The copies tx8-spm-alloc will give the candidate (its residents
 * included); false (the estimate keeps the most) when the allocator
 * refuses the input, which tx8-spm-alloc then reports. */
static bool fit_copies(const search *s, const npuc_tx8_group_plan *p,
                       const int32_t *sharding, const int32_t *slice,
                       npuc_tx8_spm_fit *fit) {
  bool once[NPUC_TX8_MAX_BUFFERS];
  for (int i = 0; i < p->num_buffers; ++i)
    once[i] = npuc_tx8_buffer_resident(p, i, sharding, slice);
  int most = s->t->multi_buf < 1 ? 1 : s->t->multi_buf;
  char err[160];
  return npuc_tx8_spm_fit_group(p, sharding, slice, once, s->spm, most, fit,
                                err, sizeof err);
}

static double ne_cycles(const search *s, const npuc_tx8_group_plan *p,
                        const npuc_tx8_group_op *o, const int32_t *slice);
static double ct_cycles(const search *s, const npuc_tx8_group_plan *p,
                        const npuc_tx8_group_op *o, const int32_t *slice);
static double slice_ddr_cycles(const search *s, const npuc_tx8_group_plan *p,
                               int i, npuc_tx8_layout_mode mode,
                               const int32_t *sharding, const int32_t *slice);

static void estimate_buffers(const search *s, const npuc_tx8_group_plan *p,
                             const int32_t *sharding, const int32_t *slice,
                             cost_parts *c);
static double late_tail(const npuc_tx8_group_plan *p, const int32_t *sharding,
                        const int32_t *slice, const cost_parts *c);
static void mark_head_buffers(const npuc_tx8_group_plan *p, bool *head);

/* The busiest tile (the first: its part is the largest) under `sharding`
 * in slices of `slice`, every buffer at its largest slice: each
 * non-resident load and every store per slice at the tile's share of the
 * DDR bandwidth, a resident one once (an invariant one shared over the
 * NoC: a 1/tiles share from DDR plus the ring all-gather), CGRA results
 * and channel_norm / extract moves at their engines' rates, gemm and conv
 * in whole 8x16x8 instructions, and each call's issue overhead. With a
 * reduce split, what fills the gemm's K slices and the gemm itself count
 * once per K slice, the partial sums' conversion once per slice. */
static double team_reduce_cycles(const search *s, const npuc_tx8_group_plan *p,
                                 const int32_t *slice);
static void halo_saving(const search *s, const npuc_tx8_group_plan *p,
                        const int32_t *sharding, const int32_t *slice,
                        cost_parts *c);

static void estimate(const search *s, const npuc_tx8_group_plan *p,
                     const int32_t *sharding, const int32_t *slice,
                     cost_parts *c) {
  const npuc_tx8_target *t = s->t;
  memset(c, 0, sizeof *c);
  double all = (double)t->tiles_x * t->tiles_y;
  double ddr_rate = t->ddr_gbytes_per_s / t->clock_ghz / all;
  double over = (double)t->op_overhead_cycles;
  double k_slices = npuc_tx8_reduce_slices(p); /* the tile's K part's */
  c->slices = 1;
  for (int d = 0; d < p->out.rank; ++d)
    if (!npuc_checked_mul(
            c->slices,
            ceil_div(ceil_div(p->out.dims[d], sharding[d]), slice[d]),
            &c->slices))
      c->slices = INT64_MAX; /* costs as much as it can */
  c->spm = npuc_tx8_group_spm_bytes(p, slice, NULL);
  estimate_buffers(s, p, sharding, slice, c);
  halo_saving(s, p, sharding, slice, c);
  for (int st = 0; st < p->num_stores; ++st) {
    int b = p->stores[st].buffer;
    double cyc = (double)npuc_tx8_group_buffer_bytes(p, b, slice) / ddr_rate +
                 slice_ddr_cycles(s, p, b, s->store_mode[st], sharding, slice) +
                 over;
    c->store += cyc;
    c->store_of[b] += cyc;
  }
  for (int k = 0; k < p->num_ops; ++k) {
    const npuc_tx8_group_op *o = &p->ops[k];
    double ct = (double)npuc_tx8_group_buffer_bytes(p, o->result, slice) /
                (double)t->ct_bytes_per_cycle;
    double cyc;
    if (k == p->reduce_op) { /* every K slice, then psum -> the result */
      double one = ne_cycles(s, p, o, slice) + over;
      c->ne += k_slices * one, c->ct += ct, c->k_chain += one, cyc = 0;
    } else if (o->slice.kind == NPUC_TX8_KIND_GEMM ||
               o->slice.kind == NPUC_TX8_KIND_CONV)
      c->ne += cyc = ne_cycles(s, p, o, slice) + over;
    else
      c->ct += cyc = ct_cycles(s, p, o, slice) + over;
    c->op_cyc[k] = cyc;
  }
  if (p->reduce_op >= 0 && p->reduce_ways > 1)
    c->ct += team_reduce_cycles(s, p, slice); /* the chain waits for it */
  c->late_tail = late_tail(p, sharding, slice, c);
}

/* The cycles of a slice's chain from its first compute op reading a
 * once-filled buffer the first compute op does not read (filled after
 * slice 0's loads: mark_head_buffers) to its end; 0 when none does. */
static double late_tail(const npuc_tx8_group_plan *p, const int32_t *sharding,
                        const int32_t *slice, const cost_parts *c) {
  bool head[NPUC_TX8_MAX_BUFFERS], late = false;
  double tail = 0;
  mark_head_buffers(p, head);
  for (int i = 0; i < p->num_steps; ++i) {
    const npuc_tx8_step *st = &p->steps[i];
    if (st->kind == NPUC_TX8_STEP_COMPUTE) {
      const npuc_tx8_group_op *o = &p->ops[st->index];
      for (int j = 0; j < o->slice.num_operands && !late; ++j) {
        int b = o->operand_buffer[j];
        late = b >= 0 && b < p->num_buffers && !head[b] &&
               npuc_tx8_buffer_resident(p, b, sharding, slice);
      }
      tail += late ? c->op_cyc[st->index] : 0;
    } else if (late && (st->kind == NPUC_TX8_STEP_NORM ||
                        st->kind == NPUC_TX8_STEP_EXTRACT))
      tail += c->move_cyc[st->index];
  }
  return tail;
}

/* The reduce split across tiles: the team's partial sums summed into its
 * first tile, as op_psum_reduce charges it (the NoC's ring reduce-scatter
 * and gather, npuc_tx8_noc_reduce_cycles, then the CT's adds). Through
 * DDR instead, the owner would read (ways - 1) partial sums at its share
 * of the DDR bandwidth (12.5 bytes a cycle on the default target against
 * a 64-byte link): never cheaper on the targets we know, so not a
 * candidate. */
static double team_reduce_cycles(const search *s, const npuc_tx8_group_plan *p,
                                 const int32_t *slice) {
  const npuc_tx8_target *t = s->t;
  int64_t bytes = npuc_tx8_group_buffer_bytes(p, p->psum, slice);
  npuc_tx8_noc mesh = {t->tiles_x, t->noc_link_bytes_per_cycle,
                       t->noc_hop_cycles, t->op_overhead_cycles};
  double noc =
      (double)npuc_tx8_noc_reduce_cycles(&mesh, bytes, p->reduce_ways, 0, 1);
  double adds = (double)npuc_tx8_noc_reduce_add_bytes(bytes, p->reduce_ways);
  return noc + (double)t->op_overhead_cycles +
         ceil(adds / (double)t->ct_bytes_per_cycle);
}

/* When the tile's slices step along one anchor dimension, a per-slice
 * load (read by the tile alone) whose window there is wider than its step
 * (a convolution's halo: (S - 1) * scale + extent rows for S * scale new
 * ones) keeps the rows the slice before holds: that fraction of its
 * cycles is saved by every slice but the first, and copied in SPM (TDMA,
 * counted with the CGRA work, which shares the SPM port). */
static void halo_saving(const search *s, const npuc_tx8_group_plan *p,
                        const int32_t *sharding, const int32_t *slice,
                        cost_parts *c) {
  int step = -1;
  for (int d = 0; d < p->out.rank; ++d)
    if (ceil_div(ceil_div(p->out.dims[d], sharding[d]), slice[d]) > 1) {
      if (step >= 0)
        return;
      step = d;
    }
  for (int i = 0; step >= 0 && i < p->num_buffers; ++i) {
    const npuc_tx8_buffer *b = &p->buffers[i];
    int32_t stride;
    if (b->kind != NPUC_TX8_BUF_LOAD || b->invariant ||
        npuc_tx8_buffer_in_reduce(p, i) || /* one copy: read whole */
        npuc_tx8_buffer_resident(p, i, sharding, slice) ||
        npuc_tx8_buffer_shared(p, i, sharding, slice, &stride) > 1)
      continue;
    int moved = b->load_into >= 0 ? b->load_into : i;
    for (int d = 0; d < b->shape.rank; ++d) {
      const npuc_tx8_window *w = &b->windows[d];
      if (w->out_dim != step || w->extent <= w->scale)
        continue;
      double rows = (double)(slice[step] - 1) * w->scale + w->extent;
      double kept = 1 - (double)slice[step] * w->scale / rows;
      c->kept_of[moved] += c->load_of[moved] * kept;
      /* the kept rows' copy in SPM (TDMA: read and write) */
      c->ct += 2 * kept * (double)npuc_tx8_group_buffer_bytes(p, moved, slice) /
               (double)s->t->tdma_bytes_per_cycle;
    }
  }
}

/* The CT passes of an elementwise or reduce op (npuc/Tx8Ops.def, the
 * table the C model charges from); 1 for another op. */
static int op_passes(const char *name) {
  static const struct {
    const char *name;
    int passes;
  } rows[] = {
#define TX8_UNARY(op, ENUM, PASSES) {"tx8be." #op, PASSES},
#define TX8_BINARY(op, ENUM, PASSES) {"tx8be." #op, PASSES},
#define TX8_REDUCE(op, ENUM, PASSES) {"tx8be." #op, PASSES},
#include "npuc/Tx8Ops.def"
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; ++i)
    if (!strcmp(rows[i].name, name))
      return rows[i].passes;
  return 1;
}

/* A CGRA op's cycles for one slice as the C model charges them: its
 * passes over its result (a reduction, softmax and layernorm over their
 * input: 1 or 2, 5, 7 passes); batchnorm's fp32 copy of its input six
 * times and the TDMA conversions in and out (lib/Runtime/tx8). */
static double ct_cycles(const search *s, const npuc_tx8_group_plan *p,
                        const npuc_tx8_group_op *o, const int32_t *slice) {
  double rate = (double)s->t->ct_bytes_per_cycle;
  double out = (double)npuc_tx8_group_buffer_bytes(p, o->result, slice);
  double in =
      o->slice.num_operands > 0
          ? (double)npuc_tx8_group_buffer_bytes(p, o->operand_buffer[0], slice)
          : out;
  switch (o->slice.kind) {
  case NPUC_TX8_KIND_BATCHNORM: {
    double elems =
        in / (double)npuc_tx8_dtype_bytes(p->buffers[o->result].dtype);
    return (in + out) / (double)s->t->tdma_bytes_per_cycle +
           6.0 * elems * 4.0 / rate;
  }
  case NPUC_TX8_KIND_SOFTMAX: return 5.0 * in / rate;
  case NPUC_TX8_KIND_LAYERNORM: return 7.0 * in / rate;
  case NPUC_TX8_KIND_REDUCE: return op_passes(o->name) * in / rate;
  default: return op_passes(o->name) * out / rate;
  }
}

static void shared_load(const search *s, double bytes, int32_t members,
                        int32_t stride, double *cyc, double *runs, double *noc);
static void once_load(cost_parts *c, bool head, double ddr, double noc);
static void slice_load(cost_parts *c, double ddr, double noc);
static void k_slice_load(cost_parts *c, double ddr, double noc);

/* The loads, channel_norms and extracts of estimate(). */
static void estimate_buffers(const search *s, const npuc_tx8_group_plan *p,
                             const int32_t *sharding, const int32_t *slice,
                             cost_parts *c) {
  const npuc_tx8_target *t = s->t;
  double all = (double)t->tiles_x * t->tiles_y;
  double ddr_rate = t->ddr_gbytes_per_s / t->clock_ghz / all;
  double over = (double)t->op_overhead_cycles;
  double k_slices = npuc_tx8_reduce_slices(p); /* the tile's K part's */
  bool head[NPUC_TX8_MAX_BUFFERS];
  mark_head_buffers(p, head);
  for (int i = 0; i < p->num_buffers; ++i) {
    const npuc_tx8_buffer *b = &p->buffers[i];
    int moved =
        b->kind == NPUC_TX8_BUF_LOAD && b->load_into >= 0 ? b->load_into : i;
    double bytes = (double)npuc_tx8_group_buffer_bytes(p, moved, slice);
    bool in_k = npuc_tx8_buffer_in_reduce(p, i);
    double times = in_k ? k_slices : 1;
    bool once = npuc_tx8_buffer_resident(p, i, sharding, slice);
    double cyc;
    if (b->kind == NPUC_TX8_BUF_LOAD) {
      cyc = bytes / ddr_rate + over;
      double runs = 0, noc = 0;
      if (!b->invariant && b->source >= 0 && b->source < NPUC_TX8_MAX_BUFFERS)
        runs = slice_ddr_cycles(s, p, i, s->operand_mode[b->source], sharding,
                                slice);
      int32_t stride,
          members =
              p->reduce_ways > 1 /* a team reads its own K parts */
                  ? 0
                  : npuc_tx8_buffer_shared(p, i, sharding, slice, &stride);
      if (members > 1)
        shared_load(s, bytes, members, stride, &cyc, &runs, &noc);
      cyc += runs;
      if (in_k)
        k_slice_load(c, cyc, noc);
      *(once ? &c->once : &c->load) += times * cyc;
      *(once ? &c->once : &c->noc) += times * noc;
      if (once)
        once_load(c, head[i] || head[moved], times * cyc, times * noc);
      else
        c->load_of[moved] += times * (cyc + noc),
            slice_load(c, times * cyc, times * noc);
    } else if (b->kind == NPUC_TX8_BUF_NORM ||
               b->kind == NPUC_TX8_BUF_EXTRACT) {
      if (b->kind == NPUC_TX8_BUF_NORM && p->buffers[b->source].load_into == i)
        continue; /* filled by its load */
      cyc = 2 * bytes / (double)t->tdma_bytes_per_cycle + over;
      c->k_chain += in_k ? cyc : 0;
      *(once ? &c->once : &c->ct) += times * cyc;
      c->head_ready += once ? times * cyc : 0; /* after its load: serial */
      c->move_cyc[i] = once ? 0 : times * cyc;
    }
  }
}

/* A load of the K loop's: its gather overlaps the next load's read. */
static void k_slice_load(cost_parts *c, double ddr, double noc) {
  c->k_load += ddr, c->k_noc += noc;
  double read = c->k_load > c->k_ready ? c->k_load : c->k_ready;
  c->k_ready = noc > 0 ? read + noc : read;
}

/* A per-slice load: its gather overlaps the next load's read. */
static void slice_load(cost_parts *c, double ddr, double noc) {
  double read = c->load > c->load_ready ? c->load : c->load_ready;
  c->load_ready = noc > 0 ? read + noc : read;
}

/* head[i]: buffer i is read by the group's first compute op, or is the
 * source of (or loaded straight into) one that is: what the code
 * generator fills before the slice loop when it is done once
 * (EmitGroup.c's order_invariants); the other once-filled buffers go after
 * slice 0's loads. With a reduce split every one goes before the loop. */
static void mark_head_buffers(const npuc_tx8_group_plan *p, bool *head) {
  int first = -1;
  for (int i = 0; i < p->num_steps && first < 0; ++i)
    if (p->steps[i].kind == NPUC_TX8_STEP_COMPUTE)
      first = p->steps[i].index;
  for (int i = 0; i < p->num_buffers; ++i)
    head[i] = first < 0 || p->reduce_op >= 0;
  for (int j = 0; first >= 0 && j < p->ops[first].slice.num_operands; ++j) {
    int b = p->ops[first].operand_buffer[j];
    if (b >= 0 && b < p->num_buffers)
      head[b] = true;
  }
  for (int i = p->num_buffers - 1; i >= 0; --i) {
    const npuc_tx8_buffer *b = &p->buffers[i];
    if (b->load_into >= 0 && b->load_into < p->num_buffers &&
        head[b->load_into])
      head[i] = true;
    if (head[i] && b->kind != NPUC_TX8_BUF_LOAD && b->source >= 0 &&
        b->source < p->num_buffers)
      head[b->source] = true;
  }
}

/* A load filled once per tile: before the loop (head: its NoC gather
 * overlaps the next head load's read, the first op waits for the last)
 * or after slice 0's loads (late: busy time the loop overlaps). */
static void once_load(cost_parts *c, bool head, double ddr, double noc) {
  if (!head) {
    c->late_ddr += ddr, c->late_noc += noc;
    return;
  }
  c->head_ddr += ddr;
  double read = c->head_ddr > c->head_ready ? c->head_ddr : c->head_ready;
  c->head_ready = noc > 0 ? read + noc : read;
}

/* A load `members` tiles `stride` apart read the same
 * (npuc_tx8_buffer_shared) as op_dma_load_shared_among charges it on the
 * first tile's ring (lib/Runtime/tx8/slice.c, cycles.c): when a
 * 1/members share from DDR plus the ring all-gather over the NoC
 * (npuc_tx8_noc_gather_cycles, the C model's) beats each tile reading it
 * all, the tile's DMA reads its share (and its share of the DDR runs'
 * cost, `runs`) and the NoC engine (`noc`) takes the gather; else `cyc`
 * and `runs` stay the whole read's. */
static void shared_load(const search *s, double bytes, int32_t members,
                        int32_t stride, double *cyc, double *runs,
                        double *noc) {
  const npuc_tx8_target *t = s->t;
  if (members <= 1 || t->noc_link_bytes_per_cycle <= 0 || bytes <= 0)
    return;
  double all = (double)t->tiles_x * t->tiles_y;
  double ddr_rate = t->ddr_gbytes_per_s / t->clock_ghz / all;
  double over = (double)t->op_overhead_cycles;
  double share = ceil(bytes / members);
  npuc_tx8_noc mesh = {t->tiles_x, t->noc_link_bytes_per_cycle,
                       t->noc_hop_cycles, t->op_overhead_cycles};
  double gather = (double)npuc_tx8_noc_gather_cycles(&mesh, (int64_t)bytes,
                                                     members, 0, stride);
  if (ceil(share / ddr_rate) + over + gather >= ceil(bytes / ddr_rate) + over)
    return; /* the C model reads it whole */
  *cyc = share / ddr_rate + over;
  *runs = *runs * share / bytes;
  *noc = gather;
}

/* Rows of a slice DMA the estimate walks (Tx8DdrCost.h scales the cost
 * to the others): the runs repeat row after row. */
#define DDR_SAMPLE_ROWS 64

/* What the DMA of one slice of buffer `i` (a load's DDR tensor, or a
 * stored buffer's result) pays beyond its bytes for where it lies in DDR
 * (`mode`, from a bank boundary): partial bursts and bank opens, as the C
 * model's DMA charges them (npuc_tx8_ddr_region_cycles). The first slice
 * at its largest window, of the first tile and of the middle one along
 * each sharded dimension (its runs may straddle banks the first tile's do
 * not): the dearer stands for all, the group waiting for its slowest
 * tile. A slice cut along the last dimension makes short runs, one bank
 * open per row once rows are a bank apart. */
static double slice_ddr_cycles(const search *s, const npuc_tx8_group_plan *p,
                               int i, npuc_tx8_layout_mode mode,
                               const int32_t *sharding, const int32_t *slice) {
  const npuc_tx8_buffer *b = &p->buffers[i];
  const npuc_tx8_target *t = s->t;
  int rank = b->shape.rank;
  int32_t whole[NPUC_TX8_MAX_RANK] = {0}, max[NPUC_TX8_MAX_RANK] = {0};
  int32_t out[NPUC_TX8_MAX_RANK + 1]; /* and the K slice */
  memcpy(out, slice, (size_t)p->out.rank * sizeof *out);
  out[p->out.rank] = p->reduce_op >= 0 ? p->reduce_slice : 1;
  for (int d = 0; d < rank; ++d)
    whole[d] = (int32_t)b->shape.dims[d];
  npuc_tx8_window_max(b->windows, whole, rank, out, max);
  for (int d = 0; d < rank; ++d)
    max[d] = max[d] < whole[d] ? max[d] : whole[d];
  double rate = t->ddr_gbytes_per_s / t->clock_ghz /
                ((double)t->tiles_x * (double)t->tiles_y);
  double worst = 0;
  for (int middle = 0; middle < 2; ++middle) {
    int32_t start[NPUC_TX8_MAX_RANK] = {0};
    for (int d = 0; d < rank && middle; ++d) {
      const npuc_tx8_window *w = &b->windows[d];
      if (w->out_dim < 0 || w->out_dim >= p->out.rank)
        continue; /* whole, or the K slice: from 0 */
      int32_t part = ceil_div(p->out.dims[w->out_dim], sharding[w->out_dim]);
      int64_t first =
          (int64_t)(sharding[w->out_dim] / 2) * part * w->scale + w->offset;
      first = first > whole[d] - max[d] ? whole[d] - max[d] : first;
      start[d] = first > 0 ? (int32_t)first : 0;
    }
    double c = npuc_tx8_ddr_region_cycles(b->shape.dims, rank, b->dtype, mode,
                                          start, max, t->ddr_bank_bytes, rate,
                                          DDR_SAMPLE_ROWS);
    worst = c > worst ? c : worst;
  }
  return worst;
}

static double ne_rate(const npuc_tx8_target *t, npuc_tx8_dtype dt) {
  double tflops = dt == NPUC_TX8_I8     ? t->ne_tflops_int8
                  : dt == NPUC_TX8_BF16 ? t->ne_tflops_bf16
                  : dt == NPUC_TX8_F32  ? t->ne_tflops_fp32
                                        : t->ne_tflops_fp16;
  return tflops * 1e3 / t->clock_ghz / ((double)t->tiles_x * t->tiles_y);
}

static double instrs(double m, double k, double n, const npuc_tx8_target *t) {
  double im = (double)ceil_div((int64_t)m, t->ne_m);
  double ik = (double)ceil_div((int64_t)k, t->ne_k);
  double in = (double)ceil_div((int64_t)n, t->ne_n);
  return im * ik * in;
}

/* A gemm's or conv's NE cycles for one slice of its result, in whole
 * instructions as the C model counts them (its M: the rows of a batch,
 * its N: the channels). In double: an estimate, no overflow. */
static double ne_cycles(const search *s, const npuc_tx8_group_plan *p,
                        const npuc_tx8_group_op *o, const int32_t *slice) {
  const npuc_tx8_buffer *r = &p->buffers[o->result];
  int32_t whole[NPUC_TX8_MAX_RANK], max[NPUC_TX8_MAX_RANK];
  int rank = r->shape.rank;
  for (int i = 0; i < rank; ++i)
    whole[i] = (int32_t)r->shape.dims[i];
  npuc_tx8_window_max(r->windows, whole, rank, slice, max);
  double rows = 1, n = max[rank - 1], batches = 1;
  for (int i = 0; i < rank - 1; ++i)
    rows *= max[i];
  double k;
  const npuc_tx8_slice_op *so = &o->slice;
  if (so->kind == NPUC_TX8_KIND_CONV) {
    const int64_t *w = so->operands[1].dims; /* HWOI */
    double g = so->groups > 0 ? (double)so->groups : 1;
    batches = max[0] * g;
    rows /= max[0];
    n /= g;
    k = (double)w[0] * (double)w[1] * (double)w[3];
    if (p->reduce_op >= 0 && o == &p->ops[p->reduce_op])
      k = (double)w[0] * (double)w[1] * p->reduce_slice; /* one K slice */
  } else {
    const npuc_tx8_shape *a = &so->operands[0];
    k = (double)a->dims[a->rank - (so->transpose_a ? 2 : 1)];
    if (p->reduce_op >= 0 && o == &p->ops[p->reduce_op])
      k = p->reduce_slice; /* one K slice */
  }
  double flops = batches * instrs(rows, k, n, s->t) * 2.0 * s->t->ne_m *
                 s->t->ne_k * s->t->ne_n;
  return flops / ne_rate(s->t, r->dtype);
}

/* ---- the search report (--search-report) */

static void print_where(MlirOperation op) {
  char where[600];
  fprintf(stderr, "%s",
          npuc_op_short_location(op, where, sizeof where) ? where
                                                          : "<unknown>");
}

static void report_candidate(const search *s, const npuc_tx8_group_plan *p,
                             const int32_t *sharding, const int32_t *slice,
                             const cost_parts *c, double cost) {
  char sh[128], sl[160];
  slice_text(sh, sizeof sh, sharding, p->out.rank);
  slice_text(sl, sizeof sl - 32, slice, p->out.rank);
  if (p->reduce_op >= 0)
    snprintf(sl + strlen(sl), 32, " K %d", (int)p->reduce_slice);
  if (p->reduce_op >= 0 && p->reduce_ways > 1)
    snprintf(sl + strlen(sl), 32, " over %d tiles", (int)p->reduce_ways);
  if (cost < 0) {
    fprintf(stderr,
            "  sharding %s slice %s: does not fit (%lld bytes of SPM, "
            "%lld)\n",
            sh, sl, (long long)c->spm, (long long)s->spm);
    return;
  }
  fprintf(stderr,
          "  sharding %s slice %s: %.0f cycles (%lld slices of load %.0f "
          "store %.0f ne %.0f ct %.0f noc %.0f; once %.0f), %lld bytes of "
          "SPM\n",
          sh, sl, cost, (long long)c->slices, c->load, c->store, c->ne, c->ct,
          c->noc, c->once, (long long)c->spm);
}

static void report_group(const search *s, const template_entry *hit) {
  const npuc_tx8_group_plan *p = s->p;
  char sh[128], sl[160];
  slice_text(sh, sizeof sh, s->best_sharding, p->out.rank);
  slice_text(sl, sizeof sl - 32, s->best_slice, p->out.rank);
  if (s->best_k > 0)
    snprintf(sl + strlen(sl), 32, " K %d", (int)s->best_k);
  if (s->best_ways > 1)
    snprintf(sl + strlen(sl), 32, " over %d tiles", (int)s->best_ways);
  if (s->best_staged) /* sp_stage_num 3: the staged loop */
    snprintf(sl + strlen(sl), sizeof sl - strlen(sl), " in 3 stages");
  fprintf(stderr, "tx8-search: ");
  print_where(p->compute);
  if (hit) {
    fprintf(stderr, ": %s: the template of the group at ", p->compute_name);
    print_where(hit->group);
    fprintf(stderr, ": sharding %s slice %s\n", sh, sl);
    return;
  }
  fprintf(stderr,
          ": %s: chose sharding %s slice %s, %.0f cycles, of %lld "
          "candidates\n",
          p->compute_name, sh, sl, s->best_cost, (long long)s->tried);
}

/* ---- the template cache (the seed's GroupKey)
 * ---------------------------------- */

static void print_to_sb(MlirStringRef text, void *user) {
  npuc_sb_printf((npuc_sb *)user, "%.*s", (int)text.length, text.data);
}

/* Where operand `v` of an op of the group comes from: "aN" (block
 * argument N) or "oN.R" (result R of the N-th op of the body). */
static void operand_key(MlirBlock body, MlirValue v, npuc_sb *key) {
  if (mlirValueIsABlockArgument(v)) {
    npuc_sb_printf(key, "a%zd", (ssize_t)mlirBlockArgumentGetArgNumber(v));
    return;
  }
  MlirOperation def = mlirOpResultGetOwner(v);
  int n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op) && !mlirOperationEqual(op, def);
       op = mlirOperationGetNextInBlock(op))
    ++n;
  npuc_sb_printf(key, "o%d.%zd", n, (ssize_t)mlirOpResultGetResultNumber(v));
}

static void op_key(MlirBlock body, MlirOperation op, npuc_sb *key) {
  char name[64];
  npuc_sb_printf(key, "%s(", npuc_tx8_op_name(op, name, sizeof name));
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    operand_key(body, v, key);
    npuc_sb_printf(key, ":");
    mlirTypePrint(mlirValueGetType(v), print_to_sb, key);
    npuc_sb_printf(key, ",");
  }
  npuc_sb_printf(key, ")->");
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    mlirTypePrint(mlirValueGetType(mlirOperationGetResult(op, i)), print_to_sb,
                  key);
    npuc_sb_printf(key, ",");
  }
  for (intptr_t i = 0; i < mlirOperationGetNumAttributes(op); ++i) {
    MlirNamedAttribute a = mlirOperationGetAttribute(op, i);
    MlirStringRef n = mlirIdentifierStr(a.name);
    npuc_sb_printf(key, " %.*s=", (int)n.length, n.data);
    mlirAttributePrint(a.attribute, print_to_sb, key);
  }
  npuc_sb_printf(key, ";");
}

/* The group's key: its operand types, tile mesh and every op of its body
 * with where its operands come from, the types and the attributes (the
 * decision this pass writes included, so a decided group matches only
 * one decided alike). False for a group without a body. */
static bool template_key(MlirOperation group, npuc_sb *key) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(group, 0));
  if (mlirBlockIsNull(body))
    return false;
  static const char *const group_attrs[] = {"dev_region", "group_tag"};
  for (size_t i = 0; i < sizeof group_attrs / sizeof *group_attrs; ++i) {
    MlirAttribute a = mlirOperationGetAttributeByName(
        group, mlirStringRefCreateFromCString(group_attrs[i]));
    npuc_sb_printf(key, "%s=", group_attrs[i]);
    if (!mlirAttributeIsNull(a))
      mlirAttributePrint(a, print_to_sb, key);
    npuc_sb_printf(key, ";");
  }
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); ++i) {
    mlirTypePrint(mlirValueGetType(mlirBlockGetArgument(body, i)), print_to_sb,
                  key);
    npuc_sb_printf(key, ",");
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    op_key(body, op, key);
  return key->data != NULL;
}

static uint64_t fnv1a(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; ++s)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static const template_entry *cache_find(const template_cache *c,
                                        const char *key, uint64_t *hash) {
  *hash = fnv1a(key);
  uintptr_t at;
  if (npuc_ptr_map_get(&c->by_hash, (const void *)(uintptr_t)(*hash | 1),
                       &at) &&
      strcmp(c->entries[at - 1].key, key) == 0)
    return &c->entries[at - 1];
  return NULL; /* absent, or a hash collision: search again */
}

static void cache_add(template_cache *c, char *key, uint64_t hash,
                      const search *s, MlirOperation group) {
  if (c->count == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 16;
    c->entries = npuc_xrealloc(c->entries, cap * sizeof *c->entries);
    c->cap = cap;
  }
  template_entry *e = &c->entries[c->count];
  e->key = key;
  e->group = group;
  memcpy(e->sharding, s->best_sharding, sizeof e->sharding);
  memcpy(e->slice, s->best_slice, sizeof e->slice);
  e->k_slice = s->best_k;
  e->k_ways = s->best_ways;
  e->staged = s->best_staged;
  c->count++;
  const void *k = (const void *)(uintptr_t)(hash | 1);
  uintptr_t old;
  if (!npuc_ptr_map_get(&c->by_hash, k, &old)) /* first of a hash wins */
    npuc_ptr_map_put(&c->by_hash, k, c->count);
}

static void cache_free(template_cache *c) {
  for (size_t i = 0; i < c->count; ++i)
    free(c->entries[i].key);
  free(c->entries);
  npuc_ptr_map_free(&c->by_hash);
}

/* ---- attributes
 * ------------------------------------------------------------------ */

static void list_of(npuc_tx8_list *l, const int32_t *v, int n) {
  l->len = n;
  for (int i = 0; i < n; ++i)
    l->v[i] = v[i];
}

/* Data parallel when the batch (dimension 0 of a batched result) splits,
 * tensor parallel when another dimension does, both (dp_tp) when both do;
 * each kind's ways fill the mesh row by row. */
static npuc_tx8_parallel_attr parallel_of(const npuc_tx8_group_plan *p,
                                          const decision *d, int32_t tiles) {
  npuc_tx8_parallel_attr a;
  memset(&a, 0, sizeof a);
  int rank = p->out.rank;
  int32_t dp = rank > 1 ? d->sharding[0] : 1, tp = 1;
  for (int i = rank > 1 ? 1 : 0; i < rank; ++i)
    tp *= d->sharding[i];
  tp *= d->k_ways > 1 ? d->k_ways : 1; /* K across tiles: tensor parallel */
  npuc_tx8_parallel_attr given;
  a.sharding_is_given =
      npuc_tx8_op_parallel_attr(p->compute, "tile_parallel", &given) ==
          NPUC_TX8_ATTR_PRESENT &&
      given.sharding_is_given;
  a.parallel = dp > 1 && tp > 1 ? NPUC_TX8_PAR_DP_TP
               : dp > 1         ? NPUC_TX8_PAR_DP
               : tp > 1         ? NPUC_TX8_PAR_TP
                                : NPUC_TX8_PAR_NONE;
  int32_t row = tiles >= 4 ? 4 : tiles;
  int32_t ways[2] = {dp, tp};
  int32_t *dims[2] = {a.dp_dim, a.tp_dim};
  for (int k = 0; k < 2; ++k) {
    dims[k][0] = ways[k] < row ? ways[k] : row;
    dims[k][1] = ceil_div(ways[k], dims[k][0]);
    dims[k][2] = 1;
  }
  list_of(&a.shape_spatial_sharding, d->sharding, rank);
  return a;
}

/* dev_info of compute op `k`: its result buffer's place and largest slice
 * (the anchor's: the temporal slice), the scratch of a batchnorm. */
static void write_dev_info(const npuc_tx8_group_plan *p, const decision *d,
                           int k) {
  const npuc_tx8_group_op *o = &p->ops[k];
  const npuc_tx8_buffer *r = &p->buffers[o->result];
  /* The plan read dev_info already: it is absent or valid here. */
  npuc_tx8_dev_attr dev;
  if (npuc_tx8_op_dev_attr(o->op, &dev) != NPUC_TX8_ATTR_PRESENT)
    dev = npuc_tx8_dev_attr_with_layout(r->mode);
  int32_t whole[NPUC_TX8_MAX_RANK], max[NPUC_TX8_MAX_RANK];
  for (int i = 0; i < r->shape.rank; ++i)
    whole[i] = (int32_t)r->shape.dims[i];
  npuc_tx8_window_max(r->windows, whole, r->shape.rank, d->slice, max);
  bool anchor = mlirOperationEqual(o->op, p->compute);
  list_of(&dev.temporal_mem_slice, anchor ? d->slice : max,
          anchor ? p->out.rank : r->shape.rank);
  int64_t imm = d->spm_bytes - d->offsets[p->num_buffers];
  bool uses_imm = o->slice.kind == NPUC_TX8_KIND_BATCHNORM;
  dev.imm_size = uses_imm ? (uint64_t)imm : 0;
  dev.imm_addr = dev.imm_size ? d->offsets[p->num_buffers] : 0;
  dev.mem_addr.len = 1;
  dev.mem_addr.v[0] = d->offsets[o->result];
  npuc_tx8_op_set_dev_attr(o->op, &dev);
}

static void write_attrs(const npuc_tx8_group_plan *p, const decision *d,
                        int32_t tiles) {
  npuc_tx8_parallel_attr par = parallel_of(p, d, tiles);
  npuc_tx8_op_set_parallel_attr(p->compute, "tile_parallel", &par);
  for (int k = 0; k < p->num_ops; ++k)
    write_dev_info(p, d, k);
  MlirContext ctx = mlirOperationGetContext(p->group);
  MlirAttribute size =
      mlirIntegerAttrGet(mlirIntegerTypeUnsignedGet(ctx, 32), d->spm_bytes);
  mlirOperationSetAttributeByName(
      p->group, mlirStringRefCreateFromCString("spm_alloc_size"), size);
}
