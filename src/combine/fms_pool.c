/* The default form's members in the pool of members open while they are read
 * (member_pool.c: at most as many kept open as free descriptors allow, the
 * netCDF-4 ones, heavy with HDF5's caches, only when all of them can).  A
 * classic member is opened as a plain descriptor (its values are read at the
 * offsets of its header); netCDF-4 members get a small chunk cache, since each
 * of their chunks is read once. */
#include "fms_combine.h"
#include "drivers/io_util.h"

#include <errno.h>
#include <fcntl.h>
#include <netcdf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MEMBER_CHUNK_CACHE (1 << 20)

static void shut(fms_member *m)
{
    if (m->fd >= 0) close(m->fd);
    if (m->ncid >= 0) nc_close(m->ncid);
    m->fd = m->ncid = -1;
}

static int open_member(void *ctx, int i);

static void close_member(void *ctx, int i)
{
    shut(&((fms_set *)ctx)->mem[i]);
}

void fms_pool_init(fms_set *s, const int *mine)
{
    unsigned char *wanted = calloc((size_t)s->nmem + 1, 1), *heavy = calloc((size_t)s->nmem + 1, 1);
    for (int i = 0; wanted && heavy && i < s->nmem; i++) {
        wanted[i] = mine[i] && s->mem[i].present;
        heavy[i] = !s->mem[i].raw;
    }
    /* without memory for the plan no member stays open: each is opened when read */
    if (!wanted || !heavy) s->pool = (member_pool){s->nmem, NULL, open_member, close_member, s};
    else member_pool_init(&s->pool, s->nmem, wanted, heavy, open_member, close_member, s);
    free(wanted);
    free(heavy);
}

void fms_open_error(const char *path, int st, int err, char *out, size_t n)
{
    if (member_pool_no_fds(st) || st == NC_ENFILE || ((st == NC_EHDFERR || st > 0) && member_pool_no_fds(err))) {
        member_pool_fds_words(out, n);
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

static int open_member(void *ctx, int i)
{
    fms_set *s = ctx;
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

int fms_pool_open(fms_set *s, int i)
{
    return member_pool_open(&s->pool, i);
}

void fms_pool_done(fms_set *s, int i)
{
    member_pool_done(&s->pool, i);
}

void fms_pool_close_all(fms_set *s)
{
    if (s->pool.close) member_pool_close_all(&s->pool);
}
