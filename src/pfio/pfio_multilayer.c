/* PFIO's MultiLayerServer (MAPL pfio/MultiLayerServer.F90) and its writer
 * processes (pfio/pfio_writer.F90).
 *
 * The server is an MpiServer: its ranks receive from their clients, and at a
 * Done the phase's blocks go by MPI_Put into one RMA window per collection on
 * the collection's writing PE.  Then, instead of writing (put_DataToFile), the
 * rank holding a window creates the collection's file with its metadata when
 * the phase starts it, and forwards every request (a ForwardDataMessage: the
 * global count and the offset in the data) with the window's data to a writer
 * process: it asks the writers' captain for one (command 1), sends the messages
 * and the data there, and all server ranks meet in a barrier before the windows
 * are freed.  So the server waits for the transfer, not for the disk.
 *
 * The writers are npes_backend_pernode processes per server, outside the
 * server's ranks, with their own communicator: rank 0 the captain, which hands
 * each request for a writer to an idle soldier; the soldiers receive, open the
 * files and write, and tell the captain they are idle.  When every client has
 * terminated, the server's rank 0 stops the captain, which stops the soldiers
 * once they are done and answers.
 *
 * Where the writers come from: MAPL's MultiLayerServer spawns
 * ./pfio_writer.x with MPI_Comm_spawn.  pfio_io spawns itself at start-up
 * (every server's writers at once, before the engine exists) and merges the
 * spawned processes into the run's communicator, so their files, statistics,
 * checksums and read-back are the run's; or, with --multilayer_backend world,
 * the job's last ranks are the writers.  Either way each server talks to its
 * writers through an intercommunicator, as MultiLayerServer's Inter_Comm. */
#include "config.h"
#include "base/env.h"
#include "pfio_pack.h"
#include "pfio_serve.h"
#include "base/util.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

/* ---------------------------------------------------------------- start-up */
static MPI_Comm spawn_inter = MPI_COMM_NULL;    /* parent job <-> spawned writers */

/* Before the engine: the parent job spawns every server's writers and both
 * sides merge into one communicator, the run's (parent ranks first). */
void pf_multilayer_join(cio_app *a, const pf_opts *o)
{
    int nw = pf_layer_procs(o);
    if (nw == 0 || !o->ml_spawn) return;
    MPI_Comm parent, inter, merged;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) {
        inter = parent;         /* a spawned writer: the same argv, the same options */
        MPI_Intercomm_merge(inter, 1, &merged);
    } else {
        char exe[PATH_MAX], cwd[PATH_MAX];
        ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (len <= 0) snprintf(exe, sizeof exe, "%s", a->argv[0]);
        else exe[len] = '\0';
        MPI_Info info;
        MPI_Info_create(&info);
        if (getcwd(cwd, sizeof cwd)) MPI_Info_set(info, "wdir", cwd);
        int *codes = cio_calloc((size_t)nw, sizeof *codes);
        MPI_Comm_set_errhandler(a->comm, MPI_ERRORS_RETURN);
        int rc = MPI_Comm_spawn(exe, a->argv + 1, nw, info, 0, a->comm, &inter, codes);
        MPI_Comm_set_errhandler(a->comm, MPI_ERRORS_ARE_FATAL);
        MPI_Info_free(&info);
        int bad = rc != MPI_SUCCESS;
        for (int i = 0; i < nw && !bad; i++) bad = codes[i] != MPI_SUCCESS;
        cio_free(codes);
        if (bad) {
            char msg[MPI_MAX_ERROR_STRING] = "";
            int ml = 0;
            MPI_Error_string(rc, msg, &ml);
            cio_die_all(a->comm, "oserver_type multilayer: MPI_Comm_spawn of %d writer processes (%s) failed: %s; "
                                 "this MPI or launcher may not spawn processes: start them with the job instead "
                                 "(--multilayer_backend world and %d more ranks)", nw, exe,
                        rc != MPI_SUCCESS ? msg : "a process did not start", nw);
        }
        MPI_Intercomm_merge(inter, 0, &merged);
    }
    spawn_inter = inter;
    a->comm = merged;
    MPI_Comm_rank(merged, &a->rank);
    MPI_Comm_size(merged, &a->nprocs);
    cio_env_share(merged);      /* the parent job's rank 0 settles the environment for the writers too */
}

