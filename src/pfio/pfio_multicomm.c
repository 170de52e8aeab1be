/* PFIO's MultiCommServer (MAPL pfio/MultiCommServer.F90).  The server splits
 * like the multigroup server into a frontend, which receives the model's
 * blocks, and a backend of --npes_backend_pernode ranks per node; there is no
 * captain: collection k of a write phase (in the order the phase first names
 * it) goes to backend rank (k - 1) mod nwriter.  A write phase is collective
 * over the whole server:
 *   the front root broadcasts a command (1: a phase, -1: terminate);
 *   the front root sends the phase's requests to the backend root, which
 *     passes them to every backend rank (create_remote_win);
 *   one RMA window per collection over the server, memory only on its writer;
 *   the frontend MPI_Puts its clients' blocks into it, and a fence
 *     (receive_output_data);
 *   the writers copy their windows into their own memory (put_DataToFile) and
 *     the windows are freed (clean_up): the frontend returns to its clients;
 *   the writers write their collections from the copies, then wait for the
 *     next command.
 * So the frontend does not wait for the disk, but a phase cannot start before
 * the writers have finished the previous one. */
#include "config.h"
#include "pfio_serve.h"
#include "base/util.h"

#include <string.h>

enum { TAG_MC_LEN = 31001, TAG_MC_REQS = 31002 };

typedef struct mc_coll {
    int id, writer;             /* writer: server-comm rank */
    int64_t bytes;
    int nreq;
    const pf_stage **req;       /* into the phase's request list */
    int64_t *off;
    MPI_Win win;
    char *base;
} mc_coll;

typedef struct mc {
    pf_ctx *c;
    const pf_server_layout *S;
    MPI_Comm scomm, bcomm;      /* the server; the backend (MPI_COMM_NULL on the frontend) */
    int srank, is_back;
    int *back_srank;            /* backend ranks in server-comm numbering */
    int front_root_srank;
    pf_serve sv;                /* frontend only */
} mc;

static void mc_init(mc *m, pf_ctx *c)
{
    memset(m, 0, sizeof *m);
    m->c = c;
    m->S = &c->L.server[c->server];
    m->scomm = c->group_comm;
    MPI_Comm_rank(m->scomm, &m->srank);
    m->is_back = c->role == PF_ROLE_BACK;
    /* the server comm is in world-rank order (MPI_Comm_split keyed by world rank) */
    m->back_srank = cio_calloc((size_t)m->S->nback, sizeof(int));
    for (int i = 0; i < m->S->nback; i++)
        for (int r = 0; r < m->S->nranks; r++)
            if (m->S->ranks[r] == m->S->back[i]) m->back_srank[i] = r;
    for (int r = 0; r < m->S->nranks; r++)
        if (m->S->ranks[r] == m->S->front[0]) m->front_root_srank = r;
    /* MAPL asserts that server rank 0 is the frontend's root */
    if (m->front_root_srank != 0) cio_die("internal: multicomm server rank 0 is not its frontend root");
    MPI_Comm_split(m->scomm, m->is_back ? 1 : MPI_UNDEFINED, m->srank, &m->bcomm);
}

static void mc_free(mc *m)
{
    if (m->bcomm != MPI_COMM_NULL) MPI_Comm_free(&m->bcomm);
    cio_free(m->back_srank);
}

/* The phase's collections, in the order the requests first name them, with each
 * request's offset in its collection's window (request order). */
static int plan_windows(mc *m, const pf_stage *reqs, int nreq, mc_coll **out)
{
    int nc = 0;
    mc_coll *w = cio_calloc((size_t)(nreq ? nreq : 1), sizeof *w);
    for (int i = 0; i < nreq; i++) {
        int k;
        for (k = 0; k < nc; k++)
            if (w[k].id == reqs[i].collection_id) break;
        if (k == nc) {
            w[nc].id = reqs[i].collection_id;
            w[nc].writer = m->back_srank[nc % m->S->nback];     /* get_writing_PE */
            w[nc].req = cio_calloc((size_t)nreq, sizeof *w[nc].req);
            w[nc].off = cio_calloc((size_t)nreq, sizeof *w[nc].off);
            nc++;
        }
        w[k].req[w[k].nreq] = &reqs[i];
        w[k].off[w[k].nreq] = w[k].bytes;
        w[k].nreq++;
        w[k].bytes += pf_stage_global_elems(&reqs[i]) * (int64_t)cio_type_size(reqs[i].type);
    }
    *out = w;
    return nc;
}

