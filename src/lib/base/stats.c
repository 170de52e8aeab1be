#include "config.h"
#include "base/stats.h"
#include "base/util.h"
#include "base/mpicount.h"

#include <stdio.h>
#include <string.h>

static const char *std_names[CIO_T_NSTD] = {
#define TIMER_NAME_(id, name) [CIO_T_##id] = name,
    CIO_TIMER_LIST(TIMER_NAME_)
};

#define STAT2_(name, red, field, sumfield, obj, key, unit, text) \
    {name, CIO_RED_##red, offsetof(cio_stats, field), offsetof(cio_summary, sumfield), obj, key, unit, text}
#define STAT_(name, red, field, obj, key, unit, text) STAT2_(name, red, field, field, obj, key, unit, text)
const cio_stat_desc cio_stat_table[] = {
    STAT_("bytes_written", SUM, bytes_written, "bytes", "written", "bytes", "bytes written (API)"),
    STAT_("bytes_read", SUM, bytes_read, "bytes", "read", "bytes", NULL),
    STAT_("library_written", SUM_KNOWN, lib_bytes_written, "bytes", "library_written", "bytes",
          "bytes written (library)"),
    STAT_("library_read", SUM_KNOWN, lib_bytes_read, "bytes", "library_read", "bytes", NULL),
    STAT_("header", SUM, header_bytes, "bytes", "header", "bytes", NULL),
    STAT_("files_created", SUM, files_created, "files", "created", "files", "create calls (all ranks)"),
    STAT_("files_opened", SUM, files_opened, "files", "opened", "files", "reopen calls (all ranks)"),
    STAT_("requests", SUM, requests, "requests", "count", "requests", "requests"),
    STAT_("request_sizes", HIST, req_hist, "requests", "size_histogram_log2", "requests", NULL),
    STAT2_("tracked_peak", RANKS, mem_tracked_peak, mem_tracked, "memory", "tracked_peak_bytes", "bytes",
           "memory tracked peak"),
    STAT2_("rss_peak", RANKS, mem_rss_peak, mem_rss, "memory", "rss_peak_bytes", "bytes", "memory RSS peak"),
    STAT_("buffer_peak", RANKS, buffer_peak, "memory", "buffer_peak_bytes", "bytes", "write buffer peak"),
    STAT_("collective_calls", RANKS, collective_calls, "mpi", "collective_calls", "calls", NULL),
    STAT_("generation_inside_io", SUM, generation_inside_io, "timing", "generation_inside_io_calls", "calls",
          "data made inside I/O calls"),
    STAT_("generation_in_windows", SUM, generation_in_windows, "timing", "generation_inside_timed_windows", "calls",
          "data made inside timed windows"),
};
const int cio_nstats = (int)(sizeof cio_stat_table / sizeof *cio_stat_table);

void cio_stats_init(cio_stats *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < CIO_T_NSTD; i++) snprintf(s->t[i].name, sizeof s->t[i].name, "%s", std_names[i]);
    s->ntimers = CIO_T_NSTD;
    s->t[CIO_T_PACK].makes_data = 1;
    s->first_open = -1;
    s->last_close = -1;
    s->lib_bytes_written = -1;
    s->lib_bytes_read = -1;
    s->t0 = MPI_Wtime();
}

/* Zero every figure, keeping the timers registered (their ids stay valid) and
 * the ones running (a kernel's total clock spans the repetitions). */
void cio_stats_reset(cio_stats *s)
{
    cio_stats fresh;
    cio_stats_init(&fresh);
    for (int i = 0; i < s->ntimers; i++) {
        memset(&fresh.t[i], 0, sizeof fresh.t[i]);
        memcpy(fresh.t[i].name, s->t[i].name, sizeof fresh.t[i].name);
        fresh.t[i].depth = s->t[i].depth;
        fresh.t[i].started = s->t[i].started;
        fresh.t[i].makes_data = s->t[i].makes_data;
        fresh.t[i].wall_clock = s->t[i].wall_clock;
    }
    fresh.ntimers = s->ntimers;
    fresh.clock_stops_for_data = s->clock_stops_for_data;
    fresh.data_depth = s->data_depth;
    fresh.data_started = s->data_started;
    fresh.paused_all = s->paused_all;
    *s = fresh;
}

