/* The netCDF decomposition containers, read by each rank on its own (PnetCDF on
 * MPI_COMM_SELF for the classic formats, netCDF-C for netCDF-4 / HDF5 files, the
 * same checks whichever library reads), so each rank reads only its own slices:
 *
 *   pio_nc      PIOc_write_nc_decomp: dims `dims`, `task`, `map_element`; int
 *               global_size(dims) (C order), maplen(task), map(task, map_element)
 *               0-based, -1 a hole, rows padded with NC_FILL_INT
 *   scorpio_nc  SCORPIO's decomposition logger: attribute gdimlen (C order),
 *               counts(comm_sz), int64 gmap(gmaplen) 1-based, 0 a hole
 *   e3sm        E3SM-IO map files: dims num_decomp, decomp_nprocs; per
 *               decomposition k attribute Dk.dims (C order) and Dk.nreqs,
 *               Dk.fill_starts (optional), Dk.offsets, Dk.lengths: (offset, length)
 *               pairs, 0-based
 *
 * Each reader checks what upstream's reader relies on, and what a bad file would
 * break silently there (counts that do not add up, indices beyond the array). */
#include "config.h"
#include "dmap_impl.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "drivers/hdf5_end.h"
#include "drivers/io_util.h"

#define CHUNK ((int64_t)1 << 20)    /* entries read per call */

typedef struct nc_state {
    const dmap_nclib *lib;
    int ncid;
    /* per decomposition: per-task counts, where each task's segment starts, and
     * how many of its entries (pio_nc, scorpio_nc) or pairs (e3sm) to use */
    int64_t *count[DMAP_MAX_DECOMPS], *first[DMAP_MAX_DECOMPS], *use[DMAP_MAX_DECOMPS];
    int varid[DMAP_MAX_DECOMPS][2];
    int64_t max_maplen;
} nc_state;

/* The library reading f (its state's). */
static const dmap_nclib *lib_of(const dmap_file *f) { return ((const nc_state *)f->impl)->lib; }

static int nerr(dmap_file *f, const char *what, int rc, cio_err *e)
{
    return cio_seterr(e, "%s: %s: %s", f->path, what, lib_of(f)->strerror(rc));
}

static int has_dim(const dmap_file *f, int ncid, const char *name)
{
    int id;
    return lib_of(f)->inq_dimid(ncid, name, &id) == 0;
}

static int dim_len(dmap_file *f, int ncid, const char *name, int64_t *len, cio_err *e)
{
    const dmap_nclib *L = lib_of(f);
    int id;
    long long l;
    if (L->inq_dimid(ncid, name, &id) != 0)
        return cio_seterr(e, "%s: dimension %s is missing (%s format)", f->path, name, dmap_format_name(f->fmt));
    int rc = L->inq_dimlen(ncid, id, &l);
    if (rc != 0) return nerr(f, name, rc, e);
    *len = l;
    return 0;
}

/* An integer attribute's values (at most max); *n its length. */
static int int_att(dmap_file *f, int ncid, int varid, const char *name, int64_t *vals, int max, int *n, cio_err *e)
{
    const dmap_nclib *L = lib_of(f);
    int t;
    long long len;
    if (L->inq_att(ncid, varid, name, &t, &len) != 0)
        return cio_seterr(e, "%s: attribute %s is missing (%s format)", f->path, name, dmap_format_name(f->fmt));
    if (t != DMAP_NC_INT && t != DMAP_NC_INT64 && t != DMAP_NC_SHORT)
        return cio_seterr(e, "%s: attribute %s: expected integers", f->path, name);
    if (len < 1 || len > max)
        return cio_seterr(e, "%s: attribute %s has %lld values: expected 1 to %d", f->path, name, (long long)len, max);
    long long v[CIO_MAX_DIMS];
    int rc = L->get_att_ll(ncid, varid, name, v);
    if (rc != 0) return nerr(f, name, rc, e);
    for (int i = 0; i < len; i++) vals[i] = v[i];
    *n = (int)len;
    return 0;
}

