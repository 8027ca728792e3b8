/* A growing C string that code emitters print into. */
#ifndef NPUC_STRING_BUILDER_H
#define NPUC_STRING_BUILDER_H

#include <stdarg.h>
#include <stddef.h>

typedef struct {
  char *data; /* NUL-terminated once anything is printed; NULL before */
  size_t len, cap;
} npuc_sb;

void npuc_sb_printf(npuc_sb *sb, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void npuc_sb_vprintf(npuc_sb *sb, const char *fmt, va_list ap);
/* Takes the text (malloc'd; "" when empty) and leaves sb empty. */
/* Appends `len` bytes (not necessarily NUL-terminated). */
void npuc_sb_append(npuc_sb *sb, const char *data, size_t len);
char *npuc_sb_take(npuc_sb *sb);
void npuc_sb_free(npuc_sb *sb);

#endif