/* At the end: disconnect the spawned writers from the job (collective over the
 * run), so that neither side's MPI_Finalize talks to a process that has gone
 * (without it, Open MPI 4.1's spawned processes die of SIGPIPE in MPI_Finalize).
 * Every communicator derived from the run's is freed before. */
void pf_multilayer_leave(cio_app *a)
{
    if (spawn_inter == MPI_COMM_NULL) return;
    MPI_Comm_free(&a->comm);         /* (disconnecting the merged one hangs in Open MPI 4.1) */
    MPI_Comm_disconnect(&spawn_inter);
    a->comm = MPI_COMM_WORLD;
    MPI_Comm_rank(a->comm, &a->rank);
    MPI_Comm_size(a->comm, &a->nprocs);
}

/* Each server and its writers: an intercommunicator (collective over both). */
void pf_multilayer_connect(pf_ctx *c)
{
    c->inter_comm = MPI_COMM_NULL;
    if (c->server < 0 || !c->L.server[c->server].layered) return;
    const pf_server_layout *S = &c->L.server[c->server];
    int is_front = c->role == PF_ROLE_ML_FRONT;
    MPI_Intercomm_create(is_front ? c->group_comm : c->back_comm, 0, c->pcomm, is_front ? S->back[0] : S->ranks[0],
                         7000 + c->server, &c->inter_comm);
}

/* ---------------------------------------------------------------- the server */
typedef struct ml_front {
    pf_ctx *c;
    int rank;
} ml_front;

/* put_DataToFile: this rank's collections (those whose window it holds) go to
 * one writer the captain names, messages and data in one pack. */
static void forward(void *ctx, const pf_staged *w, int nc, int phase)
{
    ml_front *f = ctx;
    pf_ctx *c = f->c;
    pf_prof_start(&c->prof, "forward_data");
    pf_pack p;
    memset(&p, 0, sizeof p);
    for (int k = 0; k < nc; k++)
        if (w[k].mem_rank == f->rank)
            for (int q = 0; q < w[k].nreq; q++) pf_pack_count(&p, w[k].req[q], pf_stage_global_elems(w[k].req[q]) *
                                                                                (int64_t)cio_type_size(w[k].req[q]->type));
    double waited = 0;
    if (p.nmsg > 0) {
        pf_pack_alloc(&p);
        int nfiles = 0, wlen = 1;
        char **files = NULL;
        for (int k = 0; k < nc; k++) {
            if (w[k].mem_rank != f->rank) continue;
            char tname[48];
            snprintf(tname, sizeof tname, "collection_%d", w[k].id);
            pf_prof_start(&c->prof, tname);
            const pf_collection *coll = &c->coll[w[k].id - 1];
            for (int q = 0; q < w[k].nreq; q++) {
                const pf_stage *st = w[k].req[q];
                /* the file with its metadata, where the phase starts it */
                if (st->record == 0) {
                    int seen = 0;
                    for (int i = 0; i < q; i++) seen |= w[k].req[i]->file == st->file && w[k].req[i]->record == 0;
                    if (!seen) pf_create_file(c, coll, st->file, st->file_name);
                }
                int known = 0;
                for (int i = 0; i < nfiles && !known; i++) known = strcmp(files[i], st->file_name) == 0;
                if (!known) {
                    files = cio_realloc(files, (size_t)(nfiles + 1) * sizeof *files);
                    files[nfiles++] = cio_strdup(st->file_name);
                    wlen += pf_str_words(st->file_name);
                }
                /* ForwardDataMessage: the whole global array of the request */
                pf_stage fw = *st;
                for (int d = 0; d < fw.ndims; d++) {
                    fw.start[d] = 0;
                    fw.count[d] = fw.global_count[d];
                }
                pf_pack_add(&p, &fw, w[k].base + w[k].off[q], pf_stage_global_elems(st) * (int64_t)cio_type_size(st->type));
            }
            pf_prof_stop(&c->prof, tname);
        }
        /* Forward_dataToWriter: command 1 to the captain, its writer, then the pack */
        int32_t *cmd = cio_malloc((size_t)wlen * 4);
        cmd[0] = 1;
        for (int i = 0, at = 1; i < nfiles; i++) {
            at += pf_str_pack(files[i], cmd + at);
            cio_free(files[i]);
        }
        cio_free(files);
        double t0 = MPI_Wtime();
        MPI_Send(cmd, wlen, MPI_INT32_T, 0, PF_TAG_ML_CMD, c->inter_comm);
        cio_free(cmd);
        int writer;
        pf_recv(&writer, 1, MPI_INT, 0, PF_TAG_ML_ASSIGN, c->inter_comm);
        waited = MPI_Wtime() - t0;
        int64_t len = pf_pack_size(&p);
        pf_backlog_add(c, len);
        MPI_Send(&len, 1, MPI_INT64_T, writer, PF_TAG_ML_LEN, c->inter_comm);
        int nr = pf_big_nreq(len);
        MPI_Request *rq = cio_calloc((size_t)nr, sizeof *rq);
        pf_isend_big(p.buf, len, writer, PF_TAG_ML_PACK, c->inter_comm, rq);
        pf_waitall(nr, rq);
        cio_free(rq);
        cio_free(p.buf);
        pf_backlog_add(c, -len);
    }
    MPI_Barrier(c->group_comm);
    pf_prof_stop(&c->prof, "forward_data");
    c->writer_wait_s += waited;
    if (phase >= 0 && phase < c->o.nphases) {
        c->ph.writer_wait[phase] += waited;
        c->ph.aggregate[phase] -= waited;      /* the server's time less its wait for the captain */
    }
}

