/* The command line of every npuc tool, parsed one way: `-x` and `--x` are
 * the same option; a value follows `=` or is the next word; `--` ends the
 * options; one positional argument, the input ("-" is stdin). A tool
 * describes its options in a table and handles each in its `apply`
 * callback; what the table does not name goes to its `unknown` callback
 * (npuc-opt's passes, npuc-translate's translations) or is an error with a
 * "did you mean" suggestion from the table. */
#ifndef NPUC_COMMAND_LINE_H
#define NPUC_COMMAND_LINE_H

#include <stdbool.h>
#include <stddef.h>

/* What an apply/unknown callback returns to go on; anything else is the
 * tool's exit status (0 after --help, 1 after an error). */
#define NPUC_CLI_CONTINUE (-1)

typedef enum {
  NPUC_ARG_NONE,     /* a flag; `=true`/`=false` (also 1/0) allowed */
  NPUC_ARG_REQUIRED, /* "-o x" or "-o=x" */
  NPUC_ARG_OPTIONAL, /* only "--x=value" */
} npuc_arg_kind;

typedef struct {
  const char *name; /* without dashes */
  npuc_arg_kind arg;
  int id;            /* the tool's own enum */
  const char *usage; /* NULL: an alias, not listed by --help */
  const char *help;
} npuc_cli_option;

typedef struct npuc_cli npuc_cli;
struct npuc_cli {
  const char *tool; /* "npuc-opt": the prefix of every message */
  const npuc_cli_option *options;
  size_t num_options;
  /* `value` is the option's text (NULL when none was given); for a flag,
   * `flag` is its boolean value. */
  int (*apply)(void *user, const npuc_cli_option *opt, const char *value,
               bool flag);
  /* `name` is `name_len` bytes of the option without its dashes; NULL:
   * npuc_cli_unknown_option. */
  int (*unknown)(void *user, const char *arg, const char *name, size_t name_len,
                 const char *value);
};

/* Parses argv[1..]; the positional argument goes to *input (a second one
 * is an error). Returns NPUC_CLI_CONTINUE or an exit status. */
int npuc_cli_parse(const npuc_cli *cli, int argc, char **argv, void *user,
                   const char **input);

/* "true"/"True"/"1" or NULL, "false"/"False"/"0"; false for anything else. */
bool npuc_cli_bool(const char *value, bool *out);

/* "<tool>: error: unknown option 'ARG'; did you mean '--X'?" with X the
 * closest of the table's names and `extra` (more candidates, NULL-ended,
 * may be NULL) within a third of the name's length (at least 2), else
 * "(see '<tool> --help')". `what` names the kind ("option", "option or
 * pass"). Returns 1. */
int npuc_cli_unknown_option(const npuc_cli *cli, const char *arg,
                            const char *name, const char *what,
                            const char *const *extra);

/* The table's listed options, one line each ("  usage   help"), `width`
 * columns for the usage. */
void npuc_cli_print_options(const npuc_cli *cli, int width);

/* The last rows of every tool's table: --help (also -h) and --version. */
#define NPUC_CLI_HELP_AND_VERSION(help_id, version_id)                         \
  {"help", NPUC_ARG_NONE, help_id, "--help, -h", "Show this help"},            \
      {"h", NPUC_ARG_NONE, help_id, NULL, NULL}, {                             \
    "version", NPUC_ARG_NONE, version_id, "--version", "Show the version"      \
  }

/* The build's version (CMake sets it). */
#ifndef NPUC_VERSION
#define NPUC_VERSION "0.0.0"
#endif

/* "<tool> version <v> (MLIR 22)" on stdout. */
void npuc_cli_print_version(const char *tool, const char *version);

#endif
