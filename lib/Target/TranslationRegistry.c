/* The translations of npuc-translate, in --help order. */
#include "npuc/Translation.h"

#include <string.h>

/* Every translation, once, in --help order. */
#define NPUC_TRANSLATIONS(X) X(npuc_translation_aievec_to_cpp)

#define DECLARE(symbol) extern const npuc_translation_def symbol;
NPUC_TRANSLATIONS(DECLARE)
#undef DECLARE

static const npuc_translation_def *const translations[] = {
#define ADDRESS(symbol) &symbol,
    NPUC_TRANSLATIONS(ADDRESS)
#undef ADDRESS
};

#define NUM_TRANSLATIONS (sizeof translations / sizeof translations[0])

size_t npuc_num_translations(void) { return NUM_TRANSLATIONS; }

const npuc_translation_def *npuc_translation_at(size_t i) {
  return i < NUM_TRANSLATIONS ? translations[i] : NULL;
}

const npuc_translation_def *npuc_translation_lookup(const char *name) {
  for (size_t i = 0; i < NUM_TRANSLATIONS; i++)
    if (strcmp(translations[i]->name, name) == 0)
      return translations[i];
  return NULL;
}
