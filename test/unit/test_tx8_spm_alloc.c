/* The TX8 SPM allocator (lib/TX8/SpmAlloc.c): hand cases (reuse across
 * disjoint lifetimes, overlapping ones apart, in-place sharing, imm
 * scratch, alignment, bad input) and thousands of seeded random instances
 * — general interval sets and chains shaped like fused groups — checked
 * for: no two buffers live at one step overlap in memory, every offset on
 * a 2048-bit boundary, peak >= the max-live bound computed here by brute
 * force. Prints the worst peak / max-live per family; the fused-group
 * chains must stay within 1.1 (issue 17's target). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "npuc/IR.h"
#include "npuc/Pass.h"
#include "npuc/Passes.h"
#include "npuc/Tx8Group.h"
#include "npuc/Tx8SpmAlloc.h"

#include <mlir-c/IR.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define A NPUC_TX8_SPM_ALIGN

static npuc_tx8_spm_buffer buf(int64_t bytes, int32_t first, int32_t last) {
  return (npuc_tx8_spm_buffer){bytes, first, last, -1, false};
}

static npuc_tx8_spm_result alloc_ok(const npuc_tx8_spm_buffer *b, int n,
                                    int64_t *offsets) {
  npuc_tx8_spm_result r;
  char err[128] = "";
  bool ok = npuc_tx8_spm_alloc(b, n, offsets, &r, err, sizeof err);
  if (!ok)
    fail_msg("npuc_tx8_spm_alloc: %s", err);
  return r;
}

static int64_t up(int64_t bytes) { return (bytes + A - 1) / A * A; }

/* ---- hand cases
 * ------------------------------------------------------------------ */

/* Two buffers that are never live together share offset 0; the peak is
 * the larger one. */
static void disjoint_share(void **state) {
  (void)state;
  npuc_tx8_spm_buffer b[] = {buf(1000, 0, 1), buf(3000, 2, 3)};
  int64_t off[2];
  npuc_tx8_spm_result r = alloc_ok(b, 2, off);
  assert_int_equal(off[0], 0);
  assert_int_equal(off[1], 0);
  assert_int_equal(r.peak, up(3000));
  assert_int_equal(r.max_live, up(3000));
}

/* Buffers live at a common step (even one step: [0,1] and [1,2]) stack;
 * the largest goes first, at 0. */
static void overlapping_apart(void **state) {
  (void)state;
  npuc_tx8_spm_buffer b[] = {buf(256, 0, 1), buf(1024, 1, 2), buf(512, 1, 1)};
  int64_t off[3];
  npuc_tx8_spm_result r = alloc_ok(b, 3, off);
  assert_int_equal(off[1], 0);
  assert_int_equal(off[2], 1024);
  assert_int_equal(off[0], 1536);
  assert_int_equal(r.peak, 1792);
  assert_int_equal(r.max_live, 1792);
}

/* A hole left by a dead buffer is taken by the smallest gap that fits:
 * x [0,1] 1 KiB and y [0,3] 1 KiB stack; z [2,3] 512 B goes where x was,
 * under the top, and the peak stays 2 KiB. */
static void best_fit_hole(void **state) {
  (void)state;
  npuc_tx8_spm_buffer b[] = {buf(1024, 0, 1), buf(1024, 0, 3), buf(512, 2, 3)};
  int64_t off[3];
  npuc_tx8_spm_result r = alloc_ok(b, 3, off);
  assert_int_equal(off[0], 0);
  assert_int_equal(off[1], 1024);
  assert_int_equal(off[2], 0);
  assert_int_equal(r.peak, 2048);
}

/* load a (step 0), load b (1), add a, b -> c in place of a (2), store c
 * (3): c takes a's block; b stays apart. Without in-place c would need a
 * third block. */
static void inplace_shares(void **state) {
  (void)state;
  npuc_tx8_spm_buffer b[] = {buf(4096, 0, 2), buf(4096, 1, 2), buf(4096, 2, 3)};
  b[2].inplace_of = 0;
  int64_t off[3];
  npuc_tx8_spm_result r = alloc_ok(b, 3, off);
  assert_int_equal(off[2], off[0]);
  assert_int_not_equal(off[1], off[0]);
  assert_int_equal(r.peak, 8192);
  assert_int_equal(r.max_live, 8192);
  assert_int_equal(r.num_blocks, 2);
  /* a read again at step 3: it does not die at 2, so no sharing */
  b[0].last = 3;
  r = alloc_ok(b, 3, off);
  assert_int_not_equal(off[2], off[0]);
  assert_int_equal(r.peak, 3 * 4096);
  assert_int_equal(r.num_blocks, 3);
}

