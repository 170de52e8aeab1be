/* decomp_io: replay a model's decomposition map (PIO text, PIO netCDF, SCORPIO
 * logger, E3SM-IO map files) or pioperf's BLOCK / ROUNDROBIN at any process
 * count, through every driver; or generate maps (--make_decomp); or run
 * pioperf's experiment from its namelist (--pioperf pioperf.nl). */
#include "config.h"
#include "decomp_kernel.h"
#include "app/kernel.h"
#include "app/outputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "decomp_io [parameter file] [--decomp FILE|BLOCK|ROUNDROBIN] [--key value ...]\n"
    "  Replays a decomposition map saved by PIO (PIO_SAVE_DECOMPS, PIOc_writemap, PIOc_write_nc_decomp), SCORPIO\n"
    "  or E3SM-IO (map_*_case_*p.nc) at any process count: a map recorded at P tasks runs on N ranks, rank r\n"
    "  taking a block of consecutive recorded tasks.  --pioperf pioperf.nl runs PIO's pioperf experiment;\n"
    "  --make_decomp KIND --gen_out FILE writes a generated map.  See doc/decomp.md";


static void kernel_json(cio_json *j, void *ctx)
{
    const run_info *ri = ctx;
    cio_json_obj(j, "decomp_io");
    cio_json_str(j, "decomp", ri->c->decomp);
    cio_json_str(j, "decomp_format", ri->c->source == DECOMP_FILE ? dmap_format_name(ri->m->format) : "builtin");
    cio_json_int(j, "recorded_tasks", ri->m->ntasks);
    cio_json_arr(j, "decompositions");
    for (int k = 0; k < ri->m->ndecomps; k++) {
        cio_json_obj(j, NULL);
        cio_json_arr(j, "dims");
        for (int i = 0; i < ri->m->desc[k].ndims; i++) cio_json_int(j, NULL, ri->m->desc[k].dims[i]);
        cio_json_arr_end(j);
        cio_json_obj_end(j);
    }
    cio_json_arr_end(j);
    if (ri->c->e3sm_case) cio_json_null(j, "nvars");   /* the case's own variables */
    else cio_json_int(j, "nvars", ri->c->nvars);
    cio_json_int(j, "records", ri->c->records);
    cio_json_str(j, "var_type", cio_type_name(ri->type));
    cio_json_str(j, "call_pattern", decomp_call_pattern_name(ri->c->calls));
    cio_json_obj_end(j);
}

/* Global counts of what the map names, for the report. */
static void report_map(const cio_app *a, const decomp_cfg *c, const dmap_loaded *m)
{
    int64_t mine[2 * DMAP_MAX_DECOMPS] = {0}, all[2 * DMAP_MAX_DECOMPS];
    for (int k = 0; k < m->ndecomps; k++) {
        mine[2 * k] = m->part[k].nelems;
        mine[2 * k + 1] = m->part[k].nholes;
    }
    MPI_Reduce(mine, all, 2 * DMAP_MAX_DECOMPS, MPI_INT64_T, MPI_SUM, 0, a->comm);
    if (a->rank != 0 || cio_param_bool(a->params, "quiet")) return;
    if (c->source == DECOMP_FILE)
        printf("decomp_io: %s (%s), recorded at %lld tasks, replayed on %d rank%s\n", c->decomp,
               dmap_format_name(m->format), (long long)m->ntasks, a->nprocs, a->nprocs == 1 ? "" : "s");
    else
        printf("decomp_io: pioperf's %s map, %lld elements per rank, on %d rank%s\n", c->decomp, (long long)c->varsize,
               a->nprocs, a->nprocs == 1 ? "" : "s");
    for (int k = 0; k < m->ndecomps; k++) {
        char dims[128];
        int64_t g = dmap_desc_elems(&m->desc[k]);
        printf("  D%d: %s, %lld elements written per variable and record, %lld holes, %lld %s", k + 1,
               dmap_dims_str(&m->desc[k], dims, sizeof dims), (long long)all[2 * k], (long long)all[2 * k + 1],
               (long long)(g - all[2 * k]), c->fill_holes ? "unheld, written with _FillValue" : "never written");
        if (!c->e3sm_case)
            printf("; %lld variables x %lld records of %s", (long long)c->nvars, (long long)c->records,
                   cio_type_name(c->type));
        printf("\n");
    }
}


