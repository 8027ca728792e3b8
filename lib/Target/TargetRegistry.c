/* The targets of npuc-compile, in --help order. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "npuc/NamedList.h"
#include "npuc/Target.h"

#include <stdlib.h>
#include <string.h>

/* Every target, once, in --help order. */
#define NPUC_TARGETS(X)                                                        \
  X(npuc_target_ascend_cmodel)                                                 \
  X(npuc_target_tx8)                                                           \
  X(npuc_target_aie1_cmodel)

#define DECLARE(symbol) extern const npuc_target_def symbol;
NPUC_TARGETS(DECLARE)
#undef DECLARE

NPUC_NAMED_LIST(npuc_target_def, NPUC_TARGETS, targets, npuc_num_targets,
                npuc_target_at, npuc_target_lookup)

bool npuc_emitted_files_add(npuc_emitted_files *files, const char *name,
                            char *text) {
  npuc_emitted_file *grown =
      realloc(files->files, (files->count + 1) * sizeof *files->files);
  char *copy = strdup(name);
  if (!grown || !copy || !text) {
    if (grown)
      files->files = grown;
    free(copy);
    free(text);
    return false;
  }
  files->files = grown;
  files->files[files->count].name = copy;
  files->files[files->count].text = text;
  files->count++;
  return true;
}

void npuc_emitted_files_free(npuc_emitted_files *files) {
  for (size_t i = 0; i < files->count; ++i) {
    free(files->files[i].name);
    free(files->files[i].text);
  }
  free(files->files);
  memset(files, 0, sizeof *files);
}