void pf_multilayer_front_run(pf_ctx *c)
{
    const pf_server_layout *S = &c->L.server[c->server];
    ml_front f = {c, 0};
    MPI_Comm_rank(c->group_comm, &f.rank);
    int lo = -1, n = 0;
    for (int m = 0; m < c->L.nmodel; m++)
        if (pf_server_of_client(m, c->L.nmodel, S->nfront) == f.rank) {
            if (lo < 0) lo = m;
            n++;
        }
    pf_mpiserver *s = pf_mpiserver_new(c, c->group_comm, S->ranks, n, c->L.model + (lo < 0 ? 0 : lo));
    pf_mpiserver_set_put(s, forward, &f);
    pf_mpiserver_serve(s);
    pf_mpiserver_free(s);
    /* terminate_writers: rank 0 stops the captain and waits for its answer, so
     * that the files are complete when the server ends */
    if (f.rank == 0) {
        double t0 = MPI_Wtime();
        int32_t stop = -1;
        int answer;
        MPI_Send(&stop, 1, MPI_INT32_T, 0, PF_TAG_ML_CMD, c->inter_comm);
        pf_recv(&answer, 1, MPI_INT32_T, 0, PF_TAG_ML_CMD, c->inter_comm);
        c->drain_s = MPI_Wtime() - t0;
    }
}

/* ---------------------------------------------------------------- captain */
typedef struct soldiers {
    int n;                      /* processes, the captain included */
    int *busy;
    char ***files;              /* per soldier: the files it is writing */
    int *nfiles;
    int nbusy, max_busy;
} soldiers;

static void mark_idle(soldiers *sd, int i)
{
    if (i < 1 || i >= sd->n || !sd->busy[i]) cio_die("protocol: writer %d reports idle but was given no work", i);
    sd->busy[i] = 0;
    sd->nbusy--;
    for (int k = 0; k < sd->nfiles[i]; k++) cio_free(sd->files[i][k]);
    sd->nfiles[i] = 0;
}

