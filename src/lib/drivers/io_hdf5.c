/* The hdf5 driver: plain parallel HDF5, for users who compare against it.
 *
 * One dataset per variable, named as the variable, in the root group; a record
 * variable's dataset is extendible along its first dimension (chunked, see
 * io_util.h: one record deep by default) and grows with H5Dset_extent as
 * records are written; fixed variables are contiguous (unless chunk sizes or
 * deflate ask otherwise); attributes are HDF5 attributes (text as fixed-length
 * strings).  The file access property list is H5Pset_fapl_mpio with the hints;
 * the transfer property list is H5FD_MPIO_COLLECTIVE or H5FD_MPIO_INDEPENDENT by
 * the iotype (blocking modes only).
 *
 * Each put is ONE H5Dwrite: the file selection is the union of the request's
 * blocks as hyperslabs, and ranks without blocks take part with an empty
 * selection in collective calls.  HDF5 walks a union in file order while the
 * buffer holds the blocks one after another, so when the two orders differ the
 * buffer is first copied into file order (the report counts the bytes).
 *
 * Extending a dataset is collective in HDF5, so a write that adds a record
 * agrees the new extent over the file's communicator (MPI_Allreduce) and every
 * rank calls H5Dset_extent; the engine makes the same number of put calls on
 * every rank for record variables in independent mode too (extend_collective).
 *
 * After each collective H5Dwrite the driver asks which I/O mode HDF5 really
 * used (H5Pget_mpio_actual_io_mode) and, when it fell back to independent I/O,
 * why (H5Pget_mpio_no_collective_cause); the report gives the counts. */
#include "config.h"
#include "drivers/compress.h"
#include "drivers/driver.h"
#include "base/env.h"
#include "drivers/io_util.h"
#include "data/schema.h"

#include <hdf5.h>
#include <hdf5_hl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct h5var {
    char *name;
    hid_t dset;
    int ndims;
    int is_record;
    int chunked;
    hsize_t dims[CIO_MAX_DIMS];     /* current extent */
    int dimids[CIO_MAX_DIMS];       /* the file's dimensions (created files) */
} h5var;

typedef struct h5file {
    hid_t fid, fapl, dxpl;
    int indep, created;
    int union_always;       /* CLIMIO_HDF5_UNION: one H5Dwrite per put even for chunked datasets */
    int ndims;
    char *dimname[64];
    int64_t dimlen[64];
    int nvars;
    h5var *vars;
    cio_chunking chunking;
    int64_t data_bytes;
} h5file;

/* What the report says (this process, every file). */
static struct {
    int64_t mode[5];        /* collective H5Dwrite calls by H5D_mpio_actual_io_mode_t */
    int64_t independent;    /* H5Dwrite calls with the independent transfer list */
    uint32_t causes;        /* H5D_mpio_no_collective_cause_t bits seen */
    int64_t reordered;      /* bytes copied into file order */
    int64_t per_block;      /* H5Dwrite calls of one block of a several-block put (chunked datasets) */
    int64_t meta_bytes, meta_files;     /* files created: size less the datasets' storage */
} report;

static const char *h5_version(void)
{
    static char v[64];
    unsigned maj, min, rel;
    H5get_libversion(&maj, &min, &rel);
    snprintf(v, sizeof v, "HDF5 %u.%u.%u (parallel)", maj, min, rel);
    return v;
}

/* The HDF5 error stack as one line: the outermost and innermost descriptions. */
typedef struct walk_ctx {
    char first[256], last[512];
    int n;
} walk_ctx;

static herr_t walk_cb(unsigned n, const H5E_error2_t *e, void *data)
{
    walk_ctx *w = data;
    (void)n;
    if (w->n++ == 0) snprintf(w->first, sizeof w->first, "%s", e->desc ? e->desc : "");
    char minor[128] = "";
    H5Eget_msg(e->min_num, NULL, minor, sizeof minor);
    snprintf(w->last, sizeof w->last, "%s (%s)", e->desc ? e->desc : "", minor);
    return 0;
}

static int h5_err(cio_dfile *f, const char *call)
{
    walk_ctx w;
    memset(&w, 0, sizeof w);
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, walk_cb, &w);
    H5Eclear2(H5E_DEFAULT);
    if (w.n == 0) return cio_driver_err(f, call, "failed (no HDF5 error message)");
    if (w.n == 1) return cio_driver_err(f, call, "%s", w.last);
    return cio_driver_err(f, call, "%s: %s", w.first, w.last);
}

#define H5C(f, call, expr)                              \
    do {                                                \
        if ((expr) < 0) return h5_err((f), (call));     \
    } while (0)

