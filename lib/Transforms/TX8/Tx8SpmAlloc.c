/* tx8-spm-alloc: places each tx8be.group's SPM buffers with reuse (the
 * seed's SPMAllocPass: SA_BufferLife, SA_BufferMerge, the allocation).
 * For one temporal slice at the split tx8-sharding chose, the buffers of
 * the group plan (a load, channel_norm or compute result each, plus the
 * compute op's scratch) get lifetimes over the group's steps
 * (group_lifetimes: the one place that knows the group's order), an
 * elementwise op's result shares its first operand's block when that
 * operand dies there (mem_inplace), and npuc_tx8_spm_alloc
 * (lib/TX8/SpmAlloc.c) assigns offsets on 2048-bit boundaries.
 * Requires tx8-sharding's dev_info.temporal_mem_slice on each compute op.
 * Writes dev_info.mem_addr on every buffer's defining op (creating a
 * dev_info with the buffer's layout where there is none),
 * imm_addr/imm_size on the compute op and the group's spm_alloc_size =
 * the peak; the code generator reads the offsets back
 * (npuc_tx8_group_placement). Skips DDR-only groups.
 * docs/passes/tx8-spm-alloc.md. */
#include "Tx8Options.h"
#include "Tx8SpmAllocGroup.h"
#include "npuc/Alloc.h"
#include "npuc/BuildOps.h"
#include "npuc/IR.h"
#include "npuc/OpList.h"
#include "npuc/Pass.h"
#include "npuc/Tx8Group.h"
#include "npuc/Tx8SpmAlloc.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPM_ALLOC_OPTIONS(X, T)                                                \
  TX8_OPTION_TARGET_CONFIG(X, T)                                               \
  TX8_OPTION_SPM_BYTES(X, T)                                                   \
  X(T, bool, stats, "stats", NPUC_OPT_BOOL, "false", NULL,                     \
    "a remark per group: the peak, the max-live bound, the bytes without "     \
    "reuse")                                                                   \
  X(T, int64_t, multi_buf, "multi-buf", NPUC_OPT_INT, "0", NULL,               \
    "copies of each per-slice load and stored buffer for the software "        \
    "pipeline, at most: 1, 2 or 3, fewer when they do not fit SPM (0: the "    \
    "target description's tile.multi_buf)")
NPUC_PASS_OPTIONS(spm_alloc_options, SPM_ALLOC_OPTIONS);

NPUC_PASS_DEFINE(npuc_pass_tx8_spm_alloc, "tx8-spm-alloc",
                 "Place each TX8 group's SPM buffers with reuse over their "
                 "lifetimes (mem_addr, imm_addr, spm_alloc_size)",
                 "builtin.module", run_spm_alloc,
                 NPUC_PASS_OPTIONS_OF(spm_alloc_options));

#define MAX_COPIES 3 /* multi-buffering: at most triple */

typedef struct {
  int64_t spm; /* bytes per tile */
  bool stats;
  int copies; /* multi-buffering: the most copies tried */
} alloc_config;

static unsigned group_op(MlirOperation op, void *user);
static bool alloc_group(MlirOperation group, const alloc_config *c);

static bool run_spm_alloc(MlirOperation module, const npuc_pass_options *opts,
                          const npuc_pass_context *ctx) {
  (void)ctx;
  const spm_alloc_options *o = NPUC_PASS_OPTS(spm_alloc_options, opts);
  npuc_tx8_target target;
  if (!npuc_tx8_pass_target(module, npuc_pass_tx8_spm_alloc.name,
                            o->target_config, &target))
    return false;
  int64_t copies = o->multi_buf > 0 ? o->multi_buf : target.multi_buf;
  if (copies < 1 || copies > MAX_COPIES) {
    npuc_pass_error(module,
                    "multi-buf (or the target's tile.multi_buf) "
                    "must be 1, 2 or 3, not %lld",
                    (long long)copies);
    return false;
  }
  alloc_config c = {o->spm_bytes > 0 ? o->spm_bytes : target.spm_bytes,
                    o->stats, (int)copies};
  npuc_op_list list = {0};
  npuc_op_list_collect(module, MlirWalkPreOrder, group_op, NULL, &list);
  bool ok = true;
  for (size_t i = 0; i < list.count && ok; ++i)
    ok = alloc_group(list.ops[i], &c);
  npuc_op_list_free(&list);
  return ok;
}

