/* The mesh NoC's all-gather cost (include/npuc/Tx8NocCost.h), shared by
 * the C model and tx8-sharding's estimate. */
#include "npuc/Tx8NocCost.h"

#include <math.h>
#include <stdlib.h>

static int32_t hops(int32_t a, int32_t b, int32_t width) {
  return abs(a % width - b % width) + abs(a / width - b / width);
}

/* The members' tile numbers grow with j, so their rows never go back:
 * the snake enters a row at its first member (in j order) and leaves it at
 * its last, or the other way round in every other row. Linear in the
 * members. */
int32_t npuc_tx8_noc_longest_link(int32_t members, int32_t first,
                                  int32_t stride, int32_t tiles_x) {
  int32_t width = tiles_x > 0 ? tiles_x : 1, longest = 1;
  stride = stride > 0 ? stride : 1;
  int32_t row_first = first, entry0 = first, exit = -1, rows = 0;
  for (int32_t j = 0; j <= members; ++j) {
    int32_t t = first + j * stride;
    bool new_row = j == members || (j > 0 && t / width != row_first / width);
    if (!new_row) {
      if (j > 0 && hops(t - stride, t, width) > longest)
        longest = hops(t - stride, t, width); /* within the row */
      continue;
    }
    int32_t last = t - stride; /* the row ending here: row_first .. last */
    int32_t entry = rows % 2 ? last : row_first;
    if (rows == 0)
      entry0 = entry;
    else if (hops(exit, entry, width) > longest)
      longest = hops(exit, entry, width);
    exit = rows % 2 ? row_first : last;
    rows++;
    row_first = t;
  }
  if (members > 1 && hops(exit, entry0, width) > longest)
    longest = hops(exit, entry0, width); /* closing the ring */
  return longest;
}

uint64_t npuc_tx8_noc_gather_cycles(const npuc_tx8_noc *noc, int64_t bytes,
                                    int32_t members, int32_t first,
                                    int32_t stride) {
  if (members <= 1 || bytes <= 0)
    return 0;
  int64_t share = (bytes + members - 1) / members;
  double link =
      noc->link_bytes_per_cycle > 0 ? (double)noc->link_bytes_per_cycle : 1.0;
  double moved = ceil((double)share / link);
  int32_t longest =
      npuc_tx8_noc_longest_link(members, first, stride, noc->tiles_x);
  uint64_t step = (uint64_t)longest *
                      (uint64_t)(noc->hop_cycles > 0 ? noc->hop_cycles : 0) +
                  (moved < 1 ? 1 : (uint64_t)moved);
  return (uint64_t)(noc->overhead_cycles > 0 ? noc->overhead_cycles : 0) +
         (uint64_t)(members - 1) * step;
}

uint64_t npuc_tx8_noc_reduce_cycles(const npuc_tx8_noc *noc, int64_t bytes,
                                    int32_t members, int32_t first,
                                    int32_t stride) {
  return 2 * npuc_tx8_noc_gather_cycles(noc, bytes, members, first, stride);
}

int64_t npuc_tx8_noc_reduce_add_bytes(int64_t bytes, int32_t members) {
  if (members <= 1 || bytes <= 0)
    return 0;
  return (int64_t)(members - 1) * ((bytes + members - 1) / members);
}
