/* PFIO's MultiGroupServer.  The frontend receives the model's blocks and, once
 * all its clients have sent Done, packs them per collection and forwards each
 * collection to one writer of the backend, then returns to its clients: it
 * never waits for the disk.  The backend's rank 0, the captain, only
 * schedules: it hands each collection to an idle writer on the node with the
 * most idle writers, and never gives out a file another writer is still
 * writing.  A writer assembles the whole collection in memory and writes it. */
#include "config.h"
#include "pfio_pack.h"
#include "pfio_serve.h"
#include "base/util.h"

#include <string.h>

/* ---------------------------------------------------------------- frontend */
typedef struct front {
    pf_ctx *c;
    const pf_server_layout *S;
    int frank, is_root;
    char **buf;                 /* per backend rank: the pack still being sent */
    int64_t *buf_bytes;
    MPI_Request **reqs;
    int *nreq;
    pf_serve sv;
} front;

static void finish_send(front *f, int w)
{
    if (!f->buf[w]) return;
    pf_waitall(f->nreq[w], f->reqs[w]);
    cio_free(f->buf[w]);
    cio_free(f->reqs[w]);
    pf_backlog_add(f->c, -f->buf_bytes[w]);
    f->buf[w] = NULL;
    f->reqs[w] = NULL;
    f->nreq[w] = 0;
}

static int keep(const front *f, const pf_bl *e) { return e->bytes > 0 || f->is_root; }

/* receive_data: wait for every block and pack it with its message, one pack
 * per collection of the phase. */
static pf_pack *receive_packs(pf_serve *sv, front *f, const int *ids, int nc)
{
    pf_ctx *c = f->c;
    pf_pack *pk = cio_calloc((size_t)(nc ? nc : 1), sizeof *pk);
    for (int i = 0; i < sv->nthreads; i++)
        for (int b = 0; b < sv->t[i].nbl; b++) {
            const pf_bl *e = &sv->t[i].bl[b];
            for (int k = 0; k < nc; k++)
                if (ids[k] == e->st.collection_id && keep(f, e)) pf_pack_count(&pk[k], &e->st, e->bytes);
        }
    for (int k = 0; k < nc; k++) {
        if (c->o.front_concat) pf_pack_alloc_head(&pk[k]);
        else pf_pack_alloc(&pk[k]);
        pf_backlog_add(c, pf_pack_size(&pk[k]));
    }
    for (int i = 0; i < sv->nthreads; i++)
        for (int b = 0; b < sv->t[i].nbl; b++) {
            pf_bl *e = &sv->t[i].bl[b];
            char tname[48];
            snprintf(tname, sizeof tname, "collection_%d", e->st.collection_id);
            pf_prof_start(&c->prof, tname);
            pf_serve_wait(c, e);
            for (int k = 0; k < nc; k++)
                if (ids[k] == e->st.collection_id && keep(f, e)) {
                    if (c->o.front_concat) pf_pack_concat(&pk[k], &e->st, e->data, e->bytes);
                    else pf_pack_add(&pk[k], &e->st, e->data, e->bytes);
                }
            /* the block now lives in the pack */
            pf_backlog_add(c, -e->bytes);
            cio_free(e->data);
            e->data = NULL;
            pf_prof_stop(&c->prof, tname);
        }
    return pk;
}

/* forward_data for one collection: the root asks the captain for a writer;
 * everyone sends its pack there.  *waited: the root's wait for the captain;
 * *idle: waits for the other frontend ranks and for the writer. */
