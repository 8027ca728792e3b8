/* --verify-diagnostics, as mlir-opt has it: the input states the
 * diagnostics it expects in comments,
 *   // expected-error {{substring of the message}}
 *   // expected-warning@+1 {{...}}    (also @-N, @above, @below, @unknown)
 *   // expected-note-re {{literal {{[0-9]+}} regex}}
 * and the run passes when exactly those were produced, at those lines. */
#ifndef NPUC_VERIFY_DIAGNOSTICS_H
#define NPUC_VERIFY_DIAGNOSTICS_H

#include "npuc/Diagnostics.h"
#include <stdbool.h>
#include <stddef.h>

typedef struct npuc_diag_verifier npuc_diag_verifier;

/* Scans `text`, whose first byte is on line `first_line` of `filename`, for
 * expectations. Malformed ones (a bad -re pattern) are reported through
 * `report` and make npuc_diag_verifier_finish fail. */
npuc_diag_verifier *npuc_diag_verifier_create(const char *filename,
                                              const char *text, size_t len,
                                              int first_line,
                                              const npuc_diag_sink *report);

/* The sink to hand to everything that reports diagnostics: it records
 * them instead of printing them. Valid while the verifier lives. */
const npuc_diag_sink *npuc_diag_verifier_sink(npuc_diag_verifier *v);

/* Matches what was recorded against what was expected and reports every
 * mismatch on `report`:
 *   file:L:C: error: unexpected error: <message>
 *   file:L:C: error: expected error "<text>" was not produced
 * Returns true when everything matched. */
bool npuc_diag_verifier_finish(npuc_diag_verifier *v,
                               const npuc_diag_sink *report);

void npuc_diag_verifier_destroy(npuc_diag_verifier *v);

#endif
