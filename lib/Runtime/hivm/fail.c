/* Error reporting and the bounds-check switch. */
#include "internal.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The status npuc_rt_fail exits with: distinct from a kernel's own exit
 * codes and from a crash, so a driver can tell "the model refused" apart. */
enum { RT_FAIL_STATUS = 3 };

void npuc_rt_fail(const char *loc, const char *fmt, ...) {
  /* Whatever the kernel printed so far comes before the error. */
  fflush(stdout);
  fprintf(stderr, "%s: error: ", loc ? loc : "<unknown>");
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  fflush(stderr);
  exit(RT_FAIL_STATUS);
}

/* -1 until the environment has been read; atomic because blocks may run
 * on several threads and all of them ask. */
static atomic_int bounds_checking = -1;

bool npuc_rt_check_bounds(void) {
  int state = atomic_load_explicit(&bounds_checking, memory_order_relaxed);
  if (state < 0) {
    const char *v = getenv("NPUC_CHECK_BOUNDS");
    state = v && strcmp(v, "1") == 0;
    atomic_store_explicit(&bounds_checking, state, memory_order_relaxed);
  }
  return state == 1;
}
