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
#include <string.h>

#define SPM_ALLOC_OPTIONS(X, T)                                                \
  TX8_OPTION_TARGET_CONFIG(X, T)                                               \
  TX8_OPTION_SPM_BYTES(X, T)                                                   \
  X(T, bool, stats, "stats", NPUC_OPT_BOOL, "false", NULL,                     \
    "a remark per group: the peak, the max-live bound, the bytes without "     \
    "reuse")
NPUC_PASS_OPTIONS(spm_alloc_options, SPM_ALLOC_OPTIONS);

NPUC_PASS_DEFINE(npuc_pass_tx8_spm_alloc, "tx8-spm-alloc",
                 "Place each TX8 group's SPM buffers with reuse over their "
                 "lifetimes (mem_addr, imm_addr, spm_alloc_size)",
                 "builtin.module", run_spm_alloc,
                 NPUC_PASS_OPTIONS_OF(spm_alloc_options));

typedef struct {
  int64_t spm; /* bytes per tile */
  bool stats;
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
  alloc_config c = {o->spm_bytes > 0 ? o->spm_bytes : target.spm_bytes,
                    o->stats};
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

/* The allocator's input: the plan's buffers, then the scratch. */
typedef struct {
  npuc_tx8_spm_buffer bufs[NPUC_TX8_MAX_BUFFERS + 1];
  int64_t offsets[NPUC_TX8_MAX_BUFFERS + 1];
  int n;
  int64_t bump; /* the bytes without reuse: npuc_tx8_group_spm_bytes */
} group_buffers;

static bool read_slice(const npuc_tx8_group_plan *p, int32_t *slice);
static bool dev_infos_readable(const npuc_tx8_group_plan *p);
static void group_lifetimes(const npuc_tx8_group_plan *p, group_buffers *g);
static void mark_inplace(const npuc_tx8_group_plan *p, group_buffers *g);
static void write_offsets(const npuc_tx8_group_plan *p, const group_buffers *g,
                          int64_t peak);

static bool alloc_group(MlirOperation group, const alloc_config *c) {
  if (npuc_tx8_group_is_ddr_only(group))
    return true; /* works in DDR: no SPM */
  npuc_tx8_group_plan plan;
  int32_t slice[NPUC_TX8_MAX_RANK];
  if (!npuc_tx8_group_plan_build(group, &plan) || !read_slice(&plan, slice) ||
      !dev_infos_readable(&plan))
    return false;
  group_buffers g;
  memset(&g, 0, sizeof g);
  int64_t bump[NPUC_TX8_MAX_BUFFERS + 1];
  g.bump = npuc_tx8_group_spm_bytes(&plan, slice, bump);
  g.n = plan.num_buffers + 1;
  for (int i = 0; i < g.n; ++i)
    g.bufs[i].bytes = (i + 1 < g.n ? bump[i + 1] : g.bump) - bump[i];
  group_lifetimes(&plan, &g);
  mark_inplace(&plan, &g);
  npuc_tx8_spm_result r;
  char err[160];
  if (!npuc_tx8_spm_alloc(g.bufs, g.n, g.offsets, &r, err, sizeof err)) {
    npuc_pass_error(group, "tx8be.group: SPM allocation failed: %s", err);
    return false;
  }
  if (r.peak > c->spm || r.peak > UINT32_MAX) {
    npuc_pass_error(plan.compute,
                    "%s: the group does not fit SPM at the chosen split: "
                    "its buffers need %lld bytes per tile, SPM has %lld",
                    plan.compute_name, (long long)r.peak, (long long)c->spm);
    return false;
  }
  write_offsets(&plan, &g, r.peak);
  if (c->stats)
    npuc_pass_remark(group,
                     "tx8be.group: SPM peak %lld bytes, max-live %lld, "
                     "%lld without reuse",
                     (long long)r.peak, (long long)r.max_live,
                     (long long)g.bump);
  return true;
}

/* tx8-sharding's temporal slice, checked as the code generator checks it. */
static bool read_slice(const npuc_tx8_group_plan *p, int32_t *slice) {
  npuc_tx8_dev_attr dev;
  npuc_tx8_attr_status st = npuc_tx8_op_dev_attr(p->compute, &dev);
  int rank = p->slice.result.rank;
  if (st == NPUC_TX8_ATTR_MALFORMED)
    return false;
  if (st == NPUC_TX8_ATTR_ABSENT || dev.temporal_mem_slice.len != rank) {
    npuc_pass_error(p->compute,
                    "%s: no dev_info temporal_mem_slice of its rank (run "
                    "tx8-sharding first)",
                    p->compute_name);
    return false;
  }
  for (int d = 0; d < rank; ++d) {
    int64_t s = dev.temporal_mem_slice.v[d];
    if (s < 1 || s > p->slice.result.dims[d]) {
      npuc_pass_error(p->compute,
                      "%s: temporal_mem_slice dimension %d is %lld, "
                      "outside [1, %lld]",
                      p->compute_name, d, (long long)s,
                      (long long)p->slice.result.dims[d]);
      return false;
    }
    slice[d] = (int32_t)s;
  }
  return true;
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

/* SA_BufferLife for a group: which step defines each buffer and which is
 * its last reader. Steps are the group's order as the code generator
 * emits it: buffer i is defined at step i (the plan lists the loads,
 * channel_norms and the compute result in body order); a channel_norm
 * reads its source at its own step, the compute op its operands at the
 * result's step, and the stores follow every buffer (num_buffers + s:
 * never earlier than in the body, so never too short). The scratch lives
 * at the compute step. A plan of several compute ops records its own
 * steps; this function is what reads them. */
static void read_at(group_buffers *g, int buf, int32_t step) {
  if (g->bufs[buf].last < step)
    g->bufs[buf].last = step;
}

static void group_lifetimes(const npuc_tx8_group_plan *p, group_buffers *g) {
  for (int i = 0; i < p->num_buffers; ++i) {
    g->bufs[i].first = g->bufs[i].last = i;
    g->bufs[i].inplace_of = -1;
  }
  for (int i = 0; i < p->num_buffers; ++i)
    if (p->buffers[i].kind == NPUC_TX8_BUF_NORM)
      read_at(g, p->buffers[i].source, i);
  for (int k = 0; k < p->slice.num_operands; ++k)
    read_at(g, p->operand_buffer[k], p->result_buffer);
  for (int s = 0; s < p->num_stores; ++s)
    read_at(g, p->stores[s].buffer, p->num_buffers + s);
  npuc_tx8_spm_buffer *imm = &g->bufs[p->num_buffers];
  imm->first = imm->last = p->result_buffer;
  imm->inplace_of = -1;
  imm->is_imm = true;
}

/* memInplace: an elementwise op (the table's mem_inplace) may write its
 * result over its first operand when that operand has the result's
 * shape, dtype and layout (the C model reads each run before writing it);
 * the allocator shares them if the operand dies at this step. */
static void mark_inplace(const npuc_tx8_group_plan *p, group_buffers *g) {
  const npuc_tx8_slice_op *s = &p->slice;
  if ((s->kind != NPUC_TX8_KIND_UNARY && s->kind != NPUC_TX8_KIND_BINARY) ||
      !npuc_tx8_query_op(p->compute).mem_inplace || s->num_operands < 1)
    return;
  const npuc_tx8_buffer *in = &p->buffers[p->operand_buffer[0]];
  const npuc_tx8_buffer *out = &p->buffers[p->result_buffer];
  if (in->dtype != out->dtype || in->mode != out->mode ||
      in->shape.rank != out->shape.rank ||
      memcmp(in->shape.dims, out->shape.dims,
             (size_t)out->shape.rank * sizeof out->shape.dims[0]) != 0 ||
      memcmp(in->windows, out->windows,
             (size_t)out->shape.rank * sizeof out->windows[0]) != 0)
    return;
  g->bufs[p->result_buffer].inplace_of = p->operand_buffer[0];
}

/* ---- attributes
 * ------------------------------------------------------------------ */

static void write_offsets(const npuc_tx8_group_plan *p, const group_buffers *g,
                          int64_t peak) {
  for (int i = 0; i < p->num_buffers; ++i) {
    npuc_tx8_dev_attr dev;
    if (npuc_tx8_op_dev_attr(p->buffers[i].op, &dev) != NPUC_TX8_ATTR_PRESENT)
      dev = npuc_tx8_dev_attr_with_layout(p->buffers[i].mode);
    dev.mem_addr.len = 1;
    dev.mem_addr.v[0] = g->offsets[i];
    if (i == p->result_buffer) {
      const npuc_tx8_spm_buffer *imm = &g->bufs[p->num_buffers];
      dev.imm_size = (uint64_t)imm->bytes;
      dev.imm_addr = imm->bytes ? g->offsets[p->num_buffers] : 0;
    }
    npuc_tx8_op_set_dev_attr(p->buffers[i].op, &dev);
  }
  MlirContext ctx = mlirOperationGetContext(p->group);
  MlirAttribute size =
      mlirIntegerAttrGet(mlirIntegerTypeUnsignedGet(ctx, 32), peak);
  mlirOperationSetAttributeByName(
      p->group, mlirStringRefCreateFromCString("spm_alloc_size"), size);
}