static hid_t h5type(cio_type t)
{
    switch (t) {
    case CIO_CHAR: return H5T_C_S1;     /* netCDF-4's NC_CHAR: 1-byte strings, null-terminated, ASCII */
    case CIO_BYTE: return H5T_NATIVE_SCHAR;
    case CIO_SHORT: return H5T_NATIVE_SHORT;
    case CIO_INT: return H5T_NATIVE_INT;
    case CIO_FLOAT: return H5T_NATIVE_FLOAT;
    case CIO_DOUBLE: return H5T_NATIVE_DOUBLE;
    default: return H5T_NATIVE_INT64;
    }
}

static h5file *h5_new(cio_dfile *f, MPI_Info info)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);      /* errors come back through h5_err */
    h5file *h = cio_calloc(1, sizeof *h);
    f->priv = h;
    h->fid = h->fapl = h->dxpl = H5I_INVALID_HID;
    h->indep = !cio_mode_collective(f->opts->mode);
    const char *u = cio_getenv("CLIMIO_HDF5_UNION");
    h->union_always = u && *u && strcmp(u, "0") != 0;
    h->fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_mpio(h->fapl, f->comm, info);
    /* metadata written collectively: fewer small writes from rank 0 */
    H5Pset_coll_metadata_write(h->fapl, 1);
    h->dxpl = H5Pcreate(H5P_DATASET_XFER);
    H5Pset_dxpl_mpio(h->dxpl, h->indep ? H5FD_MPIO_INDEPENDENT : H5FD_MPIO_COLLECTIVE);
    /* a write that adds a record must be matched on every rank */
    f->extend_collective = h->indep && f->writable;
    return h;
}

static int h5_create(cio_dfile *f, MPI_Info info)
{
    h5file *h = h5_new(f, info);
    h->created = 1;
    char msg[256];
    if (cio_chunking_parse(f->opts->chunking, &h->chunking, msg, sizeof msg) != 0)
        return cio_driver_err(f, "H5Fcreate", "%s", msg);
    /* the filters asked for must be in this HDF5, able to encode */
    static const struct {
        H5Z_filter_t id;
        const char *name;
    } want[] = {{H5Z_FILTER_DEFLATE, "deflate"}, {H5Z_FILTER_SHUFFLE, "shuffle"}, {H5Z_FILTER_SZIP, "szip"}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        int asked = i == 0 ? f->opts->deflate > 0 : i == 1 ? f->opts->shuffle : f->opts->szip;
        unsigned cfg = 0;
        if (asked && (H5Zfilter_avail(want[i].id) <= 0 || H5Zget_filter_info(want[i].id, &cfg) < 0 ||
                      !(cfg & H5Z_FILTER_CONFIG_ENCODE_ENABLED)))
            return cio_driver_err(f, "H5Zfilter_avail", "%s (HDF5 filter %d) cannot encode in this HDF5", want[i].name,
                                  (int)want[i].id);
    }
    h->fid = H5Fcreate(f->path, H5F_ACC_TRUNC, H5P_DEFAULT, h->fapl);
    if (h->fid < 0) {
        h5_err(f, "H5Fcreate");
        cio_dir_hint(f);
        return -1;
    }
    return 0;
}

static int h5_open(cio_dfile *f, MPI_Info info)
{
    h5file *h = h5_new(f, info);
    h->fid = H5Fopen(f->path, f->writable ? H5F_ACC_RDWR : H5F_ACC_RDONLY, h->fapl);
    if (h->fid < 0) {
        h5_err(f, "H5Fopen");
        cio_dir_hint(f);
        cio_truncation_hint(f);
        return -1;
    }
    return 0;
}

static int h5_def_dim(cio_dfile *f, const char *name, int64_t len, int *dimid)
{
    h5file *h = f->priv;
    if (h->ndims == 64) return cio_driver_err(f, "def_dim", "more than 64 dimensions");
    h->dimname[h->ndims] = cio_strdup(name);
    h->dimlen[h->ndims] = len;
    *dimid = h->ndims++;
    return 0;
}

static h5var *add_var(h5file *h, const char *name)
{
    h->vars = cio_realloc(h->vars, (size_t)(h->nvars + 1) * sizeof *h->vars);
    h5var *v = &h->vars[h->nvars++];
    memset(v, 0, sizeof *v);
    v->name = cio_strdup(name);
    v->dset = H5I_INVALID_HID;
    return v;
}

