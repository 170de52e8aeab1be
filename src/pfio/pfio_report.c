/* pfio_io's reports: PFIO's profiler blocks, and the figures users want from
 * an output server: how long the model was blocked in output, against what the
 * same output takes synchronously, the writers' bandwidth and the backlog. */
#include "config.h"
#include "pfio.h"
#include "base/util.h"

#include <string.h>

void pf_backlog_add(pf_ctx *c, int64_t bytes)
{
    c->backlog_now += bytes;
    if (c->backlog_now > c->backlog_peak) c->backlog_peak = c->backlog_now;
}

/* Every profiled group reduces its timers to its rank 0; world rank 0 gathers
 * the rows, prints the blocks in group order (the model's first, then each
 * server's) and keeps them for the JSON. */
static void gather_profiles(pf_ctx *c)
{
    MPI_Comm comm = MPI_COMM_NULL;
    int key = -1;
    if (c->o.with_profiler) {
        if (c->role == PF_ROLE_MODEL || c->role == PF_ROLE_SERVER || c->role == PF_ROLE_ML_FRONT)
            comm = c->group_comm, key = c->server + 1;
        else if (c->role == PF_ROLE_FRONT) comm = c->front_comm, key = c->server + 1;
        /* multilayer writers: a block of their own after the servers' */
        else if (c->role == PF_ROLE_ML_CAPTAIN || c->role == PF_ROLE_ML_WRITER)
            comm = c->back_comm, key = 1 + c->L.nserver + c->server;
    }
    pf_prow *rows = NULL;
    int nrows = 0;
    if (comm != MPI_COMM_NULL) {
        int r;
        rows = pf_prof_reduce(&c->prof, comm, &nrows);
        MPI_Comm_rank(comm, &r);
        if (r != 0) key = -1;
    }
    int bytes = key >= 0 ? nrows * (int)sizeof(pf_prow) : 0, size = c->L.nprocs;
    int *keys = NULL, *lens = NULL, *displs = NULL, total = 0;
    char *all = NULL;
    if (c->wrank == 0) {
        keys = cio_calloc((size_t)size, sizeof *keys);
        lens = cio_calloc((size_t)size, sizeof *lens);
        displs = cio_calloc((size_t)size, sizeof *displs);
    }
    MPI_Gather(&key, 1, MPI_INT, keys, 1, MPI_INT, 0, c->app->comm);
    MPI_Gather(&bytes, 1, MPI_INT, lens, 1, MPI_INT, 0, c->app->comm);
    if (c->wrank == 0) {
        for (int i = 0; i < size; i++) {
            displs[i] = total;
            total += lens[i];
        }
        all = cio_malloc((size_t)total + 1);
    }
    MPI_Gatherv(rows, bytes, MPI_BYTE, all, lens, displs, MPI_BYTE, 0, c->app->comm);
    cio_free(rows);
    if (c->wrank != 0) return;
    pf_results *R = &c->res;
    R->nprof = 1 + (c->o.multilayer ? 2 : 1) * c->L.nserver;
    R->prof = cio_calloc((size_t)R->nprof, sizeof *R->prof);
    R->nprof_rows = cio_calloc((size_t)R->nprof, sizeof *R->nprof_rows);
    for (int i = 0; i < size; i++)
        if (keys[i] >= 0 && keys[i] < R->nprof && lens[i] > 0) {
            R->nprof_rows[keys[i]] = lens[i] / (int)sizeof(pf_prow);
            R->prof[keys[i]] = cio_malloc((size_t)lens[i]);
            memcpy(R->prof[keys[i]], all + displs[i], (size_t)lens[i]);
        }
    for (int g = 0; g < R->nprof; g++) {
        if (!R->nprof_rows[g]) continue;
        /* MAPL prints the title and its rule above every table, the client's
         * (i_server_client) too; the wiki's 2021 report only above the server's.
         * With several servers the server is named after the title. */
        pf_prof_style st = c->o.prof_style;
        if (g > 0 || st == PF_PROF_MAPL) {
            printf("%s", pf_prof_title(st));
            /* MAPL's pfio_writer.x has no profiler: the writers' block is ours */
            if (g > c->L.nserver) printf(" (o_server%d writers: pfio_writer)", g - c->L.nserver);
            else if (g > 0 && c->L.nserver > 1) printf(" (o_server%d)", g);
            printf("\n%s", st == PF_PROF_MAPL ? "=============\n" : "");
        }
        char *text = pf_prof_format(R->prof[g], R->nprof_rows[g], st);
        printf("%s\n", text);
        cio_free(text);
    }
    fflush(stdout);
    cio_free(keys);
    cio_free(lens);
    cio_free(displs);
    cio_free(all);
}

