/* Mix kernels: one block of a cube (AIC) function and its vector (AIV)
 * function on each sub-block, run as coroutines on the calling thread.
 * Each runs until it finishes or waits on a flag no one has set yet; then
 * the next runnable one runs, in the fixed order AIC, sub-block 0, 1, ...
 * So a run is deterministic, any producer/consumer order the flags allow
 * is followed (cube -> vector, vector -> cube, and back), and a wait that
 * can never pass is reported at its op.
 *
 * Flags (sync_block_set/wait within a block): a set on the cube counts once
 * for every sub-block; a set on a sub-block counts for the cube from that
 * sub-block, and the cube's wait passes once every sub-block has set it.
 *
 * Tightly coupled buffers are storage the block's cores share, found by
 * the buffer's id: a UB buffer is one per sub-block (each vector core has
 * its own UB; the cube's fixpipe writes into it, a dual destination into
 * both), any other (L1) one buffer for the block. */
#define _XOPEN_SOURCE 700
#include "internal.h"

#include "npuc/KernelPrelude.h"

#include <stdlib.h>
#include <ucontext.h>

#define MIX_MAX_FLAGS 16
#define MIX_MAX_SETS 15
#define MIX_MAX_CORES (1 + NPUC_MIX_MAX_SUB_BLOCKS)
#define MIX_STACK_BYTES ((size_t)64 << 20)

typedef enum { CORE_READY, CORE_WAITING, CORE_DONE } core_state;

typedef struct {
  ucontext_t ctx;
  void *stack;
  const npuc_kernel_desc *k;
  npuc_launch launch;
  bool cube;
  core_state state;
  const char *wait_loc;
  int64_t wait_flag;
} mix_core;

typedef struct {
  int64_t id;
  int sub_block; /* -1: shared by the block */
  size_t bytes;
  void *data;
} coupled;

typedef struct {
  ucontext_t sched;
  mix_core cores[MIX_MAX_CORES];
  int num_cores, sub_blocks;
  mix_core *current;
  void *const *argv;
  /* Pending sets: to the vector sub-blocks, and to the cube from each. */
  int to_vector[NPUC_MIX_MAX_SUB_BLOCKS][MIX_MAX_FLAGS];
  int to_cube[NPUC_MIX_MAX_SUB_BLOCKS][MIX_MAX_FLAGS];
  coupled *buffers;
  size_t num_buffers;
} mix_block;

static _Thread_local mix_block *tl_block;

/* ---- tightly coupled buffers ----------------------------------------- */

static coupled *find_buffer(mix_block *m, int64_t id, int sub_block) {
  for (size_t i = 0; i < m->num_buffers; ++i)
    if (m->buffers[i].id == id && m->buffers[i].sub_block == sub_block)
      return &m->buffers[i];
  return NULL;
}

static coupled *get_buffer(mix_block *m, int64_t id, int sub_block,
                           size_t bytes, const char *loc) {
  coupled *b = find_buffer(m, id, sub_block);
  if (b) {
    if (b->bytes != bytes)
      npuc_rt_fail(loc,
                   "tightly coupled buffer %lld takes %zu bytes here, %zu "
                   "where its other half allocates it",
                   (long long)id, bytes, b->bytes);
    return b;
  }
  void *data = calloc(bytes ? bytes : 1, 1);
  coupled *grown =
      data ? realloc(m->buffers, (m->num_buffers + 1) * sizeof *grown) : NULL;
  if (!grown)
    npuc_rt_fail(loc, "out of memory for a tightly coupled buffer");
  m->buffers = grown;
  m->buffers[m->num_buffers] = (coupled){id, sub_block, bytes, data};
  return &m->buffers[m->num_buffers++];
}

npuc_buf npuc_rt_coupled_alloc(int64_t id, bool per_sub_block, npuc_dtype dt,
                               int32_t rank, const int64_t *sizes,
                               const char *loc) {
  npuc_buf b = npuc_rt_alloc(dt, rank, sizes, loc);
  mix_block *m = tl_block;
  if (!m)
    return b; /* a half run alone: nothing to share */
  int64_t count = 1;
  for (int32_t d = 0; d < rank; ++d)
    count *= sizes[d]; /* npuc_rt_alloc checked the product */
  int sub = per_sub_block ? (int)m->current->launch.sub_block_idx : -1;
  b.data =
      get_buffer(m, id, sub, (size_t)count * npuc_rt_elem_size(dt), loc)->data;
  return b;
}

bool npuc_rti_sub_block_buffer(npuc_buf *b, int sub_block, const char *loc) {
  mix_block *m = tl_block;
  for (size_t i = 0; m && i < m->num_buffers; ++i) {
    coupled *c = &m->buffers[i];
    if (c->data != b->data || c->sub_block < 0)
      continue;
    b->data = get_buffer(m, c->id, sub_block, c->bytes, loc)->data;
    return true;
  }
  return false;
}

/* ---- flags ------------------------------------------------------------ */

static void check_flag(int64_t flag, const char *loc) {
  if (flag < 0 || flag >= MIX_MAX_FLAGS)
    npuc_rt_fail(loc, "block sync flag %lld is outside 0..%d", (long long)flag,
                 MIX_MAX_FLAGS - 1);
}