static int h5_def_var(cio_dfile *f, const char *name, cio_type t, int ndims, const int *dimids, int *varid)
{
    h5file *h = f->priv;
    h5var *v = add_var(h, name);
    *varid = h->nvars - 1;
    v->ndims = ndims;
    for (int i = 0; i < ndims; i++) v->dimids[i] = dimids[i];
    hsize_t maxdims[CIO_MAX_DIMS];
    int64_t dims[CIO_MAX_DIMS], chunk[CIO_MAX_DIMS];
    for (int i = 0; i < ndims; i++) {
        int64_t len = h->dimlen[dimids[i]];
        if (len == CIO_UNLIMITED) {
            if (i != 0) return cio_driver_err(f, "def_var", "%s: the record dimension must come first", name);
            v->is_record = 1;
            v->dims[i] = 0;
            maxdims[i] = H5S_UNLIMITED;
            dims[i] = 1;
        } else {
            v->dims[i] = maxdims[i] = (hsize_t)len;
            dims[i] = len;
        }
    }
    hid_t space = ndims == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(ndims, v->dims, maxdims);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (f->opts->nofill) H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER);
    const cio_driver_opts *o = f->opts;
    int filtered = (o->deflate > 0 || o->shuffle || o->szip) && ndims > 0;
    if (cio_chunk_shape(&h->chunking, ndims, dims, v->is_record, (int64_t)cio_type_size(t), filtered, chunk)) {
        int ppb = o->szip ? cio_szip_fit(t, &chunk[ndims - 1]) : 0;
        hsize_t cs[CIO_MAX_DIMS];
        for (int i = 0; i < ndims; i++) cs[i] = (hsize_t)chunk[i];
        H5Pset_chunk(dcpl, ndims, cs);
        v->chunked = 1;
        /* netCDF-4's order: shuffle, then deflate, then szip */
        if (o->shuffle) H5Pset_shuffle(dcpl);
        if (o->deflate > 0) H5Pset_deflate(dcpl, (unsigned)o->deflate);
        /* mandatory, not H5Pset_szip's optional: a chunk szip cannot shrink (incompressible
         * data) is then a write error; as an optional filter HDF5 1.10 stores it in a way its
         * reader then fails on ("szip_filter: decompression failed"), and the run passed */
        unsigned szp[2] = {H5_SZIP_NN_OPTION_MASK, (unsigned)ppb};
        if (ppb) H5Pset_filter(dcpl, H5Z_FILTER_SZIP, H5Z_FLAG_MANDATORY, 2, szp);
    }
    v->dset = H5Dcreate2(h->fid, name, h5type(t), space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (v->dset < 0) h5_err(f, "H5Dcreate2");     /* before other calls clear the error stack */
    H5Pclose(dcpl);
    H5Sclose(space);
    return v->dset < 0 ? -1 : 0;
}

static int h5_put_att(cio_dfile *f, int varid, const char *name, cio_type t, int64_t len, const void *vals)
{
    h5file *h = f->priv;
    hid_t loc = varid < 0 ? h->fid : h->vars[varid].dset;
    hid_t type, space;
    if (t == CIO_CHAR) {
        /* a fixed-length string of exactly len characters */
        type = H5Tcopy(H5T_C_S1);
        H5Tset_size(type, len > 0 ? (size_t)len : 1);
        H5Tset_strpad(type, H5T_STR_NULLPAD);
        space = H5Screate(H5S_SCALAR);
    } else {
        type = H5Tcopy(h5type(t));
        hsize_t n = (hsize_t)len;
        space = len > 0 ? H5Screate_simple(1, &n, NULL) : H5Screate(H5S_NULL);
    }
    hid_t a = H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    herr_t rc = -1;
    if (a < 0) {
        h5_err(f, "H5Acreate2");
    } else {
        static const char empty[1] = {0};
        rc = len > 0 ? H5Awrite(a, type, vals) : (t == CIO_CHAR ? H5Awrite(a, type, empty) : 0);
        if (rc < 0) h5_err(f, "H5Awrite");
        H5Aclose(a);
    }
    H5Tclose(type);
    H5Sclose(space);
    return a < 0 || rc < 0 ? -1 : 0;
}

/* Dimensions as netCDF-4 stores them, so netCDF readers (ncdump, xarray) see named
 * dimensions and coordinate variables instead of phony_dim_N: each dimension is an
 * HDF5 dimension scale (H5DSset_scale) named after it, either its coordinate
 * variable (one dimension of the same name) or an empty dataset whose NAME says
 * "This is a netCDF dimension but not a netCDF variable", and every variable's
 * dimensions are attached (H5DSattach_scale).  Collective: every rank makes the
 * same metadata calls. */
static int find_coordinate(const h5file *h, int dim)
{
    for (int i = 0; i < h->nvars; i++)
        if (h->vars[i].ndims == 1 && h->vars[i].dimids[0] == dim && strcmp(h->vars[i].name, h->dimname[dim]) == 0)
            return i;
    return -1;
}

