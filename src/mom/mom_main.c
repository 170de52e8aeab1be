/* mom_io: write MOM5's ocean diagnostics the way FMS mpp_io does, in one of its
 * four patterns, then (optionally) read a file back serially and in parallel. */
#include "config.h"
#include "mom.h"
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
    snprintf(buf, len, "%s/%s.nc", c->outdir, c->base);
    return buf;
}

int main(int argc, char **argv)
{
    cio_app app;
    cio_app_init(&app, &argc, &argv, "mom_io", usage, mom_params, "mom.in", mom_builtin_name, mom_builtin_text);
    static mom_ctx m;
    m.app = &app;
    m.group_comm = m.file_comm = m.read_comm = MPI_COMM_NULL;
    cio_err e = {0};
    if (mom_config_load(&m.cfg, app.params, &e) != 0) cio_die_all(app.comm, "%s", e.msg);
    const mom_config *c = &m.cfg;
    int quiet = cio_param_bool(app.params, "quiet");
    if (c->env_hints && mom_env_hints(&app.kernel_hints, "_WR") && app.rank == 0 && !quiet)
        for (int i = 0; i < app.kernel_hints.n; i++)   /* as the FMS branch announces them */
            printf("WR:SET MPIIO_HINT for %s AS %s\n", app.kernel_hints.key[i], app.kernel_hints.val[i]);
    cio_app_setup_engine(&app, CIO_FMT_CDF2);
    mom_clocks_init(&m.clk, &app.stats);

    if (cio_param_bool(app.params, "dry_run")) {
        int n = (int)cio_param_int(app.params, "nprocs");
        int rc = app.rank == 0 ? mom_dry_run(&m, n > 0 ? n : app.nprocs) : 0;   /* rank 0 plans, without MPI */
        MPI_Bcast(&rc, 1, MPI_INT, 0, app.comm);
        cio_engine_free(app.engine);
        cio_app_exit(&app, rc);
    }

    int ppn = pes_per_node(app.comm);
    if (mom_domain_init(&m.dom, c->ni, c->nj, app.nprocs, c->layout, c->layout_origin, c->io_layout,
                        c->io_layout_origin, ppn, &e) != 0)
        cio_die_all(app.comm, "%s", e.msg);
    if (m.dom.io_fallback)
        cio_warn0("io_layout auto (%s): no io layout of %d x %d PEs gives one io domain per node of %d PEs; using 1,1",
                  c->io_layout_origin, m.dom.npx, m.dom.npy, ppn);
    char rpath[4096];
    if (c->read_serial || c->read_parallel) {
        m.read_path = read_path(&m, rpath, sizeof rpath, &e);
        if (!m.read_path) cio_die_all(app.comm, "%s: %s", cio_param_origin(app.params, "read_pattern"), e.msg);
    } else if (c->pattern == MOM_PAT_NONE) {
        cio_die_all(app.comm, "%s: pattern none writes nothing, and read_pattern is none: nothing to do",
                    cio_param_origin(app.params, "pattern"));
    }
    if (c->pattern != MOM_PAT_NONE) {
        if (app.rank == 0) cio_mkdir_p(c->outdir, &e);
        if (cio_agree(app.comm, &e)) cio_die_all(app.comm, "%s", e.msg);
    }
    read_hints(&m);

    mom_clock_begin(&m.clk, MOM_CLK_TOTAL);
    mom_write_run(&m);
    mom_read_run(&m);
    mom_clock_end(&m.clk, MOM_CLK_TOTAL);
    mom_clocks_reduce(&m.clk, app.comm, m.clocks);

    int rc = cio_app_finish(&app, mom_json, &m);
    int bad = (m.rd[0].done && m.rd[0].mismatches) || (m.rd[1].done && m.rd[1].mismatches);
    if (app.rank == 0) {
        mom_report(stdout, &m);
        for (int k = 0; k < 2; k++)
            if (m.rd[k].done && m.rd[k].mismatches)
                fprintf(stderr, "mom_io: read check FAILED: %lld mismatched elements; first: %s\n",
                        (long long)m.rd[k].mismatches, m.rd[k].first_mismatch);
    }
    if (bad && rc == 0) rc = 3;

    cio_engine_free(app.engine);
    if (m.schema) cio_schema_free(m.schema);
    mom_vars_free(&m.ids);
    if (m.role.in_group) mom_group_free(&m.group);
    if (m.group_comm != MPI_COMM_NULL) MPI_Comm_free(&m.group_comm);
    if (m.file_comm != MPI_COMM_NULL) MPI_Comm_free(&m.file_comm);
    if (m.read_comm != MPI_COMM_NULL) MPI_Comm_free(&m.read_comm);
    cio_free(m.gsum);
    cio_hints_free(&m.rd_hints);
    cio_hints_free(&app.kernel_hints);
    mom_domain_free(&m.dom);
    mom_config_free(&m.cfg);
    cio_app_exit(&app, rc);
}
