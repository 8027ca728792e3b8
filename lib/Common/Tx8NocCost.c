/* The mesh NoC's all-gather cost (include/npuc/Tx8NocCost.h), shared by
 * the C model and tx8-sharding's estimate. */
#include "npuc/Tx8NocCost.h"

#include <math.h>
#include <stdlib.h>

/* Where the ring's k-th tile sits on a mesh `width` wide. */
static void ring_position(int32_t k, int32_t parts, int32_t width, int32_t *x,
                          int32_t *y) {
  int32_t row = k / width, col = k % width;
  int32_t in_row = parts - row * width < width ? parts - row * width : width;
  *y = row;
  *x = row % 2 ? in_row - 1 - col : col;
}

int32_t npuc_tx8_noc_longest_link(int32_t parts, int32_t tiles_x) {
  int32_t width = tiles_x > 0 ? tiles_x : 1, longest = 1;
  for (int32_t k = 0; k < parts; ++k) {
    int32_t x0, y0, x1, y1;
    ring_position(k, parts, width, &x0, &y0);
    ring_position((k + 1) % parts, parts, width, &x1, &y1);
    int32_t hops = abs(x1 - x0) + abs(y1 - y0);
    if (hops > longest)
      longest = hops;
  }
  return longest;
}

uint64_t npuc_tx8_noc_gather_cycles(const npuc_tx8_noc *noc, int64_t bytes,
                                    int32_t parts) {
  if (parts <= 1 || bytes <= 0)
    return 0;
  int64_t share = (bytes + parts - 1) / parts;
  double link = noc->link_bytes_per_cycle > 0
                    ? (double)noc->link_bytes_per_cycle
                    : 1.0;
  double moved = ceil((double)share / link);
  uint64_t step = (uint64_t)npuc_tx8_noc_longest_link(parts, noc->tiles_x) *
                      (uint64_t)(noc->hop_cycles > 0 ? noc->hop_cycles : 0) +
                  (moved < 1 ? 1 : (uint64_t)moved);
  return (uint64_t)(noc->overhead_cycles > 0 ? noc->overhead_cycles : 0) +
         (uint64_t)(parts - 1) * step;
}