static int text_att(dmap_file *f, int ncid, const char *name, char *buf, size_t cap, cio_err *e)
{
    const dmap_nclib *L = lib_of(f);
    int t;
    long long len;
    if (L->inq_att(ncid, DMAP_NC_GLOBAL, name, &t, &len) != 0)
        return cio_seterr(e, "%s: attribute %s is missing (%s format)", f->path, name, dmap_format_name(f->fmt));
    if (t != DMAP_NC_CHAR || len < 0 || (size_t)len >= cap)
        return cio_seterr(e, "%s: attribute %s: expected text", f->path, name);
    int rc = L->get_att_text(ncid, DMAP_NC_GLOBAL, name, buf);
    if (rc != 0) return nerr(f, name, rc, e);
    buf[len] = 0;
    return 0;
}

/* A variable of integer type over the named dimensions. */
static int int_var(dmap_file *f, int ncid, const char *name, int ndims, const char *const *dims, int *varid, cio_err *e)
{
    const dmap_nclib *L = lib_of(f);
    int t = 0, nd = 0, dimids[CIO_MAX_DIMS];
    if (L->inq_varid(ncid, name, varid) != 0)
        return cio_seterr(e, "%s: variable %s is missing (%s format)", f->path, name, dmap_format_name(f->fmt));
    int rc = L->inq_var(ncid, *varid, &t, &nd, dimids);
    if (rc != 0) return nerr(f, name, rc, e);
    if (t != DMAP_NC_INT && t != DMAP_NC_INT64)
        return cio_seterr(e, "%s: variable %s: expected int or int64 values", f->path, name);
    int ok = nd == ndims;
    for (int i = 0; ok && i < nd; i++) {
        char dn[DMAP_NC_MAX_NAME + 1];
        ok = L->inq_dimname(ncid, dimids[i], dn) == 0 && strcmp(dn, dims[i]) == 0;
    }
    if (!ok) {
        char want[256] = "";
        for (int i = 0; i < ndims; i++) snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", i ? ", " : "", dims[i]);
        return cio_seterr(e, "%s: variable %s: expected dimensions (%s)", f->path, name, want);
    }
    return 0;
}

/* values [start, start+n) of a 1-d variable (or of row `row` of a 2-d one). */
static int get_ll(dmap_file *f, int ncid, int varid, const char *name, int row, int64_t start, int64_t n,
                  long long *v, cio_err *e)
{
    const dmap_nclib *L = lib_of(f);
    long long st[2] = {row, start}, ct[2] = {1, n};
    if (row < 0) st[0] = start, ct[0] = n;
    if (n == 0) return 0;
    int rc = L->get_vara_ll(ncid, varid, st, ct, v);
    if (rc != 0) return nerr(f, name, rc, e);
    return 0;
}

static int truncated(dmap_file *f, long long size, long long end, const char *says, cio_err *e)
{
    return cio_seterr(e, "%s is %lld bytes, but %s at byte %lld: the decomposition file is truncated (%lld bytes "
                         "missing)", f->path, size, says, end, end - size);
}

/* A window of a 1-d variable pair (offsets, lengths or one array) read ahead in
 * chunks, so a range of tasks is read in few calls whatever the task count. */
typedef struct window {
    long long *a, *b;           /* the values of [lo, hi) */
    int64_t lo, hi, cap;
} window;

static void window_init(window *w, int64_t span, int two)
{
    w->cap = span < CHUNK ? (span > 0 ? span : 1) : CHUNK;
    w->a = cio_malloc((size_t)w->cap * sizeof(long long));
    w->b = two ? cio_malloc((size_t)w->cap * sizeof(long long)) : NULL;
    w->lo = w->hi = 0;
}

static void window_free(window *w)
{
    cio_free(w->a);
    cio_free(w->b);
}

