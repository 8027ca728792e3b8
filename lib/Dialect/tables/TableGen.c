/* npuc-tablegen OUT.c TABLE.yaml...: reads the op tables with the one table
 * reader (lib/Dialect/OpTable.c) and writes them as C data
 * (npuc_op_registry_write_c) for the tools to compile in, so they start
 * without parsing YAML. Run by the build (lib/CMakeLists.txt); a table
 * error is reported at its file:line and fails the build. OUT.c appears
 * complete or not at all (npuc_output_open). */
#include "npuc/OpTable.h"
#include "npuc/ToolSupport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool load_tables(npuc_op_registry *reg, char **paths, int n);
static bool write_tables(const npuc_op_registry *reg, const char *path);

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: npuc-tablegen OUT.c TABLE.yaml...\n");
    return 2;
  }
  npuc_op_registry *reg = npuc_op_registry_create();
  bool ok = load_tables(reg, argv + 2, argc - 2) && write_tables(reg, argv[1]);
  npuc_op_registry_destroy(reg);
  return ok ? 0 : 1;
}

static bool load_tables(npuc_op_registry *reg, char **paths, int n) {
  for (int i = 0; i < n; ++i) {
    size_t len;
    char *text = npuc_read_input(paths[i], &len, NULL);
    if (!text)
      return false;
    /* Named as the embedded tables are: diagnostics say "hivm.yaml". */
    const char *base = strrchr(paths[i], '/');
    bool ok = npuc_op_registry_load_yaml(reg, text, len,
                                         base ? base + 1 : paths[i], NULL);
    free(text);
    if (!ok)
      return false;
  }
  return true;
}

static bool write_tables(const npuc_op_registry *reg, const char *path) {
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  bool ok = mem && npuc_op_registry_write_c(reg, mem);
  if (mem && fclose(mem) != 0)
    ok = false;
  npuc_output *out = ok ? npuc_output_open(path, NULL) : NULL;
  ok = out && npuc_output_write(out, text, len);
  if (out && ok)
    ok = npuc_output_commit(out, NULL);
  else if (out)
    npuc_output_discard(out);
  free(text);
  return ok;
}
