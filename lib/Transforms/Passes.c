/* include/npuc/Passes.h: the list of Passes.def, registered. */
#include "npuc/Passes.h"
#include "npuc/Alloc.h"
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
#define NPUC_PASS(symbol)                                                      \
  if (!npuc_pass_register(&symbol))                                            \
    npuc_die("internal error: pass '%s' cannot be registered", symbol.name);
#include "Passes.def"
#undef NPUC_PASS
}