static void recv_idle(pf_ctx *c, soldiers *sd, int src)
{
    MPI_Status st;
    int who;
    pf_probe(src, PF_TAG_ML_IDLE, c->back_comm, &st);
    MPI_Recv(&who, 1, MPI_INT, st.MPI_SOURCE, PF_TAG_ML_IDLE, c->back_comm, MPI_STATUS_IGNORE);
    if (who != st.MPI_SOURCE) cio_die("protocol: writer %d says it is writer %d", st.MPI_SOURCE, who);
    mark_idle(sd, who);
}

static int writing(const soldiers *sd, char **files, int nfiles)
{
    for (int i = 1; i < sd->n; i++)
        for (int k = 0; k < sd->nfiles[i]; k++)
            for (int j = 0; j < nfiles; j++)
                if (strcmp(sd->files[i][k], files[j]) == 0) return 1;
    return 0;
}

void pf_multilayer_captain_run(pf_ctx *c)
{
    soldiers sd;
    memset(&sd, 0, sizeof sd);
    MPI_Comm_size(c->back_comm, &sd.n);
    sd.busy = cio_calloc((size_t)sd.n, sizeof(int));
    sd.files = cio_calloc((size_t)sd.n, sizeof(char **));
    sd.nfiles = cio_calloc((size_t)sd.n, sizeof(int));
    for (;;) {
        /* 1) a command from any server rank */
        MPI_Status st;
        int n;
        pf_probe(MPI_ANY_SOURCE, PF_TAG_ML_CMD, c->inter_comm, &st);
        MPI_Get_count(&st, MPI_INT32_T, &n);
        int server_rank = st.MPI_SOURCE;
        int32_t *w = cio_malloc((size_t)(n ? n : 1) * 4);
        MPI_Recv(w, n, MPI_INT32_T, server_rank, PF_TAG_ML_CMD, c->inter_comm, MPI_STATUS_IGNORE);
        if (n < 1 || w[0] != 1) {
            cio_free(w);
            break;
        }
        char **files = NULL;
        int nfiles = 0;
        for (int at = 1; at < n;) {
            char name[PF_PATH_LEN];
            int used = pf_str_unpack(name, sizeof name, w + at, n - at);
            if (used <= 0) cio_die("protocol: bad file name sent to the writers' captain");
            files = cio_realloc(files, (size_t)(nfiles + 1) * sizeof *files);
            files[nfiles++] = cio_strdup(name);
            at += used;
        }
        cio_free(w);
        /* the first idle soldier; none, or one of these files still being
         * written: wait for a soldier to report */
        int idle = 0;
        for (;;) {
            int flag = 1;
            while (flag) {
                MPI_Iprobe(MPI_ANY_SOURCE, PF_TAG_ML_IDLE, c->back_comm, &flag, &st);
                if (flag) recv_idle(c, &sd, st.MPI_SOURCE);
            }
            if (!writing(&sd, files, nfiles))
                for (int i = 1; i < sd.n && !idle; i++)
                    if (!sd.busy[i]) idle = i;
            if (idle) break;
            recv_idle(c, &sd, MPI_ANY_SOURCE);
        }
        /* tell the server rank its writer, and the writer its server rank */
        MPI_Send(&idle, 1, MPI_INT, server_rank, PF_TAG_ML_ASSIGN, c->inter_comm);
        sd.busy[idle] = 1;
        cio_free(sd.files[idle]);
        sd.files[idle] = files;
        sd.nfiles[idle] = nfiles;
        if (++sd.nbusy > sd.max_busy) sd.max_busy = sd.nbusy;
        MPI_Send(&server_rank, 1, MPI_INT, idle, PF_TAG_ML_WORK, c->back_comm);
    }
    /* stop every soldier, the busy ones once they are done */
    for (int i = 1; i < sd.n; i++) {
        if (sd.busy[i]) recv_idle(c, &sd, i);
        int no_job = -1;
        MPI_Send(&no_job, 1, MPI_INT, i, PF_TAG_ML_WORK, c->back_comm);
        cio_free(sd.files[i]);
    }
    pf_lazy_barrier(c->back_comm);
    int32_t done = -1;     /* to the server's rank 0: the files are complete */
    MPI_Send(&done, 1, MPI_INT32_T, 0, PF_TAG_ML_CMD, c->inter_comm);
    c->max_busy_writers = sd.max_busy;
    cio_free(sd.files[0]);
    cio_free(sd.files);
    cio_free(sd.nfiles);
    cio_free(sd.busy);
}

