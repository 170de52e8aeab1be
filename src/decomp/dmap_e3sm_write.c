/* The E3SM-IO map writer: dat2nc's bytes through PnetCDF (CDF-5, header aligned
 * to 8192), one task's map in memory at a time. */
#include "config.h"
#include "dmap_impl.h"

#include <stdlib.h>
#include <string.h>

#ifndef HAVE_PNETCDF

int dmap_write_e3sm(const char *path, int ndecomps, const dmap_desc *d, int64_t ntasks, int raw,
                    const char *command_line, dmap_task_fn fn, void *ctx, cio_err *e)
{
    (void)ndecomps, (void)d, (void)ntasks, (void)raw, (void)command_line, (void)fn, (void)ctx;
    return cio_seterr(e, "%s: writing E3SM-IO map files needs PnetCDF, and this decomp_io was built without it", path);
}

#else
#include <pnetcdf.h>


/* A task's own pairs as dat2nc builds them: holes dropped, a new pair where the
 * offset does not continue the previous one or starts a row of the fastest
 * dimension.  Returns the number of pairs; fills off/len when given. */
static int64_t coalesce(const int64_t *m, int64_t n, int64_t row, long long *off, long long *len, int64_t *raw)
{
    int64_t np = 0, end = -1;
    *raw = 0;
    for (int64_t i = 0; i < n; i++) {
        if (m[i] < 0) continue;
        (*raw)++;
        if (np > 0 && m[i] == end && m[i] % row != 0) {
            if (len) len[np - 1]++;
        } else {
            if (off) off[np] = m[i], len[np] = 1;
            np++;
        }
        end = m[i] + 1;
    }
    return np;
}

#define PW(call, what)                                     \
    do {                                                   \
        int rc_ = (call);                                  \
        if (rc_ != NC_NOERR) return cio_seterr(e, "%s: %s: %s", path, what, ncmpi_strerror(rc_)); \
    } while (0)

static void put_text(int ncid, int varid, const char *name, const char *text)
{
    ncmpi_put_att_text(ncid, varid, name, (MPI_Offset)strlen(text), text);
}

/* What one decomposition's header needs, from a first pass over the tasks. */
typedef struct e3sm_counts {
    int64_t *nreqs, *nraw;          /* per task: pairs, elements */
    int64_t total, total_raw;
    int lmax, lmin, maxn, minn;     /* pair lengths, pairs per task */
    int vid[6];                     /* nreqs, fill_starts, offsets, lengths, raw_nreqs, raw_offsets */
} e3sm_counts;

static void count_pairs(const dmap_desc *d, int k, int64_t ntasks, dmap_task_fn fn, void *ctx, e3sm_counts *c)
{
    int64_t row = d->dims[d->ndims - 1];
    int any = 0;
    c->nreqs = cio_malloc((size_t)ntasks * sizeof(int64_t));
    c->nraw = cio_malloc((size_t)ntasks * sizeof(int64_t));
    for (int64_t t = 0; t < ntasks; t++) {
        int64_t *m = NULL, n = fn(ctx, k, t, &m), r;
        long long *o = cio_malloc((size_t)(n ? n : 1) * sizeof(long long)), *l = cio_malloc((size_t)(n ? n : 1) * sizeof(long long));
        c->nreqs[t] = coalesce(m, n, row, o, l, &r);
        c->nraw[t] = r;
        for (int64_t i = 0; i < c->nreqs[t]; i++) {
            if (!any || l[i] > c->lmax) c->lmax = (int)l[i];
            if (!any || l[i] < c->lmin) c->lmin = (int)l[i];
            any = 1;
        }
        if (t == 0 || c->nreqs[t] > c->maxn) c->maxn = (int)c->nreqs[t];
        if (t == 0 || c->nreqs[t] < c->minn) c->minn = (int)c->nreqs[t];
        c->total += c->nreqs[t];
        c->total_raw += r;
        cio_free(o);
        cio_free(l);
        cio_free(m);
    }
}

/* Decomposition k's one-dimensional int variable "Dk.<what>" with its description. */
static int def_int_var(int ncid, const char *path, int k, const char *what, int dim, int *vid, const char *description,
                       cio_err *e)
{
    char name[64];
    snprintf(name, sizeof name, "D%d.%s", k + 1, what);
    PW(ncmpi_def_var(ncid, name, NC_INT, 1, &dim, vid), name);
    put_text(ncid, *vid, "description", description);
    return 0;
}