/* Make position at readable (the window then starts there, up to end). */
static int window_at(dmap_file *f, window *w, int64_t at, int64_t end, int va, const char *na, int vb, const char *nb,
                     cio_err *e)
{
    if (at >= w->lo && at < w->hi) return 0;
    nc_state *s = f->impl;
    int64_t n = end - at < w->cap ? end - at : w->cap;
    w->lo = at;
    w->hi = at + n;
    if (get_ll(f, s->ncid, va, na, -1, at, n, w->a, e)) return -1;
    return w->b && get_ll(f, s->ncid, vb, nb, -1, at, n, w->b, e) ? -1 : 0;
}

/* ---- pio_nc ---- */

static int pio_nc_header(dmap_file *f, nc_state *s, cio_err *e)
{
    const dmap_nclib *L = lib_of(f);
    int ncid = s->ncid, n;
    char buf[300];
    if (L->inq_att(ncid, DMAP_NC_GLOBAL, "PIO_library_version", NULL, NULL) != 0 &&
        L->inq_att(ncid, DMAP_NC_GLOBAL, "version", NULL, NULL) != 0)
        return cio_seterr(e, "%s: attribute PIO_library_version (PIO2) or version (SCORPIO) is missing", f->path);
    if (text_att(f, ncid, "array_order", buf, sizeof buf, e)) return -1;
    if (strcmp(buf, "C") != 0 && strcmp(buf, "Fortran") != 0)
        return cio_seterr(e, "%s: attribute array_order is \"%s\": expected \"C\" or \"Fortran\"", f->path, buf);
    int64_t mm;
    if (int_att(f, ncid, DMAP_NC_GLOBAL, "max_maplen", &mm, 1, &n, e)) return -1;
    int64_t nd, nt, me;
    if (dim_len(f, ncid, "dims", &nd, e) || dim_len(f, ncid, "task", &nt, e) || dim_len(f, ncid, "map_element", &me, e))
        return -1;
    if (me != mm)
        return cio_seterr(e, "%s: dimension map_element is %lld, attribute max_maplen %lld: they must be equal", f->path,
                          (long long)me, (long long)mm);
    if (nd < 1 || nd > CIO_MAX_DIMS)
        return cio_seterr(e, "%s: dimension dims is %lld: expected 1 to %d", f->path, (long long)nd, CIO_MAX_DIMS);
    if (nt < 1) return cio_seterr(e, "%s: dimension task is 0: expected at least one task", f->path);
    static const char *const d_dims[] = {"dims"}, *const d_task[] = {"task"}, *const d_map[] = {"task", "map_element"};
    int vg, vl;
    if (int_var(f, ncid, "global_size", 1, d_dims, &vg, e) || int_var(f, ncid, "maplen", 1, d_task, &vl, e) ||
        int_var(f, ncid, "map", 2, d_map, &s->varid[0][0], e))
        return -1;
    long long g[CIO_MAX_DIMS];
    if (get_ll(f, ncid, vg, "global_size", -1, 0, nd, g, e)) return -1;
    f->desc[0].ndims = (int)nd;
    for (int i = 0; i < nd; i++) {
        if (g[i] < 1)
            return cio_seterr(e, "%s: variable global_size, element %d is %lld: expected a positive length", f->path, i,
                              g[i]);
        f->desc[0].dims[i] = g[i];
    }
    f->ndecomps = 1;
    f->ntasks = nt;
    s->max_maplen = mm;
    s->count[0] = cio_malloc((size_t)nt * sizeof(int64_t));
    if (get_ll(f, ncid, vl, "maplen", -1, 0, nt, (long long *)s->count[0], e)) return -1;
    for (int64_t t = 0; t < nt; t++)
        if (s->count[0][t] < 0 || s->count[0][t] > mm)
            return cio_seterr(e, "%s: variable maplen, task %lld: %lld: expected 0 to max_maplen (%lld)", f->path,
                              (long long)t, (long long)s->count[0][t], (long long)mm);
    return 0;
}