/* A chain of in-place ops (relu -> exp -> abs) stays in one block, and
 * two buffers claiming one input: only the first gets it. */
static void inplace_chain_and_claims(void **state) {
  (void)state;
  npuc_tx8_spm_buffer b[] = {buf(1000, 0, 1), buf(1000, 1, 2), buf(1000, 2, 3),
                             buf(1000, 3, 4)};
  b[1].inplace_of = 0;
  b[2].inplace_of = 1;
  b[3].inplace_of = 2;
  int64_t off[4];
  npuc_tx8_spm_result r = alloc_ok(b, 4, off);
  assert_int_equal(r.num_blocks, 1);
  assert_int_equal(r.peak, up(1000));
  npuc_tx8_spm_buffer c[] = {buf(512, 0, 1), buf(512, 1, 2), buf(512, 1, 2)};
  c[1].inplace_of = 0;
  c[2].inplace_of = 0;
  int64_t o2[3];
  r = alloc_ok(c, 3, o2);
  assert_int_equal(o2[1], o2[0]);
  assert_int_not_equal(o2[2], o2[0]);
  assert_int_equal(r.num_blocks, 2);
}

/* An imm scratch lives at its op's step only: the op's input and output
 * are apart from it, a later buffer reuses its space; imm never shares in
 * place. */
static void imm_scratch(void **state) {
  (void)state;
  npuc_tx8_spm_buffer b[] = {buf(2048, 0, 1), buf(4096, 1, 1), buf(2048, 1, 2),
                             buf(4096, 2, 3)};
  b[1].is_imm = true;
  b[3].inplace_of = 1; /* imm: refused */
  int64_t off[4];
  npuc_tx8_spm_result r = alloc_ok(b, 4, off);
  assert_true(off[1] >= off[0] + 2048 || off[0] >= off[1] + 4096);
  assert_true(off[1] >= off[2] + 2048 || off[2] >= off[1] + 4096);
  assert_int_equal(r.max_live, 8192);
  assert_int_equal(r.peak, 8192);
  assert_int_equal(r.num_blocks, 4);
}

/* Sizes round up to 256 bytes; offsets are multiples of 256; a zero-size
 * buffer takes no space. */
static void alignment(void **state) {
  (void)state;
  npuc_tx8_spm_buffer b[] = {buf(1, 0, 0), buf(257, 0, 0), buf(0, 0, 0),
                             buf(255, 0, 0)};
  int64_t off[4];
  npuc_tx8_spm_result r = alloc_ok(b, 4, off);
  for (int i = 0; i < 4; ++i)
    assert_int_equal(off[i] % A, 0);
  assert_int_equal(r.peak, 256 + 512 + 256);
  assert_int_equal(r.max_live, r.peak);
}

static void bad_input(void **state) {
  (void)state;
  npuc_tx8_spm_result r;
  int64_t off[2];
  char err[128];
  npuc_tx8_spm_buffer b[2] = {buf(-1, 0, 0), buf(1, 0, 0)};
  assert_false(npuc_tx8_spm_alloc(b, 2, off, &r, err, sizeof err));
  assert_non_null(strstr(err, "buffer 0: negative size"));
  b[0] = buf(1, 2, 1);
  assert_false(npuc_tx8_spm_alloc(b, 2, off, &r, err, sizeof err));
  assert_non_null(strstr(err, "lifetime"));
  b[0] = buf(1, 0, NPUC_TX8_SPM_MAX_STEP + 1);
  assert_false(npuc_tx8_spm_alloc(b, 2, off, &r, err, sizeof err));
  b[0] = buf(1, 0, 0);
  b[1].inplace_of = 1;
  assert_false(npuc_tx8_spm_alloc(b, 2, off, &r, err, sizeof err));
  assert_non_null(strstr(err, "buffer 1: in-place"));
  b[1].inplace_of = 2;
  assert_false(npuc_tx8_spm_alloc(b, 2, off, &r, err, sizeof err));
  b[1] = buf(1, 0, 1);
  b[1].is_imm = true;
  assert_false(npuc_tx8_spm_alloc(b, 2, off, &r, err, sizeof err));
  assert_non_null(strstr(err, "imm"));
  b[1] = buf(INT64_MAX - 10, 0, 0);
  assert_false(npuc_tx8_spm_alloc(b, 2, off, &r, err, sizeof err));
  assert_non_null(strstr(err, "overflows"));
  b[0] = buf(INT64_MAX / 2, 0, 0);
  b[1] = buf(INT64_MAX / 2, 1, 1);
  assert_false(npuc_tx8_spm_alloc(b, 2, off, &r, err, sizeof err));
  assert_false(npuc_tx8_spm_alloc(b, -1, off, &r, err, sizeof err));
  assert_true(npuc_tx8_spm_alloc(b, 0, off, &r, err, sizeof err));
  assert_int_equal(r.peak, 0);
}