/* Decomposition k's dimension "Dk.<what>". */
static int def_dim(int ncid, const char *path, int k, const char *what, MPI_Offset len, int *dim, cio_err *e)
{
    char name[64];
    snprintf(name, sizeof name, "D%d.%s", k + 1, what);
    PW(ncmpi_def_dim(ncid, name, len, dim), name);
    return 0;
}

/* One decomposition's dimensions, variables and attributes, as dat2nc defines them. */
static int define_decomp(int ncid, const char *path, const dmap_desc *d, int k, int raw, int dp, e3sm_counts *c,
                         cio_err *e)
{
    char name[64];
    int dt, drt, *vid = c->vid;
    if (def_int_var(ncid, path, k, "nreqs", dp, &vid[0], "Number of noncontiguous requests per process", e) ||
        def_int_var(ncid, path, k, "fill_starts", dp, &vid[1],
                    "Start index in offsets[] and lengths[] for requests to be written with fill values", e) ||
        def_dim(ncid, path, k, "total_nreqs", c->total, &dt, e) ||
        def_int_var(ncid, path, k, "offsets", dt, &vid[2], "Flattened starting indices of noncontiguous requests", e) ||
        def_int_var(ncid, path, k, "lengths", dt, &vid[3], "Lengths of noncontiguous requests", e))
        return -1;
    ncmpi_put_att_int(ncid, vid[3], "max", NC_INT, 1, &c->lmax);
    ncmpi_put_att_int(ncid, vid[3], "min", NC_INT, 1, &c->lmin);
    if (raw && (def_int_var(ncid, path, k, "raw_nreqs", dp, &vid[4],
                            "Number of file offsets accessed per process before merge", e) ||
                def_dim(ncid, path, k, "total_raw_nreqs", c->total_raw, &drt, e) ||
                def_int_var(ncid, path, k, "raw_offsets", drt, &vid[5], "File offsets accessed before merge", e)))
        return -1;
    int nd = d->ndims, dims[CIO_MAX_DIMS];
    for (int i = 0; i < nd; i++) dims[i] = (int)d->dims[i];
    static const char *const att[4] = {"ndims", "dims", "max_nreqs", "min_nreqs"};
    const int *val[4] = {&nd, dims, &c->maxn, &c->minn};
    for (int i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "D%d.%s", k + 1, att[i]);
        ncmpi_put_att_int(ncid, NC_GLOBAL, name, NC_INT, i == 1 ? nd : 1, val[i]);
    }
    snprintf(name, sizeof name, "D%d.fully_covered", k + 1);
    /* maps are duplicate-free (checked on load), so counting covers */
    put_text(ncid, NC_GLOBAL, name, c->total_raw == dmap_desc_elems(d) ? "true" : "false");
    return 0;
}

/* Values of one 1-d variable gathered into a buffer and written in large
 * pieces (a call per task would be a write system call per task). */
typedef struct spool {
    int ncid, varid;
    const char *what;
    long long *v;
    int64_t n, cap, at;         /* buffered, room, where the buffer's first value goes */
} spool;

static void spool_init(spool *sp, int ncid, int varid, const char *what)
{
    memset(sp, 0, sizeof *sp);
    sp->ncid = ncid;
    sp->varid = varid;
    sp->what = what;
    sp->cap = (int64_t)1 << 18;
    sp->v = cio_malloc((size_t)sp->cap * sizeof *sp->v);
}

static int spool_flush(spool *sp, const char *path, cio_err *e)
{
    MPI_Offset st = sp->at, ct = sp->n;
    if (sp->n) PW(ncmpi_put_vara_longlong(sp->ncid, sp->varid, &st, &ct, sp->v), sp->what);
    sp->at += sp->n;
    sp->n = 0;
    return 0;
}

static int spool_put(spool *sp, long long x, const char *path, cio_err *e)
{
    if (sp->n == sp->cap && spool_flush(sp, path, e) != 0) return -1;
    sp->v[sp->n++] = x;
    return 0;
}

/* One decomposition's data, task by task (one task's map in memory), the
 * per-task counts from the first pass. */
