/* Input, output and splitting for the command-line tools. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* mkstemp, fchmod, fileno */
#endif
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* realpath */
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memrchr, mkdtemp */
#endif
#include "npuc/ToolSupport.h"
#include "npuc/StringBuilder.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <signal.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- Input ---------------------------------------------------------- */

static char *read_stream(FILE *f, size_t limit, size_t *len, bool *has_nul);
static void line_col_at(const char *buf, size_t offset, int *line, int *col);
static size_t utf8_sequence_length(const unsigned char *p, size_t avail);

const char *npuc_input_display_name(const char *path) {
  return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

char *npuc_read_input(const char *path, size_t *len,
                      const npuc_diag_sink *sink) {
  return npuc_read_input_limited(path, NPUC_INPUT_LIMIT, len, sink);
}

char *npuc_read_input_limited(const char *path, size_t limit, size_t *len,
                              const npuc_diag_sink *sink) {
  bool is_stdin = strcmp(path, "-") == 0;
  const char *shown = npuc_input_display_name(path);
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  if (!f) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, NULL, 0, 0,
                   "cannot open input file '%s': %s", path, strerror(errno));
    return NULL;
  }
  bool has_nul = false;
  char *buf = read_stream(f, limit, len, &has_nul);
  int saved = errno;
  if (!is_stdin)
    fclose(f);
  if (!buf && saved == EFBIG)
    npuc_diag_emit(sink, NPUC_SEV_ERROR, NULL, 0, 0,
                   "input file '%s' is larger than the limit of %zu bytes",
                   shown, limit);
  else if (!buf)
    npuc_diag_emit(sink, NPUC_SEV_ERROR, NULL, 0, 0,
                   "cannot read input file '%s': %s", shown, strerror(saved));
  /* Reading stopped at the first chunk with a NUL (so /dev/zero ends):
   * not text, reported where the NUL is. */
  if (buf && has_nul && !npuc_check_text(buf, *len, shown, sink)) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* Reads to the end, or up to the chunk holding the first NUL byte, or
 * fails with EFBIG past `limit` bytes. */
