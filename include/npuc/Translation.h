/* Translations: npuc-translate's --<name> options, each turning a parsed
 * module into text another toolchain consumes (as mlir-translate's
 * translations do). The list is NPUC_TRANSLATIONS in
 * lib/Target/TranslationRegistry.c, written once. */
#ifndef NPUC_TRANSLATION_H
#define NPUC_TRANSLATION_H

#include "npuc/StringBuilder.h"

#include <mlir-c/IR.h>
#include <stdbool.h>
#include <stddef.h>

/* The options npuc-translate passes to every translation. */
typedef struct {
  bool aie2; /* --aie2 (also --aieml): the device is AIE-ML (AIE2) */
  /* A vector.transfer_write that may cross its row's end writes only the
   * lanes before it (npuc_cc_store), as MLIR defines it; aie-translate
   * writes every lane. npuc-compile's kernel.cc sets it. */
  bool masked_writes;
  /* What stops the translation is reported as a warning (npuc-compile,
   * whose kernel.cc is optional). */
  bool errors_as_warnings;
} npuc_translate_options;

typedef struct {
  const char *name;    /* the option, without dashes: "aievec-to-cpp" */
  const char *summary; /* one line for --help */
  /* Appends the translation of `module` to `out`. On failure the error is
   * reported at an op (npuc_op_error) and `out` must be discarded. */
  bool (*run)(MlirOperation module, const npuc_translate_options *o,
              npuc_sb *out);
} npuc_translation_def;

size_t npuc_num_translations(void);
const npuc_translation_def *npuc_translation_at(size_t i);
const npuc_translation_def *npuc_translation_lookup(const char *name);

/* --aievec-to-cpp on some functions of a module (npuc-compile's kernel.cc):
 * each as in the whole module's translation. */
bool npuc_aievec_to_cpp_functions(const MlirOperation *funcs, size_t n,
                                  const npuc_translate_options *o,
                                  npuc_sb *out);

#endif