static int64_t offset_of(const mc_coll *w, int request_id)
{
    for (int k = 0; k < w->nreq; k++)
        if (w->req[k]->request_id == request_id) return w->off[k];
    cio_die("protocol: request %d of collection %d is not staged by every client", request_id, w->id);
}

static void open_windows(mc *m, mc_coll *w, int nc)
{
    for (int k = 0; k < nc; k++) {
        MPI_Aint size = m->srank == w[k].writer ? (MPI_Aint)w[k].bytes : 0;
        MPI_Win_allocate(size, 1, MPI_INFO_NULL, m->scomm, &w[k].base, &w[k].win);
        MPI_Win_fence(0, w[k].win);
        if (size) pf_backlog_add(m->c, w[k].bytes);
    }
}

/* put_DataToFile on the backend: the writer's copy of its window; then
 * clean_up frees the windows (collective over the server). */
static char **copy_and_close(mc *m, mc_coll *w, int nc)
{
    char **copy = cio_calloc((size_t)(nc ? nc : 1), sizeof *copy);
    for (int k = 0; k < nc; k++) {
        if (m->srank == w[k].writer) {
            copy[k] = cio_malloc((size_t)(w[k].bytes ? w[k].bytes : 1));
            memcpy(copy[k], w[k].base, (size_t)w[k].bytes);
            pf_backlog_add(m->c, w[k].bytes);
        }
    }
    for (int k = 0; k < nc; k++) {
        MPI_Win_free(&w[k].win);
        if (m->srank == w[k].writer) pf_backlog_add(m->c, -w[k].bytes);
    }
    return copy;
}

static void free_windows(mc_coll *w, int nc)
{
    for (int k = 0; k < nc; k++) {
        cio_free(w[k].req);
        cio_free(w[k].off);
    }
    cio_free(w);
}

/* ---------------------------------------------------------------- frontend */
static void front_phase(pf_serve *sv)
{
    mc *m = sv->impl;
    pf_ctx *c = m->c;
    double t0 = MPI_Wtime();
    const pf_thread *t0t = &sv->t[0];
    int phase_no = t0t->nbl ? t0t->bl[0].st.phase : 0;
    int cmd = 1;
    MPI_Bcast(&cmd, 1, MPI_INT, 0, m->scomm);
    /* this rank's view of the requests: its first client's, which every client shares */
    pf_stage *reqs = cio_calloc((size_t)(t0t->nbl ? t0t->nbl : 1), sizeof *reqs);
    for (int b = 0; b < t0t->nbl; b++) reqs[b] = t0t->bl[b].st;
    if (m->srank == 0) {
        int64_t len = (int64_t)t0t->nbl * (int64_t)sizeof *reqs;
        MPI_Send(&len, 1, MPI_INT64_T, m->back_srank[0], TAG_MC_LEN, m->scomm);
        MPI_Send(reqs, (int)len, MPI_BYTE, m->back_srank[0], TAG_MC_REQS, m->scomm);
    }
    mc_coll *w = NULL;
    int nc = plan_windows(m, reqs, t0t->nbl, &w);
    open_windows(m, w, nc);
    for (int i = 0; i < sv->nthreads; i++) {
        pf_thread *t = &sv->t[i];
        for (int b = 0; b < t->nbl; b++) {
            pf_bl *e = &t->bl[b];
            pf_serve_wait(c, e);
            const pf_stage *st = &e->st;
            if (pf_stage_local_elems(st) == 0) continue;
            int k;
            for (k = 0; k < nc; k++)
                if (w[k].id == st->collection_id) break;
            if (k == nc) cio_die("protocol: collection %d staged by one client only", st->collection_id);
            pf_put_block(st, e->data, w[k].writer, (MPI_Aint)offset_of(&w[k], st->request_id), w[k].win);
        }
    }
    for (int k = 0; k < nc; k++) MPI_Win_fence(0, w[k].win);
    char **copy = copy_and_close(m, w, nc);     /* nothing to copy on the frontend */
    cio_free(copy);
    free_windows(w, nc);
    cio_free(reqs);
    if (phase_no >= 0 && phase_no < c->o.nphases) c->ph.aggregate[phase_no] += MPI_Wtime() - t0;
}