/* ---------------------------------------------------------------- soldiers */
typedef struct received {
    pf_stage *st;
    const void **data;
    int n;
} received;

static void take(void *ctx, const pf_stage *s, const void *data)
{
    received *r = ctx;
    r->st = cio_realloc(r->st, (size_t)(r->n + 1) * sizeof *r->st);
    r->data = cio_realloc(r->data, (size_t)(r->n + 1) * sizeof *r->data);
    r->st[r->n] = *s;
    r->data[r->n] = data;
    r->n++;
}

void pf_multilayer_writer_run(pf_ctx *c)
{
    int me;
    MPI_Comm_rank(c->back_comm, &me);
    for (;;) {
        int server_rank;
        pf_prof_start(&c->prof, "wait_work");
        pf_recv(&server_rank, 1, MPI_INT, 0, PF_TAG_ML_WORK, c->back_comm);
        pf_prof_stop(&c->prof, "wait_work");
        if (server_rank < 0) break;
        double t0 = MPI_Wtime();
        pf_prof_start(&c->prof, "receive_data");
        int64_t len;
        pf_recv(&len, 1, MPI_INT64_T, server_rank, PF_TAG_ML_LEN, c->inter_comm);
        char *buf = cio_malloc((size_t)(len ? len : 1));
        pf_backlog_add(c, len);
        int nr = pf_big_nreq(len);
        MPI_Request *rq = cio_calloc((size_t)nr, sizeof *rq);
        pf_irecv_big(buf, len, server_rank, PF_TAG_ML_PACK, c->inter_comm, rq);
        pf_waitall(nr, rq);
        cio_free(rq);
        pf_prof_stop(&c->prof, "receive_data");
        received r = {NULL, NULL, 0};
        pf_pack_each(buf, len, take, &r);
        /* write every collection of the pack into its files (which exist) */
        pf_prof_start(&c->prof, "write_data");
        int phase = r.n ? r.st[0].phase : -1;
        pf_wreq *wr = cio_calloc((size_t)(r.n ? r.n : 1), sizeof *wr);
        char *done = cio_calloc((size_t)(r.n ? r.n : 1), 1);
        for (int i = 0; i < r.n; i++) {
            if (done[i]) continue;
            int id = r.st[i].collection_id, nw = 0;
            if (id < 1 || id > c->o.ncollections) cio_die("protocol: a forwarded request names collection %d", id);
            for (int j = i; j < r.n; j++)
                if (!done[j] && r.st[j].collection_id == id) {
                    wr[nw].st = &r.st[j];
                    wr[nw].data = r.data[j];
                    nw++;
                    done[j] = 1;
                }
            char tname[48];
            snprintf(tname, sizeof tname, "collection_%d", id);
            pf_prof_start(&c->prof, tname);
            pf_write_collection_open(c, &c->coll[id - 1], wr, nw);
            pf_prof_stop(&c->prof, tname);
        }
        pf_prof_stop(&c->prof, "write_data");
        cio_free(done);
        cio_free(wr);
        cio_free(r.st);
        cio_free(r.data);
        cio_free(buf);
        pf_backlog_add(c, -len);
        if (phase >= 0 && phase < c->o.nphases) c->ph.write[phase] += MPI_Wtime() - t0;
        /* telling the captain: ready for more work */
        MPI_Send(&me, 1, MPI_INT, 0, PF_TAG_ML_IDLE, c->back_comm);
    }
    pf_lazy_barrier(c->back_comm);
}
