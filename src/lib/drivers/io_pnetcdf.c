/* The pnetcdf driver: CDF-1, CDF-2 and CDF-5 files through PnetCDF.
 *
 *   blocking_collective      one ncmpi_put_varn_all per engine put (every rank
 *                            calls it, with no blocks where it has none)
 *   blocking_independent     ncmpi_begin_indep_data after enddef/open, then one
 *                            ncmpi_put_vara per block (the original GCRM-IO's form)
 *   nonblocking_collective   ncmpi_iput_vara per block, ncmpi_wait_all at wait
 *   nonblocking_independent  the same in independent data mode, ncmpi_wait
 *
 * A variable the kernel marks CIO_VAR_ONE_CALL (posts_varn) is written as E3SM-IO
 * and PIO write one: each request's blocks in one call, ncmpi_iput_varn (bput_varn)
 * in the nonblocking modes, ncmpi_put_varn in blocking_independent, an empty call
 * where the rank has none (blocking_collective is put_varn_all either way).
 *
 * With --bput the nonblocking modes use ncmpi_bput_vara into a buffer attached
 * per file (ncmpi_buffer_attach), sized from the plan (this rank's bytes of one
 * record of every variable) or bput_buffer_size, never above what one wait round
 * holds; a request that does not fit what is left of the buffer before the wait
 * is posted with iput instead, and the report counts those.
 *
 * A scalar (0-d) variable in blocking collective mode is written with
 * iput + wait_all: PnetCDF 1.12 hangs when some ranks pass one block of a scalar
 * to put_varn_all and others none. */
#include "config.h"
#include "drivers/driver.h"
#include "drivers/io_util.h"
#include "drivers/pnetcdf_end.h"
#include "base/params.h"
#include "data/schema.h"

#include <pnetcdf.h>
#include <stdio.h>
#include <string.h>

/* Where a variable's data lies in the file (for the size check at close). */
typedef struct pn_var {
    int known;
    int ndims, is_record;
    MPI_Offset begin, shape[CIO_MAX_DIMS];
} pn_var;

typedef struct pn_file {
    int ncid;
    int nvars;
    pn_var *vars;
    MPI_Offset recsize;
    int64_t data_end, data_bytes;
    int indep;              /* in independent data mode */
    int created;
    int nreq, reqcap;
    int *reqs;
    int *status;
    MPI_Offset bput_size, bput_used;
    int attached;
} pn_file;

/* What the report says about bput (this process, all files). */
static struct {
    int used;
    int64_t buffer, requests, fallback, fallback_bytes;
} bput_stats;

static const char *pn_version(void)
{
    static char v[128];
    snprintf(v, sizeof v, "PnetCDF %s", ncmpi_inq_libvers());
    return v;
}

static int pn_err(cio_dfile *f, const char *call, int rc) { return cio_driver_err(f, call, "%s", ncmpi_strerror(rc)); }

#define PN(f, call, expr)                          \
    do {                                           \
        int rc_ = (expr);                          \
        if (rc_ != NC_NOERR) return pn_err((f), (call), rc_); \
    } while (0)

static nc_type nctype(cio_type t)
{
    static const nc_type m[CIO_NTYPES] = {NC_CHAR, NC_BYTE, NC_SHORT, NC_INT, NC_FLOAT, NC_DOUBLE, NC_INT64};
    return m[t];
}

static MPI_Datatype mpitype(cio_type t)
{
    switch (t) {
    case CIO_CHAR: return MPI_CHAR;
    case CIO_BYTE: return MPI_SIGNED_CHAR;
    case CIO_SHORT: return MPI_SHORT;
    case CIO_INT: return MPI_INT;
    case CIO_FLOAT: return MPI_FLOAT;
    case CIO_DOUBLE: return MPI_DOUBLE;
    default: return MPI_LONG_LONG;
    }
}

