#include "config.h"
#include "app/outputs.h"
#include "base/inputs.h"

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

/* An output that is one of the run's inputs (same device and inode, or a file
 * inside an input folder); the lock file named as an output. */
static int check_against_inputs(const cio_outputs *o, cio_err *e)
{
    for (int i = 0; i < o->cap; i++) {
        const out_row *r = &o->rows[i];
        if (!r->key) continue;
        struct stat st;
        int exists = stat(r->path, &st) == 0;
        cio_input_role role;
        const char *in = cio_inputs_find(exists ? st.st_dev : 0, exists ? st.st_ino : 0, r->key, &role);
        char b[600];
        describe(b, sizeof b, r->source, r->detail);
        if (in && role != CIO_INPUT_APPENDED)
            return cio_seterr(e, "'%s' is read by this run, as %s, and would be written by %s: writing it would "
                                 "destroy an input; name another file", r->path, in, b);
        const char *slash = strrchr(r->key, '/');
        if (strcmp(slash ? slash + 1 : r->key, CIO_LOCK_NAME) == 0)
            return cio_seterr(e, "'%s' is the lock file the run keeps in its output folder, and would be written by "
                                 "%s: name another file", r->path, b);
    }
    return 0;
}

typedef struct { dev_t dev; ino_t ino; const out_row *r; } file_id;

static int by_id(const void *a, const void *b)
{
    const file_id *x = a, *y = b;
    if (x->dev != y->dev) return x->dev < y->dev ? -1 : 1;
    return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* Two outputs spelled differently that are one existing file (a link). */
static int check_links(const cio_outputs *o, cio_err *e)
{
    file_id *ids = cio_malloc((size_t)(o->n ? o->n : 1) * sizeof *ids);
    int n = 0, rc = 0;
    for (int i = 0; i < o->cap; i++) {
        struct stat st;
        if (o->rows[i].key && stat(o->rows[i].path, &st) == 0 && S_ISREG(st.st_mode))
            ids[n++] = (file_id){st.st_dev, st.st_ino, &o->rows[i]};
    }
    qsort(ids, (size_t)n, sizeof *ids, by_id);
    for (int i = 1; i < n && !rc; i++)
        if (by_id(&ids[i - 1], &ids[i]) == 0) {
            char a[600], b[600];
            describe(a, sizeof a, ids[i - 1].r->source, ids[i - 1].r->detail);
            describe(b, sizeof b, ids[i].r->source, ids[i].r->detail);
            rc = cio_seterr(e, "'%s' and '%s' are one file (a link): it would be written twice, by %s and by %s; "
                               "give them different files", ids[i - 1].r->path, ids[i].r->path, a, b);
        }
    cio_free(ids);
    return rc;
}

int cio_outputs_check(const cio_outputs *o, cio_err *e)
{
    if (o->ncoll == 1) return cio_seterr(e, "%s; give them different names", o->first);
    if (o->ncoll) return cio_seterr(e, "%s; give them different names (%d files are named twice in all)", o->first,
                                    o->ncoll);
    if (check_against_inputs(o, e) != 0) return -1;
    return check_links(o, e);
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
            if (strcmp(line, held_stamp) == 0 && unlink(held[i]) != 0)
                cio_warn("%s: cannot remove this run's lock file: %s", held[i], strerror(errno));
        }
        free(held[i]);
    }
    free(held);
    held = NULL;
    nheld = 0;
}

static void at_exit_unlock(void) { cio_outputs_unlock(); }

/* Within a signal handler: remove the locks that still hold our stamp, with
 * async-signal-safe calls only. */
static void unlock_in_handler(void)
{
    size_t n = strlen(held_stamp);
    for (int i = 0; i < nheld; i++) {
        char buf[512];
        int fd = open(held[i], O_RDONLY);
        if (fd < 0) continue;
        ssize_t got = read(fd, buf, sizeof buf);
        close(fd);
        if (got == (ssize_t)n && memcmp(buf, held_stamp, n) == 0) unlink(held[i]);
    }
}

static const int lock_signals[] = {SIGTERM, SIGINT, SIGHUP};
static struct sigaction old_actions[3];

/* TERM (MPI_Abort of another rank, a batch system's time limit), INT, HUP: the
 * process does not survive them, but its lock should not outlive it either. */
static void on_signal(int sig)
{
    unlock_in_handler();
    for (int i = 0; i < 3; i++)
        if (lock_signals[i] == sig) sigaction(sig, &old_actions[i], NULL);
    raise(sig);
}

static void watch_signals(void)
{
    for (int i = 0; i < 3; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(lock_signals[i], &sa, &old_actions[i]);
    }
}

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

typedef enum { OWNER_GONE, OWNER_OTHER_PROGRAM, OWNER_ALIVE, OWNER_UNKNOWN } owner_state;

/* Does pid run prog (an argument of its command line named prog, as under a
 * launcher or valgrind)?  Where /proc cannot say, assume it does. */
