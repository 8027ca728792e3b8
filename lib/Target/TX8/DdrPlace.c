/* The DDR arena of a TX8 program (the seed's compile option opt_ddr:
 * ddrConstReorderPass and ddrVarReorderPass). Every DDR tensor of the
 * program — graph inputs, constants, group results — gets an offset in
 * one arena the host allocates on a bank boundary.
 *
 * opt_ddr on: constants first, in order of first use (the barrier level
 * of the first group reading them; declaration order on a tie), each on
 * a chip.ddr_bank_bytes boundary; then the inputs and group results with
 * reuse: each lives from the level that writes it (inputs: before the
 * first) to the last level reading it (graph results: to the end), and
 * tensors whose lifetimes do not meet share bytes (the allocator of
 * npuc/Tx8SpmAlloc.h, on sizes rounded to whole banks, so every offset
 * stays on a bank boundary). Levels, not groups: two groups of one level
 * run without a barrier between them, so a tensor read in a level is
 * never overwritten in it. opt_ddr off: every tensor in declaration
 * order on a 16-byte boundary, what one malloc each gives. Requires the
 * lifetimes the emitter recorded (tx8_ddr write_level, first_read,
 * last_read, is_output). docs/tx8.md, "DDR placement". */
#include "EmitInternal.h"
#include "npuc/Alloc.h"
#include "npuc/Checked.h"
#include "npuc/IR.h"
#include "npuc/Tx8SpmAlloc.h"

#include <stdlib.h>

static bool place_packed(tx8_program *p, int64_t *arena, MlirOperation where);
static bool place_constants(tx8_program *p, int64_t bank, int64_t *end,
                            MlirOperation where);
static bool place_variables(tx8_program *p, int levels, int64_t bank,
                            int64_t base, int64_t *end, MlirOperation where);

bool tx8_place_ddr(tx8_program *prog, int levels, bool opt, int64_t bank,
                   int64_t *arena_bytes, MlirOperation where) {
  bool ok;
  *arena_bytes = 0;
  if (!opt || bank <= 0) {
    ok = place_packed(prog, arena_bytes, where);
  } else {
    int64_t consts = 0;
    ok = place_constants(prog, bank, &consts, where) &&
         place_variables(prog, levels, bank, consts, arena_bytes, where);
  }
  for (int i = 0; ok && i < prog->num_tensors; ++i)
    if (prog->tensors[i].alias >= 0)
      prog->tensors[i].offset = prog->tensors[prog->tensors[i].alias].offset;
  return ok;
}

static bool too_large(MlirOperation where) {
  npuc_op_error(where, "tx8: the DDR tensors' bytes overflow");
  return false;
}

/* `at` rounded up to `align`, then `bytes` after it: the new end. */
static bool bump(int64_t *end, int64_t align, int64_t bytes, int64_t *at) {
  int64_t up, sum;
  if (!npuc_checked_add(*end, align - 1, &up))
    return false;
  *at = up / align * align;
  if (!npuc_checked_add(*at, bytes, &sum))
    return false;
  *end = sum;
  return true;
}

static bool place_packed(tx8_program *p, int64_t *arena, MlirOperation where) {
  for (int i = 0; i < p->num_tensors; ++i)
    if (p->tensors[i].alias < 0 &&
        !bump(arena, 16, tx8_ddr_bytes(&p->tensors[i]), &p->tensors[i].offset))
      return too_large(where);
  return true;
}

typedef struct {
  int64_t key;
  int index;
} keyed;

static int by_key(const void *a, const void *b) {
  const keyed *x = a, *y = b;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

/* ddrConstReorder: constants by first use, each on a bank boundary. */
static bool place_constants(tx8_program *p, int64_t bank, int64_t *end,
                            MlirOperation where) {
  keyed *order = npuc_xcalloc((size_t)p->num_tensors + 1, sizeof *order);
  int n = 0;
  for (int i = 0; i < p->num_tensors; ++i) {
    const tx8_ddr *d = &p->tensors[i];
    if (d->alias < 0 && d->kind == TX8_DDR_CONSTANT)
      order[n++] = (keyed){d->first_read >= 0 ? d->first_read : INT32_MAX, i};
  }
  qsort(order, (size_t)n, sizeof *order, by_key);
  bool ok = true;
  for (int k = 0; k < n && ok; ++k)
    ok = bump(end, bank, tx8_ddr_bytes(&p->tensors[order[k].index]),
              &p->tensors[order[k].index].offset);
  free(order);
  int64_t rounded_end; /* the variables start on a bank boundary */
  return (ok && bump(end, bank, 0, &rounded_end)) || too_large(where);
}

/* ddrVarReorder: inputs and group results over their lifetimes in levels,
 * sharing bytes where those do not meet; above `base`. Falls back to one
 * after the other (no reuse) past the allocator's bounds. */
static bool place_variables(tx8_program *p, int levels, int64_t bank,
                            int64_t base, int64_t *end, MlirOperation where) {
  int *which = npuc_xcalloc((size_t)p->num_tensors + 1, sizeof *which);
  npuc_tx8_spm_buffer *bufs =
      npuc_xcalloc((size_t)p->num_tensors + 1, sizeof *bufs);
  int64_t *offsets = npuc_xcalloc((size_t)p->num_tensors + 1, sizeof *offsets);
  int n = 0;
  bool ok = true;
  for (int i = 0; i < p->num_tensors && ok; ++i) {
    const tx8_ddr *d = &p->tensors[i];
    if (d->alias >= 0 || d->kind == TX8_DDR_CONSTANT)
      continue;
    int first = d->kind == TX8_DDR_INPUT ? 0 : d->write_level;
    int last = d->is_output ? levels : d->last_read;
    int64_t rounded;
    ok = npuc_checked_ceil_div(tx8_ddr_bytes(d), bank, &rounded) &&
         npuc_checked_mul(rounded, bank, &rounded);
    bufs[n] = (npuc_tx8_spm_buffer){rounded, first, last > first ? last : first,
                                    -1, false};
    which[n++] = i;
  }
  npuc_tx8_spm_result r;
  char err[160];
  bool reuse = ok && bank % NPUC_TX8_SPM_ALIGN == 0 &&
               n <= NPUC_TX8_SPM_MAX_BUFFERS &&
               levels <= NPUC_TX8_SPM_MAX_STEP &&
               npuc_tx8_spm_alloc(bufs, n, offsets, &r, err, sizeof err);
  int64_t top = 0; /* without reuse: the end of the last placed */
  for (int k = 0; k < n && ok; ++k) {
    int64_t at, stop;
    ok = (reuse || bump(&top, bank, bufs[k].bytes, &offsets[k])) &&
         npuc_checked_add(base, offsets[k], &at) &&
         npuc_checked_add(at, bufs[k].bytes, &stop);
    if (!ok)
      break;
    p->tensors[which[k]].offset = at;
    if (stop > *end)
      *end = stop;
  }
  if (*end < base)
    *end = base;
  free(which);
  free(bufs);
  free(offsets);
  return ok || too_large(where);
}