/* ---------------------------------------------------------------- parameters */
static const cio_param_spec pn_params[] = {
    {"bput", CIO_P_BOOL, "false", "pnetcdf: buffered nonblocking writes (bput) instead of iput", 0, 0, 0, 0},
    {"bput_buffer_size", CIO_P_SIZE, "0", "pnetcdf: bput buffer per file (0: sized from the plan)", 0, 0, 9.2e18, 0},
    CIO_PARAM_END,
};

typedef struct pn_conf {
    int use_bput;           /* buffered nonblocking puts */
    int64_t bput_bytes;     /* attached buffer size per file, 0: from the plan */
} pn_conf;

static int pn_configure(const cio_params *prm, const cio_driver_opts *o, void **conf, cio_err *e)
{
    (void)o;
    (void)e;
    pn_conf *c = cio_calloc(1, sizeof *c);
    if (prm) {
        c->use_bput = cio_param_bool(prm, "bput");
        c->bput_bytes = cio_param_int(prm, "bput_buffer_size");
    }
    *conf = c;
    return 0;
}

/* bput buffers nonblocking puts only; its buffer size needs bput. */
static int pn_param_idle(const cio_params *prm, const cio_driver_opts *o, const char *key, char *why, size_t n)
{
    int bput = cio_param_bool(prm, "bput");
    if (!strcmp(key, "bput") && bput && !cio_mode_nonblocking(o->mode)) {
        snprintf(why, n, ": iotype %s writes with blocking puts, and bput buffers nonblocking ones",
                 cio_mode_name(o->mode));
        return 1;
    }
    if (!strcmp(key, "bput_buffer_size") && (!bput || !cio_mode_nonblocking(o->mode))) {
        snprintf(why, n, ": it sizes the bput buffer, and %s", !bput ? "--bput is off" : "the iotype is blocking");
        return 1;
    }
    return 0;
}

static const pn_conf *pn_conf_of(const cio_dfile *f)
{
    static const pn_conf defaults = {0, 0};
    return f->opts->conf ? f->opts->conf : &defaults;
}

/* After enddef or open: the data mode the iotype needs, the bput buffer. */
static int enter_data_mode(cio_dfile *f)
{
    pn_file *p = f->priv;
    if (!cio_mode_collective(f->opts->mode)) {
        PN(f, "ncmpi_begin_indep_data", ncmpi_begin_indep_data(p->ncid));
        p->indep = 1;
    }
    const pn_conf *c = pn_conf_of(f);
    if (f->writable && c->use_bput && cio_mode_nonblocking(f->opts->mode)) {
        int64_t size = c->bput_bytes > 0 ? c->bput_bytes : f->plan_bytes;
        if (f->opts->round_bytes > 0 && size > f->opts->round_bytes) size = f->opts->round_bytes;
        bput_stats.used = 1;
        bput_stats.buffer = size;
        if (size > 0) {
            PN(f, "ncmpi_buffer_attach", ncmpi_buffer_attach(p->ncid, size));
            p->attached = 1;
            p->bput_size = size;
        }
    }
    return 0;
}

static int pn_create(cio_dfile *f, MPI_Info info)
{
    pn_file *p = cio_calloc(1, sizeof *p);
    f->priv = p;
    p->created = 1;
    int cmode = NC_CLOBBER;
    switch (f->opts->format) {
    case CIO_FMT_CDF1: break;
    case CIO_FMT_CDF2: cmode |= NC_64BIT_OFFSET; break;
    case CIO_FMT_CDF5: cmode |= NC_64BIT_DATA; break;
    default: return cio_driver_err(f, "ncmpi_create", "format %s is not a PnetCDF format", cio_format_name(f->opts->format));
    }
    int rc = ncmpi_create(f->comm, f->path, cmode, info, &p->ncid);
    if (rc != NC_NOERR) {
        pn_err(f, "ncmpi_create", rc);
        cio_dir_hint(f);
        return -1;
    }
    int old;
    PN(f, "ncmpi_set_fill", ncmpi_set_fill(p->ncid, f->opts->nofill ? NC_NOFILL : NC_FILL, &old));
    return 0;
}

