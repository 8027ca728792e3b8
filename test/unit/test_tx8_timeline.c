/* libnpuc_tx8_rt's timeline (timeline.c): ops placed on their engines
 * with SPM-range dependencies, worked out by hand. The target makes every
 * cost its bytes: one tile, 1 byte a cycle of DDR, CT and TDMA, no issue
 * overhead, so rdma(100) takes 100 cycles. Two slices of load (100),
 * compute (CT, 150), store (100):
 *   double-buffered, the pipelined order L0 L1 C0 S0 C1 S1 gives
 *     DDR  L0 [0,100) L1 [100,200) S0 [250,350) S1 [400,500)
 *     CT   C0 [100,250) C1 [250,400)                          span 500;
 *   one buffer each, the serial order L0 C0 S0 L1 C1 S1 waits for every
 *   reader before overwriting: span 700, the sum. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "npuc/Tx8Runtime.h"

#include <stdlib.h>

static char spm[4096];

static void unit_target(void) {
  npuc_tx8_target t = NPUC_TX8_TARGET_DEFAULT;
  t.tiles_x = t.tiles_y = 1;
  t.ddr_gbytes_per_s = 1.0;
  t.clock_ghz = 1.0;
  t.ct_bytes_per_cycle = t.tdma_bytes_per_cycle = 1;
  t.op_overhead_cycles = 0;
  npuc_tx8_rt_set_target(&t);
}

static npuc_tx8_tl_range at(int64_t offset, int64_t bytes) {
  return (npuc_tx8_tl_range){spm + offset, bytes};
}

static void load(const char *name, npuc_tx8_tl_range to) {
  npuc_tx8_tl_step(name, NULL, 0, &to, 1);
  npuc_tx8_cycles_rdma(100);
}

static void compute(const char *name, npuc_tx8_tl_range from,
                    npuc_tx8_tl_range to) {
  npuc_tx8_tl_step(name, &from, 1, &to, 1);
  npuc_tx8_cycles_ct(150, 1);
}

static void store(const char *name, npuc_tx8_tl_range from) {
  npuc_tx8_tl_step(name, &from, 1, NULL, 0);
  npuc_tx8_cycles_wdma(100);
}

/* The span of each recorded op, by name, and that engine. */
static void expect(const npuc_tx8_tl_event *e, size_t n, const char *name,
                   int32_t engine, uint64_t start, uint64_t end) {
  for (size_t i = 0; i < n; ++i)
    if (e[i].name == name) {
      assert_int_equal(e[i].engine, engine);
      assert_int_equal(e[i].start, start);
      assert_int_equal(e[i].start + e[i].cycles, end);
      return;
    }
  fail_msg("no span named %s", name);
}

static void two_slices_double_buffered(void **state) {
  (void)state;
  unit_target();
  npuc_tx8_tl_trace(true);
  static const char *const names[] = {"L0", "L1", "C0", "S0", "C1", "S1"};
  npuc_tx8_tl_range a[2] = {at(0, 100), at(256, 100)};
  npuc_tx8_tl_range r[2] = {at(512, 150), at(768, 150)};
  npuc_tx8_tl_group_begin(0, "g0");
  load(names[0], a[0]);
  load(names[1], a[1]);
  compute(names[2], a[0], r[0]);
  store(names[3], r[0]);
  compute(names[4], a[1], r[1]);
  store(names[5], r[1]);
  assert_int_equal(npuc_tx8_tl_group_end(), 500);
  size_t n;
  npuc_tx8_tl_event *e = npuc_tx8_tl_take_events(&n);
  assert_int_equal(n, 7); /* six ops and the group */
  expect(e, n, names[0], NPUC_TX8_BUSY_RDMA, 0, 100);
  expect(e, n, names[1], NPUC_TX8_BUSY_RDMA, 100, 200);
  expect(e, n, names[2], NPUC_TX8_BUSY_CT, 100, 250);
  expect(e, n, names[3], NPUC_TX8_BUSY_WDMA, 250, 350);
  expect(e, n, names[4], NPUC_TX8_BUSY_CT, 250, 400);
  expect(e, n, names[5], NPUC_TX8_BUSY_WDMA, 400, 500);
  assert_int_equal(e[6].engine, NPUC_TX8_NUM_BUSY);
  assert_int_equal(e[6].cycles, 500);
  free(e);
  npuc_tx8_tl_trace(false);
}

static void two_slices_one_buffer(void **state) {
  (void)state;
  unit_target();
  npuc_tx8_tl_range a = at(0, 100), r = at(256, 150);
  npuc_tx8_tl_group_begin(0, "g0");
  for (int k = 0; k < 2; ++k) {
    load("L", a);
    compute("C", a, r);
    store("S", r);
  }
  assert_int_equal(npuc_tx8_tl_group_end(), 700);
}

/* A range overlapping a written one waits for it; CT and TDMA share the
 * SPM port; CT and RDMA overlap; a charge outside a step runs after
 * everything; an op on two engines runs them one after the other. */
