/* npuc_sb: printf into a growing buffer (npuc/StringBuilder.h). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "npuc/StringBuilder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void npuc_sb_vprintf(npuc_sb *sb, const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  if (n < 0)
    return;
  if (sb->len + (size_t)n + 1 > sb->cap) {
    sb->cap = (sb->len + (size_t)n + 1) * 2;
    sb->data = realloc(sb->data, sb->cap);
  }
  vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
  sb->len += (size_t)n;
}

void npuc_sb_printf(npuc_sb *sb, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  npuc_sb_vprintf(sb, fmt, ap);
  va_end(ap);
}

char *npuc_sb_take(npuc_sb *sb) {
  char *text = sb->data ? sb->data : strdup("");
  memset(sb, 0, sizeof *sb);
  return text;
}

void npuc_sb_free(npuc_sb *sb) {
  free(sb->data);
  memset(sb, 0, sizeof *sb);
}