static int pn_open(cio_dfile *f, MPI_Info info)
{
    pn_file *p = cio_calloc(1, sizeof *p);
    f->priv = p;
    int rc = ncmpi_open(f->comm, f->path, f->writable ? NC_WRITE : NC_NOWRITE, info, &p->ncid);
    if (rc != NC_NOERR) {
        pn_err(f, "ncmpi_open", rc);
        cio_dir_hint(f);
        return -1;
    }
    return enter_data_mode(f);
}

static int pn_def_dim(cio_dfile *f, const char *name, int64_t len, int *dimid)
{
    pn_file *p = f->priv;
    PN(f, "ncmpi_def_dim", ncmpi_def_dim(p->ncid, name, len == CIO_UNLIMITED ? NC_UNLIMITED : (MPI_Offset)len, dimid));
    return 0;
}

static int pn_def_var(cio_dfile *f, const char *name, cio_type t, int ndims, const int *dimids, int *varid)
{
    pn_file *p = f->priv;
    PN(f, "ncmpi_def_var", ncmpi_def_var(p->ncid, name, nctype(t), ndims, dimids, varid));
    return 0;
}

static int pn_put_att(cio_dfile *f, int varid, const char *name, cio_type t, int64_t len, const void *vals)
{
    pn_file *p = f->priv;
    int v = varid < 0 ? NC_GLOBAL : varid;
    if (t == CIO_CHAR) PN(f, "ncmpi_put_att_text", ncmpi_put_att_text(p->ncid, v, name, len, vals));
    else PN(f, "ncmpi_put_att", ncmpi_put_att(p->ncid, v, name, nctype(t), len, vals));
    return 0;
}

static int pn_enddef(cio_dfile *f)
{
    pn_file *p = f->priv;
    if (f->opts->header_pad > 0)    /* FMS: nf__enddef(h_minfree, v_align 4, v_minfree 0, r_align 4) */
        PN(f, "ncmpi__enddef", ncmpi__enddef(p->ncid, f->opts->header_pad, 4, 0, 4));
    else
        PN(f, "ncmpi_enddef", ncmpi_enddef(p->ncid));
    return enter_data_mode(f);
}

static int pn_inq_varid(cio_dfile *f, const char *name, int *varid)
{
    PN(f, "ncmpi_inq_varid", ncmpi_inq_varid(((pn_file *)f->priv)->ncid, name, varid));
    return 0;
}

static int pn_inq_nrecs(cio_dfile *f, int64_t *nrecs)
{
    pn_file *p = f->priv;
    int ud = -1;
    MPI_Offset len = 0;
    PN(f, "ncmpi_inq_unlimdim", ncmpi_inq_unlimdim(p->ncid, &ud));
    if (ud >= 0) PN(f, "ncmpi_inq_dimlen", ncmpi_inq_dimlen(p->ncid, ud, &len));
    *nrecs = len;
    return 0;
}

/* start/count of the request as MPI_Offset arrays and per-block pointers. */
typedef struct offsets {
    MPI_Offset *st, *ct;
    MPI_Offset **sp, **cp;
} offsets;

static void offsets_make(const cio_req *r, offsets *o)
{
    size_t n = (size_t)r->nblocks * (size_t)(r->ndims ? r->ndims : 1);
    o->st = cio_calloc(n ? n : 1, sizeof *o->st);
    o->ct = cio_calloc(n ? n : 1, sizeof *o->ct);
    o->sp = cio_calloc((size_t)(r->nblocks ? r->nblocks : 1), sizeof *o->sp);
    o->cp = cio_calloc((size_t)(r->nblocks ? r->nblocks : 1), sizeof *o->cp);
    for (int b = 0; b < r->nblocks; b++) {
        for (int i = 0; i < r->ndims; i++) {
            o->st[(size_t)b * (size_t)r->ndims + (size_t)i] = r->start[(size_t)b * (size_t)r->ndims + (size_t)i];
            o->ct[(size_t)b * (size_t)r->ndims + (size_t)i] = r->count[(size_t)b * (size_t)r->ndims + (size_t)i];
        }
        o->sp[b] = o->st + (size_t)b * (size_t)r->ndims;
        o->cp[b] = o->ct + (size_t)b * (size_t)r->ndims;
    }
}

