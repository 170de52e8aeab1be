/* The adios2 driver: BP output through ADIOS2's C API, as PIO2/SCORPIO writes
 * it.  Each file the engine creates is one BP output (a directory, the path
 * with ".bp" appended); each record is one BP step; a variable is a global array
 * whose shape is its dimensions without the record dimension, and every rank
 * puts its own blocks at their global offsets, as they are, with no
 * rearrangement into the canonical layout (that is the converter's job, see
 * climio_bp2nc).  Fixed variables go into the step open when they are written
 * (the first one, for kernels that write them at creation); attributes are
 * ADIOS2 attributes; the names, order and types netCDF needs are kept as the
 * attributes bp_layout.h lists.
 *
 *   blocking_collective      adios2_put in sync mode: ADIOS2 copies each block
 *                            into its buffer at once
 *   blocking_independent     the same (the engine makes record puts on every
 *                            rank, see below)
 *   nonblocking_collective   adios2_put deferred at the engine's put, then
 *                            adios2_perform_puts at its wait
 *   nonblocking_independent  refused: a rank may make no call at all there
 *
 * Steps.  Ending a step is collective in BP5 (the metadata is gathered), so all
 * ranks must agree when a record ends, and a rank with no share of a variable
 * gets an empty request that does not say which record it is.  The driver
 * therefore agrees on the record in the engine's collective calls: in the
 * blocking modes one MPI_Allreduce per put of a record variable (the engine makes
 * those on every rank, empty ones included, also in blocking_independent since
 * the driver sets extend_collective), in nonblocking_collective one per wait
 * over everything posted since the last wait.  A step ends when the first write
 * of the next record arrives, or at close; that is when BP5 writes the step's
 * data, so the time of the I/O shows in that put (blocking), wait
 * (nonblocking) or the close.
 *
 * Reopening for append (cio_open): the output is first opened for reading to
 * learn its layout and record count, closed, and opened again in append mode
 * with the same variables defined; new records become new steps.  Records can
 * only be appended in order (record r of a variable is the r-th step holding
 * it): rewriting an existing record is refused with a message.
 *
 * Reading (--verify, --read): the output is opened in random-access mode; a get
 * selects the record's step among the variable's steps and the blocks' boxes,
 * whatever blocks the writers put.  Parameters: adios2_engine (BP5, BP4),
 * adios2_aggregators (BP5 NumAggregators; 0: ADIOS2's default, one per node
 * with the TwoLevelShm aggregation: ranks on a node hand their blocks to one
 * writer), adios2_params (any other engine parameters, "Key=Value,Key=Value"). */
#include "config.h"
#include "drivers/driver.h"
#include "drivers/bp_layout.h"
#include "drivers/io_util.h"
#include "base/params.h"
#include "data/schema.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bp_var {
    char *name;
    cio_type type;
    int ndims;              /* climio dimensions, the record one first */
    int is_record;
    int adims;              /* ADIOS2 dimensions: without the record one */
    size_t shape[CIO_MAX_DIMS];
    adios2_variable *v;     /* NULL when reading an output with no data for it */
    int64_t last_rec;       /* the last record this rank wrote, -1 none */
    int64_t nsteps;         /* steps holding the variable (read, or when reopened) */
    char *dimlist;          /* '/'-separated dimension names */
    char *attlist;          /* '/'-separated attribute names, in order */
} bp_var;

typedef struct bp_req {     /* a put posted in a nonblocking mode */
    int varid;
    int64_t rec;            /* -1: fixed variable */
    int nblocks;
    int64_t *start, *count; /* nblocks x ndims, copies */
    const char *buf;
} bp_req;

typedef struct bp_file {
    char path[4096];
    adios2_adios *adios;
    adios2_io *io;
    adios2_engine *eng;
    int ndims, dimcap;
    char **dimname;
    int64_t *dimlen;
    int nvars, varcap;
    bp_var *vars;
    char *gattlist;
    char *hints;            /* the MPI-IO hints asked for at create, "k=v;k=v" */
    int in_step;
    int64_t step_rec;       /* the record of the open step, -1 none yet */
    int64_t nrecs;          /* records in the output when opened (0 when created) */
    int nq, qcap;
    bp_req *q;
    int ngets;              /* deferred gets since the last wait */
} bp_file;

/* What the report says (this process, the last file). */
static struct {
    char engine[32];
    int aggregators;
    char params[256];
    int nonblocking;
    int64_t steps, files;
} bp_info;

/* ---------------------------------------------------------------- the driver */
static const char *bp_version(void)
{
    static char v[64];
    snprintf(v, sizeof v, "ADIOS2 %s", ADIOS2_VERSION_STR);
    return v;
}

static int bp_err(cio_dfile *f, const char *call, adios2_error rc)
{
    return cio_driver_err(f, call, "%s", cio_bp_strerror(rc));
}

