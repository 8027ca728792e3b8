/* tx8-sharding: splits each tx8be.group over the tiles and in time (the
 * seed's sharding + split, without its cost-model search). A group holds a
 * DAG of compute ops; its plan (npuc/Tx8Group.h) names the anchor output
 * whose slices drive the loop and the anchor dimensions every op of the
 * group allows to split (a dimension one op needs whole, as batchnorm's C,
 * is not split):
 *   1. sharding: the anchor output splits across the group's tiles along
 *      one such dimension (per op: batchnorm any; gemm its rows or N;
 *      conv N or H; elementwise any), the one that keeps the most tiles
 *      busy, the outermost on a tie; a tile_parallel with
 *      sharding_is_given = true is kept (after checking it);
 *   2. split: one tile's part is cut along its outermost splittable
 *      dimension, then the next, into the largest temporal slice whose
 *      buffers, all of the group's (npuc_tx8_group_spm_bytes), fit SPM.
 * Writes tile_parallel (shape_spatial_sharding) and dev_info
 * (temporal_mem_slice) on the anchor's compute op, dev_info (mem_addr, the
 * slice of its result) on every compute op and spm_alloc_size on the
 * group, the attributes the code generator reads; skips DDR-only groups
 * (group_tag 2 without a compute op). docs/passes/tx8-sharding.md. */
#include "Tx8Options.h"
#include "npuc/IR.h"
#include "npuc/OpList.h"
#include "npuc/Pass.h"
#include "npuc/Tx8Group.h"

#include <stddef.h>
#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHARDING_OPTIONS(X, T)                                                 \
  TX8_OPTION_TARGET_CONFIG(X, T)                                               \
  TX8_OPTION_SPM_BYTES(X, T)
NPUC_PASS_OPTIONS(sharding_options, SHARDING_OPTIONS);

NPUC_PASS_DEFINE(
    npuc_pass_tx8_sharding, "tx8-sharding",
    "Split each TX8 group across the tiles and into temporal slices that "
    "fit SPM",
    "builtin.module", run_sharding, NPUC_PASS_OPTIONS_OF(sharding_options));

typedef struct {
  int32_t sharding[NPUC_TX8_MAX_RANK];
  int32_t slice[NPUC_TX8_MAX_RANK];
  int64_t spm_bytes;
  int64_t offsets[NPUC_TX8_MAX_BUFFERS + 1];
} decision;

static unsigned group_op(MlirOperation op, void *user);
static bool shard_group(MlirOperation group, const npuc_tx8_target *t,
                        int64_t spm);

static bool run_sharding(MlirOperation module, const npuc_pass_options *opts,
                         const npuc_pass_context *ctx) {
  (void)ctx;
  npuc_tx8_target target;
  if (!npuc_tx8_pass_target(
          module, "tx8-sharding",
          NPUC_PASS_OPTS(sharding_options, opts)->target_config, &target))
    return false;
  int64_t spm = NPUC_PASS_OPTS(sharding_options, opts)->spm_bytes;
  if (spm <= 0)
    spm = target.spm_bytes;
  npuc_op_list list = {0};
  npuc_op_list_collect(module, MlirWalkPreOrder, group_op, NULL, &list);
  bool ok = true;
  for (size_t i = 0; i < list.count && ok; ++i)
    ok = shard_group(list.ops[i], &target, spm);
  npuc_op_list_free(&list);
  return ok;
}

static unsigned group_op(MlirOperation op, void *user) {
  (void)user;
  char name[64];
  if (strcmp(npuc_tx8_op_name(op, name, sizeof name), "tx8be.group") != 0)
    return NPUC_OP_PASS;
  return NPUC_OP_KEEP | NPUC_OP_SKIP_REGIONS; /* groups do not nest */
}

/* ---- one group
 * ----------------------------------------------------------------- */

static bool choose_sharding(const npuc_tx8_group_plan *p,
                            const npuc_tx8_target *t, int32_t tiles,
                            decision *d);
static bool choose_split(const npuc_tx8_group_plan *p, int64_t spm,
                         decision *d);
static void write_attrs(const npuc_tx8_group_plan *p, const decision *d,
                        int32_t tiles);

static bool shard_group(MlirOperation group, const npuc_tx8_target *t,
                        int64_t spm) {
  if (npuc_tx8_group_is_ddr_only(group))
    return true; /* works in DDR: no tiles, no SPM */
  npuc_tx8_group_plan plan;
  if (!npuc_tx8_group_plan_build(group, &plan))
    return false;
  decision d;
  memset(&d, 0, sizeof d);
  int32_t tiles = npuc_tx8_group_tiles(group, t);
  if (tiles <= 0 || !choose_sharding(&plan, t, tiles, &d) ||
      !choose_split(&plan, spm, &d))
    return false;
  write_attrs(&plan, &d, tiles);
  return true;
}