static void offsets_free(offsets *o)
{
    cio_free(o->st);
    cio_free(o->ct);
    cio_free(o->sp);
    cio_free(o->cp);
}

static MPI_Offset block_elems(const offsets *o, int ndims, int b)
{
    MPI_Offset n = 1;
    for (int i = 0; i < ndims; i++) n *= o->cp[b][i];
    return n;
}

/* The file offset just past the last element of the request's blocks. */
static int request_end(cio_dfile *f, pn_file *p, const cio_req *r, int64_t *end)
{
    if (r->varid >= p->nvars) {
        p->vars = cio_realloc(p->vars, (size_t)(r->varid + 1) * sizeof *p->vars);
        memset(p->vars + p->nvars, 0, (size_t)(r->varid + 1 - p->nvars) * sizeof *p->vars);
        p->nvars = r->varid + 1;
    }
    pn_var *v = &p->vars[r->varid];
    if (!v->known) {
        int dimids[CIO_MAX_DIMS], ud = -1;     /* (PnetCDF's NC_MAX_VAR_DIMS is INT_MAX) */
        PN(f, "ncmpi_inq_varoffset", ncmpi_inq_varoffset(p->ncid, r->varid, &v->begin));
        PN(f, "ncmpi_inq_varndims", ncmpi_inq_varndims(p->ncid, r->varid, &v->ndims));
        if (v->ndims > CIO_MAX_DIMS) return cio_driver_err(f, "ncmpi_inq_varndims", "more than %d dimensions", CIO_MAX_DIMS);
        PN(f, "ncmpi_inq_vardimid", ncmpi_inq_vardimid(p->ncid, r->varid, dimids));
        PN(f, "ncmpi_inq_unlimdim", ncmpi_inq_unlimdim(p->ncid, &ud));
        for (int i = 0; i < v->ndims; i++)
            PN(f, "ncmpi_inq_dimlen", ncmpi_inq_dimlen(p->ncid, dimids[i], &v->shape[i]));
        v->is_record = v->ndims > 0 && dimids[0] == ud;
        if (v->is_record && p->recsize == 0) PN(f, "ncmpi_inq_recsize", ncmpi_inq_recsize(p->ncid, &p->recsize));
        v->known = 1;
    }
    int64_t es = (int64_t)cio_type_size(r->type);
    *end = -1;
    for (int b = 0; b < r->nblocks; b++) {
        const int64_t *st = r->ndims ? r->start + (size_t)b * (size_t)r->ndims : NULL;
        const int64_t *ct = r->ndims ? r->count + (size_t)b * (size_t)r->ndims : NULL;
        int64_t lin = 0, base = v->begin;
        int k0 = 0;
        if (v->is_record) {
            base += (st[0] + ct[0] - 1) * p->recsize;
            k0 = 1;
        }
        for (int i = k0; i < r->ndims; i++) lin = lin * v->shape[i] + st[i] + ct[i] - 1;
        int64_t e = base + (lin + 1) * es;
        if (e > *end) *end = e;
    }
    return 0;
}

static int add_req(pn_file *p, int id)
{
    if (p->nreq == p->reqcap) {
        p->reqcap = p->reqcap ? 2 * p->reqcap : 64;
        p->reqs = cio_realloc(p->reqs, (size_t)p->reqcap * sizeof *p->reqs);
        p->status = cio_realloc(p->status, (size_t)p->reqcap * sizeof *p->status);
    }
    p->reqs[p->nreq++] = id;
    return 0;
}

/* Whether a posted write of this many bytes goes into the attached buffer (bput),
 * which it then takes; else it is an iput, counted when bput was asked. */
static int take_bput(cio_dfile *f, pn_file *p, MPI_Offset bytes)
{
    if (p->attached && p->bput_used + bytes <= p->bput_size) {
        p->bput_used += bytes;
        bput_stats.requests++;
        return 1;
    }
    if (pn_conf_of(f)->use_bput) {
        bput_stats.fallback++;
        bput_stats.fallback_bytes += bytes;
    }
    return 0;
}

