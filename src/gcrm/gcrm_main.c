/* gcrm_io: the I/O kernel of the Global Cloud Resolving Model, a drop-in for
 * PnetCDF's GCRM-IO benchmark.  `mpiexec -n N gcrm_io zgrd.in.r7` reads the
 * GCRM-IO inputs, builds the icosahedral grid and its decomposition, and writes
 * the history, grid and restart files of the simulated time through the climio
 * engine, then reports as GCRM-IO does (and as JSON). */
#include "config.h"
#include "app.h"
#include "gcrm_builtin.h"
#include "gcrm_report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] = "gcrm_io [PARAMETER_FILE] [--key value ...]   (default: ./zgrd.in, else a built-in "
                            "level-3 run writing to ./out)";

/* GIO creates every file with these hints (the environment may override the two
 * alignments, as in GCRM-IO); the user's hints come after and win. */
static void set_gio_hints(cio_app *a, const gcrm_settings *s)
{
    cio_params *p = a->params;
    if (!cio_param_bool(p, "gio_hints")) return;
    const char *hal = getenv("nc_header_align_size"), *val = getenv("nc_var_align_size");
    char buf[4096];
    int n = snprintf(buf, sizeof buf,
                     "nc_header_align_size=%s;nc_var_align_size=%s;romio_no_indep_rw=true;romio_ds_write=disable;"
                     "romio_cb_write=enable",
                     hal && *hal ? hal : s->level < 8 ? "2048" : "1048576", val && *val ? val : "1");
    const char *user = cio_param_str(p, "hints"), *origin = "gcrm_io default (the hints GIO sets)";
    if (user && *user) {
        snprintf(buf + n, sizeof buf - (size_t)n, ";%s", user);
        origin = cio_param_origin(p, "hints");
    }
    char org[600];
    snprintf(org, sizeof org, "%s", origin);
    cio_err e = {0};
    if (cio_params_set(p, "hints", buf, org, &e) != 0) cio_die_all(a->comm, "%s", e.msg);
}

/* GCRM-IO's blocking_collective posts iputs and waits after each field: the
 * engine's nonblocking_collective with a flush per field.  call_pattern
 * textbook keeps the engine's blocking_collective (put_vara_all). */
static void map_call_pattern(cio_app *a, gcrm_run *run)
{
    if (run->set.gio_mode != CIO_MODE_BLOCKING_COLLECTIVE || run->set.textbook) return;
    if (!(a->ecfg.drv->modes & CIO_MODE_BIT(CIO_MODE_NONBLOCKING_COLLECTIVE))) {
        if (a->rank == 0)
            cio_warn("the %s driver has no nonblocking calls: blocking_collective is written with blocking "
                     "collective calls (call_pattern textbook) instead of GCRM-IO's iput + wait_all per field",
                     a->ecfg.drv->name);
        return;
    }
    cio_engine_free(a->engine);
    a->ecfg.opts.mode = CIO_MODE_NONBLOCKING_COLLECTIVE;
    a->engine = cio_engine_new(&a->ecfg, a->comm, &a->stats);
    run->per_field_wait = 1;
}

/* The output folder must exist; one missing level is created (./out), a
 * missing parent is an error naming where the path was set. */
static int ensure_dir(const char *dir, const char *origin, cio_err *e)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return 0;
        return cio_seterr(e, "%s: output path '%s' is not a directory", origin, dir);
    }
    char parent[4096];
    snprintf(parent, sizeof parent, "%s", dir);
    size_t n = strlen(parent);
    while (n > 1 && parent[n - 1] == '/') parent[--n] = '\0';
    char *slash = strrchr(parent, '/');
    if (slash == parent) slash[1] = '\0';
    else if (slash) *slash = '\0';
    else snprintf(parent, sizeof parent, ".");
    if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode))
        return cio_seterr(e,
                          "%s: output path '%s' does not exist, nor does its parent '%s' (set cdf_output_path, "
                          "GCRM_OUTPUT_PATH or --cdf_output_path to an existing directory)",
                          origin, dir, parent);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return cio_seterr(e, "%s: cannot create the output directory '%s': %s", origin, dir, strerror(errno));
    return 0;
}

static void check_dirs(cio_app *a, gcrm_run *run)
{
    cio_err e = {0};
    if (a->rank == 0)
        for (int k = 0; k < run->plan.nkinds && !e.code; k++) {
            const gcrm_kind *kd = &run->plan.kinds[k];
            if (kd->role == GCRM_KIND_GRID || kd->frequency > 0) ensure_dir(kd->dir, kd->dir_origin, &e);
        }
    if (cio_agree(a->comm, &e)) cio_die_all(a->comm, "%s", e.msg);
}