int cio_stats_find(const cio_stats *s, const char *name)
{
    for (int i = 0; i < s->ntimers; i++)
        if (strcmp(s->t[i].name, name) == 0) return i;
    return -1;
}

int cio_stats_timer(cio_stats *s, const char *name)
{
    int id = cio_stats_find(s, name);
    if (id >= 0) return id;
    if (s->ntimers == CIO_MAX_TIMERS) cio_die("internal: more than %d timers", CIO_MAX_TIMERS);
    snprintf(s->t[s->ntimers].name, sizeof s->t[0].name, "%s", name);
    return s->ntimers++;
}

int cio_stats_data_timer(cio_stats *s, const char *name)
{
    int id = cio_stats_timer(s, name);
    s->t[id].makes_data = 1;
    return id;
}

int cio_stats_wall_timer(cio_stats *s, const char *name)
{
    int id = cio_stats_timer(s, name);
    s->t[id].wall_clock = 1;
    return id;
}

/* The driver calls a timed window may hold; data generation must not run inside one. */
static int in_io_call(const cio_stats *s)
{
    static const int io[] = {CIO_T_CREATE, CIO_T_OPEN, CIO_T_DEF_DIM, CIO_T_DEF_VAR, CIO_T_PUT_ATT, CIO_T_ENDDEF,
                             CIO_T_PUT, CIO_T_IPUT, CIO_T_WAIT, CIO_T_SYNC, CIO_T_CLOSE};
    for (size_t i = 0; i < sizeof io / sizeof *io; i++)
        if (s->t[io[i]].depth > 0) return 1;
    return 0;
}

/* Any timer on the I/O clock running (a kernel's phase, a driver call). */
static int in_other_timer(const cio_stats *s)
{
    for (int i = 0; i < s->ntimers; i++)
        if (!s->t[i].makes_data && !s->t[i].wall_clock && s->t[i].depth > 0) return 1;
    return 0;
}

double cio_stats_io_clock(const cio_stats *s)
{
    double now = MPI_Wtime(), paused = s->paused_all;
    if (s->clock_stops_for_data && s->data_depth > 0) paused += now - s->data_started;
    return now - paused;
}

/* Making data begins: counted when a driver call holds it, and when the
 * end-to-end window (open from this rank's first create) or a running timer
 * holds its time; the I/O clock stops (clock_stops_for_data). */
static void data_begin(cio_stats *s)
{
    if (in_io_call(s)) s->generation_inside_io++;
    if (!s->clock_stops_for_data && (s->first_open >= 0 || in_other_timer(s))) s->generation_in_windows++;
    if (s->data_depth++ == 0) s->data_started = MPI_Wtime();
}

static void data_end(cio_stats *s)
{
    if (--s->data_depth > 0 || !s->clock_stops_for_data) return;
    double stood = MPI_Wtime() - s->data_started;
    s->data_paused += stood;
    s->paused_all += stood;
}

static double clock_of(const cio_stats *s, const cio_timer *t)
{
    return t->makes_data || t->wall_clock ? MPI_Wtime() : cio_stats_io_clock(s);
}

/* Nested begin/end of the same timer count once, from the outermost begin.  Data
 * and wall-clock timers run on the wall clock, every other timer on the I/O clock. */
void cio_timer_begin(cio_stats *s, int id)
{
    cio_timer *t = &s->t[id];
    if (t->depth == 0 && t->makes_data) data_begin(s);
    if (t->depth++ == 0) t->started = clock_of(s, t);
}

void cio_timer_end(cio_stats *s, int id)
{
    cio_timer *t = &s->t[id];
    if (t->depth <= 0) cio_die("internal: timer %s ended without a begin", t->name);
    if (--t->depth == 0) {
        t->seconds += clock_of(s, t) - t->started;
        t->calls++;
        t->started = 0;
        if (t->makes_data) data_end(s);
    }
}

