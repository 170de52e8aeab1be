/* PFIO's MpiServer: the simple server.  With no server ranks it runs on the
 * model ranks themselves (a client hands its block over in-process, the
 * SimpleSocket copy); with --npes_output_server and type single it runs on its
 * own ranks and receives from its clients over MPI.  Either way a write phase
 * is collective over the server's ranks:
 *   create_shared_mem  MPI_Win_allocate per collection, memory only on the
 *                      collection's writer (node (c-1) mod nodes, in-node rank
 *                      (c-1) mod node size);
 *   receive_data       each rank MPI_Puts its clients' blocks (subarray
 *                      datatypes) into the writer's window, then a fence;
 *   write_data         the writer writes the collection from its window;
 *   clean_up           fence and free: everyone waits for the writers.
 * Where Open MPI 4.1 would give two servers' windows the same shared-memory
 * file (several single servers on one node; see pf_window_collisions) the
 * blocks go to the writer in messages instead, into the same memory layout. */
#include "config.h"
#include "pfio_pack.h"
#include "pfio_serve.h"
#include "base/util.h"

#include <string.h>

struct pf_mpiserver {
    pf_ctx *c;
    MPI_Comm comm;
    int rank, size;
    int messages;               /* blocks travel in messages, not RMA */
    int *node, *in_node, *node_size, nnodes;   /* per comm rank, nodes numbered in comm order */
    pf_serve sv;
    pf_put_fn put;              /* multilayer: forward instead of writing */
    void *put_ctx;
};

void pf_mpiserver_set_put(pf_mpiserver *m, pf_put_fn fn, void *ctx)
{
    m->put = fn;
    m->put_ctx = ctx;
}

static int writing_pe(const pf_mpiserver *m, int counter)
{
    int node = (counter - 1) % m->nnodes, r;
    int in = (counter - 1) % m->node_size[node];
    for (r = 0; r < m->size; r++)
        if (m->node[r] == node && m->in_node[r] == in) return r;
    return 0;
}

typedef struct win_coll {
    int id, writer;
    MPI_Win win;
    char *base;
    int64_t bytes;
    int nreq;
    int *req_id;                /* request ids in the order of thread 0's backlog */
    int64_t *off;
} win_coll;

static int64_t req_offset(const win_coll *w, int request_id)
{
    for (int k = 0; k < w->nreq; k++)
        if (w->req_id[k] == request_id) return w->off[k];
    cio_die("protocol: request %d of collection %d is not staged by every client", request_id, w->id);
}

/* ---------------------------------------------------------------- messages */
enum { TAG_LEN = 30001, TAG_PACK = 30002 };

typedef struct placing {
    const win_coll *w;
} placing;

static void place_at(void *ctx, const pf_stage *s, const void *data)
{
    const win_coll *w = ((placing *)ctx)->w;
    pf_place_block(s, data, w->base + req_offset(w, s->request_id));
}

/* Every rank sends the writer of each collection one pack of its blocks; the
 * writer places them where the puts would have. */
