/* The slice loop's model (npuc/Tx8LoopCost.h): the head of the once-filled
 * buffers, slice 0's loads, the late once-filled ones, then per slice k
 * the loads of slice k + 1 (RDMA, once the copy they overwrite is free:
 * slice k + 1 - copies' chain done, or started when staged: its head
 * read them; then their NoC gathers, in order) and
 * slice k's chain (when its loads and gathers are in, and `span` after
 * slice k - 1's; slice 0's ops reading a late once-filled buffer after
 * it is in) and stores (WDMA). RDMA and WDMA keep their issue order
 * and share the DDR channel, a transfer taking a gap the other leaves, as
 * lib/Runtime/tx8/timeline.c places them (with one copy of the loads,
 * slice k + 1's loads after slice k's chain; of the stores, its chain
 * after slice k's store; with copies of the stores, slice k's after
 * slice k + 1's loads, as EmitGroup.c defers them). So with
 * two copies a slice's load, gather, chain and store in turn bound two
 * slices' time. Staged (EmitGroup.c's staged loop), a slice's chain
 * starts `span` (the busier engine's share) after the one before, ends
 * one span later than alone (its last stage waits behind the next
 * slice's first) and frees its loads' copy when it starts (its head read
 * them). Below it, the staged loop's cut and each step's stage. The first
 * LOOP_MODEL_SLICES slices are played; past them the second half's period
 * repeats: constant time per candidate. */
#include "npuc/Tx8LoopCost.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* Slices played one by one. */
#define LOOP_MODEL_SLICES 64

/* The DDR channel: the busy intervals, sorted, and the time before which
 * it is busy throughout (folded intervals). */
enum { PORT_CAP = 8, MAX_COPIES = 4 };
typedef struct {
  double lo[PORT_CAP], hi[PORT_CAP], floor;
  int n;
} ddr_port;

static double port_take(ddr_port *port, double earliest, double len);
static double next_loads(ddr_port *port, const npuc_tx8_loop *l, double *rdma,
                         double *noc, double free);
static double later(double a, double b) { return a > b ? a : b; }

double npuc_tx8_loop_cycles(const npuc_tx8_loop *l) {
  ddr_port port = {{0}, {0}, 0, 0};
  double rdma = port_take(&port, 0, l->head_ddr) + l->head_ddr;
  double noc = l->head_ready, ready0 = l->head_ready;
  double at = port_take(&port, rdma, l->load);
  rdma = at + l->load;
  double in_ready = later(at + l->load_ready, noc + l->noc);
  noc = l->noc > 0 ? in_ready : noc;
  rdma = port_take(&port, rdma, l->late_ddr) + l->late_ddr;
  noc = later(noc, rdma) + l->late_noc;
  double late_done = later(noc, rdma);
  double ends[MAX_COPIES] = {0}, start = 0, wdma = 0, end = 0, at_half = 0;
  int64_t n = l->slices > 0 ? l->slices : 1;
  int64_t model = n < LOOP_MODEL_SLICES ? n : LOOP_MODEL_SLICES;
  int m = l->copies < 1 ? 1 : l->copies > MAX_COPIES ? MAX_COPIES : l->copies;
  bool deferred = l->store_copies > 1;
  double last_end = 0;
  for (int64_t k = 0; k < model; ++k) {
    double next_ready = 0;
    if (m > 1 && k + 1 < n) /* slice k + 1's loads, issued ahead */
      next_ready = next_loads(&port, l, &rdma, &noc, ends[(k + 1) % m]);
    if (deferred && k > 0) /* slice k - 1's stores, one slice late */
      wdma = port_take(&port, later(wdma, last_end), l->store) + l->store;
    start = later(in_ready, k ? start + l->span : ready0);
    if (!deferred) /* one copy of the stored buffers */
      start = later(start, wdma);
    if (k == 0 && l->late_tail > 0) /* its tail waits for the late fills */
      start = later(start, late_done + l->late_tail - l->chain);
    /* Staged, a slice's last stage waits behind the next one's first on
     * the engines' queues: about one span later. */
    last_end = start + l->chain + (l->staged && k + 1 < n ? l->span : 0);
    ends[k % m] = l->staged ? start : last_end; /* when its loads are read */
    if (!deferred)
      wdma = port_take(&port, later(wdma, last_end), l->store) + l->store;
    if (m == 1 && k + 1 < n) /* one copy: after this slice's chain read it */
      next_ready = next_loads(&port, l, &rdma, &noc, ends[0]);
    in_ready = next_ready;
    if (deferred && k + 1 == n) /* the last slice's, after the loop */
      wdma = port_take(&port, later(wdma, last_end), l->store) + l->store;
    end = later(later(end, wdma), later(rdma, noc));
    if (k + 1 == model / 2)
      at_half = end;
  }
  if (n > model) /* the second half's period, for the rest */
    end += (double)(n - model) * (end - at_half) / (double)(model - model / 2);
  return end;
}