/* A request's blocks in one call (cio_req.one_call), as E3SM-IO and PIO write a
 * variable: ncmpi_put_varn / get_varn (blocking independent), ncmpi_iput_varn /
 * bput_varn / iget_varn (nonblocking), with no blocks too.  Returns the status. */
static int xfer_varn(cio_dfile *f, pn_file *p, const cio_req *r, const offsets *o, MPI_Datatype mt, int is_read,
                     const char **call)
{
    MPI_Offset n = r->nelems, bytes = n * (MPI_Offset)cio_type_size(r->type);
    void *buf = r->buf;
    if (f->opts->mode == CIO_MODE_BLOCKING_INDEPENDENT) {
        *call = is_read ? "ncmpi_get_varn" : "ncmpi_put_varn";
        return is_read ? ncmpi_get_varn(p->ncid, r->varid, r->nblocks, o->sp, o->cp, buf, n, mt)
                       : ncmpi_put_varn(p->ncid, r->varid, r->nblocks, o->sp, o->cp, buf, n, mt);
    }
    int req = NC_REQ_NULL, rc;
    if (is_read) {
        *call = "ncmpi_iget_varn";
        rc = ncmpi_iget_varn(p->ncid, r->varid, r->nblocks, o->sp, o->cp, buf, n, mt, &req);
    } else if (take_bput(f, p, bytes)) {
        *call = "ncmpi_bput_varn";
        rc = ncmpi_bput_varn(p->ncid, r->varid, r->nblocks, o->sp, o->cp, buf, n, mt, &req);
    } else {
        *call = "ncmpi_iput_varn";
        rc = ncmpi_iput_varn(p->ncid, r->varid, r->nblocks, o->sp, o->cp, buf, n, mt, &req);
    }
    if (rc == NC_NOERR && req != NC_REQ_NULL) add_req(p, req);
    return rc;
}

static int pn_xfer(cio_dfile *f, const cio_req *r, int is_read)
{
    pn_file *p = f->priv;
    MPI_Datatype mt = mpitype(r->type);
    size_t ts = cio_type_size(r->type);
    cio_mode mode = f->opts->mode;
    int rc = NC_NOERR;
    const char *call = "?";
    if (!is_read && r->nblocks > 0) {
        int64_t end = -1;
        if (request_end(f, p, r, &end) != 0) return -1;
        if (end > p->data_end) p->data_end = end;
        p->data_bytes += r->nelems * (int64_t)ts;
    }
    offsets o;
    offsets_make(r, &o);
    char *buf = r->buf;

    if (mode == CIO_MODE_BLOCKING_COLLECTIVE && r->ndims == 0) {
        /* scalar: see the top of the file */
        int req = NC_REQ_NULL, st = NC_NOERR;
        if (r->nblocks > 0) {
            call = is_read ? "ncmpi_iget_var" : "ncmpi_iput_var";
            rc = is_read ? ncmpi_iget_var(p->ncid, r->varid, buf, 1, mt, &req)
                         : ncmpi_iput_var(p->ncid, r->varid, buf, 1, mt, &req);
        }
        if (rc == NC_NOERR) {
            call = "ncmpi_wait_all";
            rc = ncmpi_wait_all(p->ncid, r->nblocks > 0, &req, &st);
            if (rc == NC_NOERR) rc = st;
        }
    } else if (r->one_call && r->ndims > 0 && mode != CIO_MODE_BLOCKING_COLLECTIVE) {
        rc = xfer_varn(f, p, r, &o, mt, is_read, &call);
    } else if (mode == CIO_MODE_BLOCKING_COLLECTIVE) {
        call = is_read ? "ncmpi_get_varn_all" : "ncmpi_put_varn_all";
        rc = is_read ? ncmpi_get_varn_all(p->ncid, r->varid, r->nblocks, o.sp, o.cp, buf, r->nelems, mt)
                     : ncmpi_put_varn_all(p->ncid, r->varid, r->nblocks, o.sp, o.cp, buf, r->nelems, mt);
    } else if (mode == CIO_MODE_BLOCKING_INDEPENDENT) {
        call = is_read ? "ncmpi_get_vara" : "ncmpi_put_vara";
        for (int b = 0; b < r->nblocks && rc == NC_NOERR; b++) {
            MPI_Offset n = r->ndims ? block_elems(&o, r->ndims, b) : 1;
            rc = is_read ? ncmpi_get_vara(p->ncid, r->varid, o.sp[b], o.cp[b], buf, n, mt)
                         : ncmpi_put_vara(p->ncid, r->varid, o.sp[b], o.cp[b], buf, n, mt);
            buf += (size_t)n * ts;
        }
    } else {
        for (int b = 0; b < r->nblocks && rc == NC_NOERR; b++) {
            MPI_Offset n = r->ndims ? block_elems(&o, r->ndims, b) : 1;
            MPI_Offset bytes = n * (MPI_Offset)ts;
            int req = NC_REQ_NULL;
            if (is_read) {
                call = "ncmpi_iget_vara";
                rc = ncmpi_iget_vara(p->ncid, r->varid, o.sp[b], o.cp[b], buf, n, mt, &req);
            } else if (take_bput(f, p, bytes)) {
                call = "ncmpi_bput_vara";
                rc = ncmpi_bput_vara(p->ncid, r->varid, o.sp[b], o.cp[b], buf, n, mt, &req);
            } else {
                call = "ncmpi_iput_vara";
                rc = ncmpi_iput_vara(p->ncid, r->varid, o.sp[b], o.cp[b], buf, n, mt, &req);
            }
            if (rc == NC_NOERR) add_req(p, req);
            buf += (size_t)n * ts;
        }
    }
    offsets_free(&o);
    if (rc != NC_NOERR) return pn_err(f, call, rc);
    return 0;
}

