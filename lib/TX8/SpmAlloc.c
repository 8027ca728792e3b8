/* SPM allocation with reuse (npuc/Tx8SpmAlloc.h): lifetimes in, offsets
 * out. In-place buffers merge into their input's block (union-find), the
 * blocks are placed greedily, each at the best fitting gap among the
 * placed blocks live at the same time, in several orders (the lowest peak
 * wins). Finding those is the only
 * non-trivial query: the blocks sorted by first step sit in a segment
 * tree of their last steps (-1 while unplaced), so the placed blocks with
 * first <= b.last (a prefix) and last >= b.first (a subtree walk) come out
 * in O((k + 1) log n) for k of them. */
#include "npuc/Tx8SpmAlloc.h"
#include "npuc/Alloc.h"
#include "npuc/Checked.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the three sorts order by: key, then tie, then index (stable and
 * deterministic; C11's qsort takes no user pointer, so the keys travel
 * with the index). */
typedef struct {
  int64_t key, tie;
  int32_t index;
} sort_item;

typedef struct {
  int64_t size, offset;
  int32_t first, last;
} block;

typedef struct {
  const npuc_tx8_spm_buffer *bufs;
  int n, nb;
  int64_t *aligned;  /* per buffer */
  int32_t *root;     /* union-find over buffers */
  int32_t *block_of; /* root buffer -> block */
  block *blocks;
  int32_t *by_first; /* blocks in order of first step */
  int32_t *rank_of;  /* block -> position in by_first */
  int32_t *tree;     /* segment tree over by_first: max last of placed */
  int32_t leaves;
  sort_item *found; /* scratch: placed blocks overlapping the one placed */
  int32_t num_found;
} allocator;

static bool check_input(const npuc_tx8_spm_buffer *bufs, int n, char *err,
                        size_t cap);
static bool align_sizes(allocator *a, char *err, size_t cap);
static void merge_inplace(allocator *a);
static void make_blocks(allocator *a);
static int64_t max_live(const allocator *a);
static void place_blocks(allocator *a, int64_t bound);
static void free_allocator(allocator *a);

bool npuc_tx8_spm_alloc(const npuc_tx8_spm_buffer *bufs, int n,
                        int64_t *offsets, npuc_tx8_spm_result *result,
                        char *err, size_t cap) {
  memset(result, 0, sizeof *result);
  if (!check_input(bufs, n, err, cap))
    return false;
  if (n == 0)
    return true;
  allocator a;
  memset(&a, 0, sizeof a);
  a.bufs = bufs;
  a.n = n;
  a.aligned = npuc_xcalloc((size_t)n, sizeof *a.aligned);
  if (!align_sizes(&a, err, cap)) {
    free_allocator(&a);
    return false;
  }
  merge_inplace(&a);
  make_blocks(&a);
  result->max_live = max_live(&a);
  place_blocks(&a, result->max_live);
  for (int i = 0; i < n; ++i) {
    const block *b = &a.blocks[a.block_of[a.root[i]]];
    offsets[i] = b->offset;
    /* offset + size <= the sum of all sizes, checked in align_sizes */
    if (b->offset + b->size > result->peak)
      result->peak = b->offset + b->size;
  }
  result->num_blocks = a.nb;
  free_allocator(&a);
  return true;
}

static bool fail(char *err, size_t cap, const char *what, int i) {
  snprintf(err, cap, "buffer %d: %s", i, what);
  return false;
}

static bool check_input(const npuc_tx8_spm_buffer *bufs, int n, char *err,
                        size_t cap) {
  if (n < 0 || n > NPUC_TX8_SPM_MAX_BUFFERS) {
    snprintf(err, cap, "%d buffers: between 0 and %d are allowed", n,
             NPUC_TX8_SPM_MAX_BUFFERS);
    return false;
  }
  for (int i = 0; i < n; ++i) {
    const npuc_tx8_spm_buffer *b = &bufs[i];
    if (b->bytes < 0)
      return fail(err, cap, "negative size", i);
    if (b->first < 0 || b->last < b->first || b->last > NPUC_TX8_SPM_MAX_STEP)
      return fail(err, cap, "lifetime out of range (0 <= first <= last)", i);
    if (b->inplace_of < -1 || b->inplace_of >= n || b->inplace_of == i)
      return fail(err, cap, "in-place input out of range", i);
    if (b->is_imm && b->first != b->last)
      return fail(err, cap, "an imm buffer lives one step", i);
  }
  return true;
}

/* Rounds every size up to the boundary and checks that their sum fits:
 * no offset or peak can exceed it (every block sits at 0 or on top of
 * another block live with it). */