static int pio_nc_read(dmap_file *f, int k, int64_t task0, int64_t ntasks, dmap_part *p, cio_err *e)
{
    nc_state *s = f->impl;
    const dmap_nclib *L = lib_of(f);
    int64_t g = dmap_desc_elems(&f->desc[0]), mm = s->max_maplen ? s->max_maplen : 1;
    /* whole rows of map(task, map_element), as many as a chunk holds */
    int64_t rows = CHUNK / mm > 0 ? CHUNK / mm : 1;
    if (rows > ntasks) rows = ntasks;
    long long *v = cio_malloc((size_t)(rows * mm) * sizeof(long long));
    int rc = 0;
    (void)k;
    for (int64_t t0 = task0; t0 < task0 + ntasks && rc == 0; t0 += rows) {
        int64_t nr = task0 + ntasks - t0 < rows ? task0 + ntasks - t0 : rows;
        long long st[2] = {t0, 0}, ct[2] = {nr, s->max_maplen};
        if (s->max_maplen > 0 && (rc = L->get_vara_ll(s->ncid, s->varid[0][0], st, ct, v)) != 0) {
            rc = nerr(f, "map", rc, e);
            break;
        }
        for (int64_t t = t0; t < t0 + nr && rc == 0; t++) {
            const long long *row = v + (t - t0) * s->max_maplen;
            for (int64_t i = 0; i < s->count[0][t] && rc == 0; i++) {
                if (row[i] >= g)
                    rc = cio_seterr(e, "%s: variable map, task %lld, element %lld: %lld is beyond the array (%lld "
                                       "elements, 0-based)", f->path, (long long)t, (long long)i, row[i], (long long)g);
                else if (row[i] < -1)   /* PIO writes -1 for a hole (and fills the rows' ends) */
                    rc = cio_seterr(e, "%s: variable map, task %lld, element %lld: %lld: expected a 0-based index or "
                                       "-1 (a hole)", f->path, (long long)t, (long long)i, row[i]);
                else dmap_part_add(p, t, row[i]);
            }
        }
    }
    cio_free(v);
    return rc;
}

/* ---- scorpio_nc ---- */

static int scorpio_header(dmap_file *f, nc_state *s, cio_err *e)
{
    int ncid = s->ncid, n, nd;
    int64_t np, ndims, gdim[CIO_MAX_DIMS], csz, gl;
    char buf[300];
    if (text_att(f, ncid, "version", buf, sizeof buf, e) || int_att(f, ncid, DMAP_NC_GLOBAL, "nprocs", &np, 1, &n, e) ||
        int_att(f, ncid, DMAP_NC_GLOBAL, "ndims", &ndims, 1, &n, e) ||
        int_att(f, ncid, DMAP_NC_GLOBAL, "gdimlen", gdim, CIO_MAX_DIMS, &nd, e) || dim_len(f, ncid, "comm_sz", &csz, e) ||
        dim_len(f, ncid, "gmaplen", &gl, e))
        return -1;
    if (np != csz)
        return cio_seterr(e, "%s: attribute nprocs is %lld, dimension comm_sz %lld: they must be equal", f->path,
                          (long long)np, (long long)csz);
    if (ndims != nd)
        return cio_seterr(e, "%s: attribute ndims is %lld, but gdimlen has %d values", f->path, (long long)ndims, nd);
    if (csz < 1) return cio_seterr(e, "%s: dimension comm_sz is 0: expected at least one task", f->path);
    static const char *const d_c[] = {"comm_sz"}, *const d_g[] = {"gmaplen"};
    int vc;
    if (int_var(f, ncid, "counts", 1, d_c, &vc, e) || int_var(f, ncid, "gmap", 1, d_g, &s->varid[0][0], e)) return -1;
    f->desc[0].ndims = nd;
    for (int i = 0; i < nd; i++) {
        if (gdim[i] < 1)
            return cio_seterr(e, "%s: attribute gdimlen, value %d is %lld: expected a positive length", f->path, i,
                              (long long)gdim[i]);
        f->desc[0].dims[i] = gdim[i];
    }
    f->ndecomps = 1;
    f->ntasks = csz;
    s->count[0] = cio_malloc((size_t)csz * sizeof(int64_t));
    s->first[0] = cio_malloc((size_t)csz * sizeof(int64_t));
    if (get_ll(f, ncid, vc, "counts", -1, 0, csz, (long long *)s->count[0], e)) return -1;
    int64_t sum = 0;
    for (int64_t t = 0; t < csz; t++) {
        if (s->count[0][t] < 0)
            return cio_seterr(e, "%s: variable counts, task %lld: %lld: expected 0 or more", f->path, (long long)t,
                              (long long)s->count[0][t]);
        s->first[0][t] = sum;
        sum += s->count[0][t];
    }
    if (sum != gl)
        return cio_seterr(e, "%s: variable counts adds up to %lld, dimension gmaplen is %lld: they must be equal",
                          f->path, (long long)sum, (long long)gl);
    return 0;
}

