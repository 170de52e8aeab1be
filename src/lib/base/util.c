#include "config.h"
#include "base/util.h"
#include "base/types.h"
#include "base/inputs.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char progname[64] = "climio";

void cio_set_progname(const char *name)
{
    const char *slash = strrchr(name, '/');
    snprintf(progname, sizeof progname, "%s", slash ? slash + 1 : name);
}

const char *cio_progname(void) { return progname; }

int cio_seterr(cio_err *e, const char *fmt, ...)
{
    if (e && e->code == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
        e->code = 1;
    }
    return -1;
}

static int world_rank(void)
{
    int init = 0, fin = 0, r = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    if (init && !fin) MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

void cio_file_size_limit_as_error(void)
{
    signal(SIGXFSZ, SIG_IGN);
}

static void (*abort_hooks[8])(void);
static int nabort_hooks;

void cio_on_abort(void (*fn)(void))
{
    for (int i = 0; i < nabort_hooks; i++)
        if (abort_hooks[i] == fn) return;
    if (nabort_hooks < (int)(sizeof abort_hooks / sizeof *abort_hooks)) abort_hooks[nabort_hooks++] = fn;
}

static char g_writing[4096];

static void name_incomplete(void)
{
    char to[4200];
    if (!g_writing[0]) return;
    if (cio_rename_incomplete(g_writing, to, sizeof to) == 0)
        fprintf(stderr, "%s: the run failed after %s was created: the incomplete file is now %s (remove it, then run "
                        "again)\n", progname, g_writing, to);
    g_writing[0] = '\0';
}

void cio_output_incomplete_on_abort(const char *path)
{
    snprintf(g_writing, sizeof g_writing, "%s", path);
    cio_on_abort(name_incomplete);
}

void cio_output_complete(const char *path)
{
    if (strcmp(g_writing, path) == 0) g_writing[0] = '\0';
}

const char *cio_file_kind(unsigned mode)
{
    mode_t m = (mode_t)mode;
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO (named pipe)" : S_ISSOCK(m) ? "a socket"
         : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device" : S_ISREG(m) ? "a regular file"
         : "not a regular file";
}

int cio_rename_incomplete(const char *path, char *to, size_t len)
{
    for (int k = 1; k < 1000; k++) {
        if (k == 1) snprintf(to, len, "%s.incomplete", path);
        else snprintf(to, len, "%s.incomplete.%d", path, k);
        if (link(path, to) == 0) return unlink(path) == 0 ? 0 : -1;
        if (errno != EEXIST) break;
    }
    /* no hard links on this file system: a rename, where it replaces nothing */
    snprintf(to, len, "%s.incomplete", path);
    struct stat sb;
    if (lstat(to, &sb) == 0) {
        errno = EEXIST;
        return -1;
    }
    return rename(path, to);
}

void cio_die(const char *fmt, ...)
{
    char buf[CIO_ERRMSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: error (rank %d): %s\n", progname, world_rank(), buf);
    fflush(stderr);
    int init = 0, fin = 0;
    MPI_Initialized(&init);
    MPI_Finalized(&fin);
    while (nabort_hooks > 0) abort_hooks[--nabort_hooks]();
    if (init && !fin) MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

void cio_die_all(MPI_Comm comm, const char *fmt, ...)
{
    int r = 0, init = 0;
    MPI_Initialized(&init);
    if (init) MPI_Comm_rank(comm, &r);
    if (r == 0) {
        char buf[CIO_ERRMSG_LEN];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
        fprintf(stderr, "%s: error: %s\n", progname, buf);
        fflush(stderr);
    }
    /* before the finalize: a rank that exits first may have the launcher end this one there */
    while (nabort_hooks > 0) abort_hooks[--nabort_hooks]();
    if (init) MPI_Finalize();
    exit(2);
}

int cio_agree(MPI_Comm comm, cio_err *e)
{
    int rank, mine, lowest;
    MPI_Comm_rank(comm, &rank);
    mine = e->code ? rank : INT_MAX;
    MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, comm);
    if (lowest == INT_MAX) return 0;
    MPI_Bcast(e->msg, CIO_ERRMSG_LEN, MPI_CHAR, lowest, comm);
    e->code = 1;
    return 1;
}

static void vwarn(const char *fmt, va_list ap)
{
    char buf[CIO_ERRMSG_LEN];
    vsnprintf(buf, sizeof buf, fmt, ap);
    fprintf(stderr, "%s: warning: %s\n", progname, buf);
    fflush(stderr);
}

void cio_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(fmt, ap);
    va_end(ap);
}

void cio_warn0(const char *fmt, ...)
{
    if (world_rank() != 0) return;
    va_list ap;
    va_start(ap, fmt);
    vwarn(fmt, ap);
    va_end(ap);
}

/* ---------------------------------------------------------------- tracked memory */
/* A 16-byte header keeps the size so free() can subtract it and alignment stays
 * suitable for any element type. */
typedef union { size_t n; max_align_t align; } mem_header;
static size_t mem_now, mem_high;

static void mem_add(size_t n)
{
    mem_now += n;
    if (mem_now > mem_high) mem_high = mem_now;
}

static char alloc_hint[600];

void cio_set_alloc_hint(const char *what)
{
    snprintf(alloc_hint, sizeof alloc_hint, "%s", what ? what : "");
}

int64_t cio_mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return -1;
    char line[256];
    long long kb = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lld kB", &kb) == 1) break;
    fclose(f);
    return kb < 0 ? -1 : (int64_t)kb * 1024;
}

