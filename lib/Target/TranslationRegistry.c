/* The translations of npuc-translate, in --help order. */
#include "npuc/NamedList.h"
#include "npuc/Translation.h"

#include <string.h>

/* Every translation, once, in --help order. */
#define NPUC_TRANSLATIONS(X) X(npuc_translation_aievec_to_cpp)

#define DECLARE(symbol) extern const npuc_translation_def symbol;
NPUC_TRANSLATIONS(DECLARE)
#undef DECLARE

NPUC_NAMED_LIST(npuc_translation_def, NPUC_TRANSLATIONS, translations,
                npuc_num_translations, npuc_translation_at,
                npuc_translation_lookup)
