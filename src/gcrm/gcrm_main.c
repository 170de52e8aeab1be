/* gcrm_io: the I/O kernel of the Global Cloud Resolving Model, a drop-in for
 * PnetCDF's GCRM-IO benchmark.  `mpiexec -n N gcrm_io zgrd.in.r7` reads the
 * GCRM-IO inputs, builds the icosahedral grid and its decomposition, and writes
 * the history, grid and restart files of the simulated time through the climio
 * engine, then reports as GCRM-IO does (and as JSON). */
#include "config.h"
#include "app/kernel.h"
#include "base/env.h"
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
    static char buf[4096];
    if (!s->gio_hints) return;
    const char *hal = cio_getenv("nc_header_align_size"), *val = cio_getenv("nc_var_align_size");
    snprintf(buf, sizeof buf,
             "nc_header_align_size=%s;nc_var_align_size=%s;romio_no_indep_rw=true;romio_ds_write=disable;"
             "romio_cb_write=enable",
             hal && *hal ? hal : s->level < 8 ? "2048" : "1048576", val && *val ? val : "1");
    a->asks.hints = buf;
    a->asks.hints_origin = "gcrm_io default (the hints GIO sets)";
}

/* The kernel's state across the descriptor's steps.  The run comes first: the
 * dry run's plan and rank classes (gcrm_output.h) take this ctx as a gcrm_run. */
typedef struct gcrm_kernel {
    gcrm_run run;
    int iota;
    double t_start, init;
    gcrm_figures fig;
    gcrm_report_ctx rctx;
} gcrm_kernel;

/* GCRM-IO's blocking_collective posts iputs and waits after each field: the
 * engine's nonblocking_collective with a flush per field.  call_pattern
 * textbook keeps the engine's blocking_collective (put_vara_all).  The kernel's
 * iotype rule (kernel_facts.h): the run and --print_params both apply it. */
static const char *gcrm_iotype_rule(const cio_params *p, const cio_driver *d, cio_mode iotype, cio_mode *mode)
{
    if (iotype != CIO_MODE_BLOCKING_COLLECTIVE || strcmp(cio_param_str(p, "call_pattern"), "textbook") == 0 ||
        !(d->modes & CIO_MODE_BIT(CIO_MODE_NONBLOCKING_COLLECTIVE)))
        return NULL;
    *mode = CIO_MODE_NONBLOCKING_COLLECTIVE;
    return "gcrm_original_blocking";
}

/* Before anything but its parameters is read, GCRM-IO's format is CDF-2; its
 * grid makes it CDF-5 where a field passes 2 GiB (the setup step says which).
 * Both are classic: what --print_params derives from it holds for either. */
static void gcrm_asks(const cio_params *p, cio_kernel_asks *k)
{
    (void)p;
    k->kernel_format = CIO_FMT_CDF2;
}

/* The engine's mode as the kernel's iotype rule made it: GCRM-IO's names for
 * the report, a wait per field where the rule applied (the descriptor's
 * configure step, before the engine starts). */