static int pn_put(cio_dfile *f, const cio_req *r) { return pn_xfer(f, r, 0); }
static int pn_get(cio_dfile *f, const cio_req *r) { return pn_xfer(f, r, 1); }

static int pn_wait(cio_dfile *f)
{
    pn_file *p = f->priv;
    int coll = cio_mode_collective(f->opts->mode);
    int n = p->nreq;
    p->nreq = 0;
    p->bput_used = 0;
    int rc = coll ? ncmpi_wait_all(p->ncid, n, p->reqs, p->status) : ncmpi_wait(p->ncid, n, p->reqs, p->status);
    const char *call = coll ? "ncmpi_wait_all" : "ncmpi_wait";
    if (rc != NC_NOERR) return pn_err(f, call, rc);
    for (int i = 0; i < n; i++)
        if (p->status[i] != NC_NOERR)
            return cio_driver_err(f, call, "request %d of %d: %s", i + 1, n, ncmpi_strerror(p->status[i]));
    return 0;
}

static int pn_inq_put_size(cio_dfile *f, int64_t *bytes)
{
    MPI_Offset s = 0;
    PN(f, "ncmpi_inq_put_size", ncmpi_inq_put_size(((pn_file *)f->priv)->ncid, &s));
    *bytes = s;
    return 0;
}

static int pn_inq_get_size(cio_dfile *f, int64_t *bytes)
{
    MPI_Offset s = 0;
    PN(f, "ncmpi_inq_get_size", ncmpi_inq_get_size(((pn_file *)f->priv)->ncid, &s));
    *bytes = s;
    return 0;
}

static int pn_header_size(cio_dfile *f, int64_t *bytes)
{
    pn_file *p = f->priv;
    MPI_Offset s = 0;
    *bytes = 0;
    if (!p->created) return 0;      /* a reopened file's header was counted when it was created */
    PN(f, "ncmpi_inq_header_size", ncmpi_inq_header_size(p->ncid, &s));
    *bytes = s;
    return 0;
}