/* A buffer larger than all the memory this node has available cannot be
 * served: say so, and what sizes it, before asking.  (malloc may well promise
 * it and the run then dies in the kernel's OOM killer, or a sanitizer aborts.)
 * Only large requests read /proc/meminfo. */
static void check_fits(size_t n)
{
    if (n < ((size_t)256 << 20)) return;
    int64_t avail = cio_mem_available();
    if (avail < 0 || (uint64_t)n <= (uint64_t)avail) return;
    if (alloc_hint[0])
        cio_die("a buffer of %zu bytes is needed, more than the %lld bytes this node has available; the buffer sizes "
                "come from %s: make them smaller or run on more processes", n, (long long)avail, alloc_hint);
    cio_die("a buffer of %zu bytes is needed, more than the %lld bytes this node has available", n, (long long)avail);
}

CIO_NORETURN static void out_of_memory(size_t n)
{
    if (alloc_hint[0])
        cio_die("out of memory allocating %zu bytes (tracked in use: %zu bytes); the buffer sizes come from %s: "
                "make them smaller or run on more processes", n, mem_now, alloc_hint);
    cio_die("out of memory allocating %zu bytes (tracked in use: %zu bytes)", n, mem_now);
}

int cio_mul64(int64_t a, int64_t b, int64_t *r)
{
    int64_t x;
    if (__builtin_mul_overflow(a, b, &x)) return -1;
    *r = x;
    return 0;
}

int cio_add64(int64_t a, int64_t b, int64_t *r)
{
    int64_t x;
    if (__builtin_add_overflow(a, b, &x)) return -1;
    *r = x;
    return 0;
}

void cio_die_overflow(const char *what)
{
    if (alloc_hint[0])
        cio_die("%s: the product of its sizes overflows 64 bits; the sizes come from %s: make them smaller", what,
                alloc_hint);
    cio_die("%s: the product of its sizes overflows 64 bits", what);
}

int64_t cio_product(const int64_t *v, int n, const char *what)
{
    int64_t p = 1;
    for (int i = 0; i < n; i++)
        if (cio_mul64(p, v[i], &p) != 0) cio_die_overflow(what);
    return p;
}

void *cio_malloc(size_t n)
{
    check_fits(n);
    mem_header *h = n <= SIZE_MAX - sizeof(mem_header) ? malloc(sizeof *h + n) : NULL;
    if (!h) out_of_memory(n);
    h->n = n;
    mem_add(n);
    return h + 1;
}

void *cio_calloc(size_t nmemb, size_t size)
{
    if (size && nmemb > SIZE_MAX / size) {
        if (alloc_hint[0]) cio_die("allocation size overflow (%zu x %zu); the sizes come from %s", nmemb, size, alloc_hint);
        cio_die("allocation size overflow (%zu x %zu)", nmemb, size);
    }
    size_t n = nmemb * size;
    check_fits(n);
    mem_header *h = n <= SIZE_MAX - sizeof(mem_header) ? calloc(1, sizeof *h + n) : NULL;
    if (!h) out_of_memory(n);
    h->n = n;
    mem_add(n);
    return h + 1;
}

void *cio_realloc(void *p, size_t n)
{
    if (!p) return cio_malloc(n);
    mem_header *h = (mem_header *)p - 1;
    size_t old = h->n;
    check_fits(n);
    mem_header *nh = n <= SIZE_MAX - sizeof(mem_header) ? realloc(h, sizeof *nh + n) : NULL;
    if (!nh) out_of_memory(n);
    nh->n = n;
    mem_now -= old;
    mem_add(n);
    return nh + 1;
}

