/* The netcdf driver: netCDF-C over MPI-IO (nc_create_par / nc_open_par).
 *
 * Formats: nc4 (NETCDF4, over parallel HDF5), nc4c (NETCDF4 | CLASSIC_MODEL) and,
 * where netCDF-C was built with its PnetCDF dispatch, cdf1/cdf2/cdf5.
 * Modes: the two blocking ones; netCDF-C has no nonblocking API (the engine
 * refuses a nonblocking iotype unless --nc4_nonblocking_fallback asks to run the
 * blocking equivalent).  Collective or independent access per variable with
 * nc_var_par_access; one nc_put_vara per block.  In collective access every rank
 * makes the same number of calls: max_nblocks of them, with a zero count where a
 * rank has fewer blocks.
 *
 * netCDF-4 extends a record variable's dataset only in collective access
 * (NC_ECANTEXTEND otherwise) and netCDF-C 4.9 extends only when data is written,
 * so in blocking_independent mode the record variables of netCDF-4 files are
 * written collectively (the report counts these writes); fixed variables and
 * all reads are independent.
 *
 * A scalar has no zero-count form, so in collective access a scalar is written
 * by switching it to independent access around the write (every rank switches).
 *
 * Storage of netCDF-4 variables (see io_util.h, cio_chunk_shape):
 *   chunking auto (default): record variables chunked one record deep with the
 *     whole extent of the other dimensions (halved from the outermost down to at
 *     most 64 MiB a chunk), so each output event writes whole chunks and no chunk
 *     is shared between records; fixed variables contiguous (no chunk index, and
 *     parallel HDF5 writes contiguous datasets collectively with one MPI call).
 *   chunking contiguous: as auto (record variables cannot be contiguous).
 *   chunking default: no nc_def_var_chunking: netCDF-C's own choice (its
 *     default chunk sizes for record variables, contiguous fixed ones), as a
 *     model that never sets chunks gets.
 *   chunking c0,c1,...: those chunk sizes for variables of that many dimensions.
 *   deflate N: deflate level N for every non-scalar variable (chunked), with byte
 *     shuffle first when shuffle is set; szip and quantization (float/double data
 *     variables) likewise, under every chunking, chunking default included.
 *   nofill (default true): nc_set_fill NC_NOFILL.
 *
 * nc_serial: a file whose communicator has one rank is created and opened with
 * the serial API, as FMS mpp_io writes every single-writer file:
 * nc__create(path, cmode, 0, size_hint) and nc__open(path, mode, size_hint)
 * (FMS: NC_BLKSZ, default 64 KiB; size_hint_env reads it per file as FMS mpp_open
 * does: NC_BLKSZ_<file name>, then NC_BLKSZ, see nc_blksz.h), no nc_var_par_access;
 * the classic formats
 * are then netCDF-C's own (no PnetCDF dispatch needed).
 * header_pad: classic files end define mode with nc__enddef(h_minfree =
 * header_pad, v_align 4, v_minfree 0, r_align 4), FMS's header_buffer_val. */
#include "config.h"
#include "drivers/compress.h"
#include "drivers/driver.h"
#include "drivers/io_util.h"
#include "drivers/nc_blksz.h"
#include "base/params.h"
#include "data/schema.h"

#include <netcdf.h>
#include <netcdf_filter.h>
#include <netcdf_par.h>
#include <stdio.h>
#include <string.h>

typedef struct ncv {
    int ndims;
    int is_record;
} ncv;

typedef struct ncd_file {
    int ncid;
    int nc4;                /* an HDF5-based file */
    int serial;             /* opened with the serial API (nc_serial, one rank) */
    int indep;
    int nvars, varcap;
    ncv *vars;
    int ndims, dimcap;
    int64_t *dimlen;
    cio_chunking chunking;
    int64_t data_bytes;
} ncd_file;

static struct {
    int64_t coll_record_writes;     /* independent mode: record-variable writes made collective */
    int64_t scalar_switches;
} report;

static const char *ncd_version(void)
{
    static char v[160];
    snprintf(v, sizeof v, "netCDF-C %s", nc_inq_libvers());
    /* "4.9.0 of Aug  7 2022 23:42:36 $": drop the RCS-style " $" */
    size_t n = strlen(v);
    while (n > 0 && (v[n - 1] == '$' || v[n - 1] == ' ')) v[--n] = '\0';
    return v;
}

static int ncd_err(cio_dfile *f, const char *call, int rc) { return cio_driver_err(f, call, "%s", nc_strerror(rc)); }