static void forward_pack(pf_serve *sv, front *f, int id, int phase_no, pf_pack *pk, double *waited, double *idle)
{
    pf_ctx *c = f->c;
    MPI_Comm pc = c->pcomm;
    int captain = f->S->back[0];
    int32_t info[2] = {id, phase_no};
    if (f->is_root) {
        if (pk->nmsg == 0) cio_die("internal: the frontend root has no message of collection %d", id);
        pf_stage first;
        pf_pack_first(pk, &first);
        int n = 2 + pf_str_words(first.file_name);
        int32_t *w = cio_malloc((size_t)n * 4);
        w[0] = info[0];
        w[1] = info[1];
        pf_str_pack(first.file_name, w + 2);
        MPI_Send(w, n, MPI_INT32_T, captain, PF_TAG_CAPTAIN, pc);
        cio_free(w);
    }
    MPI_Request rq;
    double tb = MPI_Wtime();
    MPI_Ibcast(info, 2, MPI_INT32_T, 0, c->front_comm, &rq);
    pf_waitall(1, &rq);
    *idle += MPI_Wtime() - tb;
    char tname[48];
    snprintf(tname, sizeof tname, "collection_%d", info[0]);
    pf_prof_start(&c->prof, tname);
    double wr[2] = {0, 0};
    if (f->is_root) {
        double tw = MPI_Wtime();
        int writer;
        pf_recv(&writer, 1, MPI_INT, captain, PF_TAG_ASSIGNED, pc);
        wr[0] = writer;
        wr[1] = MPI_Wtime() - tw;
        const pf_collection *coll = pf_serve_collection(sv, info[0]);
        int n = pf_collection_words(coll);
        int32_t *w = cio_malloc((size_t)n * 4);
        pf_collection_pack(coll, w);
        MPI_Send(w, n, MPI_INT32_T, f->S->back[writer], PF_TAG_FMD, pc);
        cio_free(w);
    }
    tb = MPI_Wtime();
    MPI_Ibcast(wr, 2, MPI_DOUBLE, 0, c->front_comm, &rq);
    pf_waitall(1, &rq);
    if (!f->is_root) *idle += MPI_Wtime() - tb;
    int writer = (int)wr[0];
    *waited += wr[1];
    if (writer < 1 || writer >= f->S->nback) cio_die("protocol: the captain chose backend rank %d", writer);
    tb = MPI_Wtime();
    finish_send(f, writer);         /* the previous pack to this writer */
    *idle += MPI_Wtime() - tb;
    if (c->o.front_concat) pf_pack_serialize(pk);
    f->buf[writer] = pk->buf;
    f->buf_bytes[writer] = pf_pack_size(pk);
    int64_t len = f->buf_bytes[writer];
    int dest = f->S->back[writer];
    MPI_Send(&len, 1, MPI_INT64_T, dest, PF_TAG_LEN, pc);
    f->nreq[writer] = pf_big_nreq(len);
    f->reqs[writer] = cio_calloc((size_t)f->nreq[writer], sizeof(MPI_Request));
    pf_isend_big(f->buf[writer], len, dest, PF_TAG_PACK, pc, f->reqs[writer]);
    pf_prof_stop(&c->prof, tname);
}

static void front_phase(pf_serve *sv)
{
    front *f = sv->impl;
    pf_ctx *c = f->c;
    /* waits that are not this phase's service time: for the captain, for the
     * other frontend ranks (collectives), for a writer to take the previous pack */
    double t0 = MPI_Wtime(), waited = 0, idle = 0;
    int *ids = NULL, nc = pf_serve_collections(sv, &ids);
    int phase_no = sv->t[0].nbl ? sv->t[0].bl[0].st.phase : 0;

    pf_prof_start(&c->prof, "receive_data");
    pf_pack *pk = receive_packs(sv, f, ids, nc);
    pf_prof_stop(&c->prof, "receive_data");

    pf_prof_start(&c->prof, "forward_data");
    for (int k = 0; k < nc; k++) forward_pack(sv, f, ids[k], phase_no, &pk[k], &waited, &idle);
    pf_prof_stop(&c->prof, "forward_data");

    pf_prof_start(&c->prof, "clean up");
    pf_serve_clear(sv);
    pf_prof_stop(&c->prof, "clean up");
    if (f->is_root) {
        c->writer_wait_s += waited;
        if (phase_no < c->o.nphases) c->ph.writer_wait[phase_no] += waited;
    }
    if (phase_no < c->o.nphases) c->ph.aggregate[phase_no] += MPI_Wtime() - t0 - (f->is_root ? waited : 0) - idle;
    cio_free(pk);
    cio_free(ids);
}