static char *read_stream(FILE *f, size_t limit, size_t *len, bool *has_nul) {
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  if (!buf)
    return NULL;
  for (;;) {
    if (n + 1 >= cap) {
      char *grown = cap <= limit ? realloc(buf, cap * 2) : NULL;
      if (!grown) {
        free(buf);
        errno = cap <= limit ? ENOMEM : EFBIG;
        return NULL;
      }
      buf = grown;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    if (got && memchr(buf + n, 0, got))
      *has_nul = true;
    n += got;
    if (n > limit) {
      free(buf);
      errno = EFBIG;
      return NULL;
    }
    if (*has_nul)
      break;
    if (got == 0) {
      if (ferror(f)) {
        int saved = errno ? errno : EIO;
        free(buf);
        errno = saved;
        return NULL;
      }
      break;
    }
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* Are the next 8 bytes all ASCII and none NUL? Most input is: it is
 * checked a word at a time, the rest a byte at a time. */
static bool ascii_word(const unsigned char *p, size_t left) {
  const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  uint64_t v;
  if (left < 8)
    return false;
  memcpy(&v, p, 8);
  /* no high bit set, and then (v - ones) & ~v has one only for a 0 byte */
  return (v & highs) == 0 && ((v - ones) & ~v & highs) == 0;
}

bool npuc_check_text(const char *buf, size_t len, const char *filename,
                     const npuc_diag_sink *sink) {
  const unsigned char *p = (const unsigned char *)buf;
  for (size_t i = 0; i < len;) {
    if (ascii_word(p + i, len - i)) {
      i += 8;
      continue;
    }
    const char *why = NULL;
    size_t step = 1;
    if (p[i] == 0)
      why = "NUL byte";
    else if (p[i] >= 0x80 && (step = utf8_sequence_length(p + i, len - i)) == 0)
      why = "invalid UTF-8";
    if (why) {
      int line, col;
      line_col_at(buf, i, &line, &col);
      npuc_diag_emit(sink, NPUC_SEV_ERROR, filename, line, col,
                     "input is not text (%s)", why);
      return false;
    }
    i += step;
  }
  return true;
}

/* The characters npuc_check_nesting looks at; it skips the rest fast.
 * Lines are not counted on the way: an error finds its line afterwards. */
static bool nesting_char(unsigned char c) {
  static const char chars[] = "\"/->([{<)]}";
  return c && memchr(chars, c, sizeof chars - 1);
}

static const char *skip_plain(const bool *interesting, const char *p,
                              const char *end);
static bool nesting_too_deep(const char *buf, const char *at,
                             const char *filename, int first_line,
                             const npuc_diag_sink *sink);

bool npuc_check_nesting(const char *buf, size_t len, const char *filename,
                        int first_line, const npuc_diag_sink *sink) {
  static bool interesting[256];
  if (!interesting['{'])
    for (int c = 0; c < 256; c++)
      interesting[c] = nesting_char((unsigned char)c);
  size_t depth = 0;
  for (const char *p = buf, *end = buf + len; p < end; p++) {
    p = skip_plain(interesting, p, end);
    if (p == end)
      break;
    switch (*p) {
    case '"': /* strings end at their quote or the line's end */
      for (p++; p < end && *p != '"' && *p != '\n'; p++)
        p += *p == '\\' && p + 1 < end && p[1] != '\n';
      if (p < end && *p == '\n')
        p--;
      break;
    case '/':
      if (p + 1 < end && p[1] == '/') {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = (nl ? nl : end) - 1;
      }
      break;
    case '-': /* -> and >= are no brackets */
    case '>':
      if (p + 1 < end && p[1] == (*p == '-' ? '>' : '=')) {
        p++;
        break;
      }
      if (*p == '>' && depth)
        depth--;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > NPUC_NESTING_LIMIT)
        return nesting_too_deep(buf, p, filename, first_line, sink);
      break;
    case ')':
    case ']':
    case '}':
      if (depth)
        depth--;
      break;
    default: break;
    }
  }
  return true;
}

/* The first interesting byte from p, or end; four at a time while none is. */
static const char *skip_plain(const bool *interesting, const char *p,
                              const char *end) {
  const unsigned char *q = (const unsigned char *)p;
  while (end - (const char *)q >= 4 && !(interesting[q[0]] | interesting[q[1]] |
                                         interesting[q[2]] | interesting[q[3]]))
    q += 4;
  while ((const char *)q < end && !interesting[*q])
    q++;
  return (const char *)q;
}

static bool nesting_too_deep(const char *buf, const char *at,
                             const char *filename, int first_line,
                             const npuc_diag_sink *sink) {
  int line, col;
  line_col_at(buf, (size_t)(at - buf), &line, &col);
  npuc_diag_emit(sink, NPUC_SEV_ERROR, filename,
                 line + (first_line > 0 ? first_line : 1) - 1, col,
                 "nesting deeper than %d levels (regions, types, "
                 "attributes and locations together)",
                 NPUC_NESTING_LIMIT);
  return false;
}

/* Length of the well-formed UTF-8 sequence at p, 0 when ill-formed
 * (overlong forms, surrogates and code points past U+10FFFF included). */
static size_t utf8_sequence_length(const unsigned char *p, size_t avail) {
  size_t n;
  uint32_t cp;
  if (p[0] >= 0xC2 && p[0] <= 0xDF)
    n = 2, cp = p[0] & 0x1F;
  else if (p[0] >= 0xE0 && p[0] <= 0xEF)
    n = 3, cp = p[0] & 0x0F;
  else if (p[0] >= 0xF0 && p[0] <= 0xF4)
    n = 4, cp = p[0] & 0x07;
  else
    return 0;
  if (avail < n)
    return 0;
  for (size_t k = 1; k < n; k++) {
    if ((p[k] & 0xC0) != 0x80)
      return 0;
    cp = (cp << 6) | (p[k] & 0x3F);
  }
  static const uint32_t min_for_length[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < min_for_length[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}

static void line_col_at(const char *buf, size_t offset, int *line, int *col) {
  *line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; i++)
    if (buf[i] == '\n') {
      (*line)++;
      line_start = i + 1;
    }
  *col = (int)(offset - line_start) + 1;
}

/* ---- Splitting ------------------------------------------------------ */

static bool push_chunk(npuc_chunk **chunks, size_t *n, const char *text,
                       size_t len, int first_line);

/* mlir-opt (llvm/lib/Support/ToolUtilities.cpp) splits at every occurrence
 * of the marker, wherever it is on a line; "// ------" (one dash more) is a
 * near miss that only warns. */
size_t npuc_split_input(const char *buf, size_t len, const char *marker,
                        const char *filename, const npuc_diag_sink *sink,
                        npuc_chunk **out) {
  size_t marker_len = strlen(marker);
  size_t n = 0;
  *out = NULL;
  const char *chunk = buf, *end = buf + len, *p = buf;
  int chunk_line = 1, line = 1;
  while (p < end) {
    if (*p == '\n') {
      line++;
      p++;
      continue;
    }
    if ((size_t)(end - p) < marker_len || memcmp(p, marker, marker_len) != 0) {
      p++;
      continue;
    }
    if (p + marker_len < end && p[marker_len] == '-') {
      int l, c;
      line_col_at(buf, (size_t)(p - buf), &l, &c);
      npuc_diag_emit(sink, NPUC_SEV_WARNING, filename, l, c,
                     "near miss with file split marker");
      p += marker_len;
      while (p < end && *p == '-')
        p++;
      continue;
    }
    if (!push_chunk(out, &n, chunk, (size_t)(p - chunk), chunk_line))
      return 0;
    p += marker_len;
    chunk = p;
    chunk_line = line;
  }
  if (!push_chunk(out, &n, chunk, (size_t)(end - chunk), chunk_line))
    return 0;
  return n;
}

static bool push_chunk(npuc_chunk **chunks, size_t *n, const char *text,
                       size_t len, int first_line) {
  npuc_chunk *grown = realloc(*chunks, (*n + 1) * sizeof *grown);
  if (!grown) {
    free(*chunks);
    *chunks = NULL;
    return false;
  }
  *chunks = grown;
  grown[(*n)++] = (npuc_chunk){text, len, first_line};
  return true;
}

/* ---- Output --------------------------------------------------------- */

struct npuc_output {
  FILE *file;   /* stdout, or the temporary file */
  char *target; /* NULL for stdout */
  char *tmp_path;
  bool failed;
};

static char *output_target(const char *path, struct stat *st, bool *exists);
static void remember_temp(char *path);
static void forget_temp(const char *path);
static npuc_output *output_open_direct(npuc_output *out, const char *path,
                                       const npuc_diag_sink *sink);

/* As LLVM's ToolOutputFile: a regular file (or a new one) is written
 * through a temporary file beside it and renamed into place on commit,
 * keeping the old file's mode; anything else (a device such as /dev/null,
 * a FIFO, /dev/stdout) is written directly, since renaming over it would
 * replace the node. A symlink is followed: its target is replaced, never
 * the link. */
npuc_output *npuc_output_open(const char *path, const npuc_diag_sink *sink) {
  npuc_output *out = calloc(1, sizeof *out);
  if (!out)
    return NULL;
  if (!path || strcmp(path, "-") == 0) {
    out->file = stdout;
    return out;
  }
  struct stat st;
  bool exists = false;
  out->target = output_target(path, &st, &exists);
  if (!out->target) {
    npuc_output_discard(out);
    return NULL;
  }
  if (exists && !S_ISREG(st.st_mode))
    return output_open_direct(out, path, sink);
  size_t len = strlen(out->target);
  out->tmp_path = malloc(len + sizeof ".tmp.XXXXXX");
  if (!out->tmp_path) {
    npuc_output_discard(out);
    return NULL;
  }
  memcpy(out->tmp_path, out->target, len);
  memcpy(out->tmp_path + len, ".tmp.XXXXXX", sizeof ".tmp.XXXXXX");
  int fd = mkstemp(out->tmp_path);
  if (fd >= 0)
    remember_temp(out->tmp_path);
  if (fd < 0) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, NULL, 0, 0,
                   "cannot open output file '%s': %s", path, strerror(errno));
    free(out->tmp_path);
    out->tmp_path = NULL;
    npuc_output_discard(out);
    return NULL;
  }
  /* mkstemp makes the file private; the output gets the old file's mode,
   * or the usual one for a new file. */
  mode_t mask = umask(0);
  umask(mask);
  (void)fchmod(fd, exists ? (st.st_mode & 07777) : (0666 & ~mask));
  out->file = fdopen(fd, "wb");
  if (!out->file) {
    close(fd);
    npuc_output_discard(out);
    return NULL;
  }
  return out;
}

/* The file to write: `path`, or the regular file a symlink there points
 * at. `exists` says whether `st` describes an existing file; a dangling
 * link is reported as an existing non-regular file, written through. */
static char *output_target(const char *path, struct stat *st, bool *exists) {
  if (stat(path, st) == 0) {
    *exists = true;
    char *real = S_ISREG(st->st_mode) ? realpath(path, NULL) : NULL;
    return real ? real : strdup(path);
  }
  struct stat lst;
  if (lstat(path, &lst) == 0) { /* a dangling symlink */
    *st = lst;
    *exists = true;
  }
  return strdup(path);
}

static npuc_output *output_open_direct(npuc_output *out, const char *path,
                                       const npuc_diag_sink *sink) {
  out->file = fopen(out->target, "wb");
  if (!out->file) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, NULL, 0, 0,
                   "cannot open output file '%s': %s", path, strerror(errno));
    npuc_output_discard(out);
    return NULL;
  }
  return out;
}