/* A later slice's loads (the halo rows kept not read), issued once the
 * RDMA is free and the copy they overwrite is (`free`: the chain that
 * read it done), then their NoC gathers in order: when they are all in. */
static double next_loads(ddr_port *port, const npuc_tx8_loop *l, double *rdma,
                         double *noc, double free) {
  double len = l->load_next < l->load ? l->load_next : l->load;
  double from = port_take(port, later(*rdma, free), len);
  *rdma = from + len;
  double in = l->load_ready - (l->load - len); /* kept rows: not read */
  double ready = later(from + (in > len ? in : len), *noc + l->noc);
  *noc = l->noc > 0 ? ready : *noc;
  return ready;
}

/* The earliest start at or after `earliest` where the channel is free for
 * `len`, taken; a full list folds its earliest interval into the floor. */
static double port_take(ddr_port *port, double earliest, double len) {
  if (len <= 0)
    return earliest;
  if (port->n == PORT_CAP) {
    port->floor = port->hi[0];
    memmove(port->lo, port->lo + 1, (PORT_CAP - 1) * sizeof *port->lo);
    memmove(port->hi, port->hi + 1, (PORT_CAP - 1) * sizeof *port->hi);
    --port->n;
  }
  double t = later(earliest, port->floor);
  int i = 0;
  while (i < port->n && port->hi[i] <= t)
    ++i;
  for (; i < port->n && port->lo[i] < t + len; ++i)
    t = later(t, port->hi[i]);
  size_t tail = (size_t)(port->n - i);
  memmove(port->lo + i + 1, port->lo + i, tail * sizeof *port->lo);
  memmove(port->hi + i + 1, port->hi + i, tail * sizeof *port->hi);
  port->lo[i] = t, port->hi[i] = t + len;
  ++port->n;
  return t;
}

/* ---- the staged loop's stages */

static bool ne_op(const npuc_tx8_group_plan *p, const npuc_tx8_step *st) {
  return st->kind == NPUC_TX8_STEP_COMPUTE &&
         (p->ops[st->index].slice.kind == NPUC_TX8_KIND_GEMM ||
          p->ops[st->index].slice.kind == NPUC_TX8_KIND_CONV);
}

int npuc_tx8_loop_stage_cut(const npuc_tx8_group_plan *p) {
  int cut = -1, ne = 0;
  if (p->reduce_op >= 0 || p->reduce_ways > 1)
    return -1;
  for (int i = 0; i < p->num_steps; ++i)
    if (ne_op(p, &p->steps[i]))
      cut = i, ++ne;
  if (ne < 2)
    return -1;
  int8_t stage[NPUC_TX8_MAX_STEPS];
  npuc_tx8_loop_stages(p, cut, stage);
  for (int i = 0; i < p->num_steps; ++i) {
    const npuc_tx8_step *st = &p->steps[i];
    if (st->kind != NPUC_TX8_STEP_STORE)
      continue;
    /* Stored one slice late, the buffer must be stage 0's: three copies
     * then hold it from its step to its store. */
    const npuc_tx8_buffer *b = &p->buffers[p->stores[st->index].buffer];
    if (npuc_tx8_buffer_once(b) || b->first_step < 0 ||
        b->first_step >= p->num_steps || stage[b->first_step] != 0)
      return -1;
  }
  return cut;
}

void npuc_tx8_loop_stages(const npuc_tx8_group_plan *p, int cut,
                          int8_t *stage) {
  int8_t written[NPUC_TX8_MAX_BUFFERS];
  memset(written, 0, sizeof written);
  for (int i = 0; i < p->num_steps; ++i) {
    const npuc_tx8_step *st = &p->steps[i];
    bool fill =
        st->kind != NPUC_TX8_STEP_COMPUTE && st->kind != NPUC_TX8_STEP_STORE;
    if (fill && npuc_tx8_buffer_once(&p->buffers[st->index])) {
      stage[i] = -1;
      continue;
    }
    bool move =
        st->kind == NPUC_TX8_STEP_NORM || st->kind == NPUC_TX8_STEP_EXTRACT;
    if (st->kind == NPUC_TX8_STEP_LOAD ||
        (move && written[p->buffers[st->index].source] == 2))
      stage[i] = 2; /* a load, the head */
    else
      stage[i] = i >= cut ? 0 : 1;
    int w = -1;
    if (st->kind == NPUC_TX8_STEP_LOAD) {
      const npuc_tx8_buffer *b = &p->buffers[st->index];
      written[st->index] = stage[i];
      w = b->load_into;
    } else if (st->kind == NPUC_TX8_STEP_COMPUTE) {
      w = p->ops[st->index].result;
    } else if (st->kind != NPUC_TX8_STEP_STORE) {
      w = st->index;
    }
    if (w >= 0 && stage[i] > written[w])
      written[w] = stage[i];
  }
}