static unsigned group_op(MlirOperation op, void *user) {
  (void)user;
  if (!npuc_op_is(op, "tx8be.group"))
    return NPUC_OP_PASS;
  return NPUC_OP_KEEP | NPUC_OP_SKIP_REGIONS; /* groups do not nest */
}

/* ---- one group
 * ------------------------------------------------------------------- */

/* What a copy of a per-slice buffer lets overlap, in order of benefit:
 * the next slice's load (issued a slice ahead), this slice's store
 * draining while the next slice computes, and an intermediate (a
 * channel_norm, extract or compute result) that the next slice may write
 * before this slice's last reader is done. Apart from them, a reduce
 * split's K-slice load (COPY_K): its second copy lets the K loop issue
 * K slice j + 1's load while K slice j's gemm or conv reads the other
 * (the nested loop's pipeline); it never takes more than two. */
enum {
  COPY_LOAD,
  COPY_STORE,
  COPY_INTERMEDIATE,
  COPY_K,
  COPY_CLASSES,
  COPY_NONE
};
#define K_COPIES 2 /* of a K-slice load: one being read, one filling */

/* The allocator's input: the plan's buffers, then the scratch, then the
 * extra copies of the multi-buffered ones. */
#define MAX_ALLOC ((NPUC_TX8_MAX_BUFFERS + 1) * MAX_COPIES)
typedef struct {
  npuc_tx8_spm_buffer bufs[MAX_ALLOC];
  int64_t offsets[MAX_ALLOC];
  int n;
  int64_t bump; /* the bytes without reuse: npuc_tx8_group_spm_bytes */
  /* per plan buffer: its copies and where each is in bufs (copy 0: i) */
  int copies[NPUC_TX8_MAX_BUFFERS];
  int copy_at[NPUC_TX8_MAX_BUFFERS][MAX_COPIES];
  int num_multi;  /* buffers with several copies */
  int num_copies; /* the most any per-slice buffer has (K loads aside) */
  int k_copies;   /* of the K-slice loads with copies (1: none) */
  bool stores;    /* the stored buffers have them too */
  /* per class (COPY_LOAD, COPY_STORE, COPY_INTERMEDIATE, COPY_K): the
   * buffers that could take copies and those that have them */
  int candidates[COPY_CLASSES], chosen[COPY_CLASSES];
} group_buffers;

static bool read_slice(const npuc_tx8_group_plan *p, int32_t *slice,
                       int32_t *sharding);
static bool dev_infos_readable(const npuc_tx8_group_plan *p);
static bool place_group(const npuc_tx8_group_plan *p, const int32_t *sharding,
                        const int32_t *slice, const bool *once, int64_t spm,
                        int max_copies, group_buffers *g,
                        npuc_tx8_spm_result *r, char *err, size_t cap);
static void write_offsets(const npuc_tx8_group_plan *p, const group_buffers *g,
                          int64_t peak);

