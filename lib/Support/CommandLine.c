/* The tools' command-line parser (npuc/CommandLine.h): one loop over argv
 * that every tool shares, so `-x`/`--x`, `=value` or the next word, `--`
 * and the one positional input behave the same in all of them. */
#include "npuc/CommandLine.h"
#include "npuc/ToolSupport.h"

#include <stdio.h>
#include <string.h>

static int parse_option(const npuc_cli *cli, int argc, char **argv, int *i,
                        void *user);
static const npuc_cli_option *find_option(const npuc_cli *cli, const char *name,
                                          size_t len);

int npuc_cli_parse(const npuc_cli *cli, int argc, char **argv, void *user,
                   const char **input) {
  bool have_input = false, only_positional = false;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (only_positional || arg[0] != '-' || arg[1] == '\0') {
      if (have_input) {
        fprintf(stderr, "%s: error: more than one input file ('%s' and '%s')\n",
                cli->tool, *input, arg);
        return 1;
      }
      *input = arg;
      have_input = true;
    } else if (strcmp(arg, "--") == 0) {
      only_positional = true;
    } else {
      int status = parse_option(cli, argc, argv, &i, user);
      if (status != NPUC_CLI_CONTINUE)
        return status;
    }
  }
  return NPUC_CLI_CONTINUE;
}

static int parse_option(const npuc_cli *cli, int argc, char **argv, int *i,
                        void *user) {
  const char *arg = argv[*i];
  const char *body = arg + (arg[1] == '-' ? 2 : 1);
  const char *eq = strchr(body, '=');
  size_t name_len = eq ? (size_t)(eq - body) : strlen(body);
  const char *value = eq ? eq + 1 : NULL;
  const npuc_cli_option *opt = find_option(cli, body, name_len);
  if (!opt) {
    if (cli->unknown)
      return cli->unknown(user, arg, body, name_len, value);
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)(name_len < 127 ? name_len : 127),
             body);
    return npuc_cli_unknown_option(cli, arg, name, "option", NULL);
  }
  bool flag = true;
  if (opt->arg == NPUC_ARG_NONE && !npuc_cli_bool(value, &flag)) {
    fprintf(stderr,
            "%s: error: option '--%s' takes no value other than true or "
            "false (got '%s')\n",
            cli->tool, opt->name, value);
    return 1;
  }
  if (opt->arg == NPUC_ARG_REQUIRED && !value) {
    if (*i + 1 >= argc) {
      fprintf(stderr, "%s: error: option '%s' needs a value\n", cli->tool, arg);
      return 1;
    }
    value = argv[++*i];
  }
  return cli->apply(user, opt, value, flag);
}

static const npuc_cli_option *find_option(const npuc_cli *cli, const char *name,
                                          size_t len) {
  for (size_t k = 0; k < cli->num_options; k++) {
    const char *n = cli->options[k].name;
    if (strlen(n) == len && memcmp(n, name, len) == 0)
      return &cli->options[k];
  }
  return NULL;
}

bool npuc_cli_bool(const char *value, bool *out) {
  if (!value || !strcmp(value, "true") || !strcmp(value, "True") ||
      !strcmp(value, "1"))
    return *out = true, true;
  if (!strcmp(value, "false") || !strcmp(value, "False") || !strcmp(value, "0"))
    return *out = false, true;
  return false;
}

int npuc_cli_unknown_option(const npuc_cli *cli, const char *arg,
                            const char *name, const char *what,
                            const char *const *extra) {
  const char *best = NULL;
  size_t best_distance = (size_t)-1;
  for (size_t k = 0; k < cli->num_options; k++) {
    size_t d = npuc_edit_distance(name, cli->options[k].name);
    if (d < best_distance)
      best = cli->options[k].name, best_distance = d;
  }
  for (const char *const *e = extra; e && *e; e++) {
    size_t d = npuc_edit_distance(name, *e);
    if (d < best_distance)
      best = *e, best_distance = d;
  }
  size_t limit = strlen(name) / 3 > 2 ? strlen(name) / 3 : 2;
  if (best && best_distance <= limit)
    fprintf(stderr, "%s: error: unknown %s '%s'; did you mean '--%s'?\n",
            cli->tool, what, arg, best);
  else
    fprintf(stderr, "%s: error: unknown %s '%s' (see '%s --help')\n", cli->tool,
            what, arg, cli->tool);
  return 1;
}

/* A help text may hold '\n': its later lines line up under the first. */
void npuc_cli_print_options(const npuc_cli *cli, int width) {
  for (size_t k = 0; k < cli->num_options; k++) {
    const npuc_cli_option *o = &cli->options[k];
    if (!o->usage)
      continue;
    if ((int)strlen(o->usage) > width)
      printf("  %s\n  %-*s ", o->usage, width, "");
    else
      printf("  %-*s ", width, o->usage);
    for (const char *h = o->help; *h; h++) {
      putchar(*h);
      if (*h == '\n')
        printf("  %-*s ", width, "");
    }
    putchar('\n');
  }
}

void npuc_cli_print_version(const char *tool, const char *version) {
  printf("%s version %s (MLIR 22)\n", tool, version);
}