void cio_free(void *p)
{
    if (!p) return;
    mem_header *h = (mem_header *)p - 1;
    mem_now -= h->n;
    free(h);
}

size_t cio_msize(const void *p) { return p ? ((const mem_header *)p - 1)->n : 0; }

char *cio_strdup(const char *s) { return cio_strndup(s, strlen(s)); }

char *cio_strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *d = cio_malloc(len + 1);
    memcpy(d, s, len);
    d[len] = '\0';
    return d;
}

size_t cio_mem_current(void) { return mem_now; }
size_t cio_mem_peak(void) { return mem_high; }
void cio_mem_reset_peak(void) { mem_high = mem_now; }

size_t cio_rss_peak(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f) return 0;
    char line[256];
    size_t kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %zu kB", &kb) == 1) break;
    fclose(f);
    return kb * 1024;
}

/* ---------------------------------------------------------------- strings */
int cio_strcaseeq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return *a == *b;
}

char *cio_trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1])) *--end = '\0';
    return s;
}

int cio_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64) return 99;
    int d[65][65];
    for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            int v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
            d[i][j] = v;
        }
    return d[la][lb];
}

int cio_parse_int(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno) return -1;
    *out = v;
    return 0;
}

int cio_parse_size(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || errno || v < 0) return -1;
    int64_t mult = 1;
    if (*end) {
        switch (tolower((unsigned char)*end)) {
        case 'k': mult = 1LL << 10; break;
        case 'm': mult = 1LL << 20; break;
        case 'g': mult = 1LL << 30; break;
        case 't': mult = 1LL << 40; break;
        default: return -1;
        }
        end++;
        if (tolower((unsigned char)*end) == 'i') end++;
        if (tolower((unsigned char)*end) == 'b') end++;
        if (*end) return -1;
    }
    if (v > INT64_MAX / mult) return -1;
    *out = v * mult;
    return 0;
}

int cio_parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno) return -1;
    *out = v;
    return 0;
}

int cio_parse_bool(const char *s, int *out)
{
    static const char *yes[] = {"1", "true", "yes", "on", "enable", "enabled", "t", "y", ".true."};
    static const char *no[] = {"0", "false", "no", "off", "disable", "disabled", "f", "n", ".false."};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++)
        if (cio_strcaseeq(s, yes[i])) { *out = 1; return 0; }
    for (size_t i = 0; i < sizeof no / sizeof *no; i++)
        if (cio_strcaseeq(s, no[i])) { *out = 0; return 0; }
    return -1;
}

/* ---------------------------------------------------------------- files */
int cio_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (!a || !b || stat(a, &sa) != 0 || stat(b, &sb) != 0) return 0;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* A FIFO (a pipe from the shell, <(...)) is read once something writes to it; one
 * nothing writes to would be waited on forever, so it is given this long. */
#define FIFO_WAIT_MS 10000

static FILE *open_fifo(const char *path, cio_err *e)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        cio_seterr(e, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int r = poll(&p, 1, FIFO_WAIT_MS);
    if (r <= 0) {
        close(fd);
        cio_seterr(e, "%s: a FIFO (named pipe) nothing wrote to in %d s: no process writes to it; give a file, or "
                      "start the writer first", path, FIFO_WAIT_MS / 1000);
        return NULL;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) close(fd);
    return f;
}