void pf_multicomm_front_run(pf_ctx *c)
{
    mc m;
    mc_init(&m, c);
    const pf_server_layout *S = m.S;
    int frank = -1;
    for (int i = 0; i < S->nfront; i++)
        if (S->front[i] == c->wrank) frank = i;
    int lo = -1, n = 0;
    for (int k = 0; k < c->L.nmodel; k++)
        if (pf_server_of_client(k, c->L.nmodel, S->nfront) == frank) {
            if (lo < 0) lo = k;
            n++;
        }
    pf_serve_init(&m.sv, c, n, c->L.model + (lo < 0 ? 0 : lo));
    m.sv.phase = front_phase;
    m.sv.impl = &m;
    pf_serve_loop(&m.sv);
    int cmd = -1;
    MPI_Bcast(&cmd, 1, MPI_INT, 0, m.scomm);    /* terminate the backend */
    pf_serve_free(&m.sv);
    mc_free(&m);
}

/* ---------------------------------------------------------------- backend */
void pf_multicomm_back_run(pf_ctx *c)
{
    mc m;
    mc_init(&m, c);
    for (;;) {
        int cmd;
        double tw = MPI_Wtime();
        MPI_Bcast(&cmd, 1, MPI_INT, 0, m.scomm);
        c->writer_wait_s += MPI_Wtime() - tw;
        if (cmd == -1) break;
        /* the requests: from the front root to the backend root, then to every backend rank */
        int64_t len = 0;
        if (m.srank == m.back_srank[0]) pf_recv(&len, 1, MPI_INT64_T, 0, TAG_MC_LEN, m.scomm);
        MPI_Bcast(&len, 1, MPI_INT64_T, 0, m.bcomm);
        int nreq = (int)(len / (int64_t)sizeof(pf_stage));
        pf_stage *reqs = cio_calloc((size_t)(nreq ? nreq : 1), sizeof *reqs);
        if (m.srank == m.back_srank[0]) pf_recv(reqs, (int)len, MPI_BYTE, 0, TAG_MC_REQS, m.scomm);
        MPI_Bcast(reqs, (int)len, MPI_BYTE, 0, m.bcomm);
        int phase_no = nreq ? reqs[0].phase : 0;
        mc_coll *w = NULL;
        int nc = plan_windows(&m, reqs, nreq, &w);
        open_windows(&m, w, nc);
        for (int k = 0; k < nc; k++) MPI_Win_fence(0, w[k].win);
        char **copy = copy_and_close(&m, w, nc);
        /* the frontend is back with its clients: write what this rank holds */
        double t0 = MPI_Wtime();
        for (int k = 0; k < nc; k++) {
            if (!copy[k]) continue;
            pf_wreq *r = cio_calloc((size_t)w[k].nreq, sizeof *r);
            for (int q = 0; q < w[k].nreq; q++) {
                r[q].st = w[k].req[q];
                r[q].data = copy[k] + w[k].off[q];
            }
            pf_write_collection(c, &c->coll[w[k].id - 1], r, w[k].nreq);
            cio_free(r);
            cio_free(copy[k]);
            pf_backlog_add(c, -w[k].bytes);
        }
        if (phase_no >= 0 && phase_no < c->o.nphases) c->ph.write[phase_no] += MPI_Wtime() - t0;
        cio_free(copy);
        free_windows(w, nc);
        cio_free(reqs);
    }
    mc_free(&m);
}