static int32_t ceil_div(int64_t a, int64_t b) {
  return (int32_t)((a + b - 1) / b);
}

/* Ways a dimension of `size` splits over `tiles` in equal chunks. */
static int32_t ways_over(int64_t size, int32_t tiles) {
  int32_t chunk = ceil_div(size, tiles);
  return ceil_div(size, chunk);
}

static bool check_given(const npuc_tx8_group_plan *p,
                        const npuc_tx8_parallel_attr *given, int32_t tiles,
                        decision *d);

static double tile_cost(const npuc_tx8_group_plan *p, const npuc_tx8_target *t,
                        const int32_t *ways);

/* Candidates: each legal anchor dimension alone over all the tiles, then
 * each pair of them (a x b ways, a * b <= tiles); the one whose busiest
 * tile costs least (tile_cost) wins, the earlier on a tie (so one
 * dimension, the outermost, when a pair gains nothing). */
static bool choose_sharding(const npuc_tx8_group_plan *p,
                            const npuc_tx8_target *t, int32_t tiles,
                            decision *d) {
  const npuc_tx8_shape *out = &p->out;
  npuc_tx8_parallel_attr given;
  switch (npuc_tx8_op_parallel_attr(p->compute, "tile_parallel", &given)) {
  case NPUC_TX8_ATTR_MALFORMED: return false;
  case NPUC_TX8_ATTR_PRESENT:
    if (given.sharding_is_given)
      return check_given(p, &given, tiles, d);
    break;
  case NPUC_TX8_ATTR_ABSENT: break;
  }
  uint32_t legal = p->shard_axes;
  int32_t ways[NPUC_TX8_MAX_RANK];
  double best = -1;
  for (int i = 0; i < out->rank; ++i)
    d->sharding[i] = 1;
  for (int i = 0; i < out->rank; ++i) {
    if (!(legal & (1u << i)))
      continue;
    for (int j = i; j < out->rank; ++j) {
      if (!(legal & (1u << j)))
        continue;
      /* j == i: dimension i alone; else a ways along i, tiles / a along j */
      for (int32_t a = j == i ? tiles : 2; a <= tiles / (j == i ? 1 : 2); ++a) {
        for (int k = 0; k < out->rank; ++k)
          ways[k] = 1;
        ways[i] = ways_over(out->dims[i], a);
        if (j != i)
          ways[j] = ways_over(out->dims[j], tiles / a);
        double cost = tile_cost(p, t, ways);
        if (best < 0 || cost < best) {
          best = cost;
          memcpy(d->sharding, ways, sizeof ways);
        }
      }
    }
  }
  return true;
}

static double ne_flops(const npuc_tx8_slice_op *s, double out_elems);

/* The cycles the busiest tile of `ways` spends, to first order: its DDR
 * bytes (every non-invariant load at its largest window, each output
 * part; an invariant load, read once and shared over the NoC, 1/tiles of
 * it) at its share of the chip's DDR bandwidth, plus its compute (each
 * result's bytes at the CGRA's rate, a gemm's or conv's FLOPs at its
 * share of the NE's). Halos, weights read per tile and idle tiles are
 * what tell candidates apart. */
static double tile_cost(const npuc_tx8_group_plan *p, const npuc_tx8_target *t,
                        const int32_t *ways) {
  int32_t part[NPUC_TX8_MAX_RANK], tiles = 1;
  for (int i = 0; i < p->out.rank; ++i) {
    part[i] = ceil_div(p->out.dims[i], ways[i]);
    tiles *= ways[i];
  }
  int64_t all = (int64_t)t->tiles_x * t->tiles_y;
  double ddr_rate = t->ddr_gbytes_per_s / t->clock_ghz / (double)all;
  double ne_rate = t->ne_tflops_fp16 * 1e3 / t->clock_ghz / (double)all;
  double ddr = 0, ct = 0, ne = 0;
  for (int i = 0; i < p->num_buffers; ++i) {
    const npuc_tx8_buffer *b = &p->buffers[i];
    /* a load into its channel_norm's layout moves the norm's bytes */
    int moved =
        b->kind == NPUC_TX8_BUF_LOAD && b->load_into >= 0 ? b->load_into : i;
    double bytes = (double)npuc_tx8_group_buffer_bytes(p, moved, part);
    if (b->kind == NPUC_TX8_BUF_LOAD)
      ddr += b->invariant ? bytes / tiles : bytes;
    else if (b->kind == NPUC_TX8_BUF_RESULT)
      ct += bytes;
  }
  for (int s = 0; s < p->num_stores; ++s)
    ddr += (double)npuc_tx8_group_buffer_bytes(p, p->stores[s].buffer, part);
  for (int k = 0; k < p->num_ops; ++k) {
    const npuc_tx8_buffer *r = &p->buffers[p->ops[k].result];
    int32_t whole[NPUC_TX8_MAX_RANK], max[NPUC_TX8_MAX_RANK];
    double elems = 1;
    for (int i = 0; i < r->shape.rank; ++i)
      whole[i] = (int32_t)r->shape.dims[i];
    npuc_tx8_window_max(r->windows, whole, r->shape.rank, part, max);
    for (int i = 0; i < r->shape.rank; ++i)
      elems *= max[i];
    ne += ne_flops(&p->ops[k].slice, elems);
  }
  return ddr / ddr_rate + ct / (double)t->ct_bytes_per_cycle + ne / ne_rate;
}