static int scorpio_read(dmap_file *f, int k, int64_t task0, int64_t ntasks, dmap_part *p, cio_err *e)
{
    nc_state *s = f->impl;
    int64_t g = dmap_desc_elems(&f->desc[0]), last = task0 + ntasks - 1;
    int64_t end = s->first[0][last] + s->count[0][last];
    window w;
    window_init(&w, end - s->first[0][task0], 0);
    int rc = 0;
    (void)k;
    for (int64_t t = task0; t < task0 + ntasks && rc == 0; t++)
        for (int64_t i = 0; i < s->count[0][t] && rc == 0; i++) {
            int64_t at = s->first[0][t] + i;
            if ((rc = window_at(f, &w, at, end, s->varid[0][0], "gmap", -1, NULL, e)) != 0) break;
            long long v = w.a[at - w.lo];
            if (v > g)
                rc = cio_seterr(e, "%s: variable gmap, task %lld, entry %lld: %lld is beyond the array (%lld "
                                   "elements, 1-based)", f->path, (long long)t, (long long)i, v, (long long)g);
            else dmap_part_add(p, t, v - 1);
        }
    window_free(&w);
    return rc;
}

/* ---- e3sm ---- */

static int e3sm_header(dmap_file *f, nc_state *s, cio_err *e)
{
    const dmap_nclib *L = lib_of(f);
    int ncid = s->ncid;
    int64_t K, P;
    if (dim_len(f, ncid, "num_decomp", &K, e) || dim_len(f, ncid, "decomp_nprocs", &P, e)) return -1;
    if (K < 1 || K > DMAP_MAX_DECOMPS)
        return cio_seterr(e, "%s: dimension num_decomp is %lld: expected 1 to %d (E3SM-IO's MAX_NUM_DECOMP)", f->path,
                          (long long)K, DMAP_MAX_DECOMPS);
    if (P < 1) return cio_seterr(e, "%s: dimension decomp_nprocs is 0", f->path);
    f->ndecomps = (int)K;
    f->ntasks = P;
    for (int k = 0; k < K; k++) {
        char name[64], dn[64];
        int64_t total, dims[CIO_MAX_DIMS];
        int nd, n;
        snprintf(dn, sizeof dn, "D%d.total_nreqs", k + 1);
        if (dim_len(f, ncid, dn, &total, e)) return -1;
        snprintf(name, sizeof name, "D%d.dims", k + 1);
        if (int_att(f, ncid, DMAP_NC_GLOBAL, name, dims, 4, &nd, e)) return -1;
        snprintf(name, sizeof name, "D%d.ndims", k + 1);
        int64_t ndims;
        if (L->inq_att(ncid, DMAP_NC_GLOBAL, name, NULL, NULL) == 0) {
            if (int_att(f, ncid, DMAP_NC_GLOBAL, name, &ndims, 1, &n, e)) return -1;
            if (ndims != nd)
                return cio_seterr(e, "%s: attribute D%d.ndims is %lld, but D%d.dims has %d values", f->path, k + 1,
                                  (long long)ndims, k + 1, nd);
        }
        f->desc[k].ndims = nd;
        for (int i = 0; i < nd; i++) {
            if (dims[i] < 1)
                return cio_seterr(e, "%s: attribute D%d.dims, value %d is %lld: expected a positive length", f->path,
                                  k + 1, i, (long long)dims[i]);
            f->desc[k].dims[i] = dims[i];
        }
        const char *const d_p[] = {"decomp_nprocs"}, *const d_t[] = {dn};
        int vn, vf;
        snprintf(name, sizeof name, "D%d.nreqs", k + 1);
        if (int_var(f, ncid, name, 1, d_p, &vn, e)) return -1;
        s->count[k] = cio_malloc((size_t)P * sizeof(int64_t));
        s->first[k] = cio_malloc((size_t)P * sizeof(int64_t));
        s->use[k] = cio_malloc((size_t)P * sizeof(int64_t));
        if (get_ll(f, ncid, vn, name, -1, 0, P, (long long *)s->count[k], e)) return -1;
        int64_t sum = 0;
        for (int64_t t = 0; t < P; t++) {
            if (s->count[k][t] < 0)
                return cio_seterr(e, "%s: variable %s, task %lld: %lld: expected 0 or more", f->path, name, (long long)t,
                                  (long long)s->count[k][t]);
            s->first[k][t] = sum;   /* segments are laid out by nreqs, whatever fill_starts says */
            sum += s->count[k][t];
            s->use[k][t] = s->count[k][t];
        }
        if (sum != total)
            return cio_seterr(e, "%s: variable %s adds up to %lld, dimension %s is %lld: they must be equal", f->path,
                              name, (long long)sum, dn, (long long)total);
        snprintf(name, sizeof name, "D%d.fill_starts", k + 1);
        if (!f->opts.e3sm_fill && L->inq_varid(ncid, name, &vf) == 0) {
            if (int_var(f, ncid, name, 1, d_p, &vf, e)) return -1;
            if (get_ll(f, ncid, vf, name, -1, 0, P, (long long *)s->use[k], e)) return -1;
            for (int64_t t = 0; t < P; t++) {
                if (s->use[k][t] < s->count[k][t] && t + 1 < P) f->fill_pairs = 1;
                if (s->use[k][t] < 0 || s->use[k][t] > s->count[k][t])
                    return cio_seterr(e, "%s: variable %s, task %lld: %lld: expected 0 to D%d.nreqs (%lld)", f->path,
                                      name, (long long)t, (long long)s->use[k][t], k + 1, (long long)s->count[k][t]);
            }
            /* e3sm_io's reading: task t's fill_starts[t] requests from the sum of the fill_starts before it */
            for (int64_t t = 0, at = 0; f->opts.e3sm_shifted && t < P; at += s->use[k][t], t++) s->first[k][t] = at;
        }
        snprintf(name, sizeof name, "D%d.offsets", k + 1);
        if (int_var(f, ncid, name, 1, d_t, &s->varid[k][0], e)) return -1;
        snprintf(name, sizeof name, "D%d.lengths", k + 1);
        if (int_var(f, ncid, name, 1, d_t, &s->varid[k][1], e)) return -1;
    }
    return 0;
}