static void send_blocks(pf_mpiserver *m, win_coll *w, int nc)
{
    pf_ctx *c = m->c;
    pf_serve *sv = &m->sv;
    for (int k = 0; k < nc; k++) {
        pf_pack p;
        memset(&p, 0, sizeof p);
        for (int i = 0; i < sv->nthreads; i++)
            for (int b = 0; b < sv->t[i].nbl; b++) {
                pf_bl *e = &sv->t[i].bl[b];
                if (e->st.collection_id == w[k].id && e->bytes > 0) pf_pack_count(&p, &e->st, e->bytes);
            }
        pf_pack_alloc(&p);
        for (int i = 0; i < sv->nthreads; i++)
            for (int b = 0; b < sv->t[i].nbl; b++) {
                pf_bl *e = &sv->t[i].bl[b];
                pf_serve_wait(c, e);
                if (e->st.collection_id == w[k].id && e->bytes > 0) pf_pack_add(&p, &e->st, e->data, e->bytes);
            }
        int64_t len = pf_pack_size(&p);
        int ns = 1 + pf_big_nreq(len);
        MPI_Request *sreq = cio_calloc((size_t)ns, sizeof *sreq);
        MPI_Isend(&len, 1, MPI_INT64_T, w[k].writer, TAG_LEN, m->comm, &sreq[0]);
        pf_isend_big(p.buf, len, w[k].writer, TAG_PACK, m->comm, sreq + 1);
        if (m->rank == w[k].writer) {
            placing pl = {&w[k]};
            for (int r = 0; r < m->size; r++) {
                int64_t n;
                pf_recv(&n, 1, MPI_INT64_T, r, TAG_LEN, m->comm);
                char *buf = cio_malloc((size_t)n);
                int nr = pf_big_nreq(n);
                MPI_Request *rreq = cio_calloc((size_t)nr, sizeof *rreq);
                pf_irecv_big(buf, n, r, TAG_PACK, m->comm, rreq);
                pf_waitall(nr, rreq);
                pf_pack_each(buf, n, place_at, &pl);
                cio_free(rreq);
                cio_free(buf);
            }
        }
        pf_waitall(ns, sreq);
        cio_free(sreq);
        cio_free(p.buf);
    }
}

/* One window (or, with messages, one buffer on its writer) per collection of the
 * phase, sized for the whole of the collection's requests. */
static win_coll *create_windows(pf_mpiserver *m, const pf_thread *t0, const int *ids, int nc)
{
    win_coll *w = cio_calloc((size_t)(nc ? nc : 1), sizeof *w);
    for (int k = 0; k < nc; k++) {
        w[k].id = ids[k];
        w[k].writer = writing_pe(m, k + 1);
        for (int b = 0; b < t0->nbl; b++) {
            const pf_stage *st = &t0->bl[b].st;
            if (st->collection_id != ids[k]) continue;
            w[k].req_id = cio_realloc(w[k].req_id, (size_t)(w[k].nreq + 1) * sizeof(int));
            w[k].off = cio_realloc(w[k].off, (size_t)(w[k].nreq + 1) * sizeof(int64_t));
            w[k].req_id[w[k].nreq] = st->request_id;
            w[k].off[w[k].nreq] = w[k].bytes;
            w[k].nreq++;
            w[k].bytes += pf_stage_global_elems(st) * (int64_t)cio_type_size(st->type);
        }
        MPI_Aint size = m->rank == w[k].writer ? (MPI_Aint)w[k].bytes : 0;
        if (m->messages) {
            w[k].base = m->rank == w[k].writer ? cio_malloc((size_t)(size ? size : 1)) : NULL;
        } else {
            MPI_Win_allocate(size, 1, MPI_INFO_NULL, m->comm, &w[k].base, &w[k].win);
            MPI_Win_fence(0, w[k].win);
        }
        if (m->rank == w[k].writer) pf_backlog_add(m->c, w[k].bytes);
    }
    return w;
}

/* The clients' blocks into the windows (or sent to the writers). */
static void receive_data(pf_serve *sv, pf_mpiserver *m, win_coll *w, int nc)
{
    if (m->messages) {
        send_blocks(m, w, nc);
        return;
    }
    for (int i = 0; i < sv->nthreads; i++) {
        pf_thread *t = &sv->t[i];
        for (int b = 0; b < t->nbl; b++) {
            pf_bl *e = &t->bl[b];
            pf_serve_wait(m->c, e);
            int k;
            for (k = 0; k < nc; k++)
                if (w[k].id == e->st.collection_id) break;
            if (k == nc || pf_stage_local_elems(&e->st) == 0) continue;
            pf_put_block(&e->st, e->data, w[k].writer, (MPI_Aint)req_offset(&w[k], e->st.request_id), w[k].win);
        }
    }
    for (int k = 0; k < nc; k++) MPI_Win_fence(0, w[k].win);
}

