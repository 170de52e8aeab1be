#include "config.h"
#include "stats.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

static const char *std_names[CIO_T_NSTD] = {
    "create", "open", "def_dim", "def_var", "put_att", "enddef", "inq",
    "put", "iput", "wait", "get", "iget", "get_wait", "close",
    "pack", "rearrange", "check",
};

void cio_stats_init(cio_stats *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < CIO_T_NSTD; i++) snprintf(s->t[i].name, sizeof s->t[i].name, "%s", std_names[i]);
    s->ntimers = CIO_T_NSTD;
    s->first_open = -1;
    s->last_close = -1;
    s->lib_bytes_written = -1;
    s->lib_bytes_read = -1;
    s->t0 = MPI_Wtime();
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

/* Nested begin/end of the same timer count once, from the outermost begin. */
void cio_timer_begin(cio_stats *s, int id)
{
    cio_timer *t = &s->t[id];
    if (t->depth++ == 0) t->started = MPI_Wtime();
}

void cio_timer_end(cio_stats *s, int id)
{
    cio_timer *t = &s->t[id];
    if (t->depth <= 0) cio_die("internal: timer %s ended without a begin", t->name);
    if (--t->depth == 0) {
        t->seconds += MPI_Wtime() - t->started;
        t->calls++;
        t->started = 0;
    }
}

void cio_timer_add(cio_stats *s, int id, double seconds, int64_t bytes)
{
    s->t[id].seconds += seconds;
    s->t[id].calls++;
    s->t[id].bytes += bytes;
}

double cio_stats_now(const cio_stats *s) { return MPI_Wtime() - s->t0; }

void cio_stats_mark_start(cio_stats *s, MPI_Comm comm)
{
    MPI_Barrier(comm);
    s->t0 = MPI_Wtime();
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

/* All timers are reduced in three calls (sum, minloc, maxloc) rather than one per
 * timer, so the reduction cost does not grow with the number of timers. */
void cio_stats_reduce(const cio_stats *s, MPI_Comm comm, cio_summary *out)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    memset(out, 0, sizeof *out);
    out->nprocs = n;
    int nt = s->ntimers;
    int nmax;
    MPI_Allreduce(&nt, &nmax, 1, MPI_INT, MPI_MAX, comm);
    if (nmax != nt) cio_die("internal: ranks registered different numbers of timers (%d here, %d max)", nt, nmax);
    out->ntimers = nt;

    /* doubles: timer seconds..., memory tracked, memory rss */
    int nd = nt + 3;
    double sec[CIO_MAX_TIMERS + 3], sum[CIO_MAX_TIMERS + 3];
    struct { double v; int r; } in[CIO_MAX_TIMERS + 3], lo[CIO_MAX_TIMERS + 3], hi[CIO_MAX_TIMERS + 3];
    for (int i = 0; i < nt; i++) sec[i] = s->t[i].seconds;
    sec[nt] = (double)cio_mem_peak();
    sec[nt + 1] = (double)cio_rss_peak();
    sec[nt + 2] = (double)s->pending_peak;
    for (int i = 0; i < nd; i++) {
        in[i].v = sec[i];
        in[i].r = rank;
    }
    MPI_Allreduce(sec, sum, nd, MPI_DOUBLE, MPI_SUM, comm);
    MPI_Allreduce(in, lo, nd, MPI_DOUBLE_INT, MPI_MINLOC, comm);
    MPI_Allreduce(in, hi, nd, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
    cio_red red[CIO_MAX_TIMERS + 3];
    for (int i = 0; i < nd; i++) {
        red[i].sum = sum[i];
        red[i].mean = sum[i] / n;
        red[i].min = lo[i].v;
        red[i].min_rank = lo[i].r;
        red[i].max = hi[i].v;
        red[i].max_rank = hi[i].r;
    }
    for (int i = 0; i < nt; i++) {
        snprintf(out->t[i].name, sizeof out->t[i].name, "%s", s->t[i].name);
        out->t[i].sec = red[i];
    }
    out->mem_tracked = red[nt];
    out->mem_rss = red[nt + 1];
    out->pending_peak = red[nt + 2];

    /* 64-bit counters */
    int nc = 2 * nt + 8 + 48;
    int64_t c[2 * CIO_MAX_TIMERS + 8 + 48], csum[2 * CIO_MAX_TIMERS + 8 + 48];
    for (int i = 0; i < nt; i++) {
        c[2 * i] = s->t[i].calls;
        c[2 * i + 1] = s->t[i].bytes;
    }
    int k = 2 * nt;
    c[k++] = s->bytes_written;
    c[k++] = s->bytes_read;
    c[k++] = s->lib_bytes_written < 0 ? 0 : s->lib_bytes_written;
    c[k++] = s->lib_bytes_read < 0 ? 0 : s->lib_bytes_read;
    c[k++] = s->files_created;
    c[k++] = s->files_opened;
    c[k++] = s->requests;
    c[k++] = s->header_bytes;
    for (int i = 0; i < 48; i++) c[k++] = s->req_hist[i];
    MPI_Allreduce(c, csum, nc, MPI_INT64_T, MPI_SUM, comm);
    for (int i = 0; i < nt; i++) {
        out->t[i].calls = csum[2 * i];
        out->t[i].bytes = csum[2 * i + 1];
    }
    k = 2 * nt;
    out->bytes_written = csum[k++];
    out->bytes_read = csum[k++];
    out->lib_bytes_written = csum[k++];
    out->lib_bytes_read = csum[k++];
    out->files_created = csum[k++];
    out->files_opened = csum[k++];
    out->requests = csum[k++];
    out->header_bytes = csum[k++];
    for (int i = 0; i < 48; i++) out->req_hist[i] = csum[k++];
    int known[2] = {s->lib_bytes_written >= 0, s->lib_bytes_read >= 0}, anyknown[2];
    MPI_Allreduce(known, anyknown, 2, MPI_INT, MPI_MAX, comm);
    if (!anyknown[0]) out->lib_bytes_written = -1;
    if (!anyknown[1]) out->lib_bytes_read = -1;

    /* the window from the earliest create or open to the latest close */
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