static int e3sm_read(dmap_file *f, int k, int64_t task0, int64_t ntasks, dmap_part *p, cio_err *e)
{
    nc_state *s = f->impl;
    const dmap_desc *d = &f->desc[k];
    int64_t g = dmap_desc_elems(d), row = d->dims[d->ndims - 1], last = task0 + ntasks - 1;
    int64_t end = s->first[k][last] + s->use[k][last];
    char on[64], ln[64];
    snprintf(on, sizeof on, "D%d.offsets", k + 1);
    snprintf(ln, sizeof ln, "D%d.lengths", k + 1);
    window w;
    window_init(&w, end - s->first[k][task0], 1);
    int rc = 0;
    for (int64_t t = task0; t < task0 + ntasks && rc == 0; t++)
        for (int64_t at = s->first[k][t]; at < s->first[k][t] + s->use[k][t] && rc == 0; at++) {
            rc = window_at(f, &w, at, end, s->varid[k][0], on, s->varid[k][1], ln, e);
            if (rc) break;
            long long o = w.a[at - w.lo], l = w.b[at - w.lo];
            if (l < 1)
                rc = cio_seterr(e, "%s: %s[%lld] (task %lld) is %lld: expected a length of at least 1", f->path, ln,
                                (long long)at, (long long)t, l);
            else if (o < 0 || o + l > g)
                rc = cio_seterr(e, "%s: %s[%lld] (task %lld): request [%lld, %lld) is beyond the array (%lld "
                                   "elements, 0-based)", f->path, on, (long long)at, (long long)t, o, o + l,
                                (long long)g);
            else if (o % row + l > row)
                rc = cio_seterr(e, "%s: %s[%lld] (task %lld): request [%lld, %lld) crosses a row of the fastest "
                                   "dimension (%lld): E3SM-IO's requests never do", f->path, on, (long long)at,
                                (long long)t, o, o + l, (long long)row);
            else dmap_part_add_run(p, t, o, l);
        }
    window_free(&w);
    return rc;
}