#define BP(f, call, expr)                                        \
    do {                                                         \
        adios2_error rc_ = (expr);                               \
        if (rc_ != adios2_error_none) return bp_err((f), (call), rc_); \
    } while (0)

static void free_file(bp_file *p)
{
    if (!p) return;
    for (int i = 0; i < p->ndims; i++) cio_free(p->dimname[i]);
    cio_free(p->dimname);
    cio_free(p->dimlen);
    for (int i = 0; i < p->nvars; i++) {
        cio_free(p->vars[i].name);
        cio_free(p->vars[i].dimlist);
        cio_free(p->vars[i].attlist);
    }
    cio_free(p->vars);
    cio_free(p->gattlist);
    cio_free(p->hints);
    for (int i = 0; i < p->nq; i++) {
        cio_free(p->q[i].start);
        cio_free(p->q[i].count);
    }
    cio_free(p->q);
    if (p->adios) adios2_finalize(p->adios);
    cio_free(p);
}

/* ---------------------------------------------------------------- parameters */
static const cio_param_spec bp_params[] = {
    {"adios2_engine", CIO_P_CHOICE, "BP5", "adios2: ADIOS2 engine writing the BP output", "BP5|BP4", 0, 0, 0},
    {"adios2_aggregators", CIO_P_INT, "0", "adios2: BP5 NumAggregators, ranks writing data files (0: ADIOS2's default)",
     0, 0, 1e9, 0},
    {"adios2_params", CIO_P_STRING, NULL, "adios2: more engine parameters, 'Key=Value,Key=Value' (e.g. AsyncWrite=Guided)",
     0, 0, 0, 0},
    CIO_PARAM_END,
};

typedef struct bp_conf {
    const char *engine;     /* "BP5" */
    int aggregators;        /* NumAggregators, 0: the engine's default */
    const char *params;     /* more engine parameters, "Key=Value,Key=Value" */
} bp_conf;

static int bp_configure(const cio_params *prm, const cio_driver_opts *o, void **conf, cio_err *e)
{
    (void)o;
    (void)e;
    bp_conf *c = cio_calloc(1, sizeof *c);
    c->engine = "BP5";
    if (prm) {
        c->engine = cio_param_str(prm, "adios2_engine");
        c->aggregators = (int)cio_param_int(prm, "adios2_aggregators");
        c->params = cio_param_str(prm, "adios2_params");
    }
    *conf = c;
    return 0;
}

static const char *bp_refusal(cio_mode m)
{
    return m == CIO_MODE_NONBLOCKING_INDEPENDENT
               ? "use nonblocking_collective: ADIOS2 ends a step on all ranks at once, and in this mode a rank may "
                 "make no call"
               : NULL;
}

/* A new ADIOS2 io with the engine and its parameters from the options; readers
 * use the "File" engine, which reads BP3, BP4 and BP5 alike. */
static int new_io(cio_dfile *f, bp_file *p, const char *name, int reading)
{
    static const bp_conf defaults = {"BP5", 0, NULL};
    const bp_conf *c = f->opts->conf ? f->opts->conf : &defaults;
    const char *engine = c->engine && *c->engine ? c->engine : "BP5";
    if (reading) engine = "File";
    p->io = adios2_declare_io(p->adios, name);
    if (!p->io) return cio_driver_err(f, "adios2_declare_io", "%s", cio_bp_strerror(adios2_error_runtime_error));
    BP(f, "adios2_set_engine", adios2_set_engine(p->io, engine));
    if (!reading) snprintf(bp_info.engine, sizeof bp_info.engine, "%s", engine);
    bp_info.aggregators = c->aggregators;
    bp_info.nonblocking = cio_mode_nonblocking(f->opts->mode);
    if (c->aggregators > 0) {
        char n[32];
        snprintf(n, sizeof n, "%d", c->aggregators);
        BP(f, "adios2_set_parameter NumAggregators", adios2_set_parameter(p->io, "NumAggregators", n));
    }
    const char *extra = c->params;
    snprintf(bp_info.params, sizeof bp_info.params, "%s", extra ? extra : "");
    if (extra && *extra) BP(f, "adios2_set_parameters", adios2_set_parameters(p->io, extra));
    return 0;
}

static int start(cio_dfile *f, bp_file **pp)
{
    bp_file *p = cio_calloc(1, sizeof *p);
    f->priv = p;
    *pp = p;
    p->step_rec = -1;
    cio_bp_path(f->path, p->path, sizeof p->path);
    p->adios = adios2_init_mpi(f->comm);
    if (!p->adios) return cio_driver_err(f, "adios2_init_mpi", "%s", cio_bp_strerror(adios2_error_runtime_error));
    /* a record's puts are agreed on in every put: see the top of this file */
    f->extend_collective = 1;
    return 0;
}

