#include "config.h"
#include "app/repeat.h"
#include "base/stats.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void cio_rep_stats_of(const double *v, int n, cio_rep_stats *out)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    if (n <= 0) return;
    double *s = cio_malloc((size_t)n * sizeof *s);
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    out->min = s[0];
    out->max = s[n - 1];
    out->median = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    double sum = 0;
    for (int i = 0; i < n; i++) sum += s[i];
    out->mean = sum / n;
    double sq = 0;
    for (int i = 0; i < n; i++) sq += (s[i] - out->mean) * (s[i] - out->mean);
    out->stddev = n > 1 ? sqrt(sq / (n - 1)) : 0;
    cio_free(s);
}

void cio_rep_from_summary(cio_rep *r, const cio_summary *s)
{
    r->seconds = s->window;
    r->bytes = s->bytes_written;
    r->mibps = s->bw_write / 1048576.0;
    r->sync_seconds = s->t[CIO_T_SYNC].sec.max;
    r->ntimers = 0;
    for (int i = 0; i < s->ntimers && i < CIO_MAX_TIMERS; i++) {
        const cio_tred *t = &s->t[i];
        if (t->calls == 0 && t->sec.sum == 0) continue;
        cio_rep_timer *o = &r->timers[r->ntimers++];
        snprintf(o->name, sizeof o->name, "%s", t->name);
        o->max = t->sec.max;
        o->mean = t->sec.mean;
        o->calls = t->calls;
    }
}

int cio_rep_is_flagged(const cio_rep *r, const cio_rep_summary *s)
{
    double m = s->mibps.median;
    return s->mibps.n > 1 && m > 0 && fabs(r->mibps - m) > CIO_REP_FLAG_FRACTION * m;
}

void cio_rep_summarise(const cio_rep *reps, int n, cio_rep_summary *out)
{
    double *t = cio_malloc((size_t)(n > 0 ? n : 1) * sizeof *t), *b = cio_malloc((size_t)(n > 0 ? n : 1) * sizeof *b);
    for (int i = 0; i < n; i++) {
        t[i] = reps[i].seconds;
        b[i] = reps[i].mibps;
    }
    cio_rep_stats_of(t, n, &out->seconds);
    cio_rep_stats_of(b, n, &out->mibps);
    out->flagged = 0;
    for (int i = 0; i < n; i++) out->flagged += cio_rep_is_flagged(&reps[i], out);
    cio_free(t);
    cio_free(b);
}

void cio_rep_print(FILE *out, const cio_rep *reps, int n, const cio_rep_summary *s)
{
    fprintf(out, "Summary of all tests: %d repetitions, end to end (first create/open to last close)\n", n);
    fprintf(out, "%-10s %12s %12s %16s %12s\n", "repetition", "seconds", "MiB/s", "bytes", "sync s");
    for (int i = 0; i < n; i++)
        fprintf(out, "%-10d %12.4f %12.2f %16lld %12.4f%s\n", i + 1, reps[i].seconds, reps[i].mibps,
                (long long)reps[i].bytes, reps[i].sync_seconds, cio_rep_is_flagged(&reps[i], s) ? " !" : "");
    fprintf(out, "%-10s %12s %12s %12s %12s %12s\n", "", "min", "median", "mean", "max", "stddev");
    const struct { const char *name; const cio_rep_stats *st; const char *fmt; } rows[] = {
        {"seconds", &s->seconds, "%12.4f"},
        {"MiB/s", &s->mibps, "%12.2f"},
    };
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        const cio_rep_stats *st = rows[r].st;
        double v[5] = {st->min, st->median, st->mean, st->max, st->stddev};
        fprintf(out, "%-10s", rows[r].name);
        for (int k = 0; k < 5; k++) {
            fputc(' ', out);
            fprintf(out, rows[r].fmt, v[k]);
        }
        fputc('\n', out);
    }
    if (s->flagged)
        fprintf(out, "!: %d repetition%s more than %.0f%% away from the median bandwidth (the machine was not steady)\n",
                s->flagged, s->flagged == 1 ? "" : "s", 100 * CIO_REP_FLAG_FRACTION);
}

static void json_stats(cio_json *j, const char *key, const cio_rep_stats *st)
{
    cio_json_obj(j, key);
    cio_json_num(j, "min", st->min);
    cio_json_num(j, "median", st->median);
    cio_json_num(j, "mean", st->mean);
    cio_json_num(j, "max", st->max);
    cio_json_num(j, "stddev", st->stddev);
    cio_json_obj_end(j);
}

static void json_rep(cio_json *j, const cio_rep *r, int number, const cio_rep_summary *s)
{
    cio_json_obj(j, NULL);
    cio_json_int(j, "repetition", number);
    cio_json_num(j, "seconds", r->seconds);
    cio_json_int(j, "bytes", r->bytes);
    cio_json_num(j, "write_bandwidth_MiBps", r->mibps);
    cio_json_num(j, "sync_seconds", r->sync_seconds);
    cio_json_int(j, "files_removed_before", r->removed_before);
    cio_json_num(j, "pause_before_seconds", r->paused_before);
    if (s) cio_json_bool(j, "flagged", cio_rep_is_flagged(r, s));
    cio_json_obj(j, "timers");
    for (int k = 0; k < r->ntimers; k++) {
        cio_json_obj(j, r->timers[k].name);
        cio_json_num(j, "max", r->timers[k].max);
        cio_json_num(j, "mean", r->timers[k].mean);
        cio_json_int(j, "calls", r->timers[k].calls);
        cio_json_obj_end(j);
    }
    cio_json_obj_end(j);
    cio_json_obj_end(j);
}

void cio_rep_json(cio_json *j, const cio_rep *reps, int n, const cio_rep_summary *s, const cio_rep *warm,
                  int nwarm)
{
    cio_json_arr(j, "repetitions");
    for (int i = 0; i < n; i++) json_rep(j, &reps[i], i + 1, s);
    cio_json_arr_end(j);
    cio_json_arr(j, "warmup");
    for (int i = 0; i < nwarm; i++) json_rep(j, &warm[i], i + 1, NULL);
    cio_json_arr_end(j);
    cio_json_obj(j, "summary");
    cio_json_int(j, "repetitions", n);
    cio_json_int(j, "warmup_repetitions", nwarm);
    cio_json_int(j, "flagged", s->flagged);
    cio_json_num(j, "flag_fraction", CIO_REP_FLAG_FRACTION);
    json_stats(j, "seconds", &s->seconds);
    json_stats(j, "write_bandwidth_MiBps", &s->mibps);
    cio_json_obj_end(j);
}
