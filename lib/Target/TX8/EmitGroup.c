/* One tx8be.group as C: the function every tile runs, the seed's main.c
 * loop over the temporal slices of the tile's part of the anchor output,
 * software-pipelined (the seed's TS_SwPipelinePass):
 *     load slice 0;
 *     for each slice k: load slice k + 1; store slice k - 1; compute
 *                       slice k;
 *     store the last slice;
 * where a per-slice buffer has several copies (tx8-spm-alloc's
 * multi_buf_num, slice k in copy k % n); a load or store of a buffer in
 * one copy stays in its slice. A group tx8-sharding marks sp_stage_num 3
 * runs the staged loop instead (emit_staged_loop: slice k + 2's loads and
 * head, slice k - 1's stores, slice k + 1's ops before the last NE op,
 * slice k's from it on). A reduce split's K loop inside a slice is
 * pipelined the same way when its K-slice loads have copies
 * (emit_k_ahead: K slice j + 1's loads before K slice j's NE op). G_SHAPE
 * walks the slices, each buffer's L_SHAPE
 * comes from the anchor slice through its windows, TSRs place the slices in SPM
 * (offsets from tx8-spm-alloc or the group plan); then the plan's steps
 * run in order: loads, channel_norms, extracts, the compute ops on SPM
 * buffers, stores. One call per step, whatever the number of slices;
 * each bracketed by npuc_tx8_tl_begin/_end with the SPM ranges it reads
 * and writes, so the C model's timeline overlaps the engines. */
#include "EmitInternal.h"
#include "npuc/Checked.h"
#include "npuc/IR.h"
#include "npuc/Tx8LoopCost.h"
#include "npuc/Tx8SpmAlloc.h"

#include <mlir-c/BuiltinAttributes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  tx8_program *prog;
  npuc_tx8_group_plan plan;
  int32_t sharding[NPUC_TX8_MAX_RANK];
  int32_t slice[NPUC_TX8_MAX_RANK];
  int64_t offsets[NPUC_TX8_MAX_BUFFERS + 1];
  int64_t spm_bytes;                     /* one slice's buffers and scratch */
  int64_t spm_alloc;                     /* the group's spm_alloc_size */
  int operand_ddr[NPUC_TX8_MAX_BUFFERS]; /* group operand -> DDR tensor */
  int result_ddr[NPUC_TX8_MAX_STORES];   /* group result -> DDR tensor */
  int32_t parts; /* the tiles with a part of the output */
  int id;        /* the group's number */
  /* tx8-spm-alloc's multi-buffering: a buffer's copies (1: one) and
   * their offsets, slice s in copy s % copies. */
  int copies[NPUC_TX8_MAX_BUFFERS];
  int64_t addr[NPUC_TX8_MAX_BUFFERS][NPUC_TX8_MAX_LIST];
  /* The invariant steps issued after slice 0's loads (order_invariants):
   * late[step]; in the prologue, or in slice 0 before step tail_at. */
  bool late[NPUC_TX8_MAX_STEPS];
  bool any_late, late_in_prologue;
  int tail_at;
  /* The next slice's head (retract): head[step] for the channel_norms and
   * extracts of buffers loaded a slice ahead, into buffers with copies;
   * issued in slice k for slice k + 1 before step retract_at (slice 0's
   * in the prologue). retract_at -1: none. */
  bool head[NPUC_TX8_MAX_STEPS];
  int retract_at;
  /* Emitting slice k + 1's loads in the loop: a load whose consecutive
   * slices overlap keeps what slice k's copy already holds (halo_load),
   * the slice before's set being `prev_set`; with `split_halo` the load
   * reads only the rest (the copy of the rows kept is a step of the
   * head, emit_keeps). */
  bool after_prev, split_halo;
  const char *prev_set;
  /* The staged loop (npuc_tx8_loop_stage_cut): each step's stage, and
   * the sets of L_SHAPEs and TSRs (2, or 4 when staged: slices k - 1 to
   * k + 2). */
  bool staged;
  int8_t stage[NPUC_TX8_MAX_STEPS];
  /* A head step only stage 0 reads (an extract for the residual add):
   * issued after the iteration's stage 0 (mark_late). */
  bool late_head[NPUC_TX8_MAX_STEPS];
  /* A fill read whole (late[]) that only stage 0's ops after its NE op
   * read: issued after slice 1's loads (mark_tail_fills). */
  bool tail_fill[NPUC_TX8_MAX_STEPS];
  int sets;
  /* A reduce split's K loop pipelined (k_ahead_step): some K-slice load
   * has copies, K slice j in copy kc % copies (kc counting the tile's K
   * slices, so consecutive ones alternate across slices too). */
  bool k_ahead;
  npuc_sb *out;
} group_emitter;

static bool read_decision(group_emitter *g);
static bool read_copies(group_emitter *g);
static bool map_ddr(group_emitter *g);
static void emit_tables(group_emitter *g, int id);
static void emit_loop(group_emitter *g);

bool tx8_emit_group(tx8_program *prog, MlirOperation group, int id,
                    npuc_sb *out) {
  group_emitter g;
  memset(&g, 0, sizeof g);
  g.prog = prog;
  g.out = out;
  g.id = id;
  g.prev_set = "cur";
  g.sets = 2;
  if (!npuc_tx8_group_plan_build(group, &g.plan) || !read_decision(&g) ||
      !read_copies(&g) || !map_ddr(&g))
    return false;
  emit_tables(&g, id);
  emit_loop(&g);
  return true;
}

/* ---- what tx8-sharding decided
 * ----------------------------------------------------- */

static bool read_decision(group_emitter *g) {
  npuc_tx8_group_plan *p = &g->plan;
  int rank = p->out.rank;
  int64_t sharding[NPUC_TX8_MAX_RANK], slices[NPUC_TX8_MAX_RANK];
  npuc_tx8_attr_status st = npuc_tx8_group_decision(p, sharding, slices);
  if (st == NPUC_TX8_ATTR_MALFORMED)
    return false;
  if (st != NPUC_TX8_ATTR_PRESENT) {
    npuc_op_error(p->compute,
                  "%s: no tile_parallel sharding and dev_info "
                  "temporal_mem_slice of its rank (run "
                  "tx8-sharding first)",
                  p->compute_name);
    return false;
  }
  int64_t tiles = 1;
  for (int d = 0; d < rank; ++d) {
    int64_t ways = sharding[d], s = slices[d];
    if (ways < 1 || ways > p->out.dims[d] || s < 1 || s > p->out.dims[d]) {
      npuc_op_error(p->compute,
                    "%s: dimension %d: sharding %lld or slice "
                    "%lld out of range",
                    p->compute_name, d, (long long)ways, (long long)s);
      return false;
    }
    g->sharding[d] = (int32_t)ways;
    g->slice[d] = (int32_t)s;
    tiles *= ways;
  }
  tiles *= p->reduce_ways; /* a team of tiles per part: K across them */
  g->parts = (int32_t)tiles;
  if (tiles > g->prog->tiles) {
    npuc_op_error(p->compute,
                  "%s: the sharding needs %lld tiles, the "
                  "program has %d",
                  p->compute_name, (long long)tiles, g->prog->tiles);
    return false;
  }
  /* tx8-spm-alloc's offsets when it ran, else the bump placement */
  int64_t need = g->spm_bytes =
      npuc_tx8_group_placement(p, g->slice, g->offsets);
  if (need < 0)
    return false;
  MlirAttribute alloc = mlirOperationGetAttributeByName(
      p->group, mlirStringRefCreateFromCString("spm_alloc_size"));
  int64_t have = !mlirAttributeIsNull(alloc) && mlirAttributeIsAInteger(alloc)
                     ? (int64_t)mlirIntegerAttrGetValueUInt(alloc)
                     : -1;
  g->spm_alloc = have;
  if (have < need) {
    npuc_op_error(p->group,
                  "tx8be.group: spm_alloc_size %lld is less than "
                  "the %lld bytes its slices take (run tx8-sharding)",
                  (long long)have, (long long)need);
    return false;
  }
  return true;
}

/* How many SPM buffers buffer i's op defines: its mem_addr slots. */
static int op_slots(const npuc_tx8_group_plan *p, int i) {
  int k = 0;
  for (int j = 0; j < p->num_buffers; ++j)
    k += mlirOperationEqual(p->buffers[j].op, p->buffers[i].op);
  return k;
}

static bool read_buffer_copies(group_emitter *g, int i,
                               const npuc_tx8_dev_attr *dev);

static bool k_ahead_step(const group_emitter *g, const npuc_tx8_step *st);

/* tx8-spm-alloc's copies of the per-slice buffers: on the op defining K
 * buffers (slots 0 .. K-1, npuc_tx8_buffer_addr_slot), dev_info
 * multi_buf_en with multi_buf_num n and mem_addr of K x n entries,
 * copy-major (entry c * K + s: copy c of slot s; entries 0 .. K-1 are
 * the placement's). A buffer whose copies share one address has one; a
 * buffer filled once per tile, the partial sums, or a buffer of no bytes
 * has one; a reduce split's K-slice buffer has its copies by K slice.
 * A list of another length, copies partly shared or off SPM are located
 * errors. */
static bool read_copies(group_emitter *g) {
  const npuc_tx8_group_plan *p = &g->plan;
  for (int i = 0; i < p->num_buffers; ++i) {
    const npuc_tx8_buffer *b = &p->buffers[i];
    npuc_tx8_dev_attr dev;
    g->copies[i] = 1;
    g->addr[i][0] = g->offsets[i];
    if (npuc_tx8_buffer_once(b) || b->kind == NPUC_TX8_BUF_PSUM ||
        npuc_tx8_group_buffer_bytes(p, i, g->slice) == 0 ||
        npuc_tx8_op_dev_attr(b->op, &dev) != NPUC_TX8_ATTR_PRESENT ||
        !dev.multi_buf_en || dev.multi_buf_num < 2)
      continue;
    if (!read_buffer_copies(g, i, &dev))
      return false;
  }
  g->k_ahead = false;
  for (int i = 0; i < p->num_steps; ++i)
    g->k_ahead = g->k_ahead || k_ahead_step(g, &p->steps[i]);
  return true;
}

static bool read_buffer_copies(group_emitter *g, int i,
                               const npuc_tx8_dev_attr *dev) {
  const npuc_tx8_group_plan *p = &g->plan;
  char err[200];
  if (!npuc_tx8_spm_copies(
          dev->mem_addr.v, dev->mem_addr.len, dev->multi_buf_num,
          op_slots(p, i), npuc_tx8_buffer_addr_slot(p, i),
          npuc_tx8_group_buffer_bytes(p, i, g->slice), g->spm_alloc, g->addr[i],
          &g->copies[i], err, sizeof err)) {
    npuc_op_error(p->buffers[i].op, "dev_info: %s", err);
    return false;
  }
  return true;
}