static void ports_and_ranges(void **state) {
  (void)state;
  unit_target();
  npuc_tx8_tl_group_begin(1, "g1");
  npuc_tx8_tl_range whole = at(0, 1000), part = at(500, 10),
                    other = at(2048, 8);
  npuc_tx8_tl_step("ct", NULL, 0, &whole, 1);
  npuc_tx8_cycles_ct(100, 1); /* [0, 100) */
  npuc_tx8_tl_step("rdma", NULL, 0, &other, 1);
  npuc_tx8_cycles_rdma(40); /* [0, 40): another port */
  npuc_tx8_tl_step("tdma", NULL, 0, NULL, 0);
  npuc_tx8_cycles_tdma(30); /* the SPM port after the CT: [100, 130) */
  assert_int_equal(npuc_tx8_tl_close(), 130);
  npuc_tx8_tl_step("read part", &part, 1, NULL, 0);
  npuc_tx8_cycles_wdma(10); /* waits for the CT write: [100, 110) */
  npuc_tx8_tl_step("two engines", &other, 1, NULL, 0);
  npuc_tx8_cycles_tdma(20); /* after the rdma write and the SPM port */
  npuc_tx8_cycles_wdma(5);  /* then on the DDR channel: [150, 155) */
  assert_int_equal(npuc_tx8_tl_close(), 155);
  npuc_tx8_cycles_ct(1, 1); /* outside a step: after everything */
  assert_int_equal(npuc_tx8_tl_group_end(), 156);
  /* A new group starts over at 0. */
  npuc_tx8_tl_group_begin(2, "g2");
  npuc_tx8_tl_step("x", NULL, 0, NULL, 0);
  npuc_tx8_cycles_rdma(7);
  assert_int_equal(npuc_tx8_tl_group_end(), 7);
}

/* RDMA and WDMA have a queue each and share the DDR channel: a load
 * issued after a store that waits for its compute takes the gap before
 * it; a load that does not fit the gap goes after. */
static void engine_queues_share_the_port(void **state) {
  (void)state;
  unit_target();
  npuc_tx8_tl_trace(true);
  static const char *const names[] = {"L0", "C0", "S0", "L1", "L2", "W"};
  npuc_tx8_tl_group_begin(0, "g0");
  load(names[0], at(0, 100));                  /* DDR [0, 100) */
  compute(names[1], at(0, 100), at(256, 150)); /* CT [100, 250) */
  store(names[2], at(256, 150));               /* DDR [250, 350) */
  load(names[3], at(512, 100));                /* the gap: [100, 200) */
  load(names[4], at(768, 100));                /* [200, 250) too short */
  npuc_tx8_tl_step(names[5], NULL, 0, NULL, 0);
  npuc_tx8_cycles_wdma(10); /* after S0 on its queue, after L2 on the port */
  assert_int_equal(npuc_tx8_tl_group_end(), 460);
  size_t n;
  npuc_tx8_tl_event *e = npuc_tx8_tl_take_events(&n);
  expect(e, n, names[2], NPUC_TX8_BUSY_WDMA, 250, 350);
  expect(e, n, names[3], NPUC_TX8_BUSY_RDMA, 100, 200);
  expect(e, n, names[4], NPUC_TX8_BUSY_RDMA, 350, 450);
  expect(e, n, names[5], NPUC_TX8_BUSY_WDMA, 450, 460);
  free(e);
  npuc_tx8_tl_trace(false);
}

/* The port's busy list is bounded (256 intervals, the earliest folded
 * into a floor before placing when full): 300 stores one cycle each, 10
 * apart, then a free load fold the 45 earliest (the floor: the end of
 * store 44, 451), so the load goes there, not into the first gap at 0:
 * later than it could, never overlapping. */
static void port_list_folds_conservatively(void **state) {
  (void)state;
  unit_target();
  npuc_tx8_tl_trace(true);
  static const char *const free_load = "free load";
  npuc_tx8_tl_group_begin(0, "g0");
  for (int i = 0; i < 300; ++i) {
    npuc_tx8_tl_range r = at(i % 8, 1); /* CT [10i, 10i + 10) */
    npuc_tx8_tl_step("ct", NULL, 0, &r, 1);
    npuc_tx8_cycles_ct(10, 1);
    npuc_tx8_tl_step("st", &r, 1, NULL, 0); /* DDR [10i + 10, 10i + 11) */
    npuc_tx8_cycles_wdma(1);
  }
  npuc_tx8_tl_step(free_load, NULL, 0, NULL, 0);
  npuc_tx8_cycles_rdma(5);
  assert_int_equal(npuc_tx8_tl_group_end(), 3001);
  size_t n;
  npuc_tx8_tl_event *e = npuc_tx8_tl_take_events(&n);
  expect(e, n, free_load, NPUC_TX8_BUSY_RDMA, 451, 456);
  free(e);
  npuc_tx8_tl_trace(false);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(two_slices_double_buffered),
      cmocka_unit_test(two_slices_one_buffer),
      cmocka_unit_test(ports_and_ranges),
      cmocka_unit_test(engine_queues_share_the_port),
      cmocka_unit_test(port_list_folds_conservatively),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