void cio_timer_add(cio_stats *s, int id, double seconds, int64_t bytes)
{
    s->t[id].seconds += seconds;
    s->t[id].calls++;
    s->t[id].bytes += bytes;
}

void cio_stats_count_requests(cio_stats *s, int64_t bytes, int64_t n)
{
    int bucket = 0;
    while (bucket < CIO_HIST_BINS - 1 && (bytes >> (bucket + 1)) > 0) bucket++;
    s->req_hist[bucket] += n;
    s->requests += n;
}

double cio_stats_now(const cio_stats *s)
{
    double now = MPI_Wtime(), paused = s->data_paused;
    if (s->clock_stops_for_data && s->data_depth > 0) paused += now - s->data_started;
    return now - s->t0 - paused;
}

void cio_stats_mark_start(cio_stats *s, MPI_Comm comm)
{
    MPI_Barrier(comm);
    s->t0 = MPI_Wtime();
    s->data_paused = 0;
    s->collectives_at_start = cio_mpi_collective_calls();
    cio_mpi_collective_by_call(s->collectives_by_call_at_start);
}

cio_red cio_reduce(double v, MPI_Comm comm)
{
    cio_red r;
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    struct { double v; int r; } in = {v, rank}, lo, hi;
    MPI_Allreduce(&v, &r.sum, 1, MPI_DOUBLE, MPI_SUM, comm);
    MPI_Allreduce(&in, &lo, 1, MPI_DOUBLE_INT, MPI_MINLOC, comm);
    MPI_Allreduce(&in, &hi, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
    r.min = lo.v;
    r.min_rank = lo.r;
    r.max = hi.v;
    r.max_rank = hi.r;
    r.mean = r.sum / n;
    return r;
}

static int stat_width(const cio_stat_desc *d) { return d->red == CIO_RED_HIST ? CIO_HIST_BINS : 1; }

/* The reduction buffers: doubles (timer seconds, then the CIO_RED_RANKS
 * statistics) and int64 (timer calls and bytes, then the summed statistics). */
enum { MAXD = CIO_MAX_TIMERS + 16, MAXC = 2 * CIO_MAX_TIMERS + 64 + CIO_HIST_BINS };

/* This rank's figures into the buffers: *nd doubles, *nc counters. */
static void pack(const cio_stats *s, double *sec, int64_t *c, int *nd, int *nc)
{
    int nt = s->ntimers;
    *nd = nt;
    *nc = 2 * nt;
    for (int i = 0; i < nt; i++) {
        sec[i] = s->t[i].seconds;
        c[2 * i] = s->t[i].calls;
        c[2 * i + 1] = s->t[i].bytes;
    }
    for (int k = 0; k < cio_nstats; k++) {
        const cio_stat_desc *d = &cio_stat_table[k];
        const int64_t *v = (const int64_t *)((const char *)s + d->in_stats);
        if (d->red == CIO_RED_RANKS) {
            sec[(*nd)++] = (double)*v;
            continue;
        }
        for (int i = 0; i < stat_width(d); i++) c[(*nc)++] = d->red == CIO_RED_SUM_KNOWN && v[i] < 0 ? 0 : v[i];
        if (d->red == CIO_RED_SUM_KNOWN) c[(*nc)++] = v[0] >= 0;   /* how many ranks know it */
    }
    if (*nd > MAXD || *nc > MAXC) cio_die("internal: cio_stat_table outgrew the reduction buffers");
}

/* Sum, min and max with their ranks of nd doubles over comm (n ranks). */
static void reduce_doubles(const double *sec, int nd, int rank, int n, MPI_Comm comm, cio_red *red)
{
    double sum[MAXD];
    struct { double v; int r; } in[MAXD], lo[MAXD], hi[MAXD];
    for (int i = 0; i < nd; i++) {
        in[i].v = sec[i];
        in[i].r = rank;
    }
    MPI_Allreduce(sec, sum, nd, MPI_DOUBLE, MPI_SUM, comm);
    MPI_Allreduce(in, lo, nd, MPI_DOUBLE_INT, MPI_MINLOC, comm);
    MPI_Allreduce(in, hi, nd, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
    for (int i = 0; i < nd; i++) {
        red[i].sum = sum[i];
        red[i].mean = sum[i] / n;
        red[i].min = lo[i].v;
        red[i].min_rank = lo[i].r;
        red[i].max = hi[i].v;
        red[i].max_rank = hi[i].r;
    }
}

/* The reduced buffers into the summary, in pack's order. */
static void unpack(const cio_stats *s, const cio_red *red, const int64_t *csum, cio_summary *out)
{
    int nt = s->ntimers, nd = nt, nc = 2 * nt;
    for (int i = 0; i < nt; i++) {
        snprintf(out->t[i].name, sizeof out->t[i].name, "%s", s->t[i].name);
        out->t[i].sec = red[i];
        out->t[i].calls = csum[2 * i];
        out->t[i].bytes = csum[2 * i + 1];
    }
    for (int k = 0; k < cio_nstats; k++) {
        const cio_stat_desc *d = &cio_stat_table[k];
        char *to = (char *)out + d->in_summary;
        if (d->red == CIO_RED_RANKS) {
            *(cio_red *)to = red[nd++];
            continue;
        }
        int64_t *v = (int64_t *)to;
        for (int i = 0; i < stat_width(d); i++) v[i] = csum[nc++];
        if (d->red == CIO_RED_SUM_KNOWN && csum[nc++] == 0) v[0] = -1;
    }
}

/* The window from the earliest create or open to the latest close, and the
 * bandwidths over it. */
static void reduce_window(const cio_stats *s, MPI_Comm comm, cio_summary *out)
{
    double fc = s->first_open < 0 ? 1e300 : s->first_open, lc = s->last_close;
    MPI_Allreduce(&fc, &out->first_open, 1, MPI_DOUBLE, MPI_MIN, comm);
    MPI_Allreduce(&lc, &out->last_close, 1, MPI_DOUBLE, MPI_MAX, comm);
    if (out->first_open > 1e299 || out->last_close < 0) {
        out->first_open = out->last_close = out->window = 0;
    } else {
        out->window = out->last_close - out->first_open;
        if (out->window > 0) {
            out->bw_write = (double)out->bytes_written / out->window;
            out->bw_read = (double)out->bytes_read / out->window;
        }
    }
}

/* All timers and every statistic are reduced in a few calls (sum, minloc,
 * maxloc of the doubles; sum of the counters) rather than one per figure, so the
 * reduction cost does not grow with the number of timers. */
void cio_stats_reduce(const cio_stats *st, MPI_Comm comm, cio_summary *out)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    memset(out, 0, sizeof *out);
    out->nprocs = n;
    cio_stats local = *st;
    local.mem_tracked_peak = cio_mem_peak();
    local.mem_rss_peak = cio_rss_peak();
    local.collective_calls = cio_mpi_collective_calls() - st->collectives_at_start;
    int64_t by_call[CIO_MPICOUNT_NCALLS];
    cio_mpi_collective_by_call(by_call);
    const cio_stats *s = &local;
    int nt = s->ntimers;
    int nmax;
    MPI_Allreduce(&nt, &nmax, 1, MPI_INT, MPI_MAX, comm);
    if (nmax != nt) cio_die("internal: ranks registered different numbers of timers (%d here, %d max)", nt, nmax);
    out->ntimers = nt;

    double sec[MAXD];
    int64_t c[MAXC], csum[MAXC];
    int nd, nc;
    pack(s, sec, c, &nd, &nc);
    cio_red red[MAXD];
    reduce_doubles(sec, nd, rank, n, comm, red);
    MPI_Allreduce(c, csum, nc, MPI_INT64_T, MPI_SUM, comm);
    unpack(s, red, csum, out);

    /* which calls the busiest rank made: its counts, zeros from the others */
    for (int i = 0; i < CIO_MPICOUNT_NCALLS; i++)
        by_call[i] = rank == out->collective_calls.max_rank ? by_call[i] - st->collectives_by_call_at_start[i] : 0;
    MPI_Allreduce(by_call, out->collectives_busiest, CIO_MPICOUNT_NCALLS, MPI_INT64_T, MPI_SUM, comm);
    reduce_window(s, comm, out);
}