static bool align_sizes(allocator *a, char *err, size_t cap) {
  int64_t total = 0;
  for (int i = 0; i < a->n; ++i) {
    int64_t up, lines;
    if (!npuc_checked_ceil_div(a->bufs[i].bytes, NPUC_TX8_SPM_ALIGN, &lines) ||
        !npuc_checked_mul(lines, NPUC_TX8_SPM_ALIGN, &up) ||
        !npuc_checked_add(total, up, &total))
      return fail(err, cap, "size overflows", i);
    a->aligned[i] = up;
  }
  return true;
}

static int32_t find_root(int32_t *root, int32_t i) {
  while (root[i] != i) {
    root[i] = root[root[i]]; /* path halving */
    i = root[i];
  }
  return i;
}

/* SA_BufferMerge for in-place ops: a buffer joins its input's block when
 * the input dies at the step defining it and no other buffer took the
 * input already (two writers of one block at one step would clash). */
static void merge_inplace(allocator *a) {
  a->root = npuc_xcalloc((size_t)a->n, sizeof *a->root);
  bool *taken = npuc_xcalloc((size_t)a->n, sizeof *taken);
  for (int i = 0; i < a->n; ++i)
    a->root[i] = i;
  for (int j = 0; j < a->n; ++j) {
    const npuc_tx8_spm_buffer *b = &a->bufs[j];
    int32_t i = b->inplace_of;
    if (i < 0 || taken[i] || b->is_imm || a->bufs[i].is_imm ||
        a->bufs[i].last != b->first)
      continue;
    int32_t ri = find_root(a->root, i), rj = find_root(a->root, j);
    if (ri == rj)
      continue;
    taken[i] = true;
    a->root[rj] = ri;
  }
  free(taken);
}

/* One block per union-find root: the members' largest size, their
 * earliest first and latest last step. */
static void make_blocks(allocator *a) {
  a->block_of = npuc_xcalloc((size_t)a->n, sizeof *a->block_of);
  a->blocks = npuc_xcalloc((size_t)a->n, sizeof *a->blocks);
  for (int i = 0; i < a->n; ++i)
    a->block_of[i] = -1;
  for (int i = 0; i < a->n; ++i) {
    int32_t r = find_root(a->root, i);
    const npuc_tx8_spm_buffer *b = &a->bufs[i];
    if (a->block_of[r] < 0) {
      a->block_of[r] = a->nb;
      a->blocks[a->nb++] = (block){a->aligned[i], 0, b->first, b->last};
      continue;
    }
    block *k = &a->blocks[a->block_of[r]];
    if (a->aligned[i] > k->size)
      k->size = a->aligned[i];
    if (b->first < k->first)
      k->first = b->first;
    if (b->last > k->last)
      k->last = b->last;
  }
}

/* ---- the lower bound
 * -------------------------------------------------------------- */

typedef struct {
  int64_t step; /* a block starts at `first`, ends after `last` */
  int64_t delta;
} event;

static int by_step(const void *x, const void *y) {
  const event *a = x, *b = y;
  if (a->step != b->step)
    return a->step < b->step ? -1 : 1;
  /* ends (negative) before starts at the same step: they do not meet */
  return (a->delta > b->delta) - (a->delta < b->delta);
}

/* Max over steps of the sizes of the blocks live there: no placement can
 * peak lower. */
static int64_t max_live(const allocator *a) {
  event *ev = npuc_xcalloc((size_t)a->nb * 2, sizeof *ev);
  for (int i = 0; i < a->nb; ++i) {
    ev[2 * i] = (event){a->blocks[i].first, a->blocks[i].size};
    ev[2 * i + 1] = (event){(int64_t)a->blocks[i].last + 1, -a->blocks[i].size};
  }
  qsort(ev, (size_t)a->nb * 2, sizeof *ev, by_step);
  int64_t live = 0, best = 0;
  for (int i = 0; i < 2 * a->nb; ++i) {
    live += ev[i].delta; /* <= the checked total */
    if (live > best)
      best = live;
  }
  free(ev);
  return best;
}

/* ---- placement
 * -------------------------------------------------------------------- */

static int by_keys(const void *x, const void *y) {
  const sort_item *a = x, *b = y;
  if (a->key != b->key)
    return a->key < b->key ? -1 : 1;
  if (a->tie != b->tie)
    return a->tie < b->tie ? -1 : 1;
  return (a->index > b->index) - (a->index < b->index);
}

static void build_tree(allocator *a);
static void collect_live(allocator *a, int32_t node, int32_t lo, int32_t hi,
                         int32_t prefix, int32_t first);
static int64_t best_fit(allocator *a, int64_t size);
static void mark_placed(allocator *a, int32_t b);

/* The orders tried, each a greedy pass; the lowest peak wins. Largest
 * first is the classic; the others rescue the cases it fragments (a small
 * long-lived value — a residual — placed last lands on top of everything
 * it spans). */