static int define_var(cio_dfile *f, bp_file *p, bp_var *v)
{
    adios2_type t = cio_bp_type(v->type);
    if (v->type == CIO_CHAR || t == adios2_type_unknown)
        return cio_driver_err(f, "adios2_define_variable",
                              "variable %s: the adios2 driver writes numeric arrays only; a %s variable (text) has "
                              "no ADIOS2 array type here: use the pnetcdf, netcdf, hdf5 or mpiio driver",
                              v->name, cio_type_name(v->type));
    v->v = adios2_define_variable(p->io, v->name, t, (size_t)v->adims, v->adims ? v->shape : NULL, NULL, NULL,
                                  adios2_constant_dims_false);
    if (!v->v)
        return cio_driver_err(f, "adios2_define_variable", "variable %s: %s", v->name,
                              cio_bp_strerror(adios2_error_invalid_argument));
    return 0;
}

static int begin_step(cio_dfile *f, bp_file *p)
{
    adios2_step_status st;
    BP(f, "adios2_begin_step", adios2_begin_step(p->eng, adios2_step_mode_append, -1.0f, &st));
    p->in_step = 1;
    return 0;
}

static int end_step(cio_dfile *f, bp_file *p)
{
    BP(f, "adios2_end_step", adios2_end_step(p->eng));
    p->in_step = 0;
    bp_info.steps++;
    return 0;
}

/* The MPI-IO hints asked for, "key=value;key=value" (allocated; NULL for none). */
static char *hints_text(MPI_Info info)
{
    int n = 0;
    if (info == MPI_INFO_NULL || MPI_Info_get_nkeys(info, &n) != MPI_SUCCESS || n == 0) return NULL;
    char *text = NULL;
    size_t len = 0;
    for (int i = 0; i < n; i++) {
        char key[MPI_MAX_INFO_KEY + 1], val[1024];
        int flag = 0;
        if (MPI_Info_get_nthkey(info, i, key) != MPI_SUCCESS) continue;
        MPI_Info_get(info, key, (int)sizeof val - 1, val, &flag);
        if (!flag) continue;
        size_t add = strlen(key) + strlen(val) + 2;
        text = cio_realloc(text, len + add + 1);
        len += (size_t)sprintf(text + len, "%s%s=%s", len ? ";" : "", key, val);
    }
    return text;
}

static int bp_create(cio_dfile *f, MPI_Info info)
{
    bp_file *p;
    if (start(f, &p) || new_io(f, p, "climio", 0)) return -1;
    bp_info.files++;
    /* ADIOS2 writes through POSIX and takes no MPI-IO hints; they are kept for the
     * netCDF file climio_bp2nc makes (its header and variable alignment) */
    p->hints = hints_text(info);
    p->eng = adios2_open(p->io, p->path, adios2_mode_write);
    if (!p->eng) {
        cio_driver_err(f, "adios2_open", "%s for writing: %s", p->path, cio_bp_strerror(adios2_error_system_error));
        cio_dir_hint(f);
        return -1;
    }
    return 0;
}

/* Variables and dimensions from the output's own layout (open). */
static void load_layout(bp_file *p, const cio_schema *s)
{
    p->ndims = s->ndims;
    p->dimname = cio_calloc((size_t)(s->ndims ? s->ndims : 1), sizeof *p->dimname);
    p->dimlen = cio_calloc((size_t)(s->ndims ? s->ndims : 1), sizeof *p->dimlen);
    for (int i = 0; i < s->ndims; i++) {
        p->dimname[i] = cio_strdup(s->dims[i].name);
        p->dimlen[i] = s->dims[i].len;
    }
    p->nvars = p->varcap = s->nvars;
    p->vars = cio_calloc((size_t)(s->nvars ? s->nvars : 1), sizeof *p->vars);
    for (int i = 0; i < s->nvars; i++) {
        const cio_var *sv = &s->vars[i];
        bp_var *v = &p->vars[i];
        v->name = cio_strdup(sv->name);
        v->type = sv->type;
        v->ndims = sv->ndims;
        v->is_record = sv->is_record;
        v->adims = sv->ndims - sv->is_record;
        for (int k = 0; k < v->adims; k++) v->shape[k] = (size_t)s->dims[sv->dimids[k + sv->is_record]].len;
        for (int k = 0; k < sv->ndims; k++) cio_bp_list_add(&v->dimlist, s->dims[sv->dimids[k]].name);
        v->last_rec = -1;
    }
}