#define NCC(f, call, expr)                                     \
    do {                                                       \
        int rc_ = (expr);                                      \
        if (rc_ != NC_NOERR) return ncd_err((f), (call), rc_); \
    } while (0)

static nc_type nctype(cio_type t)
{
    static const nc_type m[CIO_NTYPES] = {NC_CHAR, NC_BYTE, NC_SHORT, NC_INT, NC_FLOAT, NC_DOUBLE, NC_INT64};
    return m[t];
}

/* ---------------------------------------------------------------- parameters */
static const cio_param_spec ncd_params[] = {
    {"nc_serial", CIO_P_BOOL, "false",
     "netcdf: files written by one rank use the serial netCDF-C API (nc__create/nc__open), not nc_create_par", 0, 0,
     0, 0},
    {"size_hint", CIO_P_SIZE, "0", "netcdf with nc_serial: nc__create chunk-size hint in bytes (0: library default)",
     0, 0, 1073741824, 0},
    {"size_hint_env", CIO_P_BOOL, "false",
     "netcdf with nc_serial: the chunk-size hint of each file as FMS mpp_open takes it, from NC_BLKSZ_<file name>, "
     "else NC_BLKSZ, else 64k (size_hint ignored)", 0, 0, 0, 0},
    CIO_PARAM_END,
};

typedef struct ncd_conf {
    int serial;             /* one-rank files through the serial API */
    int64_t size_hint;      /* nc__create / nc__open chunk-size hint, 0: the library's */
    int size_hint_env;      /* the hint from NC_BLKSZ_<file> / NC_BLKSZ, as FMS */
} ncd_conf;

static int ncd_configure(const cio_params *prm, const cio_driver_opts *o, void **conf, cio_err *e)
{
    ncd_conf *c = cio_calloc(1, sizeof *c);
    if (prm) {
        c->serial = cio_param_bool(prm, "nc_serial");
        c->size_hint = cio_param_int(prm, "size_hint");
        c->size_hint_env = cio_param_bool(prm, "size_hint_env");
    }
    /* what the kernel asked (FMS's and MAPL's single writers) */
    c->serial |= o->serial;
    c->size_hint_env |= o->size_hint_env;
    if (o->size_hint) c->size_hint = o->size_hint;
    if (c->size_hint_env && cio_nc_blksz_check_env(e->msg, sizeof e->msg) != 0) {
        e->code = 1;
        cio_free(c);
        return -1;
    }
    *conf = c;
    return 0;
}

/* The chunk-size hint is the serial API's (nc__create); size_hint_env replaces size_hint. */
static int ncd_param_idle(const cio_params *prm, const cio_driver_opts *o, const char *key, char *why, size_t n)
{
    int serial = cio_param_bool(prm, "nc_serial") || o->serial;
    if ((!strcmp(key, "size_hint") || !strcmp(key, "size_hint_env")) && !serial) {
        snprintf(why, n, ": it is the serial API's chunk-size hint (nc__create), and --nc_serial is off");
        return 1;
    }
    if (!strcmp(key, "size_hint") && (cio_param_bool(prm, "size_hint_env") || o->size_hint_env)) {
        snprintf(why, n, ": --size_hint_env takes each file's hint from NC_BLKSZ instead");
        return 1;
    }
    return 0;
}

static const ncd_conf *ncd_conf_of(const cio_dfile *f)
{
    static const ncd_conf defaults = {0, 0, 0};
    return f->opts->conf ? f->opts->conf : &defaults;
}

/* The first serial file's chunk-size hint, asked and used, for the report. */
static struct {
    int set;
    char file[256], src[160];
    int64_t asked, used;
} blksz_note;

/* The chunk-size hint of a serial file: size_hint, or as FMS from NC_BLKSZ. */
static int serial_hint(cio_dfile *f, size_t *hint, char *src, size_t srclen)
{
    const ncd_conf *c = ncd_conf_of(f);
    *hint = (size_t)c->size_hint;
    snprintf(src, srclen, "size_hint");
    if (!c->size_hint_env) return 0;
    int64_t h = 0;
    char err[CIO_ERRMSG_LEN];
    if (cio_nc_blksz(f->path, &h, src, srclen, err, sizeof err) != 0) return cio_driver_err(f, "NC_BLKSZ", "%s", err);
    *hint = (size_t)h;
    return 0;
}

static void note_hint(const cio_dfile *f, const char *src, size_t asked, size_t used)
{
    if (blksz_note.set) return;
    const char *slash = strrchr(f->path, '/');
    blksz_note.set = 1;
    snprintf(blksz_note.file, sizeof blksz_note.file, "%s", slash ? slash + 1 : f->path);
    snprintf(blksz_note.src, sizeof blksz_note.src, "%s", src);
    blksz_note.asked = (int64_t)asked;
    blksz_note.used = (int64_t)used;
}