static bool alloc_group(MlirOperation group, const alloc_config *c) {
  if (npuc_tx8_group_is_ddr_only(group))
    return true; /* works in DDR: no SPM */
  npuc_tx8_group_plan plan;
  int32_t slice[NPUC_TX8_MAX_RANK], sharding[NPUC_TX8_MAX_RANK];
  if (!npuc_tx8_group_plan_build(group, &plan) ||
      !read_slice(&plan, slice, sharding) || !dev_infos_readable(&plan))
    return false;
  for (int i = 0; i < plan.num_buffers; ++i)
    if (npuc_tx8_buffer_addr_slot(&plan, i) >= NPUC_TX8_MAX_LIST) {
      npuc_pass_error(plan.buffers[i].op,
                      "tx8be.group: more than %d SPM buffers defined by one "
                      "op (its mem_addr list is full)",
                      NPUC_TX8_MAX_LIST);
      return false;
    }
  group_buffers *g = npuc_xmalloc(sizeof *g);
  npuc_tx8_spm_result r;
  char err[160];
  bool ok = place_group(&plan, sharding, slice, NULL, c->spm, c->copies, g, &r,
                        err, sizeof err);
  if (!ok)
    npuc_pass_error(group, "tx8be.group: SPM allocation failed: %s", err);
  else if (r.peak > c->spm || r.peak > UINT32_MAX) {
    npuc_pass_error(plan.compute,
                    "%s: the group does not fit SPM at the chosen split: "
                    "its buffers need %lld bytes per tile, SPM has %lld",
                    plan.compute_name, (long long)r.peak, (long long)c->spm);
    ok = false;
  }
  if (ok) {
    write_offsets(&plan, g, r.peak);
    char k_loads[64] = "";
    if (g->candidates[COPY_K])
      snprintf(k_loads, sizeof k_loads, ", K-slice loads %d of %d in %d",
               g->chosen[COPY_K], g->candidates[COPY_K], g->k_copies);
    if (c->stats)
      npuc_pass_remark(group,
                       "tx8be.group: SPM peak %lld bytes, max-live %lld, "
                       "%lld without reuse; %d buffers in %d copies (loads "
                       "%d of %d, stores %d of %d, intermediates %d of %d%s)",
                       (long long)r.peak, (long long)r.max_live,
                       (long long)g->bump, g->num_multi, g->num_copies,
                       g->chosen[COPY_LOAD], g->candidates[COPY_LOAD],
                       g->chosen[COPY_STORE], g->candidates[COPY_STORE],
                       g->chosen[COPY_INTERMEDIATE],
                       g->candidates[COPY_INTERMEDIATE], k_loads);
  }
  free(g);
  return ok;
}

bool npuc_tx8_spm_fit_group(const npuc_tx8_group_plan *p,
                            const int32_t *sharding, const int32_t *slice,
                            const bool *once, int64_t spm, int max_copies,
                            npuc_tx8_spm_fit *fit, char *err, size_t cap) {
  group_buffers *g = npuc_xmalloc(sizeof *g);
  npuc_tx8_spm_result r;
  bool ok =
      place_group(p, sharding, slice, once, spm, max_copies, g, &r, err, cap);
  fit->peak = ok ? r.peak : -1;
  fit->copies = ok ? g->num_copies : 1;
  fit->k_copies = ok ? g->k_copies : 1;
  fit->stores = ok && g->stores;
  for (int i = 0; i < NPUC_TX8_MAX_BUFFERS; ++i)
    fit->multi[i] = ok && i < p->num_buffers && g->copies[i] > 1;
  fit->intermediates =
      ok && g->chosen[COPY_INTERMEDIATE] == g->candidates[COPY_INTERMEDIATE];
  free(g);
  return ok;
}

static int64_t slices_per_tile(const npuc_tx8_group_plan *p,
                               const int32_t *sharding, const int32_t *slice);
static void group_lifetimes(const npuc_tx8_group_plan *p, const bool *once,
                            group_buffers *g);
static int copy_class(const npuc_tx8_group_plan *p, const bool *once, int i);

/* One try of a copy set: the plan, the copy-less buffers and each
 * buffer's class, where the result goes. */
typedef struct {
  const npuc_tx8_group_plan *p;
  const group_buffers *base;
  const int *cls;
  int64_t spm;
  group_buffers *g;
  npuc_tx8_spm_result *r;
  char *err;
  size_t cap;
} copy_try;

static int try_copies(copy_try *t, int copies, const bool *want);
static int greedy_intermediates(copy_try *t, bool *want);
static int try_slice_copies(copy_try *t, int most, bool with_k);

/* The placement of one temporal slice's buffers with the most copies that
 * fit `spm` (the software pipeline's multi-buffering), by benefit: every
 * per-slice buffer in `max_copies` .. 2 copies; then two copies of the
 * loads and the stored buffers plus the intermediates that still fit,
 * the longest-lived per byte first; then two copies of the loads only;
 * then one copy (r->peak above spm when even that does not fit). With a
 * reduce split each of these first with two copies of the K-slice loads
 * (their loop runs K slices per slice: its overlap comes first), then
 * without. `once` (NULL: the plan's): the buffers filled once per tile.
 * False after an allocator error (message in err). */