void pf_front_run(pf_ctx *c)
{
    front f;
    memset(&f, 0, sizeof f);
    f.c = c;
    f.S = &c->L.server[c->server];
    MPI_Comm_rank(c->front_comm, &f.frank);
    f.is_root = f.frank == 0;
    int nb = f.S->nback;
    f.buf = cio_calloc((size_t)nb, sizeof *f.buf);
    f.buf_bytes = cio_calloc((size_t)nb, sizeof *f.buf_bytes);
    f.reqs = cio_calloc((size_t)nb, sizeof *f.reqs);
    f.nreq = cio_calloc((size_t)nb, sizeof *f.nreq);
    /* my clients: a contiguous block of the model */
    int C = c->L.nmodel, S = f.S->nfront, lo = -1, n = 0;
    for (int m = 0; m < C; m++)
        if (pf_server_of_client(m, C, S) == f.frank) {
            if (lo < 0) lo = m;
            n++;
        }
    pf_serve_init(&f.sv, c, n, c->L.model + (lo < 0 ? 0 : lo));
    f.sv.phase = front_phase;
    f.sv.impl = &f;
    pf_serve_loop(&f.sv);

    /* every client has terminated: stop the backend, then let the last packs go */
    double t0 = MPI_Wtime();
    if (f.is_root) {
        int32_t stop[2] = {-1, 0};
        int reply;
        MPI_Send(stop, 2, MPI_INT32_T, f.S->back[0], PF_TAG_CAPTAIN, c->pcomm);
        pf_recv(&reply, 1, MPI_INT, f.S->back[0], PF_TAG_CAPTAIN_END, c->pcomm);
    }
    for (int w = 0; w < nb; w++) finish_send(&f, w);
    c->drain_s = MPI_Wtime() - t0;
    pf_serve_free(&f.sv);
    cio_free(f.buf);
    cio_free(f.buf_bytes);
    cio_free(f.reqs);
    cio_free(f.nreq);
}

/* ---------------------------------------------------------------- captain */
typedef struct crew {
    int nw;                     /* backend ranks, index 0 is the captain */
    int *node;                  /* node slot of each backend rank */
    int nnodes;
    int *idle;
    char **file;                /* file being written, NULL when idle */
    int busy, max_busy;
} crew;

static void writer_done(pf_ctx *c, crew *cr, const pf_server_layout *S, int src)
{
    int idx;
    MPI_Recv(&idx, 1, MPI_INT, src, PF_TAG_IDLE, c->pcomm, MPI_STATUS_IGNORE);
    MPI_Status st;
    int len;
    MPI_Probe(src, PF_TAG_FILE_DONE, c->pcomm, &st);
    MPI_Get_count(&st, MPI_CHAR, &len);
    char *name = cio_malloc((size_t)len + 1);
    MPI_Recv(name, len, MPI_CHAR, src, PF_TAG_FILE_DONE, c->pcomm, MPI_STATUS_IGNORE);
    name[len] = '\0';
    if (idx < 1 || idx >= cr->nw || S->back[idx] != src || cr->idle[idx] || !cr->file[idx] ||
        strcmp(cr->file[idx], name) != 0)
        cio_die("protocol: writer %d reports %s done, which it was not writing", idx, name);
    cio_free(cr->file[idx]);
    cio_free(name);
    cr->file[idx] = NULL;
    cr->idle[idx] = 1;
    cr->busy--;
}

static int being_written(const crew *cr, const char *file)
{
    for (int i = 1; i < cr->nw; i++)
        if (cr->file[i] && strcmp(cr->file[i], file) == 0) return 1;
    return 0;
}

/* An idle writer on the node with the most idle writers, or 0. */
static int pick(const crew *cr)
{
    int best_node = -1, best = 0;
    for (int k = 0; k < cr->nnodes; k++) {
        int n = 0;
        for (int i = 1; i < cr->nw; i++) n += cr->node[i] == k && cr->idle[i];
        if (n > best) {
            best = n;
            best_node = k;
        }
    }
    if (best_node < 0) return 0;
    for (int i = 1; i < cr->nw; i++)
        if (cr->node[i] == best_node && cr->idle[i]) return i;
    return 0;
}