static int bp_open(cio_dfile *f, MPI_Info info)
{
    (void)info;
    bp_file *p;
    if (start(f, &p) || new_io(f, p, "climio-read", 1)) return -1;
    p->eng = adios2_open(p->io, p->path, adios2_mode_readRandomAccess);
    if (!p->eng) {
        cio_driver_err(f, "adios2_open", "%s for reading: %s", p->path, cio_bp_strerror(adios2_error_system_error));
        cio_dir_hint(f);
        return -1;
    }
    char err[CIO_ERRMSG_LEN - 128];
    cio_schema *s = cio_bp_read_schema(p->io, p->path, err, sizeof err);
    if (!s) return cio_driver_err(f, "open", "%s", err);
    load_layout(p, s);
    cio_schema_free(s);
    for (int i = 0; i < p->nvars; i++) {
        bp_var *v = &p->vars[i];
        size_t n = 0;
        v->v = adios2_inquire_variable(p->io, v->name);
        if (v->v) BP(f, "adios2_variable_steps", adios2_variable_steps(&n, v->v));
        v->nsteps = (int64_t)n;
        if (v->is_record) {
            v->last_rec = v->nsteps - 1;
            if (v->nsteps > p->nrecs) p->nrecs = v->nsteps;
        }
    }
    if (!f->writable) return 0;
    /* append: the same variables in a new io, the output reopened after its last step */
    BP(f, "adios2_close", adios2_close(p->eng));
    p->eng = NULL;
    if (new_io(f, p, "climio-append", 0)) return -1;
    for (int i = 0; i < p->nvars; i++)
        if (define_var(f, p, &p->vars[i])) return -1;
    p->eng = adios2_open(p->io, p->path, adios2_mode_append);
    if (!p->eng)
        return cio_driver_err(f, "adios2_open", "%s for appending: %s", p->path,
                              cio_bp_strerror(adios2_error_system_error));
    return begin_step(f, p);
}

static int bp_def_dim(cio_dfile *f, const char *name, int64_t len, int *dimid)
{
    bp_file *p = f->priv;
    if (p->ndims == p->dimcap) {
        p->dimcap = p->dimcap ? 2 * p->dimcap : 8;
        p->dimname = cio_realloc(p->dimname, (size_t)p->dimcap * sizeof *p->dimname);
        p->dimlen = cio_realloc(p->dimlen, (size_t)p->dimcap * sizeof *p->dimlen);
    }
    p->dimname[p->ndims] = cio_strdup(name);
    p->dimlen[p->ndims] = len;
    *dimid = p->ndims++;
    return 0;
}

static int bp_def_var(cio_dfile *f, const char *name, cio_type t, int ndims, const int *dimids, int *varid)
{
    bp_file *p = f->priv;
    if (p->nvars == p->varcap) {
        p->varcap = p->varcap ? 2 * p->varcap : 16;
        p->vars = cio_realloc(p->vars, (size_t)p->varcap * sizeof *p->vars);
    }
    bp_var *v = &p->vars[p->nvars];
    memset(v, 0, sizeof *v);
    v->name = cio_strdup(name);
    v->type = t;
    v->ndims = ndims;
    v->is_record = ndims > 0 && p->dimlen[dimids[0]] == CIO_UNLIMITED;
    v->adims = ndims - v->is_record;
    v->last_rec = -1;
    for (int k = 0; k < ndims; k++) {
        cio_bp_list_add(&v->dimlist, p->dimname[dimids[k]]);
        if (k >= v->is_record) v->shape[k - v->is_record] = (size_t)p->dimlen[dimids[k]];
    }
    *varid = p->nvars++;
    return define_var(f, p, v);
}

static int bp_put_att(cio_dfile *f, int varid, const char *name, cio_type t, int64_t len, const void *vals)
{
    bp_file *p = f->priv;
    adios2_type at = cio_bp_type(t);
    const char *vname = varid >= 0 ? p->vars[varid].name : NULL;
    adios2_attribute *a;
    if (t == CIO_CHAR) {
        char *text = cio_strndup(vals, (size_t)len);
        a = vname ? adios2_define_variable_attribute(p->io, name, at, text, vname, "/")
                  : adios2_define_attribute(p->io, name, at, text);
        cio_free(text);
    } else if (len < 1) {
        return cio_driver_err(f, "adios2_define_attribute", "attribute %s has no values (ADIOS2 stores none)", name);
    } else if (len == 1) {
        a = vname ? adios2_define_variable_attribute(p->io, name, at, vals, vname, "/")
                  : adios2_define_attribute(p->io, name, at, vals);
    } else {
        a = vname ? adios2_define_variable_attribute_array(p->io, name, at, vals, (size_t)len, vname, "/")
                  : adios2_define_attribute_array(p->io, name, at, vals, (size_t)len);
    }
    if (!a)
        return cio_driver_err(f, "adios2_define_attribute", "%s%s%s: %s", vname ? vname : "", vname ? "/" : "", name,
                              cio_bp_strerror(adios2_error_invalid_argument));
    cio_bp_list_add(vname ? &p->vars[varid].attlist : &p->gattlist, name);
    return 0;
}

static int meta_att(cio_dfile *f, bp_file *p, const char *name, const char *text)
{
    if (!text || !*text) return 0;      /* absent means empty */
    if (!adios2_define_attribute(p->io, name, adios2_type_string, text))
        return cio_driver_err(f, "adios2_define_attribute", "%s: %s", name,
                              cio_bp_strerror(adios2_error_invalid_argument));
    return 0;
}