/* MultiLayerServer's put_DataToFile: the collections handed to the writers. */
static void put_to_writers(pf_mpiserver *m, const pf_thread *t0, const win_coll *w, int nc, int phase_no)
{
    pf_staged *sw = cio_calloc((size_t)(nc ? nc : 1), sizeof *sw);
    for (int k = 0; k < nc; k++) {
        sw[k].id = w[k].id;
        sw[k].mem_rank = w[k].writer;
        sw[k].base = w[k].base;
        sw[k].bytes = w[k].bytes;
        sw[k].nreq = w[k].nreq;
        sw[k].off = w[k].off;
        const pf_stage **rq = cio_calloc((size_t)(w[k].nreq ? w[k].nreq : 1), sizeof *rq);
        for (int q = 0; q < w[k].nreq; q++)
            for (int b = 0; b < t0->nbl; b++)
                if (t0->bl[b].st.request_id == w[k].req_id[q]) {
                    rq[q] = &t0->bl[b].st;
                    break;
                }
        sw[k].req = rq;
    }
    m->put(m->put_ctx, sw, nc, phase_no);
    for (int k = 0; k < nc; k++) cio_free((void *)sw[k].req);
    cio_free(sw);
}

/* Each collection written by its writing rank, timed per collection. */
static void write_collections(pf_serve *sv, pf_mpiserver *m, const pf_thread *t0, const win_coll *w, int nc)
{
    pf_ctx *c = m->c;
    pf_prof_start(&c->prof, "write_data");
    for (int k = 0; k < nc; k++) {
        char tname[48];
        snprintf(tname, sizeof tname, "collection_%d", w[k].id);
        pf_prof_start(&c->prof, tname);
        if (m->rank == w[k].writer) {
            pf_wreq *r = cio_calloc((size_t)(w[k].nreq ? w[k].nreq : 1), sizeof *r);
            int n = 0;
            for (int b = 0; b < t0->nbl; b++)
                if (t0->bl[b].st.collection_id == w[k].id) {
                    r[n].st = &t0->bl[b].st;
                    r[n].data = w[k].base + req_offset(&w[k], t0->bl[b].st.request_id);
                    n++;
                }
            pf_write_collection(c, pf_serve_collection(sv, w[k].id), r, n);
            cio_free(r);
        }
        pf_prof_stop(&c->prof, tname);
    }
    pf_prof_stop(&c->prof, "write_data");
}

static void free_windows(pf_mpiserver *m, win_coll *w, int nc)
{
    if (m->messages) MPI_Barrier(m->comm);
    for (int k = 0; k < nc; k++) {
        if (m->messages) {
            cio_free(w[k].base);
        } else {
            MPI_Win_fence(0, w[k].win);
            MPI_Win_free(&w[k].win);
        }
        if (m->rank == w[k].writer) pf_backlog_add(m->c, -w[k].bytes);
        cio_free(w[k].req_id);
        cio_free(w[k].off);
    }
    cio_free(w);
}

static void phase(pf_serve *sv)
{
    pf_mpiserver *m = sv->impl;
    pf_ctx *c = m->c;
    int *ids = NULL, nc = pf_serve_collections(sv, &ids), phase_no = sv->t[0].nbl ? sv->t[0].bl[0].st.phase : 0;
    int ncheck = nc;
    MPI_Allreduce(MPI_IN_PLACE, &ncheck, 1, MPI_INT, MPI_MAX, m->comm);
    if (ncheck != nc) cio_die("protocol: server ranks disagree on the collections of a write phase");
    double t_agg = MPI_Wtime();     /* the server ranks are all in the phase: service time from here */

    pf_prof_start(&c->prof, "create_shared_mem");
    const pf_thread *t0 = &sv->t[0];
    win_coll *w = create_windows(m, t0, ids, nc);
    pf_prof_stop(&c->prof, "create_shared_mem");

    pf_prof_start(&c->prof, "receive_data");
    receive_data(sv, m, w, nc);
    pf_prof_stop(&c->prof, "receive_data");
    double t_write = MPI_Wtime();

    if (m->put) put_to_writers(m, t0, w, nc, phase_no);    /* no write_data timer there */
    else write_collections(sv, m, t0, w, nc);
    double t_clean = MPI_Wtime();

    pf_prof_start(&c->prof, "clean_up");
    free_windows(m, w, nc);
    pf_prof_stop(&c->prof, "clean_up");
    if (phase_no >= 0 && phase_no < c->o.nphases) {
        /* multilayer: forwarding is the server's aggregation; its writers time the writing */
        c->ph.aggregate[phase_no] += m->put ? MPI_Wtime() - t_agg : t_write - t_agg;
        if (!m->put) c->ph.write[phase_no] += t_clean - t_write;
    }
    cio_free(ids);
}

