/* mom_io: write MOM5's ocean diagnostics the way FMS mpp_io does, in one of its
 * four patterns, then (optionally) read a file back serially and in parallel. */
#include "config.h"
#include "mom.h"
#include "app/kernel.h"
#include "mom_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "mom_io [parameter file] [--key value ...]\n"
    "  MOM5 ocean diagnostic output through FMS-style patterns: serial | iodomain | perpe | parallel.\n"
    "  Shipped parameter files: mom.in.025deg (paper's 0.25 degree case), mom.in.01deg, mom.in.tiny.\n"
    "  Without one (and no ./mom.in) a tiny built-in grid runs.  mom_combine stitches iodomain/perpe sets";

/* PEs per node, for io_layout auto: the smallest node of the run. */
static int pes_per_node(MPI_Comm comm)
{
    MPI_Comm node;
    int n, lo, hi;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &n);
    MPI_Comm_free(&node);
    MPI_Allreduce(&n, &lo, 1, MPI_INT, MPI_MIN, comm);
    MPI_Allreduce(&n, &hi, 1, MPI_INT, MPI_MAX, comm);
    if (lo != hi) cio_warn0("io_layout auto: nodes hold %d to %d PEs; planning for %d per node", lo, hi, lo);
    return lo;
}

static int is_wr_env(const char *origin)
{
    size_t l = strlen(origin);
    return strncmp(origin, "environment ", 12) == 0 && l > 3 && strcmp(origin + l - 3, "_WR") == 0;
}

/* Read hints: <hint>_RD, then every requested write hint that did not come
 * from a <hint>_WR variable (hints files, the hints key, PNETCDF_HINTS). */
static void read_hints(mom_ctx *m)
{
    cio_hints_init(&m->rd_hints);
    if (m->cfg.env_hints) mom_env_hints(&m->rd_hints, "_RD");
    const cio_hints *w = cio_engine_requested_hints(m->app->engine);
    for (int i = 0; i < w->n; i++)
        if (!is_wr_env(w->origin[i])) cio_hints_set(&m->rd_hints, w->key[i], w->val[i], w->origin[i]);
    cio_err e = {0};
    if (cio_hints_check(&m->rd_hints, &e) != 0) cio_die_all(m->app->comm, "%s", e.msg);   /* an <hint>_RD's range */
}

/* The single file the read benchmark reads, or NULL with a reason. */
static const char *read_path(mom_ctx *m, char *buf, size_t len, cio_err *e)
{
    const mom_config *c = &m->cfg;
    if (c->read_file) return c->read_file;
    int single = c->pattern == MOM_PAT_SERIAL || c->pattern == MOM_PAT_PARALLEL || c->pattern == MOM_PAT_NONE ||
                 (c->pattern == MOM_PAT_IODOMAIN && mom_ntiles(&m->dom) == 1) ||
                 (c->pattern == MOM_PAT_PERPE && m->dom.npes == 1);
    if (!single) {
        cio_seterr(e, "read_pattern reads one global file, and pattern %s writes a set of %d files: combine them "
                      "with mom_combine and give read_file, or write with pattern serial or parallel",
                   mom_pattern_name(c->pattern), c->pattern == MOM_PAT_PERPE ? m->dom.npes : mom_ntiles(&m->dom));
        return NULL;
    }
    mom_file_prefix(c, buf, len);
    return buf;
}

/* What FMS asks of a pattern with one writer a file (serial, iodomain, perpe):
 * with --single_writer serial and a netCDF driver, the serial netCDF-C API with
 * FMS's chunk-size hint (NC_BLKSZ_<file>, NC_BLKSZ, 64k) and MOM5's classic
 * format (mpp_io_connect.inc, -Duse_netCDF3).  A pure function of the
 * parameters and the pattern, for the run and --print_params alike. */
typedef enum { SW_NONE, SW_SERIAL, SW_NONBLOCKING, SW_NO_SERIAL_DRIVER } single_writer_path;