static int runs_program(long pid, const char *prog)
{
    char path[64], cmd[4096];
    snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
    FILE *f = fopen(path, "r");
    if (!f) return 1;
    size_t n = fread(cmd, 1, sizeof cmd - 1, f);
    fclose(f);
    cmd[n] = '\0';
    size_t pl = strlen(prog);
    for (size_t at = 0; at < n; at += strlen(cmd + at) + 1) {
        const char *arg = cmd + at, *slash = strrchr(arg, '/');
        const char *base = slash ? slash + 1 : arg;
        size_t bl = strlen(base);
        if (bl >= pl && strcmp(base + bl - pl, prog) == 0) return 1;   /* lt-gcrm_io too */
    }
    return 0;
}

/* Is the lock's owner gone, alive, or another program now holding its pid?
 * Only decidable on this host. */
static owner_state owner_of(const char *content, const char *host)
{
    long pid = 0;
    char lhost[256] = "", prog[256] = "";
    if (sscanf(content, "pid %ld host %255s", &pid, lhost) != 2 || pid <= 0) return OWNER_UNKNOWN;
    if (strcmp(lhost, host) != 0) return OWNER_UNKNOWN;
    const char *by = strstr(content, " by ");
    if (by) sscanf(by + 4, "%255s", prog);
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH) return OWNER_GONE;
    /* a killed rank may linger as a zombie until its launcher reaps it */
    char path[64], stat[512] = "";
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (f) {
        size_t n = fread(stat, 1, sizeof stat - 1, f);
        fclose(f);
        stat[n] = '\0';
        const char *close = strrchr(stat, ')');
        if (close && close[1] == ' ' && (close[2] == 'Z' || close[2] == 'X')) return OWNER_GONE;
    }
    return prog[0] && !runs_program(pid, prog) ? OWNER_OTHER_PROGRAM : OWNER_ALIVE;
}

/* May this run take the lock (content) over?  Says why not in e. */
static int may_take(const char *dir, const char *content, const char *host, int force, cio_err *e)
{
    owner_state st = owner_of(content, host);
    const char *c = content[0] ? content : "unreadable";
    if (st == OWNER_GONE) {
        cio_warn("%s/%s: removing a stale lock (%s: that process has ended)", dir, CIO_LOCK_NAME, c);
        return 1;
    }
    if (st == OWNER_OTHER_PROGRAM && force) {
        cio_warn("%s/%s: --force: taking the lock held by %s (that pid now runs another program)", dir,
                 CIO_LOCK_NAME, c);
        return 1;
    }
    if (st == OWNER_UNKNOWN && force >= 2) {
        cio_warn("%s/%s: --force given twice: taking the lock held by %s", dir, CIO_LOCK_NAME, c);
        return 1;
    }
    if (st == OWNER_ALIVE && force)
        cio_seterr(e, "%s: another run is writing into this folder (lock %s: %s) and that process is alive: --force "
                      "takes only the lock of a run that has ended; wait for it or choose another folder", dir,
                   CIO_LOCK_NAME, c);
    else if (st == OWNER_UNKNOWN && force)
        cio_seterr(e, "%s: another run may be writing into this folder (lock %s: %s): it ran on another host or the "
                      "lock cannot be read, so this host cannot tell whether it is alive; give --force twice to "
                      "take the lock", dir, CIO_LOCK_NAME, c);
    else
        cio_seterr(e, "%s: another run is writing into this folder (lock %s: %s); wait for it to end or choose "
                      "another folder, or give --force if no such run is alive", dir, CIO_LOCK_NAME, c);
    return 0;
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
        cio_on_abort(at_exit_unlock);   /* cio_die's MPI_Abort skips atexit */
        watch_signals();
        registered = 1;
    }
    for (int i = 0; i < o->ndirs; i++) {
        size_t need = strlen(o->dirs[i]) + sizeof CIO_LOCK_NAME + 2;
        char *path = malloc(need);
        if (!path) return cio_seterr(e, "out of memory");
        snprintf(path, need, "%s/%s", o->dirs[i], CIO_LOCK_NAME);
        if (create_lock(path) != 0) {
            int err = errno, rc = 0;
            char content[512] = "";
            FILE *f = err == EEXIST ? fopen(path, "r") : NULL;
            if (f) {
                if (!fgets(content, sizeof content, f)) content[0] = '\0';
                fclose(f);
            }
            size_t cl = strlen(content);
            if (cl && content[cl - 1] == '\n') content[cl - 1] = '\0';
            if (err == ENOENT)
                rc = cio_seterr(e, "%s: the output folder does not exist", o->dirs[i]);
            else if (err == ENOTDIR)
                rc = cio_seterr(e, "%s: is not a directory: the output folder is a file (or lies under one)", o->dirs[i]);
            else if (err != EEXIST)
                rc = cio_seterr(e, "%s: cannot create the lock file %s: %s", o->dirs[i], CIO_LOCK_NAME,
                                strerror(err));
            else if (!may_take(o->dirs[i], content, host, force, e))
                rc = -1;
            else if (unlink(path) != 0 || create_lock(path) != 0)
                rc = cio_seterr(e, "%s: cannot replace the lock file %s: %s", o->dirs[i], CIO_LOCK_NAME,
                                strerror(errno));
            if (rc) {
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