static bool place_group(const npuc_tx8_group_plan *p, const int32_t *sharding,
                        const int32_t *slice, const bool *once, int64_t spm,
                        int max_copies, group_buffers *g,
                        npuc_tx8_spm_result *r, char *err, size_t cap) {
  group_buffers *base = npuc_xmalloc(sizeof *base);
  memset(base, 0, sizeof *base);
  int64_t bump[NPUC_TX8_MAX_BUFFERS + 1];
  base->bump = npuc_tx8_group_spm_bytes(p, slice, bump);
  base->n = p->num_buffers + 1;
  for (int i = 0; i < p->num_buffers; ++i)
    base->bufs[i].bytes = npuc_tx8_group_buffer_bytes(p, i, slice);
  base->bufs[p->num_buffers].bytes = base->bump - bump[p->num_buffers];
  group_lifetimes(p, once, base);
  int cls[NPUC_TX8_MAX_BUFFERS];
  for (int i = 0; i < p->num_buffers; ++i)
    cls[i] = base->bufs[i].bytes > 0 ? copy_class(p, once, i) : COPY_NONE;
  int64_t slices = slices_per_tile(p, sharding, slice);
  int most = slices < max_copies ? (int)slices : max_copies;
  copy_try t = {p, base, cls, spm, g, r, err, cap};
  bool any_k = false;
  for (int i = 0; i < p->num_buffers; ++i)
    any_k = any_k || cls[i] == COPY_K;
  int fits = any_k && max_copies >= 2 ? try_slice_copies(&t, most, true) : 0;
  if (fits == 0)
    fits = try_slice_copies(&t, most, false);
  free(base);
  return fits >= 0;
}

/* The ladder of place_group for the per-slice buffers, every K-slice load
 * in two copies too when `with_k`: 1 when a rung fits (its placement in
 * t->g), 0 when none does (the last, one copy, left in t->g), -1 after
 * an allocator error. */
static int try_slice_copies(copy_try *t, int most, bool with_k) {
  const npuc_tx8_group_plan *p = t->p;
  const int *cls = t->cls;
  bool want[NPUC_TX8_MAX_BUFFERS];
  int fits = 0;
  for (int n = most; n >= 2 && fits == 0; --n) {
    for (int i = 0; i < p->num_buffers; ++i)
      want[i] = cls[i] != COPY_NONE && (with_k || cls[i] != COPY_K);
    fits = try_copies(t, n, want);
  }
  if (fits == 0 && most >= 2) {
    for (int i = 0; i < p->num_buffers; ++i)
      want[i] = cls[i] == COPY_LOAD || cls[i] == COPY_STORE ||
                (with_k && cls[i] == COPY_K);
    fits = try_copies(t, 2, want);
    if (fits == 1)
      fits = greedy_intermediates(t, want);
  }
  if (fits == 0 && most >= 2) {
    for (int i = 0; i < p->num_buffers; ++i)
      want[i] = cls[i] == COPY_LOAD || (with_k && cls[i] == COPY_K);
    fits = try_copies(t, 2, want);
  }
  if (fits == 0) {
    for (int i = 0; i < p->num_buffers; ++i)
      want[i] = with_k && cls[i] == COPY_K;
    fits = try_copies(t, 1, want);
  }
  return fits;
}

static void add_copies(const npuc_tx8_group_plan *p, group_buffers *g,
                       int copies, const int *cls, const bool *want);

/* `copies` copies of the buffers `want` asks for, placed: 1 when the peak
 * fits spm, 0 when not, -1 after an allocator error (in err). */
static int try_copies(copy_try *t, int copies, const bool *want) {
  *t->g = *t->base;
  add_copies(t->p, t->g, copies, t->cls, want);
  if (!npuc_tx8_spm_alloc(t->g->bufs, t->g->n, t->g->offsets, t->r, t->err,
                          t->cap))
    return -1;
  return t->r->peak <= t->spm && t->r->peak <= UINT32_MAX;
}

static int by_benefit(const copy_try *t, int *order);

/* Two copies of `want` (which fit) plus each intermediate that still
 * fits, by benefit; leaves the chosen set's placement in t->g (1). */