static void reduce(pf_ctx *c)
{
    pf_results *R = &c->res;
    MPI_Comm w = c->app->comm;
    int np = c->o.nphases, is_model = c->role == PF_ROLE_MODEL;
    R->nmodel = c->L.nmodel;
    for (int i = 0; i < c->L.nserver; i++) R->nserver_ranks += c->L.server[i].nranks;
    enum { NS = 10 };
    double s[NS] = {c->compute_s, c->blocked_s, is_model ? c->client_wall_s : 0, (double)c->written_bytes,
                    c->files_written, c->write_s, (double)c->staged_bytes, (double)c->received_bytes,
                    (double)c->backlog_peak, c->writer_wait_s};
    double S[NS];
    MPI_Allreduce(s, S, NS, MPI_DOUBLE, MPI_SUM, w);
    enum { NM = 4 };
    double m[NM] = {c->write_last, c->drain_s, c->max_busy_writers, c->write_first >= 0 ? -c->write_first : -1e300};
    double M[NM];
    MPI_Allreduce(m, M, NM, MPI_DOUBLE, MPI_MAX, w);
    cio_red blocked = cio_reduce(is_model ? c->blocked_s : -1, w);
    cio_red backlog = cio_reduce((double)c->backlog_peak, w);
    R->compute_mean = S[0] / R->nmodel;
    R->blocked_mean = S[1] / R->nmodel;
    R->client_wall_mean = S[2] / R->nmodel;
    R->written_bytes = S[3];
    R->files = S[4];
    R->write_s = S[5];
    R->staged_bytes = S[6];
    R->received_bytes = S[7];
    R->backlog_peak_sum = S[8];
    R->writer_wait = S[9];
    R->write_last = M[0];
    R->drain = M[1];
    R->max_busy = M[2];
    R->write_first = M[3] > -1e299 ? -M[3] : 0;
    R->blocked_max = blocked.max;
    R->blocked_max_rank = blocked.max_rank;
    R->backlog_peak_max = backlog.max;
    R->backlog_peak_rank = backlog.max_rank;
    R->bw_writer = R->write_s > 0 ? R->written_bytes / R->write_s : 0;
    R->bw_aggregate = R->write_last > R->write_first ? R->written_bytes / (R->write_last - R->write_first) : 0;

    R->ph_blocked_mean = cio_calloc((size_t)np, sizeof(double));
    R->ph_blocked_max = cio_calloc((size_t)np, sizeof(double));
    R->ph_aggregate = cio_calloc((size_t)np, sizeof(double));
    R->ph_write = cio_calloc((size_t)np, sizeof(double));
    R->ph_writer_wait = cio_calloc((size_t)np, sizeof(double));
    MPI_Allreduce(c->ph.blocked, R->ph_blocked_mean, np, MPI_DOUBLE, MPI_SUM, w);
    MPI_Allreduce(c->ph.blocked, R->ph_blocked_max, np, MPI_DOUBLE, MPI_MAX, w);
    MPI_Allreduce(c->ph.aggregate, R->ph_aggregate, np, MPI_DOUBLE, MPI_MAX, w);
    MPI_Allreduce(c->ph.write, R->ph_write, np, MPI_DOUBLE, MPI_MAX, w);
    MPI_Allreduce(c->ph.writer_wait, R->ph_writer_wait, np, MPI_DOUBLE, MPI_SUM, w);
    /* the synchronous reference: each phase's staging by the clients, then its
     * aggregation and writing on the server, one after the other; with the
     * simple server the clients are blocked for exactly that */
    R->sync_s = 0;
    for (int p = 0; p < np; p++) {
        R->ph_blocked_mean[p] /= R->nmodel;
        R->sync_s += R->ph_blocked_mean[p];
        if (c->L.nserver > 0) R->sync_s += R->ph_aggregate[p] + R->ph_write[p];
    }
    if (c->L.nserver == 0) R->sync_s = R->blocked_mean;     /* the same sum, whatever the rounding */
    R->overlap = R->sync_s > 0 ? 1.0 - R->blocked_mean / R->sync_s : 0;
}