static bool map_ddr(group_emitter *g) {
  MlirOperation group = g->plan.group;
  intptr_t n = mlirOperationGetNumOperands(group);
  if (n > NPUC_TX8_MAX_BUFFERS) {
    npuc_op_error(group, "tx8be.group: more than %d inputs",
                  NPUC_TX8_MAX_BUFFERS);
    return false;
  }
  for (intptr_t i = 0; i < n; ++i) {
    g->operand_ddr[i] =
        tx8_ddr_index(g->prog, mlirOperationGetOperand(group, i));
    if (g->operand_ddr[i] < 0) {
      npuc_op_error(group,
                    "tx8be.group: input #%zd is not a tensor in DDR "
                    "(a graph input, a constant or a group result)",
                    (ssize_t)i);
      return false;
    }
  }
  for (int s = 0; s < g->plan.num_stores; ++s)
    g->result_ddr[s] = tx8_ddr_index(
        g->prog, mlirOperationGetResult(group, g->plan.stores[s].result));
  return true;
}

/* Whether buffer `norm` (a channel_norm) is filled by its source's load. */
static bool norm_is_loaded(const group_emitter *g, int norm) {
  const npuc_tx8_buffer *b = &g->plan.buffers[norm];
  return b->kind == NPUC_TX8_BUF_NORM &&
         g->plan.buffers[b->source].load_into == norm;
}

/* ---- C text
 * -------------------------------------------------------------------------- */

static void ints(npuc_sb *sb, const int32_t *v, int n) {
  for (int i = 0; i < n; ++i)
    npuc_sb_printf(sb, "%s%d", i ? ", " : "", v[i]);
}

static void whole_of(const npuc_tx8_buffer *b, int32_t *whole) {
  for (int d = 0; d < b->shape.rank; ++d)
    whole[d] = (int32_t)b->shape.dims[d];
}

static const char *dtype_c(npuc_tx8_dtype dt) {
  static const char *const names[] = {"NPUC_TX8_F16", "NPUC_TX8_BF16",
                                      "NPUC_TX8_F32", "NPUC_TX8_I8"};
  return names[dt];
}

static const char *mode_c(npuc_tx8_layout_mode m) {
  static const char *const names[] = {"NPUC_TX8_TENSOR", "NPUC_TX8_NTENSOR",
                                      "NPUC_TX8_CX", "NPUC_TX8_NCX"};
  return names[m];
}

static void loc_comment(npuc_sb *sb, MlirOperation op) {
  char where[600];
  if (npuc_op_short_location(op, where, sizeof where))
    npuc_sb_printf(sb, " at %s", where);
}

static void emit_tables(group_emitter *g, int id) {
  npuc_tx8_group_plan *p = &g->plan;
  npuc_sb *o = g->out;
  int rank = p->out.rank;
  int32_t whole[NPUC_TX8_MAX_RANK];
  whole_of(&p->buffers[p->anchor], whole);
  npuc_sb_printf(o, "/* group %d: %s", id, p->compute_name);
  loc_comment(o, p->compute);
  if (p->num_ops > 1)
    npuc_sb_printf(o, " and %d more ops", p->num_ops - 1);
  npuc_sb_printf(o, ". Output [");
  ints(o, whole, rank);
  npuc_sb_printf(o, "] split [");
  ints(o, g->sharding, rank);
  npuc_sb_printf(o, "] over the tiles, in slices of [");
  ints(o, g->slice, rank);
  npuc_sb_printf(o, "]; %lld bytes of SPM. */\n", (long long)g->spm_bytes);
  npuc_sb_printf(
      o, "static uint64_t group%d(int tile, char *const *ddr, char *spm) {\n",
      id);
  npuc_sb_printf(o, "  static const int32_t out_shape[%d] = {", rank);
  ints(o, whole, rank);
  npuc_sb_printf(o, "}, sharding[%d] = {", rank);
  ints(o, g->sharding, rank);
  npuc_sb_printf(o, "}, slice[%d] = {", rank);
  ints(o, g->slice, rank);
  npuc_sb_printf(o, "};\n");
  for (int i = 0; i < p->num_buffers; ++i) {
    const npuc_tx8_buffer *b = &p->buffers[i];
    whole_of(b, whole);
    npuc_sb_printf(o, "  static const int32_t b%d_shape[%d] = {", i,
                   b->shape.rank);
    ints(o, whole, b->shape.rank);
    npuc_sb_printf(o, "};\n  static const npuc_tx8_window b%d_win[%d] = {", i,
                   b->shape.rank);
    for (int d = 0; d < b->shape.rank; ++d) {
      const npuc_tx8_window *w = &b->windows[d];
      npuc_sb_printf(o, "%s{%d, %d, %d, %d}", d ? ", " : "", w->out_dim,
                     w->scale, w->offset, w->extent);
    }
    npuc_sb_printf(o, "};\n");
    if (g->copies[i] > 1) {
      npuc_sb_printf(o, "  static const int64_t b%d_addr[%d] = {", i,
                     g->copies[i]);
      for (int c = 0; c < g->copies[i]; ++c)
        npuc_sb_printf(o, "%s%lld", c ? ", " : "", (long long)g->addr[i][c]);
      npuc_sb_printf(o, "};\n");
    }
  }
}

static void emit_load(group_emitter *g, int buf);
static void emit_norm(group_emitter *g, int buf);
static void emit_extract(group_emitter *g, int buf);
static void emit_compute(group_emitter *g, const npuc_tx8_group_op *op);
static void emit_store(group_emitter *g, int store);

static void emit_place(group_emitter *g, int i);
static void emit_place_in(group_emitter *g, int i, const char *slice);
static void emit_k_loop(group_emitter *g);
static void emit_k_team(group_emitter *g);
static void emit_k_team_loop(group_emitter *g);
static void emit_team_reduce(group_emitter *g);
static void emit_step(group_emitter *g, const npuc_tx8_step *st);
static void emit_set(group_emitter *g, const char *slice, const char *set);

/* Whether step `st` fills an invariant or resident buffer (done once per
 * tile). */
static bool invariant_step(const npuc_tx8_group_plan *p,
                           const npuc_tx8_step *st) {
  return st->kind != NPUC_TX8_STEP_COMPUTE && st->kind != NPUC_TX8_STEP_STORE &&
         npuc_tx8_buffer_once(&p->buffers[st->index]);
}

/* The SPM buffer a load step writes: its own, or its channel_norm's. */
static int load_target(const npuc_tx8_group_plan *p, int buf) {
  const npuc_tx8_buffer *b = &p->buffers[buf];
  return b->kind == NPUC_TX8_BUF_LOAD && b->load_into >= 0 ? b->load_into : buf;
}

/* A load of a reduce split's K slice into a buffer with copies: issued
 * one K slice ahead in the K loop (emit_k_ahead), K slice j + 1's data
 * landing beside K slice j's while the NE op reads that. */
static bool k_ahead_step(const group_emitter *g, const npuc_tx8_step *st) {
  return st->kind == NPUC_TX8_STEP_LOAD &&
         npuc_tx8_buffer_in_reduce(&g->plan, st->index) &&
         g->copies[load_target(&g->plan, st->index)] > 1;
}

/* A load issued one slice ahead (the pipeline's next-slice loads): per
 * slice, into a buffer with several copies, so slice k + 1's data lands
 * beside slice k's. A load into one copy waits for its slice. */
static bool early_step(const group_emitter *g, const npuc_tx8_step *st) {
  return st->kind == NPUC_TX8_STEP_LOAD &&
         !npuc_tx8_buffer_once(&g->plan.buffers[st->index]) &&
         !npuc_tx8_buffer_in_reduce(&g->plan, st->index) &&
         g->copies[load_target(&g->plan, st->index)] > 1;
}

static bool early_buffer(const group_emitter *g, int buf);

/* A store issued one slice late: of a buffer with several copies (which
 * nothing else shares, docs/passes/tx8-spm-alloc.md), not filled ahead.
 * Slice k's store goes after slice k + 2's loads (in iteration k + 1),
 * so on the tile's DDR channel, which takes transfers in issue order
 * where they do not fit an earlier gap, the load of slice k + 2 does not
 * queue behind the store of slice k, which waits for slice k's compute:
 * loads run ahead while the compute drains. Slice k + 1 writes the other
 * copy, so slice k's data is still there. */
static bool deferred_store(const group_emitter *g, const npuc_tx8_step *st) {
  if (st->kind != NPUC_TX8_STEP_STORE || g->plan.reduce_ways > 1)
    return false; /* a team's owner alone stores, in its block */
  int buf = g->plan.stores[st->index].buffer;
  return g->copies[buf] > 1 && !npuc_tx8_buffer_once(&g->plan.buffers[buf]) &&
         !early_buffer(g, buf);
}

/* A load of slice k + 1 issued in the loop (after_prev) whose
 * consecutive slices overlap (a window wider than its step: a
 * convolution's halo), read by the tile alone: op_dma_load_slice_after
 * copies the rows slice k's copy of the buffer already holds and reads
 * only the rest from DDR (where the slices step along one dimension). */
static bool halo_load(const group_emitter *g, int buf) {
  const npuc_tx8_group_plan *p = &g->plan;
  const npuc_tx8_buffer *b = &p->buffers[buf];
  int32_t stride;
  if (!g->after_prev || b->kind != NPUC_TX8_BUF_LOAD ||
      npuc_tx8_buffer_shared(p, buf, g->sharding, g->slice, &stride) > 1)
    return false;
  for (int d = 0; d < b->shape.rank; ++d)
    if (b->windows[d].out_dim >= 0 &&
        b->windows[d].extent > b->windows[d].scale)
      return true;
  return false;
}

/* A buffer filled ahead for the next slice: by its load, or by a head
 * step (placed with the loads issued ahead, in the next slice's set). */
static bool early_buffer(const group_emitter *g, int buf) {
  for (int i = 0; i < g->plan.num_steps; ++i) {
    const npuc_tx8_step *st = &g->plan.steps[i];
    if ((early_step(g, st) && load_target(&g->plan, st->index) == buf) ||
        (g->head[i] && st->index == buf))
      return true;
  }
  return false;
}

/* The seed's retract (getRetract/doRetract) of the head of the next
 * slice into this slice's tail: the channel_norms and extracts (TDMA) of
 * a buffer loaded a slice ahead, or of such a head's buffer, into
 * buffers with copies, run for slice k + 1 during slice k, issued before
 * slice k's last NE op (gemm or conv), so that on the in-order TDMA queue
 * they come after slice k's earlier TDMA work and the next slice's first
 * NE op finds its input ready when slice k's last one ends. Not with a
 * reduce split (the K loop) nor without an NE op. */
