/* npuc-tablegen OUT.c TABLE.yaml...: reads the op tables with the one table
 * reader (lib/Dialect/OpTable.c) and writes them as C data
 * (npuc_op_registry_write_c) for the tools to compile in, so they start
 * without parsing YAML. Run by the build (lib/CMakeLists.txt); a table
 * error is reported at its file:line and fails the build. Writes OUT.c
 * through a temporary file, so a failed run leaves no partial output. */
#include "npuc/OpTable.h"
#include "npuc/Alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_all(const char *path, size_t *len);

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: npuc-tablegen OUT.c TABLE.yaml...\n");
    return 2;
  }
  npuc_op_registry *reg = npuc_op_registry_create();
  bool ok = true;
  for (int i = 2; i < argc && ok; ++i) {
    size_t len;
    char *text = read_all(argv[i], &len);
    if (!text) {
      fprintf(stderr, "npuc-tablegen: cannot read %s\n", argv[i]);
      ok = false;
      break;
    }
    /* Named as the embedded tables were: diagnostics say "hivm.yaml". */
    const char *base = strrchr(argv[i], '/');
    ok = npuc_op_registry_load_yaml(reg, text, len, base ? base + 1 : argv[i],
                                    NULL);
    free(text);
  }
  size_t n = strlen(argv[1]);
  char *tmp = npuc_xmalloc(n + 5);
  memcpy(tmp, argv[1], n);
  memcpy(tmp + n, ".tmp", 5);
  FILE *out = ok ? fopen(tmp, "w") : NULL;
  if (ok && !out)
    fprintf(stderr, "npuc-tablegen: cannot write %s\n", tmp);
  ok = out && npuc_op_registry_write_c(reg, out);
  if (out && fclose(out) != 0)
    ok = false;
  if (ok && rename(tmp, argv[1]) != 0) {
    fprintf(stderr, "npuc-tablegen: cannot rename %s\n", tmp);
    ok = false;
  }
  if (!ok)
    remove(tmp);
  free(tmp);
  npuc_op_registry_destroy(reg);
  return ok ? 0 : 1;
}

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = npuc_xmalloc(cap);
  size_t got;
  while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap)
      buf = npuc_xrealloc(buf, cap *= 2);
  }
  bool failed = ferror(f);
  fclose(f);
  if (failed) {
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}
