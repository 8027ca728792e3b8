/* A fixed list of definitions known by name (targets, translations): the
 * X-macro that lists them once, and the three functions every such list
 * offers, defined by one macro so that each list is only its X-macro. */
#ifndef NPUC_NAMED_LIST_H
#define NPUC_NAMED_LIST_H

#include <stddef.h>
#include <string.h>

/* Given LIST(X), an X-macro over the symbols of `type` objects (declared
 * before) with a `name` field: the array `array` of their addresses in
 * LIST order, and
 * size_t num_fn(void), const type *at_fn(size_t) (NULL past the end) and
 * const type *lookup_fn(const char *name) (NULL if none). */
#define NPUC_NAMED_LIST(type, LIST, array, num_fn, at_fn, lookup_fn)          \
  static const type *const array[] = {LIST(NPUC_NAMED_LIST_ADDRESS)};          \
  size_t num_fn(void) { return sizeof array / sizeof array[0]; }               \
  const type *at_fn(size_t i) { return i < num_fn() ? array[i] : NULL; }       \
  const type *lookup_fn(const char *name) {                                    \
    for (size_t i = 0; i < num_fn(); i++)                                      \
      if (strcmp(array[i]->name, name) == 0)                                   \
        return array[i];                                                       \
    return NULL;                                                               \
  }

#define NPUC_NAMED_LIST_ADDRESS(symbol) &symbol,

#endif