static void mark_heads(group_emitter *g) {
  const npuc_tx8_group_plan *p = &g->plan;
  memset(g->head, 0, sizeof g->head);
  g->retract_at = -1;
  for (int i = 0; i < p->num_steps; ++i) {
    const npuc_tx8_step *st = &p->steps[i];
    if (st->kind == NPUC_TX8_STEP_COMPUTE &&
        (p->ops[st->index].slice.kind == NPUC_TX8_KIND_GEMM ||
         p->ops[st->index].slice.kind == NPUC_TX8_KIND_CONV))
      g->retract_at = i;
  }
  if (p->reduce_op >= 0 || g->retract_at < 0) {
    g->retract_at = -1; /* nothing to retract: no empty block */
    return;
  }
  bool any = false;
  for (int i = 0; i < p->num_steps; ++i) {
    const npuc_tx8_step *st = &p->steps[i];
    if ((st->kind != NPUC_TX8_STEP_NORM && st->kind != NPUC_TX8_STEP_EXTRACT) ||
        invariant_step(p, st) || norm_is_loaded(g, st->index) ||
        g->copies[st->index] < 2)
      continue;
    int src = p->buffers[st->index].source;
    g->head[i] = src >= 0 && g->copies[src] > 1 && early_buffer(g, src);
    any = any || g->head[i];
  }
  if (!any)
    g->retract_at = -1;
}

static void order_invariants(group_emitter *g);
static void emit_invariants(group_emitter *g);
static void emit_late_invariants(group_emitter *g, const char *open,
                                 const char *close, bool own_set);
static void emit_tail_fills(group_emitter *g);
static void emit_slice_steps(group_emitter *g);
static void emit_early_loads(group_emitter *g, const char *slice,
                             const char *set);
static void emit_heads(group_emitter *g, const char *slice, const char *set);
static void emit_deferred_stores(group_emitter *g, const char *set);
static bool mark_stages(group_emitter *g);
static void mark_tail_fills(group_emitter *g, int cut);
static void emit_staged_loop(group_emitter *g);

/* The seed's pipelined loop (TS_SwPipeline): a prologue issuing slice 0's
 * loads, then per slice k: place its buffers, issue slice k + 1's loads
 * (into the other copies), compute slice k, store it. The C model runs
 * the calls in this order, each at once, so it computes what the serial
 * loop does; its timeline (npuc_tx8_tl_*) overlaps them where the
 * engines and buffers allow. Two sets of L_SHAPEs and TSRs (by slice
 * parity) hold slice k's and slice k + 1's. */
static void emit_loop(group_emitter *g) {
  npuc_tx8_group_plan *p = &g->plan;
  npuc_sb *o = g->out;
  int nb = p->num_buffers, n = g->sets = mark_stages(g) ? 4 : 2;
  npuc_sb_printf(o,
                 "  uint64_t cycles = 0;\n  G_SHAPE g;\n"
                 "  L_SHAPE outs[%d], ls[%d][%d];\n"
                 "  int32_t clips[%d][%d][%d];\n  TSR bs[%d][%d];\n"
                 "  int64_t k = 0;\n",
                 n, n, nb, n, nb, NPUC_TX8_MAX_RANK, n, nb);
  if (g->k_ahead)
    npuc_sb_printf(o, "  int64_t kc = 0; /* the tile's K slices so far */\n");
  npuc_sb_printf(o, "  npuc_tx8_tl_group_begin(%d, \"group %d: %s\");\n", g->id,
                 g->id, p->compute_name);
  if (p->reduce_ways > 1)
    emit_k_team(g);
  else
    npuc_sb_printf(
        o, "  npuc_tx8_gshape_init(&g, out_shape, sharding, %d, tile);\n",
        p->out.rank);
  if (g->staged) /* balanced slices, the short ones first: the pipeline
                    fills sooner (docs/tx8.md, "The staged loop") */
    npuc_sb_printf(o, "  npuc_tx8_gshape_balance(&g, slice);\n");
  order_invariants(g);
  emit_invariants(g);
  if (g->staged) {
    mark_tail_fills(g, npuc_tx8_loop_stage_cut(p));
    emit_staged_loop(g);
    return;
  }
  npuc_sb_printf(o, "  bool more = npuc_tx8_gshape_next(&g, slice, &outs[0]);"
                    "\n");
  mark_heads(g);
  emit_early_loads(g, "0", "0");
  emit_heads(g, "0", "0");
  if (g->any_late && g->late_in_prologue)
    emit_late_invariants(g, "  if (more) {", "    }\n  }\n", true);
  npuc_sb_printf(o, "  while (more) {\n    const int cur = (int)(k & 1);\n");
  emit_set(g, "k", "cur");
  /* Every buffer's slice and place first: a step may read any of them. */
  for (int i = 0; i < nb; ++i)
    if (!npuc_tx8_buffer_once(&p->buffers[i]) &&
        !npuc_tx8_buffer_in_reduce(p, i) && !early_buffer(g, i))
      emit_place(g, i);
  npuc_sb_printf(o, "    }\n    more = npuc_tx8_gshape_next(&g, slice, "
                    "&outs[cur ^ 1]);\n");
  emit_early_loads(g, "k + 1", "cur ^ 1");
  emit_deferred_stores(g, "cur ^ 1");
  emit_set(g, "k", "cur");
  emit_slice_steps(g);
  npuc_sb_printf(o, "    }\n    ++k;\n  }\n");
  emit_deferred_stores(g, "(int)((k - 1) & 1)");
  npuc_sb_printf(o, "  (void)cycles;\n"
                    "  return npuc_tx8_tl_group_end();\n}\n\n");
}

/* The buffer step `st` writes (-1: a store writes DDR). */
static int step_written(const npuc_tx8_group_plan *p, const npuc_tx8_step *st) {
  switch (st->kind) {
  case NPUC_TX8_STEP_LOAD: return load_target(p, st->index);
  case NPUC_TX8_STEP_NORM:
  case NPUC_TX8_STEP_EXTRACT: return st->index;
  case NPUC_TX8_STEP_COMPUTE: return p->ops[st->index].result;
  case NPUC_TX8_STEP_STORE: break;
  }
  return -1;
}

/* The buffers step `st` reads, into `reads`; returns their number. */
static int step_reads(const npuc_tx8_group_plan *p, const npuc_tx8_step *st,
                      int reads[NPUC_TX8_MAX_OPERANDS]) {
  switch (st->kind) {
  case NPUC_TX8_STEP_LOAD: return 0;
  case NPUC_TX8_STEP_NORM:
  case NPUC_TX8_STEP_EXTRACT: reads[0] = p->buffers[st->index].source; return 1;
  case NPUC_TX8_STEP_COMPUTE: {
    const npuc_tx8_group_op *op = &p->ops[st->index];
    for (int i = 0; i < op->slice.num_operands; ++i)
      reads[i] = op->operand_buffer[i];
    return op->slice.num_operands;
  }
  case NPUC_TX8_STEP_STORE: reads[0] = p->stores[st->index].buffer; return 1;
  }
  return 0;
}

static void mark_late_steps(group_emitter *g, int first_compute);

/* The order of the invariant fills (weights, [C] vectors) on the DMA
 * queue. The ones the group's first compute op reads (and what they are
 * converted from) go before the slice loop; the rest after slice 0's own
 * loads, which that first op waits for, so those are not queued behind
 * data needed later in the slice: in the prologue right after slice 0's
 * loads issued ahead when every load of slice 0 before the first reader
 * of the late ones is issued ahead, else in slice 0 (k == 0) just before
 * that reader. The same calls, in another order: the results are the
 * same, the timeline starts the first compute op earlier. */
static void order_invariants(group_emitter *g) {
  const npuc_tx8_group_plan *p = &g->plan;
  g->any_late = false;
  g->tail_at = -1;
  int first = -1;
  memset(g->late, 0, sizeof g->late);
  for (int i = 0; i < p->num_steps && first < 0; ++i)
    if (p->steps[i].kind == NPUC_TX8_STEP_COMPUTE)
      first = i;
  /* With a reduce split the late point could fall inside the K loop, which
   * would fill them once per K slice: all go before the loop then. */
  if (first < 0 || p->reduce_op >= 0)
    return;
  mark_late_steps(g, first);
  bool late_buf[NPUC_TX8_MAX_BUFFERS] = {false};
  for (int i = 0; i < p->num_steps; ++i)
    if (g->late[i])
      late_buf[step_written(p, &p->steps[i])] = true;
  for (int i = 0; i < p->num_steps && g->tail_at < 0; ++i) {
    int reads[NPUC_TX8_MAX_OPERANDS];
    int n = invariant_step(p, &p->steps[i])
                ? 0
                : step_reads(p, &p->steps[i], reads);
    for (int r = 0; r < n; ++r)
      if (reads[r] >= 0 && late_buf[reads[r]])
        g->tail_at = i;
  }
  g->any_late = g->tail_at >= 0;
  g->late_in_prologue = true;
  for (int i = 0; i < g->tail_at; ++i) {
    const npuc_tx8_step *st = &p->steps[i];
    if (st->kind == NPUC_TX8_STEP_LOAD && !invariant_step(p, st) &&
        !early_step(g, st))
      g->late_in_prologue = false;
  }
  if (!g->any_late)
    memset(g->late, 0, sizeof g->late);
}

/* late[i]: invariant step i is neither read by a step up to the first
 * compute op nor the source of one that is (in reverse plan order, so a
 * channel_norm's source follows it). */
static void mark_late_steps(group_emitter *g, int first_compute) {
  const npuc_tx8_group_plan *p = &g->plan;
  bool head[NPUC_TX8_MAX_BUFFERS] = {false};
  int reads[NPUC_TX8_MAX_OPERANDS];
  for (int i = 0; i <= first_compute; ++i)
    if (!invariant_step(p, &p->steps[i]))
      for (int r = 0, n = step_reads(p, &p->steps[i], reads); r < n; ++r)
        if (reads[r] >= 0)
          head[reads[r]] = true;
  for (int i = p->num_steps - 1; i >= 0; --i) {
    const npuc_tx8_step *st = &p->steps[i];
    g->late[i] = false;
    if (!invariant_step(p, st))
      continue;
    if (!head[step_written(p, st)]) {
      g->late[i] = true;
      continue;
    }
    for (int r = 0, n = step_reads(p, st, reads); r < n; ++r)
      if (reads[r] >= 0)
        head[reads[r]] = true;
  }
}

/* The steps of one slice in the group's order, but for the loads issued
 * ahead and those done once per tile; a reduce split's K loop around the
 * steps filling the gemm's K slices and the gemm. */
