/* Allocation that cannot sensibly fail (QBE's emalloc): a small block the
 * compiler needs to go on. Out of memory there is fatal: one line on
 * stderr and exit status 1, never a half-done result. Large buffers sized
 * by the input (tensors, whole files) keep plain malloc and report a
 * located error instead. */
#ifndef NPUC_ALLOC_H
#define NPUC_ALLOC_H

#include <stddef.h>

void *npuc_xmalloc(size_t size);
void *npuc_xcalloc(size_t count, size_t size);
void *npuc_xrealloc(void *p, size_t size);
/* realloc of an array of `count` elements of `size` bytes, checked for
 * overflow. */
void *npuc_xreallocarray(void *p, size_t count, size_t size);
char *npuc_xstrdup(const char *s);
char *npuc_xstrndup(const char *s, size_t n);

/* Prints "npuc: fatal error: <message>" and exits with status 1. */
_Noreturn void npuc_die(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

#endif