static int dimension_scales(cio_dfile *f, h5file *h)
{
    hid_t scale[64];
    int owned[64];
    for (int d = 0; d < h->ndims; d++) {
        owned[d] = 0;
        int c = find_coordinate(h, d);
        if (c >= 0) {
            scale[d] = h->vars[c].dset;
            H5C(f, "H5DSset_scale", H5DSset_scale(scale[d], h->dimname[d]));
            continue;
        }
        int taken = 0;      /* a variable of another shape with the dimension's name: no scale */
        for (int i = 0; i < h->nvars; i++) taken |= strcmp(h->vars[i].name, h->dimname[d]) == 0;
        if (taken) {
            scale[d] = H5I_INVALID_HID;
            continue;
        }
        int rec = h->dimlen[d] == CIO_UNLIMITED;
        hsize_t len = rec ? 0 : (hsize_t)h->dimlen[d], maxlen = rec ? H5S_UNLIMITED : len, chunk = 1024;
        hid_t space = H5Screate_simple(1, &len, &maxlen);
        hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
        if (rec) H5Pset_chunk(dcpl, 1, &chunk);
        H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER);
        scale[d] = H5Dcreate2(h->fid, h->dimname[d], H5T_IEEE_F32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        H5Pclose(dcpl);
        H5Sclose(space);
        if (scale[d] < 0) return h5_err(f, "H5Dcreate2");
        owned[d] = 1;
        char name[80];
        snprintf(name, sizeof name, "This is a netCDF dimension but not a netCDF variable.%10lld",
                 (long long)(rec ? 0 : h->dimlen[d]));
        H5C(f, "H5DSset_scale", H5DSset_scale(scale[d], name));
    }
    int rc = 0;
    for (int i = 0; i < h->nvars && rc == 0; i++) {
        h5var *v = &h->vars[i];
        if (v->ndims == 1 && find_coordinate(h, v->dimids[0]) == i) continue;   /* not attached to itself */
        for (int k = 0; k < v->ndims && rc == 0; k++)
            if (scale[v->dimids[k]] >= 0 && H5DSattach_scale(v->dset, scale[v->dimids[k]], (unsigned)k) < 0)
                rc = h5_err(f, "H5DSattach_scale");
    }
    for (int d = 0; d < h->ndims; d++)
        if (owned[d]) H5Dclose(scale[d]);
    return rc;
}

static int h5_enddef(cio_dfile *f)
{
    h5file *h = f->priv;
    return h->created ? dimension_scales(f, h) : 0;
}

static int h5_inq_varid(cio_dfile *f, const char *name, int *varid)
{
    h5file *h = f->priv;
    for (int i = 0; i < h->nvars; i++)
        if (strcmp(h->vars[i].name, name) == 0) {
            *varid = i;
            return 0;
        }
    htri_t exists = H5Lexists(h->fid, name, H5P_DEFAULT);
    if (exists <= 0) return cio_driver_err(f, "H5Lexists", "no dataset '%s'", name);
    h5var *v = add_var(h, name);
    *varid = h->nvars - 1;
    H5C(f, "H5Dopen2", v->dset = H5Dopen2(h->fid, name, H5P_DEFAULT));
    hid_t space = H5Dget_space(v->dset);
    hsize_t maxdims[CIO_MAX_DIMS];
    v->ndims = H5Sget_simple_extent_ndims(space);
    if (v->ndims > CIO_MAX_DIMS) v->ndims = CIO_MAX_DIMS;
    H5Sget_simple_extent_dims(space, v->dims, maxdims);
    v->is_record = v->ndims > 0 && maxdims[0] == H5S_UNLIMITED;
    H5Sclose(space);
    hid_t dcpl = H5Dget_create_plist(v->dset);
    v->chunked = H5Pget_layout(dcpl) == H5D_CHUNKED;
    H5Pclose(dcpl);
    return 0;
}

static int h5_inq_nrecs(cio_dfile *f, int64_t *nrecs)
{
    h5file *h = f->priv;
    hsize_t n = 0;
    for (int i = 0; i < h->nvars; i++)
        if (h->vars[i].is_record && h->vars[i].dims[0] > n) n = h->vars[i].dims[0];
    *nrecs = (int64_t)n;
    return 0;
}

/* A dataset's type by the netCDF name of the same type. */
static void type_name(hid_t t, char *buf, size_t len)
{
    H5T_class_t c = H5Tget_class(t);
    size_t sz = H5Tget_size(t);
    const char *n = NULL;
    if (c == H5T_INTEGER) n = sz == 1 ? "byte" : sz == 2 ? "short" : sz == 4 ? "int" : sz == 8 ? "int64" : NULL;
    else if (c == H5T_FLOAT) n = sz == 4 ? "float" : sz == 8 ? "double" : NULL;
    else if (c == H5T_STRING) n = sz == 1 ? "char" : "string";  /* 1-byte strings: netCDF-4's NC_CHAR, as written */
    if (n) snprintf(buf, len, "%s%s", c == H5T_INTEGER && H5Tget_sign(t) == H5T_SGN_NONE ? "u" : "", n);
    else snprintf(buf, len, "HDF5 type class %d of %zu bytes", (int)c, sz);
}

/* H5DSiterate_scales: the name of the first dimension scale attached. */
static herr_t scale_name(hid_t did, unsigned dim, hid_t scale, void *data)
{
    (void)did;
    (void)dim;
    size_t cap = sizeof ((cio_var_layout *)0)->dim[0];
    char path[sizeof ((cio_var_layout *)0)->dim[0] + 1], *out = data;
    if (H5Iget_name(scale, path, sizeof path) <= 0) return 1;
    const char *name = path[0] == '/' ? path + 1 : path;   /* in the root group */
    size_t l = strlen(name) < cap ? strlen(name) : cap - 1;
    memcpy(out, name, l);
    out[l] = '\0';
    return 1;
}

