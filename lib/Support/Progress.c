/* The progress line (npuc/Progress.h): redrawn in place on a terminal
 * ("\r", the text, erase to the end of the line), one line per update
 * elsewhere, updates closer than 100 ms dropped unless marked `always`.
 * Process-wide state: stderr is one per process. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "npuc/Progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define MIN_INTERVAL_NS 100000000LL

static bool enabled, terminal, showing;
static long long last_shown_ns = -MIN_INTERVAL_NS;

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void npuc_progress_init(npuc_progress_mode mode) {
  terminal = isatty(2) == 1;
  enabled =
      mode == NPUC_PROGRESS_ON || (mode == NPUC_PROGRESS_AUTO && terminal);
}

bool npuc_progress_enabled(void) { return enabled; }

void npuc_progress(bool always, const char *fmt, ...) {
  if (!enabled)
    return;
  long long now = now_ns();
  if (!always && now - last_shown_ns < MIN_INTERVAL_NS)
    return;
  last_shown_ns = now;
  char line[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (terminal) {
    fprintf(stderr, "\r%s\033[K", line);
    showing = true;
  } else
    fprintf(stderr, "%s\n", line);
  fflush(stderr);
}

void npuc_progress_clear(void) {
  if (!showing)
    return;
  fputs("\r\033[K", stderr);
  fflush(stderr);
  showing = false;
}