/* ---- a reduce split's K loop (npuc_tx8_k_loop_cycles)
 * ------------------------------------------------------ */

/* K slices played one by one per slice; past them the second half's
 * period repeats. */
#define K_MODEL_SLICES 16

/* The queues of the K loop's model: when RDMA, WDMA and the NoC are
 * free, and which K slice's chain last read each copy of the K slices'
 * buffers (and each slice's tail, each copy of the other loads'). */
typedef struct {
  ddr_port port;
  double rdma, wdma, noc;
  double k_ends[MAX_COPIES], tails[MAX_COPIES];
  int64_t k_count;
} k_state;

static double play_k_slices(k_state *st, const npuc_tx8_k_loop *k,
                            double first);

/* Per slice: its other loads (once the tail that read their copy is
 * done), the K loop (K slice 0's chain after the slice before's tail,
 * which read the partial sums), the tail when both are in (and, with one
 * copy of the stored buffers, after the slice before's store), then the
 * stores. The once-filled buffers come first. */
double npuc_tx8_k_loop_cycles(const npuc_tx8_loop *l,
                              const npuc_tx8_k_loop *k) {
  k_state st;
  memset(&st, 0, sizeof st);
  double once = l->head_ddr + l->late_ddr;
  st.rdma = port_take(&st.port, 0, once) + once;
  st.noc = later(l->head_ready, st.rdma) + l->late_noc;
  int64_t n = l->slices > 0 ? l->slices : 1;
  int64_t model = n < LOOP_MODEL_SLICES ? n : LOOP_MODEL_SLICES;
  int m = l->copies < 1 ? 1 : l->copies > MAX_COPIES ? MAX_COPIES : l->copies;
  double tail_end = st.noc, end = 0, at_half = 0;
  for (int64_t s = 0; s < model; ++s) {
    double free = s >= m ? st.tails[s % m] : 0;
    double from = port_take(&st.port, later(st.rdma, free), l->load);
    st.rdma = from + l->load;
    double in = st.rdma;
    if (l->noc > 0)
      in = st.noc = later(st.noc, st.rdma) + l->noc;
    double start = later(play_k_slices(&st, k, tail_end), in);
    if (l->store_copies <= 1) /* the tail writes the stored buffer */
      start = later(start, st.wdma);
    tail_end = st.tails[s % m] = start + l->chain;
    st.wdma =
        port_take(&st.port, later(st.wdma, tail_end), l->store) + l->store;
    end = later(end, later(st.wdma, later(st.rdma, st.noc)));
    if (s + 1 == model / 2)
      at_half = end;
  }
  if (n > model) /* the second half's period, for the rest */
    end += (double)(n - model) * (end - at_half) / (double)(model - model / 2);
  return end;
}

/* One slice's K slices: each one's loads once RDMA is free and the copy
 * they overwrite was read (their NoC gathers in order, each overlapping
 * the next load's read), its chain
 * when they are in and the K slice before's is done (`first` for the
 * first). Returns when the last K slice's chain ends. */
static double play_k_slices(k_state *st, const npuc_tx8_k_loop *k,
                            double first) {
  int c = k->copies < 1 ? 1 : k->copies > MAX_COPIES ? MAX_COPIES : k->copies;
  int64_t n = k->slices > 0 ? k->slices : 1;
  int64_t model = n < K_MODEL_SLICES ? n : K_MODEL_SLICES;
  double prev = first, at_half = first;
  for (int64_t j = 0; j < model; ++j, ++st->k_count) {
    double *copy = &st->k_ends[st->k_count % c];
    double free = st->k_count >= c ? *copy : 0;
    double from = port_take(&st->port, later(st->rdma, free), k->load);
    st->rdma = from + k->load;
    double in = later(st->rdma, from + k->ready);
    if (k->noc > 0)
      in = st->noc = later(in, st->noc + k->noc);
    prev = *copy = later(in, prev) + k->chain;
    if (j + 1 == model / 2)
      at_half = prev;
  }
  if (n > model) { /* the rest at the second half's period: shift time */
    double d =
        (double)(n - model) * (prev - at_half) / (double)(model - model / 2);
    prev += d, st->rdma += d, st->k_count += n - model;
    st->noc += k->noc > 0 ? d : 0;
    for (int i = 0; i < c; ++i)
      st->k_ends[i] += d;
  }
  return prev;
}