/* ---- random instances
 * ------------------------------------------------------------ */

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) { /* splitmix64, uniform enough here */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (uint32_t)((z ^ (z >> 31)) % n);
}

#define MAXN 400

static int32_t find(int32_t *p, int32_t i) {
  while (p[i] != i)
    i = p[i];
  return i;
}

/* Checks one instance; returns peak / max-live (1 when nothing is live).
 * Buffers joined by an honoured in-place edge may share memory; any other
 * two live at one step must not overlap. The max-live bound is
 * recomputed by brute force over steps when there is no in-place edge. */
static double check_instance(const npuc_tx8_spm_buffer *b, int n) {
  int64_t off[MAXN];
  npuc_tx8_spm_result r = alloc_ok(b, n, off);
  int32_t comp[MAXN];
  bool any_inplace = false;
  for (int i = 0; i < n; ++i)
    comp[i] = i;
  for (int j = 0; j < n; ++j) {
    int i = b[j].inplace_of;
    if (i >= 0 && b[i].last == b[j].first && !b[i].is_imm && !b[j].is_imm) {
      comp[find(comp, j)] = find(comp, i);
      any_inplace = true;
    }
  }
  int64_t peak = 0;
  for (int i = 0; i < n; ++i) {
    assert_int_equal(off[i] % A, 0);
    assert_true(off[i] >= 0);
    if (off[i] + up(b[i].bytes) > peak)
      peak = off[i] + up(b[i].bytes);
    for (int j = i + 1; j < n; ++j) {
      bool live = b[i].first <= b[j].last && b[j].first <= b[i].last;
      if (!live || !b[i].bytes || !b[j].bytes || find(comp, i) == find(comp, j))
        continue;
      bool apart = off[i] + up(b[i].bytes) <= off[j] ||
                   off[j] + up(b[j].bytes) <= off[i];
      if (!apart)
        fail_msg("buffers %d [%d,%d] and %d [%d,%d] overlap at %lld, %lld", i,
                 b[i].first, b[i].last, j, b[j].first, b[j].last,
                 (long long)off[i], (long long)off[j]);
    }
  }
  assert_true(peak <= r.peak);
  assert_true(r.peak <= peak); /* the reported peak is the real one */
  assert_true(r.peak >= r.max_live);
  if (!any_inplace) {
    int64_t best = 0;
    for (int32_t s = 0; s <= NPUC_TX8_SPM_MAX_STEP; ++s) {
      int64_t live = 0;
      bool later = false;
      for (int i = 0; i < n; ++i) {
        if (b[i].first <= s && s <= b[i].last)
          live += up(b[i].bytes);
        later |= b[i].last > s;
      }
      best = live > best ? live : best;
      if (!later)
        break;
    }
    assert_int_equal(best, r.max_live);
  }
  return r.max_live ? (double)r.peak / (double)r.max_live : 1.0;
}

/* Any intervals over up to 40 steps, sizes 0..64 KiB, some imm, some in
 * place of an input dying where they start. */
static int random_general(npuc_tx8_spm_buffer *b) {
  int n = 1 + (int)rnd(80);
  int32_t steps = 2 + (int32_t)rnd(40);
  for (int i = 0; i < n; ++i) {
    int32_t f = (int32_t)rnd((uint32_t)steps);
    int32_t l = f + (int32_t)rnd((uint32_t)(steps - f));
    b[i] = buf(rnd(8) ? rnd(65536) : rnd(300), f, l);
    if (rnd(8) == 0)
      b[i].last = b[i].first, b[i].is_imm = true;
  }
  for (int j = 0; j < n; ++j)
    if (rnd(4) == 0) {
      int i = (int)rnd((uint32_t)n);
      if (i != j && b[i].last == b[j].first)
        b[j].inplace_of = i;
    }
  return n;
}