pf_mpiserver *pf_mpiserver_new(pf_ctx *c, MPI_Comm comm, const int *members, int nclients, const int *clients)
{
    pf_mpiserver *m = cio_calloc(1, sizeof *m);
    m->c = c;
    m->comm = comm;
    m->messages = c->messages;
    MPI_Comm_rank(comm, &m->rank);
    MPI_Comm_size(comm, &m->size);
    m->node = cio_calloc((size_t)m->size, sizeof(int));
    m->in_node = cio_calloc((size_t)m->size, sizeof(int));
    m->node_size = cio_calloc((size_t)m->size, sizeof(int));
    int *ids = cio_calloc((size_t)m->size, sizeof(int));
    for (int r = 0; r < m->size; r++) {
        int nd = c->nodes.node_of[members[r]], k;
        for (k = 0; k < m->nnodes; k++)
            if (ids[k] == nd) break;
        if (k == m->nnodes) ids[m->nnodes++] = nd;
        m->node[r] = k;
        m->in_node[r] = m->node_size[k]++;
    }
    cio_free(ids);
    pf_serve_init(&m->sv, c, nclients, clients);
    m->sv.phase = phase;
    m->sv.impl = m;
    return m;
}

void pf_mpiserver_free(pf_mpiserver *m)
{
    if (!m) return;
    pf_serve_free(&m->sv);
    cio_free(m->node);
    cio_free(m->in_node);
    cio_free(m->node_size);
    cio_free(m);
}

void pf_mpiserver_serve(pf_mpiserver *m) { pf_serve_loop(&m->sv); }

/* ---------------------------------------------------------------- in-process (SimpleSocket) */
void pf_mpiserver_local_add(pf_mpiserver *m, const pf_collection *coll)
{
    /* SimpleSocket hands the message to the server thread in-process, whose
     * handler MAPL times as add_Histcollection (ServerThread.F90) */
    pf_prof_start(&m->c->prof, "add_Histcollection");
    pf_thread *t = &m->sv.t[0];
    t->coll = cio_realloc(t->coll, (size_t)(t->ncoll + 1) * sizeof *t->coll);
    pf_collection_init(&t->coll[t->ncoll], &m->c->o, coll->id);
    t->ncoll++;
    pf_prof_stop(&m->c->prof, "add_Histcollection");
}

void pf_mpiserver_local_stage(pf_mpiserver *m, const pf_stage *st, const void *data)
{
    pf_thread *t = &m->sv.t[0];
    if (t->nbl == t->blcap) {
        t->blcap = t->blcap ? 2 * t->blcap : 16;
        t->bl = cio_realloc(t->bl, (size_t)t->blcap * sizeof *t->bl);
    }
    pf_bl *b = &t->bl[t->nbl++];
    memset(b, 0, sizeof *b);
    b->st = *st;
    b->bytes = pf_stage_local_elems(st) * (int64_t)cio_type_size(st->type);
    b->data = cio_malloc((size_t)(b->bytes ? b->bytes : 1));
    memcpy(b->data, data, (size_t)b->bytes);
    pf_backlog_add(m->c, b->bytes);
}

void pf_mpiserver_local_done(pf_mpiserver *m)
{
    phase(&m->sv);
    pf_serve_clear(&m->sv);
}
