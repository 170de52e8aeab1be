/* cio_kernel_main: every kernel's run, from its descriptor (kernel.h). */
#include "config.h"
#include "app/kernel.h"
#include "base/util.h"

#include <string.h>

int cio_kernel_dry_nprocs(const cio_app *a)
{
    int64_t n = cio_param_int(a->params, "nprocs");
    return n > 0 ? (int)n : a->nprocs;
}

/* What this kernel cannot do, refused before anything runs. */
static void refuse(const cio_kernel *k, cio_app *a)
{
    cio_params *p = a->params;
    if (cio_param_bool(p, "dry_run") && !k->plan_rank)
        cio_die_all(a->comm, "--dry_run: %s has no dry run: %s", k->name,
                    k->no_dry_run ? k->no_dry_run : "it has no per-rank plan");
    if (k->no_repetitions) cio_app_refuse_repetitions(a, k->no_repetitions);
    if (k->no_aggregation && strcmp(cio_param_str(p, "io_tasks"), "all") != 0)
        cio_die_all(a->comm, "%s: io_tasks: %s does no engine aggregation: %s", cio_param_origin(p, "io_tasks"),
                    k->name, k->no_aggregation);
}

static int dry_run(const cio_kernel *k, cio_app *a, void *ctx)
{
    int n = cio_kernel_dry_nprocs(a), rc = 0;
    if (a->rank == 0) {   /* rank 0 plans every rank, without MPI */
        if (k->dry_run_preamble) rc = k->dry_run_preamble(a, ctx, n);
        if (rc == 0) cio_app_notes_at(a, CIO_APPLIES_AT_INPUTS);
        if (rc == 0) rc = cio_app_dry_run(a, n, k->plan_rank, k->rank_classes, ctx);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, a->comm);
    return rc;
}

int cio_kernel_main(const cio_kernel *k, void *ctx, int argc, char **argv)
{
    static cio_app app;
    cio_app *a = &app;
    int nargc = argc;
    char **nargv = k->argv_rewrite ? k->argv_rewrite(argc, argv, &nargc) : argv;
    cio_app_init_folder(a, &nargc, &nargv, k->name, k->usage, k->params, &k->facts, k->default_file,
                        k->builtin_name, k->builtin_text);
    if (k->argv_rewrite) {      /* the JSON reports the command line as typed */
        a->argc = argc;
        a->argv = argv;
    }
    a->kctx = ctx;
    refuse(k, a);
    cio_format fmt = k->setup ? k->setup(a, ctx) : CIO_FMT_NONE;
    a->plans_by_class = k->rank_classes && (!k->rank_classes->used || k->rank_classes->used(ctx));
    cio_app_resolve_engine(a, fmt);
    if (k->configure) k->configure(a, ctx);
    cio_app_start_engine(a);

    int rc;
    if (cio_param_bool(a->params, "dry_run")) {
        rc = dry_run(k, a, ctx);
    } else {
        if (k->prepare) k->prepare(a, ctx);
        cio_app_notes_at(a, CIO_APPLIES_AT_INPUTS);
        if (k->list_outputs) {
            cio_outputs *outs = cio_outputs_new();
            if (a->rank == 0) k->list_outputs(a, ctx, outs);
            cio_app_claim_outputs(a, outs);
        }
        k->output(a, ctx);
        if (k->report) {
            if (a->rank == 0 && !cio_param_bool(a->params, "quiet")) cio_app_which_repetition(stdout, a);
            k->report(a, ctx);
        }
        rc = cio_app_finish(a, k->json, ctx);
        if (k->verdict) rc = k->verdict(a, ctx, rc);
    }
    if (k->cleanup) k->cleanup(a, ctx);
    cio_engine_free(a->engine);
    a->engine = NULL;
    cio_app_exit(a, rc);
}
