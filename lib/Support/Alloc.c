/* include/npuc/Alloc.h */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* strndup */
#endif
#include "npuc/Alloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Noreturn void npuc_die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("npuc: fatal error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

static void *checked(void *p) {
  if (!p)
    npuc_die("out of memory");
  return p;
}

void *npuc_xmalloc(size_t size) { return checked(malloc(size ? size : 1)); }

void *npuc_xcalloc(size_t count, size_t size) {
  return checked(calloc(count ? count : 1, size ? size : 1));
}

void *npuc_xrealloc(void *p, size_t size) {
  return checked(realloc(p, size ? size : 1));
}

void *npuc_xreallocarray(void *p, size_t count, size_t size) {
  if (size && count > SIZE_MAX / size)
    npuc_die("out of memory (an array of %zu elements of %zu bytes)", count,
             size);
  return npuc_xrealloc(p, count * size);
}

char *npuc_xstrdup(const char *s) { return checked(strdup(s)); }

char *npuc_xstrndup(const char *s, size_t n) { return checked(strndup(s, n)); }