static ncd_file *ncd_new(cio_dfile *f)
{
    ncd_file *p = cio_calloc(1, sizeof *p);
    f->priv = p;
    p->serial = ncd_conf_of(f)->serial && f->nprocs == 1;
    p->indep = p->serial || !cio_mode_collective(f->opts->mode);
    return p;
}

static void remember_var(ncd_file *p, int varid, int ndims, int is_record)
{
    if (varid >= p->varcap) {
        int cap = p->varcap ? 2 * p->varcap : 16;
        while (cap <= varid) cap *= 2;
        p->vars = cio_realloc(p->vars, (size_t)cap * sizeof *p->vars);
        memset(p->vars + p->varcap, 0, (size_t)(cap - p->varcap) * sizeof *p->vars);
        p->varcap = cap;
    }
    p->vars[varid] = (ncv){ndims, is_record};
    if (varid >= p->nvars) p->nvars = varid + 1;
}

/* The access a variable's writes use (reads are independent in independent mode). */
static int write_collective(cio_dfile *f, const ncd_file *p, int varid)
{
    if (p->serial) return 0;
    return !p->indep || (p->nc4 && p->vars[varid].is_record && f->writable);
}

static int set_access(cio_dfile *f, ncd_file *p, int varid)
{
    if (p->serial) return 0;
    int coll = write_collective(f, p, varid);
    NCC(f, "nc_var_par_access", nc_var_par_access(p->ncid, varid, coll ? NC_COLLECTIVE : NC_INDEPENDENT));
    return 0;
}

/* The filters asked for must be in the installed library (nc_inq_filter_avail). */
static int check_filters(cio_dfile *f, const ncd_file *p)
{
    static const struct {
        unsigned id;
        const char *name;
    } want[] = {{H5Z_FILTER_DEFLATE, "deflate"}, {H5Z_FILTER_SZIP, "szip"}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        int asked = i == 0 ? f->opts->deflate > 0 : f->opts->szip;
        if (!asked) continue;
        int rc = nc_inq_filter_avail(p->ncid, want[i].id);
        if (rc != NC_NOERR)
            return cio_driver_err(f, "nc_inq_filter_avail", "%s (HDF5 filter %u) is not available in this netCDF-C: %s",
                                  want[i].name, want[i].id, nc_strerror(rc));
    }
    return 0;
}

static int ncd_create(cio_dfile *f, MPI_Info info)
{
    ncd_file *p = ncd_new(f);
    int cmode = NC_CLOBBER;
    switch (f->opts->format) {
    case CIO_FMT_NC4: cmode |= NC_NETCDF4; p->nc4 = 1; break;
    case CIO_FMT_NC4C: cmode |= NC_NETCDF4 | NC_CLASSIC_MODEL; p->nc4 = 1; break;
    case CIO_FMT_CDF1: break;
    case CIO_FMT_CDF2: cmode |= NC_64BIT_OFFSET; break;
    case CIO_FMT_CDF5: cmode |= NC_64BIT_DATA; break;
    default:
        return cio_driver_err(f, "nc_create", "format %s is not available through this netCDF-C",
                              cio_format_name(f->opts->format));
    }
#ifndef HAVE_NETCDF_PNETCDF_DISPATCH
    if (!p->nc4 && !p->serial)
        return cio_driver_err(f, "nc_create_par", "format %s in parallel needs netCDF-C built with PnetCDF; this one "
                              "writes classic files only with the serial API (--nc_serial true, one writer per file)",
                              cio_format_name(f->opts->format));
#endif
    char msg[256];
    if (cio_chunking_parse(f->opts->chunking, &p->chunking, msg, sizeof msg) != 0)
        return cio_driver_err(f, "nc_create_par", "%s", msg);
    f->extend_collective = p->nc4 && p->indep && !p->serial;
    size_t hint = 0;
    char src[160] = "";
    if (p->serial && serial_hint(f, &hint, src, sizeof src) != 0) return -1;
    size_t asked = hint;
    int rc = p->serial ? nc__create(f->path, cmode, 0, hint ? &hint : NULL, &p->ncid)
                       : nc_create_par(f->path, cmode, f->comm, info, &p->ncid);
    if (rc == NC_NOERR && p->serial && ncd_conf_of(f)->size_hint_env) note_hint(f, src, asked, hint);    /* nc__create says what it used */
    if (rc != NC_NOERR) {
        ncd_err(f, p->serial ? "nc__create" : "nc_create_par", rc);
        cio_dir_hint(f);
        return -1;
    }
    int old;
    NCC(f, "nc_set_fill", nc_set_fill(p->ncid, f->opts->nofill ? NC_NOFILL : NC_FILL, &old));
    return p->nc4 ? check_filters(f, p) : 0;
}

