/* npuc_sb: printf into a growing buffer (npuc/StringBuilder.h). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "npuc/StringBuilder.h"
#include "npuc/Alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for `more` bytes and a NUL after what is there. */
static void reserve(npuc_sb *sb, size_t more) {
  if (sb->len + more + 1 > sb->cap) {
    sb->cap = (sb->len + more + 1) * 2;
    sb->data = npuc_xrealloc(sb->data, sb->cap);
  }
}

void npuc_sb_vprintf(npuc_sb *sb, const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  if (n < 0)
    return;
  reserve(sb, (size_t)n);
  vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
  sb->len += (size_t)n;
}

void npuc_sb_printf(npuc_sb *sb, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  npuc_sb_vprintf(sb, fmt, ap);
  va_end(ap);
}

void npuc_sb_append(npuc_sb *sb, const char *data, size_t len) {
  reserve(sb, len);
  memcpy(sb->data + sb->len, data, len);
  sb->len += len;
  sb->data[sb->len] = '\0';
}

char *npuc_sb_take(npuc_sb *sb) {
  char *text = sb->data ? sb->data : npuc_xstrdup("");
  memset(sb, 0, sizeof *sb);
  return text;
}

void npuc_sb_free(npuc_sb *sb) {
  free(sb->data);
  memset(sb, 0, sizeof *sb);
}
