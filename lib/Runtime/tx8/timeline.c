/* The timeline of one tile (include/npuc/Tx8Runtime.h, "the timeline";
 * docs/tx8.md, "Cycle model"): each op's engine charges are placed in
 * time, the op starting when its engines are free and its SPM inputs
 * written, its outputs' earlier readers and writers done. Each engine runs
 * its own ops in issue order (its queue); engines that share a port use
 * it one at a time: RDMA with WDMA (the tile's DDR channel), CT with TDMA
 * (the SPM port), so a transfer of one engine may take a gap the other
 * leaves on the port (the load of the next slice goes while this slice's
 * store waits for its compute), never overlapping it. NE and the NoC are
 * one engine each. Dependencies are kept per address range touched, in a
 * bounded table: when it is full the entry that ended first is folded
 * into a floor every later op starts after (conservative, never wrong);
 * a port's busy list, bounded too, folds its earliest interval into a
 * floor of that port the same way. Per thread: the host runs each tile
 * as one. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

enum { RES_DDR, RES_NE, RES_SPM, RES_NOC, NUM_RES };
enum { MAX_SEGMENTS = 32, MAX_RANGES = 512, MAX_BUSY = 256 };

/* When a port is busy: disjoint, sorted intervals [lo, hi), and the time
 * before which it counts as busy throughout (folded intervals). */
typedef struct {
  uint64_t lo[MAX_BUSY], hi[MAX_BUSY];
  int n;
  uint64_t floor;
} port_busy;

typedef struct {
  uintptr_t lo, hi;
  uint64_t write_end, read_end;
} range_entry;

typedef struct {
  int32_t engine;
  uint64_t cycles;
} segment;

typedef struct {
  uint64_t engine_free[NPUC_TX8_NUM_BUSY]; /* each engine's queue */
  port_busy ports[NUM_RES];
  uint64_t horizon; /* the latest end: the group's span so far */
  uint64_t floor;   /* every op starts at or after it (evicted entries) */
  range_entry ranges[MAX_RANGES];
  int num_ranges;
  bool open; /* a step is open: charges are its segments */
  segment pending[MAX_SEGMENTS];
  int num_pending;
  const char *step_name;
  npuc_tx8_tl_range reads[NPUC_TX8_TL_MAX_RANGES],
      writes[NPUC_TX8_TL_MAX_RANGES];
  int num_reads, num_writes;
  int32_t group;
  const char *group_name;
  bool trace;
  npuc_tx8_tl_event *events;
  size_t num_events, cap_events;
} timeline;

static _Thread_local timeline tl;

static int resource_of(int32_t engine) {
  switch (engine) {
  case NPUC_TX8_BUSY_RDMA:
  case NPUC_TX8_BUSY_WDMA: return RES_DDR;
  case NPUC_TX8_BUSY_NE: return RES_NE;
  case NPUC_TX8_BUSY_NOC: return RES_NOC;
  default: return RES_SPM;
  }
}

static void record(int32_t engine, uint64_t start, uint64_t cycles,
                   const char *name) {
  if (!tl.trace)
    return;
  if (tl.num_events == tl.cap_events) {
    size_t cap = tl.cap_events ? tl.cap_events * 2 : 256;
    npuc_tx8_tl_event *e = realloc(tl.events, cap * sizeof *e);
    if (!e)
      npuc_tx8_fail("trace", "out of memory");
    tl.events = e;
    tl.cap_events = cap;
  }
  tl.events[tl.num_events++] =
      (npuc_tx8_tl_event){tl.group, engine, start, cycles, name};
}

void npuc_tx8_tl_group_begin(int32_t group, const char *name) {
  for (int e = 0; e < NPUC_TX8_NUM_BUSY; ++e)
    tl.engine_free[e] = 0;
  for (int r = 0; r < NUM_RES; ++r)
    tl.ports[r].n = 0, tl.ports[r].floor = 0;
  tl.horizon = tl.floor = 0;
  tl.num_ranges = tl.num_pending = 0;
  tl.open = false;
  tl.group = group;
  tl.group_name = name;
}

uint64_t npuc_tx8_tl_group_end(void) {
  npuc_tx8_tl_close();
  record(NPUC_TX8_NUM_BUSY, 0, tl.horizon, tl.group_name);
  return tl.horizon;
}