/* Dimension names come from the scales attached (dimension_scales); a dimension
 * without one is left unnamed, and a coordinate variable is its own scale. */
static int h5_inq_var(cio_dfile *f, int varid, cio_var_layout *out)
{
    h5file *h = f->priv;
    if (varid < 0 || varid >= h->nvars) return cio_driver_err(f, "inq_var", "bad variable id %d", varid);
    h5var *v = &h->vars[varid];
    memset(out, 0, sizeof *out);
    hid_t t = H5Dget_type(v->dset);
    H5C(f, "H5Dget_type", t);
    type_name(t, out->type, sizeof out->type);
    H5Tclose(t);
    hid_t space = H5Dget_space(v->dset);
    H5C(f, "H5Dget_space", space);
    hsize_t cur[H5S_MAX_RANK], max[H5S_MAX_RANK];
    int nd = H5Sget_simple_extent_dims(space, cur, max);
    H5Sclose(space);
    H5C(f, "H5Sget_simple_extent_dims", nd);
    out->ndims = nd;
    out->is_record = nd > 0 && max[0] == H5S_UNLIMITED;
    int own = nd == 1 && H5DSis_scale(v->dset) > 0;
    for (int k = 0; k < nd && k < CIO_MAX_DIMS; k++) {
        out->len[k] = (int64_t)cur[k];
        if (own) snprintf(out->dim[k], sizeof out->dim[k], "%s", v->name);
        else if (H5DSget_num_scales(v->dset, (unsigned)k) > 0)
            H5DSiterate_scales(v->dset, (unsigned)k, NULL, scale_name, out->dim[k]);
    }
    H5Eclear2(H5E_DEFAULT);
    return 0;
}

/* Grow a record variable's dataset to hold the request's records; every rank
 * calls this for the same put, so the MPI_Allreduce and H5Dset_extent match. */
static int extend(cio_dfile *f, h5var *v, const cio_req *r)
{
    long long need = 0, all = 0;
    for (int b = 0; b < r->nblocks; b++) {
        long long end = r->start[(size_t)b * (size_t)r->ndims] + r->count[(size_t)b * (size_t)r->ndims];
        if (end > need) need = end;
    }
    MPI_Allreduce(&need, &all, 1, MPI_LONG_LONG, MPI_MAX, f->comm);
    if ((hsize_t)all <= v->dims[0]) return 0;
    v->dims[0] = (hsize_t)all;
    H5C(f, "H5Dset_extent", H5Dset_extent(v->dset, v->dims));
    return 0;
}

static void count_mode(cio_dfile *f, hid_t dxpl)
{
    (void)f;
    H5D_mpio_actual_io_mode_t m;
    if (H5Pget_mpio_actual_io_mode(dxpl, &m) >= 0 && (unsigned)m < 5) report.mode[m]++;
    if (m == H5D_MPIO_NO_COLLECTIVE) {
        uint32_t local = 0, global = 0;
        if (H5Pget_mpio_no_collective_cause(dxpl, &local, &global) >= 0) report.causes |= global;
    }
}

/* The union of nblocks (nd > 0) blocks selected in fspace, and the memory space
 * of their packed buffer; rs gets the buffer's runs in file order when there are
 * several blocks.  A negative id when HDF5 refuses the selection. */
static hid_t select_blocks(cio_dfile *f, const h5var *v, hid_t fspace, int nblocks, const int64_t *start,
                           const int64_t *count, int64_t nelems, size_t ts, cio_runs *rs)
{
    int nd = v->ndims;
    int64_t shape[CIO_MAX_DIMS];
    for (int i = 0; i < nd; i++) shape[i] = (int64_t)v->dims[i];
    int64_t src = 0;
    hsize_t st[CIO_MAX_DIMS], ct[CIO_MAX_DIMS];
    for (int b = 0; b < nblocks; b++) {
        const int64_t *s = start + (size_t)b * (size_t)nd, *c = count + (size_t)b * (size_t)nd;
        for (int i = 0; i < nd; i++) {
            st[i] = (hsize_t)s[i];
            ct[i] = (hsize_t)c[i];
        }
        if (H5Sselect_hyperslab(fspace, b == 0 ? H5S_SELECT_SET : H5S_SELECT_OR, st, NULL, ct, NULL) < 0) {
            h5_err(f, "H5Sselect_hyperslab");
            return -1;
        }
        if (nblocks > 1) src += cio_runs_add_block(rs, nd, shape, s, c, (int64_t)ts, 0, src);
    }
    /* one block: its own shape, so HDF5 maps memory to chunks by whole
     * hyperslabs ("shape same") instead of element by element */
    if (nblocks == 1) return H5Screate_simple(nd, ct, NULL);
    hsize_t n = (hsize_t)nelems;
    cio_runs_sort_merge(rs, INT64_MAX);
    return H5Screate_simple(1, &n, NULL);
}