static void emit_slice_steps(group_emitter *g) {
  const npuc_tx8_group_plan *p = &g->plan;
  bool in_k = false;
  for (int i = 0; i < p->num_steps; ++i) {
    const npuc_tx8_step *st = &p->steps[i];
    if (i == g->tail_at && g->any_late && !g->late_in_prologue)
      emit_late_invariants(g, "    if (k == 0) {", "    }\n", false);
    if (i == g->retract_at)
      emit_heads(g, "k + 1", "cur ^ 1");
    if (invariant_step(p, st) || early_step(g, st) || g->head[i] ||
        deferred_store(g, st) || k_ahead_step(g, st))
      continue;
    bool k =
        (st->kind == NPUC_TX8_STEP_COMPUTE && st->index == p->reduce_op) ||
        (st->kind != NPUC_TX8_STEP_COMPUTE && st->kind != NPUC_TX8_STEP_STORE &&
         npuc_tx8_buffer_in_reduce(p, st->index));
    if (k && !in_k)
      emit_k_loop(g);
    in_k = in_k || k;
    emit_step(g, st);
    if (st->kind == NPUC_TX8_STEP_COMPUTE && st->index == p->reduce_op) {
      npuc_sb_printf(g->out, g->k_ahead ? "    ++kc;\n    }\n" : "    }\n");
      in_k = false;
      if (p->reduce_ways > 1)
        emit_team_reduce(g);
    }
  }
  if (p->reduce_ways > 1)
    npuc_sb_printf(g->out, "    } /* the team's owner */\n");
}

/* Opens a block whose `out`, `l`, `b` and `clip` are set `set`'s, for
 * slice number `slice` (`s`, which picks a buffer's copy). */
static void emit_set(group_emitter *g, const char *slice, const char *set) {
  npuc_sb_printf(g->out,
                 "    {\n"
                 "    const int64_t s = %s;\n"
                 "    L_SHAPE out = outs[%s], *l = ls[%s];\n"
                 "    TSR *b = bs[%s];\n"
                 "    int32_t(*clip)[%d] = clips[%s];\n"
                 "    (void)s, (void)out, (void)l, (void)b, (void)clip;\n",
                 slice, set, set, set, NPUC_TX8_MAX_RANK, set);
}

/* What every slice reads whole (weights, [C] vectors): once per tile, in
 * set 0, copied to set 1. */
static bool follows_output(const npuc_tx8_buffer *x) {
  for (int d = 0; d < x->shape.rank; ++d)
    if (x->windows[d].out_dim >= 0)
      return true;
  return false;
}

static void emit_invariants(group_emitter *g) {
  npuc_tx8_group_plan *p = &g->plan;
  bool any = false;
  for (int i = 0; i < p->num_steps; ++i)
    any = any || invariant_step(p, &p->steps[i]);
  if (!any)
    return;
  /* Whole windows need no slice; a resident buffer's are the same in every
   * slice of the tile: the first slice's, as are those of an invariant
   * buffer whose windows follow dimensions the decision keeps whole. */
  bool windowed = false;
  for (int i = 0; i < p->num_buffers; ++i)
    windowed = windowed || p->buffers[i].resident ||
               (p->buffers[i].invariant && follows_output(&p->buffers[i]));
  if (windowed)
    npuc_sb_printf(g->out, "  G_SHAPE first = g;\n"
                           "  if (npuc_tx8_gshape_next(&first, slice, "
                           "&outs[0])) { /* the same in every slice */\n");
  else
    npuc_sb_printf(g->out, "  if (!g.done) { /* read whole by every slice */\n"
                           "    outs[0] = (L_SHAPE){0};\n");
  emit_set(g, "0", "0");
  for (int i = 0; i < p->num_buffers; ++i)
    if (npuc_tx8_buffer_once(&p->buffers[i]))
      emit_place(g, i);
  for (int i = 0; i < p->num_steps; ++i)
    if (invariant_step(p, &p->steps[i]) && !g->late[i])
      emit_step(g, &p->steps[i]);
  for (int set = 1; set < g->sets; ++set)
    for (int i = 0; i < p->num_buffers; ++i)
      if (npuc_tx8_buffer_once(&p->buffers[i]))
        npuc_sb_printf(g->out, "    bs[%d][%d] = b[%d], ls[%d][%d] = l[%d];\n",
                       set, i, i, set, i, i);
  npuc_sb_printf(g->out, "    }\n  }\n");
}

/* The invariant steps order_invariants put after slice 0's loads, in
 * plan order, inside `open` ... `close` (in set 0 of their own when
 * `own_set`, else in the slice's: slice 0's is set 0, where they were
 * placed). */
static void emit_late_invariants(group_emitter *g, const char *open,
                                 const char *close, bool own_set) {
  npuc_sb_printf(g->out,
                 "%s /* read whole by every slice, after slice 0's loads */\n",
                 open);
  if (own_set)
    emit_set(g, "0", "0");
  for (int i = 0; i < g->plan.num_steps; ++i)
    if (g->late[i] && !g->tail_fill[i])
      emit_step(g, &g->plan.steps[i]);
  npuc_sb_printf(g->out, "%s", close);
}

/* The staged loop's fills that only stage 0's ops after its NE op read
 * (mark_tail_fills), after slice 1's loads. */
static void emit_tail_fills(group_emitter *g) {
  bool any = false;
  for (int i = 0; i < g->plan.num_steps; ++i)
    any = any || g->tail_fill[i];
  if (!any)
    return;
  npuc_sb_printf(g->out, "  if (more) { /* read whole by stage 0's ops after "
                         "its NE op, after slice 1's loads */\n");
  emit_set(g, "0", "0");
  for (int i = 0; i < g->plan.num_steps; ++i)
    if (g->tail_fill[i])
      emit_step(g, &g->plan.steps[i]);
  npuc_sb_printf(g->out, "    }\n  }\n");
}

/* Slice `slice`'s loads issued ahead, when there is one (`more`). */
static void emit_early_loads(group_emitter *g, const char *slice,
                             const char *set) {
  npuc_tx8_group_plan *p = &g->plan;
  bool any = false;
  for (int i = 0; i < p->num_steps; ++i)
    any = any || early_step(g, &p->steps[i]);
  if (!any)
    return;
  npuc_sb_printf(g->out, "  if (more) { /* slice %s's loads, issued ahead */\n",
                 slice);
  emit_set(g, slice, set);
  for (int i = 0; i < p->num_buffers; ++i)
    if (early_buffer(g, i))
      emit_place(g, i);
  g->after_prev = strcmp(slice, "0") != 0;
  for (int i = 0; i < p->num_steps; ++i)
    if (early_step(g, &p->steps[i]))
      emit_step(g, &p->steps[i]);
  g->after_prev = false;
  npuc_sb_printf(g->out, "    }\n  }\n");
}

/* Slice `slice`'s head steps (mark_heads), when there is one (`more`). */
static void emit_heads(group_emitter *g, const char *slice, const char *set) {
  if (g->retract_at < 0)
    return;
  npuc_sb_printf(g->out, "  if (more) { /* slice %s's head, retracted */\n",
                 slice);
  emit_set(g, slice, set);
  for (int i = 0; i < g->plan.num_steps; ++i)
    if (g->head[i])
      emit_step(g, &g->plan.steps[i]);
  npuc_sb_printf(g->out, "    }\n  }\n");
}

/* Slice k - 1's deferred stores (deferred_store), in set `set`, when
 * there is a slice k - 1: in iteration k after slice k + 1's loads, and
 * after the loop for the last slice. */
static void emit_deferred_stores(group_emitter *g, const char *set) {
  const npuc_tx8_group_plan *p = &g->plan;
  bool any = false;
  for (int i = 0; i < p->num_steps; ++i)
    any = any || deferred_store(g, &p->steps[i]);
  if (!any)
    return;
  npuc_sb_printf(g->out,
                 "  if (k > 0) { /* slice k - 1's stores, deferred */\n");
  emit_set(g, "k - 1", set);
  for (int i = 0; i < p->num_steps; ++i)
    if (deferred_store(g, &p->steps[i]))
      emit_step(g, &p->steps[i]);
  npuc_sb_printf(g->out, "    }\n  }\n");
}

/* ---- the staged loop
 * ----------------------------------------------------------------- */

/* Whether the group runs the staged loop (npuc_tx8_loop_stage_cut): the
 * group says `sp_stage_num = 3` (tx8-sharding's estimate chose it), its
 * plan can be staged and every buffer a per-slice step writes has three
 * copies, so slices k - 1 to k + 2 never share one (a buffer lives from
 * its step's stage to its last reader's, at most three slices apart, a
 * store one slice late included). Sets g->stage and g->late_head. */
static void mark_late(group_emitter *g);
static bool mark_stages(group_emitter *g) {
  const npuc_tx8_group_plan *p = &g->plan;
  MlirAttribute n = mlirOperationGetAttributeByName(
      p->group, mlirStringRefCreateFromCString("sp_stage_num"));
  int cut = npuc_tx8_loop_stage_cut(p);
  g->staged = false;
  if (cut < 0 || mlirAttributeIsNull(n) || !mlirAttributeIsAInteger(n) ||
      mlirIntegerAttrGetValueInt(n) != 3)
    return false;
  npuc_tx8_loop_stages(p, cut, g->stage);
  for (int i = 0; i < p->num_steps; ++i) {
    const npuc_tx8_step *st = &p->steps[i];
    int w = step_written(p, st);
    if (g->stage[i] >= 0 && w >= 0 &&
        npuc_tx8_group_buffer_bytes(p, w, g->slice) > 0 && g->copies[w] < 3)
      return false;
  }
  mark_late(g);
  return g->staged = true;
}

/* The fills read whole that only the ops of stage 0 after its NE op (step
 * `cut`) read, directly or through another such fill: those ops follow
 * slice 1's first NE op and its batchnorm and relu on the engines'
 * queues, so their fills can follow slice 1's loads on the DDR, which
 * that NE op waits for. (Not the NE op's own operands: its weights'
 * NoC gather would come too late.) */
static void mark_tail_fills(group_emitter *g, int cut) {
  const npuc_tx8_group_plan *p = &g->plan;
  for (int i = p->num_steps - 1; i >= 0; --i) {
    int w = step_written(p, &p->steps[i]);
    g->tail_fill[i] = g->late[i] && w >= 0;
    for (int j = i + 1; j < p->num_steps && g->tail_fill[i]; ++j) {
      int reads[NPUC_TX8_MAX_OPERANDS];
      int n = step_reads(p, &p->steps[j], reads);
      bool ok = g->tail_fill[j] || (g->stage[j] == 0 && j > cut);
      for (int r = 0; r < n; ++r)
        if (reads[r] == w && !ok)
          g->tail_fill[i] = false;
    }
  }
}

/* The head's channel_norms and extracts that only stage 0 reads: in
 * the head they would wait on the SPM port's in-order queue for the load
 * (the DDR is behind while the loads run ahead) and hold back the stage 1
 * and 0 work behind them; after the iteration's stage 0 the load is in,
 * and they are done two iterations before their readers. */