static void count_set(int *counter, int64_t flag, const char *loc) {
  if (counter[flag] == MIX_MAX_SETS)
    npuc_rt_fail(loc, "block sync flag %lld set %d times with no wait",
                 (long long)flag, MIX_MAX_SETS + 1);
  counter[flag]++;
}

void npuc_rt_sync_block_set(int64_t flag, const char *loc) {
  mix_block *m = tl_block;
  if (!m)
    return; /* a half run alone: no one waits */
  check_flag(flag, loc);
  mix_core *c = m->current;
  if (c->cube)
    for (int s = 0; s < m->sub_blocks; ++s)
      count_set(m->to_vector[s], flag, loc);
  else
    count_set(m->to_cube[c->launch.sub_block_idx], flag, loc);
}

static bool can_pass(mix_block *m, mix_core *c, int64_t flag) {
  if (!c->cube)
    return m->to_vector[c->launch.sub_block_idx][flag] > 0;
  for (int s = 0; s < m->sub_blocks; ++s)
    if (m->to_cube[s][flag] == 0)
      return false;
  return true;
}

void npuc_rt_sync_block_wait(int64_t flag, const char *loc) {
  mix_block *m = tl_block;
  if (!m)
    return; /* a half run alone: what it waits for is not run */
  check_flag(flag, loc);
  mix_core *c = m->current;
  while (!can_pass(m, c, flag)) {
    c->state = CORE_WAITING;
    c->wait_flag = flag;
    c->wait_loc = loc;
    swapcontext(&c->ctx, &m->sched);
  }
  c->state = CORE_READY;
  if (!c->cube)
    m->to_vector[c->launch.sub_block_idx][flag]--;
  else
    for (int s = 0; s < m->sub_blocks; ++s)
      m->to_cube[s][flag]--;
}

/* ---- the scheduler ------------------------------------------------------ */

static void core_main(void) {
  mix_block *m = tl_block;
  mix_core *c = m->current;
  c->k->fn(&c->launch, m->argv);
  c->state = CORE_DONE;
} /* returns to m->sched through uc_link */

static void start_core(mix_block *m, mix_core *c, const char *what) {
  if (!c->stack)
    c->stack = malloc(MIX_STACK_BYTES);
  if (!c->stack || getcontext(&c->ctx) != 0)
    npuc_rt_fail("<mix>", "cannot set up the %s core", what);
  c->ctx.uc_stack.ss_sp = c->stack;
  c->ctx.uc_stack.ss_size = MIX_STACK_BYTES;
  c->ctx.uc_link = &m->sched;
  c->state = CORE_READY;
  makecontext(&c->ctx, core_main, 0);
}

static void run_until_all_done(mix_block *m, int64_t block) {
  for (;;) {
    bool ran = false, done = true;
    for (int i = 0; i < m->num_cores; ++i) {
      mix_core *c = &m->cores[i];
      if (c->state == CORE_DONE)
        continue;
      done = false;
      if (c->state == CORE_WAITING && !can_pass(m, c, c->wait_flag))
        continue;
      m->current = c;
      swapcontext(&m->sched, &c->ctx);
      ran = true;
    }
    if (done)
      return;
    if (!ran) {
      mix_core *c = &m->cores[0];
      while (c->state != CORE_WAITING)
        ++c;
      npuc_rt_fail(c->wait_loc,
                   "deadlock in block %lld: this sync_block_wait on flag %lld "
                   "(%s) can never pass, the other cores having finished or "
                   "waiting too",
                   (long long)block, (long long)c->wait_flag,
                   c->cube ? "cube" : "vector");
    }
  }
}

void npuc_rt_run_mix_block(const npuc_kernel_desc *cube,
                           const npuc_kernel_desc *vector, void *const *argv,
                           int64_t block, int64_t blocks, int64_t sub_blocks) {
  static _Thread_local mix_block m;
  if (sub_blocks > NPUC_MIX_MAX_SUB_BLOCKS)
    npuc_rt_fail("<mix>", "a mix kernel runs on at most %d sub-blocks",
                 NPUC_MIX_MAX_SUB_BLOCKS);
  memset(m.to_vector, 0, sizeof m.to_vector);
  memset(m.to_cube, 0, sizeof m.to_cube);
  m.argv = argv;
  m.sub_blocks = (int)sub_blocks;
  m.num_cores = 1 + (int)sub_blocks;
  m.cores[0].k = cube;
  m.cores[0].cube = true;
  m.cores[0].launch = (npuc_launch){block, blocks, 0, 1};
  start_core(&m, &m.cores[0], "cube");
  for (int s = 0; s < sub_blocks; ++s) {
    mix_core *c = &m.cores[1 + s];
    c->k = vector;
    c->cube = false;
    c->launch = (npuc_launch){block, blocks, s, sub_blocks};
    start_core(&m, c, "vector");
  }
  tl_block = &m;
  run_until_all_done(&m, block);
  tl_block = NULL;
  for (size_t i = 0; i < m.num_buffers; ++i)
    free(m.buffers[i].data);
  m.num_buffers = 0;
}