/* HDF5 walks a union of blocks in file order: a buffer in that order (a write's
 * data copied in) when buf's runs are not, else NULL. */
static void *file_order_buffer(const cio_runs *rs, const void *buf, int64_t nelems, size_t ts, int is_read)
{
    if (cio_runs_buffer_in_order(rs)) return NULL;
    void *tmp = cio_malloc((size_t)nelems * ts);
    if (!is_read) {
        int64_t pos = 0;
        for (int64_t i = 0; i < rs->n; i++) {
            memcpy((char *)tmp + pos, (const char *)buf + rs->r[i].src, (size_t)rs->r[i].len);
            pos += rs->r[i].len;
        }
        report.reordered += pos;
    }
    return tmp;
}

/* One H5Dwrite (or H5Dread) of `nblocks` blocks packed in buf; none selects
 * nothing (a collective call on a rank without data). */
static int one_xfer(cio_dfile *f, h5var *v, int is_read, cio_type type, int nblocks, const int64_t *start,
                    const int64_t *count, int64_t nelems, void *buf)
{
    h5file *h = f->priv;
    const char *call = is_read ? "H5Dread" : "H5Dwrite";
    size_t ts = cio_type_size(type);
    hid_t fspace = H5Dget_space(v->dset);
    hid_t mspace;
    void *tmp = NULL;
    cio_runs rs = {0};
    static char dummy[16];
    if (nblocks == 0) {
        H5Sselect_none(fspace);
        hsize_t one = 1;
        mspace = H5Screate_simple(1, &one, NULL);
        H5Sselect_none(mspace);
        buf = dummy;
    } else if (v->ndims == 0) {
        mspace = H5Screate(H5S_SCALAR);
    } else {
        mspace = select_blocks(f, v, fspace, nblocks, start, count, nelems, ts, &rs);
        if (mspace < 0) {
            H5Sclose(fspace);
            cio_runs_free(&rs);
            return -1;
        }
        if (nblocks > 1) tmp = file_order_buffer(&rs, buf, nelems, ts, is_read);
    }
    void *io = tmp ? tmp : buf;
    herr_t rc = is_read ? H5Dread(v->dset, h5type(type), mspace, fspace, h->dxpl, io)
                        : H5Dwrite(v->dset, h5type(type), mspace, fspace, h->dxpl, io);
    if (rc < 0) {
        h5_err(f, call);    /* before other calls clear the error stack */
        if (!is_read && f->opts->szip && v->chunked) {
            size_t l = strlen(f->err);
            snprintf(f->err + l, sizeof f->err - l, " (szip, mandatory here, could not code a chunk smaller than its "
                     "data: incompressible values, as --data pattern writes; HDF5 1.10 would store such a chunk where its "
                     "own reader fails on it; use --data model, or deflate)");
        }
    }
    else if (!is_read) h->data_bytes += nelems * (int64_t)ts;
    if (rc >= 0 && tmp && is_read) {
        int64_t pos = 0;
        for (int64_t i = 0; i < rs.n; i++) {
            memcpy((char *)buf + rs.r[i].src, (char *)tmp + pos, (size_t)rs.r[i].len);
            pos += rs.r[i].len;
        }
    }
    if (rc >= 0 && !is_read) {
        if (!h->indep) count_mode(f, h->dxpl);
        else report.independent++;
    }
    cio_free(tmp);
    cio_runs_free(&rs);
    H5Sclose(mspace);
    H5Sclose(fspace);
    return rc < 0 ? -1 : 0;
}

static int h5_xfer(cio_dfile *f, const cio_req *r, int is_read)
{
    h5file *h = f->priv;
    if (r->varid < 0 || r->varid >= h->nvars) return cio_driver_err(f, "H5Dwrite", "bad variable id %d", r->varid);
    h5var *v = &h->vars[r->varid];
    int coll = !h->indep;
    if (!is_read && v->is_record && (coll || f->extend_collective) && extend(f, v, r) != 0) return -1;
    if (!coll && r->nblocks == 0) return 0;
    /* Several blocks of a chunked dataset: HDF5 1.10 maps a memory selection
     * that is not the file selection's shape to the chunks element by element
     * (several times slower than the write itself), so each block gets its own
     * H5Dwrite with a memory space of its shape; every rank makes max_nblocks of
     * them in collective mode.  CLIMIO_HDF5_UNION=1 keeps one H5Dwrite per put. */
    int most = coll && r->max_nblocks > r->nblocks ? r->max_nblocks : r->nblocks;
    if (!v->chunked || most <= 1 || h->union_always)
        return one_xfer(f, v, is_read, r->type, r->nblocks, r->start, r->count, r->nelems, r->buf);
    int nd = v->ndims;
    char *buf = r->buf;
    size_t ts = cio_type_size(r->type);
    for (int b = 0; b < most; b++) {
        int has = b < r->nblocks;
        int64_t n = 1;
        if (has)
            for (int i = 0; i < nd; i++) n *= r->count[(size_t)b * (size_t)nd + (size_t)i];
        if (!has && !coll) break;
        if (one_xfer(f, v, is_read, r->type, has, has ? r->start + (size_t)b * (size_t)nd : NULL,
                     has ? r->count + (size_t)b * (size_t)nd : NULL, has ? n : 0, buf) != 0)
            return -1;
        if (has) buf += (size_t)n * ts;
        if (!is_read) report.per_block++;
    }
    return 0;
}

