/* A driver to copy: every verb of the interface (driver.h) with the least a
 * driver must do, plus one parameter of its own and a configure hook.  Its
 * format is a stream of blocks: each rank keeps the blocks it is given, each
 * deflated with zlib when --deflate is set (a record: raw length, stored length,
 * the bytes), and writes them at close after the ranks before it (MPI-IO).  It
 * counts the bytes it is given per file as the bytes the "library" wrote
 * (inq_put_size), and fails a put that would take a file past its
 * `template_limit` parameter, so a run shows the error path too.  It declares
 * that it filters its format, so --deflate and --shuffle reach it (a driver that
 * declares nothing gets them switched off, with a note): it notes them at
 * def_var, as a library would take them, applies them to every block, and its
 * report line says so.  It reads nothing back.  zlib is on every program's link
 * line when configure finds it.
 *
 * To add a driver called NAME (doc/internals.md):
 *   1. copy this file to src/lib/drivers/io_NAME.c and replace "template" by NAME;
 *   2. add the line `X(NAME) \` to DRIVER_TABLE in src/lib/drivers/drivers.c;
 *   3. add `src_lib_libcio_drivers_a_SOURCES += src/lib/drivers/io_NAME.c` to src/lib/local.mk
 *      (inside an `if HAVE_LIB` block, with a configure check, if it needs a library).
 * tests/test_driver_template.sh does exactly that with this file, unchanged. */
#include "config.h"
#include "drivers/driver.h"
#include "drivers/io_util.h"
#include "base/params.h"

#include <stdio.h>
#include <string.h>
#include <zlib.h>

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
    MPI_File fh;
    unsigned char *out; /* this rank's records, written at close */
    size_t nout, cap;
    unsigned char *scratch;     /* a shuffled block */
    size_t scap;
} template_file;

static const char *template_version(void) { return "climio template driver, zlib " ZLIB_VERSION; }

static int template_create(cio_dfile *f, MPI_Info info)
{
    template_file *t = cio_calloc(1, sizeof *t);
    f->priv = t;
    if (MPI_File_open(f->comm, f->path, MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &t->fh) != MPI_SUCCESS)
        return cio_driver_err(f, "MPI_File_open", "cannot create %s", f->path);
    MPI_File_set_size(t->fh, 0);
    return 0;
}

static int template_open(cio_dfile *f, MPI_Info info)
{
    (void)info;
    return cio_driver_err(f, "template_open", "the template driver writes new files only (%s)", f->path);
}

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
/* --shuffle: byte k of every element together, for each k (HDF5's shuffle filter). */
static const void *template_shuffle(template_file *t, const unsigned char *buf, int64_t n, int size)
{
    if (n > (int64_t)t->scap) {
        t->scap = (size_t)n;
        t->scratch = cio_realloc(t->scratch, t->scap);
    }
    int64_t nel = n / size;
    for (int64_t i = 0; i < nel; i++)
        for (int k = 0; k < size; k++) t->scratch[k * nel + i] = buf[i * size + k];
    return t->scratch;
}

/* One record: the raw length and the stored length (little-endian uint32), then
 * the bytes, shuffled and deflated at the run's level (zlib's compress2) as asked. */
static int template_record(cio_dfile *f, const void *buf, int64_t n, int size)
{
    template_file *t = f->priv;
    if (f->opts->shuffle && size > 1) buf = template_shuffle(t, buf, n, size);
    if (n > (int64_t)UINT32_MAX)
        return cio_driver_err(f, "template_put", "a block of %lld bytes (a record holds 4 GiB)", (long long)n);
    uLong bound = compressBound((uLong)n);
    if (t->nout + 8 + bound > t->cap) {
        t->cap = 2 * (t->nout + 8 + bound);
        t->out = cio_realloc(t->out, t->cap);
    }
    unsigned char *rec = t->out + t->nout;
    uLongf stored = (uLongf)n;
    if (f->opts->deflate > 0) {
        stored = bound;
        int zrc = compress2(rec + 8, &stored, buf, (uLong)n, f->opts->deflate);
        if (zrc != Z_OK) return cio_driver_err(f, "compress2", "zlib error %d on %s", zrc, f->path);
    } else {
        memcpy(rec + 8, buf, (size_t)n);
    }
    for (int i = 0; i < 4; i++) {
        rec[i] = (unsigned char)((uint64_t)n >> (8 * i));
        rec[4 + i] = (unsigned char)((uint64_t)stored >> (8 * i));
    }
    t->nout += 8 + stored;
    return 0;
}

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
    return b ? template_record(f, r->buf, b, (int)cio_type_size(r->type)) : 0;
}

static int template_get(cio_dfile *f, const cio_req *r)
{
    (void)r;
    return cio_driver_err(f, "template_get", "the template driver reads nothing back");
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

/* Collective: each rank's records after those of the ranks before it. */
static int template_close(cio_dfile *f)
{
    template_file *t = f->priv;
    long long n = (long long)t->nout, at = 0;
    MPI_Exscan(&n, &at, 1, MPI_LONG_LONG, MPI_SUM, f->comm);
    if (f->rank == 0) at = 0;   /* MPI_Exscan leaves rank 0's result undefined */
    int rc = MPI_SUCCESS;
    size_t done = 0;
    do {    /* every rank calls write_at_all as often as the others: at least once, 1 GiB at a time */
        size_t chunk = t->nout - done > (1u << 30) ? (1u << 30) : t->nout - done;
        long long left = (long long)(t->nout - done - chunk), more = 0;
        rc |= MPI_File_write_at_all(t->fh, (MPI_Offset)(at + (long long)done), t->out + done, (int)chunk, MPI_BYTE,
                                    MPI_STATUS_IGNORE);
        done += chunk;
        MPI_Allreduce(&left, &more, 1, MPI_LONG_LONG, MPI_MAX, f->comm);
        if (!more) break;
    } while (1);
    rc |= MPI_File_close(&t->fh);
    cio_free(t->out);
    cio_free(t->scratch);
    cio_free(t);
    f->priv = NULL;
    return rc == MPI_SUCCESS ? 0 : cio_driver_err(f, "MPI_File_write_at_all", "cannot write %s", f->path);
}

const cio_driver cio_driver_template = {
    .name = "template",
    .description = "a driver to copy: a stream of the blocks it is given, deflated with zlib when asked",
    .modes = CIO_MODES_ALL,
    .formats = CIO_FMT_BIT(CIO_FMT_NONE),
    .default_format = CIO_FMT_NONE,
    .stores_data = 1,
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
    /* .sync: make what was written durable before the close (a library's flush, then
     * MPI_File_sync).  This driver writes at close, so it has none, and --fsync close
     * is refused for it, as for a library without such a call.  Its file is at the
     * path the engine gave, so --fsync end (each file once, after the output phase)
     * takes the drivers' shared fsync by path. */
    .sync_closed = cio_sync_closed_path,
    .describe = template_describe,
};