static int write_decomp(int ncid, const char *path, const dmap_desc *d, int k, int64_t ntasks, int raw,
                        dmap_task_fn fn, void *ctx, const e3sm_counts *c, cio_err *e)
{
    int64_t row = d->dims[d->ndims - 1];
    const int *vid = c->vid;
    long long *nr = cio_malloc((size_t)ntasks * sizeof *nr);
    MPI_Offset z = 0, nt = ntasks;
    int rc = 0;
    for (int pass = 0; pass < (raw ? 2 : 1) && rc == 0; pass++) {   /* nreqs and fill_starts; raw_nreqs */
        for (int64_t t = 0; t < ntasks; t++) nr[t] = pass ? c->nraw[t] : c->nreqs[t];
        int r = ncmpi_put_vara_longlong(ncid, vid[pass ? 4 : 0], &z, &nt, nr);
        if (r == NC_NOERR && !pass) r = ncmpi_put_vara_longlong(ncid, vid[1], &z, &nt, nr);
        if (r != NC_NOERR) rc = cio_seterr(e, "%s: %s: %s", path, pass ? "raw_nreqs" : "nreqs", ncmpi_strerror(r));
    }
    cio_free(nr);
    spool so, sl, sr;
    spool_init(&so, ncid, vid[2], "offsets");
    spool_init(&sl, ncid, vid[3], "lengths");
    spool_init(&sr, ncid, raw ? vid[5] : -1, "raw_offsets");
    for (int64_t t = 0; t < ntasks && rc == 0; t++) {
        int64_t *m = NULL, n = fn(ctx, k, t, &m), r;
        long long *off = cio_malloc((size_t)(n ? n : 1) * sizeof(long long));
        long long *len = cio_malloc((size_t)(n ? n : 1) * sizeof(long long));
        int64_t np = coalesce(m, n, row, off, len, &r);
        for (int64_t i = 0; i < np && rc == 0; i++)
            rc = spool_put(&so, off[i], path, e) || spool_put(&sl, len[i], path, e);
        for (int64_t i = 0; raw && i < n && rc == 0; i++)
            if (m[i] >= 0) rc = spool_put(&sr, m[i] + 1, path, e);   /* raw offsets are 1-based */
        cio_free(m);
        cio_free(off);
        cio_free(len);
    }
    if (rc == 0) rc = spool_flush(&so, path, e) || spool_flush(&sl, path, e) || (raw && spool_flush(&sr, path, e));
    cio_free(so.v);
    cio_free(sl.v);
    cio_free(sr.v);
    return rc ? -1 : 0;
}

static int write_file(int ncid, const char *path, int ndecomps, const dmap_desc *d, int64_t ntasks, int raw,
                      const char *command_line, dmap_task_fn fn, void *ctx, e3sm_counts *c, cio_err *e)
{
    int dk, dp;
    PW(ncmpi_def_dim(ncid, "num_decomp", ndecomps, &dk), "num_decomp");
    put_text(ncid, NC_GLOBAL, "command_line", command_line);
    for (int k = 0; k < ndecomps; k++) {
        count_pairs(&d[k], k, ntasks, fn, ctx, &c[k]);
        if (c[k].total == 0)
            return cio_seterr(e, "%s: decomposition D%d names no element: an E3SM-IO map cannot store it (a dimension "
                                 "of length 0 is the unlimited one)", path, k + 1);
        if (k == 0) PW(ncmpi_def_dim(ncid, "decomp_nprocs", ntasks, &dp), "decomp_nprocs");
        if (define_decomp(ncid, path, &d[k], k, raw, dp, &c[k], e) != 0) return -1;
    }
    PW(ncmpi_enddef(ncid), "enddef");
    PW(ncmpi_begin_indep_data(ncid), "begin_indep_data");
    for (int k = 0; k < ndecomps; k++)
        if (write_decomp(ncid, path, &d[k], k, ntasks, raw, fn, ctx, &c[k], e) != 0) return -1;
    return 0;
}

int dmap_write_e3sm(const char *path, int ndecomps, const dmap_desc *d, int64_t ntasks, int raw,
                    const char *command_line, dmap_task_fn fn, void *ctx, cio_err *e)
{
    int ncid = -1, rc = -1;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "nc_header_align_size", "8192");
    e3sm_counts c[DMAP_MAX_DECOMPS];
    memset(c, 0, sizeof c);
    int crc = ncmpi_create(MPI_COMM_SELF, path, NC_CLOBBER | NC_64BIT_DATA, info, &ncid);
    if (crc != NC_NOERR) cio_seterr(e, "%s: cannot create: %s", path, ncmpi_strerror(crc));
    else rc = write_file(ncid, path, ndecomps, d, ntasks, raw, command_line, fn, ctx, c, e);
    if (crc == NC_NOERR) {
        crc = ncmpi_close(ncid);
        if (rc == 0 && crc != NC_NOERR) rc = cio_seterr(e, "%s: close: %s", path, ncmpi_strerror(crc));
    }
    MPI_Info_free(&info);
    for (int k = 0; k < DMAP_MAX_DECOMPS; k++) {
        cio_free(c[k].nreqs);
        cio_free(c[k].nraw);
    }
    return rc;
}

#endif