/* What its parameters alone ask (kernel_facts.h): pioperf creates PnetCDF
 * files with PIO_64BIT_DATA. */
static void decomp_asks(const cio_params *p, cio_kernel_asks *k)
{
    (void)p;
    k->kernel_format = CIO_FMT_CDF5;
}

/* --make_decomp and --pioperf are whole programs of their own: they run here and
 * end the run; otherwise the settings. */
static cio_format decomp_setup(cio_app *a, void *ctx)
{
    decomp_kernel *k = ctx;
    k->app = a;
    if (decomp_run_kind_of(a->params) == DECOMP_RUN_GENERATOR) {
        cio_app_notes_at(a, CIO_APPLIES_AT_SETUP);     /* the generator's rows: it ends here */
        int rc = a->rank == 0 ? decomp_make(a->params, NULL) : 0;
        MPI_Bcast(&rc, 1, MPI_INT, 0, a->comm);
        cio_app_exit(a, rc);
    }
    cio_err e = {0};
    if (decomp_config_load(&k->c, a->params, &e) != 0) cio_die_all(a->comm, "%s", e.msg);
    const char *nl = cio_param_str(a->params, "pioperf");
    if (nl) {
        /* the namelist is the experiment: what it sets, or what pioperf does not do, is refused, not ignored */
        static const char *const owned[] = {"decomp", "nvars", "varsize", "records", "driver", "format", NULL};
        for (int i = 0; owned[i]; i++)
            if (cio_params_is_set(a->params, owned[i]))
                cio_die_all(a->comm, "%s: %s: --pioperf runs the namelist's experiment, which sets it (decompfile, "
                                     "nvars, varsize, nframes, pio_typenames); drop %s",
                            cio_param_origin(a->params, owned[i]), owned[i], owned[i]);
        if (cio_param_bool(a->params, "dry_run"))
            cio_die_all(a->comm, "%s: dry_run: --pioperf has no planner (it would have written its files); drop one",
                        cio_param_origin(a->params, "dry_run"));
        if (cio_param_int(a->params, "repetitions") > 1)
            cio_die_all(a->comm, "%s: repetitions: --pioperf runs each combination once, as pioperf; drop repetitions",
                        cio_param_origin(a->params, "repetitions"));
        cio_app_exit(a, decomp_pioperf(a, nl));
    }
    /* the call pattern as resolved, for the reports; a driver that cannot write a
     * variable's regions in one call writes them one by one, which is said */
    a->call_pattern = decomp_call_pattern_name(k->c.calls);
    /* E3SM-IO's calls come with the hints e3sm_io sets for PnetCDF (e3sm_io.c):
     * collective buffering, no gap between variables, the write buffers byte-swapped
     * in place (PnetCDF would copy each small request into a buffer of its own,
     * and then the whole wait into one); the user's hints come after and win */
    if (k->c.calls == DECOMP_CALLS_E3SM) {
        a->asks.hints = "romio_cb_write=enable;nc_var_align_size=1;nc_in_place_swap=enable";
        a->asks.hints_origin = "decomp_io call_pattern e3sm (the hints e3sm_io sets)";
    }
    const char *drv = cio_param_str(a->params, "driver");
    const cio_driver *d = drv ? cio_driver_find(drv) : cio_drivers[0];
    /* asked by name: said by the table (decomp_applicability.c); E3SM-IO's case's default, said here */
    if (k->c.calls == DECOMP_CALLS_E3SM && d && !d->posts_varn && !k->c.blob &&
        !cio_params_is_set(a->params, "call_pattern") && a->rank == 0 && !cio_param_bool(a->params, "quiet"))
        printf("decomp_io: call pattern e3sm (the default with e3sm_case): the %s driver has no call that writes "
               "several regions of a variable at once (PnetCDF's iput_varn): each region is its own call\n", d->name);
    if (k->c.blob && cio_param_bool(a->params, "dry_run"))
        cio_die_all(a->comm, "%s: the planner plans the canonical layout only", cio_param_origin(a->params, "layout"));
    return CIO_FMT_NONE;     /* decomp_asks' */
}