bool npuc_output_write(npuc_output *out, const char *data, size_t len) {
  if (len && fwrite(data, 1, len, out->file) != len)
    out->failed = true;
  return !out->failed;
}

bool npuc_output_commit(npuc_output *out, const npuc_diag_sink *sink) {
  errno = 0;
  bool ok = !out->failed && fflush(out->file) == 0;
  if (!out->target) { /* > /dev/full, a closed stdout */
    if (!ok)
      npuc_diag_emit(sink, NPUC_SEV_ERROR, NULL, 0, 0,
                     "cannot write to standard output: %s",
                     strerror(errno ? errno : EIO));
    free(out);
    return ok;
  }
  ok = fclose(out->file) == 0 && ok;
  out->file = NULL;
  if (ok && !out->tmp_path) { /* written directly */
    npuc_output_discard(out);
    return true;
  }
  if (ok && rename(out->tmp_path, out->target) == 0) {
    forget_temp(out->tmp_path);
    free(out->tmp_path);
    out->tmp_path = NULL;
    npuc_output_discard(out);
    return true;
  }
  npuc_diag_emit(sink, NPUC_SEV_ERROR, NULL, 0, 0,
                 "cannot write output file '%s': %s", out->target,
                 strerror(errno ? errno : EIO));
  npuc_output_discard(out);
  return false;
}

