/* Overflow-checked int64 arithmetic (npuc/Checked.h). */
#include "npuc/Checked.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static void test_mul(void **state) {
  (void)state;
  int64_t r = 7;
  assert_true(npuc_checked_mul(1 << 20, 1 << 20, &r));
  assert_int_equal(r, (int64_t)1 << 40);
  assert_true(npuc_checked_mul(-3, 5, &r));
  assert_int_equal(r, -15);
  r = 7;
  assert_false(npuc_checked_mul(INT64_MAX / 2 + 1, 2, &r));
  assert_false(npuc_checked_mul(INT64_MIN, -1, &r));
  assert_false(npuc_checked_mul(1000000000000, 1000000000, &r));
  assert_int_equal(r, 7); /* untouched on failure */
}

static void test_add(void **state) {
  (void)state;
  int64_t r = 7;
  assert_true(npuc_checked_add(INT64_MAX - 1, 1, &r));
  assert_int_equal(r, INT64_MAX);
  assert_false(npuc_checked_add(INT64_MAX, 1, &r));
  assert_false(npuc_checked_add(INT64_MIN, -1, &r));
  assert_int_equal(r, INT64_MAX);
}

static void test_ceil_div(void **state) {
  (void)state;
  int64_t r = 0;
  assert_true(npuc_checked_ceil_div(100000, 1024, &r));
  assert_int_equal(r, 98);
  assert_true(npuc_checked_ceil_div(1024, 1024, &r));
  assert_int_equal(r, 1);
  assert_true(npuc_checked_ceil_div(0, 5, &r));
  assert_int_equal(r, 0);
  assert_true(npuc_checked_ceil_div(-7, 2, &r));
  assert_int_equal(r, -3);
  assert_true(npuc_checked_ceil_div(-7, -2, &r));
  assert_int_equal(r, 4);
  assert_true(npuc_checked_ceil_div(7, -2, &r));
  assert_int_equal(r, -3);
  assert_true(npuc_checked_ceil_div(INT64_MAX, 2, &r));
  assert_int_equal(r, INT64_MAX / 2 + 1);
  assert_false(npuc_checked_ceil_div(5, 0, &r));
  assert_false(npuc_checked_ceil_div(INT64_MIN, -1, &r));
}

static void test_product(void **state) {
  (void)state;
  int64_t r = 0;
  assert_true(npuc_checked_product(NULL, 0, &r));
  assert_int_equal(r, 1);
  int64_t dims[] = {8, 16, 0};
  assert_true(npuc_checked_product(dims, 3, &r));
  assert_int_equal(r, 0);
  int64_t big[] = {1 << 30, 1 << 30, 1 << 30};
  assert_false(npuc_checked_product(big, 3, &r));
}

/* Rounded up to a multiple of 256 (a TX8 batch), or false past int64. */
static void test_align_up(void **state) {
  (void)state;
  static const struct {
    int64_t value, want;
  } fits[] = {{0, 0}, {257, 512}, {INT64_MAX - 255, INT64_MAX - 255}};
  int64_t r = 0;
  for (size_t i = 0; i < sizeof fits / sizeof *fits; ++i) {
    assert_true(npuc_checked_align_up(fits[i].value, 256, &r));
    assert_int_equal(r, fits[i].want);
  }
  assert_false(npuc_checked_align_up(INT64_MAX - 254, 256, &r));
  assert_false(npuc_checked_align_up(5, 0, &r));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mul),      cmocka_unit_test(test_add),
      cmocka_unit_test(test_ceil_div), cmocka_unit_test(test_product),
      cmocka_unit_test(test_align_up),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