static int ncd_open(cio_dfile *f, MPI_Info info)
{
    ncd_file *p = ncd_new(f);
    int mode = f->writable ? NC_WRITE : NC_NOWRITE;
    size_t hint = 0;
    char src[160] = "";
    if (p->serial && serial_hint(f, &hint, src, sizeof src) != 0) return -1;
    int rc = p->serial ? nc__open(f->path, mode, hint ? &hint : NULL, &p->ncid)
                       : nc_open_par(f->path, mode, f->comm, info, &p->ncid);
    if (rc != NC_NOERR) {
        ncd_err(f, p->serial ? "nc__open" : "nc_open_par", rc);
        cio_dir_hint(f);
        cio_truncation_hint(f);
        return -1;
    }
    int fmt = 0;
    NCC(f, "nc_inq_format", nc_inq_format(p->ncid, &fmt));
    p->nc4 = fmt == NC_FORMAT_NETCDF4 || fmt == NC_FORMAT_NETCDF4_CLASSIC;
    f->extend_collective = p->nc4 && p->indep && f->writable && !p->serial;
    return 0;
}

static int ncd_def_dim(cio_dfile *f, const char *name, int64_t len, int *dimid)
{
    ncd_file *p = f->priv;
    NCC(f, "nc_def_dim", nc_def_dim(p->ncid, name, len == CIO_UNLIMITED ? NC_UNLIMITED : (size_t)len, dimid));
    if (*dimid >= p->dimcap) {
        int cap = p->dimcap ? 2 * p->dimcap : 16;
        while (cap <= *dimid) cap *= 2;
        p->dimlen = cio_realloc(p->dimlen, (size_t)cap * sizeof *p->dimlen);
        p->dimcap = cap;
    }
    p->dimlen[*dimid] = len;
    return 0;
}

/* A coordinate variable (one dimension of its own name): never quantized. */
static int is_coordinate(const ncd_file *p, const char *name, int ndims, const int *dimids)
{
    char dn[NC_MAX_NAME + 1];
    return ndims == 1 && nc_inq_dimname(p->ncid, dimids[0], dn) == NC_NOERR && strcmp(dn, name) == 0;
}

/* Quantization of a float/double data variable (not a coordinate), whatever its chunking. */
static int def_quantize(cio_dfile *f, ncd_file *p, const char *name, cio_type t, int ndims, const int *dimids,
                        int varid)
{
    const cio_driver_opts *o = f->opts;
    if (o->quantize && (t == CIO_FLOAT || t == CIO_DOUBLE) && !is_coordinate(p, name, ndims, dimids)) {
        static const int alg[] = {0, NC_QUANTIZE_BITGROOM, NC_QUANTIZE_GRANULARBR, NC_QUANTIZE_BITROUND};
        int nsd = cio_quantize_nc_nsd(o->quantize, o->quantize_digits);
        int most = o->quantize == CIO_QUANTIZE_BITROUND ? (t == CIO_FLOAT ? NC_QUANTIZE_MAX_FLOAT_NSB
                                                                          : NC_QUANTIZE_MAX_DOUBLE_NSB)
                                                        : (t == CIO_FLOAT ? NC_QUANTIZE_MAX_FLOAT_NSD
                                                                          : NC_QUANTIZE_MAX_DOUBLE_NSD);
        NCC(f, "nc_def_var_quantize", nc_def_var_quantize(p->ncid, varid, alg[o->quantize], nsd < most ? nsd : most));
    }
    return 0;
}