void pf_captain_run(pf_ctx *c)
{
    const pf_server_layout *S = &c->L.server[c->server];
    MPI_Comm pc = c->pcomm;
    int root = S->front[0];
    crew cr;
    memset(&cr, 0, sizeof cr);
    cr.nw = S->nback;
    cr.node = cio_calloc((size_t)cr.nw, sizeof(int));
    cr.idle = cio_calloc((size_t)cr.nw, sizeof(int));
    cr.file = cio_calloc((size_t)cr.nw, sizeof(char *));
    int *seen = cio_calloc((size_t)cr.nw, sizeof(int));
    for (int i = 0; i < cr.nw; i++) {
        int nd = c->nodes.node_of[S->back[i]], k;
        for (k = 0; k < cr.nnodes; k++)
            if (seen[k] == nd) break;
        if (k == cr.nnodes) seen[cr.nnodes++] = nd;
        cr.node[i] = k;
        cr.idle[i] = i > 0;
    }
    cio_free(seen);
    for (;;) {
        int n;
        MPI_Status st;
        pf_probe(root, PF_TAG_CAPTAIN, pc, &st);
        MPI_Get_count(&st, MPI_INT32_T, &n);
        int32_t *w = cio_malloc((size_t)(n ? n : 1) * 4);
        MPI_Recv(w, n, MPI_INT32_T, root, PF_TAG_CAPTAIN, pc, MPI_STATUS_IGNORE);
        if (n < 2) cio_die("protocol: short request to the captain");
        if (w[0] < 0) {
            cio_free(w);
            break;
        }
        char file[PF_PATH_LEN];
        if (pf_str_unpack(file, sizeof file, w + 2, n - 2) < 0) cio_die("protocol: bad file name sent to the captain");
        int32_t work[2] = {w[0], w[1]};
        cio_free(w);
        int chosen;
        for (;;) {
            int flag = 1;
            while (flag) {
                MPI_Iprobe(MPI_ANY_SOURCE, PF_TAG_IDLE, pc, &flag, &st);
                if (flag) writer_done(c, &cr, S, st.MPI_SOURCE);
            }
            chosen = being_written(&cr, file) ? 0 : pick(&cr);
            if (chosen) break;
            /* nothing to give out yet: wait for a writer to finish */
            pf_probe(MPI_ANY_SOURCE, PF_TAG_IDLE, pc, &st);
            writer_done(c, &cr, S, st.MPI_SOURCE);
        }
        cr.idle[chosen] = 0;
        cr.file[chosen] = cio_strdup(file);
        if (++cr.busy > cr.max_busy) cr.max_busy = cr.busy;
        MPI_Send(&chosen, 1, MPI_INT, root, PF_TAG_ASSIGNED, pc);
        MPI_Send(work, 2, MPI_INT32_T, S->back[chosen], PF_TAG_WORK, pc);
    }
    /* stop the writers, the busy ones once they are done */
    for (int i = 1; i < cr.nw; i++) {
        if (!cr.idle[i]) writer_done(c, &cr, S, S->back[i]);
        int32_t stop[2] = {-1, 0};
        MPI_Send(stop, 2, MPI_INT32_T, S->back[i], PF_TAG_WORK, pc);
    }
    int end = -1;
    MPI_Send(&end, 1, MPI_INT, root, PF_TAG_CAPTAIN_END, pc);
    c->max_busy_writers = cr.max_busy;
    cio_free(cr.node);
    cio_free(cr.idle);
    cio_free(cr.file);
}

/* ---------------------------------------------------------------- writers */
typedef struct wglobal {
    pf_stage st;
    char *data;
    int64_t bytes;
} wglobal;

typedef struct assembly {
    pf_ctx *c;
    wglobal *g;
    int ng;
} assembly;

/* A block into the global array of its request (allocated when first seen). */
static void place(void *ctx, const pf_stage *s, const void *data)
{
    assembly *as = ctx;
    int j;
    for (j = 0; j < as->ng; j++)
        if (as->g[j].st.request_id == s->request_id) break;
    if (j == as->ng) {
        as->g = cio_realloc(as->g, (size_t)(as->ng + 1) * sizeof *as->g);
        as->g[j].st = *s;
        as->g[j].bytes = pf_stage_global_elems(s) * (int64_t)cio_type_size(s->type);
        as->g[j].data = cio_malloc((size_t)(as->g[j].bytes ? as->g[j].bytes : 1));
        pf_backlog_add(as->c, as->g[j].bytes);
        as->ng++;
    }
    pf_place_block(s, data, as->g[j].data);
}

/* MultiGroupServer's soldier logs one line per collection it wrote (pFlogger
 * INFO on MAPL.pfio): the time of its put_DataToFile calls, the data in MB and
 * the last file, at "node:rank" numbered within the backend (AbstractServer%init
 * on the back communicator: the node among the backend's nodes in rank order,
 * the rank within that node, the captain being 0:0). */
static void writer_log(pf_ctx *c, const pf_server_layout *S, double seconds, int64_t bytes, const char *file)
{
    int node = 0, in_node = 0, nnode = 0, me = -1;
    int *seen = cio_calloc((size_t)(S->nback ? S->nback : 1), sizeof *seen);
    for (int i = 0; i < S->nback; i++) {
        int nd = c->nodes.node_of[S->back[i]], k;
        for (k = 0; k < nnode; k++)
            if (seen[k] == nd) break;
        if (k == nnode) seen[nnode++] = nd;
        if (S->back[i] == c->wrank) {
            me = i;
            node = k;
        }
    }
    for (int i = 0; i < me; i++)
        if (c->nodes.node_of[S->back[i]] == c->nodes.node_of[c->wrank]) in_node++;
    cio_free(seen);
    double mb = (double)bytes / 1048576.0;
    printf(" Writing time: %9.3f s, speed: %9.3f MB/s, size: %9.3f MB, at server node: %d:%d, file: %s\n", seconds,
           seconds > 0 ? mb / seconds : 0.0, mb, node, in_node, file);
    fflush(stdout);
}

