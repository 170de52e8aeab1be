/* Records in BP outputs, the cases kernels do not make on purpose: a file grown
 * by reopening it for every record (--case append, verified by --verify), an
 * existing record written again (--case rewrite) and a record skipped (--case
 * gap), which the adios2 driver must refuse with a message, and an ADIOS2 output
 * not written by climio (--case foreign), which climio_bp2nc must refuse. */
#include "config.h"
#include "app/app.h"
#include "base/util.h"

#include <adios2_c.h>
#include <stdio.h>
#include <string.h>

static const cio_param_spec params[] = {
    {"driver", CIO_P_STRING, "adios2", "I/O driver", 0, 0, 0, 0},
    {"case", CIO_P_CHOICE, "append", "what to write", "append|rewrite|gap|foreign", 0, 0, 0},
    {"out", CIO_P_STRING, "out", "output folder", 0, 0, 0, 0},
    CIO_PARAM_END,
};

/* ADIOS2 directly: a global array with no climio layout attributes. */
static void write_foreign(const char *path, MPI_Comm comm, int rank, int n)
{
    adios2_adios *ad = adios2_init_mpi(comm);
    adios2_io *io = adios2_declare_io(ad, "foreign");
    size_t shape = (size_t)n * 4, start = (size_t)rank * 4, count = 4;
    adios2_variable *v = adios2_define_variable(io, "v", adios2_type_double, 1, &shape, &start, &count,
                                                adios2_constant_dims_true);
    adios2_engine *e = adios2_open(io, path, adios2_mode_write);
    double x[4] = {1, 2, 3, 4};
    if (!v || !e || adios2_put(e, v, x, adios2_mode_sync) || adios2_close(e)) cio_die("writing %s failed", path);
    adios2_finalize(ad);
}

int main(int argc, char **argv)
{
    cio_app app;
    cio_app_init(&app, &argc, &argv, "bp_records", "bp_records --case append|rewrite|gap|foreign", params, NULL,
                 "<built-in>", "! bp_records defaults\ncase append\n");
    const char *what = cio_param_str(app.params, "case"), *outdir = cio_param_str(app.params, "out");
    cio_app_setup_engine(&app, CIO_FMT_CDF5);
    cio_err e = {0};
    if (app.rank == 0) cio_mkdir_p(outdir, &e);
    if (cio_agree(app.comm, &e)) cio_die_all(app.comm, "%s", e.msg);
    char path[4096];
    snprintf(path, sizeof path, "%s/records.nc", outdir);
    if (strcmp(what, "foreign") == 0) {
        snprintf(path, sizeof path, "%s/foreign.bp", outdir);
        write_foreign(path, app.comm, app.rank, app.nprocs);
        cio_app_exit(&app, 0);
    }

    /* v(time, x): 8 points per rank, in one block */
    cio_schema *s = cio_schema_new("records");
    cio_schema_dim(s, "time", CIO_UNLIMITED);
    cio_schema_dim(s, "x", 8 * (int64_t)app.nprocs);
    const char *dims[] = {"time", "x"};
    int v = cio_schema_var(s, "v", CIO_FLOAT, 2, dims);
    int64_t shape[1] = {8 * (int64_t)app.nprocs}, st[1] = {8 * (int64_t)app.rank}, ct[1] = {8};
    cio_decomp *d = cio_decomp_new(1, shape);
    cio_decomp_add(d, st, ct);
    cio_schema_set_decomp(s, v, d);
    cio_decomp_release(d);

    /* records 0 and 1 at creation, then per case */
    cio_engine_event(app.engine);
    cio_file *f = cio_create(app.engine, path, s, app.comm);
    cio_write(f, v, 0);
    cio_write(f, v, 1);
    if (strcmp(what, "gap") == 0) cio_write(f, v, 3);
    cio_close(f);
    for (int64_t r = 2; r < 5; r++) {
        cio_engine_event(app.engine);
        f = cio_open(app.engine, path, s, app.comm);
        int64_t have = cio_file_nrecs(f);
        if (have != r) cio_die("%s holds %lld records after %lld were written", path, (long long)have, (long long)r);
        cio_write(f, v, strcmp(what, "rewrite") == 0 ? r - 1 : r);
        cio_close(f);
    }
    cio_schema_free(s);
    int rc = cio_app_finish(&app, NULL, NULL);
    cio_engine_free(app.engine);
    cio_app_exit(&app, rc);
}