static void mark_late(group_emitter *g) {
  const npuc_tx8_group_plan *p = &g->plan;
  for (int i = 0; i < p->num_steps; ++i) {
    const npuc_tx8_step *st = &p->steps[i];
    g->late_head[i] = g->stage[i] == 2 && (st->kind == NPUC_TX8_STEP_NORM ||
                                           st->kind == NPUC_TX8_STEP_EXTRACT);
    for (int j = i + 1; j < p->num_steps && g->late_head[i]; ++j) {
      int reads[NPUC_TX8_MAX_OPERANDS];
      int n = step_reads(p, &p->steps[j], reads);
      for (int r = 0; r < n; ++r)
        if (reads[r] == st->index && g->stage[j] != 0)
          g->late_head[i] = false;
    }
  }
}

/* The parts of a stage emit_stage emits. */
enum { STAGE_LOADS = 1, STAGE_OPS = 2, STAGE_LATE = 4, STAGE_ALL = 7 };
static void emit_stage(group_emitter *g, int stage, int parts, const char *when,
                       const char *slice, const char *set, const char *prev);
static void emit_staged_stores(group_emitter *g, const char *set);

static bool any_late(const group_emitter *g) {
  for (int i = 0; i < g->plan.num_steps; ++i)
    if (g->late_head[i])
      return true;
  return false;
}

/* The staged loop: the prologue runs slice 0's stage 2 (loads, head),
 * the fills read whole after slice 0's loads, slice 1's loads, the tail
 * fills (mark_tail_fills), slice 1's head but its late head, slice 0's
 * stage 1 and slice 1's late head (the copy of slice 1's kept rows before
 * slice 0's batchnorm and relu, so slice 1's first convolution does not
 * wait for them on the SPM port: bench (g) 44995 -> 44149 cycles; the
 * extract, which only stage 0 reads, after them); iteration k then issues slice
 * k + 2's stage 2 but its late head (mark_late), slice k - 1's stores, slice k
 * + 1's stage 1, slice k's stage 0 and slice k + 2's late head (the last
 * slice's one iteration later, after slice k + 1's stage 0), in four sets of
 * L_SHAPEs and TSRs (slice j in set j & 3); the last slice's stores follow the
 * loop. The same calls as the serial loop, in another order: every
 * buffer a slice writes is a copy no other slice in flight uses
 * (mark_stages), so the values are the serial loop's. */
static void emit_staged_loop(group_emitter *g) {
  npuc_sb *o = g->out;
  npuc_sb_printf(o, "  bool more = npuc_tx8_gshape_next(&g, slice, &outs[0]);"
                    "\n");
  emit_stage(g, 2, STAGE_ALL, "more", "0", "0", NULL);
  if (g->any_late)
    emit_late_invariants(g, "  if (more) {", "    }\n  }\n", true);
  npuc_sb_printf(o, "  bool more1 = more && npuc_tx8_gshape_next(&g, slice, "
                    "&outs[1]);\n");
  emit_stage(g, 2, STAGE_LOADS, "more1", "1", "1", "0");
  emit_tail_fills(g);
  emit_stage(g, 2, STAGE_OPS, "more1", "1", "1", "0");
  emit_stage(g, 1, STAGE_ALL, "more", "0", "0", NULL);
  if (any_late(g))
    emit_stage(g, 2, STAGE_LATE, "more1", "1", "1", NULL);
  npuc_sb_printf(o, "  while (more) { /* slices k - 1 to k + 2 in flight */\n"
                    "    const int cur = (int)(k & 3), n1 = (int)((k + 1) & "
                    "3), n2 = (int)((k + 2) & 3);\n"
                    "    const bool more2 = more1 && npuc_tx8_gshape_next(&g, "
                    "slice, &outs[n2]);\n");
  emit_stage(g, 2, STAGE_LOADS | STAGE_OPS, "more2", "k + 2", "n2", "n1");
  emit_staged_stores(g, "(int)((k + 3) & 3)");
  emit_stage(g, 1, STAGE_ALL, "more1", "k + 1", "n1", NULL);
  emit_stage(g, 0, STAGE_ALL, NULL, "k", "cur", NULL);
  if (any_late(g)) {
    /* The last slice's late head waits for the iteration before the
     * last, after slice k's stage 0: there the SPM port is the chain of
     * the last two slices, and ahead of their batchnorms it would delay
     * both (and the last-but-one store the last one queues behind). */
    emit_stage(g, 2, STAGE_LATE, "k >= 1 && more1 && !more2", "k + 1", "n1",
               NULL);
    emit_stage(g, 2, STAGE_LATE, "more2 && !g.done", "k + 2", "n2", NULL);
  }
  npuc_sb_printf(o, "    more = more1, more1 = more2;\n    ++k;\n  }\n");
  emit_staged_stores(g, "(int)((k - 1) & 3)");
  npuc_sb_printf(o, "  (void)cycles;\n"
                    "  return npuc_tx8_tl_group_end();\n}\n\n");
}

static void emit_keeps(group_emitter *g);
static void emit_kept_step(group_emitter *g, const char *what, const char *name,
                           int into, bool kept);

/* Slice `slice`'s steps of stage `stage` in set `set`, inside `if
 * (when)` unless NULL: its loads (STAGE_LOADS; the buffers the stage
 * writes placed first) and its other steps (STAGE_OPS); a stage 2 after
 * slice 0's each load keeping the rows the slice before (in set `prev`)
 * holds, its copy the head's first step. Stores are left to
 * emit_staged_stores. */
static void emit_stage(group_emitter *g, int stage, int parts, const char *when,
                       const char *slice, const char *set, const char *prev) {
  const npuc_tx8_group_plan *p = &g->plan;
  static const char *const what[] = {"ops from the last NE op on",
                                     "ops before the last NE op",
                                     "loads and head"};
  if (when)
    npuc_sb_printf(g->out, "  if (%s) { /* slice %s's %s (stage %d)%s */\n",
                   when, slice, what[stage], stage,
                   parts == STAGE_LOADS     ? ": the loads"
                   : parts == STAGE_LATE    ? ": its late head"
                   : !(parts & STAGE_LOADS) ? ": the rest"
                                            : "");
  emit_set(g, slice, set);
  int8_t written[NPUC_TX8_MAX_BUFFERS];
  memset(written, 2, sizeof written); /* a load's own buffer, unused */
  for (int i = 0; i < p->num_steps; ++i)
    if (g->stage[i] >= 0 && step_written(p, &p->steps[i]) >= 0)
      written[step_written(p, &p->steps[i])] = g->stage[i];
  g->after_prev = g->split_halo = prev != NULL;
  g->prev_set = prev ? prev : "cur";
  for (int i = 0; i < p->num_buffers && (parts & STAGE_LOADS); ++i)
    if (!npuc_tx8_buffer_once(&p->buffers[i]) && written[i] == stage)
      emit_place(g, i);
  for (int i = 0; i < p->num_steps && (parts & STAGE_LOADS); ++i)
    if (g->stage[i] == stage && p->steps[i].kind == NPUC_TX8_STEP_LOAD)
      emit_step(g, &p->steps[i]);
  if (prev && (parts & STAGE_OPS))
    emit_keeps(g);
  for (int i = 0; i < p->num_steps; ++i)
    if (g->stage[i] == stage && p->steps[i].kind != NPUC_TX8_STEP_LOAD &&
        p->steps[i].kind != NPUC_TX8_STEP_STORE &&
        (parts & (g->late_head[i] ? STAGE_LATE : STAGE_OPS)))
      emit_step(g, &p->steps[i]);
  g->after_prev = g->split_halo = false;
  g->prev_set = "cur";
  npuc_sb_printf(g->out, when ? "    }\n  }\n" : "    }\n");
}

/* The copy of the rows a halo load's slice shares with the slice before
 * (op_copy_kept_rows; op_dma_load_slice_rest read the rest), as a step
 * of its own on the TDMA: with the head, behind the SPM port's earlier
 * work, where in the load it would hold back the DMA queue until that
 * work is done. */
static void emit_keeps(group_emitter *g) {
  const npuc_tx8_group_plan *p = &g->plan;
  for (int i = 0; i < p->num_steps; ++i) {
    const npuc_tx8_step *st = &p->steps[i];
    if (g->stage[i] != 2 || st->kind != NPUC_TX8_STEP_LOAD ||
        !halo_load(g, st->index))
      continue;
    int into = load_target(p, st->index);
    const char *name =
        g->prog->tensors[g->operand_ddr[p->buffers[st->index].source]].name;
    emit_kept_step(g, "keep ", name, into, true);
    npuc_sb_printf(g->out,
                   "    cycles += op_copy_kept_rows(&b[%d], &l[%d], "
                   "&bs[%s][%d], &ls[%s][%d]); /* the rows kept */\n",
                   into, into, g->prev_set, into, g->prev_set, into);
  }
}

/* The timeline step of a split halo load's half: the copy of the rows
 * kept (`kept`: it reads them in the slice before's copy) or the DMA of
 * the rest, each writing only its rows of buffer `into`
 * (npuc_tx8_tl_kept_rows), so neither waits for the other. */
static void emit_kept_step(group_emitter *g, const char *what, const char *name,
                           int into, bool kept) {
  npuc_sb_printf(g->out,
                 "    {\n"
                 "      npuc_tx8_tl_range w[NPUC_TX8_TL_MAX_RANGES];\n"
                 "      int nw = npuc_tx8_tl_kept_rows(&b[%d], &l[%d], "
                 "&bs[%s][%d], &ls[%s][%d], %s, w);\n",
                 into, into, g->prev_set, into, g->prev_set, into,
                 kept ? "true" : "false");
  if (kept)
    npuc_sb_printf(g->out,
                   "      npuc_tx8_tl_step(\"group %d: %s%s\", "
                   "(npuc_tx8_tl_range[]){npuc_tx8_tl_tsr(&bs[%s][%d])}, 1, "
                   "w, nw);\n",
                   g->id, what, name, g->prev_set, into);
  else
    npuc_sb_printf(g->out,
                   "      npuc_tx8_tl_step(\"group %d: %s%s\", NULL, 0, w, "
                   "nw);\n",
                   g->id, what, name);
  npuc_sb_printf(g->out, "    }\n");
}

/* Slice k - 1's stores, in set `set`, when there is a slice k - 1. */
static void emit_staged_stores(group_emitter *g, const char *set) {
  const npuc_tx8_group_plan *p = &g->plan;
  npuc_sb_printf(g->out, "  if (k > 0) { /* slice k - 1's stores */\n");
  emit_set(g, "k - 1", set);
  for (int i = 0; i < p->num_steps; ++i)
    if (p->steps[i].kind == NPUC_TX8_STEP_STORE)
      emit_step(g, &p->steps[i]);
  npuc_sb_printf(g->out, "    }\n  }\n");
}