static int decomp_preamble(cio_app *a, void *ctx, int nprocs)
{
    decomp_kernel *k = ctx;
    (void)a;
    int rc = decomp_dry_run_open(&k->x, &k->c, nprocs);
    if (rc == 0 && k->x.dry_map) {
        k->map_format = dmap_file_format(k->x.dry_map);
        k->fill_pairs = dmap_file_fill_pairs(k->x.dry_map);
    }
    return rc;
}

static void *classes_open(void *ctx, int nprocs) { return decomp_classes_open(&((decomp_kernel *)ctx)->x, nprocs); }
static int classes_key(void *state, int rank, int64_t *key) { return decomp_class_key(state, rank, key); }
static void classes_close(void *state) { (void)state; }
static const cio_rank_classes decomp_classes = {classes_open, classes_key, classes_close, NULL};

static void decomp_plan(void *ctx, cio_engine *e, int rank, int nprocs)
{
    decomp_plan_rank(&((decomp_kernel *)ctx)->x, e, rank, nprocs);
}

/* The map, this rank's share (collective), the folder, the file's layout. */
static void decomp_prepare(cio_app *a, void *ctx)
{
    decomp_kernel *k = ctx;
    cio_err e = {0};
    if (k->c.source == DECOMP_FILE) {
        if (dmap_load(k->c.decomp, &k->c.opts, a->comm, &k->m, &e) != 0) cio_die_all(a->comm, "%s", e.msg);
    } else {
        decomp_ideal(&k->c, a->rank, a->nprocs, &k->m);
    }
    decomp_resolve_fill(&k->c, &k->m, a->ecfg.data, &a->ecfg.agg, 0, a->comm);
    report_map(a, &k->c, &k->m);
    k->map_format = k->m.format;   /* the map-format options it does not read: said by the table */
    k->fill_pairs = k->m.fill_pairs;
    /* the blob layout's blob_start and blob_count are int64: no classic CDF-1/2 type */
    cio_format fmt = a->ecfg.opts.format;
    if (k->c.blob && (fmt == CIO_FMT_CDF1 || fmt == CIO_FMT_CDF2 || fmt == CIO_FMT_NC4C))
        cio_die_all(a->comm, "%s: layout blob stores 64-bit integers (blob_start, blob_count), which format %s cannot "
                    "hold: use cdf5 or nc4", cio_param_origin(a->params, "format"), cio_format_name(fmt));
    if (a->rank == 0) cio_mkdir_p(k->c.outdir, &e);
    if (cio_agree(a->comm, &e)) cio_die_all(a->comm, "%s", e.msg);
    decomp_rundate_set(&k->x, a->comm);
    k->nfiles = decomp_files(&k->c, k->m.desc, k->m.ndecomps, k->files, &e);
    if (k->nfiles < 0) cio_die_all(a->comm, "%s", e.msg);
    for (int i = 0; i < k->nfiles; i++)
        if (k->files[i].ecase && decomp_e3sm_check(&k->files[i], &k->m, k->c.decomp, &e) != 0)
            cio_die_all(a->comm, "%s", e.msg);
    for (int i = 0; i < k->nfiles; i++) {
        /* the format's suffix; E3SM-IO's blob files are subfiles: <file>.nc.0000 */
        snprintf(k->path[i], sizeof k->path[i], "%s/%s%s%s%s", k->c.outdir, k->c.file, k->files[i].suffix,
                 cio_format_suffix(fmt), k->c.blob && k->c.e3sm_case ? ".0000" : "");
        int rc = 0;
        if (!k->c.blob) k->s[i] = decomp_schema(&k->x, &k->c, &k->m, &k->files[i], a->comm, a->rank);
        else if (k->c.e3sm_case) rc = decomp_e3sm_blob_schema(&k->x, &k->c, &k->m, &k->files[i], a->comm, &k->s[i], &e);
        else rc = decomp_blob_schema(&k->x, &k->c, &k->m, a->comm, &k->s[i], &e);
        if (rc != 0) cio_die_all(a->comm, "%s", e.msg);
        if (k->c.e3sm_case && a->rank == 0 && !cio_param_bool(a->params, "quiet")) {
            printf("  %s: E3SM-IO case file, %lld record%s of %s; variables per decomposition:", k->path[i],
                   (long long)k->files[i].records, k->files[i].records == 1 ? "" : "s", cio_type_name(k->files[i].type));
            for (int d = 0; d < k->m.ndecomps; d++) printf(" D%d %lld", d + 1, (long long)k->files[i].nvars[d]);
            printf(", not partitioned %lld (rank 0)\n", (long long)k->files[i].nonpart);
        }
    }
    k->ri = (run_info){&k->c, &k->m, k->m.part[0].task0, k->m.part[0].ntasks,
                       k->c.e3sm_case && k->nfiles > 0 ? k->files[0].type : k->c.type};
}