void npuc_output_discard(npuc_output *out) {
  if (!out)
    return;
  if (out->file && out->file != stdout)
    fclose(out->file);
  if (out->tmp_path) {
    unlink(out->tmp_path);
    forget_temp(out->tmp_path);
  }
  free(out->tmp_path);
  free(out->target);
  free(out);
}

/* ---- Temporary files on every exit path ----------------------------- */

/* The temporary outputs not yet renamed into place. A signal or a fatal
 * error removes them (unlink is async-signal-safe); a crash too, unless a
 * sanitizer owns that signal. */
#define MAX_TEMPS 16
static char *volatile live_temps[MAX_TEMPS];
static const char *volatile live_dirs[MAX_TEMPS];
static volatile pid_t live_child;

static void on_signal(int sig) {
  npuc_remove_temp_files();
  signal(sig, SIG_DFL);
  raise(sig);
}

static void install_signal_handlers(void) {
  static bool installed;
  if (installed)
    return;
  installed = true;
  static const int quit[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
  static const int crash[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
  for (size_t i = 0; i < sizeof quit / sizeof *quit; i++)
    if (signal(quit[i], on_signal) == SIG_IGN)
      signal(quit[i], SIG_IGN); /* nohup and friends keep theirs */
  for (size_t i = 0; i < sizeof crash / sizeof *crash; i++) {
    struct sigaction old;
    if (sigaction(crash[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
      signal(crash[i], on_signal);
  }
}

static void remember_temp(char *path) {
  install_signal_handlers();
  for (size_t i = 0; i < MAX_TEMPS; i++)
    if (!live_temps[i]) {
      live_temps[i] = path;
      return;
    }
}

static void forget_temp(const char *path) {
  for (size_t i = 0; i < MAX_TEMPS; i++)
    if (live_temps[i] == path)
      live_temps[i] = NULL;
}

void npuc_temp_dir_track(const char *path) {
  install_signal_handlers();
  for (size_t i = 0; i < MAX_TEMPS; i++)
    if (!live_dirs[i]) {
      live_dirs[i] = path;
      return;
    }
}

void npuc_temp_dir_untrack(const char *path) {
  for (size_t i = 0; i < MAX_TEMPS; i++)
    if (live_dirs[i] && strcmp(live_dirs[i], path) == 0)
      live_dirs[i] = NULL;
}

void npuc_temp_child_track(pid_t pid) {
  install_signal_handlers();
  live_child = pid;
}

/* The child first: it may still be writing into the directories. */
void npuc_remove_temp_files(void) {
  pid_t child = live_child;
  if (child > 0 && kill(child, SIGKILL) == 0)
    while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
      ;
  for (size_t i = 0; i < MAX_TEMPS; i++)
    if (live_temps[i])
      unlink(live_temps[i]);
  for (size_t i = 0; i < MAX_TEMPS; i++)
    if (live_dirs[i])
      npuc_remove_tree(live_dirs[i]);
}

/* What getdents64 fills its buffer with (the kernel's linux_dirent64). */
typedef struct {
  uint64_t ino;
  int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[];
} dirent64_record;

static void remove_entries(int dir, int depth);

void npuc_remove_tree(const char *path) {
  if (unlink(path) == 0 || errno == ENOENT)
    return;
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0) {
    remove_entries(fd, 16);
    close(fd);
  }
  rmdir(path);
}

/* Reads the directory from its start again after each batch it removed
 * from, as removing entries may shift what a further read returns. */
static void remove_entries(int dir, int depth) {
  char buf[2048] __attribute__((aligned(8)));
  for (int rounds = 0; rounds < 1 << 16; rounds++) {
    if (lseek(dir, 0, SEEK_SET) < 0)
      return;
    long n = syscall(SYS_getdents64, dir, buf, sizeof buf);
    bool removed = false;
    for (long off = 0; off < n;) {
      const dirent64_record *e = (const void *)(buf + off);
      off += e->reclen;
      if (e->name[0] == '.' &&
          (!e->name[1] || (e->name[1] == '.' && !e->name[2])))
        continue;
      if (unlinkat(dir, e->name, 0) == 0) {
        removed = true;
        continue;
      }
      int sub = depth > 0
                    ? openat(dir, e->name,
                             O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                    : -1;
      if (sub >= 0) {
        remove_entries(sub, depth - 1);
        close(sub);
      }
      removed |= unlinkat(dir, e->name, AT_REMOVEDIR) == 0;
    }
    if (n <= 0 || !removed)
      return;
  }
}

/* ---- Suggestions --------------------------------------------------- */

/* Levenshtein distance, one row at a time. */
size_t npuc_edit_distance(const char *a, const char *b) {
  return npuc_edit_distance_n(a, strlen(a), b, strlen(b));
}

size_t npuc_edit_distance_n(const char *a, size_t la, const char *b,
                            size_t lb) {
  size_t *row = malloc((lb + 1) * sizeof *row);
  if (!row)
    return (size_t)-1;
  for (size_t j = 0; j <= lb; j++)
    row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      size_t best = diag + cost;
      if (up + 1 < best)
        best = up + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  size_t d = row[lb];
  free(row);
  return d;
}

bool npuc_make_dirs(const char *path, const npuc_diag_sink *sink) {
  char *copy = strdup(path);
  bool ok = copy != NULL;
  for (char *p = copy + 1; ok && *p; ++p) {
    if (*p != '/')
      continue;
    *p = '\0';
    ok = mkdir(copy, 0777) == 0 || errno == EEXIST;
    *p = '/';
  }
  ok = ok && (mkdir(copy, 0777) == 0 || errno == EEXIST);
  if (!ok)
    npuc_diag_emit(sink, NPUC_SEV_ERROR, NULL, 0, 0,
                   "cannot create directory '%s': %s", path, strerror(errno));
  free(copy);
  return ok;
}

/* ---- Staging directories ------------------------------------------- */

/* "a/b/out" -> "a/b/.out.tmp.XXXXXX", made with mkdtemp after its parent. */
char *npuc_staging_dir_create(const char *dir, const npuc_diag_sink *sink) {
  size_t len = strlen(dir);
  while (len > 1 && dir[len - 1] == '/')
    len--;
  const char *slash = memrchr(dir, '/', len);
  size_t parent_len = slash ? (size_t)(slash - dir) : 0;
  const char *base = slash ? slash + 1 : dir;
  size_t base_len = len - (size_t)(base - dir);
  npuc_sb path = {0};
  if (slash) {
    npuc_sb_append(&path, dir, parent_len ? parent_len : 1);
    if (!npuc_make_dirs(path.data, sink)) {
      npuc_sb_free(&path);
      return NULL;
    }
    npuc_sb_append(&path, "/", 1);
  }
  npuc_sb_printf(&path, ".%.*s.tmp.XXXXXX", (int)base_len, base);
  if (!mkdtemp(path.data)) {
    npuc_diag_emit(sink, NPUC_SEV_ERROR, NULL, 0, 0,
                   "cannot create directory '%s': %s", dir, strerror(errno));
    npuc_sb_free(&path);
    return NULL;
  }
  char *staging = npuc_sb_take(&path);
  npuc_temp_dir_track(staging);
  return staging;
}

/* A new output directory is the staging directory renamed; into an
 * existing one, each file is renamed over its old self. */
bool npuc_staging_dir_commit(const char *staging, const char *dir,
                             const npuc_diag_sink *sink) {
  if (rename(staging, dir) == 0) {
    npuc_temp_dir_untrack(staging);
    return true;
  }
  struct stat st;
  bool ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
  if (!ok)
    errno = errno ? errno : ENOTDIR;
  DIR *d = ok ? opendir(staging) : NULL;
  for (struct dirent *e; d && ok && (e = readdir(d));) {
    if (e->d_name[0] == '.')
      continue;
    /* Built whole: a truncated path would rename onto another file. */
    npuc_sb from = {0}, to = {0};
    npuc_sb_printf(&from, "%s/%s", staging, e->d_name);
    npuc_sb_printf(&to, "%s/%s", dir, e->d_name);
    ok = rename(from.data, to.data) == 0;
    npuc_sb_free(&from);
    npuc_sb_free(&to);
  }
  if (d)
    closedir(d);
  if (!ok)
    npuc_diag_emit(sink, NPUC_SEV_ERROR, NULL, 0, 0,
                   "cannot write output directory '%s': %s", dir,
                   strerror(errno ? errno : EIO));
  npuc_staging_dir_remove(staging);
  return ok;
}

void npuc_staging_dir_remove(const char *staging) {
  npuc_remove_tree(staging);
  npuc_temp_dir_untrack(staging);
}

void npuc_keep_freed_memory(void) {
#ifdef __GLIBC__
  /* Blocks up to 32 MiB (glibc's largest threshold) come from the heap, and
   * up to 256 MiB of free heap stays mapped. */
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}