/* The layout attributes (bp_layout.h), then the first step. */
static int bp_enddef(cio_dfile *f)
{
    bp_file *p = f->priv;
    char *dims = NULL, *vars = NULL, *types = NULL, key[600];
    int rc = 0;
    int32_t version = 1;
    if (!adios2_define_attribute(p->io, CIO_BP_META "/version", adios2_type_int32_t, &version))
        return cio_driver_err(f, "adios2_define_attribute", CIO_BP_META "/version: %s",
                              cio_bp_strerror(adios2_error_invalid_argument));
    /* what the kernel writes through the netCDF drivers, for climio_bp2nc */
    const char *fmt = f->opts->kernel_format == CIO_FMT_NONE ? "default" : cio_format_name(f->opts->kernel_format);
    char pad[32];
    snprintf(pad, sizeof pad, "%lld", (long long)f->opts->header_pad);
    if (meta_att(f, p, CIO_BP_META "/format", fmt) || meta_att(f, p, CIO_BP_META "/hints", p->hints) ||
        meta_att(f, p, CIO_BP_META "/header_pad", pad))
        return -1;
    for (int i = 0; i < p->ndims; i++) cio_bp_list_add(&dims, p->dimname[i]);
    for (int i = 0; i < p->nvars; i++) {
        cio_bp_list_add(&vars, p->vars[i].name);
        cio_bp_list_add(&types, cio_type_name(p->vars[i].type));
    }
    rc = meta_att(f, p, CIO_BP_META "/dims", dims) || meta_att(f, p, CIO_BP_META "/vars", vars) ||
         meta_att(f, p, CIO_BP_META "/types", types) || meta_att(f, p, CIO_BP_META "/atts", p->gattlist);
    if (!rc && p->ndims &&
        !adios2_define_attribute_array(p->io, CIO_BP_META "/dimlens", adios2_type_int64_t, p->dimlen,
                                       (size_t)p->ndims))
        rc = cio_driver_err(f, "adios2_define_attribute", CIO_BP_META "/dimlens: %s",
                            cio_bp_strerror(adios2_error_invalid_argument));
    for (int i = 0; i < p->nvars && !rc; i++) {
        snprintf(key, sizeof key, CIO_BP_META "/dims/%s", p->vars[i].name);
        rc = meta_att(f, p, key, p->vars[i].dimlist);
        snprintf(key, sizeof key, CIO_BP_META "/atts/%s", p->vars[i].name);
        if (!rc) rc = meta_att(f, p, key, p->vars[i].attlist);
    }
    cio_free(dims);
    cio_free(vars);
    cio_free(types);
    return rc ? rc : begin_step(f, p);
}

static int bp_inq_varid(cio_dfile *f, const char *name, int *varid)
{
    bp_file *p = f->priv;
    for (int i = 0; i < p->nvars; i++)
        if (strcmp(p->vars[i].name, name) == 0) {
            *varid = i;
            return 0;
        }
    return cio_driver_err(f, "inq_varid", "%s has no variable %s", p->path, name);
}

static int bp_inq_nrecs(cio_dfile *f, int64_t *nrecs)
{
    bp_file *p = f->priv;
    *nrecs = p->step_rec + 1 > p->nrecs ? p->step_rec + 1 : p->nrecs;
    return 0;
}

/* The type and shape ADIOS2 holds for the variable (the layout attributes only
 * name its dimensions); the record dimension's length is its steps. */
static int bp_inq_var(cio_dfile *f, int varid, cio_var_layout *out)
{
    bp_file *p = f->priv;
    if (varid < 0 || varid >= p->nvars) return cio_driver_err(f, "inq_var", "bad variable id %d", varid);
    bp_var *v = &p->vars[varid];
    memset(out, 0, sizeof *out);
    cio_type t = v->type;
    size_t adims = (size_t)v->adims, *shape = NULL;
    if (v->v) {
        adios2_type at;
        BP(f, "adios2_variable_type", adios2_variable_type(&at, v->v));
        if (cio_bp_from_type(at, &t) != 0) {
            t = CIO_NTYPES;
            snprintf(out->type, sizeof out->type, "ADIOS2 type %d", (int)at);
        }
        BP(f, "adios2_variable_ndims", adios2_variable_ndims(&adims, v->v));
        shape = cio_calloc(adims ? adims : 1, sizeof *shape);
        adios2_error rc = adims ? adios2_variable_shape(shape, v->v) : adios2_error_none;
        if (rc != adios2_error_none) {
            cio_free(shape);
            return bp_err(f, "adios2_variable_shape", rc);
        }
    }
    if (t < CIO_NTYPES) snprintf(out->type, sizeof out->type, "%s", cio_type_name(t));
    out->is_record = v->is_record;
    out->ndims = (int)adims + v->is_record;
    const char *q = v->dimlist;
    for (int k = 0; k < out->ndims && k < CIO_MAX_DIMS; k++) {
        if (q) q = cio_bp_list_next(q, out->dim[k], sizeof out->dim[k]);
        int a = k - v->is_record;
        out->len[k] = a < 0 ? v->nsteps : shape ? (int64_t)shape[a] : (int64_t)v->shape[a];
    }
    cio_free(shape);
    return 0;
}

