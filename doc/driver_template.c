/* A driver to copy: every verb of the interface (driver.h) with the least a
 * driver must do, plus one parameter of its own and a configure hook.  It stores
 * nothing; it counts the bytes it is given per file, reports them as the bytes
 * the "library" wrote (inq_put_size), and fails a put that would take a file
 * past its `template_limit` parameter, so a run shows the error path too.  It
 * declares that it filters its format, so --deflate and --shuffle reach it (a
 * driver that declares nothing gets them switched off, with a note): it applies
 * them where a library would, at def_var, and its report line says so.
 *
 * To add a driver called NAME (doc/internals.md):
 *   1. copy this file to src/lib/drivers/io_NAME.c and replace "template" by NAME;
 *   2. add the line `X(NAME) \` to DRIVER_TABLE in src/lib/drivers/drivers.c;
 *   3. add `src_lib_libcio_drivers_a_SOURCES += src/lib/drivers/io_NAME.c` to src/lib/local.mk
 *      (inside an `if HAVE_LIB` block, with a configure check, if it needs a library).
 * tests/test_driver_template.sh does exactly that with this file, unchanged. */
#include "config.h"
#include "drivers/driver.h"
#include "base/params.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- parameters */
/* Every kernel accepts these keys (and lists them in --help) whichever driver runs;
 * begin each help text with the driver's name. */
static const cio_param_spec template_params[] = {
    {"template_limit", CIO_P_SIZE, "0", "template: most bytes one rank may put into one file (0: no limit)", 0, 0,
     9.2e18, 0},
    CIO_PARAM_END,
};

typedef struct template_conf {
    int64_t limit;
} template_conf;

/* Read the parameters once, before any file is opened; the engine hands the result
 * to every verb as f->opts->conf.  A bad combination is refused here, with the
 * parameter's origin ("file:line" or "command line") in the message. */
static int template_configure(const cio_params *p, const cio_driver_opts *o, void **conf, cio_err *e)
{
    (void)o;
    template_conf *c = cio_calloc(1, sizeof *c);
    *conf = c;
    if (!p) return 0;
    c->limit = cio_param_int(p, "template_limit");
    if (c->limit > 0 && c->limit < 8)
        return cio_seterr(e, "%s: template_limit expects 0 or at least 8 bytes (one element of any type), found %lld",
                          cio_param_origin(p, "template_limit"), (long long)c->limit);
    return 0;
}

/* ---------------------------------------------------------------- filters */
/* What the runs asked of def_var, for the report line (describe). */
static struct {
    int nvars, deflate, shuffle;
} template_filtered;

/* A library call such as nc_def_var_deflate would go here: f->opts holds the
 * filters the run asked for, already off where .filter_formats says they cannot
 * apply. */
static void template_def_filters(cio_dfile *f)
{
    const cio_driver_opts *o = f->opts;
    if (o->deflate <= 0 && !o->shuffle) return;
    template_filtered.nvars++;
    template_filtered.deflate = o->deflate;
    template_filtered.shuffle = o->shuffle;
}

static void template_describe(char *buf, size_t len)
{
    buf[0] = '\0';
    if (template_filtered.nvars)
        snprintf(buf, len, "filters on %d variables: deflate %d%s", template_filtered.nvars, template_filtered.deflate,
                 template_filtered.shuffle ? ", shuffle" : "");
}

/* ---------------------------------------------------------------- files */
typedef struct template_file {
    int ndims, nvars;
    int64_t bytes;      /* put into this file by this rank */
} template_file;

static const char *template_version(void) { return "climio template driver"; }

static int template_create(cio_dfile *f, MPI_Info info)
{
    (void)info;
    f->priv = cio_calloc(1, sizeof(template_file));
    return 0;
}

static int template_open(cio_dfile *f, MPI_Info info) { return template_create(f, info); }

static int template_def_dim(cio_dfile *f, const char *name, int64_t len, int *dimid)
{
    (void)name;
    (void)len;
    *dimid = ((template_file *)f->priv)->ndims++;
    return 0;
}

static int template_def_var(cio_dfile *f, const char *name, cio_type t, int ndims, const int *dimids, int *varid)
{
    (void)name;
    (void)t;
    (void)ndims;
    (void)dimids;
    template_def_filters(f);
    *varid = ((template_file *)f->priv)->nvars++;
    return 0;
}

static int template_put_att(cio_dfile *f, int varid, const char *name, cio_type t, int64_t len, const void *vals)
{
    (void)f;
    (void)varid;
    (void)name;
    (void)t;
    (void)len;
    (void)vals;
    return 0;
}

static int template_enddef(cio_dfile *f)
{
    (void)f;
    return 0;
}

static int template_inq_varid(cio_dfile *f, const char *name, int *varid)
{
    (void)name;
    *varid = ((template_file *)f->priv)->nvars++;
    return 0;
}

static int template_inq_nrecs(cio_dfile *f, int64_t *n)
{
    (void)f;
    *n = 0;
    return 0;
}

/* ---------------------------------------------------------------- data */
/* r->nblocks blocks of r->ndims dimensions, r->nelems elements packed in r->buf.
 * Errors go through cio_driver_err: the engine stops every rank with the message. */
static int template_put(cio_dfile *f, const cio_req *r)
{
    template_file *t = f->priv;
    const template_conf *c = f->opts->conf;
    int64_t b = r->nelems * (int64_t)cio_type_size(r->type);
    if (c && c->limit > 0 && t->bytes + b > c->limit)
        return cio_driver_err(f, "template_put", "%s would hold %lld bytes from this rank, above template_limit %lld",
                              f->path, (long long)(t->bytes + b), (long long)c->limit);
    t->bytes += b;
    return 0;
}

static int template_get(cio_dfile *f, const cio_req *r)
{
    (void)r;
    return cio_driver_err(f, "template_get", "the template driver stores nothing to read");
}

static int template_wait(cio_dfile *f)
{
    (void)f;
    return 0;
}

static int template_inq_put_size(cio_dfile *f, int64_t *bytes)
{
    *bytes = ((template_file *)f->priv)->bytes;
    return 0;
}

/* --fsync: make what was written durable before the close (a library's flush,
 * then MPI_File_sync); leave .sync unset if the library has no such call, and
 * --fsync is refused for the driver.  This driver stores nothing. */
static int template_sync(cio_dfile *f)
{
    (void)f;
    return 0;
}

static int template_close(cio_dfile *f)
{
    cio_free(f->priv);
    f->priv = NULL;
    return 0;
}

const cio_driver cio_driver_template = {
    .name = "template",
    .description = "a driver to copy: counts the bytes it is given, stores nothing",
    .modes = CIO_MODES_ALL,
    .formats = CIO_FMT_BIT(CIO_FMT_NONE),
    .default_format = CIO_FMT_NONE,
    .stores_data = 0,
    .filter_formats = CIO_FMT_BIT(CIO_FMT_NONE),    /* --deflate, --shuffle, --szip reach def_var */
    .version = template_version,
    .params = template_params,
    .configure = template_configure,
    .create = template_create,
    .open = template_open,
    .def_dim = template_def_dim,
    .def_var = template_def_var,
    .put_att = template_put_att,
    .enddef = template_enddef,
    .inq_varid = template_inq_varid,
    .inq_nrecs = template_inq_nrecs,
    .put = template_put,
    .get = template_get,
    .wait = template_wait,
    .inq_put_size = template_inq_put_size,
    .close = template_close,
    .sync = template_sync,
    .describe = template_describe,
};
