/* include/npuc/Passes.h: the list of Passes.def, registered. */
#include "npuc/Passes.h"
#include "npuc/Pass.h"

#include <stdbool.h>

#define NPUC_PASS(symbol) extern const npuc_pass_def symbol;
#include "Passes.def"
#undef NPUC_PASS

void npuc_register_passes(void) {
  static bool done;
  if (done)
    return;
  done = true;
#define NPUC_PASS(symbol) npuc_pass_register(&symbol);
#include "Passes.def"
#undef NPUC_PASS
}
