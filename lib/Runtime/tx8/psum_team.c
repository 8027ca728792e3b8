/* The reduce (K) split across tiles (docs/tx8.md, "Code generation"):
 * the tiles of a team each hold fp32 partial sums of the same output
 * slice, over their own part of K; op_psum_reduce sums them into the
 * team's first tile (the owner), op_psum_out writes the owner's sum plus
 * the bias in the result's dtype and layout. On the C model each tile is
 * a thread with its own SPM: a member posts its partial sums and waits
 * until the owner has added them (its SPM buffer is then free for the
 * next slice), the owner waits for every member's, so data crosses tiles
 * only after both sides reached the call. The owner adds the members' in
 * member order: the same sum every run. Costs: the NoC's ring
 * reduce-scatter and gather to the owner (npuc_tx8_noc_reduce_cycles,
 * the estimate's too) and the CT's adds, on every member. */
#include "internal.h"
#include "npuc/Tx8NocCost.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_TEAM_TILES = 4096 };

/* The partial sums posted by each tile, for its owner (`owner`: a tile
 * may be in another team in the next group, whose owner must not take a
 * post meant for this one's), until the owner takes them. */
static struct {
  pthread_mutex_t lock;
  pthread_cond_t changed;
  const npuc_tx8_tsr *posted[MAX_TEAM_TILES];
  int32_t owner[MAX_TEAM_TILES];
} team = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, {NULL}, {0}};

static void add_into(const npuc_tx8_tsr *sum, const npuc_tx8_tsr *part);

uint64_t op_psum_reduce(const npuc_tx8_tsr *psum, int32_t tile, int32_t first,
                        int32_t members) {
  npuc_tx8i_check_tsr("op_psum_reduce", "psum", psum);
  npuc_tx8i_check_dtype("op_psum_reduce", "psum", psum, NPUC_TX8_F32);
  if (members < 1 || first < 0 || tile < first || tile >= first + members ||
      first + members > MAX_TEAM_TILES)
    npuc_tx8_fail("op_psum_reduce", "tile %d is not in the team of %d from %d",
                  (int)tile, (int)members, (int)first);
  if (members == 1)
    return 0;
  pthread_mutex_lock(&team.lock);
  if (tile != first) {
    while (team.posted[tile]) /* the owner still adds the last slice's */
      pthread_cond_wait(&team.changed, &team.lock);
    team.posted[tile] = psum;
    team.owner[tile] = first;
    pthread_cond_broadcast(&team.changed);
    while (team.posted[tile] == psum)
      pthread_cond_wait(&team.changed, &team.lock);
  } else {
    for (int32_t m = first + 1; m < first + members; ++m) {
      while (!team.posted[m] || team.owner[m] != first)
        pthread_cond_wait(&team.changed, &team.lock);
      add_into(psum, team.posted[m]);
      team.posted[m] = NULL;
      pthread_cond_broadcast(&team.changed);
    }
  }
  pthread_mutex_unlock(&team.lock);
  int64_t bytes = psum->layout.total_bytes;
  uint64_t cycles = npuc_tx8_cycles_noc_among(bytes, members, first, 1);
  cycles += npuc_tx8_cycles_noc_among(bytes, members, first, 1);
  return cycles +
         npuc_tx8_cycles_ct(npuc_tx8_noc_reduce_add_bytes(bytes, members), 1);
}

void npuc_tx8i_check_psum(const char *op, const npuc_tx8_tsr *psum,
                          const npuc_tx8_tsr *out) {
  npuc_tx8i_check_tsr(op, "psum", psum);
  npuc_tx8i_check_tsr(op, "out", out);
  npuc_tx8_dims pd = psum->layout.dims, od = out->layout.dims;
  if (psum->layout.dtype != NPUC_TX8_F32 || pd.n != od.n || pd.hw != od.hw ||
      pd.c != od.c)
    npuc_tx8_fail(op, "psum must be fp32 of out's dims");
}

/* out = x (+ y) (+ vec, per channel), row by row in fp32, stored in out's
 * dtype and layout (x, y and out of the same dims). */
static void rows_add(const char *op, const npuc_tx8_tsr *x,
                     const npuc_tx8_tsr *y, const float *vec,
                     const npuc_tx8_tsr *out) {
  npuc_tx8_dims d = x->layout.dims;
  float *row = malloc((size_t)d.c * sizeof(float));
  float *add = malloc((size_t)d.c * sizeof(float));
  if (!row || !add)
    npuc_tx8_fail(op, "out of memory");
  for (int64_t n = 0; n < d.n; ++n)
    for (int64_t r = 0; r < d.hw; ++r) {
      npuc_tx8i_load_row(row, x, n, r);
      if (y)
        npuc_tx8i_load_row(add, y, n, r);
      for (int64_t c = 0; c < d.c && y; ++c)
        row[c] += add[c];
      for (int64_t c = 0; c < d.c && vec; ++c)
        row[c] += vec[c];
      npuc_tx8i_store_row(out, n, r, row);
    }
  free(row);
  free(add);
}

static void add_into(const npuc_tx8_tsr *sum, const npuc_tx8_tsr *part) {
  npuc_tx8i_check_psum("op_psum_reduce", part, sum);
  rows_add("op_psum_reduce", sum, part, NULL, sum);
}

uint64_t op_psum_out(const npuc_tx8_tsr *psum, const npuc_tx8_tsr *bias,
                     const npuc_tx8_tsr *out) {
  npuc_tx8i_check_psum("op_psum_out", psum, out);
  int64_t c = out->layout.dims.c;
  float *b = calloc((size_t)c, sizeof(float));
  if (!b)
    npuc_tx8_fail("op_psum_out", "out of memory");
  if (bias) {
    npuc_tx8i_check_vector("op_psum_out", "bias", bias, c);
    npuc_tx8i_vector_f32(b, bias);
  }
  rows_add("op_psum_out", psum, NULL, b, out);
  free(b);
  return npuc_tx8_cycles_ct(out->layout.total_bytes, 1);
}