static single_writer_path single_writer_asks(const cio_params *p, mom_pattern pattern, cio_kernel_asks *k)
{
    int single = pattern == MOM_PAT_SERIAL || pattern == MOM_PAT_IODOMAIN || pattern == MOM_PAT_PERPE;
    const char *drv = cio_param_str(p, "driver");
    const cio_driver *d = drv ? cio_driver_find(drv) : cio_drivers[0];
    /* only netCDF files have FMS's serial path; other libraries keep their own */
    if (!single || strcmp(cio_param_str(p, "single_writer"), "serial") != 0 || !d || !cio_driver_writes_netcdf(d))
        return SW_NONE;
    cio_mode mode;
    /* netCDF-C's serial API has no nonblocking calls: the asked mode keeps the MPI-IO path */
    if (cio_mode_from_name(cio_param_str(p, "iotype"), &mode) == 0 && cio_mode_nonblocking(mode)) return SW_NONBLOCKING;
    const cio_driver *serial = cio_driver_with_serial_api();
    if (!serial) return SW_NO_SERIAL_DRIVER;
    const char *origin = "single_writer serial (mom_io)";
    k->driver = serial;
    k->driver_origin = origin;
    k->driver_always = 1;
    k->serial = 1;
    k->serial_origin = origin;
    k->size_hint_env = !cio_param_isset(p, "size_hint") && !cio_param_isset(p, "size_hint_env");
    k->format = CIO_FMT_CDF1;
    k->format_origin = origin;
    return SW_SERIAL;
}

/* FMS's file tuning, before the engine exists: every file's header gets
 * header_buffer_val (16 KiB) of free space; the single-writer asks, said. */
static void fms_file_tuning(cio_app *a, const mom_config *c)
{
    cio_params *p = a->params;
    cio_kernel_asks *k = &a->asks;
    k->header_pad = 16384;
    k->header_pad_origin = "FMS default (mom_io)";
    /* FMS never sets chunks (parallel_chunk is off by default): netCDF-C's own */
    k->chunking = "default";
    k->chunking_origin = "FMS default (mom_io)";
    const char *drv = cio_param_str(p, "driver");
    const cio_driver *d = drv ? cio_driver_find(drv) : cio_drivers[0];
    switch (single_writer_asks(p, c->pattern, k)) {
    case SW_NONE:
        return;
    case SW_NONBLOCKING:
        if (a->rank == 0 && !cio_param_bool(p, "quiet"))
            printf("mom_io: iotype %s (%s) has no serial netCDF-C form: pattern %s writes through the %s driver on "
                   "MPI_COMM_SELF, as --single_writer mpiio\n",
                   cio_param_str(p, "iotype"), cio_param_origin(p, "iotype"), mom_pattern_name(c->pattern), d->name);
        return;
    case SW_NO_SERIAL_DRIVER:
        /* asked for by name: only a real run needs it; by default: the closest built path */
        if (cio_param_isset(p, "single_writer") && !cio_param_bool(p, "dry_run"))
            cio_die_all(a->comm, "%s: single_writer serial writes one-writer files with the serial netCDF-C API, and no "
                                 "driver with a serial API (netcdf) is built (drivers built: %s); use --single_writer mpiio",
                        cio_param_origin(p, "single_writer"), cio_driver_names());
        /* asked by name: said by the row below.  By default: the row is not asked (the
         * user gave no value), yet the run's record must say that the default did not
         * run, so it is said here and kept in not_applied */
        if (!cio_params_is_set(p, "single_writer"))
            cio_app_note_unused(a, "single_writer", "single_writer serial (%s) needs the netcdf driver, which is not "
                                "built (drivers built: %s): pattern %s writes its files through the %s driver on "
                                "MPI_COMM_SELF, as --single_writer mpiio", cio_param_origin(p, "single_writer"),
                                cio_driver_names(), mom_pattern_name(c->pattern), d->name);
        return;
    case SW_SERIAL:
        if (drv && d != k->driver && a->rank == 0 && !cio_param_bool(p, "quiet"))
            printf("mom_io: pattern %s writes its files with the serial netCDF-C API (single_writer serial, as FMS); "
                   "driver %s (%s) applies to the parallel pattern and to --single_writer mpiio\n",
                   mom_pattern_name(c->pattern), drv, cio_param_origin(p, "driver"));
        return;
    }
}

/* --single_writer serial where no driver with a serial API is built: a row of the
 * applicability table (app/applicability.h); a real run is refused before
 * (fms_file_tuning), a dry run plans the MPI-IO path and says so. */