static void map_call_pattern(cio_app *a, void *ctx)
{
    gcrm_run *run = &((gcrm_kernel *)ctx)->run;
    /* the iotype adjusted for a driver without the default mode (the note said so) */
    run->set.gio_mode = a->set.iotype;
    run->per_field_wait = strcmp(a->mode_cause, "gcrm_original_blocking") == 0;
    if (run->set.gio_mode == CIO_MODE_BLOCKING_COLLECTIVE && !run->set.textbook && !run->per_field_wait &&
        a->rank == 0 && !a->mode_adjusted)
        cio_warn("the %s driver has no nonblocking calls: blocking_collective is written with blocking "
                 "collective calls (call_pattern textbook) instead of GCRM-IO's iput + wait_all per field",
                 a->ecfg.drv->name);
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
                          "%s: output path '%s' does not exist, nor does its parent '%s' (set output_dir "
                          "(cdf_output_path), GCRM_OUTPUT_PATH or --output_dir to an existing directory)",
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

/* ---------------------------------------------------------------- the descriptor's steps */
static cio_format gcrm_setup(cio_app *a, void *ctx)
{
    gcrm_kernel *k = ctx;
    gcrm_run *run = &k->run;
    MPI_Barrier(a->comm);
    k->t_start = MPI_Wtime();
    run->app = a;
    cio_err e = {0};
    if (gcrm_settings_load(&run->set, a->params, &e) != 0) cio_die_all(a->comm, "%s", e.msg);
    static const char *const sizes[] = {"level_max", NULL};
    cio_params_alloc_hint(a->params, sizes);
    int np = cio_param_bool(a->params, "dry_run") ? cio_kernel_dry_nprocs(a) : a->nprocs;
    if (gcrm_choose_iota(run->set.level, np, &k->iota, &e) != 0) cio_die_all(a->comm, "%s", e.msg);
    load_inputs(a, run);
    set_gio_hints(a, &run->set);
    return run->plan.format;
}

static void gcrm_prepare(cio_app *a, void *ctx)
{
    gcrm_kernel *k = ctx;
    gcrm_run *run = &k->run;
    if (a->ecfg.drv->stores_data) check_dirs(a, run);
    if (run->set.memory_original) {
        gcrm_grid g;
        gcrm_grid_init(&g, run->set.level, k->iota, a->rank, a->nprocs);
        gcrm_model_alloc(&run->model, &g, run->set.physics, count_avg_fields(run));
        gcrm_grid_free(&g);
    }
    MPI_Barrier(a->comm);
    k->init = MPI_Wtime() - k->t_start;
}

/* One output phase (cio_app_repeat): every file of the simulated time, on this
 * rank.  A repetition after the first starts from an empty list of files and
 * fresh timing figures. */
static void output_once(void *ctx, int repetition)
{
    gcrm_run *run = ctx;
    cio_app *a = run->app;
    if (repetition > 0) {
        if (run->live) {
            gcrm_rankplan_free(run->live);
            cio_free(run->live);
            run->live = NULL;
        }
        for (int i = 0; i < run->nwritten; i++) cio_free(run->written[i].path);
        run->nwritten = 0;
        run->dumps = 0;
        run->t_io = run->t_comp = 0;
    }
    gcrm_plan_rank(run, a->engine, a->rank, a->nprocs);
}

/* The output phase, --repetitions times. */
static void gcrm_output(cio_app *a, void *ctx)
{
    cio_app_repeat(a, output_once, &((gcrm_kernel *)ctx)->run);
}

static void gcrm_report(cio_app *a, void *ctx)
{
    gcrm_kernel *k = ctx;
    double f0 = MPI_Wtime();
    if (k->run.set.memory_original) gcrm_model_free(&k->run.model);
    gcrm_figures_reduce(&k->run, k->init, MPI_Wtime() - f0, &k->fig);
    if (a->rank == 0) {
        gcrm_report_print(stdout, &k->run, &k->fig);
        fflush(stdout);
    }
    k->rctx = (gcrm_report_ctx){&k->run, &k->fig};
}

static void gcrm_json(cio_json *j, void *ctx) { gcrm_report_json(j, &((gcrm_kernel *)ctx)->rctx); }

static void gcrm_outputs(cio_app *a, void *ctx, cio_outputs *out)
{
    (void)a;
    gcrm_list_outputs(&((gcrm_kernel *)ctx)->run, out);
}

static void gcrm_cleanup(cio_app *a, void *ctx)
{
    (void)a;
    gcrm_run *run = &((gcrm_kernel *)ctx)->run;
    if (run->live) {
        gcrm_rankplan_free(run->live);
        cio_free(run->live);
    }
    for (int i = 0; i < run->nwritten; i++) cio_free(run->written[i].path);
    cio_free(run->written);
    gcrm_plan_free(&run->plan);
    gcrm_fcfg_free(&run->fc);
    gcrm_desc_free(&run->ds);
}

static const cio_kernel gcrm_kernel_desc = {
    .name = "gcrm_io",
    .usage = usage,
    .params = gcrm_params,
    .facts = {.output_folder = &gcrm_output_folder, .asks = gcrm_asks, .iotype_rule = gcrm_iotype_rule},
    .default_file = "zgrd.in",
    .builtin_name = GCRM_BUILTIN_PARAM_NAME,
    .setup = gcrm_setup,
    .configure = map_call_pattern,
    .plan_rank = gcrm_plan_rank,
    .rank_classes = &gcrm_rank_classes,
    .prepare = gcrm_prepare,
    .list_outputs = gcrm_outputs,
    .output = gcrm_output,
    .report = gcrm_report,
    .json = gcrm_json,
    .cleanup = gcrm_cleanup,
};

int main(int argc, char **argv)
{
    static gcrm_kernel k;
    cio_kernel desc = gcrm_kernel_desc;
    desc.builtin_text = gcrm_builtin_lookup("zgrd.in");   /* generated (src/embed.sh): not a constant */
    return cio_kernel_main(&desc, &k, argc, argv);
}