static int greedy_intermediates(copy_try *t, bool *want) {
  int order[NPUC_TX8_MAX_BUFFERS];
  int n = by_benefit(t, order);
  for (int k = 0; k < n; ++k) {
    want[order[k]] = true;
    int fits = try_copies(t, 2, want);
    if (fits < 0)
      return -1;
    want[order[k]] = fits == 1;
  }
  return try_copies(t, 2, want); /* the last try may not have fitted */
}

/* The intermediates, the most overlap per SPM byte first: a copy lets
 * the next slice write the buffer while this slice still reads it, which
 * matters the longer it lives (in steps); on a tie the smaller first. */
static int by_benefit(const copy_try *t, int *order) {
  int n = 0;
  for (int i = 0; i < t->p->num_buffers; ++i) {
    if (t->cls[i] != COPY_INTERMEDIATE)
      continue;
    const npuc_tx8_spm_buffer *x = &t->base->bufs[i];
    int j = n++;
    for (; j > 0; --j) { /* insertion sort: few, stable */
      const npuc_tx8_spm_buffer *y = &t->base->bufs[order[j - 1]];
      int64_t lx = x->last - x->first + 1, ly = y->last - y->first + 1;
      if (lx * y->bytes <= ly * x->bytes) /* lx/bx <= ly/by */
        break;
      order[j] = order[j - 1];
    }
    order[j] = i;
  }
  return n;
}

/* tx8-sharding's temporal slice, checked as the code generator checks it,
 * and its sharding (1 per dimension when absent). */
static bool read_slice(const npuc_tx8_group_plan *p, int32_t *slice,
                       int32_t *sharding) {
  npuc_tx8_dev_attr dev;
  npuc_tx8_attr_status st = npuc_tx8_op_dev_attr(p->compute, &dev);
  int rank = p->out.rank;
  if (st == NPUC_TX8_ATTR_MALFORMED)
    return false;
  if (st == NPUC_TX8_ATTR_ABSENT || dev.temporal_mem_slice.len != rank) {
    npuc_pass_error(p->compute,
                    "%s: no dev_info temporal_mem_slice of its rank (run "
                    "tx8-sharding first)",
                    p->compute_name);
    return false;
  }
  npuc_tx8_parallel_attr par;
  bool has_par = npuc_tx8_op_parallel_attr(p->compute, "tile_parallel", &par) ==
                     NPUC_TX8_ATTR_PRESENT &&
                 par.shape_spatial_sharding.len == rank;
  for (int d = 0; d < rank; ++d) {
    int64_t s = dev.temporal_mem_slice.v[d];
    if (s < 1 || s > p->out.dims[d]) {
      npuc_pass_error(p->compute,
                      "%s: temporal_mem_slice dimension %d is %lld, "
                      "outside [1, %lld]",
                      p->compute_name, d, (long long)s,
                      (long long)p->out.dims[d]);
      return false;
    }
    slice[d] = (int32_t)s;
    int64_t ways = has_par ? par.shape_spatial_sharding.v[d] : 1;
    sharding[d] = ways < 1 || ways > p->out.dims[d] ? 1 : (int32_t)ways;
  }
  return true;
}

/* The temporal slices of the tile with the largest part: more copies than
 * slices are never used. */
static int64_t slices_per_tile(const npuc_tx8_group_plan *p,
                               const int32_t *sharding, const int32_t *slice) {
  int64_t slices = 1;
  for (int d = 0; d < p->out.rank; ++d) {
    int64_t ways = sharding[d], part;
    part = (p->out.dims[d] + ways - 1) / ways;
    slices *= (part + slice[d] - 1) / slice[d];
    if (slices > MAX_COPIES)
      return slices; /* enough to know */
  }
  return slices;
}

/* The plan read the loads' and the compute op's dev_info; the
 * channel_norms' are read here, before anything is written. */
static bool dev_infos_readable(const npuc_tx8_group_plan *p) {
  npuc_tx8_dev_attr dev;
  for (int i = 0; i < p->num_buffers; ++i)
    if (npuc_tx8_op_dev_attr(p->buffers[i].op, &dev) == NPUC_TX8_ATTR_MALFORMED)
      return false;
  return true;
}