static void emit_k_ahead(group_emitter *g, const char *beg, const char *end);
static void emit_place_copy(group_emitter *g, int i, const char *slice,
                            const char *copy);

/* Every K-slice buffer placed for K slice `kout`, copy kc's. */
static void emit_k_places(group_emitter *g) {
  for (int i = 0; i < g->plan.num_buffers; ++i)
    if (npuc_tx8_buffer_in_reduce(&g->plan, i))
      emit_place_copy(g, i, "kout", "kc");
}

/* A reduce split's K loop: `kout` is the anchor slice with the K slice as
 * its last (virtual) dimension, which the K-split buffers' windows
 * follow. */
static void emit_k_loop(group_emitter *g) {
  const npuc_tx8_group_plan *p = &g->plan;
  int r = p->out.rank;
  if (p->reduce_ways > 1) {
    emit_k_team_loop(g);
    return;
  }
  npuc_sb_printf(g->out,
                 "    for (int32_t k0 = 0; k0 < %d; k0 += %d) { /* K slices: "
                 "partial sums in SPM */\n"
                 "    L_SHAPE kout = out;\n"
                 "    kout.dim = %d;\n"
                 "    kout.shape_whole[%d] = %d;\n"
                 "    kout.shape_start[%d] = k0;\n"
                 "    kout.shape_slice[%d] = %d;\n"
                 "    kout.shape_real[%d] = %d - k0 < %d ? %d - k0 : %d;\n",
                 (int)p->reduce_len, (int)p->reduce_slice, r + 1, r,
                 (int)p->reduce_len, r, r, (int)p->reduce_slice, r,
                 (int)p->reduce_len, (int)p->reduce_slice, (int)p->reduce_len,
                 (int)p->reduce_slice);
  char end[16];
  snprintf(end, sizeof end, "%d", (int)p->reduce_len);
  emit_k_ahead(g, "0", end);
  emit_k_places(g);
}

/* The K loop's software pipeline (the seed's Repeat node: the slice
 * loop's pipeline one level in), when K-slice loads have copies: the
 * first K slice of the tile's part [beg, end) of K loads its own (the
 * prologue), then each K slice issues the next one's into the other
 * copy before its NE op reads its own; the last issues none (the
 * epilogue). The placements go back to K slice k0's after. */
static void emit_k_ahead(group_emitter *g, const char *beg, const char *end) {
  const npuc_tx8_group_plan *p = &g->plan;
  int r = p->out.rank, ks = (int)p->reduce_slice;
  if (!g->k_ahead)
    return;
  for (int next = 0; next < 2; ++next) {
    if (next)
      npuc_sb_printf(g->out,
                     "    if (k0 + %d < %s) { /* the next K slice's loads, "
                     "issued ahead into its copy */\n"
                     "    L_SHAPE knext = kout;\n"
                     "    knext.shape_start[%d] = k0 + %d;\n"
                     "    knext.shape_real[%d] = %s - (k0 + %d) < %d ? %s - "
                     "(k0 + %d) : %d;\n",
                     ks, end, r, ks, r, end, ks, ks, end, ks, ks);
    else
      npuc_sb_printf(g->out,
                     "    if (k0 == %s) { /* the first K slice's loads: the "
                     "K loop's prologue */\n",
                     beg);
    for (int i = 0; i < p->num_steps; ++i)
      if (k_ahead_step(g, &p->steps[i]))
        emit_place_copy(g, load_target(p, p->steps[i].index),
                        next ? "knext" : "kout", next ? "(kc + 1)" : "kc");
    for (int i = 0; i < p->num_steps; ++i)
      if (k_ahead_step(g, &p->steps[i]))
        emit_step(g, &p->steps[i]);
    npuc_sb_printf(g->out, "    }\n");
  }
}

/* Buffer i's L_SHAPE for the slice `out` and its TSR in SPM. */
static void emit_place(group_emitter *g, int i) { emit_place_in(g, i, "out"); }

/* The same for the anchor slice named `slice` (the K loop's "kout"): copy
 * s % n of a buffer with n copies. */
static void emit_place_in(group_emitter *g, int i, const char *slice) {
  emit_place_copy(g, i, slice, "s");
}

/* The same in copy `copy` % n of a buffer with n copies. */
static void emit_place_copy(group_emitter *g, int i, const char *slice,
                            const char *copy) {
  const npuc_tx8_buffer *b = &g->plan.buffers[i];
  npuc_sb_printf(g->out,
                 "    npuc_tx8_lshape_window(&%s, b%d_win, b%d_shape, %d, "
                 "&l[%d], clip[%d]);\n",
                 slice, i, i, b->shape.rank, i, i);
  if (g->copies[i] > 1)
    npuc_sb_printf(
        g->out,
        "    b[%d] = npuc_tx8_tsr_of_lshape(spm + b%d_addr[%s %% %d], "
        "&l[%d], %s, %s);\n",
        i, i, copy, g->copies[i], i, dtype_c(b->dtype), mode_c(b->mode));
  else
    npuc_sb_printf(
        g->out,
        "    b[%d] = npuc_tx8_tsr_of_lshape(spm + %lld, &l[%d], %s, %s);\n", i,
        (long long)g->offsets[i], i, dtype_c(b->dtype), mode_c(b->mode));
}

static void emit_timeline_step(group_emitter *g, const npuc_tx8_step *st);

/* One step, opened on the timeline with what it reads and writes. */
static void emit_step(group_emitter *g, const npuc_tx8_step *st) {
  if (st->kind == NPUC_TX8_STEP_NORM && norm_is_loaded(g, st->index))
    return; /* its source's load filled it */
  emit_timeline_step(g, st);
  switch (st->kind) {
  case NPUC_TX8_STEP_LOAD: emit_load(g, st->index); return;
  case NPUC_TX8_STEP_NORM: emit_norm(g, st->index); return;
  case NPUC_TX8_STEP_EXTRACT: emit_extract(g, st->index); return;
  case NPUC_TX8_STEP_COMPUTE: emit_compute(g, &g->plan.ops[st->index]); return;
  case NPUC_TX8_STEP_STORE: emit_store(g, st->index); return;
  }
}

/* `(npuc_tx8_tl_range[]){...}, n` of buffers `bufs`, or `NULL, 0`. */
static void range_list(npuc_sb *o, const int *bufs, int n) {
  if (n == 0) {
    npuc_sb_printf(o, "NULL, 0");
    return;
  }
  npuc_sb_printf(o, "(npuc_tx8_tl_range[]){");
  for (int i = 0; i < n; ++i)
    npuc_sb_printf(o, "%snpuc_tx8_tl_tsr(&b[%d])", i ? ", " : "", bufs[i]);
  npuc_sb_printf(o, "}, %d", n);
}

/* npuc_tx8_tl_step naming the step and the buffers it reads and writes. */
static void emit_timeline_step(group_emitter *g, const npuc_tx8_step *st) {
  const npuc_tx8_group_plan *p = &g->plan;
  int reads[NPUC_TX8_MAX_OPERANDS], writes[1];
  int nr = step_reads(p, st, reads), nw = 0;
  if (step_written(p, st) >= 0)
    writes[nw++] = step_written(p, st);
  const char *what = "", *name = "";
  switch (st->kind) {
  case NPUC_TX8_STEP_LOAD:
    what = "load ";
    name = g->prog->tensors[g->operand_ddr[p->buffers[st->index].source]].name;
    break;
  case NPUC_TX8_STEP_NORM: name = "channel_norm"; break;
  case NPUC_TX8_STEP_EXTRACT: name = "extract"; break;
  case NPUC_TX8_STEP_COMPUTE: name = p->ops[st->index].name; break;
  case NPUC_TX8_STEP_STORE:
    what = "store ";
    name = g->prog->tensors[g->result_ddr[st->index]].name;
    break;
  }
  npuc_sb *o = g->out;
  if (st->kind == NPUC_TX8_STEP_LOAD && halo_load(g, st->index) &&
      g->split_halo) { /* the rest only: it reads no SPM */
    emit_kept_step(g, "load ", name, load_target(p, st->index), false);
    return;
  }
  npuc_sb_printf(o, "    npuc_tx8_tl_step(\"group %d: %s%s\", ", g->id, what,
                 name);
  if (st->kind == NPUC_TX8_STEP_LOAD && halo_load(g, st->index))
    npuc_sb_printf(o, "(npuc_tx8_tl_range[]){npuc_tx8_tl_tsr(&bs[%s][%d])}, 1",
                   g->prev_set, load_target(p, st->index)); /* the rows kept */
  else
    range_list(o, reads, nr);
  npuc_sb_printf(o, ", ");
  range_list(o, writes, nw);
  npuc_sb_printf(o, ");\n");
}

/* A slice DMA between buffer `buf` and DDR tensor `t`: `call` is
 * "op_dma_load_slice(&b[%d], &whole" or "op_dma_store_slice(&whole, &b[%d]"
 * (then ", &l[buf]"), `tail` what follows (more arguments, or ""). */
static void emit_dma(group_emitter *g, int buf, int t, const char *what,
                     const char *call, const char *tail) {
  const npuc_tx8_buffer *b = &g->plan.buffers[buf];
  int into = b->kind == NPUC_TX8_BUF_LOAD && b->load_into >= 0
                 ? b->load_into
                 : buf; /* the SPM buffer written */
  npuc_sb_printf(g->out,
                 "    { /* %s: %s */\n"
                 "      TSR whole = npuc_tx8_tsr_of_shape(ddr[%d], b%d_shape, "
                 "%d, %s, %s);\n"
                 "      cycles += ",
                 what, g->prog->tensors[t].name, t, buf, b->shape.rank,
                 dtype_c(b->dtype), mode_c(g->prog->tensors[t].mode));
  npuc_sb_printf(g->out, call, into);
  npuc_sb_printf(g->out, ", &l[%d]%s);%s\n    }\n", into, tail,
                 into != buf ? " /* into its channel_norm's layout */" : "");
}

/* A load the same on every tile of the group (npuc_tx8_buffer_shared: an
 * invariant or resident weight, or a slice no sharded dimension moves) is
 * read once from DDR and shared over the NoC when that is cheaper
 * (op_dma_load_shared decides). */
