/* include/npuc/PtrSet.h: linear probing, at most half full. */
#include "npuc/PtrSet.h"

#include <stdint.h>
#include <stdlib.h>

static size_t slot_of(const void *const *slots, size_t mask, const void *p) {
  size_t j = npuc_hash_ptr(p) & mask;
  while (slots[j] && slots[j] != p)
    j = (j + 1) & mask;
  return j;
}

static bool grow(npuc_ptr_set *s) {
  size_t cap = s->slots ? 2 * (s->mask + 1) : 64;
  const void **slots = calloc(cap, sizeof *slots);
  if (!slots)
    return false;
  for (size_t i = 0; s->slots && i <= s->mask; i++)
    if (s->slots[i])
      slots[slot_of(slots, cap - 1, s->slots[i])] = s->slots[i];
  free(s->slots);
  s->slots = slots;
  s->mask = cap - 1;
  return true;
}

bool npuc_ptr_set_insert(npuc_ptr_set *s, const void *p) {
  if ((!s->slots || 2 * (s->count + 1) > s->mask + 1) && !grow(s)) {
    s->oom = true;
    return false;
  }
  size_t j = slot_of(s->slots, s->mask, p);
  if (s->slots[j])
    return false;
  s->slots[j] = p;
  s->count++;
  return true;
}

void npuc_ptr_set_free(npuc_ptr_set *s) {
  free(s->slots);
  s->slots = NULL;
  s->mask = s->count = 0;
  s->oom = false;
}

/* ---- The map ---------------------------------------------------------- */

static bool map_grow(npuc_ptr_map *m) {
  size_t cap = m->keys ? 2 * (m->mask + 1) : 64;
  const void **keys = calloc(cap, sizeof *keys);
  uintptr_t *values = malloc(cap * sizeof *values);
  if (!keys || !values) {
    free(keys);
    free(values);
    return false;
  }
  for (size_t i = 0; m->keys && i <= m->mask; i++)
    if (m->keys[i]) {
      size_t j = slot_of(keys, cap - 1, m->keys[i]);
      keys[j] = m->keys[i];
      values[j] = m->values[i];
    }
  free(m->keys);
  free(m->values);
  m->keys = keys;
  m->values = values;
  m->mask = cap - 1;
  return true;
}

bool npuc_ptr_map_put(npuc_ptr_map *m, const void *key, uintptr_t value) {
  if ((!m->keys || 2 * (m->count + 1) > m->mask + 1) && !map_grow(m)) {
    m->oom = true;
    return false;
  }
  size_t j = slot_of(m->keys, m->mask, key);
  if (!m->keys[j]) {
    m->keys[j] = key;
    m->count++;
  }
  m->values[j] = value;
  return true;
}

bool npuc_ptr_map_get(const npuc_ptr_map *m, const void *key,
                      uintptr_t *value) {
  if (!m->keys)
    return false;
  size_t j = slot_of(m->keys, m->mask, key);
  if (!m->keys[j])
    return false;
  *value = m->values[j];
  return true;
}

void npuc_ptr_map_free(npuc_ptr_map *m) {
  free(m->keys);
  free(m->values);
  m->keys = NULL;
  m->values = NULL;
  m->mask = m->count = 0;
  m->oom = false;
}