static int ncd_def_var(cio_dfile *f, const char *name, cio_type t, int ndims, const int *dimids, int *varid)
{
    ncd_file *p = f->priv;
    NCC(f, "nc_def_var", nc_def_var(p->ncid, name, nctype(t), ndims, dimids, varid));
    int is_record = ndims > 0 && p->dimlen[dimids[0]] == CIO_UNLIMITED;
    remember_var(p, *varid, ndims, is_record);
    if (p->nc4 && ndims > 0 && p->chunking.kind == CIO_CHUNK_LIBRARY) {
        /* chunking default: netCDF-C chooses the storage and the chunk sizes; the
         * filters and quantization are those of any other chunking */
        const cio_driver_opts *o = f->opts;
        if (o->deflate > 0 || o->shuffle)
            NCC(f, "nc_def_var_deflate",
                nc_def_var_deflate(p->ncid, *varid, o->shuffle, o->deflate > 0, o->deflate > 0 ? o->deflate : 0));
        if (o->szip && !(ndims == 1 && is_record)) {
            /* szip's block size fits the fastest chunk dimension: a variable netCDF-C
             * left contiguous gets its default chunks first.  (netCDF-C 4.9.0 refuses
             * szip on a 1-D record variable whatever its chunks; under the other
             * chunkings those are one record a chunk, too narrow for szip.) */
            int storage = NC_CONTIGUOUS;
            size_t cs[CIO_MAX_DIMS];
            NCC(f, "nc_inq_var_chunking", nc_inq_var_chunking(p->ncid, *varid, &storage, cs));
            if (storage != NC_CHUNKED) {
                NCC(f, "nc_def_var_chunking", nc_def_var_chunking(p->ncid, *varid, NC_CHUNKED, NULL));
                NCC(f, "nc_inq_var_chunking", nc_inq_var_chunking(p->ncid, *varid, &storage, cs));
            }
            int64_t fastest = storage == NC_CHUNKED ? (int64_t)cs[ndims - 1] : 0;
            int ppb = cio_szip_fit(t, &fastest);
            if (ppb && (size_t)fastest != cs[ndims - 1]) {   /* netCDF-C's 180 columns: 176, blocks of 16 */
                cs[ndims - 1] = (size_t)fastest;
                NCC(f, "nc_def_var_chunking", nc_def_var_chunking(p->ncid, *varid, NC_CHUNKED, cs));
            }
            if (ppb) NCC(f, "nc_def_var_szip", nc_def_var_szip(p->ncid, *varid, NC_SZIP_NN, ppb));
        }
        int rq = def_quantize(f, p, name, t, ndims, dimids, *varid);
        if (rq) return rq;
    } else if (p->nc4 && ndims > 0) {
        int64_t dims[CIO_MAX_DIMS], chunk[CIO_MAX_DIMS];
        for (int i = 0; i < ndims; i++) dims[i] = p->dimlen[dimids[i]];
        const cio_driver_opts *o = f->opts;
        int filtered = o->deflate > 0 || o->shuffle || o->szip;
        int chunked = cio_chunk_shape(&p->chunking, ndims, dims, is_record, (int64_t)cio_type_size(t), filtered, chunk);
        int ppb = chunked && o->szip ? cio_szip_fit(t, &chunk[ndims - 1]) : 0;
        if (chunked) {
            size_t cs[CIO_MAX_DIMS];
            for (int i = 0; i < ndims; i++) cs[i] = (size_t)chunk[i];
            NCC(f, "nc_def_var_chunking", nc_def_var_chunking(p->ncid, *varid, NC_CHUNKED, cs));
        } else {
            NCC(f, "nc_def_var_chunking", nc_def_var_chunking(p->ncid, *varid, NC_CONTIGUOUS, NULL));
        }
        if (o->deflate > 0 || o->shuffle)
            NCC(f, "nc_def_var_deflate",
                nc_def_var_deflate(p->ncid, *varid, o->shuffle, o->deflate > 0, o->deflate > 0 ? o->deflate : 0));
        if (ppb) NCC(f, "nc_def_var_szip", nc_def_var_szip(p->ncid, *varid, NC_SZIP_NN, ppb));
        int rq = def_quantize(f, p, name, t, ndims, dimids, *varid);
        if (rq) return rq;
    }
    return set_access(f, p, *varid);
}

static int ncd_put_att(cio_dfile *f, int varid, const char *name, cio_type t, int64_t len, const void *vals)
{
    ncd_file *p = f->priv;
    int v = varid < 0 ? NC_GLOBAL : varid;
    if (t == CIO_CHAR) NCC(f, "nc_put_att_text", nc_put_att_text(p->ncid, v, name, (size_t)len, vals));
    else NCC(f, "nc_put_att", nc_put_att(p->ncid, v, name, nctype(t), (size_t)len, vals));
    return 0;
}

static int ncd_enddef(cio_dfile *f)
{
    ncd_file *p = f->priv;
    if (f->opts->header_pad > 0 && !p->nc4)     /* FMS: nf__enddef(header_buffer_val, 4, 0, 4) */
        NCC(f, "nc__enddef", nc__enddef(p->ncid, (size_t)f->opts->header_pad, 4, 0, 4));
    else
        NCC(f, "nc_enddef", nc_enddef(p->ncid));
    return 0;
}