static void nc_close(dmap_file *f)
{
    nc_state *s = f->impl;
    if (!s) return;
    if (s->ncid >= 0) s->lib->close(s->ncid);
    for (int k = 0; k < DMAP_MAX_DECOMPS; k++) {
        cio_free(s->count[k]);
        cio_free(s->first[k]);
        cio_free(s->use[k]);
    }
    cio_free(s);
    f->impl = NULL;
}

int dmap_nc_open(dmap_file *f, int hdf5, cio_err *e)
{
    /* classic files: PnetCDF (as before), or netCDF-C without it; HDF5: netCDF-C */
    const dmap_nclib *lib = hdf5 ? dmap_nclib_netcdf() : dmap_nclib_pnetcdf();
    if (!lib && !hdf5) lib = dmap_nclib_netcdf();
    if (!lib)
        return cio_seterr(e, "%s: a %s decomposition file: this decomp_io was built without %s, which reads it "
                             "(./configure --with-%s=DIR)", f->path, hdf5 ? "netCDF-4 (HDF5)" : "netCDF",
                          hdf5 ? "netCDF-C" : "PnetCDF or netCDF-C", hdf5 ? "netcdf" : "pnetcdf");
    nc_state *s = cio_calloc(1, sizeof *s);
    s->ncid = -1;
    s->lib = lib;
    f->impl = s;
    f->close = nc_close;
    /* a truncated map reads as zeros or whatever the buffer held (indices that look
     * valid, or holes): its size must cover what its superblock or header says */
    struct stat sb;
    long long size = stat(f->path, &sb) == 0 ? (long long)sb.st_size : -1, h5end = hdf5 ? cio_hdf5_stored_end(f->path) : -1;
    if (size >= 0 && h5end > size) return truncated(f, size, h5end, "its HDF5 superblock says the file ends", e);
    int rc = lib->open(f->path, &s->ncid);
    if (rc != 0) {
        s->ncid = -1;
        char why[256];
        cio_nc_open_diagnosis(f->path, why, sizeof why);
        return cio_seterr(e, "%s: cannot open as %s: %s%s", f->path, hdf5 ? "netCDF-4" : "netCDF", lib->strerror(rc), why);
    }
    long long end = !hdf5 && lib->data_end ? lib->data_end(s->ncid) : -1;
    if (end > 0 && size >= 0 && size < end)
        return cio_seterr(e, "%s: the file is %lld bytes, but its header places variable data up to byte %lld: "
                             "truncated?", f->path, size, end);
    if (has_dim(f, s->ncid, "num_decomp")) {
        f->fmt = DMAP_E3SM;
        f->read = e3sm_read;
        return e3sm_header(f, s, e);
    }
    if (has_dim(f, s->ncid, "comm_sz")) {
        f->fmt = DMAP_SCORPIO_NC;
        f->read = scorpio_read;
        return scorpio_header(f, s, e);
    }
    if (has_dim(f, s->ncid, "map_element")) {
        f->fmt = DMAP_PIO_NC;
        f->read = pio_nc_read;
        return pio_nc_header(f, s, e);
    }
    return cio_seterr(e, "%s: a netCDF file, but not a decomposition file: it has no dimension num_decomp (E3SM-IO), "
                         "comm_sz (SCORPIO logger) or map_element (PIO)", f->path);
}

