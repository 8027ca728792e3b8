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