static const char *server_type(const pf_ctx *c)
{
    if (c->L.nserver == 0) return "simple (MpiServer on the model ranks)";
    if (c->o.multilayer) return c->o.ml_spawn ? "multilayer (MpiServer forwarding to spawned writer processes)"
                                              : "multilayer (MpiServer forwarding to writer processes, the job's last ranks)";
    return c->o.multigroup ? "multigroup" : c->o.multicomm ? "multicomm" : "single (MpiServer on its own ranks)";
}

static void print_summary(const pf_ctx *c)
{
    const pf_results *R = &c->res;
    const pf_opts *o = &c->o;
    const double MiB = 1048576.0;
    printf("==== pfio_io: output of the model through PFIO =================\n");
    printf("server type         %s, %d server%s, %d server ranks", server_type(c), c->L.nserver,
           c->L.nserver == 1 ? "" : "s", R->nserver_ranks);
    if (o->multilayer && c->L.nserver) printf(" + %d writer processes", c->L.nprocs - c->L.nbase);
    printf("%s\n", o->fast_oclient ? ", fast clients" : "");
    printf("model               %d ranks, %d steps, %d write phase%s, compute %.4f s per step (%s)\n", R->nmodel,
           o->num_steps, o->nphases, o->nphases == 1 ? "" : "s", o->compute_time,
           o->compute_kind == PF_COMPUTE_SLEEP ? "sleep" : o->compute_kind == PF_COMPUTE_BOTH ? "busy + sleep" : "busy");
    printf("blocked in output   mean %.4f s, max %.4f s (rank %d); computing %.4f s\n", R->blocked_mean, R->blocked_max,
           R->blocked_max_rank, R->compute_mean);
    printf("synchronous output  %.4f s (staging by the model, then aggregation and writing on the server)\n", R->sync_s);
    if (c->L.nserver == 0) printf("overlap efficiency  0.0 %% (the simple server is synchronous by design)\n");
    else printf("overlap efficiency  %.1f %% (1 - blocked / synchronous)\n", 100.0 * R->overlap);
    printf("server writes       %.0f files, %.2f MiB in %.4f s of writer time: %.2f MiB/s per writer, %.2f MiB/s over "
           "the writing window\n", R->files, R->written_bytes / MiB, R->write_s, R->bw_writer / MiB, R->bw_aggregate / MiB);
    printf("backlog             peak %.2f MiB held by one server rank (rank %d), %.2f MiB summed over ranks", 
           R->backlog_peak_max / MiB, R->backlog_peak_rank, R->backlog_peak_sum / MiB);
    if ((o->multigroup || o->multilayer) && c->L.nserver) printf("; %.4f s waiting for an idle writer; drained %.4f s after the model ended",
                                             R->writer_wait, R->drain);
    printf("\n================================================================\n");
    fflush(stdout);
}

void pf_report(pf_ctx *c)
{
    memset(&c->res, 0, sizeof c->res);
    gather_profiles(c);
    reduce(c);
    if (c->wrank == 0) print_summary(c);
}

static void arr(cio_json *j, const char *key, const double *v, int n)
{
    cio_json_arr(j, key);
    for (int i = 0; i < n; i++) cio_json_num(j, NULL, v[i]);
    cio_json_arr_end(j);
}

/* "layout": the server type, nodes, ranks and each server's parts. */
static void json_layout(cio_json *j, const pf_ctx *c)
{
    const pf_opts *o = &c->o;
    cio_json_obj(j, "layout");
    cio_json_str(j, "oserver_type",
                 c->L.nserver == 0 ? "simple" : o->multigroup ? "multigroup" : o->multicomm ? "multicomm"
                                             : o->multilayer ? "multilayer" : "single");
    cio_json_str(j, "multilayer_backend", o->multilayer && c->L.nserver ? (o->ml_spawn ? "spawn" : "world") : NULL);
    cio_json_int(j, "nodes", c->nodes.nnodes);
    cio_json_int(j, "model_ranks", c->L.nmodel);
    cio_json_int(j, "idle_ranks", c->L.nidle);
    cio_json_num(j, "server_poll_us", o->poll_us);
    cio_json_str(j, "mpiserver_transfer", c->L.nserver && !o->split ? (c->messages ? "messages" : "rma") : NULL);
    cio_json_arr(j, "servers");
    for (int i = 0; i < c->L.nserver; i++) {
        const pf_server_layout *S = &c->L.server[i];
        cio_json_obj(j, NULL);
        cio_json_int(j, "ranks", S->nranks);
        cio_json_int(j, "nodes", S->nnodes);
        cio_json_int(j, "frontend", o->split || S->layered ? S->nfront : 0);
        cio_json_int(j, "backend", S->nback);
        if (S->nback) cio_json_int(j, "writers", S->captain ? S->nback - 1 : S->nback);
        else cio_json_null(j, "writers");      /* single: collection c goes to a rank by PFIO's rule */
        cio_json_obj_end(j);
    }
    cio_json_arr_end(j);
    cio_json_obj_end(j);
}

