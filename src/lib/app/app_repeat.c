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
 * communicator that created it; then every rank goes on together, knowing how
 * many were removed. */
static int64_t remove_created(cio_app *a)
{
    int n = 0;
    int64_t mine = 0, all = 0;
    const char *const *paths = cio_engine_created(a->engine, &n);
    for (int i = 0; i < n; i++) {
        char stored[4096];
        if (a->ecfg.drv->stored_path) a->ecfg.drv->stored_path(paths[i], stored, sizeof stored);
        else snprintf(stored, sizeof stored, "%s", paths[i]);
        mine += nftw(stored, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0;   /* -1: none there */
    }
    cio_engine_forget_created(a->engine);
    MPI_Allreduce(&mine, &all, 1, MPI_INT64_T, MPI_SUM, a->comm);
    return all;
}

static void pause_seconds(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

/* The end of an output phase, whatever the phase is for: --fsync end makes every
 * file written durable (collective: a failure on any rank stops every rank),
 * then the phase's end-to-end figures go into *rep. */
void cio_app_end_phase(cio_app *a, cio_rep *rep)
{
    if (a->engine && a->ecfg.fsync == CIO_FSYNC_END) {
        cio_err e = {0};
        cio_engine_sync_written(a->engine, &e);
        if (cio_agree(a->comm, &e)) cio_die_all(a->comm, "%s", e.msg);
    }
    cio_summary s;
    cio_stats_reduce(&a->stats, a->comm, &s);
    cio_rep_from_summary(rep, &s);
}

int cio_app_wants_reference(const cio_app *a)
{
    return cio_param_bool(a->params, "compression_reference") && cio_compress_any(&a->ecfg.opts) && a->engine &&
           a->ecfg.drv->stores_data && !a->ecfg.verify_only && !cio_param_bool(a->params, "dry_run");
}

/* What an output phase is for: left out of the figures (--warmup), the unfiltered
 * reference before a repetition (--compression_reference), or measured. */
enum { PHASE_WARMUP, PHASE_REFERENCE, PHASE_MEASURED };

/* Phase i of the run's sequence: warm-ups, then each repetition, preceded by its
 * reference when there is one; *k is its number among the phases of its kind. */
static int phase_kind(int i, int nwarm, int ref, int *k)
{
    if (i < nwarm) {
        *k = i;
        return PHASE_WARMUP;
    }
    i -= nwarm;
    *k = ref ? i / 2 : i;
    return ref && i % 2 == 0 ? PHASE_REFERENCE : PHASE_MEASURED;
}

/* Between phases: the files of the one before removed (a reference's always,
 * the others' unless --keep_files), the pause, the statistics restarted; what
 * was done goes into the next phase's figures (*next). */
static void between_phases(cio_app *a, int after_reference, cio_rep *next)
{
    next->removed_before = after_reference || !cio_param_bool(a->params, "keep_files") ? remove_created(a) : 0;
    double delay = cio_param_double(a->params, "repetition_delay"), t0 = MPI_Wtime();
    if (delay > 0) pause_seconds(delay);
    next->paused_before = delay > 0 ? MPI_Wtime() - t0 : 0;
    cio_engine_new_repetition(a->engine);
    cio_stats_reset(&a->stats);
    cio_stats_mark_start(&a->stats, a->comm);
}

static void say_phase(const cio_app *a, int kind, int k, int n)
{
    const cio_rep *r = kind == PHASE_WARMUP ? &a->warm_reps[k] : kind == PHASE_REFERENCE ? &a->ref_reps[k] : &a->reps[k];
    if (kind == PHASE_WARMUP)
        printf("warm-up %d of %d (left out of the figures): ", k + 1, a->nwarm);
    else if (kind == PHASE_REFERENCE)
        printf("reference %d of %d (no filter): ", k + 1, n);
    else
        printf("repetition %d of %d: ", k + 1, n);
    printf("%.4f s end to end, %.2f MiB/s\n", r->seconds, r->mibps);
    fflush(stdout);
}

void cio_app_repeat(cio_app *a, cio_output_fn output, void *ctx)
{
    int n = (int)cio_param_int(a->params, "repetitions");
    int quiet = cio_param_bool(a->params, "quiet");
    int ref = cio_app_wants_reference(a);
    cio_free(a->reps);
    cio_free(a->ref_reps);
    cio_free(a->warm_reps);
    a->nwarm = (int)cio_param_int(a->params, "warmup");
    a->reps = cio_calloc((size_t)n, sizeof *a->reps);
    a->ref_reps = ref ? cio_calloc((size_t)n, sizeof *a->ref_reps) : NULL;
    a->warm_reps = a->nwarm > 0 ? cio_calloc((size_t)a->nwarm, sizeof *a->warm_reps) : NULL;
    int total = a->nwarm + n * (ref ? 2 : 1), prev = PHASE_MEASURED;
    for (int i = 0; i < total; i++) {   /* output(ctx, i): the kernels start afresh when i > 0 */
        int k, kind = phase_kind(i, a->nwarm, ref, &k);
        cio_rep *rep = kind == PHASE_WARMUP ? &a->warm_reps[k] : kind == PHASE_REFERENCE ? &a->ref_reps[k] : &a->reps[k];
        if (i > 0) between_phases(a, prev == PHASE_REFERENCE, rep);
        /* the reference: the same output with no filter, just before the filtered one */
        if (kind == PHASE_REFERENCE) cio_engine_filters_off(a->engine, 1);
        output(ctx, i);
        if (kind == PHASE_REFERENCE) cio_engine_filters_off(a->engine, 0);
        cio_app_end_phase(a, rep);
        if (a->rank == 0 && !quiet && (kind != PHASE_MEASURED || n > 1 || ref)) say_phase(a, kind, k, n);
        prev = kind;
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