/* SA_BufferLife for a group: the plan's steps are the order the code
 * generator emits them in, and the plan records for every buffer the step
 * writing it, the last step reading it (a store included; an invariant
 * buffer spans every step) and the buffer it may take over in place
 * (memInplace: operand 0 of a mem_inplace op, dead after it, of its size
 * and layout; the allocator shares them only if that operand dies at this
 * step). The scratch of the ops that need one (batchnorm's) is one region
 * over every step: the plan sizes it for the largest. */
static void group_lifetimes(const npuc_tx8_group_plan *p, const bool *once,
                            group_buffers *g) {
  for (int i = 0; i < p->num_buffers; ++i) {
    const npuc_tx8_buffer *b = &p->buffers[i];
    bool whole = once && once[i] && !npuc_tx8_buffer_once(b);
    g->bufs[i].first = whole ? 0 : b->first_step;
    g->bufs[i].last =
        whole && p->num_steps > 0 ? p->num_steps - 1 : b->last_step;
    g->bufs[i].inplace_of = b->inplace_of;
    if (once && b->inplace_of >= 0 && once[b->inplace_of])
      g->bufs[i].inplace_of = -1; /* no longer dies at the op */
  }
  /* Not the allocator's one-step imm: it spans the group. */
  npuc_tx8_spm_buffer *scratch = &g->bufs[p->num_buffers];
  scratch->first = 0;
  scratch->last = p->num_steps > 0 ? p->num_steps - 1 : 0;
  scratch->inplace_of = -1;
}

static bool load_target(const npuc_tx8_group_plan *p, int i);

/* What a copy of buffer i would let overlap (COPY_NONE: it takes none):
 * a buffer filled once per tile (invariant, resident) or the partial sums
 * keep one; of a reduce split's K-slice buffers the ones its loads write
 * take COPY_K (the channel_norms after them keep one: the K loop runs
 * them in turn with the NE op); a load filled straight into its
 * channel_norm is that buffer's. */
static int copy_class(const npuc_tx8_group_plan *p, const bool *once, int i) {
  const npuc_tx8_buffer *b = &p->buffers[i];
  if ((once ? once[i] : npuc_tx8_buffer_once(b)) ||
      b->kind == NPUC_TX8_BUF_PSUM)
    return COPY_NONE;
  if (npuc_tx8_buffer_in_reduce(p, i))
    return load_target(p, i) ? COPY_K : COPY_NONE;
  if (load_target(p, i))
    return COPY_LOAD;
  if (b->kind == NPUC_TX8_BUF_LOAD)
    return COPY_NONE; /* its channel_norm holds it */
  for (int s = 0; s < p->num_stores; ++s)
    if (p->stores[s].buffer == i)
      return COPY_STORE;
  return COPY_INTERMEDIATE;
}

/* Whether a load writes buffer i: its own, or the channel_norm it is
 * filled straight into. */
static bool load_target(const npuc_tx8_group_plan *p, int i) {
  const npuc_tx8_buffer *b = &p->buffers[i];
  if (b->kind == NPUC_TX8_BUF_LOAD)
    return b->load_into < 0;
  return b->kind == NPUC_TX8_BUF_NORM && p->buffers[b->source].load_into == i;
}

/* How many SPM buffers op `op` defines (its mem_addr holds a slot each,
 * times its copies). */
static int op_buffer_count(const npuc_tx8_group_plan *p, MlirOperation op) {
  int k = 0;
  for (int j = 0; j < p->num_buffers; ++j)
    k += mlirOperationEqual(p->buffers[j].op, op);
  return k;
}

/* The seed's multi-buffering with its retract across iterations: each
 * buffer `want` asks for gets `copies` blocks (fewer when its op's
 * mem_addr cannot list them all: slots x copies <= NPUC_TX8_MAX_LIST),
 * slice k using copy k % copies, and they all live over the whole slice
 * (the next slice's load lands in one while this slice computes from
 * another, the store of one drains while the next slice writes another,
 * the next slice's op writes one while this slice still reads another):
 * nothing else shares them, in place or by reuse. */