/* "profile": each group's timers (pfio's profiler). */
static void json_profile(cio_json *j, const pf_ctx *c)
{
    const pf_results *R = &c->res;
    cio_json_obj(j, "profile");
    for (int g = 0; g < R->nprof; g++) {
        if (!R->nprof_rows[g]) continue;
        char key[32];
        if (g > c->L.nserver) snprintf(key, sizeof key, "o_server%d_writers", g - c->L.nserver);
        else snprintf(key, sizeof key, g == 0 ? "model" : "o_server%d", g);
        cio_json_arr(j, key);
        for (int i = 0; i < R->nprof_rows[g]; i++) {
            const pf_prow *r = &R->prof[g][i];
            cio_json_obj(j, NULL);
            cio_json_str(j, "name", r->name);
            cio_json_int(j, "depth", r->depth);
            cio_json_num(j, "inclusive", r->incl);
            cio_json_num(j, "exclusive", r->excl);
            cio_json_num(j, "max_exclusive", r->excl_max);
            cio_json_num(j, "min_exclusive", r->excl_min);
            cio_json_int(j, "max_pe", r->max_pe);
            cio_json_int(j, "min_pe", r->min_pe);
            cio_json_obj_end(j);
        }
        cio_json_arr_end(j);
    }
    cio_json_obj_end(j);
}

void pf_kernel_json(cio_json *j, void *ctx)
{
    pf_ctx *c = ctx;
    const pf_results *R = &c->res;
    const pf_opts *o = &c->o;
    json_layout(j, c);

    cio_json_obj(j, "model");
    cio_json_int(j, "steps", o->num_steps);
    cio_json_int(j, "phases", o->nphases);
    cio_json_num(j, "compute_s_mean", R->compute_mean);
    cio_json_num(j, "blocked_s_mean", R->blocked_mean);
    cio_json_num(j, "blocked_s_max", R->blocked_max);
    cio_json_int(j, "blocked_s_max_rank", R->blocked_max_rank);
    cio_json_num(j, "client_wall_s_mean", R->client_wall_mean);
    cio_json_num(j, "staged_bytes", R->staged_bytes);
    cio_json_obj_end(j);

    cio_json_obj(j, "overlap");
    cio_json_num(j, "blocked_s", R->blocked_mean);
    cio_json_num(j, "synchronous_s", R->sync_s);
    cio_json_num(j, "efficiency", R->overlap);
    cio_json_str(j, "definition", "efficiency = 1 - blocked_s / synchronous_s; synchronous_s sums per write phase the "
                                  "model's staging time, the server's aggregation time (slowest rank, waits for other "
                                  "ranks left out) and its writing time (slowest writer)");
    cio_json_obj_end(j);

    cio_json_obj(j, "server");
    cio_json_num(j, "received_bytes", R->received_bytes);
    cio_json_num(j, "written_bytes", R->written_bytes);
    cio_json_num(j, "files_written", R->files);
    cio_json_num(j, "writer_seconds", R->write_s);
    cio_json_num(j, "write_bandwidth_per_writer_MiBps", R->bw_writer / 1048576.0);
    cio_json_num(j, "write_bandwidth_window_MiBps", R->bw_aggregate / 1048576.0);
    cio_json_num(j, "backlog_peak_bytes_max", R->backlog_peak_max);
    cio_json_int(j, "backlog_peak_bytes_max_rank", R->backlog_peak_rank);
    cio_json_num(j, "backlog_peak_bytes_sum", R->backlog_peak_sum);
    cio_json_num(j, "writer_wait_s", R->writer_wait);
    cio_json_num(j, "drain_s", R->drain);
    cio_json_num(j, "max_busy_writers", R->max_busy);
    cio_json_obj_end(j);

    json_profile(j, c);

    cio_json_obj(j, "phases");
    arr(j, "blocked_s_mean", R->ph_blocked_mean, o->nphases);
    arr(j, "blocked_s_max", R->ph_blocked_max, o->nphases);
    arr(j, "aggregate_s_max", R->ph_aggregate, o->nphases);
    arr(j, "write_s_max", R->ph_write, o->nphases);
    arr(j, "writer_wait_s", R->ph_writer_wait, o->nphases);
    cio_json_obj_end(j);
}
