/* --repetitions: the output phase run N times in one job (cio_app_repeat). */
#define _XOPEN_SOURCE 700   /* nftw */
#include "config.h"
#include "app.h"
#include "util.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    if (remove(path) != 0 && errno != ENOENT) cio_warn("--repetitions: cannot remove %s: %s", path, strerror(errno));
    return 0;
}

/* Each file (an ADIOS2 BP output is a folder) is removed by rank 0 of the
 * communicator that created it; then every rank goes on together. */
static void remove_created(cio_app *a)
{
    int n = 0;
    const char *const *paths = cio_engine_created(a->engine, &n);
    for (int i = 0; i < n; i++) nftw(paths[i], remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    cio_engine_forget_created(a->engine);
    MPI_Barrier(a->comm);
}

static void pause_seconds(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

void cio_app_repeat(cio_app *a, cio_output_fn output, void *ctx)
{
    int n = (int)cio_param_int(a->params, "repetitions");
    double delay = cio_param_double(a->params, "repetition_delay");
    int keep = cio_param_bool(a->params, "keep_files");
    int quiet = cio_param_bool(a->params, "quiet");
    cio_free(a->reps);
    a->reps = cio_calloc((size_t)n, sizeof *a->reps);
    for (int r = 0; r < n; r++) {
        if (r > 0) {
            if (!keep) remove_created(a);
            if (delay > 0) pause_seconds(delay);
            cio_engine_new_repetition(a->engine);
            cio_stats_reset(&a->stats);
            cio_stats_mark_start(&a->stats, a->comm);
        }
        output(ctx, r);
        cio_summary s;
        cio_stats_reduce(&a->stats, a->comm, &s);
        cio_rep_from_summary(&a->reps[r], &s);
        if (n > 1 && a->rank == 0 && !quiet) {
            printf("repetition %d of %d: %.4f s end to end, %.2f MiB/s\n", r + 1, n, a->reps[r].seconds,
                   a->reps[r].mibps);
            fflush(stdout);
        }
    }
    a->nreps = n;
}

void cio_app_refuse_repetitions(cio_app *a, const char *why)
{
    if (cio_param_int(a->params, "repetitions") > 1)
        cio_die_all(a->comm, "%s: repetitions: %s cannot repeat its output in one job: %s",
                    cio_param_origin(a->params, "repetitions"), a->kernel, why);
}
