/* --repetitions: the output phase run N times in one job (cio_app_repeat), and
 * --compression_reference: before each, the same output with no filter, whose
 * time is the reference for the time compression added. */
#define _XOPEN_SOURCE 700   /* nftw */
#include "config.h"
#include "app/app.h"
#include "drivers/compress.h"
#include "base/util.h"

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

/* Restart the statistics and the engine's per-repetition state for the next output phase. */
static void next_phase(cio_app *a)
{
    cio_engine_new_repetition(a->engine);
    cio_stats_reset(&a->stats);
    cio_stats_mark_start(&a->stats, a->comm);
}

/* --warmup N: the output phase N times before the measured ones, each recorded
 * apart (the JSON's "warmup") and left out of every figure; returns N. */
static int warm_up(cio_app *a, cio_output_fn output, void *ctx, int quiet)
{
    int n = (int)cio_param_int(a->params, "warmup");
    double delay = cio_param_double(a->params, "repetition_delay");
    cio_free(a->warm_reps);
    a->warm_reps = n > 0 ? cio_calloc((size_t)n, sizeof *a->warm_reps) : NULL;
    for (int w = 0; w < n; w++) {
        if (w > 0) {
            if (!cio_param_bool(a->params, "keep_files")) remove_created(a);
            if (delay > 0) pause_seconds(delay);
            next_phase(a);
        }
        output(ctx, w);
        cio_app_sync_at_end(a);
        cio_summary s;
        cio_stats_reduce(&a->stats, a->comm, &s);
        cio_rep_from_summary(&a->warm_reps[w], &s);
        if (a->rank == 0 && !quiet) {
            printf("warm-up %d of %d (left out of the figures): %.4f s end to end, %.2f MiB/s\n", w + 1, n,
                   a->warm_reps[w].seconds, a->warm_reps[w].mibps);
            fflush(stdout);
        }
    }
    a->nwarm = n;
    return n;
}

int cio_app_wants_reference(const cio_app *a)
{
    return cio_param_bool(a->params, "compression_reference") && cio_compress_any(&a->ecfg.opts) && a->engine &&
           a->ecfg.drv->stores_data && !a->ecfg.verify_only && !cio_param_bool(a->params, "dry_run");
}

void cio_app_repeat(cio_app *a, cio_output_fn output, void *ctx)
{
    int n = (int)cio_param_int(a->params, "repetitions");
    double delay = cio_param_double(a->params, "repetition_delay");
    int keep = cio_param_bool(a->params, "keep_files");
    int quiet = cio_param_bool(a->params, "quiet");
    int ref = cio_app_wants_reference(a);
    cio_free(a->reps);
    cio_free(a->ref_reps);
    a->reps = cio_calloc((size_t)n, sizeof *a->reps);
    a->ref_reps = ref ? cio_calloc((size_t)n, sizeof *a->ref_reps) : NULL;
    int phase = warm_up(a, output, ctx, quiet);   /* output phases run: the kernels start afresh when > 0 */
    for (int r = 0; r < n; r++) {
        if (phase > 0) {
            if (!keep) remove_created(a);
            if (delay > 0) pause_seconds(delay);
        }
        if (ref) {
            /* the reference: the same output with no filter, just before the filtered one,
             * its files removed before the filtered run writes the same paths */
            if (phase > 0) next_phase(a);
            cio_engine_filters_off(a->engine, 1);
            output(ctx, phase++);
        cio_app_sync_at_end(a);
            cio_app_sync_at_end(a);
            cio_engine_filters_off(a->engine, 0);
            cio_summary s;
            cio_stats_reduce(&a->stats, a->comm, &s);
            cio_rep_from_summary(&a->ref_reps[r], &s);
            if (a->rank == 0 && !quiet) {
                printf("reference %d of %d (no filter): %.4f s end to end, %.2f MiB/s\n", r + 1, n,
                       a->ref_reps[r].seconds, a->ref_reps[r].mibps);
                fflush(stdout);
            }
            remove_created(a);
            if (delay > 0) pause_seconds(delay);
        }
        if (phase > 0) next_phase(a);
        output(ctx, phase++);
        cio_app_sync_at_end(a);
        cio_summary s;
        cio_stats_reduce(&a->stats, a->comm, &s);
        cio_rep_from_summary(&a->reps[r], &s);
        if ((n > 1 || ref) && a->rank == 0 && !quiet) {
            printf("repetition %d of %d: %.4f s end to end, %.2f MiB/s\n", r + 1, n, a->reps[r].seconds,
                   a->reps[r].mibps);
            fflush(stdout);
        }
    }
    a->nreps = n;
    a->nref = ref ? n : 0;
}