char *cio_read_file(const char *path, size_t *len, cio_err *e)
{
    struct stat st;
    int have = stat(path, &st) == 0;
    if (have && S_ISDIR(st.st_mode)) {
        cio_seterr(e, "%s: is a directory, expected a file", path);
        return NULL;
    }
    if (have && S_ISSOCK(st.st_mode)) {
        cio_seterr(e, "%s: is a socket, expected a file", path);
        return NULL;
    }
    FILE *f = have && S_ISFIFO(st.st_mode) ? open_fifo(path, e) : fopen(path, "rb");
    if (!f) {
        if (!e || !e->code) cio_seterr(e, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    cio_inputs_add(path, NULL, CIO_INPUT_READ);
    size_t cap = 4096, n = 0;
    char *buf = cio_malloc(cap);
    for (;;) {
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
        if (n + 1 == cap) {
            if (cap >= (size_t)64 << 20) {
                fclose(f);
                cio_free(buf);
                cio_seterr(e, "%s: larger than 64 MiB; not a parameter file", path);
                return NULL;
            }
            cap *= 2;
            buf = cio_realloc(buf, cap);
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        cio_free(buf);
        cio_seterr(e, "%s: read error: %s", path, strerror(errno));
        return NULL;
    }
    buf[n] = '\0';
    if (n >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0) {
        cio_free(buf);
        cio_seterr(e, "%s:1: starts with a UTF-8 byte-order mark (bytes EF BB BF); save the file as plain text, "
                      "without it", path);
        return NULL;
    }
    if (len) *len = n;
    return buf;
}

char *cio_read_file_bcast(const char *path, MPI_Comm comm, size_t *len, cio_err *e)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    char *text = NULL;
    long long n = 0;
    if (rank == 0) {
        size_t len = 0;
        text = cio_read_file(path, &len, e);
        n = text ? (long long)len : -1;
    }
    MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, comm);
    if (n < 0) {
        MPI_Bcast(e->msg, CIO_ERRMSG_LEN, MPI_CHAR, 0, comm);
        e->code = 1;
        return NULL;
    }
    if (rank != 0) text = cio_malloc((size_t)n + 1);
    MPI_Bcast(text, (int)n + 1, MPI_CHAR, 0, comm);
    if (len) *len = (size_t)n;
    return text;
}

/* mkdir, where an existing folder is fine and an existing file is named as such. */
static int make_dir(const char *path, cio_err *e)
{
    struct stat st;
    if (mkdir(path, 0777) == 0) return 0;
    int err = errno;
    if (err == EEXIST && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return 0;
    if (err == EEXIST) return cio_seterr(e, "cannot create directory %s: a file of that name exists (not a directory)", path);
    return cio_seterr(e, "cannot create directory %s: %s", path, strerror(err));
}

int cio_mkdir_p(const char *path, cio_err *e)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return cio_seterr(e, "path too long: %s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (make_dir(buf, e) != 0) return -1;
        *p = '/';
    }
    return make_dir(buf, e);
}

/* ---------------------------------------------------------------- lines */
void cio_lines_init(cio_lines *l, const char *text)
{
    memset(l, 0, sizeof *l);
    l->cur = text;
}

char *cio_lines_next(cio_lines *l)
{
    if (!l->cur || !*l->cur) return NULL;
    const char *eol = strchr(l->cur, '\n');
    size_t n = eol ? (size_t)(eol - l->cur) : strlen(l->cur);
    cio_free(l->line);
    l->line = cio_strndup(l->cur, n);
    l->cur = eol ? eol + 1 : l->cur + n;
    if (n && l->line[n - 1] == '\r') l->line[--n] = '\0';
    l->len = n;
    l->lineno++;
    l->bad = 0;
    for (size_t i = 0; i < n && !l->bad; i++)
        if ((unsigned char)l->line[i] < 32 && l->line[i] != '\t') l->bad = (unsigned char)l->line[i];
    return l->line;
}

void cio_lines_free(cio_lines *l)
{
    cio_free(l->line);
    l->line = NULL;
}

/* ---------------------------------------------------------------- types */
size_t cio_type_size(cio_type t)
{
    static const size_t sz[CIO_NTYPES] = {1, 1, 2, 4, 4, 8, 8};
    return (unsigned)t < CIO_NTYPES ? sz[t] : 0;
}

const char *cio_type_name(cio_type t)
{
    static const char *nm[CIO_NTYPES] = {"char", "byte", "short", "int", "float", "double", "int64"};
    return (unsigned)t < CIO_NTYPES ? nm[t] : "?";
}

int cio_type_from_name(const char *name, cio_type *t)
{
    static const struct { const char *n; cio_type t; } map[] = {
        {"char", CIO_CHAR}, {"text", CIO_CHAR}, {"byte", CIO_BYTE}, {"int8", CIO_BYTE},
        {"short", CIO_SHORT}, {"int16", CIO_SHORT}, {"int", CIO_INT}, {"integer", CIO_INT},
        {"int32", CIO_INT}, {"float", CIO_FLOAT}, {"real", CIO_FLOAT}, {"float32", CIO_FLOAT},
        {"real32", CIO_FLOAT}, {"double", CIO_DOUBLE}, {"float64", CIO_DOUBLE},
        {"real64", CIO_DOUBLE}, {"int64", CIO_INT64}, {"long", CIO_INT64},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (cio_strcaseeq(name, map[i].n)) { *t = map[i].t; return 0; }
    return -1;
}
