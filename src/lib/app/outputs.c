#include "config.h"
#include "app/outputs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct out_row {
    char *key;          /* normalised path */
    char *path;         /* as the kernel wrote it */
    char *source, *detail;
    int rewrite;
    int collided;
} out_row;

struct cio_outputs {
    int n, cap;         /* open addressing on key, cap a power of two */
    out_row *rows;
    int ncoll;          /* files named by two sources */
    char first[4096];
    int ndirs;
    char **dirs;        /* distinct folders, normalised */
};

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

/* "a//b/./c" -> "a/b/c"; "x/../y" -> "y" (lexically); then the folder part
 * resolved with realpath when it exists (symbolic links, "out" vs "./out"). */
static char *normalise(const char *path, char **dir_out)
{
    size_t n = strlen(path);
    char *buf = cio_malloc(n + 2);
    size_t at = 0;
    int abs = path[0] == '/';
    if (abs) buf[at++] = '/';
    const char *p = path;
    while (*p) {
        while (*p == '/') p++;
        const char *q = p;
        while (*q && *q != '/') q++;
        size_t l = (size_t)(q - p);
        if (l == 0) break;
        if (l == 1 && p[0] == '.') {
            /* skip */
        } else if (l == 2 && p[0] == '.' && p[1] == '.' && at > (size_t)abs &&
                   !(at >= 2 && buf[at - 1] == '.' && buf[at - 2] == '.' && (at == 2 || buf[at - 3] == '/'))) {
            while (at > (size_t)abs && buf[at - 1] != '/') at--;
            if (at > (size_t)abs) at--;
        } else {
            if (at > (size_t)abs) buf[at++] = '/';
            memcpy(buf + at, p, l);
            at += l;
        }
        p = q;
    }
    buf[at] = '\0';
    char *slash = strrchr(buf, '/');
    char dir[PATH_MAX], real[PATH_MAX];
    const char *base = slash ? slash + 1 : buf;
    if (slash == buf) snprintf(dir, sizeof dir, "/");
    else if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - buf), buf);
    else snprintf(dir, sizeof dir, ".");
    const char *use = realpath(dir, real) ? real : dir;
    size_t need = strlen(use) + strlen(base) + 2;
    char *key = cio_malloc(need);
    snprintf(key, need, "%s%s%s", use, strcmp(use, "/") == 0 ? "" : "/", base);
    if (dir_out) *dir_out = cio_strdup(use);
    cio_free(buf);
    return key;
}

cio_outputs *cio_outputs_new(void) { return cio_calloc(1, sizeof(cio_outputs)); }

void cio_outputs_free(cio_outputs *o)
{
    if (!o) return;
    for (int i = 0; i < o->cap; i++)
        if (o->rows[i].key) {
            cio_free(o->rows[i].key);
            cio_free(o->rows[i].path);
            cio_free(o->rows[i].source);
            cio_free(o->rows[i].detail);
        }
    cio_free(o->rows);
    for (int i = 0; i < o->ndirs; i++) cio_free(o->dirs[i]);
    cio_free(o->dirs);
    cio_free(o);
}


static out_row *slot(out_row *rows, int cap, const char *key)
{
    uint64_t i = hash(key) & (uint64_t)(cap - 1);
    while (rows[i].key && strcmp(rows[i].key, key) != 0) i = (i + 1) & (uint64_t)(cap - 1);
    return &rows[i];
}

static void grow(cio_outputs *o)
{
    int oldcap = o->cap;
    out_row *old = o->rows;
    o->cap = o->cap ? 2 * o->cap : 256;
    o->rows = cio_calloc((size_t)o->cap, sizeof *o->rows);
    for (int i = 0; i < oldcap; i++)
        if (old[i].key) *slot(o->rows, o->cap, old[i].key) = old[i];
    cio_free(old);
}

static void add_dir(cio_outputs *o, char *dir)
{
    for (int i = 0; i < o->ndirs; i++)
        if (strcmp(o->dirs[i], dir) == 0) {
            cio_free(dir);
            return;
        }
    o->dirs = cio_realloc(o->dirs, (size_t)(o->ndirs + 1) * sizeof *o->dirs);
    o->dirs[o->ndirs++] = dir;
}

static void describe(char *buf, size_t len, const char *source, const char *detail)
{
    if (detail && *detail) snprintf(buf, len, "%s (%s)", source, detail);
    else snprintf(buf, len, "%s", source);
}

