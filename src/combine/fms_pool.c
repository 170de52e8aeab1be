/* Members open while they are read.  A rank keeps open at most as many members
 * as its free file descriptors allow (256 at most), netCDF-4 ones only when all
 * of its netCDF-4 members (32 at most) can stay open, since each holds HDF5's
 * caches: those are opened at their first use and kept; every other member is
 * opened when its pieces are read and closed right after.  So
 * descriptors and memory stay bounded whatever the member count, and a set that
 * fits is opened once.  A classic member is opened as a plain descriptor (its
 * values are read at the offsets of its header); netCDF-4 members get a small
 * chunk cache, since each of their chunks is read once. */
#include "fms_combine.h"
#include "drivers/io_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netcdf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define POOL_MAX 256            /* members kept open at most */
#define POOL_MAX_NC4 32         /* netCDF-4 ones (HDF5's caches: about 1 MiB each), when all of them fit */
#define POOL_RESERVE 12         /* descriptors left for the output, MPI and a member opened in passing */
#define MEMBER_CHUNK_CACHE (1 << 20)

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

void fms_pool_init(fms_set *s, const int *mine)
{
    long used = fds_in_use(), spare = fd_limit() - (used < 0 ? 16 : used) - POOL_RESERVE;
    int keep = spare < 0 ? 0 : spare > POOL_MAX ? POOL_MAX : (int)spare, nc4 = 0;
    for (int i = 0; i < s->nmem; i++) nc4 += mine[i] && s->mem[i].present && !s->mem[i].raw;
    /* netCDF-4 members stay open only when all of them can: a few kept among many
     * would save few openings and hold their caches */
    int keep_nc4 = nc4 <= POOL_MAX_NC4;
    for (int i = 0; i < s->nmem; i++) {
        fms_member *m = &s->mem[i];
        m->pinned = 0;
        if (!mine[i] || !m->present || keep == 0 || (!m->raw && !keep_nc4)) continue;
        m->pinned = 1;
        keep--;
    }
}

void fms_open_error(const char *path, int st, int err, char *out, size_t n)
{
    if (st == EMFILE || st == ENFILE || st == NC_ENFILE ||
        ((st == NC_EHDFERR || st > 0) && (err == EMFILE || err == ENFILE))) {
        long used = fds_in_use();
        if (used < 0) snprintf(out, n, "out of file descriptors: ulimit -n is %ld, and all are open", fd_limit());
        else snprintf(out, n, "out of file descriptors: ulimit -n is %ld and %ld are open", fd_limit(), used);
        return;
    }
    if (st == NC_ENOMEM || st == ENOMEM || ((st == NC_EHDFERR || st > 0) && err == ENOMEM)) {
        snprintf(out, n, "out of memory");
        return;
    }
    char why[300] = "";
    if (st < 0) cio_nc_open_diagnosis(path, why, sizeof why);    /* st > 0: the system's refusal, not the bytes */
    snprintf(out, n, "%s%s", nc_strerror(st), why);
}

int fms_pool_open(fms_set *s, int i)
{
    fms_member *m = &s->mem[i];
    if (m->fd >= 0 || m->ncid >= 0) return 0;
    char why[400];
    if (m->raw) {
        m->fd = open(m->path, O_RDONLY);
        if (m->fd >= 0) return 0;
        fms_open_error(m->path, errno, errno, why, sizeof why);
    } else {
        size_t size, nelems;
        float pre;
        nc_get_chunk_cache(&size, &nelems, &pre);
        nc_set_chunk_cache(MEMBER_CHUNK_CACHE, 1009, pre);
        errno = 0;
        int st = nc_open(m->path, NC_NOWRITE, &m->ncid);
        int err = errno;
        nc_set_chunk_cache(size, nelems, pre);
        if (st == NC_NOERR) return 0;
        m->ncid = -1;
        fms_open_error(m->path, st, err, why, sizeof why);
    }
    fprintf(stderr, "Error: cannot open input file \"%s\" again to read its values (%s)\n", m->path, why);
    return 1;
}

static void shut(fms_member *m)
{
    if (m->fd >= 0) close(m->fd);
    if (m->ncid >= 0) nc_close(m->ncid);
    m->fd = m->ncid = -1;
}

void fms_pool_done(fms_set *s, int i)
{
    if (!s->mem[i].pinned) shut(&s->mem[i]);
}

void fms_pool_close_all(fms_set *s)
{
    for (int i = 0; i < s->nmem; i++) shut(&s->mem[i]);
}
