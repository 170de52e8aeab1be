/* What ran, said in every product: the headline (what ran, with what was asked
 * in parentheses where they differ, the median with its spread and n), the
 * cause of an iotype that ran as another, and the line that says which
 * repetition the blocks after the run describe. */
#include "config.h"
#include "app/app.h"

#include <stdio.h>
#include <string.h>

const char *cio_app_iotype_cause(const cio_app *a)
{
    return a->mode_cause[0] ? a->mode_cause : NULL;   /* cio_iotype_effective's */
}

int cio_app_planned_nprocs(const cio_app *a)
{
    int64_t n = cio_param_int(a->params, "nprocs");
    return cio_param_bool(a->params, "dry_run") && n > 0 ? (int)n : a->nprocs;
}

int cio_app_io_tasks(const cio_app *a)
{
    const cio_agg_cfg *g = &a->ecfg.agg;
    int np = cio_app_planned_nprocs(a);
    if (g->io_tasks <= 0 || (np == 1 && g->rearranger != CIO_REARR_PIOBOX)) return 0;
    return g->io_tasks < np ? g->io_tasks : np;
}

const char *cio_app_hints_unused(const cio_app *a, char *buf, size_t n)
{
    const cio_driver *d = a->ecfg.drv;
    if (!d || (d->hint_formats & CIO_FMT_BIT(a->ecfg.opts.format))) return NULL;
    if (!d->stores_data) snprintf(buf, n, "the %s driver stores nothing", d->name);
    else snprintf(buf, n, "the %s driver writes %s without MPI-IO", d->name, cio_format_name(a->ecfg.opts.format));
    return buf;
}

const char *cio_app_fsync_name(int mode)
{
    return mode == CIO_FSYNC_CLOSE ? "close" : mode == CIO_FSYNC_END ? "end" : "none";
}

const char *cio_app_call_pattern(const cio_app *a)
{
    if (a->call_pattern) return a->call_pattern;
    return cio_param_known(a->params, "call_pattern") ? cio_param_str(a->params, "call_pattern") : NULL;
}

void cio_app_iotype_text(const cio_app *a, char *buf, size_t len, int with_cause)
{
    const char *cause = cio_app_iotype_cause(a);
    if (a->mode_asked == a->ecfg.opts.mode)
        snprintf(buf, len, "%s", cio_mode_name(a->ecfg.opts.mode));
    else if (with_cause && cause)
        snprintf(buf, len, "%s (asked %s; cause: %s)", cio_mode_name(a->ecfg.opts.mode), cio_mode_name(a->mode_asked),
                 cause);
    else
        snprintf(buf, len, "%s (asked %s)", cio_mode_name(a->ecfg.opts.mode), cio_mode_name(a->mode_asked));
}

void cio_app_headline(const cio_app *a, char *buf, size_t len)
{
    const cio_summary *s = &a->summary;
    char mode[96];
    cio_app_iotype_text(a, mode, sizeof mode, 0);
    char figure[160];
    if (a->nreps > 1) {
        const cio_rep_stats *m = &a->rep_summary.mibps;
        char warm[48] = "";
        if (a->nwarm > 0) snprintf(warm, sizeof warm, " after %d warm-up", a->nwarm);
        snprintf(figure, sizeof figure, "write=%.2f [%.2f-%.2f] MiB/s end to end (median of %d%s, %d flagged)",
                 m->median, m->min, m->max, a->nreps, warm, a->rep_summary.flagged);
    } else {
        snprintf(figure, sizeof figure, "write=%.2f MiB/s end to end (1 run%s)", s->bw_write / 1048576.0,
                 a->nwarm > 0 ? ", after warm-up" : "");
    }
    snprintf(buf, len, "climio: %s %s/%s %s np=%d bytes=%lld %s, durable=%s", a->kernel,
             a->ecfg.drv ? a->ecfg.drv->name : "-", cio_format_name(a->ecfg.opts.format), mode, a->nprocs,
             (long long)s->bytes_written, figure, a->durable ? "yes" : "no");
}

void cio_app_which_repetition(FILE *out, const cio_app *a)
{
    if (a->nreps > 1)
        fprintf(out, "---- the figures below (until the summary of all repetitions) are repetition %d of %d, the "
                     "last ----\n",
                a->nreps, a->nreps);
}