/* Make the open step the one of record `rec` (every rank, the same rec). */
static int advance(cio_dfile *f, bp_file *p, int64_t rec)
{
    if (p->step_rec < 0) {
        if (rec != p->nrecs)
            return cio_driver_err(f, "put", "%s: record %lld: the output holds %lld record(s) and BP steps are only "
                                  "appended, in order", p->path, (long long)rec, (long long)p->nrecs);
        p->step_rec = rec;
        return 0;
    }
    if (rec == p->step_rec) return 0;
    if (rec != p->step_rec + 1)
        return cio_driver_err(f, "put", "%s: record %lld after record %lld: BP steps are only appended, in order",
                              p->path, (long long)rec, (long long)p->step_rec);
    if (end_step(f, p) || begin_step(f, p)) return -1;
    p->step_rec = rec;
    return 0;
}

/* Put the blocks of one request into the open step. */
/* Select one block (the variable's dimensions from `off`) on v for the next put
 * or get; *elems gets its elements (0: nothing to select). */
static int select_block(cio_dfile *f, bp_var *v, const int64_t *st, const int64_t *ct, int off, int64_t *elems)
{
    size_t s[CIO_MAX_DIMS], c[CIO_MAX_DIMS];
    *elems = 1;
    for (int k = 0; k < v->adims; k++) {
        s[k] = (size_t)st[off + k];
        c[k] = (size_t)ct[off + k];
        *elems *= ct[off + k];
    }
    if (*elems > 0 && v->adims) BP(f, "adios2_set_selection", adios2_set_selection(v->v, (size_t)v->adims, s, c));
    return 0;
}

static int put_blocks(cio_dfile *f, bp_file *p, int varid, int nblocks, const int64_t *start, const int64_t *count,
                      const char *buf, adios2_mode mode)
{
    bp_var *v = &p->vars[varid];
    size_t ts = cio_type_size(v->type);
    int nd = v->ndims, off = v->is_record;
    for (int b = 0; b < nblocks; b++) {
        const int64_t *st = start ? start + (size_t)b * (size_t)nd : NULL;
        const int64_t *ct = count ? count + (size_t)b * (size_t)nd : NULL;
        if (v->is_record) {
            int64_t rec = st[0];
            if (rec != p->step_rec)
                return cio_driver_err(f, "adios2_put", "variable %s: record %lld in the step of record %lld", v->name,
                                      (long long)rec, (long long)p->step_rec);
            if (rec != v->last_rec && rec != v->last_rec + 1)
                return cio_driver_err(f, "adios2_put",
                                      "variable %s: record %lld after record %lld: in BP a variable's record r is "
                                      "its r-th step, so its records must be written without gaps",
                                      v->name, (long long)rec, (long long)v->last_rec);
            v->last_rec = rec;
        }
        int64_t elems = 0;
        if (select_block(f, v, st, ct, off, &elems) != 0) return -1;
        if (elems == 0) continue;
        BP(f, "adios2_put", adios2_put(p->eng, v->v, buf, mode));
        buf += (size_t)elems * ts;
    }
    return 0;
}

static int64_t req_record(const bp_var *v, int nblocks, const int64_t *start)
{
    return v->is_record && nblocks > 0 ? start[0] : -1;
}

static int bp_put(cio_dfile *f, const cio_req *r)
{
    bp_file *p = f->priv;
    if (!f->writable || !p->in_step) return cio_driver_err(f, "adios2_put", "%s is not open for writing", p->path);
    bp_var *v = &p->vars[r->varid];
    int64_t rec = req_record(v, r->nblocks, r->start);
    if (cio_mode_nonblocking(f->opts->mode)) {
        /* posted: the step is agreed on at the wait, where every rank is */
        if (p->nq == p->qcap) {
            p->qcap = p->qcap ? 2 * p->qcap : 16;
            p->q = cio_realloc(p->q, (size_t)p->qcap * sizeof *p->q);
        }
        bp_req *q = &p->q[p->nq++];
        size_t n = (size_t)r->nblocks * (size_t)v->ndims;
        q->varid = r->varid;
        q->rec = rec;
        q->nblocks = r->nblocks;
        q->start = cio_malloc((n ? n : 1) * sizeof(int64_t));
        q->count = cio_malloc((n ? n : 1) * sizeof(int64_t));
        if (n) {
            memcpy(q->start, r->start, n * sizeof(int64_t));
            memcpy(q->count, r->count, n * sizeof(int64_t));
        }
        q->buf = r->buf;
        return 0;
    }
    if (v->is_record) {
        int64_t all = -1;
        MPI_Allreduce(&rec, &all, 1, MPI_INT64_T, MPI_MAX, f->comm);
        if (all < 0) return 0;
        if (advance(f, p, all)) return -1;
    }
    return put_blocks(f, p, r->varid, r->nblocks, r->start, r->count, r->buf, adios2_mode_sync);
}