static int copy_ranges(npuc_tx8_tl_range *to, const npuc_tx8_tl_range *from,
                       int n) {
  int kept = n < NPUC_TX8_TL_MAX_RANGES ? n : NPUC_TX8_TL_MAX_RANGES;
  for (int i = 0; i < kept; ++i)
    to[i] = from[i];
  return kept > 0 ? kept : 0;
}

void npuc_tx8_tl_step(const char *name, const npuc_tx8_tl_range *reads,
                      int num_reads, const npuc_tx8_tl_range *writes,
                      int num_writes) {
  npuc_tx8_tl_close();
  tl.open = true;
  tl.num_pending = 0;
  tl.step_name = name;
  tl.num_reads = copy_ranges(tl.reads, reads, num_reads);
  tl.num_writes = copy_ranges(tl.writes, writes, num_writes);
}

static uint64_t place(uint64_t ready, const char *name);

/* From cycles.c's charge(): inside a bracket the op's next segment (one
 * per run of charges to the same engine), else an op of its own after
 * everything so far. */
void npuc_tx8i_tl_charge(npuc_tx8_busy_engine e, uint64_t cycles) {
  if (cycles == 0)
    return;
  if (!tl.open) {
    tl.pending[0] = (segment){(int32_t)e, cycles};
    tl.num_pending = 1;
    place(tl.horizon, npuc_tx8_busy_name(e));
    tl.num_pending = 0;
    return;
  }
  segment *last = tl.num_pending ? &tl.pending[tl.num_pending - 1] : NULL;
  if (last && (last->engine == (int32_t)e || tl.num_pending == MAX_SEGMENTS))
    last->cycles += cycles; /* full: the rest runs on the last engine */
  else
    tl.pending[tl.num_pending++] = (segment){(int32_t)e, cycles};
}

static uint64_t port_take(int r, uint64_t earliest, uint64_t cycles);
static void port_insert(port_busy *p, int i, uint64_t lo, uint64_t hi);

/* The segments in order, each when its engine has run what was issued
 * to it before, its port has a gap long enough, and the previous segment
 * (or, for the first, `ready`) is done. Returns the op's end. */
static uint64_t place(uint64_t ready, const char *name) {
  uint64_t t = ready > tl.floor ? ready : tl.floor;
  for (int i = 0; i < tl.num_pending; ++i) {
    const segment *s = &tl.pending[i];
    int e = s->engine >= 0 && s->engine < NPUC_TX8_NUM_BUSY ? s->engine : 0;
    uint64_t earliest = t > tl.engine_free[e] ? t : tl.engine_free[e];
    uint64_t start = port_take(resource_of(s->engine), earliest, s->cycles);
    t = start + s->cycles;
    tl.engine_free[e] = t;
    record(s->engine, start, s->cycles, name);
  }
  if (t > tl.horizon)
    tl.horizon = t;
  return t;
}

/* The earliest start at or after `earliest` where port r is free for
 * `cycles`, taken: the gap before the first interval that leaves room,
 * else after the last. A full list first folds its earliest interval
 * into the port's floor (busy until its end: conservative). */
static uint64_t port_take(int r, uint64_t earliest, uint64_t cycles) {
  port_busy *p = &tl.ports[r];
  if (p->n == MAX_BUSY) {
    p->floor = p->hi[0];
    for (int j = 0; j + 1 < p->n; ++j)
      p->lo[j] = p->lo[j + 1], p->hi[j] = p->hi[j + 1];
    --p->n;
  }
  uint64_t t = earliest > p->floor ? earliest : p->floor;
  int i = 0;
  while (i < p->n && p->hi[i] <= t)
    ++i; /* intervals over before t */
  for (; i < p->n && p->lo[i] < t + cycles; ++i)
    if (p->hi[i] > t)
      t = p->hi[i]; /* overlaps [t, t + cycles): after it */
  port_insert(p, i, t, t + cycles);
  return t;
}

/* [lo, hi) before interval i (after i - 1): joined with the neighbours
 * it touches, else a new entry (the list has room). */