static int h5_put(cio_dfile *f, const cio_req *r) { return h5_xfer(f, r, 0); }
static int h5_get(cio_dfile *f, const cio_req *r) { return h5_xfer(f, r, 1); }

static int h5_wait(cio_dfile *f)
{
    (void)f;    /* never called: the driver has no nonblocking mode */
    return 0;
}

/* H5Fflush writes HDF5's cached metadata and raw data; MPI_File_sync on the
 * MPI-IO handle under it then makes them durable (HDF5 1.10's mpio driver syncs
 * in its flush too; the second sync finds nothing dirty). */
static int h5_sync(cio_dfile *f)
{
    h5file *h = f->priv;
    if (H5Fflush(h->fid, H5F_SCOPE_GLOBAL) < 0) return h5_err(f, "H5Fflush");
    MPI_File *fh = NULL;
    if (H5Fget_vfd_handle(h->fid, h->fapl, (void **)&fh) < 0 || !fh) return h5_err(f, "H5Fget_vfd_handle");
    int rc = MPI_File_sync(*fh);
    if (rc != MPI_SUCCESS) {
        char msg[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, msg, &len);
        return cio_driver_err(f, "MPI_File_sync", "%s", msg);
    }
    return 0;
}

static int h5_file_info(cio_dfile *f, MPI_Info *info)
{
    h5file *h = f->priv;
    /* the MPI file handle under the mpio driver gives the hints MPI-IO applied */
    MPI_File *fh = NULL;
    if (H5Fget_vfd_handle(h->fid, h->fapl, (void **)&fh) >= 0 && fh) {
        int rc = MPI_File_get_info(*fh, info);
        if (rc == MPI_SUCCESS) return 0;
    }
    H5Eclear2(H5E_DEFAULT);
    /* else the hints as passed to HDF5 */
    hid_t fapl = H5Fget_access_plist(h->fid);
    MPI_Comm comm = MPI_COMM_NULL;
    herr_t rc = H5Pget_fapl_mpio(fapl, &comm, info);
    H5Pclose(fapl);
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
    if (rc < 0) return h5_err(f, "H5Pget_fapl_mpio");
    return 0;
}

static int h5_get_att(cio_dfile *f, int varid, const char *name, cio_type t, int64_t maxlen, void *vals, int64_t *len)
{
    h5file *h = f->priv;
    hid_t loc = varid < 0 ? h->fid : h->vars[varid].dset;
    htri_t ex = H5Aexists(loc, name);
    if (ex < 0) return h5_err(f, "H5Aexists");
    if (ex == 0) return 1;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a < 0) return h5_err(f, "H5Aopen");
    hid_t ftype = H5Aget_type(a), space = H5Aget_space(a);
    herr_t rc;
    if (H5Tget_class(ftype) == H5T_STRING) {
        size_t n = H5Tget_size(ftype);
        char *tmp = cio_calloc(n + 1, 1);
        hid_t mt = H5Tcopy(ftype);
        rc = H5Aread(a, mt, tmp);
        H5Tclose(mt);
        *len = (int64_t)strnlen(tmp, n);
        if (t != CIO_CHAR) rc = -1;
        else memcpy(vals, tmp, (size_t)(*len < maxlen ? *len : maxlen));
        cio_free(tmp);
    } else {
        hssize_t n = H5Sget_simple_extent_npoints(space);
        *len = n;
        void *tmp = cio_malloc((size_t)(n > 0 ? n : 1) * cio_type_size(t));
        rc = n > 0 ? H5Aread(a, h5type(t), tmp) : 0;
        if (rc >= 0) memcpy(vals, tmp, (size_t)(n < maxlen ? n : maxlen) * cio_type_size(t));
        cio_free(tmp);
    }
    H5Tclose(ftype);
    H5Sclose(space);
    H5Aclose(a);
    if (rc < 0) return h5_err(f, "H5Aread");
    return 0;
}