static void add_copies(const npuc_tx8_group_plan *p, group_buffers *g,
                       int copies, const int *cls, const bool *want) {
  int last = p->num_steps > 0 ? p->num_steps - 1 : 0;
  g->num_multi = 0;
  g->num_copies = 1;
  g->k_copies = 1;
  memset(g->candidates, 0, sizeof g->candidates);
  memset(g->chosen, 0, sizeof g->chosen);
  for (int i = 0; i < p->num_buffers; ++i) {
    g->copies[i] = 1;
    g->copy_at[i][0] = i;
    if (cls[i] == COPY_NONE)
      continue;
    g->candidates[cls[i]]++;
    int n = cls[i] == COPY_K ? K_COPIES : copies,
        most = NPUC_TX8_MAX_LIST / op_buffer_count(p, p->buffers[i].op);
    if (n > most)
      n = most;
    if (!want[i] || n < 2)
      continue;
    g->chosen[cls[i]]++;
    ++g->num_multi;
    g->copies[i] = n;
    int *most_of = cls[i] == COPY_K ? &g->k_copies : &g->num_copies;
    if (n > *most_of)
      *most_of = n;
    for (int j = 0; j < p->num_buffers; ++j)
      if (g->bufs[j].inplace_of == i)
        g->bufs[j].inplace_of = -1;
    g->bufs[i] = (npuc_tx8_spm_buffer){g->bufs[i].bytes, 0, last, -1, false};
    for (int c = 1; c < n; ++c) {
      g->copy_at[i][c] = g->n;
      g->bufs[g->n++] = g->bufs[i];
    }
  }
  g->stores = g->chosen[COPY_STORE] > 0;
}

/* ---- attributes
 * ------------------------------------------------------------------ */

static void write_op_addrs(const npuc_tx8_group_plan *p, const group_buffers *g,
                           int first);

static void write_offsets(const npuc_tx8_group_plan *p, const group_buffers *g,
                          int64_t peak) {
  for (int i = 0; i < p->num_buffers; ++i)
    if (npuc_tx8_buffer_addr_slot(p, i) == 0)
      write_op_addrs(p, g, i);
  npuc_tx8_dev_attr dev;
  if (npuc_tx8_op_dev_attr(p->compute, &dev) == NPUC_TX8_ATTR_PRESENT) {
    const npuc_tx8_spm_buffer *imm = &g->bufs[p->num_buffers];
    dev.imm_size = (uint64_t)imm->bytes;
    dev.imm_addr = imm->bytes ? g->offsets[p->num_buffers] : 0;
    npuc_tx8_op_set_dev_attr(p->compute, &dev);
  }
  MlirContext ctx = mlirOperationGetContext(p->group);
  MlirAttribute size =
      mlirIntegerAttrGet(mlirIntegerTypeUnsignedGet(ctx, 32), peak);
  mlirOperationSetAttributeByName(
      p->group, mlirStringRefCreateFromCString("spm_alloc_size"), size);
}

/* The mem_addr of the op defining buffer `first` and K - 1 later ones
 * (slots 0 .. K-1 in buffer order), copy-major: entry c * K + s is copy c
 * of slot s, so entries 0 .. K-1 are copy 0 of each (what
 * npuc_tx8_group_placement reads) and a buffer with fewer copies than the
 * op's multi_buf_num repeats its one address. */
static void write_op_addrs(const npuc_tx8_group_plan *p, const group_buffers *g,
                           int first) {
  MlirOperation op = p->buffers[first].op;
  int mine[NPUC_TX8_MAX_LIST], k = 0, n = 1;
  for (int j = first; j < p->num_buffers; ++j)
    if (mlirOperationEqual(p->buffers[j].op, op)) {
      mine[k++] = j;
      if (g->copies[j] > n)
        n = g->copies[j];
    }
  npuc_tx8_dev_attr dev;
  if (npuc_tx8_op_dev_attr(op, &dev) != NPUC_TX8_ATTR_PRESENT)
    dev = npuc_tx8_dev_attr_with_layout(p->buffers[first].mode);
  dev.mem_addr.len = k * n;
  for (int c = 0; c < n; ++c)
    for (int s = 0; s < k; ++s) {
      int b = mine[s];
      dev.mem_addr.v[c * k + s] =
          g->offsets[c < g->copies[b] ? g->copy_at[b][c] : b];
    }
  dev.multi_buf_en = n > 1;
  dev.multi_buf_num = n;
  npuc_tx8_op_set_dev_attr(op, &dev);
}