void cio_app_refuse_repetitions(cio_app *a, const char *why)
{
    if (cio_param_int(a->params, "repetitions") > 1)
        cio_die_all(a->comm, "%s: repetitions: %s cannot repeat its output in one job: %s",
                    cio_param_origin(a->params, "repetitions"), a->kernel, why);
    if (cio_param_int(a->params, "warmup") > 0)
        cio_die_all(a->comm, "%s: warmup: %s cannot repeat its output in one job: %s",
                    cio_param_origin(a->params, "warmup"), a->kernel, why);
    if (cio_param_bool(a->params, "compression_reference"))
        cio_die_all(a->comm, "%s: compression_reference needs a second, unfiltered run of the output, and %s cannot "
                             "repeat its output in one job: %s",
                    cio_param_origin(a->params, "compression_reference"), a->kernel, why);
}

/* ---------------------------------------------------------------- the time compression added */
static int compression_time(const cio_app *a, cio_rep_stats *unf, cio_rep_stats *fil)
{
    if (a->nref < 1) return 0;
    double *t = cio_malloc((size_t)a->nref * sizeof *t);
    for (int i = 0; i < a->nref; i++) t[i] = a->ref_reps[i].seconds;
    cio_rep_stats_of(t, a->nref, unf);
    for (int i = 0; i < a->nreps; i++) t[i] = a->reps[i].seconds;
    cio_rep_stats_of(t, a->nreps, fil);
    cio_free(t);
    return 1;
}

void cio_app_compression_time_print(FILE *out, const cio_app *a)
{
    cio_rep_stats u, f;
    if (!compression_time(a, &u, &f)) return;
    double added = f.median - u.median;
    fprintf(out, "compression added        %.4f s (%+.1f%%): %.4f s end to end filtered, %.4f s with no filter (the "
                 "reference: the same run, same settings)%s\n",
            added, u.median > 0 ? 100.0 * added / u.median : 0.0, f.median, u.median,
            a->nref > 1 ? ", medians of the repetitions" : "");
}

void cio_app_compression_time_json(cio_json *j, const cio_app *a)
{
    cio_rep_stats u, f;
    if (!compression_time(a, &u, &f)) return;
    cio_json_obj(j, "compression_time");
    cio_json_str(j, "reference", "the same output with no filter and no quantization, run before each repetition");
    cio_json_int(j, "runs", a->nref);
    cio_json_num(j, "filtered_seconds", f.median);
    cio_json_num(j, "unfiltered_seconds", u.median);
    cio_json_num(j, "added_seconds", f.median - u.median);
    cio_json_num(j, "added_fraction", u.median > 0 ? (f.median - u.median) / u.median : 0.0);
    cio_json_num(j, "unfiltered_write_bandwidth_MiBps", u.median > 0 ? (double)a->ref_reps[0].bytes / u.median / 1048576.0 : 0.0);
    cio_json_arr(j, "unfiltered_repetitions");
    for (int i = 0; i < a->nref; i++) cio_json_num(j, NULL, a->ref_reps[i].seconds);
    cio_json_arr_end(j);
    cio_json_obj_end(j);
}