/* A gemm's or conv's FLOPs for `out_elems` outputs: 2 x its reduction
 * length each; 0 for the other ops. In double: an estimate, no overflow. */
static double ne_flops(const npuc_tx8_slice_op *s, double out_elems) {
  if (s->kind == NPUC_TX8_KIND_CONV) {
    const int64_t *w = s->operands[1].dims; /* HWOI */
    return 2.0 * out_elems * (double)w[0] * (double)w[1] * (double)w[3];
  }
  if (s->kind == NPUC_TX8_KIND_GEMM) {
    const npuc_tx8_shape *a = &s->operands[0];
    return 2.0 * out_elems *
           (double)a->dims[a->rank - (s->transpose_a ? 2 : 1)];
  }
  return 0;
}

static bool check_given(const npuc_tx8_group_plan *p,
                        const npuc_tx8_parallel_attr *given, int32_t tiles,
                        decision *d) {
  const npuc_tx8_shape *out = &p->out;
  const npuc_tx8_list *s = &given->shape_spatial_sharding;
  uint32_t legal = p->shard_axes;
  if (s->len != out->rank) {
    npuc_op_error(p->compute,
                  "%s: the given shape_spatial_sharding has %d "
                  "entries for a rank-%d result",
                  p->compute_name, s->len, out->rank);
    return false;
  }
  int64_t product = 1;
  for (int i = 0; i < out->rank; ++i) {
    if (s->v[i] < 1 || s->v[i] > out->dims[i] ||
        (s->v[i] > 1 && !(legal & (1u << i)))) {
      npuc_op_error(p->compute,
                    "%s: the given sharding splits dimension %d "
                    "%lld ways, which the slice rules of the group's "
                    "ops do not allow",
                    p->compute_name, i, (long long)s->v[i]);
      return false;
    }
    d->sharding[i] = (int32_t)s->v[i];
    product *= s->v[i];
  }
  if (product > tiles) {
    npuc_op_error(p->compute,
                  "%s: the given sharding needs %lld tiles, the "
                  "group has %d",
                  p->compute_name, (long long)product, tiles);
    return false;
  }
  return true;
}

/* Largest slice of dimension `dim` in [1, d->slice[dim]] that fits,
 * others fixed: bytes grow with the slice, so bisect. 0 if none. */
static int32_t largest_fitting(const npuc_tx8_group_plan *p, int64_t spm,
                               decision *d, int dim) {
  int32_t lo = 1, hi = d->slice[dim], best = 0;
  while (lo <= hi) {
    int32_t mid = lo + (hi - lo) / 2;
    d->slice[dim] = mid;
    if (npuc_tx8_group_spm_bytes(p, d->slice, NULL) <= spm)
      best = mid, lo = mid + 1;
    else
      hi = mid - 1;
  }
  d->slice[dim] = best ? best : 1;
  return best;
}

static bool choose_split(const npuc_tx8_group_plan *p, int64_t spm,
                         decision *d) {
  const npuc_tx8_shape *out = &p->out;
  for (int i = 0; i < out->rank; ++i)
    d->slice[i] = ceil_div(out->dims[i], d->sharding[i]);
  uint32_t splittable = p->split_axes;
  bool fits = npuc_tx8_group_spm_bytes(p, d->slice, NULL) <= spm;
  for (int i = 0; i < out->rank && !fits; ++i)
    if (splittable & (1u << i))
      fits = largest_fitting(p, spm, d, i) > 0;
  d->spm_bytes = npuc_tx8_group_spm_bytes(p, d->slice, d->offsets);
  if (fits)
    return true;
  char slice[128] = "";
  for (int i = 0, n = 0; i < out->rank; ++i)
    n += snprintf(slice + n, sizeof slice - (size_t)n, "%s%d", i ? "x" : "",
                  d->slice[i]);
  npuc_op_error(p->compute,
                "%s: the group does not fit SPM even at the "
                "finest split: a %s slice needs %lld bytes per "
                "tile, SPM has %lld",
                p->compute_name, slice, (long long)d->spm_bytes,
                (long long)spm);
  return false;
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