static int no_serial_api_holds(const cio_app *a, const void *kctx, const cio_applicability *row, const char *key,
                               char *why, size_t n)
{
    (void)row, (void)key;
    const mom_ctx *m = kctx;
    cio_kernel_asks k = {0};
    if (!m || single_writer_asks(a->params, m->cfg.pattern, &k) != SW_NO_SERIAL_DRIVER) return 0;
    snprintf(why, n, ": it needs a driver with a serial netCDF-C API (netcdf), and none is built (drivers built: %s): "
             "pattern %s writes its files through the %s driver on MPI_COMM_SELF, as --single_writer mpiio",
             cio_driver_names(), mom_pattern_name(m->cfg.pattern), a->ecfg.drv->name);
    return 1;
}
static const cio_applies_mode no_serial_api = {"a build without a driver with a serial netCDF-C API",
                                               CIO_APPLIES_AT_SETUP, 0, no_serial_api_holds, ""};
static const cio_applicability mom_applicability[] = {
    {"single_writer", 0, &no_serial_api, 0, 0, "serial", "serial", 0},
    CIO_APPLICABILITY_END,
};

/* ---------------------------------------------------------------- the descriptor's steps */
/* What its parameters alone ask (kernel_facts.h): FMS's default, 64-bit offset
 * files, and a pattern named with one writer a file, its single-writer asks;
 * pattern auto's is known from the decomposition only (mom_setup). */
static void mom_asks(const cio_params *p, cio_kernel_asks *k)
{
    k->kernel_format = CIO_FMT_CDF2;
    const char *pat = cio_param_str(p, "pattern");
    for (int i = 0; i < MOM_PAT_AUTO; i++)
        if (strcmp(pat, mom_pattern_name((mom_pattern)i)) == 0) single_writer_asks(p, (mom_pattern)i, k);
}

static cio_format mom_setup(cio_app *a, void *ctx)
{
    mom_ctx *m = ctx;
    m->app = a;
    m->group_comm = m->file_comm = m->read_comm = MPI_COMM_NULL;
    cio_err e = {0};
    if (mom_config_load(&m->cfg, a->params, &e) != 0) cio_die_all(a->comm, "%s", e.msg);
    static const char *const sizes[] = {"ni", "nj", "nk", NULL};
    cio_params_alloc_hint(a->params, sizes);
    const mom_config *c = &m->cfg;
    int quiet = cio_param_bool(a->params, "quiet");
    if (c->env_hints && mom_env_hints(&a->kernel_hints, "_WR") && a->rank == 0 && !quiet)
        for (int i = 0; i < a->kernel_hints.n; i++)   /* as the FMS branch announces them */
            printf("WR:SET MPIIO_HINT for %s AS %s\n", a->kernel_hints.key[i], a->kernel_hints.val[i]);
    /* the decomposition first: with it, pattern auto becomes what MOM5 writes for the io_layout */
    const char *pat_origin = cio_param_origin(a->params, "pattern");
    if (cio_param_bool(a->params, "dry_run")) {
        int n = cio_kernel_dry_nprocs(a);
        mom_domain d;
        if (mom_domain_init(&d, c->ni, c->nj, n, c->layout, c->layout_origin, c->io_layout, c->io_layout_origin, n,
                            &e) != 0 ||
            mom_pattern_resolve(&m->cfg, &d, pat_origin, &e) != 0)
            cio_die_all(a->comm, "%s", e.msg);
        mom_domain_free(&d);
    } else {
        int ppn = pes_per_node(a->comm);
        if (mom_domain_init(&m->dom, c->ni, c->nj, a->nprocs, c->layout, c->layout_origin, c->io_layout,
                            c->io_layout_origin, ppn, &e) != 0)
            cio_die_all(a->comm, "%s", e.msg);
        if (m->dom.io_fallback)
            cio_warn0("io_layout auto (%s): no io layout of %d x %d PEs gives one io domain per node of %d PEs; using "
                      "1,1",
                      c->io_layout_origin, m->dom.npx, m->dom.npy, ppn);
        if (mom_pattern_resolve(&m->cfg, &m->dom, pat_origin, &e) != 0) cio_die_all(a->comm, "%s", e.msg);
    }
    fms_file_tuning(a, c);
    return CIO_FMT_NONE;     /* mom_asks' */
}