typedef enum {
  ORDER_SIZE,   /* largest first */
  ORDER_AREA,   /* largest size x lifetime first */
  ORDER_LENGTH, /* longest lifetime first, then largest */
  ORDER_START,  /* earliest first, then largest (the seed's order) */
  NUM_ORDERS
} order_kind;

static sort_item order_key(const block *b, int32_t i, order_kind k) {
  int64_t len = (int64_t)b->last - b->first + 1, area;
  switch (k) {
  case ORDER_SIZE: return (sort_item){-b->size, b->first, i};
  case ORDER_AREA:
    if (!npuc_checked_mul(b->size / NPUC_TX8_SPM_ALIGN, len, &area))
      area = INT64_MAX;
    return (sort_item){-area, -b->size, i};
  case ORDER_LENGTH: return (sort_item){-len, -b->size, i};
  default: return (sort_item){b->first, -b->size, i};
  }
}

static int64_t place_in_order(allocator *a, const int32_t *order);
static void keep_if_lower(allocator *a, const int32_t *order, int64_t peak,
                          int64_t *best_peak, int64_t *best,
                          int32_t *best_order);

/* Repair rounds after the four orders, while the peak is above the
 * bound: the block on top goes first and the pass repeats (a block placed
 * late lands on top of whatever it spans; placed early it takes the
 * bottom). Bounded: a constant factor on the passes. */
#define REPAIR_ROUNDS 16

static void place_blocks(allocator *a, int64_t bound) {
  int nb = a->nb;
  sort_item *keys = npuc_xcalloc((size_t)nb, sizeof *keys);
  int32_t *order = npuc_xcalloc((size_t)nb, sizeof *order);
  int32_t *best_order = npuc_xcalloc((size_t)nb, sizeof *best_order);
  int64_t *best = npuc_xcalloc((size_t)nb, sizeof *best);
  int64_t best_peak = -1;
  build_tree(a);
  a->found = npuc_xcalloc((size_t)nb, sizeof *a->found);
  for (int k = 0; k < NUM_ORDERS; ++k) {
    for (int i = 0; i < nb; ++i)
      keys[i] = order_key(&a->blocks[i], i, (order_kind)k);
    qsort(keys, (size_t)nb, sizeof *keys, by_keys);
    for (int i = 0; i < nb; ++i)
      order[i] = keys[i].index;
    keep_if_lower(a, order, place_in_order(a, order), &best_peak, best,
                  best_order);
  }
  memcpy(order, best_order, (size_t)nb * sizeof *order);
  for (int r = 0; r < REPAIR_ROUNDS && best_peak > bound; ++r) {
    int64_t peak = place_in_order(a, order);
    keep_if_lower(a, order, peak, &best_peak, best, best_order);
    int top = 0; /* the first block in the order that reaches the peak */
    while (a->blocks[order[top]].offset + a->blocks[order[top]].size < peak)
      ++top;
    if (top == 0)
      break;
    int32_t t = order[top];
    memmove(order + 1, order, (size_t)top * sizeof *order);
    order[0] = t;
  }
  for (int i = 0; i < nb; ++i)
    a->blocks[i].offset = best[i];
  free(keys);
  free(order);
  free(best_order);
  free(best);
}

static void keep_if_lower(allocator *a, const int32_t *order, int64_t peak,
                          int64_t *best_peak, int64_t *best,
                          int32_t *best_order) {
  if (*best_peak >= 0 && peak >= *best_peak)
    return;
  *best_peak = peak;
  for (int i = 0; i < a->nb; ++i)
    best[i] = a->blocks[i].offset;
  memcpy(best_order, order, (size_t)a->nb * sizeof *order);
}

/* One greedy pass: each block in `order` at the best fitting gap among
 * the placed blocks live with it. Returns the peak. */
static int64_t place_in_order(allocator *a, const int32_t *order) {
  for (int i = 0; i < a->leaves * 2; ++i)
    a->tree[i] = -1;
  int64_t peak = 0;
  for (int j = 0; j < a->nb; ++j) {
    block *b = &a->blocks[order[j]];
    /* blocks starting by b's last step: a prefix of by_first */
    int32_t lo = 0, hi = a->nb;
    while (lo < hi) {
      int32_t mid = lo + (hi - lo) / 2;
      if (a->blocks[a->by_first[mid]].first <= b->last)
        lo = mid + 1;
      else
        hi = mid;
    }
    a->num_found = 0;
    collect_live(a, 1, 0, a->leaves, lo, b->first);
    b->offset = best_fit(a, b->size);
    if (b->offset + b->size > peak)
      peak = b->offset + b->size;
    mark_placed(a, order[j]);
  }
  return peak;
}