static void emit_load(group_emitter *g, int buf) {
  const npuc_tx8_buffer *b = &g->plan.buffers[buf];
  int32_t stride = 1, members = 0;
  if (g->plan.reduce_ways <= 1) /* a team's tiles read their own K parts */
    members =
        npuc_tx8_buffer_shared(&g->plan, buf, g->sharding, g->slice, &stride);
  char tail[64];
  if (members <= 1 && halo_load(g, buf)) {
    int into = load_target(&g->plan, buf);
    snprintf(tail, sizeof tail, ", &bs[%s][%d], &ls[%s][%d]", g->prev_set, into,
             g->prev_set, into);
    emit_dma(g, buf, g->operand_ddr[b->source],
             g->split_halo ? "load_var, but the rows the slice before holds"
                           : "load_var, the rows slice k holds kept",
             g->split_halo ? "op_dma_load_slice_rest(&b[%d], &whole"
                           : "op_dma_load_slice_after(&b[%d], &whole",
             tail);
    return;
  }
  if (members <= 1) {
    emit_dma(g, buf, g->operand_ddr[b->source], "load_var",
             "op_dma_load_slice(&b[%d], &whole", "");
    return;
  }
  if (members == g->parts) { /* every tile of the group */
    snprintf(tail, sizeof tail, ", tile, %d", (int)members);
    emit_dma(g, buf, g->operand_ddr[b->source], "load_var, shared",
             "op_dma_load_shared(&b[%d], &whole", tail);
    return;
  }
  snprintf(tail, sizeof tail, ", tile, %d, %d", (int)members, (int)stride);
  emit_dma(g, buf, g->operand_ddr[b->source], "load_var, shared by a ring",
           "op_dma_load_shared_among(&b[%d], &whole", tail);
}

static void emit_norm(group_emitter *g, int buf) {
  const npuc_tx8_buffer *b = &g->plan.buffers[buf];
  if (norm_is_loaded(g, buf))
    return; /* its source's load filled it */
  npuc_sb_printf(g->out,
                 "    cycles += op_channel_norm(&b[%d], &b[%d]); /* to %s */\n",
                 buf, b->source, npuc_tx8_layout_name(b->mode));
}

/* The part of a buffer one reader needs, copied out of it in SPM (TDMA). */
static void emit_extract(group_emitter *g, int buf) {
  g->prog->needs_extract = true;
  npuc_sb_printf(
      g->out, "    cycles += tx8_extract(&b[%d], &l[%d], &b[%d], &l[%d]);\n",
      buf, buf, g->plan.buffers[buf].source, g->plan.buffers[buf].source);
}

static void emit_store(group_emitter *g, int s) {
  emit_dma(g, g->plan.stores[s].buffer, g->result_ddr[s], "store_var",
           "op_dma_store_slice(&whole, &b[%d]", "");
}

/* ---- the compute op
 * ----------------------------------------------------------------- */

/* The C model's enum of an elementwise op (npuc/Tx8Ops.def). */
static const char *op_enum(const char *name) {
  const npuc_tx8_op_def *def = npuc_tx8_op_def_of(name);
  return def && def->runtime_enum ? def->runtime_enum : "";
}

static void emit_conv(group_emitter *g, const npuc_tx8_group_op *op);
static void emit_result_args(group_emitter *g, bool psum, int r);
static void emit_shaped_op(group_emitter *g, const npuc_tx8_group_op *op);
static void emit_layernorm(group_emitter *g, const npuc_tx8_group_op *op);
static void emit_broadcast(group_emitter *g, const npuc_tx8_group_op *op);
static void emit_real_shape(npuc_sb *o, const char *field, int buf, int rank);
static void emit_concat(group_emitter *g, const npuc_tx8_group_op *op);
static void emit_slice(group_emitter *g, const npuc_tx8_group_op *op);
static void emit_pool(group_emitter *g, const npuc_tx8_group_op *op);
static void emit_gemm_heads(group_emitter *g, const npuc_tx8_group_op *op);

static void emit_compute(group_emitter *g, const npuc_tx8_group_op *op) {
  const npuc_tx8_group_plan *p = &g->plan;
  const npuc_tx8_slice_op *s = &op->slice;
  npuc_sb *o = g->out;
  const int *in = op->operand_buffer;
  int r = op->result;
  switch (s->kind) {
  case NPUC_TX8_KIND_UNARY:
    npuc_sb_printf(o, "    cycles += op_unary(%s, &b[%d], &b[%d]);\n",
                   op_enum(op->name), in[0], r);
    return;
  case NPUC_TX8_KIND_BINARY:
    npuc_sb_printf(o, "    cycles += op_binary(%s, &b[%d], &b[%d], &b[%d]);\n",
                   op_enum(op->name), in[0], in[1], r);
    return;
  case NPUC_TX8_KIND_BATCHNORM:
    npuc_sb_printf(
        o,
        "    {\n"
        "      npuc_tx8_batchnorm_param param = {%.9gf};\n"
        "      cycles += op_batchnorm_inference(&param, &b[%d], &b[%d], "
        "&b[%d], &b[%d], &b[%d], spm + %lld, &b[%d]);\n"
        "    }\n",
        (double)op->epsilon, in[0], in[1], in[2], in[3], in[4],
        (long long)g->offsets[p->num_buffers], r);
    return;
  case NPUC_TX8_KIND_GEMM:
    npuc_sb_printf(o,
                   "    {\n"
                   "      npuc_tx8_gemm_param param = {%s, %s, 1};\n",
                   s->transpose_a ? "true" : "false",
                   s->transpose_b ? "true" : "false");
    emit_gemm_heads(g, op);
    bool psum = p->reduce_op >= 0 && op == &p->ops[p->reduce_op];
    npuc_sb_printf(o, "      cycles += op_gemm%s(&param, &b[%d], &b[%d], ",
                   psum ? "_psum" : "", in[0], in[1]);
    if (op->has_bias)
      npuc_sb_printf(o, "&b[%d]", in[2]);
    else
      npuc_sb_printf(o, "NULL");
    emit_result_args(g, psum, r);
    return;
  case NPUC_TX8_KIND_CONV: emit_conv(g, op); return;
  case NPUC_TX8_KIND_CLIP:
  case NPUC_TX8_KIND_REDUCE:
  case NPUC_TX8_KIND_SOFTMAX:
  case NPUC_TX8_KIND_TRANSPOSE: emit_shaped_op(g, op); return;
  case NPUC_TX8_KIND_BROADCAST: emit_broadcast(g, op); return;
  case NPUC_TX8_KIND_CONCAT: emit_concat(g, op); return;
  case NPUC_TX8_KIND_SLICE: emit_slice(g, op); return;
  case NPUC_TX8_KIND_POOL: emit_pool(g, op); return;
  case NPUC_TX8_KIND_LAYERNORM: emit_layernorm(g, op); return;
  }
}

/* The window parameters a conv and a pooling share, opening the block
 * that calls the op. The input slice starts where the first window of the
 * output slice does, clipped to the tensor (and, for an input computed in
 * the group from a halo of its own, maybe later): the rows before it are
 * this slice's padding, start(in) − (start(out)·stride − pad). */
static void emit_window_param(group_emitter *g, const npuc_tx8_slice_op *s,
                              int x, int r, const int64_t *kernel,
                              const int64_t *dilations, int64_t groups) {
  npuc_sb_printf(
      g->out,
      "    {\n"
      "      npuc_tx8_conv_param param = {\n"
      "          .in_h = l[%d].shape_real[1], .in_w = l[%d].shape_real[2],\n"
      "          .kernel_h = %lld, .kernel_w = %lld, .stride_h = %lld, "
      ".stride_w = %lld,\n"
      "          .pad_top = l[%d].shape_start[1] - (l[%d].shape_start[1] * "
      "%lld "
      "- %lld),\n"
      "          .pad_left = l[%d].shape_start[2] - (l[%d].shape_start[2] * "
      "%lld - %lld),\n"
      "          .dilation_h = %lld, .dilation_w = %lld,\n"
      "          .out_h = l[%d].shape_real[1], .out_w = l[%d].shape_real[2], "
      ".groups = ",
      x, x, (long long)kernel[0], (long long)kernel[1],
      (long long)s->strides[0], (long long)s->strides[1], x, r,
      (long long)s->strides[0], (long long)s->pads[0], x, r,
      (long long)s->strides[1], (long long)s->pads[2], (long long)dilations[0],
      (long long)dilations[1], r, r);
  /* A depthwise conv's slice of channels is as many groups. */
  if (npuc_tx8_conv_is_depthwise(s))
    npuc_sb_printf(g->out, "l[%d].shape_real[3]};\n", r);
  else
    npuc_sb_printf(g->out, "%lld};\n", (long long)groups);
}

static void emit_conv(group_emitter *g, const npuc_tx8_group_op *op) {
  const npuc_tx8_slice_op *s = &op->slice;
  const npuc_tx8_group_plan *p = &g->plan;
  int x = op->operand_buffer[0], r = op->result;
  bool psum = p->reduce_op >= 0 && op == &p->ops[p->reduce_op];
  emit_window_param(g, s, x, r, s->operands[1].dims, s->dilations,
                    s->groups > 0 ? s->groups : 1);
  npuc_sb_printf(g->out, "      cycles += op_conv%s(&param, &b[%d], &b[%d], ",
                 psum ? "_psum" : "", x, op->operand_buffer[1]);
  if (op->has_bias)
    npuc_sb_printf(g->out, "&b[%d]", op->operand_buffer[2]);
  else
    npuc_sb_printf(g->out, "NULL");
  emit_result_args(g, psum, r);
}

/* The end of a gemm's or conv's call, after its bias: its result `r`, or
 * with a reduce split (`psum`) the partial sums and the phase: the
 * tile's first K slice starts them; without a team the last one writes
 * the result (with a team the owner's op_psum_out does). */
static void emit_result_args(group_emitter *g, bool psum, int r) {
  const npuc_tx8_group_plan *p = &g->plan;
  npuc_sb *o = g->out;
  if (psum && p->reduce_ways > 1)
    npuc_sb_printf(o,
                   ", &b[%d], &b[%d], k0 == kbeg ? NPUC_TX8_PSUM_FIRST : "
                   "0);\n    }\n",
                   p->psum, r);
  else if (psum)
    npuc_sb_printf(o,
                   ", &b[%d], &b[%d], (k0 == 0 ? NPUC_TX8_PSUM_FIRST : 0) "
                   "| (k0 + %d >= %d ? NPUC_TX8_PSUM_LAST : 0));\n    }\n",
                   p->psum, r, (int)p->reduce_slice, (int)p->reduce_len);
  else
    npuc_sb_printf(o, ", &b[%d]);\n    }\n", r);
}

/* A float bound as C: an infinite one (clip's default) as the largest
 * float, which clamps every finite value the same. */
static void float_c(npuc_sb *o, double v) {
  if (isinf(v))
    npuc_sb_printf(o, "%s3.40282347e+38f", v < 0 ? "-" : "");
  else
    npuc_sb_printf(o, "(float)%.9g", v);
}

/* The ops that take their input's N-D shape (clip aside): the shape is
 * the input buffer's real slice, known only in the loop. */