/* Nonblocking writes: agree on the records posted, then put them step by step. */
static int flush_posted(cio_dfile *f, bp_file *p)
{
    int64_t lo = INT64_MAX, hi = -1;
    for (int i = 0; i < p->nq; i++)
        if (p->q[i].rec >= 0) {
            if (p->q[i].rec < lo) lo = p->q[i].rec;
            if (p->q[i].rec > hi) hi = p->q[i].rec;
        }
    /* the max of -lowest is the lowest record posted; -INT64_MAX where none is,
     * so that negating it back cannot overflow */
    int64_t mine[2] = {hi >= 0 ? -lo : -INT64_MAX, hi}, all[2];
    MPI_Allreduce(mine, all, 2, MPI_INT64_T, MPI_MAX, f->comm);
    int rc = 0;
    for (int i = 0; i < p->nq && !rc; i++)
        if (p->q[i].rec < 0)
            rc = put_blocks(f, p, p->q[i].varid, p->q[i].nblocks, p->q[i].start, p->q[i].count, p->q[i].buf,
                            adios2_mode_deferred);
    for (int64_t rec = -all[0]; all[1] >= 0 && rec <= all[1] && !rc; rec++) {
        rc = advance(f, p, rec);
        for (int i = 0; i < p->nq && !rc; i++)
            if (p->q[i].rec == rec)
                rc = put_blocks(f, p, p->q[i].varid, p->q[i].nblocks, p->q[i].start, p->q[i].count, p->q[i].buf,
                                adios2_mode_deferred);
    }
    for (int i = 0; i < p->nq; i++) {
        cio_free(p->q[i].start);
        cio_free(p->q[i].count);
    }
    p->nq = 0;
    if (rc) return rc;
    BP(f, "adios2_perform_puts", adios2_perform_puts(p->eng));
    return 0;
}

static int bp_get(cio_dfile *f, const cio_req *r)
{
    bp_file *p = f->priv;
    if (f->writable) return cio_driver_err(f, "adios2_get", "%s is open for writing, not reading", p->path);
    bp_var *v = &p->vars[r->varid];
    if (r->nblocks == 0) return 0;
    if (!v->v)
        return cio_driver_err(f, "adios2_inquire_variable", "%s holds no data of variable %s", p->path, v->name);
    size_t ts = cio_type_size(v->type);
    int nd = v->ndims, off = v->is_record;
    adios2_mode mode = cio_mode_nonblocking(f->opts->mode) ? adios2_mode_deferred : adios2_mode_sync;
    char *buf = r->buf;
    for (int b = 0; b < r->nblocks; b++) {
        const int64_t *st = r->start ? r->start + (size_t)b * (size_t)nd : NULL;
        const int64_t *ct = r->count ? r->count + (size_t)b * (size_t)nd : NULL;
        /* record r is the variable's r-th step; a fixed variable's last write wins, as in netCDF */
        int64_t step = v->is_record ? st[0] : v->nsteps - 1;
        if (step < 0 || step >= v->nsteps)
            return cio_driver_err(f, "adios2_set_step_selection", "%s: variable %s has %lld record(s), not record %lld",
                                  p->path, v->name, (long long)v->nsteps, (long long)step);
        BP(f, "adios2_set_step_selection", adios2_set_step_selection(v->v, (size_t)step, 1));
        int64_t elems = 0;
        if (select_block(f, v, st, ct, off, &elems) != 0) return -1;
        if (elems == 0) continue;
        BP(f, "adios2_get", adios2_get(p->eng, v->v, buf, mode));
        if (mode == adios2_mode_deferred) p->ngets++;
        buf += (size_t)elems * ts;
    }
    return 0;
}

static int bp_wait(cio_dfile *f)
{
    bp_file *p = f->priv;
    if (f->writable) return flush_posted(f, p);
    if (p->ngets) BP(f, "adios2_perform_gets", adios2_perform_gets(p->eng));
    p->ngets = 0;
    return 0;
}

static int bp_close(cio_dfile *f)
{
    bp_file *p = f->priv;
    int rc = 0;
    if (p->eng) {
        if (f->writable && p->nq) rc = flush_posted(f, p);
        if (!rc && p->in_step) rc = end_step(f, p);
        adios2_error e = adios2_close(p->eng);
        if (!rc && e != adios2_error_none) rc = bp_err(f, "adios2_close", e);
        p->eng = NULL;
    }
    free_file(p);
    f->priv = NULL;
    return rc;
}

