/* The null driver: the engine's whole path (timers, buffers, request splitting,
 * collective agreement) with no storage, so comparing a run with it against a
 * real driver measures climio's own overhead. */
#include "config.h"
#include "drivers/driver.h"

typedef struct null_file {
    int ndims, nvars;
} null_file;

static const char *null_version(void) { return "climio null driver"; }

static int null_create(cio_dfile *f, MPI_Info info)
{
    (void)info;
    f->priv = cio_calloc(1, sizeof(null_file));
    return 0;
}

static int null_open(cio_dfile *f, MPI_Info info) { return null_create(f, info); }

static int null_def_dim(cio_dfile *f, const char *name, int64_t len, int *dimid)
{
    (void)name;
    (void)len;
    *dimid = ((null_file *)f->priv)->ndims++;
    return 0;
}

static int null_def_var(cio_dfile *f, const char *name, cio_type t, int ndims, const int *dimids, int *varid)
{
    (void)name;
    (void)t;
    (void)ndims;
    (void)dimids;
    *varid = ((null_file *)f->priv)->nvars++;
    return 0;
}

static int null_put_att(cio_dfile *f, int varid, const char *name, cio_type t, int64_t len, const void *vals)
{
    (void)f;
    (void)varid;
    (void)name;
    (void)t;
    (void)len;
    (void)vals;
    return 0;
}

static int null_nop(cio_dfile *f)
{
    (void)f;
    return 0;
}

static int null_inq_varid(cio_dfile *f, const char *name, int *varid)
{
    (void)name;
    *varid = ((null_file *)f->priv)->nvars++;
    return 0;
}

static int null_inq_nrecs(cio_dfile *f, int64_t *n)
{
    (void)f;
    *n = 0;
    return 0;
}

static int null_xfer(cio_dfile *f, const cio_req *r)
{
    (void)f;
    (void)r;
    return 0;
}

static int null_sync_closed(cio_dfile *f, int *calls)
{
    (void)f;
    *calls = 0;
    return 0;
}

static int null_close(cio_dfile *f)
{
    cio_free(f->priv);
    f->priv = NULL;
    return 0;
}

const cio_driver cio_driver_null = {
    .name = "null",
    .description = "no storage: measures the benchmark's own overhead",
    .modes = CIO_MODES_ALL,
    .formats = CIO_FMT_BIT(CIO_FMT_NONE),
    .stores_data = 0,   /* nothing to read back */
    .default_format = CIO_FMT_NONE,
    .version = null_version,
    .create = null_create,
    .open = null_open,
    .def_dim = null_def_dim,
    .def_var = null_def_var,
    .put_att = null_put_att,
    .enddef = null_nop,
    .inq_varid = null_inq_varid,
    .inq_nrecs = null_inq_nrecs,
    .put = null_xfer,
    .get = null_xfer,
    .wait = null_nop,
    .close = null_close,
    .sync = null_nop,   /* nothing stored, nothing to make durable */
    .sync_closed = null_sync_closed,
};