static int count_avg_fields(const gcrm_run *run)
{
    int n = 0;
    char *seen = cio_calloc((size_t)run->ds.n + 1, 1);
    for (int k = 0; k < run->plan.nkinds; k++)
        for (int v = 0; v < run->plan.kinds[k].nvars; v++) {
            int d = run->plan.kinds[k].descs[v];
            if (run->ds.d[d].avg_of >= 0 && !seen[d]) {
                seen[d] = 1;
                n++;
            }
        }
    cio_free(seen);
    return n;
}

static void load_inputs(cio_app *a, gcrm_run *run)
{
    cio_err e = {0};
    char *text = gcrm_read_input(a, "io_desc_file", run->desc_name, sizeof run->desc_name, &e);
    if (!text || gcrm_desc_parse(&run->ds, text, run->desc_name, &e) != 0) cio_die_all(a->comm, "%s", e.msg);
    cio_free(text);
    text = gcrm_read_input(a, "io_config_file", run->fcfg_name, sizeof run->fcfg_name, &e);
    if (!text || gcrm_fcfg_parse(&run->fc, text, run->fcfg_name, &run->ds, &e) != 0)
        cio_die_all(a->comm, "%s", e.msg);
    cio_free(text);
    if (gcrm_plan_build(&run->plan, &run->set, &run->ds, &run->fc, &e) != 0) cio_die_all(a->comm, "%s", e.msg);
    if (a->rank == 0 && run->plan.left_out) cio_warn("%s", run->plan.left_out);
}

static void cleanup(cio_app *a, gcrm_run *run)
{
    if (run->live) {
        gcrm_rankplan_free(run->live);
        cio_free(run->live);
    }
    for (int i = 0; i < run->nwritten; i++) cio_free(run->written[i].path);
    cio_free(run->written);
    cio_engine_free(a->engine);
    a->engine = NULL;
    gcrm_plan_free(&run->plan);
    gcrm_fcfg_free(&run->fc);
    gcrm_desc_free(&run->ds);
}

int main(int argc, char **argv)
{
    static cio_app app;
    static gcrm_run run;
    cio_app_init(&app, &argc, &argv, "gcrm_io", usage, gcrm_params, "zgrd.in", GCRM_BUILTIN_PARAM_NAME,
                 gcrm_builtin_zgrd_in);
    MPI_Barrier(app.comm);
    double t_start = MPI_Wtime();
    run.app = &app;
    cio_err e = {0};
    if (gcrm_settings_load(&run.set, app.params, &e) != 0) cio_die_all(app.comm, "%s", e.msg);
    int dry = cio_param_bool(app.params, "dry_run");
    int np = dry && cio_param_int(app.params, "nprocs") > 0 ? (int)cio_param_int(app.params, "nprocs") : app.nprocs;
    int iota;
    if (gcrm_choose_iota(run.set.level, np, &iota, &e) != 0) cio_die_all(app.comm, "%s", e.msg);
    load_inputs(&app, &run);
    set_gio_hints(&app, &run.set);
    cio_app_setup_engine(&app, run.plan.format);
    map_call_pattern(&app, &run);

    if (dry) {
        int rc = cio_app_dry_run(&app, np, gcrm_plan_rank, &run);
        cleanup(&app, &run);
        cio_app_exit(&app, rc);
    }
    if (app.ecfg.drv->formats != CIO_FMT_BIT(CIO_FMT_NONE)) check_dirs(&app, &run);
    if (run.set.memory_original) {
        gcrm_grid g;
        gcrm_grid_init(&g, run.set.level, iota, app.rank, app.nprocs);
        gcrm_model_alloc(&run.model, &g, run.set.physics, count_avg_fields(&run));
        gcrm_grid_free(&g);
    }
    MPI_Barrier(app.comm);
    double init = MPI_Wtime() - t_start;

    gcrm_plan_rank(&run, app.engine, app.rank, app.nprocs);

    double f0 = MPI_Wtime();
    if (run.set.memory_original) gcrm_model_free(&run.model);
    gcrm_figures fig;
    gcrm_figures_reduce(&run, init, MPI_Wtime() - f0, &fig);
    if (app.rank == 0) {
        gcrm_report_print(stdout, &run, &fig);
        fflush(stdout);
    }
    gcrm_report_ctx rctx = {&run, &fig};
    int rc = cio_app_finish(&app, gcrm_report_json, &rctx);
    cleanup(&app, &run);
    cio_app_exit(&app, rc);
}