/* The most bytes the file may hold (padded) and where its data ends: one extent. */
static int pn_extent(cio_dfile *f, int padded, int64_t *bytes)
{
    pn_file *p = f->priv;
    const char *call = "";
    int rc = cio_pnetcdf_extent(p->ncid, padded, bytes, &call);
    return rc == NC_NOERR ? 0 : pn_err(f, call, rc);
}

static int pn_max_extent(cio_dfile *f, int64_t *bytes) { return pn_extent(f, 1, bytes); }
static int pn_data_end(cio_dfile *f, int64_t *bytes) { return pn_extent(f, 0, bytes); }

static int pn_file_info(cio_dfile *f, MPI_Info *info)
{
    PN(f, "ncmpi_get_file_info", ncmpi_get_file_info(((pn_file *)f->priv)->ncid, info));
    return 0;
}

/* ncmpi_sync writes a dirty header (the record count) and calls MPI_File_sync. */
static int pn_sync(cio_dfile *f)
{
    PN(f, "ncmpi_sync", ncmpi_sync(((pn_file *)f->priv)->ncid));
    return 0;
}

static int pn_close(cio_dfile *f)
{
    pn_file *p = f->priv;
    int rc = NC_NOERR;
    const char *call = "";
    if (p->attached) {
        call = "ncmpi_buffer_detach";
        rc = ncmpi_buffer_detach(p->ncid);
    }
    if (rc == NC_NOERR && p->indep) {
        call = "ncmpi_end_indep_data";
        rc = ncmpi_end_indep_data(p->ncid);
    }
    int rc2 = ncmpi_close(p->ncid);
    int64_t end = p->data_end, bytes = p->data_bytes;
    cio_free(p->reqs);
    cio_free(p->status);
    cio_free(p->vars);
    cio_free(p);
    f->priv = NULL;
    if (rc != NC_NOERR) return pn_err(f, call, rc);
    if (rc2 != NC_NOERR) return pn_err(f, "ncmpi_close", rc2);
    return f->writable ? cio_check_file_size(f, end, bytes) : 0;
}

static int pn_get_att(cio_dfile *f, int varid, const char *name, cio_type t, int64_t maxlen, void *vals, int64_t *len)
{
    pn_file *p = f->priv;
    int v = varid < 0 ? NC_GLOBAL : varid;
    nc_type xt;
    MPI_Offset n = 0;
    int rc = ncmpi_inq_att(p->ncid, v, name, &xt, &n);
    if (rc == NC_ENOTATT) return 1;
    if (rc != NC_NOERR) return pn_err(f, "ncmpi_inq_att", rc);
    *len = n;
    void *tmp = cio_malloc((size_t)(n ? n : 1) * cio_type_size(t));
    switch (t) {
    case CIO_CHAR: rc = ncmpi_get_att_text(p->ncid, v, name, tmp); break;
    case CIO_BYTE: rc = ncmpi_get_att_schar(p->ncid, v, name, tmp); break;
    case CIO_SHORT: rc = ncmpi_get_att_short(p->ncid, v, name, tmp); break;
    case CIO_INT: rc = ncmpi_get_att_int(p->ncid, v, name, tmp); break;
    case CIO_FLOAT: rc = ncmpi_get_att_float(p->ncid, v, name, tmp); break;
    case CIO_DOUBLE: rc = ncmpi_get_att_double(p->ncid, v, name, tmp); break;
    default: rc = ncmpi_get_att_longlong(p->ncid, v, name, tmp); break;
    }
    if (rc == NC_NOERR) memcpy(vals, tmp, (size_t)(n < maxlen ? n : maxlen) * cio_type_size(t));
    cio_free(tmp);
    if (rc != NC_NOERR) return pn_err(f, "ncmpi_get_att", rc);
    return 0;
}

static int pn_inq_dimlen(cio_dfile *f, const char *name, int64_t *len)
{
    pn_file *p = f->priv;
    int id;
    MPI_Offset n = 0;
    if (ncmpi_inq_dimid(p->ncid, name, &id) != NC_NOERR) return 1;
    PN(f, "ncmpi_inq_dimlen", ncmpi_inq_dimlen(p->ncid, id, &n));
    *len = n;
    return 0;
}