typedef struct {
  npuc_tx8_spm_buffer *b;
  int n;
  int32_t step;
  int64_t slice; /* the bytes of one activation slice */
} chain;

static int value(chain *c, int64_t bytes) {
  c->b[c->n] = buf(bytes, c->step, c->step);
  return c->n++;
}

static void read_at(chain *c, int v) {
  if (c->b[v].last < c->step)
    c->b[v].last = c->step;
}

/* An op at the next step reading `in` (and a second operand `other`, -1
 * none), defining a result of `bytes`, in place of `in` when elementwise
 * and `in` dies here (decided after the chain is built, see finish). */
static int op(chain *c, int in, int other, int64_t bytes) {
  c->step++;
  read_at(c, in);
  if (other >= 0)
    read_at(c, other);
  return value(c, bytes);
}

static int load(chain *c, int64_t bytes) {
  c->step++;
  return value(c, bytes);
}

/* A fused group: load x (a conv halo makes it larger than the slice),
 * ops in a chain, each reading the previous value and sometimes a loaded
 * weight or [C] vector, sometimes with an imm scratch; sometimes x (or
 * another early value) read again by a late op (a residual); stores of
 * the last value and sometimes of one in the middle. */
static int random_chain(npuc_tx8_spm_buffer *b, bool inplace) {
  chain c = {b, 0, 0, 256 * (1 + (int64_t)rnd(64))};
  int64_t halo = c.slice * (8 + (int64_t)rnd(3)) / 8;
  int x = load(&c, rnd(2) ? halo : c.slice), cur = x, keep = -1;
  int ops = 2 + (int)rnd(19);
  for (int k = 0; k < ops && c.n < MAXN - 4; ++k) {
    int other = -1;
    switch (rnd(5)) {
    case 0: other = load(&c, c.slice * (1 + (int64_t)rnd(4))); break; /* W */
    case 1: other = load(&c, 256); break; /* a [C] vector */
    case 2:
      if (keep >= 0)
        other = keep; /* the residual */
      break;
    default: break;
    }
    int prev = cur;
    cur = op(&c, cur, other, c.slice);
    if (rnd(6) == 0) {
      b[c.n] = buf(2 * c.slice, c.step, c.step); /* imm scratch */
      b[c.n++].is_imm = true;
    }
    if (inplace && other != prev)
      b[cur].inplace_of = prev;
    if (keep < 0 && rnd(3) == 0)
      keep = prev;
    if (rnd(8) == 0) { /* a store of a value in the middle */
      c.step++;
      read_at(&c, cur);
    }
  }
  c.step++;
  read_at(&c, cur); /* the store */
  return c.n;
}

static void report(const char *what, int count, double worst, double sum) {
  printf("spm-alloc %-28s %5d instances: peak/max-live worst %.3f, mean "
         "%.3f\n",
         what, count, worst, sum / count);
}

static void random_instances(void **state) {
  (void)state;
  npuc_tx8_spm_buffer b[MAXN];
  const char *names[] = {"random intervals", "fused-group chains",
                         "fused-group chains in place"};
  for (int family = 0; family < 3; ++family) {
    rng_state = 0x5eed0017u + (uint64_t)family;
    double worst = 0, sum = 0;
    int count = family == 0 ? 3000 : 5000;
    for (int t = 0; t < count; ++t) {
      int n = family == 0 ? random_general(b) : random_chain(b, family == 2);
      double ratio = check_instance(b, n);
      sum += ratio;
      worst = ratio > worst ? ratio : worst;
      if (family > 0 && ratio > 1.1)
        fail_msg("%s #%d: peak %.3f x max-live", names[family], t, ratio);
    }
    report(names[family], count, worst, sum);
  }
}

/* 20,000 short-lived buffers in a sliding window: the placement stays
 * fast (the segment tree) and tight. */
