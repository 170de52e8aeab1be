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
        if (rc_ != NC_NOERR) {                             \
            cio_seterr(e, "%s: %s: %s", path, what, ncmpi_strerror(rc_)); \
            goto out;                                      \
        }                                                  \
    } while (0)

static void put_text(int ncid, int varid, const char *name, const char *text)
{
    ncmpi_put_att_text(ncid, varid, name, (MPI_Offset)strlen(text), text);
}

int dmap_write_e3sm(const char *path, int ndecomps, const dmap_desc *d, int64_t ntasks, int raw,
                    const char *command_line, dmap_task_fn fn, void *ctx, cio_err *e)
{
    int ncid = -1, rc = -1;
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "nc_header_align_size", "8192");
    int64_t *nreqs[DMAP_MAX_DECOMPS] = {0}, *nraw[DMAP_MAX_DECOMPS] = {0};
    int vid[DMAP_MAX_DECOMPS][6];
    long long *off = NULL, *len = NULL;
    int64_t *m = NULL;
    PW(ncmpi_create(MPI_COMM_SELF, path, NC_CLOBBER | NC_64BIT_DATA, info, &ncid), "cannot create");
    int dk, dp;
    PW(ncmpi_def_dim(ncid, "num_decomp", ndecomps, &dk), "num_decomp");
    put_text(ncid, NC_GLOBAL, "command_line", command_line);
    for (int k = 0; k < ndecomps; k++) {
        /* pass 1: the counts the header needs */
        int64_t row = d[k].dims[d[k].ndims - 1], total = 0, total_raw = 0, elems = 0;
        int lmax = 0, lmin = 0, any = 0, maxn = 0, minn = 0;
        nreqs[k] = cio_malloc((size_t)ntasks * sizeof(int64_t));
        nraw[k] = cio_malloc((size_t)ntasks * sizeof(int64_t));
        for (int64_t t = 0; t < ntasks; t++) {
            int64_t *m = NULL, n = fn(ctx, k, t, &m), r;
            long long *o = cio_malloc((size_t)(n ? n : 1) * sizeof(long long)), *l = cio_malloc((size_t)(n ? n : 1) * sizeof(long long));
            nreqs[k][t] = coalesce(m, n, row, o, l, &r);
            nraw[k][t] = r;
            for (int64_t i = 0; i < nreqs[k][t]; i++) {
                if (!any || l[i] > lmax) lmax = (int)l[i];
                if (!any || l[i] < lmin) lmin = (int)l[i];
                any = 1;
            }
            if (t == 0 || nreqs[k][t] > maxn) maxn = (int)nreqs[k][t];
            if (t == 0 || nreqs[k][t] < minn) minn = (int)nreqs[k][t];
            total += nreqs[k][t];
            total_raw += r;
            elems += r;
            cio_free(o);
            cio_free(l);
            cio_free(m);
        }
        if (total == 0) {
            cio_seterr(e, "%s: decomposition D%d names no element: an E3SM-IO map cannot store it (a dimension of "
                          "length 0 is the unlimited one)", path, k + 1);
            goto out;
        }
        char name[64], dn[64], rdn[64];
        int dt, drt;
        if (k == 0) PW(ncmpi_def_dim(ncid, "decomp_nprocs", ntasks, &dp), "decomp_nprocs");
        snprintf(name, sizeof name, "D%d.nreqs", k + 1);
        PW(ncmpi_def_var(ncid, name, NC_INT, 1, &dp, &vid[k][0]), name);
        put_text(ncid, vid[k][0], "description", "Number of noncontiguous requests per process");
        snprintf(name, sizeof name, "D%d.fill_starts", k + 1);
        PW(ncmpi_def_var(ncid, name, NC_INT, 1, &dp, &vid[k][1]), name);
        put_text(ncid, vid[k][1], "description",
                 "Start index in offsets[] and lengths[] for requests to be written with fill values");
        snprintf(dn, sizeof dn, "D%d.total_nreqs", k + 1);
        PW(ncmpi_def_dim(ncid, dn, total, &dt), dn);
        snprintf(name, sizeof name, "D%d.offsets", k + 1);
        PW(ncmpi_def_var(ncid, name, NC_INT, 1, &dt, &vid[k][2]), name);
        put_text(ncid, vid[k][2], "description", "Flattened starting indices of noncontiguous requests");
        snprintf(name, sizeof name, "D%d.lengths", k + 1);
        PW(ncmpi_def_var(ncid, name, NC_INT, 1, &dt, &vid[k][3]), name);
        put_text(ncid, vid[k][3], "description", "Lengths of noncontiguous requests");
        ncmpi_put_att_int(ncid, vid[k][3], "max", NC_INT, 1, &lmax);
        ncmpi_put_att_int(ncid, vid[k][3], "min", NC_INT, 1, &lmin);
        if (raw) {
            snprintf(name, sizeof name, "D%d.raw_nreqs", k + 1);
            PW(ncmpi_def_var(ncid, name, NC_INT, 1, &dp, &vid[k][4]), name);
            put_text(ncid, vid[k][4], "description", "Number of file offsets accessed per process before merge");
            snprintf(rdn, sizeof rdn, "D%d.total_raw_nreqs", k + 1);
            PW(ncmpi_def_dim(ncid, rdn, total_raw, &drt), rdn);
            snprintf(name, sizeof name, "D%d.raw_offsets", k + 1);
            PW(ncmpi_def_var(ncid, name, NC_INT, 1, &drt, &vid[k][5]), name);
            put_text(ncid, vid[k][5], "description", "File offsets accessed before merge");
        }
        int nd = d[k].ndims, dims[CIO_MAX_DIMS];
        for (int i = 0; i < nd; i++) dims[i] = (int)d[k].dims[i];
        snprintf(name, sizeof name, "D%d.ndims", k + 1);
        ncmpi_put_att_int(ncid, NC_GLOBAL, name, NC_INT, 1, &nd);
        snprintf(name, sizeof name, "D%d.dims", k + 1);
        ncmpi_put_att_int(ncid, NC_GLOBAL, name, NC_INT, nd, dims);
        snprintf(name, sizeof name, "D%d.max_nreqs", k + 1);
        ncmpi_put_att_int(ncid, NC_GLOBAL, name, NC_INT, 1, &maxn);
        snprintf(name, sizeof name, "D%d.min_nreqs", k + 1);
        ncmpi_put_att_int(ncid, NC_GLOBAL, name, NC_INT, 1, &minn);
        snprintf(name, sizeof name, "D%d.fully_covered", k + 1);
        /* maps are duplicate-free (checked on load), so counting covers */
        put_text(ncid, NC_GLOBAL, name, elems == dmap_desc_elems(&d[k]) ? "true" : "false");
    }
    PW(ncmpi_enddef(ncid), "enddef");
    PW(ncmpi_begin_indep_data(ncid), "begin_indep_data");
    /* pass 2: the data, task by task */
    for (int k = 0; k < ndecomps; k++) {
        int64_t row = d[k].dims[d[k].ndims - 1], at = 0, rat = 0;
        for (int64_t t = 0; t < ntasks; t++) {
            MPI_Offset st = t, one = 1;
            long long nr = nreqs[k][t], rr = nraw[k][t];
            PW(ncmpi_put_vara_longlong(ncid, vid[k][0], &st, &one, &nr), "nreqs");
            PW(ncmpi_put_vara_longlong(ncid, vid[k][1], &st, &one, &nr), "fill_starts");
            if (raw) PW(ncmpi_put_vara_longlong(ncid, vid[k][4], &st, &one, &rr), "raw_nreqs");
            int64_t n = fn(ctx, k, t, &m), r;
            off = cio_malloc((size_t)(n ? n : 1) * sizeof(long long));
            len = cio_malloc((size_t)(n ? n : 1) * sizeof(long long));
            int64_t np = coalesce(m, n, row, off, len, &r);
            MPI_Offset s0 = at, c0 = np;
            if (np) {
                PW(ncmpi_put_vara_longlong(ncid, vid[k][2], &s0, &c0, off), "offsets");
                PW(ncmpi_put_vara_longlong(ncid, vid[k][3], &s0, &c0, len), "lengths");
            }
            if (raw && r) {
                int64_t j = 0;
                for (int64_t i = 0; i < n; i++)
                    if (m[i] >= 0) off[j++] = m[i] + 1;   /* raw offsets are 1-based */
                MPI_Offset s1 = rat, c1 = r;
                PW(ncmpi_put_vara_longlong(ncid, vid[k][5], &s1, &c1, off), "raw_offsets");
            }
            at += np;
            rat += r;
            cio_free(m);
            cio_free(off);
            cio_free(len);
            m = NULL;
            off = len = NULL;
        }
    }
    rc = 0;
out:
    if (ncid >= 0) {
        int crc = ncmpi_close(ncid);
        if (rc == 0 && crc != NC_NOERR) rc = cio_seterr(e, "%s: close: %s", path, ncmpi_strerror(crc));
    }
    MPI_Info_free(&info);
    cio_free(m);
    cio_free(off);
    cio_free(len);
    for (int k = 0; k < DMAP_MAX_DECOMPS; k++) {
        cio_free(nreqs[k]);
        cio_free(nraw[k]);
    }
    return rc;
}

#endif
