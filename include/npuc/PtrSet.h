/* A set of pointers (MLIR handles: ops, values, types), open addressing.
 * For walks over IR that must visit each op or value once however many
 * paths reach it. */
#ifndef NPUC_PTRSET_H
#define NPUC_PTRSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A hash of a pointer for open-addressing tables keyed by MLIR handles
 * (their low bits are alignment, their high bits alike). */
static inline size_t npuc_hash_ptr(const void *p) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 17;
  x *= 0xed5ad4bbu;
  x ^= x >> 11;
  return (size_t)x;
}

typedef struct {
  const void **slots; /* NULL: empty */
  size_t mask, count;
  bool oom; /* an insertion failed */
} npuc_ptr_set;

/* Adds `p` (not NULL). True when it was not in the set yet; false when it
 * was, or when growing failed (`oom` then set). */
bool npuc_ptr_set_insert(npuc_ptr_set *s, const void *p);

/* Frees the slots and leaves an empty set. */
void npuc_ptr_set_free(npuc_ptr_set *s);

/* The one pointer map: pointer keys (MLIR handles' .ptr, table entries)
 * to a uintptr_t value (an index, or a pointer cast). Same hashing and
 * probing as the set. Zero-initialise before use. */
typedef struct {
  const void **keys; /* NULL: empty */
  uintptr_t *values;
  size_t mask, count;
  bool oom; /* an insertion failed */
} npuc_ptr_map;

/* Inserts or replaces; false only when out of memory (m->oom is set). */
bool npuc_ptr_map_put(npuc_ptr_map *m, const void *key, uintptr_t value);
/* The value of `key` in *value; false if absent. */
bool npuc_ptr_map_get(const npuc_ptr_map *m, const void *key, uintptr_t *value);
void npuc_ptr_map_free(npuc_ptr_map *m);

#endif