static int h5_close(cio_dfile *f)
{
    h5file *h = f->priv;
    int bad = 0;
    /* the metadata HDF5 wrote: the closed file's size less the datasets' storage
     * (the size is only final after H5Fclose has flushed the metadata cache) */
    hsize_t data = 0;
    for (int i = 0; i < h->nvars; i++)
        if (h->vars[i].dset >= 0) data += H5Dget_storage_size(h->vars[i].dset);
    for (int i = 0; i < h->nvars; i++) {
        if (h->vars[i].dset >= 0 && H5Dclose(h->vars[i].dset) < 0) bad = 1;
        cio_free(h->vars[i].name);
    }
    for (int i = 0; i < h->ndims; i++) cio_free(h->dimname[i]);
    cio_free(h->vars);
    H5Pclose(h->dxpl);
    H5Pclose(h->fapl);
    if (h->fid >= 0 && H5Fclose(h->fid) < 0) bad = 2;
    int64_t bytes = h->data_bytes;
    struct stat sb;
    if (!bad && h->created && f->rank == 0 && stat(f->path, &sb) == 0 && (hsize_t)sb.st_size > data) {
        report.meta_bytes += (int64_t)sb.st_size - (int64_t)data;
        report.meta_files++;
    }
    cio_free(h);
    f->priv = NULL;
    if (bad) return h5_err(f, bad == 1 ? "H5Dclose" : "H5Fclose");
    /* compressed data may take less room than it holds: no size check then */
    return f->writable ? cio_check_file_size(f, -1, cio_compress_any(f->opts) ? 0 : bytes) : 0;
}

static void h5_describe(char *buf, size_t len)
{
    static const char *names[5] = {"no_collective", "chunk_independent", "chunk_collective", "chunk_mixed",
                                   "contiguous_collective"};
    size_t used = 0;
    buf[0] = '\0';
    int64_t coll = 0;
    for (int i = 0; i < 5; i++) coll += report.mode[i];
    if (coll) {
        used += (size_t)snprintf(buf + used, len - used, "collective H5Dwrite by actual I/O mode (rank 0):");
        for (int i = 0; i < 5 && used < len; i++)
            if (report.mode[i])
                used += (size_t)snprintf(buf + used, len - used, " %s %lld", names[i], (long long)report.mode[i]);
        if (report.mode[0] && used < len)
            used += (size_t)snprintf(buf + used, len - used, " (no-collective cause bits 0x%x)", report.causes);
    }
    if (report.independent && used < len)
        used += (size_t)snprintf(buf + used, len - used, "%sindependent H5Dwrite %lld (rank 0)", used ? "; " : "",
                                 (long long)report.independent);
    if (report.per_block && used < len)
        used += (size_t)snprintf(buf + used, len - used, "%s%lld H5Dwrite calls of single blocks (several-block "
                                 "puts to chunked datasets)", used ? "; " : "", (long long)report.per_block);
    if (report.reordered && used < len)
        used += (size_t)snprintf(buf + used, len - used, "%s%lld bytes reordered into file order", used ? "; " : "",
                                 (long long)report.reordered);
    if (report.meta_files && used < len)
        snprintf(buf + used, len - used, "%sHDF5 metadata %lld bytes in %lld files created (file size less dataset "
                 "storage)", used ? "; " : "", (long long)report.meta_bytes, (long long)report.meta_files);
}

static const char *h5_refusal(cio_mode m)
{
    return cio_mode_nonblocking(m) ? "HDF5 1.10 has no nonblocking API; use a blocking iotype, or "
                                     "--nc4_nonblocking_fallback true to run the blocking equivalent"
                                   : NULL;
}

const cio_driver cio_driver_hdf5 = {
    .name = "hdf5",
    .description = "plain parallel HDF5: one dataset per variable, collective or independent transfers",
    .modes = CIO_MODES_BLOCKING,
    .formats = CIO_FMT_BIT(CIO_FMT_HDF5),
    .default_format = CIO_FMT_HDF5,
    .stores_data = 1,
    .fill_formats = CIO_FMT_BIT(CIO_FMT_HDF5),
    .hint_formats = CIO_FMT_BIT(CIO_FMT_HDF5),
    .filter_formats = CIO_FMT_BIT(CIO_FMT_HDF5),
    .filters_collective = 1,
    .ior_api = "HDF5",
    .open_diagnosis = cio_nc_open_diagnosis,
    .refusal = h5_refusal,
    .version = h5_version,
    .create = h5_create,
    .open = h5_open,
    .def_dim = h5_def_dim,
    .def_var = h5_def_var,
    .put_att = h5_put_att,
    .enddef = h5_enddef,
    .inq_varid = h5_inq_varid,
    .inq_nrecs = h5_inq_nrecs,
    .inq_var = h5_inq_var,
    .put = h5_put,
    .get = h5_get,
    .wait = h5_wait,
    .close = h5_close,
    .sync = h5_sync,
    .sync_closed = cio_sync_closed_path,
    .file_info = h5_file_info,
    .get_att = h5_get_att,
    .describe = h5_describe,
};
