/* The text reports rank 0 prints: the hints block and the climio summary. */
#include "config.h"
#include "app/app.h"
#include "base/hint_status.h"
#include "drivers/compress.h"

#include <stdio.h>
#include <string.h>

void cio_report_hints(FILE *out, const cio_hints *h)
{
    fprintf(out, "---- MPI file info used ----\n");
    for (int i = 0; i < h->n; i++) fprintf(out, "MPI File Info: [%2d] key = %25s, value = %s\n", i, h->key[i], h->val[i]);
}

static void phase_table(FILE *out, const cio_summary *s)
{
    fprintf(out, "%-14s %8s %11s %11s %6s %11s %6s %11s %14s\n", "phase", "calls", "sum s", "min s", "rank",
            "max s", "rank", "mean s", "bytes");
    for (int i = 0; i < s->ntimers; i++) {
        const cio_tred *t = &s->t[i];
        if (t->calls == 0 && t->sec.sum == 0) continue;
        fprintf(out, "%-14s %8lld %11.4f %11.4f %6d %11.4f %6d %11.4f %14lld\n", t->name, (long long)t->calls,
                t->sec.sum, t->sec.min, t->sec.min_rank, t->sec.max, t->sec.max_rank, t->sec.mean, (long long)t->bytes);
    }
}

/* The statistics with a text label (cio_stat_table), one line each. */
static void report_stats(FILE *out, const cio_summary *s)
{
    const double MiB = 1048576.0;
    for (int k = 0; k < cio_nstats; k++) {
        const cio_stat_desc *d = &cio_stat_table[k];
        if (!d->text) continue;
        const void *v = (const char *)s + d->in_summary;
        int bytes = strcmp(d->unit, "bytes") == 0;
        fprintf(out, "%-24s ", d->text);
        if (d->red == CIO_RED_RANKS) {
            const cio_red *r = v;
            double u = bytes ? MiB : 1;
            fprintf(out, "min %.2f / mean %.2f / max %.2f%s (rank %d)\n", r->min / u, r->mean / u, r->max / u,
                    bytes ? " MiB" : "", r->max_rank);
        } else if (*(const int64_t *)v < 0) {
            fprintf(out, "unknown (the driver cannot say)\n");
        } else {
            int64_t x = *(const int64_t *)v;
            if (bytes) fprintf(out, "%lld (%.2f MiB)\n", (long long)x, (double)x / MiB);
            else fprintf(out, "%lld\n", (long long)x);
        }
    }
}

void cio_report_summary(FILE *out, const cio_app *a, const cio_summary *s)
{
    const double MiB = 1048576.0;
    fprintf(out, "==== climio %s summary ======================================\n", a->kernel);
    cio_app_which_repetition(out, a);
    char mode[160];
    cio_app_iotype_text(a, mode, sizeof mode, 1);
    fprintf(out, "driver %s, format %s, iotype %s, %d processes\n", a->ecfg.drv ? a->ecfg.drv->name : "-",
            cio_format_name(a->ecfg.opts.format), mode, s->nprocs);
    if (a->mode_note[0]) fprintf(out, "iotype: %s\n", a->mode_note);
    const cio_driver_opts *o = &a->ecfg.opts;
    fprintf(out, "data %s", cio_data_name(a->ecfg.data));
    if (cio_compress_any(o)) {
        fprintf(out, "; filters: deflate %d, shuffle %s, szip %s, quantize %s", o->deflate, o->shuffle ? "on" : "off",
                o->szip ? "on" : "off", cio_quantize_name(o->quantize));
        if (o->quantize) fprintf(out, ":%d digits", o->quantize_digits);
    }
    fprintf(out, "\n");
    char note[512] = "";
    if (a->ecfg.drv && a->ecfg.drv->describe) a->ecfg.drv->describe(note, sizeof note);
    if (note[0]) fprintf(out, "%s driver: %s\n", a->ecfg.drv->name, note);
    if (cio_app_io_tasks(a) > 0)
        fprintf(out, "aggregation: %d I/O tasks (stride %d, base %d), %s rearranger, %s exchange\n",
                cio_app_io_tasks(a), a->ecfg.agg.io_stride,
                a->ecfg.agg.io_base, cio_rearranger_name(a->ecfg.agg.rearranger),
                a->ecfg.agg.max_pend_req > 0 ? "point-to-point" : "MPI_Alltoallw");
    cio_context_print(out, &a->context);
    if (a->engine) {
        char unused[160];
        cio_hint_status_print(out, cio_engine_requested_hints(a->engine), cio_engine_applied_hints(a->engine),
                              a->context.mpi_io, a->ecfg.drv ? a->ecfg.drv->hint_prefix : NULL,
                              cio_app_hints_unused(a, unused, sizeof unused));
    }
    phase_table(out, s);
    report_stats(out, s);
    fprintf(out, "end to end               %.4f s from the first create/open to the last close%s: %.2f MiB/s\n",
            s->window,
            a->ecfg.fsync == CIO_FSYNC_CLOSE ? " (a sync before each close included)"
            : a->ecfg.fsync == CIO_FSYNC_END ? " (each file synced once after its last write included)" : "",
            s->bw_write / MiB);
    fprintf(out, "making the data          %.4f s on the slowest rank (pack), %s the end-to-end window (--timing_window %s)\n",
            s->t[CIO_T_PACK].sec.max, a->stats.clock_stops_for_data ? "outside" : "inside",
            a->stats.clock_stops_for_data ? "io" : "end_to_end_with_data");
    cio_app_compression_time_print(out, a);
    if (a->did_readback) {
        const cio_summary *r = &a->rsummary;
        fprintf(out, "read back                %lld files, %lld records, %.2f MiB in %.4f s: %.2f MiB/s%s\n",
                (long long)a->rb.files, (long long)a->rb.records, r->bytes_read / MiB, r->window, r->bw_read / MiB,
                cio_param_bool(a->params, "verify_shift") && a->nprocs > 1 ? " (shifted: each rank read its neighbour's part)" : "");
        if (a->rb_checked)
            fprintf(out, "verify                   %s: %lld elements checked, %lld mismatches\n",
                    a->rb.mismatches ? "FAIL" : "PASS", (long long)a->rb.elements, (long long)a->rb.mismatches);
    }
    if (a->nreps > 1) cio_rep_print(out, a->reps, a->nreps, &a->rep_summary);
    fprintf(out, "================================================================\n");
}
