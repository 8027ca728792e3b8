/* LLVM's fatal errors as ordinary tool errors. On its own in this file
 * because it is the only part of lib/Support that needs LLVM, and
 * lib/Support is also linked without LLVM (npuc_syntax). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* _exit */
#endif
#include "npuc/ToolSupport.h"

#include <stdio.h>
#include <unistd.h>

/* From llvm-c/ErrorHandling.h, declared here because npuc_syntax builds
 * lib/Support without LLVM's include directory. */
typedef void (*LLVMFatalErrorHandler)(const char *reason);
void LLVMInstallFatalErrorHandler(LLVMFatalErrorHandler handler);

static const char *fatal_tool_name = "npuc";

/* MLIR reports misuse (say, a pass added to a pass manager anchored on
 * another op) through report_fatal_error, which would abort with a stack
 * dump; the user should get one error line and exit status 1. */
static void on_fatal_error(const char *reason) {
  fprintf(stderr, "%s: error: %s\n", fatal_tool_name, reason);
  fflush(stderr);
  npuc_remove_temp_files();
  _exit(1);
}

void npuc_install_fatal_error_handler(const char *tool) {
  fatal_tool_name = tool;
  LLVMInstallFatalErrorHandler(on_fatal_error);
}