static int ncd_inq_varid(cio_dfile *f, const char *name, int *varid)
{
    ncd_file *p = f->priv;
    NCC(f, "nc_inq_varid", nc_inq_varid(p->ncid, name, varid));
    int nd = 0, ud = -1, dimids[CIO_MAX_DIMS];
    NCC(f, "nc_inq_varndims", nc_inq_varndims(p->ncid, *varid, &nd));
    if (nd > CIO_MAX_DIMS) return cio_driver_err(f, "nc_inq_varndims", "%s: more than %d dimensions", name, CIO_MAX_DIMS);
    NCC(f, "nc_inq_vardimid", nc_inq_vardimid(p->ncid, *varid, dimids));
    NCC(f, "nc_inq_unlimdim", nc_inq_unlimdim(p->ncid, &ud));
    remember_var(p, *varid, nd, nd > 0 && ud >= 0 && dimids[0] == ud);
    return set_access(f, p, *varid);
}

static int ncd_inq_nrecs(cio_dfile *f, int64_t *nrecs)
{
    ncd_file *p = f->priv;
    int ud = -1;
    size_t len = 0;
    NCC(f, "nc_inq_unlimdim", nc_inq_unlimdim(p->ncid, &ud));
    if (ud >= 0) NCC(f, "nc_inq_dimlen", nc_inq_dimlen(p->ncid, ud, &len));
    *nrecs = (int64_t)len;
    return 0;
}

static int one_call(ncd_file *p, int varid, int is_read, const size_t *st, const size_t *ct, void *buf)
{
    return is_read ? nc_get_vara(p->ncid, varid, st, ct, buf) : nc_put_vara(p->ncid, varid, st, ct, buf);
}

static int ncd_xfer(cio_dfile *f, const cio_req *r, int is_read)
{
    ncd_file *p = f->priv;
    if (r->varid < 0 || r->varid >= p->nvars) return cio_driver_err(f, "nc_put_vara", "bad variable id %d", r->varid);
    int coll = is_read ? !p->indep : write_collective(f, p, r->varid);
    const char *call = is_read ? "nc_get_vara" : "nc_put_vara";
    size_t ts = cio_type_size(r->type);
    int nd = r->ndims;
    int rc = NC_NOERR;
    if (nd == 0) {
        /* a scalar: no zero-count form, so it is never written collectively */
        if (coll) {
            report.scalar_switches++;
            NCC(f, "nc_var_par_access", nc_var_par_access(p->ncid, r->varid, NC_INDEPENDENT));
        }
        if (r->nblocks > 0) rc = one_call(p, r->varid, is_read, NULL, NULL, r->buf);
        if (!is_read) p->data_bytes += r->nelems * (int64_t)ts;
        if (coll) {
            int rc2 = nc_var_par_access(p->ncid, r->varid, NC_COLLECTIVE);
            if (rc == NC_NOERR && rc2 != NC_NOERR) return ncd_err(f, "nc_var_par_access", rc2);
        }
        return rc == NC_NOERR ? 0 : ncd_err(f, call, rc);
    }
    if (!is_read) p->data_bytes += r->nelems * (int64_t)ts;
    int calls = coll ? (r->max_nblocks > r->nblocks ? r->max_nblocks : r->nblocks) : r->nblocks;
    if (!is_read && coll && p->indep) report.coll_record_writes++;
    size_t st[CIO_MAX_DIMS], ct[CIO_MAX_DIMS];
    char *buf = r->buf;
    for (int b = 0; b < calls && rc == NC_NOERR; b++) {
        size_t n = 1;
        for (int i = 0; i < nd; i++) {
            if (b < r->nblocks) {
                st[i] = (size_t)r->start[(size_t)b * (size_t)nd + (size_t)i];
                ct[i] = (size_t)r->count[(size_t)b * (size_t)nd + (size_t)i];
            } else {
                st[i] = 0;      /* an empty call to match the other ranks */
                ct[i] = 0;
            }
            n *= ct[i];
        }
        static char dummy[16];
        rc = one_call(p, r->varid, is_read, st, ct, b < r->nblocks ? (void *)buf : (void *)dummy);
        if (b < r->nblocks) buf += n * ts;
    }
    if (rc == NC_EHDFERR && !is_read && f->opts->szip && p->nc4) {
        ncd_err(f, call, rc);
        size_t l = strlen(f->err);
        snprintf(f->err + l, sizeof f->err - l, " (with szip: parallel HDF5 1.10 fails on a chunk szip cannot code "
                 "smaller than its data, incompressible values as --data pattern writes; use --data model, or "
                 "deflate)");
        return -1;
    }
    return rc == NC_NOERR ? 0 : ncd_err(f, call, rc);
}