static void port_insert(port_busy *p, int i, uint64_t lo, uint64_t hi) {
  bool joins_prev = i > 0 && p->hi[i - 1] == lo;
  bool joins_next = i < p->n && p->lo[i] == hi;
  if (joins_prev && joins_next) {
    p->hi[i - 1] = p->hi[i];
    for (int j = i; j + 1 < p->n; ++j)
      p->lo[j] = p->lo[j + 1], p->hi[j] = p->hi[j + 1];
    --p->n;
  } else if (joins_prev) {
    p->hi[i - 1] = hi;
  } else if (joins_next) {
    p->lo[i] = lo;
  } else {
    for (int j = p->n; j > i; --j)
      p->lo[j] = p->lo[j - 1], p->hi[j] = p->hi[j - 1];
    p->lo[i] = lo, p->hi[i] = hi;
    ++p->n;
  }
}

static bool overlaps(const range_entry *e, uintptr_t lo, uintptr_t hi) {
  return e->lo < hi && lo < e->hi;
}

/* When every read range was last written and every written range last
 * read or written. */
static uint64_t ready_time(const npuc_tx8_tl_range *reads, int num_reads,
                           const npuc_tx8_tl_range *writes, int num_writes) {
  uint64_t ready = 0;
  for (int k = 0; k < num_reads + num_writes; ++k) {
    bool is_write = k >= num_reads;
    const npuc_tx8_tl_range *r = is_write ? &writes[k - num_reads] : &reads[k];
    if (r->bytes <= 0 || !r->at)
      continue;
    uintptr_t lo = (uintptr_t)r->at, hi = lo + (uintptr_t)r->bytes;
    for (int i = 0; i < tl.num_ranges; ++i) {
      const range_entry *e = &tl.ranges[i];
      if (!overlaps(e, lo, hi))
        continue;
      if (e->write_end > ready)
        ready = e->write_end;
      if (is_write && e->read_end > ready)
        ready = e->read_end;
    }
  }
  return ready;
}

/* The entry of exactly [lo, hi), made when missing; a full table first
 * folds its earliest-ending entry into the floor. */
static range_entry *entry_of(uintptr_t lo, uintptr_t hi) {
  for (int i = 0; i < tl.num_ranges; ++i)
    if (tl.ranges[i].lo == lo && tl.ranges[i].hi == hi)
      return &tl.ranges[i];
  if (tl.num_ranges == MAX_RANGES) {
    int oldest = 0;
    uint64_t oldest_end = UINT64_MAX;
    for (int i = 0; i < tl.num_ranges; ++i) {
      const range_entry *e = &tl.ranges[i];
      uint64_t end = e->write_end > e->read_end ? e->write_end : e->read_end;
      if (end < oldest_end)
        oldest = i, oldest_end = end;
    }
    if (oldest_end > tl.floor)
      tl.floor = oldest_end;
    tl.ranges[oldest] = tl.ranges[--tl.num_ranges];
  }
  range_entry *e = &tl.ranges[tl.num_ranges++];
  *e = (range_entry){lo, hi, 0, 0};
  return e;
}

static void note_access(const npuc_tx8_tl_range *r, bool is_write,
                        uint64_t end) {
  if (r->bytes <= 0 || !r->at)
    return;
  uintptr_t lo = (uintptr_t)r->at;
  range_entry *e = entry_of(lo, lo + (uintptr_t)r->bytes);
  uint64_t *at = is_write ? &e->write_end : &e->read_end;
  if (end > *at)
    *at = end;
}

uint64_t npuc_tx8_tl_close(void) {
  if (!tl.open)
    return tl.horizon;
  tl.open = false;
  uint64_t end =
      place(ready_time(tl.reads, tl.num_reads, tl.writes, tl.num_writes),
            tl.step_name);
  tl.num_pending = 0;
  for (int i = 0; i < tl.num_reads; ++i)
    note_access(&tl.reads[i], false, end);
  for (int i = 0; i < tl.num_writes; ++i)
    note_access(&tl.writes[i], true, end);
  return tl.horizon;
}

void npuc_tx8_tl_trace(bool on) { tl.trace = on; }

npuc_tx8_tl_event *npuc_tx8_tl_take_events(size_t *count) {
  npuc_tx8_tl_event *e = tl.events;
  *count = tl.num_events;
  tl.events = NULL;
  tl.num_events = tl.cap_events = 0;
  return e;
}