static int bp_get_att(cio_dfile *f, int varid, const char *name, cio_type t, int64_t maxlen, void *vals,
                      int64_t *len)
{
    bp_file *p = f->priv;
    adios2_attribute *a = varid >= 0 ? adios2_inquire_variable_attribute(p->io, name, p->vars[varid].name, "/")
                                     : adios2_inquire_attribute(p->io, name);
    if (!a) return 1;
    cio_schema *s = cio_schema_new("att");
    char err[512];
    int rc = cio_bp_read_att(s, -1, name, a, p->path, err, sizeof err);
    if (rc) {
        cio_schema_free(s);
        return cio_driver_err(f, "adios2_attribute_data", "%s", err);
    }
    const cio_att *at = &s->gatts[0];
    *len = at->len;
    int64_t n = at->len < maxlen ? at->len : maxlen;
    if (t == at->type) {
        memcpy(vals, at->vals, (size_t)n * cio_type_size(t));
    } else if (t == CIO_CHAR || at->type == CIO_CHAR) {
        cio_schema_free(s);
        return cio_driver_err(f, "adios2_attribute_data", "attribute %s is %s, not %s", name,
                              cio_type_name(at->type), cio_type_name(t));
    } else {
        for (int64_t i = 0; i < n; i++) {
            double x = cio_value_as_double(at->type, at->vals, i);
            switch (t) {
            case CIO_BYTE: ((int8_t *)vals)[i] = (int8_t)x; break;
            case CIO_SHORT: ((int16_t *)vals)[i] = (int16_t)x; break;
            case CIO_INT: ((int32_t *)vals)[i] = (int32_t)x; break;
            case CIO_FLOAT: ((float *)vals)[i] = (float)x; break;
            case CIO_DOUBLE: ((double *)vals)[i] = x; break;
            default: ((int64_t *)vals)[i] = (int64_t)x; break;
            }
        }
    }
    cio_schema_free(s);
    return 0;
}

static void bp_describe(char *buf, size_t len)
{
    if (!bp_info.engine[0]) {
        if (len) buf[0] = '\0';
        return;
    }
    char agg[48];
    if (bp_info.aggregators > 0) snprintf(agg, sizeof agg, "%d", bp_info.aggregators);
    else snprintf(agg, sizeof agg, "ADIOS2 default");
    snprintf(buf, len, "ADIOS2 engine %s, NumAggregators %s%s%s, %s puts; %lld BP outputs created, %lld steps written",
             bp_info.engine, agg, bp_info.params[0] ? ", parameters " : "", bp_info.params,
             bp_info.nonblocking ? "deferred (PerformPuts at each wait)" : "sync", (long long)bp_info.files,
             (long long)bp_info.steps);
}

/* --fsync end: each file of the BP output (its folder, NAME.bp) once, after
 * adios2_close has written them all.  ADIOS2 has no call that syncs an open
 * engine, so --fsync close is refused. */
static int bp_sync_closed(cio_dfile *f, int *calls)
{
    char path[4096];
    cio_bp_path(f->path, path, sizeof path);
    return cio_fsync_path(f, path, calls);
}

const cio_driver cio_driver_adios2 = {
    .name = "adios2",
    .description = "ADIOS2 BP (BP5): every rank puts its own blocks, one step per record",
    .modes = CIO_MODE_BIT(CIO_MODE_BLOCKING_COLLECTIVE) | CIO_MODE_BIT(CIO_MODE_BLOCKING_INDEPENDENT) |
             CIO_MODE_BIT(CIO_MODE_NONBLOCKING_COLLECTIVE),
    .formats = CIO_FMT_BIT(CIO_FMT_BP),
    .default_format = CIO_FMT_BP,
    .stores_data = 1,
    .pad_formats = CIO_FMT_BIT(CIO_FMT_BP),     /* recorded for climio_bp2nc */
    .stored_path = cio_bp_path,
    .hint_formats = CIO_FMT_BIT(CIO_FMT_BP),    /* recorded for climio_bp2nc */
    .no_char = 1,               /* BP has numeric arrays only */
    .params = bp_params,
    .configure = bp_configure,
    .refusal = bp_refusal,
    .version = bp_version,
    .create = bp_create,
    .open = bp_open,
    .def_dim = bp_def_dim,
    .def_var = bp_def_var,
    .put_att = bp_put_att,
    .enddef = bp_enddef,
    .inq_varid = bp_inq_varid,
    .inq_nrecs = bp_inq_nrecs,
    .inq_var = bp_inq_var,
    .put = bp_put,
    .get = bp_get,
    .wait = bp_wait,
    .close = bp_close,
    .sync_closed = bp_sync_closed,
    .get_att = bp_get_att,
    .describe = bp_describe,
};
