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
  int num_copies; /* how many each has */
  bool stores;    /* the stored buffers have them too */
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
    if (c->stats)
      npuc_pass_remark(group,
                       "tx8be.group: SPM peak %lld bytes, max-live %lld, "
                       "%lld without reuse; %d buffers in %d copies",
                       (long long)r.peak, (long long)r.max_live,
                       (long long)g->bump, g->num_multi,
                       g->num_multi ? g->num_copies : 1);
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
  fit->copies = ok && g->num_multi ? g->num_copies : 1;
  fit->stores = ok && g->stores;
  for (int i = 0; i < NPUC_TX8_MAX_BUFFERS; ++i)
    fit->multi[i] = ok && i < p->num_buffers && g->copies[i] > 1;
  free(g);
  return ok;
}

static int64_t slices_per_tile(const npuc_tx8_group_plan *p,
                               const int32_t *sharding, const int32_t *slice);
static void group_lifetimes(const npuc_tx8_group_plan *p, const bool *once,
                            group_buffers *g);
static void add_copies(const npuc_tx8_group_plan *p, const bool *once,
                       group_buffers *g, int copies, bool stores);

/* The placement of one temporal slice's buffers with the most copies that
 * fit `spm` (the software pipeline's multi-buffering): of the loads and
 * the stored buffers, then of the loads only (the next slice's load is
 * what overlaps most), down to one; r->peak above spm when even that does
 * not fit. `once` (NULL: the plan's): the buffers filled once per tile.
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
  int64_t slices = slices_per_tile(p, sharding, slice);
  int most = slices < max_copies ? (int)slices : max_copies;
  if (most < 1)
    most = 1;
  bool ok = true;
  for (int i = 0, n = most - 1; i <= 2 * n; ++i) {
    /* most .. 2 copies of both, then most .. 2 of the loads, then one */
    bool both = i < n;
    int copies = i == 2 * n ? 1 : both ? most - i : most - (i - n);
    *g = *base;
    add_copies(p, once, g, copies, both);
    ok = npuc_tx8_spm_alloc(g->bufs, g->n, g->offsets, r, err, cap);
    if (!ok || (r->peak <= spm && r->peak <= UINT32_MAX))
      break;
  }
  free(base);
  return ok;
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

/* Whether buffer i is filled per slice by a load (its own, or the one
 * loading into it as a channel_norm) or stored per slice, and is the only
 * buffer its op defines (its copies are its mem_addr). */
static bool per_slice_io(const npuc_tx8_group_plan *p, const bool *once, int i,
                         bool stores) {
  const npuc_tx8_buffer *b = &p->buffers[i];
  /* Filled once per tile, or per K slice inside one output slice (a
   * reduce split's operands and partial sums): one copy. */
  if ((once ? once[i] : npuc_tx8_buffer_once(b)) ||
      npuc_tx8_buffer_in_reduce(p, i))
    return false;
  for (int j = 0; j < p->num_buffers; ++j)
    if (j != i && mlirOperationEqual(p->buffers[j].op, b->op))
      return false;
  if ((b->kind == NPUC_TX8_BUF_LOAD && b->load_into < 0) ||
      (b->kind == NPUC_TX8_BUF_NORM && p->buffers[b->source].load_into == i))
    return true;
  for (int s = 0; s < p->num_stores && stores; ++s)
    if (p->stores[s].buffer == i)
      return true;
  return false;
}

/* The seed's multi-buffering with its retract across iterations: each
 * per-slice load or stored buffer gets `copies` blocks, slice k using
 * copy k % copies, and they all live over the whole slice (the next
 * slice's load lands in one while this slice computes from another, the
 * store of one drains while the next slice writes another): nothing else
 * shares them, in place or by reuse. */
static void add_copies(const npuc_tx8_group_plan *p, const bool *once,
                       group_buffers *g, int copies, bool stores) {
  int last = p->num_steps > 0 ? p->num_steps - 1 : 0;
  g->num_multi = 0;
  g->num_copies = copies;
  g->stores = stores;
  for (int i = 0; i < p->num_buffers; ++i) {
    g->copies[i] = 1;
    g->copy_at[i][0] = i;
    if (copies < 2 || g->bufs[i].bytes <= 0 ||
        !per_slice_io(p, once, i, stores))
      continue;
    ++g->num_multi;
    g->copies[i] = copies;
    for (int j = 0; j < p->num_buffers; ++j)
      if (g->bufs[j].inplace_of == i)
        g->bufs[j].inplace_of = -1;
    g->bufs[i] = (npuc_tx8_spm_buffer){g->bufs[i].bytes, 0, last, -1, false};
    for (int c = 1; c < copies; ++c) {
      g->copy_at[i][c] = g->n;
      g->bufs[g->n++] = g->bufs[i];
    }
  }
}

/* ---- attributes
 * ------------------------------------------------------------------ */

static void write_offsets(const npuc_tx8_group_plan *p, const group_buffers *g,
                          int64_t peak) {
  /* An op may define several buffers (a result and extracts of it): the
   * k-th buffer of an op is entry k of its mem_addr. */
  for (int i = 0; i < p->num_buffers; ++i) {
    npuc_tx8_dev_attr dev;
    int slot = npuc_tx8_buffer_addr_slot(p, i);
    if (npuc_tx8_op_dev_attr(p->buffers[i].op, &dev) != NPUC_TX8_ATTR_PRESENT)
      dev = npuc_tx8_dev_attr_with_layout(p->buffers[i].mode);
    if (slot == 0)
      dev.mem_addr.len = 1;
    else if (dev.mem_addr.len <= slot)
      dev.mem_addr.len = slot + 1;
    dev.mem_addr.v[slot] = g->offsets[i];
    dev.multi_buf_en = g->copies[i] > 1;
    dev.multi_buf_num = g->copies[i];
    if (g->copies[i] > 1) { /* the only buffer of its op: slot 0 */
      dev.mem_addr.len = g->copies[i];
      for (int c = 1; c < g->copies[i]; ++c)
        dev.mem_addr.v[c] = g->offsets[g->copy_at[i][c]];
    }
    npuc_tx8_op_set_dev_attr(p->buffers[i].op, &dev);
  }
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