/* The files' suffix follows the format the engine will write. */
static void mom_configure(cio_app *a, void *ctx)
{
    ((mom_ctx *)ctx)->cfg.suffix = cio_format_suffix(a->ecfg.opts.format);
}

static void mom_prepare(cio_app *a, void *ctx)
{
    mom_ctx *m = ctx;
    const mom_config *c = &m->cfg;
    cio_err e = {0};
    mom_clocks_init(&m->clk, &a->stats);
    if (c->read_serial || c->read_parallel) {
        m->read_path = read_path(m, m->read_path_buf, sizeof m->read_path_buf, &e);
        if (!m->read_path) cio_die_all(a->comm, "%s: %s", cio_param_origin(a->params, "read_pattern"), e.msg);
    } else if (c->pattern == MOM_PAT_NONE) {
        cio_die_all(a->comm, "%s: pattern none writes nothing, and read_pattern is none: nothing to do",
                    cio_param_origin(a->params, "pattern"));
    }
    if (c->pattern != MOM_PAT_NONE) {
        if (a->rank == 0) cio_mkdir_p(c->outdir, &e);
        if (cio_agree(a->comm, &e)) cio_die_all(a->comm, "%s", e.msg);
    }
    read_hints(m);
}

/* The output phase: the write pattern, then the read benchmark if asked. */
static void mom_output(cio_app *a, void *ctx)
{
    mom_ctx *m = ctx;
    mom_clock_begin(&m->clk, MOM_CLK_TOTAL);
    mom_write_run(m);
    mom_read_run(m);
    mom_clock_end(&m->clk, MOM_CLK_TOTAL);
    mom_clocks_reduce(&m->clk, a->comm, m->clocks);
}

static void mom_outputs(cio_app *a, void *ctx, cio_outputs *out)
{
    const mom_ctx *m = ctx;
    if (m->cfg.pattern != MOM_PAT_NONE) mom_list_outputs(&m->cfg, &m->dom, a->params, out);
}

static int mom_verdict(cio_app *a, void *ctx, int rc)
{
    mom_ctx *m = ctx;
    int bad = (m->rd[0].done && m->rd[0].mismatches) || (m->rd[1].done && m->rd[1].mismatches);
    if (a->rank == 0) {
        mom_report(stdout, m);
        for (int k = 0; k < 2; k++)
            if (m->rd[k].done && m->rd[k].mismatches)
                fprintf(stderr, "mom_io: read check FAILED: %lld mismatched elements; first: %s\n",
                        (long long)m->rd[k].mismatches, m->rd[k].first_mismatch);
    }
    return bad && rc == 0 ? 3 : rc;
}

static void mom_cleanup(cio_app *a, void *ctx)
{
    mom_ctx *m = ctx;
    if (m->schema) cio_schema_free(m->schema);
    mom_vars_free(&m->ids);
    if (m->role.in_group) mom_group_free(&m->group);
    if (m->group_comm != MPI_COMM_NULL) MPI_Comm_free(&m->group_comm);
    if (m->file_comm != MPI_COMM_NULL) MPI_Comm_free(&m->file_comm);
    if (m->read_comm != MPI_COMM_NULL) MPI_Comm_free(&m->read_comm);
    cio_free(m->gsum);
    cio_hints_free(&m->rd_hints);
    cio_hints_free(&a->kernel_hints);
    mom_domain_free(&m->dom);
    mom_config_free(&m->cfg);
}

static const cio_kernel mom_kernel = {
    .name = "mom_io",
    .usage = usage,
    .params = mom_params,
    .facts = {.output_folder = &mom_output_folder, .asks = mom_asks, .applicability = mom_applicability},
    .default_file = "mom.in",
    .builtin_name = mom_builtin_name,
    .builtin_text = mom_builtin_text,
    .setup = mom_setup,
    .configure = mom_configure,
    .plan_rank = mom_plan_rank,
    .rank_classes = &mom_rank_classes,
    .dry_run_preamble = mom_dry_run_preamble,
    .prepare = mom_prepare,
    .list_outputs = mom_outputs,
    .output = mom_output,
    .json = mom_json,
    .verdict = mom_verdict,
    .cleanup = mom_cleanup,
};

int main(int argc, char **argv)
{
    static mom_ctx m;
    return cio_kernel_main(&mom_kernel, &m, argc, argv);
}