void cio_outputs_add(cio_outputs *o, const char *path, const char *source, const char *detail, int rewrite)
{
    char *dir = NULL;
    char *key = normalise(path, &dir);
    add_dir(o, dir);
    if (2 * (o->n + 1) > o->cap) grow(o);
    out_row *r = slot(o->rows, o->cap, key);
    if (r->key) {
        cio_free(key);
        if (rewrite && r->rewrite && strcmp(r->source, source) == 0) return;
        if (r->collided) return;
        r->collided = 1;
        if (o->ncoll++ == 0) {
            char a[600], b[600];
            describe(a, sizeof a, r->source, r->detail);
            describe(b, sizeof b, source, detail);
            snprintf(o->first, sizeof o->first, "'%s' would be written twice, overwriting one output with another: by %s "
                     "and by %s", path, a, b);
        }
        return;
    }
    r->key = key;
    r->path = cio_strdup(path);
    r->source = cio_strdup(source);
    r->detail = detail ? cio_strdup(detail) : NULL;
    r->rewrite = rewrite;
    o->n++;
}

int cio_outputs_check(const cio_outputs *o, cio_err *e)
{
    if (!o->ncoll) return 0;
    if (o->ncoll == 1) return cio_seterr(e, "%s; give them different names", o->first);
    return cio_seterr(e, "%s; give them different names (%d files are named twice in all)", o->first, o->ncoll);
}

/* ---------------------------------------------------------------- locks */
static int nheld;
static char **held;             /* lock files this process created */
static char held_stamp[512];    /* their content */
static int registered;

void cio_outputs_unlock(void)
{
    for (int i = 0; i < nheld; i++) {
        /* only our own: a run given --force may have taken it over */
        FILE *f = fopen(held[i], "r");
        char line[512] = "";
        if (f) {
            if (!fgets(line, sizeof line, f)) line[0] = '\0';
            fclose(f);
            if (strcmp(line, held_stamp) == 0) unlink(held[i]);
        }
        free(held[i]);
    }
    free(held);
    held = NULL;
    nheld = 0;
}

static void at_exit_unlock(void) { cio_outputs_unlock(); }

static int create_lock(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) return -1;
    size_t n = strlen(held_stamp);
    int ok = write(fd, held_stamp, n) == (ssize_t)n;
    if (close(fd) != 0) ok = 0;
    if (!ok) {
        unlink(path);
        errno = EIO;
        return -1;
    }
    return 0;
}

/* Is the lock's owner gone?  Only decidable on this host. */
static int stale(const char *content, const char *host)
{
    long pid = 0;
    char lhost[256] = "";
    if (sscanf(content, "pid %ld host %255s", &pid, lhost) != 2 || pid <= 0) return 0;
    if (strcmp(lhost, host) != 0) return 0;
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH) return 1;
    /* a killed rank may linger as a zombie until its launcher reaps it */
    char path[64], stat[512] = "";
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = '\0';
    const char *close = strrchr(stat, ')');
    return close && close[1] == ' ' && (close[2] == 'Z' || close[2] == 'X');
}

int cio_outputs_lock(const cio_outputs *o, const char *kernel, int force, cio_err *e)
{
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
    snprintf(held_stamp, sizeof held_stamp, "pid %ld host %s started %s by %s\n", (long)getpid(), host, date, kernel);
    if (!registered) {
        atexit(at_exit_unlock);
        registered = 1;
    }
    for (int i = 0; i < o->ndirs; i++) {
        size_t need = strlen(o->dirs[i]) + sizeof CIO_LOCK_NAME + 2;
        char *path = malloc(need);
        if (!path) return cio_seterr(e, "out of memory");
        snprintf(path, need, "%s/%s", o->dirs[i], CIO_LOCK_NAME);
        if (create_lock(path) != 0) {
            int err = errno;
            char content[512] = "";
            FILE *f = err == EEXIST ? fopen(path, "r") : NULL;
            if (f) {
                if (!fgets(content, sizeof content, f)) content[0] = '\0';
                fclose(f);
            }
            size_t cl = strlen(content);
            if (cl && content[cl - 1] == '\n') content[cl - 1] = '\0';
            int replace = err == EEXIST && (force || stale(content, host));
            if (replace && stale(content, host) && !force)
                cio_warn("%s: removing a stale lock (%s: that process has ended)", path, content);
            else if (replace)
                cio_warn("%s: --force: taking the lock held by %s", path, content[0] ? content : "an unreadable lock");
            if (!replace || unlink(path) != 0 || create_lock(path) != 0) {
                int rc;
                if (err == EEXIST && !replace)
                    rc = cio_seterr(e, "%s: another run is writing into this folder (lock %s: %s); wait for it to end "
                                    "or choose another folder, or give --force if no such run is alive",
                                    o->dirs[i], CIO_LOCK_NAME, content[0] ? content : "unreadable");
                else if (!replace && err == ENOENT)
                    rc = cio_seterr(e, "%s: the output folder does not exist", o->dirs[i]);
                else
                    rc = cio_seterr(e, "%s: cannot create the lock file %s: %s", o->dirs[i], CIO_LOCK_NAME,
                                    strerror(replace ? errno : err));
                free(path);
                return rc;
            }
        }
        held = realloc(held, (size_t)(nheld + 1) * sizeof *held);
        if (!held) cio_die("out of memory");
        held[nheld++] = path;
    }
    return 0;
}