static int ncd_put(cio_dfile *f, const cio_req *r) { return ncd_xfer(f, r, 0); }
static int ncd_get(cio_dfile *f, const cio_req *r) { return ncd_xfer(f, r, 1); }

static int ncd_wait(cio_dfile *f)
{
    (void)f;    /* never called: the driver has no nonblocking mode */
    return 0;
}

/* nc_sync: H5Fflush for netCDF-4 (whose MPI-IO driver then calls MPI_File_sync),
 * ncmpi_sync for the classic formats through the PnetCDF dispatch.  A file of the
 * serial API (nc_serial) is neither: nc_sync only hands netCDF-C's buffers (or
 * HDF5's, through its sec2 driver) to the kernel and calls no fsync, so the file
 * is then fsync'ed by path (an fsync on any descriptor of a file writes back
 * that file's dirty pages). */
static int ncd_sync(cio_dfile *f)
{
    ncd_file *p = f->priv;
    int rc = nc_sync(p->ncid);
    if (rc != NC_NOERR) return ncd_err(f, "nc_sync", rc);
    int calls;
    return p->serial ? cio_fsync_path(f, f->path, &calls) : 0;
}

static int ncd_close(cio_dfile *f)
{
    ncd_file *p = f->priv;
    int rc = nc_close(p->ncid);
    /* compressed data may take less room than it holds: no size check then */
    int64_t bytes = cio_compress_any(f->opts) && p->nc4 ? 0 : p->data_bytes;   /* filters shrink the file */
    cio_free(p->vars);
    cio_free(p->dimlen);
    cio_free(p);
    f->priv = NULL;
    if (rc != NC_NOERR) return ncd_err(f, "nc_close", rc);
    return f->writable ? cio_check_file_size(f, -1, bytes) : 0;
}

static int ncd_get_att(cio_dfile *f, int varid, const char *name, cio_type t, int64_t maxlen, void *vals,
                       int64_t *len)
{
    ncd_file *p = f->priv;
    int v = varid < 0 ? NC_GLOBAL : varid;
    nc_type xt;
    size_t n = 0;
    int rc = nc_inq_att(p->ncid, v, name, &xt, &n);
    if (rc == NC_ENOTATT) return 1;
    if (rc != NC_NOERR) return ncd_err(f, "nc_inq_att", rc);
    *len = (int64_t)n;
    void *tmp = cio_malloc((n ? n : 1) * cio_type_size(t));
    switch (t) {
    case CIO_CHAR: rc = nc_get_att_text(p->ncid, v, name, tmp); break;
    case CIO_BYTE: rc = nc_get_att_schar(p->ncid, v, name, tmp); break;
    case CIO_SHORT: rc = nc_get_att_short(p->ncid, v, name, tmp); break;
    case CIO_INT: rc = nc_get_att_int(p->ncid, v, name, tmp); break;
    case CIO_FLOAT: rc = nc_get_att_float(p->ncid, v, name, tmp); break;
    case CIO_DOUBLE: rc = nc_get_att_double(p->ncid, v, name, tmp); break;
    default: rc = nc_get_att_longlong(p->ncid, v, name, tmp); break;
    }
    if (rc == NC_NOERR) memcpy(vals, tmp, ((int64_t)n < maxlen ? n : (size_t)maxlen) * cio_type_size(t));
    cio_free(tmp);
    return rc == NC_NOERR ? 0 : ncd_err(f, "nc_get_att", rc);
}

static int ncd_inq_dimlen(cio_dfile *f, const char *name, int64_t *len)
{
    ncd_file *p = f->priv;
    int id;
    size_t n = 0;
    if (nc_inq_dimid(p->ncid, name, &id) != NC_NOERR) return 1;
    NCC(f, "nc_inq_dimlen", nc_inq_dimlen(p->ncid, id, &n));
    *len = (int64_t)n;
    return 0;
}

static int ncd_inq_var(cio_dfile *f, int varid, cio_var_layout *out)
{
    ncd_file *p = f->priv;
    int nd = 0, ud = -1;
    nc_type t = 0;
    memset(out, 0, sizeof *out);
    NCC(f, "nc_inq_varndims", nc_inq_varndims(p->ncid, varid, &nd));
    int *dims = cio_calloc((size_t)(nd ? nd : 1), sizeof *dims);
    int rc = nc_inq_var(p->ncid, varid, NULL, &t, &nd, dims, NULL);
    if (rc == NC_NOERR) rc = nc_inq_unlimdim(p->ncid, &ud);
    cio_nc_type_name(t, out->type, sizeof out->type);
    out->ndims = nd;
    out->is_record = nd > 0 && dims[0] == ud;
    for (int k = 0; k < nd && k < CIO_MAX_DIMS && rc == NC_NOERR; k++) {
        size_t len = 0;
        rc = nc_inq_dim(p->ncid, dims[k], out->dim[k], &len);
        out->len[k] = (int64_t)len;
    }
    cio_free(dims);
    return rc == NC_NOERR ? 0 : ncd_err(f, "nc_inq_var", rc);
}

