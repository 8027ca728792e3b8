/* A progress line on stderr for long work (importing and compiling a large
 * model), one helper for every tool.
 *
 * A tool sets the mode once from its command line: NPUC_PROGRESS_AUTO shows
 * progress when stderr is a terminal, --progress (ON) always, --no-progress
 * (OFF) never. On a terminal each update redraws one line in place and
 * npuc_progress_clear erases it (diagnostics call it before printing, so
 * they start on a clean line); on anything else each update is a line of
 * its own. An update not marked `always` is dropped when the last one
 * shown is under 100 ms old, so a tight loop may report every step. */
#ifndef NPUC_PROGRESS_H
#define NPUC_PROGRESS_H

#include <stdbool.h>

typedef enum {
  NPUC_PROGRESS_AUTO,
  NPUC_PROGRESS_ON,
  NPUC_PROGRESS_OFF,
} npuc_progress_mode;

void npuc_progress_init(npuc_progress_mode mode);
/* Whether updates are shown (false until npuc_progress_init). */
bool npuc_progress_enabled(void);
/* Shows the line printf would write (without a newline). */
void npuc_progress(bool always, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Erases the line on a terminal; nothing otherwise. */
void npuc_progress_clear(void);

#endif