static void many_buffers(void **state) {
  (void)state;
  enum { N = 20000 };
  npuc_tx8_spm_buffer *b = calloc(N, sizeof *b);
  int64_t *off = calloc(N, sizeof *off);
  assert_non_null(b);
  assert_non_null(off);
  rng_state = 42;
  for (int i = 0; i < N; ++i)
    b[i] = buf(256 * (1 + rnd(16)), i / 4, i / 4 + (int32_t)rnd(8));
  npuc_tx8_spm_result r = alloc_ok(b, N, off);
  assert_true(r.peak >= r.max_live);
  printf("spm-alloc %d buffers: peak/max-live %.3f\n", N,
         (double)r.peak / (double)r.max_live);
  free(b);
  free(off);
}

/* ---- the placement the code generator reads back
 * ------------------------------------------------ */

/* Generic form: the unit test's context has no tx8be syntax. */
static const char placement_module[] =
    "module {\n"
    "func.func @f(%x: tensor<64x32xf32>, %y: tensor<64x32xf32>) -> "
    "tensor<64x32xf32> {\n"
    "  %0 = \"tx8be.group\"(%x, %y) ({\n"
    "  ^bb0(%a0: tensor<64x32xf32>, %a1: tensor<64x32xf32>):\n"
    "    %1 = \"tx8be.load_var\"(%a0) : (tensor<64x32xf32>) -> "
    "tensor<64x32xf32>\n"
    "    %2 = \"tx8be.load_var\"(%a1) : (tensor<64x32xf32>) -> "
    "tensor<64x32xf32>\n"
    "    %3 = \"tx8be.add\"(%1, %2) : (tensor<64x32xf32>, tensor<64x32xf32>) "
    "-> tensor<64x32xf32>\n"
    "    %4 = \"tx8be.store_var\"(%3) : (tensor<64x32xf32>) -> "
    "tensor<64x32xf32>\n"
    "    \"tx8be.return\"(%4) : (tensor<64x32xf32>) -> ()\n"
    "  }) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>\n"
    "  return %0 : tensor<64x32xf32>\n"
    "}\n"
    "}\n";

static MlirOperation first_group(MlirOperation module) {
  MlirOperation func = mlirBlockGetFirstOperation(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)));
  return mlirBlockGetFirstOperation(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)));
}

static void set_dev_info(MlirOperation op, const char *text) {
  MlirAttribute a = mlirAttributeParseGet(mlirOperationGetContext(op),
                                          mlirStringRefCreateFromCString(text));
  assert_false(mlirAttributeIsNull(a));
  mlirOperationSetAttributeByName(
      op, mlirStringRefCreateFromCString("dev_info"), a);
}

/* After tx8-sharding alone the bump placement; after tx8-spm-alloc its
 * offsets (the add in place of x); a buffer without mem_addr falls back to
 * the bump placement; an offset off the 256-byte grid is an error. */
/* The copies' layout in mem_addr (npuc_tx8_spm_copies): copy-major, a
 * buffer with one address for all copies has one, and every malformed
 * list is refused with its reason. */
static void copies_layout(void **state) {
  (void)state;
  int64_t addr[NPUC_TX8_SPM_MAX_COPIES];
  int n = 0;
  char err[200];
  /* an op of two buffers (a load and its extract) in three copies */
  const int64_t two[6] = {0, 4608, 1536, 8192, 2304, 8704};
  for (int slot = 0; slot < 2; ++slot) { /* copy c of slot s: 2c + s */
    assert_true(npuc_tx8_spm_copies(two, 6, 3, 2, slot, 512, 9216, addr, &n,
                                    err, sizeof err));
    assert_int_equal(n, 3);
    for (int c = 0; c < 3; ++c)
      assert_int_equal(addr[c], two[2 * c + slot]);
  }
  /* slot 1 with one copy repeated */
  const int64_t one[4] = {0, 2816, 1536, 2816};
  assert_true(npuc_tx8_spm_copies(one, 4, 2, 2, 1, 512, 3328, addr, &n, err,
                                  sizeof err));
  assert_int_equal(n, 1);
  assert_int_equal(addr[0], 2816);
  /* errors: length, off SPM, off alignment, overlap */
  assert_false(npuc_tx8_spm_copies(two, 5, 3, 2, 0, 768, 9216, addr, &n, err,
                                   sizeof err));
  assert_non_null(strstr(err, "mem_addr has 5 entries; 3 copies of the op's "
                              "2 SPM buffers need 6"));
  assert_false(npuc_tx8_spm_copies(two, 6, 3, 2, 1, 768, 9216, addr, &n, err,
                                   sizeof err));
  assert_non_null(strstr(err, "copy 2 of a multi-buffered SPM buffer at 8704"));
  const int64_t odd[2] = {0, 300};
  assert_false(npuc_tx8_spm_copies(odd, 2, 2, 1, 0, 256, 4096, addr, &n, err,
                                   sizeof err));
  assert_non_null(strstr(err, "not on a 256-byte boundary"));
  const int64_t overlap[3] = {0, 512, 256};
  assert_false(npuc_tx8_spm_copies(overlap, 3, 3, 1, 0, 512, 4096, addr, &n,
                                   err, sizeof err));
  assert_non_null(strstr(err, "copies 0 and 2 of a multi-buffered SPM buffer "
                              "overlap"));
  assert_false(npuc_tx8_spm_copies(two, 6, 9, 2, 0, 768, 9216, addr, &n, err,
                                   sizeof err));
}