static void emit_shaped_op(group_emitter *g, const npuc_tx8_group_op *op) {
  const int *in = op->operand_buffer;
  const npuc_tx8_slice_op *s = &op->slice;
  npuc_sb *o = g->out;
  int x = in[0], r = op->result, rank = s->result.rank;
  if (s->kind == NPUC_TX8_KIND_CLIP) {
    npuc_sb_printf(o, "    {\n      npuc_tx8_clip_param param = {");
    float_c(o, s->clip_min);
    npuc_sb_printf(o, ", ");
    float_c(o, s->clip_max);
    npuc_sb_printf(o,
                   "};\n      cycles += op_clip(&param, &b[%d], &b[%d]);\n"
                   "    }\n",
                   x, r);
    return;
  }
  static const char *const types[] = {[NPUC_TX8_KIND_REDUCE] = "reduce",
                                      [NPUC_TX8_KIND_SOFTMAX] = "softmax",
                                      [NPUC_TX8_KIND_TRANSPOSE] = "transpose"};
  npuc_sb_printf(o, "    {\n      npuc_tx8_%s_param param = {.dim = %d};\n",
                 types[s->kind], rank);
  emit_real_shape(o, "shape", x, rank);
  if (s->kind == NPUC_TX8_KIND_REDUCE) {
    npuc_sb_printf(o,
                   "      param.axes = 0x%xu;\n"
                   "      cycles += op_reduce(%s, &param, &b[%d], &b[%d]);\n",
                   (unsigned)s->axes, op_enum(op->name), x, r);
  } else if (s->kind == NPUC_TX8_KIND_SOFTMAX) {
    int axis = 0;
    while (!(s->axes >> axis & 1))
      ++axis;
    npuc_sb_printf(o,
                   "      param.axis = %d;\n"
                   "      cycles += op_softmax(&param, &b[%d], &b[%d]);\n",
                   axis, x, r);
  } else {
    for (int d = 0; d < rank; ++d)
      npuc_sb_printf(o, "      param.perm[%d] = %lld;\n", d,
                     (long long)s->perm[d]);
    npuc_sb_printf(o, "      cycles += op_transpose(&param, &b[%d], &b[%d]);\n",
                   x, r);
  }
  npuc_sb_printf(o, "    }\n");
}

static void emit_layernorm(group_emitter *g, const npuc_tx8_group_op *op) {
  const int *in = op->operand_buffer;
  npuc_sb_printf(g->out,
                 "    {\n"
                 "      npuc_tx8_layernorm_param param = {(float)%.9g};\n"
                 "      cycles += op_layernorm(&param, &b[%d], &b[%d], &b[%d], "
                 "&b[%d]);\n"
                 "    }\n",
                 (double)op->epsilon, in[0], in[1], in[2], op->result);
}

/* `param.<field>[d] = l[<buf>].shape_real[d]` for the buffer's rank: a
 * slice's real shape, known only in the loop. */
static void emit_real_shape(npuc_sb *o, const char *field, int buf, int rank) {
  npuc_sb_printf(o,
                 "      for (int d = 0; d < %d; ++d)\n"
                 "        param.%s[d] = l[%d].shape_real[d];\n",
                 rank, field, buf);
}

static void emit_broadcast(group_emitter *g, const npuc_tx8_group_op *op) {
  const int *in = op->operand_buffer;
  const npuc_tx8_slice_op *s = &op->slice;
  npuc_sb *o = g->out;
  int x = in[0], r = op->result;
  npuc_sb_printf(o,
                 "    {\n      npuc_tx8_broadcast_param param = {.dim = %d, "
                 ".out_dim = %d};\n",
                 s->operands[0].rank, s->result.rank);
  emit_real_shape(o, "shape", x, s->operands[0].rank);
  emit_real_shape(o, "out_shape", r, s->result.rank);
  for (int d = 0; d < s->operands[0].rank; ++d)
    npuc_sb_printf(o, "      param.dims[%d] = %lld;\n", d,
                   (long long)s->perm[d]);
  npuc_sb_printf(o,
                 "      cycles += op_broadcast(&param, &b[%d], &b[%d]);\n"
                 "    }\n",
                 x, r);
}

/* Each input's length along the axis is its slice's (whole there). */
static void emit_concat(group_emitter *g, const npuc_tx8_group_op *op) {
  const int *in = op->operand_buffer;
  const npuc_tx8_slice_op *s = &op->slice;
  npuc_sb *o = g->out;
  int r = op->result, axis = 0;
  while (!(s->axes >> axis & 1))
    ++axis;
  npuc_sb_printf(o,
                 "    {\n      npuc_tx8_concat_param param = {.dim = %d, "
                 ".axis = %d, .count = %d};\n",
                 s->result.rank, axis, s->num_operands);
  emit_real_shape(o, "shape", r, s->result.rank);
  npuc_sb_printf(o, "      const TSR *ins[%d] = {", s->num_operands);
  for (int i = 0; i < s->num_operands; ++i)
    npuc_sb_printf(o, "%s&b[%d]", i ? ", " : "", in[i]);
  npuc_sb_printf(o, "};\n");
  for (int i = 0; i < s->num_operands; ++i)
    npuc_sb_printf(o, "      param.lengths[%d] = l[%d].shape_real[%d];\n", i,
                   in[i], axis);
  npuc_sb_printf(o,
                 "      cycles += op_concat(&param, ins, &b[%d]);\n"
                 "    }\n",
                 r);
}

static void emit_slice(group_emitter *g, const npuc_tx8_group_op *op) {
  const int *in = op->operand_buffer;
  const npuc_tx8_slice_op *s = &op->slice;
  npuc_sb *o = g->out;
  int r = op->result;
  npuc_sb_printf(o, "    {\n      npuc_tx8_slice_param param = {.dim = %d};\n",
                 s->result.rank);
  emit_real_shape(o, "shape", r, s->result.rank);
  emit_real_shape(o, "in_shape", in[0], s->result.rank);
  for (int d = 0; d < s->result.rank; ++d)
    npuc_sb_printf(o, "      param.strides[%d] = %lld;\n", d,
                   (long long)s->steps[d]);
  npuc_sb_printf(o,
                 "      cycles += op_slice(&param, &b[%d], &b[%d]);\n"
                 "    }\n",
                 in[0], r);
}

static void emit_pool(group_emitter *g, const npuc_tx8_group_op *op) {
  const npuc_tx8_slice_op *s = &op->slice;
  int x = op->operand_buffer[0], r = op->result;
  static const int64_t no_dilation[2] = {1, 1};
  emit_window_param(g, s, x, r, s->kernel, no_dilation, 1);
  npuc_sb_printf(g->out,
                 "      cycles += op_pool(%s, &param, &b[%d], &b[%d]);\n"
                 "    }\n",
                 strcmp(op->name, "tx8be.max_pool") == 0 ? "NPUC_TX8_POOL_MAX"
                                                         : "NPUC_TX8_POOL_AVG",
                 x, r);
}

/* A batched gemm (b of a's rank): the matrices per batch of the output
 * slice are its dimensions between the batch and the rows. */
static void emit_gemm_heads(group_emitter *g, const npuc_tx8_group_op *op) {
  const npuc_tx8_slice_op *s = &op->slice;
  int r = s->result.rank;
  if (s->operands[1].rank < 3)
    return;
  for (int d = 1; d < r - 2; ++d)
    npuc_sb_printf(g->out, "      param.heads *= l[%d].shape_real[%d];\n",
                   op->result, d);
}

/* ---- the reduce split across tiles
 * ------------------------------------------------- */

/* A team of reduce_ways consecutive tiles per part of the output: the
 * part is the team's number's, `kt` the tile's place in its team (its
 * part of K). */
static void emit_k_team(group_emitter *g) {
  const npuc_tx8_group_plan *p = &g->plan;
  npuc_sb_printf(g->out,
                 "  const int32_t kt = tile %% %d; /* K part %d ways across "
                 "a team of tiles */\n"
                 "  npuc_tx8_gshape_init(&g, out_shape, sharding, %d, tile / "
                 "%d);\n",
                 (int)p->reduce_ways, (int)p->reduce_ways, p->out.rank,
                 (int)p->reduce_ways);
}

/* The tile's part of K, [kbeg, kend), in K slices. */
static void emit_k_team_loop(group_emitter *g) {
  const npuc_tx8_group_plan *p = &g->plan;
  int r = p->out.rank, len = (int)p->reduce_len, ks = (int)p->reduce_slice;
  int part = (int)npuc_tx8_reduce_part(p);
  npuc_sb_printf(g->out,
                 "    const int32_t kbeg = kt * %d, kend = kbeg + %d < %d ? "
                 "kbeg + %d : %d;\n"
                 "    for (int32_t k0 = kbeg; k0 < kend; k0 += %d) { /* the "
                 "tile's K slices: partial sums in SPM */\n"
                 "    L_SHAPE kout = out;\n"
                 "    kout.dim = %d;\n"
                 "    kout.shape_whole[%d] = %d;\n"
                 "    kout.shape_start[%d] = k0;\n"
                 "    kout.shape_slice[%d] = %d;\n"
                 "    kout.shape_real[%d] = kend - k0 < %d ? kend - k0 : %d;\n",
                 part, part, len, part, len, ks, r + 1, r, len, r, r, ks, r, ks,
                 ks);
  emit_k_ahead(g, "kbeg", "kend");
  emit_k_places(g);
}

/* After the tile's K slices: the team's partial sums summed into its
 * first tile (op_psum_reduce, every member), which alone writes the
 * result (plus the bias) and runs the rest of the slice (closed by
 * emit_slice_steps). */
static void emit_team_reduce(group_emitter *g) {
  const npuc_tx8_group_plan *p = &g->plan;
  const npuc_tx8_group_op *op = &p->ops[p->reduce_op];
  npuc_sb *o = g->out;
  int ps = p->psum, r = op->result;
  npuc_sb_printf(o,
                 "    npuc_tx8_tl_step(\"group %d: psum reduce\", "
                 "(npuc_tx8_tl_range[]){npuc_tx8_tl_tsr(&b[%d])}, 1, "
                 "(npuc_tx8_tl_range[]){npuc_tx8_tl_tsr(&b[%d])}, 1);\n"
                 "    cycles += op_psum_reduce(&b[%d], tile, tile - kt, %d);\n"
                 "    if (kt == 0) { /* the team's owner */\n"
                 "    npuc_tx8_tl_step(\"group %d: psum out\", "
                 "(npuc_tx8_tl_range[]){npuc_tx8_tl_tsr(&b[%d])}, 1, "
                 "(npuc_tx8_tl_range[]){npuc_tx8_tl_tsr(&b[%d])}, 1);\n"
                 "    cycles += op_psum_out(&b[%d], ",
                 g->id, ps, ps, ps, (int)p->reduce_ways, g->id, ps, r, ps);
  if (op->has_bias)
    npuc_sb_printf(o, "&b[%d]", op->operand_buffer[2]);
  else
    npuc_sb_printf(o, "NULL");
  npuc_sb_printf(o, ", &b[%d]);\n", r);
}
