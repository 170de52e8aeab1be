/* Members open while they are read, at most a few kept (member_pool.h). */
#include "member_pool.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#define POOL_MAX 256            /* members kept open at most */
#define POOL_MAX_HEAVY 32       /* heavy ones (HDF5's caches: about 1 MiB each), when all of them fit */
#define POOL_RESERVE 12         /* descriptors left for the output, MPI and a member opened in passing */

static long fd_limit(void)
{
    struct rlimit rl;
    return getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY ? (long)rl.rlim_cur : 1L << 20;
}

/* Descriptors open now (-1: cannot tell, none left to look). */
static long fds_in_use(void)
{
    long n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (!d) return -1;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n - 1;       /* the directory's own */
}

long member_pool_fds_left(void)
{
    long used = fds_in_use();
    return used < 0 ? -1 : fd_limit() - used;
}

int member_pool_no_fds(int err)
{
    return err == EMFILE || err == ENFILE;
}

void member_pool_fds_words(char *out, size_t n)
{
    long used = fds_in_use();
    if (used < 0) snprintf(out, n, "out of file descriptors: ulimit -n is %ld, and all are open", fd_limit());
    else snprintf(out, n, "out of file descriptors: ulimit -n is %ld and %ld are open", fd_limit(), used);
}

int member_pool_init(member_pool *p, int n, const unsigned char *wanted, const unsigned char *heavy,
                     int (*open)(void *, int), void (*close)(void *, int), void *ctx)
{
    *p = (member_pool){n, calloc((size_t)n + 1, 1), open, close, ctx};
    if (!p->pinned) return 1;
    long used = fds_in_use(), spare = fd_limit() - (used < 0 ? 16 : used) - POOL_RESERVE;
    int keep = spare < 0 ? 0 : spare > POOL_MAX ? POOL_MAX : (int)spare, nheavy = 0;
    for (int i = 0; i < n; i++) nheavy += wanted[i] && heavy && heavy[i];
    int keep_heavy = nheavy <= POOL_MAX_HEAVY;
    for (int i = 0; i < n && keep > 0; i++) {
        if (!wanted[i] || (heavy && heavy[i] && !keep_heavy)) continue;
        p->pinned[i] = 1;
        keep--;
    }
    return 0;
}

int member_pool_open(member_pool *p, int i)
{
    return p->open(p->ctx, i);
}

void member_pool_done(member_pool *p, int i)
{
    if (!p->pinned || !p->pinned[i]) p->close(p->ctx, i);
}

void member_pool_close_all(member_pool *p)
{
    for (int i = 0; i < p->n; i++) p->close(p->ctx, i);
    free(p->pinned);
    p->pinned = NULL;
    p->n = 0;
}