static int pn_inq_var(cio_dfile *f, int varid, cio_var_layout *out)
{
    pn_file *p = f->priv;
    int nd = 0, ud = -1;
    nc_type t = 0;
    memset(out, 0, sizeof *out);
    PN(f, "ncmpi_inq_varndims", ncmpi_inq_varndims(p->ncid, varid, &nd));
    int *dims = cio_calloc((size_t)(nd ? nd : 1), sizeof *dims);
    int rc = ncmpi_inq_var(p->ncid, varid, NULL, &t, &nd, dims, NULL);
    if (rc == NC_NOERR) rc = ncmpi_inq_unlimdim(p->ncid, &ud);
    cio_nc_type_name(t, out->type, sizeof out->type);
    out->ndims = nd;
    out->is_record = nd > 0 && dims[0] == ud;
    for (int k = 0; k < nd && k < CIO_MAX_DIMS && rc == NC_NOERR; k++) {
        MPI_Offset len = 0;
        rc = ncmpi_inq_dim(p->ncid, dims[k], out->dim[k], &len);
        out->len[k] = len;
    }
    cio_free(dims);
    return rc == NC_NOERR ? 0 : pn_err(f, "ncmpi_inq_var", rc);
}

static void pn_describe(char *buf, size_t len)
{
    buf[0] = '\0';
    if (!bput_stats.used) return;
    snprintf(buf, len, "bput buffer %lld bytes per file (rank 0); %lld requests buffered, %lld (%lld bytes) posted "
             "with iput because the buffer was full",
             (long long)bput_stats.buffer, (long long)bput_stats.requests, (long long)bput_stats.fallback,
             (long long)bput_stats.fallback_bytes);
}

const cio_driver cio_driver_pnetcdf = {
    .name = "pnetcdf",
    .description = "PnetCDF: CDF-1/2/5, blocking and nonblocking (iput/bput), collective and independent",
    .modes = CIO_MODES_ALL,
    .formats = CIO_FMT_BIT(CIO_FMT_CDF1) | CIO_FMT_BIT(CIO_FMT_CDF2) | CIO_FMT_BIT(CIO_FMT_CDF5),
    .default_format = CIO_FMT_CDF5,
    .stores_data = 1,
    .posts_varn = 1,
    .fill_formats = CIO_FMT_BIT(CIO_FMT_CDF1) | CIO_FMT_BIT(CIO_FMT_CDF2) | CIO_FMT_BIT(CIO_FMT_CDF5),
    .pad_formats = CIO_FMT_BIT(CIO_FMT_CDF1) | CIO_FMT_BIT(CIO_FMT_CDF2) | CIO_FMT_BIT(CIO_FMT_CDF5),
    .hint_formats = CIO_FMT_BIT(CIO_FMT_CDF1) | CIO_FMT_BIT(CIO_FMT_CDF2) | CIO_FMT_BIT(CIO_FMT_CDF5),
    .hint_prefix = "nc_",
    .ior_api = "NCMPI",
    .open_diagnosis = cio_nc_open_diagnosis,
    .params = pn_params,
    .configure = pn_configure,
    .param_idle = pn_param_idle,
    .version = pn_version,
    .create = pn_create,
    .open = pn_open,
    .def_dim = pn_def_dim,
    .def_var = pn_def_var,
    .put_att = pn_put_att,
    .enddef = pn_enddef,
    .inq_varid = pn_inq_varid,
    .inq_nrecs = pn_inq_nrecs,
    .put = pn_put,
    .get = pn_get,
    .wait = pn_wait,
    .inq_put_size = pn_inq_put_size,
    .inq_get_size = pn_inq_get_size,
    .close = pn_close,
    .sync = pn_sync,
    .sync_closed = cio_sync_closed_path,
    .file_info = pn_file_info,
    .header_size = pn_header_size,
    .max_extent = pn_max_extent,
    .get_att = pn_get_att,
    .describe = pn_describe,
    .inq_dimlen = pn_inq_dimlen,
    .data_end = pn_data_end,
    .inq_var = pn_inq_var,
};