static void decomp_list_outputs(cio_app *a, void *ctx, cio_outputs *out)
{
    decomp_kernel *k = ctx;
    char src[700];
    snprintf(src, sizeof src, "output_dir '%s' with file '%s' (%s)", k->c.outdir, k->c.file,
             cio_param_origin(a->params, "file"));
    for (int i = 0; i < k->nfiles; i++)   /* every rank writes its share */
        cio_outputs_add(out, k->path[i], src, k->files[i].suffix, 1);
}

static void output_once(void *ctx, int repetition)
{
    decomp_kernel *k = ctx;
    (void)repetition;
    for (int i = 0; i < k->nfiles; i++)
        decomp_write(k->app->engine, k->s[i], k->files[i].records, k->path[i], k->app->comm,
                     k->c.calls == DECOMP_CALLS_E3SM);
}

static void decomp_cleanup(cio_app *a, void *ctx)
{
    decomp_kernel *k = ctx;
    (void)a;
    decomp_dry_run_close(&k->x);
    for (int i = 0; i < k->nfiles; i++) cio_schema_free(k->s[i]);
    k->nfiles = 0;
    decomp_blob_free(&k->x);
    decomp_e3sm_blob_free(&k->x);
    decomp_holes_free(&k->x);
    dmap_loaded_free(&k->m);
}

static void decomp_output(cio_app *a, void *ctx) { cio_app_repeat(a, output_once, ctx); }

static void decomp_json(cio_json *j, void *ctx) { kernel_json(j, &((decomp_kernel *)ctx)->ri); }

/* The generator writes a map and exits; pioperf's experiment writes pioperf's
 * own record (doc/decomp.md), not a climio result. */
static const char *decomp_no_result(const cio_params *p)
{
    switch (decomp_run_kind_of(p)) {
    case DECOMP_RUN_GENERATOR:
        return "--make_decomp writes a map file and exits: no benchmark file, report or JSON result";
    case DECOMP_RUN_PIOPERF:
        return "--pioperf runs PIO's pioperf experiment, whose JSON is pioperf's own record (doc/decomp.md), "
               "not a climio result";
    case DECOMP_RUN_REPLAY:
        break;
    }
    return NULL;
}

static const cio_kernel decomp_kernel_desc = {
    .name = "decomp_io",
    .usage = usage,
    .params = decomp_params,
    .facts = {.output_folder = &decomp_output_folder, .asks = decomp_asks, .iotype_rule = decomp_iotype_rule,
              .applicability = decomp_applicability, .no_result = decomp_no_result},
    .default_file = "decomp_io.in",
    .builtin_name = decomp_builtin_name,
    .builtin_text = decomp_builtin_text,
    .setup = decomp_setup,
    .plan_rank = decomp_plan,
    .rank_classes = &decomp_classes,
    .dry_run_preamble = decomp_preamble,
    .prepare = decomp_prepare,
    .list_outputs = decomp_list_outputs,
    .output = decomp_output,
    .json = decomp_json,
    .cleanup = decomp_cleanup,
};

int main(int argc, char **argv)
{
    static decomp_kernel k;
    return cio_kernel_main(&decomp_kernel_desc, &k, argc, argv);
}