static void build_tree(allocator *a) {
  a->by_first = npuc_xcalloc((size_t)a->nb, sizeof *a->by_first);
  a->rank_of = npuc_xcalloc((size_t)a->nb, sizeof *a->rank_of);
  sort_item *items = npuc_xcalloc((size_t)a->nb, sizeof *items);
  for (int i = 0; i < a->nb; ++i)
    items[i] = (sort_item){a->blocks[i].first, 0, i};
  qsort(items, (size_t)a->nb, sizeof *items, by_keys);
  for (int i = 0; i < a->nb; ++i) {
    a->by_first[i] = items[i].index;
    a->rank_of[items[i].index] = i;
  }
  free(items);
  a->leaves = 1;
  while (a->leaves < a->nb)
    a->leaves *= 2;
  a->tree = npuc_xcalloc((size_t)a->leaves * 2, sizeof *a->tree);
}

/* Placed blocks among by_first[lo, hi) ∩ [0, prefix) whose last step is
 * >= first; depth log2(leaves). */
static void collect_live(allocator *a, int32_t node, int32_t lo, int32_t hi,
                         int32_t prefix, int32_t first) {
  if (lo >= prefix || a->tree[node] < first)
    return;
  if (hi - lo == 1) {
    const block *o = &a->blocks[a->by_first[lo]];
    a->found[a->num_found++] = (sort_item){o->offset, o->size, lo};
    return;
  }
  int32_t mid = lo + (hi - lo) / 2;
  collect_live(a, 2 * node, lo, mid, prefix, first);
  collect_live(a, 2 * node + 1, mid, hi, prefix, first);
}

/* The smallest gap between the found blocks that holds `size` (the
 * lowest on a tie), else the top of them. */
static int64_t best_fit(allocator *a, int64_t size) {
  qsort(a->found, (size_t)a->num_found, sizeof *a->found, by_keys);
  int64_t end = 0, best = -1, best_gap = 0;
  for (int i = 0; i < a->num_found; ++i) {
    int64_t offset = a->found[i].key, gap = offset - end;
    if (gap >= size && (best < 0 || gap < best_gap))
      best = end, best_gap = gap;
    if (offset + a->found[i].tie > end)
      end = offset + a->found[i].tie;
  }
  return best >= 0 ? best : end;
}

static void mark_placed(allocator *a, int32_t b) {
  int32_t node = a->leaves + a->rank_of[b];
  a->tree[node] = a->blocks[b].last;
  for (node /= 2; node >= 1; node /= 2) {
    int32_t l = a->tree[2 * node], r = a->tree[2 * node + 1];
    a->tree[node] = l > r ? l : r;
  }
}

static void free_allocator(allocator *a) {
  free(a->aligned);
  free(a->root);
  free(a->block_of);
  free(a->blocks);
  free(a->by_first);
  free(a->rank_of);
  free(a->tree);
  free(a->found);
}

/* ---- the copies' layout in mem_addr
 * ------------------------------------------------------ */

bool npuc_tx8_spm_copies(const int64_t *mem_addr, int len, int copies,
                         int slots, int slot, int64_t bytes, int64_t spm,
                         int64_t *addr, int *n, char *err, size_t cap) {
  int64_t want;
  if (copies < 1 || copies > NPUC_TX8_SPM_MAX_COPIES || slots < 1 || slot < 0 ||
      slot >= slots || !npuc_checked_mul(copies, slots, &want) || want != len) {
    snprintf(err, cap,
             "mem_addr has %d entries; %d copies of the op's %d SPM "
             "buffers need %lld",
             len, copies, slots, (long long)copies * slots);
    return false;
  }
  bool same = true;
  for (int c = 0; c < copies; ++c) {
    int64_t at = mem_addr[c * slots + slot], end;
    if (at < 0 || at % NPUC_TX8_SPM_ALIGN ||
        !npuc_checked_add(at, bytes, &end) || end > spm) {
      snprintf(err, cap,
               "copy %d of a multi-buffered SPM buffer at %lld (%lld bytes) "
               "is off the group's %lld bytes of SPM or not on a 256-byte "
               "boundary",
               c, (long long)at, (long long)bytes, (long long)spm);
      return false;
    }
    addr[c] = at;
    same = same && at == addr[0];
  }
  *n = same ? 1 : copies;
  for (int c = 1; c < copies && !same; ++c)
    for (int d = 0; d < c; ++d)
      if (addr[d] < addr[c] + bytes && addr[c] < addr[d] + bytes) {
        snprintf(err, cap,
                 "copies %d and %d of a multi-buffered SPM buffer overlap "
                 "(at %lld and %lld, %lld bytes)",
                 d, c, (long long)addr[d], (long long)addr[c],
                 (long long)bytes);
        return false;
      }
  return true;
}
