/* A kernel, described once.  Every kernel's main() is
 *
 *     static my_ctx ctx;
 *     return cio_kernel_main(&my_kernel, &ctx, argc, argv);
 *
 * and cio_kernel_main does the rest the same way for every kernel: parameters
 * (the built-in input when no file is given), the engine, the dry run (one
 * way: cio_app_dry_run over the kernel's per-rank plan), the real run, the
 * read-back, the text and JSON reports, the exit status on every rank.  A
 * common feature a kernel cannot do is refused here, with the kernel's reason,
 * before anything runs.
 *
 * The order of the hooks (all optional but `output`):
 *   (facts.asks  what its parameters alone ask of the settings, at start-up: kernel_facts.h)
 *   setup      read the kernel's settings and inputs; set what must be set before
 *              the engine exists (hints, a driver); returns the kernel's format
 *              where its inputs decide it (CIO_FMT_NONE: facts.asks' or the driver's)
 *   configure  adjust a->ecfg (resolved from the parameters, the mode by
 *              facts.iotype_rule too) before the engine starts
 *   --dry-run: dry_run_preamble (rank 0), then plan_rank for every virtual rank
 *   prepare    the real run's set-up (directories, domains, communicators)
 *   list_outputs  the paths the run will write, claimed before the first file
 *   output     the output phase: cio_app_repeat(a, one_phase, ...) for --repetitions
 *   report     the kernel's own text report, before the suite's summary
 *   (cio_app_finish: read-back, summary, JSON with the `json` section)
 *   verdict    the exit status after the kernel's own checks
 *   cleanup    free what the kernel holds */
#ifndef CLIMIO_KERNEL_H
#define CLIMIO_KERNEL_H

#include "app/app.h"

typedef struct cio_kernel {
    const char *name;               /* "gcrm_io": messages, JSON, the files' prefix */
    const char *usage;
    const cio_param_spec *params;   /* the kernel's own keys (CIO_PARAM_END) */
    /* its output folder (default, override, ''), what its parameters alone ask of the
     * settings, its own iotype rule: kernel_facts.h */
    cio_kernel_facts facts;
    const char *default_file;       /* read when no parameter file is given and it exists */
    const char *builtin_name;       /* else this built-in input ("<built-in ...>") */
    const char *builtin_text;

    /* argv as the kernel's users write it, into "--key value" form (pfio's MAPL
     * options); the JSON keeps the command line as typed. */
    char **(*argv_rewrite)(int argc, char **argv, int *nargc);

    cio_format (*setup)(cio_app *a, void *ctx);
    void (*configure)(cio_app *a, void *ctx);

    /* The dry run: plan_rank (see cio_app_dry_run) and optional rank classes; a
     * preamble printed first (rank 0; non-zero: the exit status).  No plan_rank:
     * --dry_run is refused with no_dry_run as the reason. */
    cio_plan_rank_fn plan_rank;
    const cio_rank_classes *rank_classes;
    int (*dry_run_preamble)(cio_app *a, void *ctx, int nprocs);
    const char *no_dry_run;
    /* Non-NULL: io_tasks (engine aggregation) is refused, with this reason. */
    const char *no_aggregation;
    /* Non-NULL: --repetitions above 1 is refused, with this reason.  Otherwise
     * `output` runs its phase through cio_app_repeat (app.h). */
    const char *no_repetitions;

    void (*prepare)(cio_app *a, void *ctx);
    /* Rank 0: every output path and folder of the run (outputs.h), claimed
     * before the first file (collisions named, folders locked). */
    void (*list_outputs)(cio_app *a, void *ctx, cio_outputs *out);
    void (*output)(cio_app *a, void *ctx);
    void (*report)(cio_app *a, void *ctx);
    cio_json_fn json;               /* the JSON's kernel_report section (ctx) */
    int (*verdict)(cio_app *a, void *ctx, int rc);
    void (*cleanup)(cio_app *a, void *ctx);
} cio_kernel;

/* Runs the kernel as described and exits with its status on every rank. */
int cio_kernel_main(const cio_kernel *k, void *ctx, int argc, char **argv) CIO_NORETURN;

/* The process count a dry run plans for: --nprocs, else the ranks started. */
int cio_kernel_dry_nprocs(const cio_app *a);

#endif