/* MAPL's writer copies the blocks out of each buffer before placing them
 * (ForwardDataAndMessage%deserialize): the pack, copied */
static char *deserialize(char *pack, int64_t len)
{
    char *copy = cio_malloc((size_t)len);
    memcpy(copy, pack, (size_t)len);
    cio_free(pack);
    return copy;
}

void pf_writer_run(pf_ctx *c)
{
    const pf_server_layout *S = &c->L.server[c->server];
    MPI_Comm pc = c->pcomm;
    int captain = S->back[0], me = -1;
    for (int i = 0; i < S->nback; i++)
        if (S->back[i] == c->wrank) me = i;
    pf_collection coll;
    memset(&coll, 0, sizeof coll);
    char **packs = cio_calloc((size_t)S->nfront, sizeof *packs);
    int64_t *lens = cio_calloc((size_t)S->nfront, sizeof *lens);
    for (;;) {
        int32_t work[2];
        pf_recv(work, 2, MPI_INT32_T, captain, PF_TAG_WORK, pc);
        if (work[0] < 0) break;
        double t0 = MPI_Wtime();
        /* the collection's metadata from the front root, then a pack from every front rank */
        int n;
        MPI_Status st;
        pf_probe(S->front[0], PF_TAG_FMD, pc, &st);
        MPI_Get_count(&st, MPI_INT32_T, &n);
        int32_t *fmd = cio_malloc((size_t)(n ? n : 1) * 4);
        MPI_Recv(fmd, n, MPI_INT32_T, S->front[0], PF_TAG_FMD, pc, MPI_STATUS_IGNORE);
        pf_collection_free(&coll);
        if (pf_collection_unpack(&coll, fmd, n) < 0 || coll.id != work[0])
            cio_die("protocol: bad metadata for collection %d", (int)work[0]);
        cio_free(fmd);
        int nreq_total = 0;
        MPI_Request *reqs = NULL;
        for (int i = 0; i < S->nfront; i++) {
            pf_recv(&lens[i], 1, MPI_INT64_T, S->front[i], PF_TAG_LEN, pc);
            packs[i] = cio_malloc((size_t)lens[i]);
            pf_backlog_add(c, lens[i]);
            int k = pf_big_nreq(lens[i]);
            reqs = cio_realloc(reqs, (size_t)(nreq_total + k) * sizeof *reqs);
            pf_irecv_big(packs[i], lens[i], S->front[i], PF_TAG_PACK, pc, reqs + nreq_total);
            nreq_total += k;
        }
        pf_waitall(nreq_total, reqs);
        cio_free(reqs);
        /* assemble a global array per request */
        assembly as = {c, NULL, 0};
        for (int i = 0; i < S->nfront; i++) {
            if (c->o.front_concat) packs[i] = deserialize(packs[i], lens[i]);
            pf_pack_each(packs[i], lens[i], place, &as);
            cio_free(packs[i]);
            pf_backlog_add(c, -lens[i]);
        }
        wglobal *g = as.g;
        int ng = as.ng;
        pf_wreq *r = cio_calloc((size_t)(ng ? ng : 1), sizeof *r);
        for (int j = 0; j < ng; j++) {
            r[j].st = &g[j].st;
            r[j].data = g[j].data;
        }
        double tw = MPI_Wtime();
        int64_t wbytes = pf_write_collection(c, &coll, r, ng);
        char file[PF_PATH_LEN];
        snprintf(file, sizeof file, "%s", ng ? g[0].st.file_name : "");
        if (c->o.writer_log) writer_log(c, S, MPI_Wtime() - tw, wbytes, ng ? g[ng - 1].st.file_name : "");
        for (int j = 0; j < ng; j++) {
            cio_free(g[j].data);
            pf_backlog_add(c, -g[j].bytes);
        }
        cio_free(g);
        cio_free(r);
        if (work[1] >= 0 && work[1] < c->o.nphases) c->ph.write[work[1]] += MPI_Wtime() - t0;
        MPI_Send(&me, 1, MPI_INT, captain, PF_TAG_IDLE, pc);
        MPI_Send(file, (int)strlen(file), MPI_CHAR, captain, PF_TAG_FILE_DONE, pc);
    }
    pf_collection_free(&coll);
    cio_free(packs);
    cio_free(lens);
}