static void ncd_describe(char *buf, size_t len)
{
    buf[0] = '\0';
    size_t at = 0;
    if (report.coll_record_writes)
        at = (size_t)snprintf(buf, len,
                              "%lld record-variable writes ran collectively in independent mode (rank 0): netCDF-4 "
                              "extends a dataset only in collective access",
                              (long long)report.coll_record_writes);
    if (blksz_note.set && at < len)
        snprintf(buf + at, len - at, "%snc__create chunk-size hint for %s: %lld bytes (%s), netCDF-C used %lld",
                 at ? "; " : "", blksz_note.file, (long long)blksz_note.asked, blksz_note.src,
                 (long long)blksz_note.used);
}

static const char *ncd_refusal(cio_mode m)
{
    return cio_mode_nonblocking(m) ? "netCDF-C has no nonblocking API; use a blocking iotype, or "
                                     "--nc4_nonblocking_fallback true to run the blocking equivalent"
                                   : NULL;
}

const cio_driver cio_driver_netcdf = {
    .name = "netcdf",
    .description = "netCDF-C over MPI-IO: netCDF-4 (HDF5) and classic formats (PnetCDF dispatch), blocking only; "
                   "--nc_serial: one-writer files through the serial API",
    .modes = CIO_MODES_BLOCKING,
    .formats = CIO_FMT_BIT(CIO_FMT_NC4) | CIO_FMT_BIT(CIO_FMT_NC4C) | CIO_FMT_BIT(CIO_FMT_CDF1) |
               CIO_FMT_BIT(CIO_FMT_CDF2) | CIO_FMT_BIT(CIO_FMT_CDF5),
    .default_format = CIO_FMT_NC4,
    .stores_data = 1,
    .fill_formats = CIO_FMT_BIT(CIO_FMT_NC4) | CIO_FMT_BIT(CIO_FMT_NC4C) | CIO_FMT_BIT(CIO_FMT_CDF1) |
                    CIO_FMT_BIT(CIO_FMT_CDF2) | CIO_FMT_BIT(CIO_FMT_CDF5),
    .pad_formats = CIO_FMT_BIT(CIO_FMT_CDF1) | CIO_FMT_BIT(CIO_FMT_CDF2) | CIO_FMT_BIT(CIO_FMT_CDF5),
    .hint_formats = CIO_FMT_BIT(CIO_FMT_NC4) | CIO_FMT_BIT(CIO_FMT_NC4C) | CIO_FMT_BIT(CIO_FMT_CDF1) |
                    CIO_FMT_BIT(CIO_FMT_CDF2) | CIO_FMT_BIT(CIO_FMT_CDF5),
    .filter_formats = CIO_FMT_BIT(CIO_FMT_NC4) | CIO_FMT_BIT(CIO_FMT_NC4C),
    /* nc_def_var_quantize; not nc4c: netCDF-C 4.9.0 then fails nc_enddef ("Operation not allowed in
     * data mode", the quantize attribute written in the classic model's data mode) */
    .quantize_formats = CIO_FMT_BIT(CIO_FMT_NC4),
    .filters_collective = 1,
    .serial_api = 1,
    .open_diagnosis = cio_nc_open_diagnosis,
    .refusal = ncd_refusal,
    .params = ncd_params,
    .configure = ncd_configure,
    .param_idle = ncd_param_idle,
    .version = ncd_version,
    .create = ncd_create,
    .open = ncd_open,
    .def_dim = ncd_def_dim,
    .def_var = ncd_def_var,
    .put_att = ncd_put_att,
    .enddef = ncd_enddef,
    .inq_varid = ncd_inq_varid,
    .inq_nrecs = ncd_inq_nrecs,
    .put = ncd_put,
    .get = ncd_get,
    .wait = ncd_wait,
    .close = ncd_close,
    .sync = ncd_sync,
    .sync_closed = cio_sync_closed_path,
    .get_att = ncd_get_att,
    .describe = ncd_describe,
    .inq_dimlen = ncd_inq_dimlen,
    .inq_var = ncd_inq_var,
};