static void placement_read_back(void **state) {
  (void)state;
  MlirContext ctx = npuc_context_create();
  MlirOperation module = mlirOperationCreateParse(
      ctx, mlirStringRefCreateFromCString(placement_module),
      mlirStringRefCreateFromCString("placement.mlir"));
  assert_false(mlirOperationIsNull(module));
  npuc_pass_context pctx = {NULL, ctx, NULL};
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  assert_true(npuc_pipeline_parse(
      pm, "builtin.module(tx8-sharding,tx8-spm-alloc)", &pctx, NULL));
  assert_true(mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, module)));
  mlirPassManagerDestroy(pm);
  npuc_tx8_group_plan plan;
  assert_true(npuc_tx8_group_plan_build(first_group(module), &plan));
  npuc_tx8_dev_attr dev;
  assert_int_equal(npuc_tx8_op_dev_attr(plan.compute, &dev),
                   NPUC_TX8_ATTR_PRESENT);
  int32_t slice[2] = {(int32_t)dev.temporal_mem_slice.v[0],
                      (int32_t)dev.temporal_mem_slice.v[1]};
  int64_t bump[NPUC_TX8_MAX_BUFFERS + 1], placed[NPUC_TX8_MAX_BUFFERS + 1];
  int64_t bump_bytes = npuc_tx8_group_spm_bytes(&plan, slice, bump);
  int64_t bytes = npuc_tx8_group_placement(&plan, slice, placed);
  assert_int_equal(bytes, bump_bytes / 3 * 2); /* three equal buffers */
  assert_int_equal(placed[plan.anchor], placed[0]);
  assert_int_not_equal(placed[1], placed[0]);
  assert_int_equal(placed[plan.anchor], dev.mem_addr.v[0]);
  /* y's load loses its mem_addr: the bump placement */
  set_dev_info(plan.buffers[1].op,
               "#tx8be.dev_attr<imm_size = 0, mem_layout = Tensor, "
               "multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = "
               "[], temporal_mem_slice = [], source_type = 0, imm_addr = 0, "
               "mem_addr = []>");
  assert_int_equal(npuc_tx8_group_placement(&plan, slice, placed), bump_bytes);
  for (int i = 0; i <= plan.num_buffers; ++i)
    assert_int_equal(placed[i], bump[i]);
  /* an offset off the grid */
  set_dev_info(plan.buffers[1].op,
               "#tx8be.dev_attr<imm_size = 0, mem_layout = Tensor, "
               "multi_buf_en = false, multi_buf_num = 1, out_shape_buf_idx = "
               "[], temporal_mem_slice = [], source_type = 0, imm_addr = 0, "
               "mem_addr = [100]>");
  assert_int_equal(npuc_tx8_group_placement(&plan, slice, placed), -1);
  mlirOperationDestroy(module);
  npuc_context_destroy(ctx);
}

int main(void) {
  npuc_register_passes();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(disjoint_share),
      cmocka_unit_test(overlapping_apart),
      cmocka_unit_test(best_fit_hole),
      cmocka_unit_test(inplace_shares),
      cmocka_unit_test(inplace_chain_and_claims),
      cmocka_unit_test(imm_scratch),
      cmocka_unit_test(alignment),
      cmocka_unit_test(bad_input),
      cmocka_unit_test(random_instances),
      cmocka_unit_test(many_buffers),
      cmocka_unit_test(placement_read_back),
      cmocka_unit_test(copies_layout),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
